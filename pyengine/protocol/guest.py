"""A guest's side of a shared table, as a pure state machine.

The guest holds what its player may know: its seat and token, the latest view of that seat,
the seat list, and at most one intent awaiting the host's answer. Every entry point takes
the time from the caller and returns the texts to send to the host, so the same code runs
in CPython tests and in the browser worker, whatever the transport.

Why it cannot fall out of sync: every ``state`` message carries the seat's full view, so any
one message that arrives is a complete resync; the ``rev`` in the host's heartbeat answers
reveals a missed state (the guest then asks for ``sync``); a silent host is noticed by the
clock and rejoined with back-off, using the token, so a host reload or a guest reload both
end with the guest back in its seat. An intent stays pending until the host refuses it
(an ``error`` naming its ``seq``) or a state shows the seat has moved since (``acted``), and
is resent until then, which is safe: once the seat has moved, the host refuses every intent
that names an older version, so a duplicate can never act twice.

Why a hostile host cannot break the screen: a state is kept only if its seats fit
``PUBLIC_SEATS`` and its view fits the game's ``view_shape`` at that many seats, checked
before anything is kept, so the screen only ever draws a view that fits. A state that does
not fit changes nothing; ``error`` says why (``sync_bad_view`` and the path of the misfit).

At a fair table (``protocol.fair``) the guest also replays the host's public record
(``audit``, from ``record`` messages), does its seat's part of each draw by itself as soon as
a state asks for it (a commitment, a share, a reveal: ordinary intents; a reveal that ends
the round goes with the next round's commitment, ``intent_then``), shows its own cup
from its own secret (``view`` is then the replay's view, when it has caught up), and keeps
``audit.evidence`` of anything the host got wrong. Its secrets (``held``) are in its
snapshot (with ``ahead``, the next round's): store it whenever they changed (after an
intent), so a reload loses nothing.

At a table that is not fair (``protocol.witness``) the guest keeps the views it was shown
and the moves the host told it (``witness``), and checks the host's whole record against
them once the game is over; a record that fails is refused (``witness.refusal``), and the
table goes on as before. A seat's snapshot keeps the witness's account, so a reload loses
none of it.

Phrases (``protocol.phrases``): ``say`` sends one for our seat, no faster than the host
allows; a ``said`` from the host goes on this device's ``board`` (a muted seat's does not
show; the mutes are in the snapshot), unless its id is not one of the game's: then nothing
shows and ``error`` says why.
"""

from ..core.errors import BadSave, InvalidOptions
from ..core.registry import get_game
from ..core.shape import ShapeError
from .fair import Audit, held_from_json, held_to_json
from .witness import Witness
from .phrases import GUEST_SLACK_MS, MINUTE, Board, Pace, check_phrase
from .envelope import (
    INBOUND,
    MAX_INBOUND,
    MAX_OUTBOUND,
    MAX_SEATS,
    OUTBOUND,
    PUBLIC_SEATS,
    ProtocolError,
    check_id,
    check_name,
    check_seat,
    decode,
    encode,
)

SNAPSHOT_FORMAT = 1
PING_EVERY = 5_000  # ms between heartbeats; the host counts a seat absent after 15 s of silence
HOST_LOST_AFTER = 15_000  # ms without any message from the host before the banner shows
RESEND_AFTER = 3_000  # ms before an unanswered intent is sent again
RETRY_FIRST = 1_000  # ms before the first retry to (re)join; doubles up to RETRY_MAX
RETRY_MAX = 30_000
REFUSALS = (
    "sync_bad_token",
    "sync_seat_taken",
    "sync_no_such_seat",
    "sync_already_seated",
    "sync_replaced",
    "sync_closed",
    "sync_flooded",  # the host's page disconnected this guest for flooding (net_host_kick)
    "sync_removed",
    "sync_no_watchers",  # the host lets no more spectators in
    "sync_watchers_full",
)
SENT_AWAY = ("sync_flooded", "sync_removed")  # the host no longer hears us, seated or watching


class Guest:
    """One guest at one table.

    ``status``: ``connecting`` (no welcome yet), ``seated``, ``watching``, ``host_lost`` (the
    host went silent; retrying) or ``refused`` (the host turned the seat request or token
    down, or a newer connection took the seat over; ``error`` says why). A refused guest
    stays quiet until the player decides: ``take_seat`` another seat, or ``start`` again.
    ``error`` is the latest refusal: the host's, or the guest's own of a state it was sent.
    """

    def __init__(self, table_id: str, name: str = "", seat=None, token=None, room=None, held=None, board=None):
        check_id("table", table_id)
        if room is not None:
            check_id("room", room)
        check_name("name", name)
        if seat is not None or token is not None:
            check_seat("seat", seat)
        if token is not None:
            check_id("token", token)
        self.table_id = table_id
        self.name = name
        self.seat = seat
        self.token = token
        self.room = room  # the table's room code, from the host's welcome once seated
        self.status = "connecting"
        self.game = None
        self.view = None
        self.version = None
        self.rev = -1
        self.started = False
        self.seats: list = []
        self.pending = None
        self.error = None
        self.rtt = None
        self.ignored = 0  # messages dropped unread: malformed, or for another table
        self.misfits = 0  # states refused because their seats or view do not fit
        self._seq = 0
        self._heard = None
        self._pinged = None
        self._retry_at = 0  # a guest ticked before ``start`` says hello on its first tick
        self._retry_gap = RETRY_FIRST
        self.held = dict(held or {})  # fair tables: this seat's secrets ({seat: {"n", "secret"}})
        self.ahead: dict = {}  # and the next round's, committed to with our reveal (``Audit.following``)
        self.audit = None  # fair tables: the replay of the host's record
        self.witness = None  # tables that are not fair: what we were shown, and the record at the end
        self.phrases_on = False  # until the host's welcome says
        self.board = board or Board()
        self._phrase_pace = Pace(window=MINUTE + GUEST_SLACK_MS)

    # --- persistence ----------------------------------------------------------------------
    def snapshot(self) -> dict:
        """What a guest saves to come back after its own reload: table, seat and token."""
        seated = self.token is not None
        data = {
            "format": SNAPSHOT_FORMAT,
            "table": self.table_id,
            "seat": self.seat if seated else None,
            "token": self.token,
            "room": self.room if seated else None,
        }
        if self.held:
            data["held"] = held_to_json(self.held)
        if self.ahead:
            data["ahead"] = held_to_json(self.ahead)
        if self.board.muted:
            data["muted"] = self.board.to_json()
        witnessed = self.witness.to_json() if seated and self.witness is not None else None
        if witnessed is not None:
            data["witness"] = witnessed
        return data

    @classmethod
    def from_snapshot(cls, data, name: str = "") -> "Guest":
        if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
            raise BadSave("The save is not a seat at a shared table", "sync_save_format")
        try:
            seat = data.get("seat")
            seats = 1 + (seat if type(seat) is int and seat >= 0 else 0)
            held, ahead = (held_from_json(data.get(key, []), seats) for key in ("held", "ahead"))
            if any(other != seat for other in [*held, *ahead]):
                raise BadSave("The saved secrets belong to another seat", "fair_save_secrets")
            board = Board.from_json(data.get("muted", []), MAX_SEATS)
            guest = cls(data.get("table"), name, seat, data.get("token"), data.get("room"), held, board)
            guest.ahead.update(ahead)
            if "witness" in data:
                guest.witness = Witness.from_json(data["witness"], seat)
            return guest
        except ProtocolError as error:
            raise BadSave(f"The saved seat is malformed: {error.reason}", "sync_save_seat") from None

    # --- outbound -------------------------------------------------------------------------
    def _hello(self) -> str:
        """Rejoin with the token if we have one, else ask for the wanted seat (or to watch)."""
        if self.token is not None:
            return encode("rejoin", table=self.table_id, seat=self.seat, token=self.token)
        return encode("join", table=self.table_id, seat=self.seat, name=self.name)

    def start(self, now) -> list:
        """First contact (also after the guest's own reload, from ``from_snapshot``)."""
        self.status = "connecting"
        self._retry_gap = RETRY_FIRST
        self._schedule_retry(now)
        return [self._hello()]

    def _schedule_retry(self, now) -> None:
        """Exponential back-off: a host that is down is not flooded, one that is back is found."""
        self._retry_at = now + self._retry_gap
        self._retry_gap = min(self._retry_gap * 2, RETRY_MAX)

    def take_seat(self, seat, now) -> list:
        """Asks for an open seat; a watching guest keeps watching until the host says yes."""
        if self.token is not None:
            raise ProtocolError("You already hold a seat", "sync_already_seated", seat=self.seat)
        check_seat("seat", seat)
        self.seat = seat
        if self.status == "watching":
            return [self._hello()]
        return self.start(now)

    def intend(self, action, now, then=None) -> list:
        """Sends an action for our seat; one at a time, so the player cannot double-click.
        ``then``: the action the seat owes once ``action`` is played, sent with it
        (``intent_then``: a fair reveal and the next round's commitment)."""
        if self.status != "seated" or self.version is None:
            raise ProtocolError("You are not seated at this table", "sync_not_seated")
        if not self.started:
            raise ProtocolError("The host has not started the game yet", "sync_not_started")
        if self.pending is not None:
            raise ProtocolError("Your last action is still on its way", "sync_pending")
        if self.audit is not None:  # a fair card table: a played card goes with its key
            action = self.audit.complete(action)
        self._seq += 1
        self.error = None
        fields = {"action": action} if then is None else {"action": action, "then": then}
        text = encode(
            "intent" if then is None else "intent_then",
            table=self.table_id,
            seat=self.seat,
            version=self.version,
            seq=self._seq,
            **fields,
        )
        # The host's own gate: an intent it would reject unread (too big, no 'type') gets no
        # answer naming its seq, so it must never become pending and be resent forever.
        decode(text, INBOUND, MAX_INBOUND)
        self.pending = {
            "seq": self._seq,
            "version": self.version,
            "action": action,
            "text": text,
            "sent": now,
        }
        return [text]

    def say(self, phrase, now) -> list:
        """Sends a phrase for our seat, at most as often as the host allows (with some room
        for the way there), so that an honest guest is never the one the host drops."""
        if self.status != "seated":
            raise ProtocolError("You are not seated at this table", "sync_not_seated")
        check_phrase(self.game, phrase, self.phrases_on)
        if not self._phrase_pace.allow(self.seat, now):
            raise ProtocolError("Too many phrases: wait a moment", "phrase_too_fast")
        return [encode("say", table=self.table_id, seat=self.seat, phrase=phrase)]

    # --- inbound --------------------------------------------------------------------------
    def receive(self, text, now) -> list:
        """Handles one message from the host; malformed ones are counted and ignored."""
        try:
            message = decode(text, OUTBOUND, MAX_OUTBOUND)
        except ProtocolError:
            self.ignored += 1
            return []
        if message["table"] != self.table_id:
            self.ignored += 1
            return []
        self._heard = now
        self.board.at(now)
        kind = message["kind"]
        if kind == "welcome":
            return self._welcome(message, now)
        if kind == "error":
            return self._refused(message, now)
        if self.status in ("connecting", "refused"):
            return []
        if self.status == "host_lost":
            self.status = "seated" if self.token is not None else "watching"
        if kind == "pong":
            self.rtt = now - message["t"]
            self._audit_heard(now)
            return [] if message["rev"] == self.rev else [encode("sync", table=self.table_id)]
        if kind == "secret":
            if self.audit is not None and self.token is not None:
                self.audit.handed(message)
            return []
        if kind == "said":
            self._said(message, now)
            return []
        if kind in ("step", "game_record"):
            self._witnessed(message)
            return []
        if kind == "record":
            if self.audit is None or self.audit.seat != self.seat:
                self.audit = Audit(self.seat if self.token is not None else None, self.held, self.ahead)
            return [] if self.audit.record(message) else [encode("sync", table=self.table_id)]
        if message["rev"] < self.rev:  # an older state overtaken by a newer one
            return []
        misfit = self._misfit(message)
        if misfit is not None:
            self.misfits += 1
            self.error = misfit.to_json()
            return []
        first_since_welcome = self.rev < 0
        self.view = message["view"]
        self.version = message["version"]
        if self.witness is not None:
            self.witness.saw(self.version, self.view)
        self.rev = message["rev"]
        self.started = message["started"]
        self.seats = message["seats"]
        self._audit_state(now)
        if self.pending is None:
            return self._duty(now)
        if (message["acted"] or 0) > self.pending["version"]:  # our seat moved: it went through
            self.pending = None
            return self._duty(now)
        if first_since_welcome:  # back after a rejoin and the intent not yet played: send it
            self.pending["sent"] = now
            return [self.pending["text"]]
        return []

    def _said(self, message, now) -> None:
        """A seat's phrase, shown if this table offers it (a host could send any id)."""
        seat = message["seat"]
        try:
            check_phrase(self.game, message["phrase"], self.phrases_on)
            if seat >= len(self.seats):
                raise ProtocolError("There is no such seat", "sync_no_such_seat", seat=seat)
        except ProtocolError as error:
            self.ignored += 1
            self.error = error.to_json()
            return
        self.board.heard(seat, message["phrase"], now)

    # --- tables that are not fair -------------------------------------------------------------
    def _witnessed(self, message) -> None:
        """A move, or the whole record, of a table that is not fair (``protocol.witness``): the
        view we hold is the one before the move."""
        if self.game is None or not self.seats:
            return
        viewer = self.seat if self.token is not None else None
        witness = self.witness
        if witness is None or witness.viewer != viewer or witness.table not in (None, (self.game, len(self.seats))):
            self.witness = Witness(viewer)
        if message["kind"] == "game_record":
            self.witness.whole(message, self.game, len(self.seats))
            return
        if self.version == message["version"] - 1:
            self.witness.saw(self.version, self.view)
        self.witness.step(message, self.game, len(self.seats))

    # --- fair tables ------------------------------------------------------------------------
    def _audit_state(self, now) -> None:
        """Checks the host's view against the replay; shows the replay's (our cup filled in)."""
        if self.audit is None or self.audit.version != self.version:
            return
        self.audit.check(self.view, self.version)
        if not self.audit.disputed and self.audit.seat is not None:
            self.view = self.audit.view()
        self._audit_heard(now)

    def _audit_heard(self, now) -> None:
        """The host's own seats: not a friend's, nor a friend's a bot covers (only the friend's
        device holds that seat's secret)."""
        if self.audit is not None:
            own = [seat for seat, entry in enumerate(self.seats) if entry.get("kind") != "remote" and not entry.get("covered")]
            self.audit.heard(now, own)

    def _duty(self, now) -> list:
        """Our seat's part of a fair draw, sent as an ordinary intent as soon as it is due."""
        if self.audit is None or self.status != "seated" or not self.started or self.pending is not None:
            return []
        if self.audit.version != self.version:
            return []
        action = self.audit.duty()
        return [] if action is None else self.intend(action, now, self.audit.following(action))

    def _misfit(self, message):
        """Why this state's seats or view cannot be shown (a ``ProtocolError``), or None."""
        try:
            game = get_game(self.game)
        except InvalidOptions:
            return ProtocolError("This table plays a game this version cannot show", "sync_unknown_game")
        seats = message["seats"]
        for part, check, value in (("view", game.check_view, message["view"]), ("seats", PUBLIC_SEATS.check, seats)):
            try:
                check(value, len(seats))
            except ShapeError as error:
                error.path.insert(0, part)
                return ProtocolError(
                    f"The host sent a table this screen cannot show ({error})", "sync_bad_view", path=error.where
                )
        return None

    def _welcome(self, message, now) -> list:
        if message["game"] != self.game:  # another game: what we hold is not its view
            self.view = self.version = None
            self.started = False
            self.seats = []
        self.game = message["game"]
        self.seat = message["seat"]
        self.token = message["token"] if message["seat"] is not None else None
        if self.token is not None and message["room"] is not None:
            self.room = message["room"]
        self.status = "seated" if self.token is not None else "watching"
        self.phrases_on = message["phrases"]
        self.rev = -1  # a reloaded host may count from an older revision
        self.error = None
        self._pinged = now
        self._retry_at = None
        return []

    def _refused(self, message, now) -> list:
        """The host's error: settle the pending intent, recover where recovery is possible."""
        self.error = {"code": message["code"], "reason": message["reason"], "params": message["params"]}
        code = message["code"]
        if code == "sync_not_joined":  # the host forgot us (reload, new channel): the intent waits
            return self.start(now)
        if self.pending is not None and message["ref"] == self.pending["seq"]:
            self.pending = None
        if code in REFUSALS:
            if code == "sync_bad_token":
                self.token = None
            if self.status == "watching" and code not in SENT_AWAY:  # still a spectator there
                self.seat = None
            else:
                self.status = "refused"
            return []
        if code == "sync_stale":
            if message["params"].get("version") != self.version:
                return [encode("sync", table=self.table_id)]
            # Up to date already: a fair-draw step refused as stale (a reloaded host dates
            # every seat's turn from its reload) is still owed, and no news will come to
            # prompt it: send it again now, at the current version.
            return self._duty(now)
        return []

    # --- the transport's news -------------------------------------------------------------
    def lost(self, now) -> list:
        """The channel to the host closed: the banner shows at once, and retries start
        (with back-off) instead of waiting ``HOST_LOST_AFTER`` for silence to tell."""
        if self.status in ("seated", "watching"):
            self.status = "host_lost"
            self._retry_gap = RETRY_FIRST
            self._schedule_retry(now)
        return []

    def connected(self, now) -> list:
        """A new channel to the host is open: say hello now rather than at the next retry.
        A refused guest stays quiet until its player decides."""
        if self.status == "refused":
            return []
        self._retry_gap = RETRY_FIRST
        self._schedule_retry(now)
        return [self._hello()]

    # --- time -----------------------------------------------------------------------------
    def tick(self, now) -> list:
        """Heartbeats, resends and rejoin retries that are due at ``now``."""
        self.board.at(now)
        if self.status == "refused":
            return []
        if self.status in ("connecting", "host_lost"):
            if now < self._retry_at:
                return []
            self._schedule_retry(now)
            return [self._hello()]
        if now - self._heard > HOST_LOST_AFTER:
            self.status = "host_lost"
            self._retry_gap = RETRY_FIRST
            self._schedule_retry(now)
            return [self._hello()]
        outbox = []
        if now - self._pinged >= PING_EVERY:
            self._pinged = now
            outbox.append(encode("ping", table=self.table_id, t=now))
        if self.pending is not None and now - self.pending["sent"] >= RESEND_AFTER:
            self.pending["sent"] = now
            outbox.append(self.pending["text"])
        return outbox
