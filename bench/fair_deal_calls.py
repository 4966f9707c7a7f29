"""A fair Bog deal at ten devices through the worker's calls, as the pages make them: the CPU
of every device's calls (CPython, rbcl; every device in this one process), how many calls
and how much HTML the guests' workers made, the group operations, and the protocol's
messages by kind. Each device keeps its own memory of the steps it made, as
each page's worker does.

    nice -n 19 python bench/fair_deal_calls.py [--seats 10] [--repeat 3] [--policy page|one]

Each device is a ``shell.calls.Worker`` as in ``tests/app``; messages go round until none is
left, from the host's Start to every hand dealt. The host's page hands its worker every seated
guest's message waiting at once (``net_host_receive_all``). A guest's page (``site/session.js``):
``--policy one`` gives its worker one message a call (as before the eighth session);
``page`` (the default) as the page does now: what waits goes in one call
(``net_guest_receive_all``), and once a deal's progress shows, its news of steps the device
does not owe waits for more until a message that cannot wait comes or nothing else moves (the page waits at
most 300 ms: here, on one core, as long as it takes the others). The fastest of ``--repeat``
deals is printed.
"""

import argparse
import json
import os
import pathlib
import sys
import time
from collections import Counter, OrderedDict, defaultdict, deque

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pyengine.core import fair_deck, group as groups  # noqa: E402
from pyengine.shell.calls import Worker  # noqa: E402


class CountingGroup(groups.NativeGroup):
    """rbcl's group, counting the points checked and multiplied."""

    def __init__(self):
        super().__init__()
        self.counts = Counter()

    def is_valid_point(self, point):
        self.counts["point checks"] += 1
        return super().is_valid_point(point)

    def multiply_pairs(self, scalars, points):
        self.counts["multiplications"] += len(points)
        return super().multiply_pairs(scalars, points)


GROUP = CountingGroup()
groups.use(GROUP)


def deal_news(text: str, seat):
    """``dealNews`` of ``site/session.js``: "piece", "others", "own" or None."""
    message = json.loads(text)
    if message["kind"] == "record":
        return "piece"
    fair = (message.get("view") or {}).get("fair") if message["kind"] == "state" else None
    if not fair or fair.get("step") not in ("lock", "relock"):
        return None
    return "own" if seat in fair.get("owed", []) else "others"


class Table:
    def __init__(self, seats: int, policy: str):
        self.policy, self.now = policy, 1_000
        self.host, self.guests = Worker(), {}
        self.to_host, self.to_guest = deque(), defaultdict(deque)  # the latter: (text, may wait)
        self.dealing = Counter()  # peer -> whether the last state it got was of a deal's pass
        # Each device's memory of the steps it made (``fair_deck``), as each page's
        # worker has its own: in one process they would be shared, and made once for all.
        self.memory = defaultdict(OrderedDict)
        self.cpu, self.calls, self.html = Counter(), Counter(), Counter()
        self.received, self.bytes = Counter(), Counter()
        fields = {"seat0_kind": "human", "seat0_name": "Ana", "seed": "5", "deals": "1",
                  **{f"seat{s}_kind": "remote" for s in range(1, seats)},
                  **{f"seat{s}_kind": "none" for s in range(seats, 10)}}
        self.call("host", "net_host_create", {"game": "bog", "fields": fields})
        for seat in range(1, seats):
            peer = f"p{seat}"
            self.guests[peer] = Worker()
            self.call(peer, "net_guest_join", {"table": self.host.tables["host"].table_id(), "seat": seat, "name": peer})
            self.call(peer, "net_guest_connected")
            self.run()

    def call(self, device: str, name: str, *args) -> None:
        worker = self.host if device == "host" else self.guests[device]
        fair_deck._known_steps = self.memory[device]
        began = time.thread_time()
        reply = json.loads(getattr(worker, name)(*[a if isinstance(a, str) else json.dumps(a) for a in args], self.now, "en"))
        side = "host" if device == "host" else "guests"
        self.cpu[side] += time.thread_time() - began
        self.calls[side] += 1
        self.html[side] += len(reply["html"] or "")
        assert reply["ok"], reply
        for peer, text in reply["outbox"]:
            if device == "host":
                news = deal_news(text, self.guests[peer].tables["guest"].guest.seat)
                self.to_guest[peer].append((text, self.dealing[peer] and news in ("piece", "others")))
                if news != "piece":
                    self.dealing[peer] = news is not None
            else:
                self.to_host.append((device, text))

    def count(self, texts) -> None:
        for text in texts:
            kind = json.loads(text)["kind"]
            self.received[kind] += 1
            self.bytes[kind] += len(text)

    def run(self) -> None:
        while self.to_host or any(self.to_guest.values()):
            stuck = not self.to_host
            if self.to_host:
                batch = list(self.to_host)
                self.to_host.clear()
                self.count(text for _, text in batch)
                self.call("host", "net_host_receive_all", [[peer, text] for peer, text in batch])
            for peer, waiting in self.to_guest.items():
                if not waiting:
                    continue
                if self.policy == "one":
                    text, _ = waiting.popleft()
                    self.count([text])
                    self.call(peer, "net_guest_receive_all", [text])  # one call a message, as the page did
                    continue
                if not stuck and all(may_wait for _, may_wait in waiting):
                    continue
                texts = [text for text, _ in waiting]
                waiting.clear()
                self.count(texts)
                self.call(peer, "net_guest_receive_all", texts)

    def deal(self) -> None:
        for counter in (self.cpu, self.calls, self.html, self.received, self.bytes, GROUP.counts):
            counter.clear()
        self.call("host", "net_host_command", {"start": True})
        self.run()
        assert self.host.tables["host"].host.table.state["fair"]["step"] == "play"
        self.group = Counter(GROUP.counts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=10, choices=range(3, 11))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--policy", choices=("page", "one"), default="page")
    args = parser.parse_args()
    tables = []
    for _ in range(args.repeat):
        table = Table(args.seats, args.policy)
        table.deal()
        tables.append(table)
    best = min(tables, key=lambda table: sum(table.cpu.values()))
    print(f"Bog, {args.seats} devices, guests' pages '{args.policy}', fastest of {args.repeat}, load {os.getloadavg()[0]:.1f}:")
    print(f"  CPU of every device's calls {sum(best.cpu.values()) * 1000:,.0f} ms: host {best.cpu['host'] * 1000:,.0f} ms "
          f"in {best.calls['host']} calls, guests {best.cpu['guests'] * 1000:,.0f} ms in {best.calls['guests']} calls")
    print(f"  group operations (every device): {best.group['multiplications']:,} multiplications, "
          f"{best.group['point checks']:,} point checks")
    print(f"  HTML drawn: host {best.html['host'] / 1000:,.0f} kB, guests {best.html['guests'] / 1000:,.0f} kB")
    print("  messages received: " + ", ".join(f"{kind} {best.received[kind]} ({best.bytes[kind] / 1000:,.0f} kB)" for kind in sorted(best.received)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
