"""Perudo, Asmodée rules with Palifico (digest: shared/rules/perudo.md).

Choices where the digest leaves room, each a table option unless said otherwise:

* Bidding style ``face_free`` (default): raising the quantity frees the face (3x4 -> 4x2);
  ``strict``: the face may not go down when the quantity rises.
* Pacos convert both ways: to pacos at least half the quantity rounded up, from pacos at
  least double plus one. Nobody may open on pacos outside a palifico round.
* Palifico (on by default): when a player first drops to exactly one die, the next round is
  his palifico round: he opens (pacos allowed), pacos are not wild and the face is locked.
  Once per player. ``palifico_one_die_change_face`` (variant W, off) lets players who hold a
  single die change the face during palifico by a plain raise.
* Calza (off by default, as on BGA): only the player whose turn it is may call it. Exact:
  the caller gains back a die (never above five); wrong: the caller loses one. Either way
  the caller starts the next round (he either lost the die, or took the initiative).
* Two players left: ``two_player_calza`` / ``two_player_palifico`` switch either rule off.
* Bids above the dice in play are legal unless ``cap_bids`` is on.
* The first round is opened by a random player; the loser of a die opens the next round,
  and if he is out, the next player on his left (seats are numbered clockwise to the left).
"""

from ...core.dice import (
    FACES,
    bid_text,
    count_face,
    next_in_play,
    parse_bid,
    roll_cups,
)
from ...core.errors import IllegalAction
from ...core.game import Game
from ...core.options import Option
from ...core.rng import Rng
from ...core.validate import copy_json, int_field, only_fields

START_DICE = 5
MAX_BID_COUNT = 999
PACO = 1


def _ceil_half(count: int) -> int:
    return (count + 1) // 2


_REASONS = {
    "paco_opening": "Nobody may open on pacos outside a palifico round",
    "palifico_face": "In a palifico round the face may not change",
    "palifico_low": "In a palifico round only the quantity may rise",
    "paco_too_low": "Going to pacos needs at least {need} pacos",
    "leave_paco_too_low": "Leaving pacos needs at least {need} dice",
    "paco_raise_low": "Raise the number of pacos",
    "bid_too_low": "Bid more dice, or the same dice on a higher face",
    "strict_face": "In strict bidding the face may not go down",
    "bid_over_cap": "There are only {dice} dice in play",
}


def _refuse(refusal: tuple):
    code, params = refusal
    return IllegalAction(_REASONS[code].format(**params), code, **params)


def bid_refusal(previous, new: tuple, palifico: bool, strict_faces: bool):
    """Why ``new`` may not follow ``previous`` (``(count, face)`` tuples), or ``None``.

    Returns ``(code, params)`` rather than raising, so that listing every legal bid (the
    picker, the bots, random play) costs no exceptions.
    """
    count, face = new
    if previous is None:
        return ("paco_opening", {}) if face == PACO and not palifico else None
    old_count, old_face = previous
    if palifico:
        if face != old_face:
            return ("palifico_face", {})
        return ("palifico_low", {}) if count <= old_count else None
    if old_face != PACO and face == PACO:
        needed = _ceil_half(old_count)
        return ("paco_too_low", {"need": needed}) if count < needed else None
    if old_face == PACO and face != PACO:
        needed = 2 * old_count + 1
        return ("leave_paco_too_low", {"need": needed}) if count < needed else None
    if old_face == PACO:
        return ("paco_raise_low", {}) if count <= old_count else None
    if count < old_count or (count == old_count and face <= old_face):
        return ("bid_too_low", {})
    if strict_faces and face < old_face:
        return ("strict_face", {})
    return None


def check_bid(previous, new, *, palifico: bool = False, strict_faces: bool = False) -> tuple:
    """Returns bid text ``new`` as ``(count, face)`` if it may follow ``previous``; else raises.

    ``previous`` is ``None`` for an opening bid. The reasons are the ones players see.
    """
    parsed = parse_bid(new)
    before = None if previous is None else parse_bid(previous)
    refusal = bid_refusal(before, parsed, palifico, strict_faces)
    if refusal:
        raise _refuse(refusal)
    return parsed


def bid_allowed(previous, new: str, *, palifico: bool = False, strict_faces: bool = False) -> bool:
    """Whether bid ``new`` (``"6x5"``, pacos ``"3x1"``) may follow ``previous`` (``None`` opens)."""
    try:
        check_bid(previous, new, palifico=palifico, strict_faces=strict_faces)
    except IllegalAction:
        return False
    return True


def table_bid_refusal(table: dict, seat: int, new: tuple):
    """The table's whole bid rule for ``seat``: the raise rule, variant W and the cap.

    ``table`` is a state or a seat's view: both carry ``bids``, ``palifico``, ``counts`` and
    ``options``, so the engine, the bid picker and the bots share this one function.
    """
    bids = table["bids"]
    previous = (bids[-1]["count"], bids[-1]["face"]) if bids else None
    options = table["options"]
    refusal = bid_refusal(previous, new, table["palifico"], options["bidding"] == "strict")
    if (
        refusal
        and table["palifico"]
        and previous is not None
        and options["palifico_one_die_change_face"]
        and table["counts"][seat] == 1
        and (new[0] > previous[0] or (new[0] == previous[0] and new[1] > previous[1]))
    ):
        refusal = None  # variant W: a one-die player may change face by a plain raise
    in_play = sum(table["counts"])
    if not refusal and options["cap_bids"] and new[0] > in_play:
        refusal = ("bid_over_cap", {"dice": in_play})
    return refusal


def check_table_bid(table: dict, seat: int, new: str) -> tuple:
    """Bid text ``new`` as ``(count, face)`` if ``seat`` may bid it at this table; else raises."""
    parsed = parse_bid(new)
    refusal = table_bid_refusal(table, seat, parsed)
    if refusal:
        raise _refuse(refusal)
    return parsed


def legal_bids(table: dict, seat: int, max_count=None) -> list:
    """Every ``(count, face)`` ``seat`` may bid, up to ``max_count`` (default: dice in play)."""
    top = sum(table["counts"]) if max_count is None else max_count
    return [
        (count, face)
        for count in range(1, top + 1)
        for face in FACES
        if table_bid_refusal(table, seat, (count, face)) is None
    ]


class Perudo(Game):
    id = "perudo"
    min_seats = 2
    max_seats = 6
    options = {
        "calza": Option(False),
        "bidding": Option("face_free", choices=("face_free", "strict")),
        "palifico": Option(True),
        "palifico_one_die_change_face": Option(False),
        "two_player_calza": Option(True),
        "two_player_palifico": Option(True),
        "cap_bids": Option(False),
    }

    # --- set-up ---------------------------------------------------------------------
    def setup(self, options: dict, seats: int, rng: Rng) -> dict:
        counts = [START_DICE] * seats
        return {
            "counts": counts,
            "dice": roll_cups(rng, counts),
            "turn": rng.below(seats),
            "round": 1,
            "bids": [],
            "palifico": False,
            "palifico_done": [False] * seats,
            "last_round": None,
            "result": None,
        }

    # --- queries ----------------------------------------------------------------------
    def to_act(self, state: dict) -> list:
        return [] if state["result"] else [state["turn"]]

    def players_in(self, state: dict) -> int:
        return sum(1 for n in state["counts"] if n > 0)

    def calza_allowed(self, state: dict) -> bool:
        options = state["options"]
        if not options["calza"] or not state["bids"]:
            return False
        return options["two_player_calza"] or self.players_in(state) > 2

    def legal_actions(self, state: dict, seat: int) -> list:
        """Every legal bid up to the dice in play (bids above it are legal but never useful),
        plus Dudo and Calza when allowed."""
        if self.is_over(state) or seat not in self.to_act(state):
            return []
        actions = [{"type": "bid", "count": c, "face": f} for c, f in legal_bids(state, seat)]
        if state["bids"]:
            actions.append({"type": "dudo"})
        if self.calza_allowed(state):
            actions.append({"type": "calza"})
        return actions

    # --- moves --------------------------------------------------------------------------
    def play(self, state: dict, seat: int, kind: str, action: dict, rng: Rng) -> None:
        if kind == "bid":
            only_fields(action, "count", "face")
            count = int_field(action, "count", 1, MAX_BID_COUNT)
            face = int_field(action, "face", 1, 6)
            refusal = table_bid_refusal(state, seat, (count, face))
            if refusal:
                raise _refuse(refusal)
            state["bids"].append({"seat": seat, "count": count, "face": face})
            state["turn"] = next_in_play(state["counts"], seat)
        elif kind in ("dudo", "calza"):
            only_fields(action)
            if not state["bids"]:
                raise IllegalAction("There is no bid to challenge yet", "nothing_to_call")
            if kind == "calza" and not self.calza_allowed(state):
                raise IllegalAction("Calza is not allowed at this table now", "calza_off")
            self.reveal(state, seat, kind, rng)
        else:
            raise IllegalAction(f"Unknown action {kind!r}", "unknown_action", kind=kind)

    def reveal(self, state: dict, caller: int, call: str, rng: Rng) -> None:
        """Everyone shows: settle the call, then start the next round or end the game."""
        bid = state["bids"][-1]
        aces_wild = not state["palifico"]
        actual = count_face(state["dice"], bid["face"], aces_wild)
        loser = gainer = None
        if call == "dudo":
            loser = caller if actual >= bid["count"] else bid["seat"]
        elif actual == bid["count"]:
            gainer = caller
        else:
            loser = caller
        counts = state["counts"]
        if loser is not None:
            counts[loser] -= 1
        else:
            counts[gainer] = min(START_DICE, counts[gainer] + 1)
        state["last_round"] = {
            "round": state["round"],
            "dice": state["dice"],
            "bids": state["bids"],
            "call": call,
            "caller": caller,
            "actual": actual,
            "aces_wild": aces_wild,
            "loser": loser,
            "gainer": gainer,
            "eliminated": loser if loser is not None and counts[loser] == 0 else None,
            "palifico": state["palifico"],
        }
        if self.players_in(state) == 1:
            winner = next(s for s, n in enumerate(counts) if n > 0)
            state["result"] = {"winners": [winner]}
            state["dice"] = [[] for _ in counts]
            state["bids"] = []
            return
        starter = caller if loser is None else loser
        if counts[starter] == 0:
            starter = next_in_play(counts, starter)
        self.start_round(state, starter, rng, dropped_to_one=loser is not None and counts[loser] == 1)

    def start_round(self, state: dict, starter: int, rng: Rng, dropped_to_one: bool) -> None:
        options = state["options"]
        palifico = (
            dropped_to_one
            and options["palifico"]
            and not state["palifico_done"][starter]
            and (options["two_player_palifico"] or self.players_in(state) > 2)
        )
        if palifico:
            state["palifico_done"][starter] = True
        state["palifico"] = palifico
        state["round"] += 1
        state["turn"] = starter
        state["bids"] = []
        state["dice"] = roll_cups(rng, state["counts"])

    # --- seeing --------------------------------------------------------------------------
    def view(self, state: dict, seat) -> dict:
        """Public table plus the viewer's own cup; other cups only by their dice count."""
        return {
            "game": self.id,
            "you": seat,
            "to_act": self.to_act(state),
            "turn": state["turn"],
            "round": state["round"],
            "counts": list(state["counts"]),
            "dice": list(state["dice"][seat]) if seat is not None else None,
            "bids": copy_json(state["bids"]),
            "palifico": state["palifico"],
            "palifico_done": list(state["palifico_done"]),
            "last_round": copy_json(state["last_round"]),
            "options": dict(state["options"]),
            "calza_allowed": self.calza_allowed(state),
            "result": copy_json(state["result"]),
        }

    def scramble_private(self, state: dict, seat: int, seed: int) -> dict:
        scrambled = copy_json(state)
        scrambled["dice"][seat] = roll_cups(Rng(seed), [state["counts"][seat]])[0]
        return scrambled

    # --- notation and bots -----------------------------------------------------------------
    def action_text(self, action: dict) -> str:
        if action["type"] == "bid":
            return bid_text(action["count"], action["face"])
        return action["type"]

    def parse_action(self, text: str) -> dict:
        word = text.strip().lower() if isinstance(text, str) else ""
        if word in ("dudo", "calza"):
            return {"type": word}
        count, face = parse_bid(text)
        return {"type": "bid", "count": count, "face": face}

    def bot_action(self, view: dict, level: str, seed: int) -> dict:
        from .bot import choose_action

        return choose_action(view, level, seed)
