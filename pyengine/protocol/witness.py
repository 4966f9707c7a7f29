"""What a guest keeps of a table that is not fair (Lasca; Botifarra for two, or dealt by the
5 of espases): its own account of the game, and at the end the host's whole record, checked.

At such a table the host's device draws the chance and knows everything, so there is no
public record to replay during play (a deal is in no log). What a guest may know is what
its seat was shown: each ``state``'s view, and each move, which the host sends as a
``step`` message just before the state it leads to (only the latest: a step is told from
the views before and after it, so an older one would tell nothing). The guest's game log
is told from these pairs of views (``steps_seen``), so it holds what this seat saw and
nothing else. A seat's save keeps this account (``to_json``: the moves told and every view
shown in this game, each view as the fields it changed or dropped since the one before,
compressed: ≈ 4 kB for a Lasca game of 54 moves, 20–26 kB for a two-player Botifarra game
to 101), so a guest back after a reload tells, and checks, the whole game; an account that
does not read back as moves and views of its game is refused with the save (``from_json``).

Once the game is over the host sends its whole record's text (``game_record``, once per
peer and game, before the last state): every deal is public then. The guest reads it as
any imported record (``records.read_record``: every step replayed through the rules) and
checks it against what it witnessed: the same game and table, every step it was sent, and
every view it was shown, the last (the game over) included. Only then is it kept
(``kept``); a record that fails is refused (``refusal``: a ``TabernaError`` the screen
translates) and changes nothing else. The record names the host's seats as the host has
them; the guest's screens name its own.
"""

import base64
import binascii
import json
import zlib

from ..core.errors import BadSave, TabernaError
from ..core.registry import get_game
from ..core.shape import ShapeError
from ..records.text import read_record
from .envelope import MAX_SEATS, ProtocolError, check_seat

MAX_SAVED = 4_000_000  # bytes: a saved account inflates to no more (a whole game is < 0.3 MB)


class PackedViews:
    """The saved form of a game's views, built as they come: each view as the fields it
    changed or dropped since the one before, encoded and compressed once, so that a save
    costs what the views since the last one add, not the whole game again."""

    def __init__(self, views: dict = None):
        self.version = None  # the latest view's
        self.last = {}
        self.packer = zlib.compressobj()
        self.packed = bytearray(self.packer.compress(b'{"views":['))
        for version, view in sorted((views or {}).items()):
            self.add(version, view)

    def add(self, version: int, view: dict) -> bool:
        """Appends a view later than every one so far; ``False`` (nothing done) otherwise."""
        if self.version is not None and version <= self.version:
            return False
        last = self.last
        changed = {key: value for key, value in view.items() if key not in last or last[key] != value}
        entry = json.dumps([version, changed, [key for key in last if key not in view]], separators=(",", ":"))
        self.packed += self.packer.compress(("," if self.version is not None else "").encode() + entry.encode())
        self.version, self.last = version, view
        return True

    def with_tail(self, tail: str) -> bytes:
        """The views, then ``tail`` (the account's other fields), as one compressed text."""
        packer = self.packer.copy()
        return bytes(self.packed) + packer.compress(("]," + tail).encode()) + packer.flush()


class Witness:
    """One guest's account of the current game of a table that is not fair."""

    def __init__(self, viewer):
        self.viewer = viewer  # the seat whose views we are sent (None: a spectator's)
        self.views: dict = {}  # version -> the view we were shown at that version
        self.base = None  # where the game of ``steps`` starts (counted in the table's versions)
        self.steps: dict = {}  # version -> {"seat", "action"}: the move that led to it
        self.record = None  # the host's whole record, read and checked so far: (base, record, states)
        self.kept = None  # and once its last view was seen too: (record, states)
        self.refusal = None  # why the host's record was refused
        self.table = None  # (game, seats) of the moves in ``steps``
        self.packed_views = PackedViews()  # ``views`` as saved (``to_json``)

    def saw(self, version: int, view: dict) -> None:
        """A state's view (already checked against the game's view shape)."""
        self.views[version] = view
        if not self.packed_views.add(version, view):  # shown again, or out of order: pack afresh
            self.packed_views = PackedViews(self.views)
        if self.record is not None:
            self._compare(version, view)

    def step(self, message: dict, game_id: str, seats: int) -> None:
        """A move the host says led to the next state; one that is not a move of this game at
        this table is dropped, and a new game (a rematch) forgets the last one."""
        game = get_game(game_id)
        seat, action = message["seat"], message["action"]
        move = game.moves.get(action["type"])
        if seat >= seats or move is None:
            return
        try:
            move.fields.check({key: value for key, value in action.items() if key != "type"}, seats)
        except ShapeError:
            return
        base = message["base"]
        if base != self.base:
            self.views = {v: view for v, view in self.views.items() if v >= base}
            self.packed_views = PackedViews(self.views)
            self.steps, self.record, self.kept, self.refusal, self.base = {}, None, None, None, base
        self.table = (game_id, seats)
        self.steps[message["version"]] = {"seat": seat, "action": action}

    def to_json(self):
        """This game's moves and views for the guest's save (``None``: no move told yet)."""
        if self.base is None:
            return None
        steps = [[version, entry["seat"], entry["action"]] for version, entry in sorted(self.steps.items())]
        tail = json.dumps({"game": self.table[0], "seats": self.table[1], "base": self.base, "steps": steps},
                          separators=(",", ":"))[1:]
        return base64.b64encode(self.packed_views.with_tail(tail)).decode()

    @classmethod
    def from_json(cls, text, viewer) -> "Witness":
        """A saved account read back as untrusted input: every move and view must fit the
        game, else the save is refused (``BadSave``) rather than believed."""
        try:
            inflate = zlib.decompressobj()
            raw = inflate.decompress(base64.b64decode(text, validate=True), MAX_SAVED)
            if inflate.unconsumed_tail or not inflate.eof:
                raise ValueError("too long or cut short")
            data = json.loads(raw)
            game, seats = get_game(data["game"]), data["seats"]
            if type(seats) is not int or not 2 <= seats <= MAX_SEATS or type(data["base"]) is not int:
                raise ValueError("no table")
            witness, view, version = cls(viewer), {}, -1
            for later, changed, dropped in data["views"]:
                if type(later) is not int or later <= version:
                    raise ValueError("views out of order")
                version, view = later, {key: value for key, value in {**view, **changed}.items() if key not in dropped}
                game.check_view(view, seats)
                witness.saw(version, view)
            for version, seat, action in data["steps"]:
                check_seat("seat", seat)
                if type(version) is not int:
                    raise ValueError("a step without its number")
                witness.step({"base": data["base"], "version": version, "seat": seat, "action": action}, game.id, seats)
                if version not in witness.steps:
                    raise ValueError(f"not a move at step {version}")
            return witness
        except (TabernaError, ShapeError, ValueError, TypeError, KeyError, AttributeError, RecursionError, binascii.Error, zlib.error) as error:
            raise BadSave(f"The saved seat is malformed: its game's account ({error})", "sync_save_seat") from None

    def steps_seen(self) -> list:
        """``[(number in its game, seat, action, view before, view after)]`` of every move
        we were shown with both views, in order."""
        return [(version - self.base, entry["seat"], entry["action"], self.views[version - 1], self.views[version])
                for version, entry in sorted(self.steps.items())
                if version - 1 in self.views and version in self.views]

    def whole(self, message: dict, game_id: str, seats: int) -> None:
        """The host's whole record of the game just over: read, replayed and checked against
        everything we witnessed so far (its last view comes next, ``saw``)."""
        if self.kept is not None or self.refusal is not None:
            return
        try:
            record, states = read_record(message["text"])
            base = message["base"]
            if record["game"] != game_id or len(record["seats"]) != seats or record["result"] is None:
                raise ProtocolError("The host's record is of another game", "sync_record_other")
            for version, entry in self.steps.items() if self.base == base else ():
                number = version - base
                said = record["steps"][number - 1] if 0 < number < len(states) else {}
                if (said.get("seat"), said.get("action")) != (entry["seat"], entry["action"]):
                    raise ProtocolError("The host's record contradicts what it showed", "sync_record_contradicts", step=number)
            self.record = (base, record, states)
            for version, view in self.views.items():
                self._compare(version, view)
        except TabernaError as error:
            self.refusal, self.record = error, None

    def _compare(self, version: int, view: dict) -> None:
        """A view we were shown must be the record's at that version; the last one keeps it."""
        base, record, states = self.record
        number = version - base
        if not 0 <= number < len(states):
            return
        if get_game(record["game"]).view(states[number], self.viewer) != view:
            self.refusal, self.record = (
                ProtocolError("The host's record contradicts what it showed", "sync_record_contradicts", step=number), None)
        elif number == len(states) - 1:
            self.kept, self.record = (record, states), None
