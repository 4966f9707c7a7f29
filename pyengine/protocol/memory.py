"""An in-memory transport: JSON strings between peer ids, in one process.

It is the reference for what browser transports must do (deliver text, in order, per link,
and sometimes lose it) and the harness for tests and bots. Links can be cut (messages both
ways are lost, as when a phone sleeps), single messages dropped, peers renamed (a new
connection gets a new id) and the host replaced (a host reload); ``lost`` counts what
never arrived.
"""

from collections import deque


class MemoryNetwork:
    """Routes the outboxes of one ``Host`` and its ``Guest`` s; time is a number it owns."""

    def __init__(self, host, now=0):
        self.host = host
        self.guests: dict = {}
        self.now = now
        self.queue: deque = deque()  # (sender, receiver, text); the host's peer id is None
        self.cut: set = set()
        self.drop = None  # optional predicate (sender, receiver, text) -> True to lose it
        self.lost = 0

    # --- wiring ---------------------------------------------------------------------------
    def add_guest(self, peer: str, guest) -> None:
        """Connects a guest under ``peer`` and sends its first hello."""
        self.guests[peer] = guest
        self.guest_says(peer, guest.start(self.now))

    def rename(self, old: str, new: str) -> None:
        """A guest reconnects under a new peer id (a fresh data channel); its old link is gone."""
        self.guests[new] = self.guests.pop(old)
        self.cut.discard(new)

    def replace_host(self, host) -> None:
        """The host reloaded: whatever was in flight to or from the old one is lost."""
        self.lost += len(self.queue)
        self.queue.clear()
        self.host = host

    # --- traffic --------------------------------------------------------------------------
    def host_says(self, outbox) -> None:
        """Queues a host outbox: ``(peer, text)`` pairs from any of the host's entry points."""
        self.queue.extend((None, peer, text) for peer, text in outbox)

    def guest_says(self, peer, texts) -> None:
        """Queues texts a guest's entry point returned, from ``peer`` to the host."""
        self.queue.extend((peer, None, text) for text in texts)

    def run(self, limit: int = 100_000) -> int:
        """Delivers queued messages (and their answers) until quiet; returns how many."""
        delivered = 0
        while self.queue and delivered < limit:
            sender, receiver, text = self.queue.popleft()
            guest_side = sender if receiver is None else receiver
            if (
                guest_side in self.cut
                or guest_side not in self.guests
                or (self.drop is not None and self.drop(sender, receiver, text))
            ):
                self.lost += 1
                continue
            delivered += 1
            if receiver is None:
                self.host_says(self.host.receive(sender, text, self.now))
            else:
                self.guest_says(receiver, self.guests[receiver].receive(text, self.now))
        return delivered

    def advance(self, ms) -> None:
        """Moves the clock on and lets everyone's timers fire (heartbeats, retries, absences)."""
        self.now += ms
        self.host_says(self.host.tick(self.now))
        for peer, guest in list(self.guests.items()):
            self.guest_says(peer, guest.tick(self.now))
        self.run()
