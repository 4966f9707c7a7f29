"""A fair table over the wire: the public record, the guest's own replay, the saved secrets.

``core.fair`` is the draw (commit, share, reveal) and the games play it as actions, so the
table's log is the whole public record. What this module adds:

* ``record`` messages: on a fair table the host sends each peer the log entries it has not
  had yet (all of them after a welcome, a ``sync`` or a host reload), before the state.
* ``Audit``: the guest's replay. It rebuilds the table from the record with the same rules,
  knowing its own seat's secret only, so it computes its own cup and, once the cups are
  revealed, every outcome itself. Whatever the host's view says that does not follow from
  the record (a count, a loser, a turn, a die), and any record entry the rules refuse (a
  reveal that does not match its commitment, a changed commitment), or a commitment in its
  seat's name that is not the one it made, or a record that rewrites what it had already
  sent, becomes *evidence*: data (a code, its params, the version), never accepted in
  silence. The host stays the sequencer (order of actions, presence), not the judge.
* Two steps in one trip: a guest's reveal that ends the round goes with its commitment for
  the next one (``Audit.following``, an ``intent_then``); the host plays both in turn. The
  order of ``core.fair`` is unchanged (the commitment is played once the new round has
  begun, the guest's share only once its replay shows every commitment in), and the new
  secret is drawn fresh before anything of that round is known.
* Withheld reveals: if the host's own seats owe their reveal while the host keeps talking,
  for ``WITHHELD_AFTER`` ms, the guest applies the forfeit rule to them in its replay and
  records ``fair_withheld``: on its screen the host lost by the rule.
* ``held_to_json`` / ``held_from_json``: a device's secrets for the current round, saved
  with the table (host) or the seat (guest) so a reload loses nothing; read back as
  untrusted input.
* ``secret`` messages: a friend's seat a bot covered at a commitment has that round's secret
  on the host's device (the host knew that cup anyway: its bot played it). Once the seat is
  the friend's again, the host hands the secret to the friend's device with every state
  until the round ends (``handover``); the guest keeps it only if it opens its seat's
  commitment in its replay (``Audit.handed``). Without it the friend saw no cup until the
  next round, its replay took the cup in the host's view for a lie, and the round waited
  for a reveal only the host could make (the forfeit rule then cost the friend a die).

What is not detected here: a host that tells different guests different records (each
guest's replay is consistent on its own); comparing record digests between guests is the
remedy (not built).
"""

import json

from ..core import fair
from ..core.errors import BadSave, TabernaError
from ..core.shape import Dict, List, ShapeError
from ..core.table import Table
from .envelope import MAX_SEATS, SEAT

# Per evidence code, the params that name a seat (counted from 0, as everywhere in the protocol;
# a screen counts from 1).
SEAT_PARAMS = {
    "fair_wrong_loser": ("announced", "revealed"),
    "fair_wrong_turn": ("announced", "expected"),
    "fair_wrong_dice": ("seat",),
    "fair_withheld": ("seat",),
    "fair_forged": ("seat",),
}
# Per field of a fair game's view, the words a guest's screen names it by when the host's
# table contradicts the record there (``fair_mismatch``; catalog ``sync.fair_field.<words>``).
FIELD_WORDS = {
    **dict.fromkeys(("bids", "history", "calling", "calza_allowed", "raiser", "direction", "choosing", "looked"), "bidding"),
    **dict.fromkeys(("dice", "counts", "rolls", "matches"), "dice"),
    **dict.fromkeys(("turn", "to_act", "may_act"), "turn"),
    **dict.fromkeys(("round", "hand", "phase", "last_round", "last_hand", "round_winners", "last", "palifico", "palifico_done"), "round"),
    **dict.fromkeys(("chips", "stakes", "payouts", "tally", "expected", "bank_rolls"), "chips"),
    **dict.fromkeys(("banker", "volunteers", "votes", "agreed", "lot", "drawing", "punters", "active", "done"), "bank"),
    **dict.fromkeys(("points", "result", "scores"), "score"),
    "fair": "draw",
    **dict.fromkeys(("game", "options", "seats", "you", "players", "sides", "partnerships"), "table"),
    # the card games (``kits.fair_cards``)
    **dict.fromkeys(("chooser", "delegated", "trump", "doubling", "calls", "passes", "question", "multiplier"),
                    "bidding"),
    **dict.fromkeys(("dealer", "first_dealer", "hand_number", "last_hand"), "round"),
    **dict.fromkeys(("legal_actions",), "turn"),
    **dict.fromkeys(("hand", "hand_counts", "piles", "trick", "tricks", "last_trick", "last_tricks", "tricks_won", "voids",
                     "cannot_hold", "legal_cards"), "cards"),
}
OWN_STEPS = ("commit", "share", "reveal", "lock", "relock", "release")  # a device's own part
WITHHELD_AFTER = 30_000  # ms the host may keep its own reveal back while it answers us
MAX_EVIDENCE = 64  # a hostile host cannot fill a guest's memory with complaints
HELD = List(Dict({"seat": SEAT, "n": fair.ROUND, "secret": fair.HEX}), max_len=MAX_SEATS)


def fair_id(table_id: str, base: int) -> str:
    """Each game at a table gets its own fair id, so nothing of one verifies in another."""
    return f"{table_id}:{base}"


def held_to_json(held: dict) -> list:
    return [{"seat": seat, "n": entry["n"], "secret": entry["secret"]} for seat, entry in sorted(held.items())]


def held_from_json(data, seats: int) -> dict:
    """Saved secrets, checked: a list of ``{seat, n, secret}``, one per seat of the table."""
    try:
        HELD.check(data, seats)
    except ShapeError as error:
        raise BadSave(f"The saved secrets are damaged: {error}", "fair_save_secrets") from None
    held = {entry["seat"]: {"n": entry["n"], "secret": entry["secret"]} for entry in data}
    if len(held) != len(data):
        raise BadSave("The saved secrets name a seat twice", "fair_save_secrets")
    return held


def handover(table: Table, seat):
    """``{"seat", "n", "secret"}``: the current fair round's secret of ``seat`` when this
    device made it (a bot covered the seat at the commitment) and the seat is a friend's
    again; else ``None``."""
    if table.fair is None or seat is None or table.seats[seat]["kind"] != "remote":
        return None
    entry, record = table.held.get(seat), table.state["fair"]
    if entry is None or entry["n"] != record["n"]:
        return None
    if record["commits"][seat] != fair.commit_secret(entry["secret"], record["id"], entry["n"], seat):
        return None
    return {"seat": seat, "n": entry["n"], "secret": entry["secret"]}


RECORD_CHUNK = 400  # log entries per record message at most
RECORD_BYTES = 96 * 1024  # and about this many bytes (a card deal's decks are ~3 kB each): far below the limit


def record_spans(log: list, start: int) -> list:
    """``(begin, end)`` of each record message that sends ``log[start:]``: at most
    ``RECORD_CHUNK`` entries and, past its first entry, ``RECORD_BYTES`` (as JSON) each; one
    empty span when a peer that had nothing is sent an empty log."""
    spans, begin, size = [], start, 0
    for index in range(start, len(log)):
        entry = len(json.dumps(log[index], separators=(",", ":")))
        if index > begin and (index - begin >= RECORD_CHUNK or size + entry > RECORD_BYTES):
            spans.append((begin, index))
            begin, size = index, 0
        size += entry
    if begin < len(log) or start == 0:
        spans.append((begin, len(log)))
    return spans


def record_fields(table: Table, table_id: str, base: int, start: int, end: int) -> dict:
    """The ``record`` message's fields: entries ``start`` to ``end`` of the current game's log."""
    return {
        "table": table_id,
        "fair": table.fair,
        "game": table.game.id,
        "base": base,
        "options": table.options,
        "seats": len(table.seats),
        "from": start,
        "entries": table.log[start:end],
    }


def _differences(host: dict, replayed: dict, version: int) -> list:
    """Evidence for every key of the host's view that the replay contradicts."""
    found = []
    for key in sorted(set(host) | set(replayed)):
        if key == "players" or host.get(key) == replayed.get(key):
            continue
        said, truth = host.get(key), replayed.get(key)
        if key in ("last_round", "last_hand") and isinstance(said, dict) and isinstance(truth, dict):
            bid = truth["bids"][-1]
            if said.get("actual") != truth["actual"]:
                found.append(("fair_wrong_count", {
                    "count": bid["count"], "face": bid["face"], "announced": said.get("actual"), "revealed": truth["actual"],
                }))
                continue
            if said.get("loser") != truth["loser"]:
                found.append(("fair_wrong_loser", {"announced": said.get("loser"), "revealed": truth["loser"]}))
                continue
        if key == "counts" and isinstance(said, list) and len(said) == len(truth):
            seat = next(s for s, (a, b) in enumerate(zip(said, truth)) if a != b)
            found.append(("fair_wrong_dice", {"seat": seat, "announced": said[seat], "revealed": truth[seat]}))
            continue
        if key == "turn":
            found.append(("fair_wrong_turn", {"announced": said, "expected": truth}))
            continue
        found.append(("fair_mismatch", {"field": str(key)[:32]}))
    return [{"code": code, "params": params, "version": version} for code, params in found]


class Audit:
    """A guest's replay of a fair table's public record (see the module docstring).

    ``held`` is the guest's own secrets (``{seat: {"n", "secret"}}``), shared with the
    ``Guest`` that saves them, and ``ahead`` the next round's, committed to with our reveal
    (``following``) and kept apart until the replay reaches that round, since until the
    host has our reveal we may have to send it again; ``evidence`` lists what the host's record or views got
    wrong; ``disputed`` is set once the replay has stopped following the host (a refused
    entry, a rewritten record, a withheld reveal): from then on only the evidence grows.
    """

    def __init__(self, seat, held: dict, ahead=None):
        self.seat = seat
        self.held = held
        self.ahead = {} if ahead is None else ahead
        self.table = None
        self.base = None
        self.evidence: list = []
        self.disputed = False
        self._withheld_since = None

    @property
    def version(self):
        return None if self.table is None else self.base + self.table.version

    def _report(self, code: str, version, **params) -> None:
        if len(self.evidence) < MAX_EVIDENCE:
            self.evidence.append({"code": code, "params": params, "version": version})

    def record(self, message: dict) -> bool:
        """Takes a record message; False when it does not follow on from what the replay
        has (a lost message): the guest then asks the host for a full ``sync``."""
        if self.disputed:
            return True
        start, entries = message["from"], message["entries"]
        if self.table is None or message["base"] != self.base or message["fair"] != self.table.fair:
            if start != 0:
                return False
            try:
                seats = [{"kind": "human", "name": ""} for _ in range(message["seats"])]
                self.table = Table(message["game"], message["options"], seats, 0, message["fair"])
            except TabernaError as error:
                self._report("fair_bad_record", message["base"], n=0, why=error.code)
                self.disputed = True
                return True
            if self.table.fair is None:
                self._report("fair_bad_record", message["base"], n=0, why="not_fair")
                self.disputed = True
                return True
            self.table.held = self.held
            self.base = message["base"]
        known = len(self.table.log)
        if start > known:
            return False
        if self.table.log[start:start + len(entries)] != entries[: known - start]:
            self._report("fair_rewritten", self.version)
            self.disputed = True
            return True
        for entry in entries[known - start:]:
            if not self._take(entry):
                return True
        return True

    def _take(self, entry: dict) -> bool:
        self._reached()
        seat, action = entry["seat"], entry["action"]
        number = self.version + 1
        mine = self.held.get(seat) if seat == self.seat else None
        if mine is not None and action.get("type") in OWN_STEPS and action.get("n") == mine["n"]:
            # Our seat's part of a draw or deal is what our device computes from our secret,
            # or the host forged it (a commitment, a deck, keys not ours).
            expected = self.table.duty(seat) if self.table.state["fair"]["n"] == mine["n"] else None
            if expected is not None and expected != action:
                self._report("fair_forged", number, seat=seat)
                self.disputed = True
                return False
        try:
            self.table.act(seat, action)
        except TabernaError as error:
            self._report("fair_bad_record", number, n=number, why=error.code)
            self.disputed = True
            return False
        return True

    def handed(self, message: dict) -> None:
        """Keeps our seat's secret the host hands over (``handover``) if it opens our seat's
        commitment of the current round in the replay; anything else changes nothing."""
        if self.disputed or self.table is None or message["seat"] != self.seat:
            return
        record, n, secret = self.table.state["fair"], message["n"], message["secret"]
        if n == record["n"] and record["commits"][self.seat] == fair.commit_secret(secret, record["id"], n, self.seat):
            self.held[self.seat] = {"n": n, "secret": secret}

    def check(self, view: dict, version: int) -> None:
        """Compares the host's view of our seat with the replay's at the same version."""
        if self.disputed or self.version != version:
            return
        # The host's view shows our sealed cup (or hand) only when its device made this
        # round's secret (``handover``): then it must be the one that secret gives.
        shown = self.table.game.sealed_shown(view)
        replayed = self.table.view(self.seat) if shown else self.table.game.view(self.table.state, self.seat)
        for item in _differences(view, replayed, version):
            if item not in self.evidence and len(self.evidence) < MAX_EVIDENCE:
                self.evidence.append(item)

    def view(self):
        """Our seat's view from the replay, our own cup filled in (``None`` before any record)."""
        return None if self.table is None else self.table.view(self.seat)

    def complete(self, action: dict) -> dict:
        """Our ``action`` as our device sends it (``Table.complete``: a card with its key)."""
        if self.disputed or self.table is None or self.seat is None:
            return action
        return self.table.complete(self.seat, action)

    def duty(self):
        """The fair-draw action our seat owes now (``core.fair.duty``), or ``None``."""
        if self.disputed or self.table is None or self.seat is None:
            return None
        self._reached()
        return self.table.duty(self.seat)

    def following(self, action):
        """The commitment our seat will owe once ``action``, our reveal, is played, if that
        reveal is the last one owed and a new round starts with our seat in it; its secret,
        fresh, goes to ``ahead``. Sent with the reveal (``intent_then``) it saves a round
        trip, and weakens nothing: a commitment binds a secret drawn before anything of the
        new round is known, and shares still come only once every commitment is in."""
        if action["type"] != "reveal":
            return None
        state = self.table.game.apply(self.table.state, self.seat, action)
        if self.table.game.is_over(state):
            return None
        drawn: dict = {}
        then = self.table.game.fair_duty(state, self.seat, drawn)
        if then is None or then["type"] not in ("commit", "lock"):  # a card deal opens with a lock
            return None
        self.ahead.clear()
        self.ahead.update(drawn)
        return then

    def _reached(self) -> None:
        """Once the replay is at ``ahead``'s round, its secret is our seat's (the reveal it
        came with is in the record); a stale one is dropped."""
        entry = self.ahead.get(self.seat)
        if entry is None or self.table.state["fair"]["n"] < entry["n"]:
            return
        if self.table.state["fair"]["n"] == entry["n"]:
            self.held[self.seat] = entry
        self.ahead.clear()

    def heard(self, now, host_seats: list) -> None:
        """The host is talking: if only its own seats still owe their reveal, and have for
        ``WITHHELD_AFTER``, they forfeit in our replay (the forfeit rule)."""
        if self.disputed or self.table is None or self.table.fair is None:
            return
        record = self.table.state["fair"]
        owing = fair.owed(record) if record["step"] == "reveal" else []
        if not owing or any(seat not in host_seats for seat in owing):
            self._withheld_since = None
            return
        if self._withheld_since is None:
            self._withheld_since = now
            return
        if now - self._withheld_since < WITHHELD_AFTER:
            return
        for seat in owing:
            self.table.act(seat, {"type": "forfeit", "n": record["n"]})
            self._report("fair_withheld", self.version, seat=seat)
        self.disputed = True

