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
* Calza (off by default, as on BGA). Exact: the caller gains back a die (never above five);
  wrong: the caller loses one. Either way the caller starts the next round (he either lost
  the die, or took the initiative). Who may call it differs between sources: ``calza_by``
  ``turn`` (default) lets only the player whose turn it is; ``anyone`` lets any player still
  in except the last bidder, while the bid stands (those others are ``may_act``: optional
  actors, nobody waits for them). The setup form shows ``calza_by`` only with Calza on. A
  Calza names the bid it answers (``{"type": "calza", "round", "count", "face"}``, notation
  ``calza r5 3x4``), so one that crossed a new raise is refused (``perudo.calza_stale``) instead of
  landing on the wrong bid; only the player on turn may leave the bid unnamed (as saves
  from before the option did).
* Two players left: ``two_player_calza`` / ``two_player_palifico`` switch either rule off.
* Bids above the dice in play are legal unless ``cap_bids`` is on.
* ``lost_dice_visible`` (off; BGA's option, interface only): each player's lost dice are
  drawn beside his cup, set aside as on a real table.
* The first round is opened by a random player; the loser of a die opens the next round,
  and if he is out, the next player on his left (seats are numbered clockwise to the left).
* Fair tables (shared tables, ``core.fair``): every cup comes from its owner's secret and
  the round's joint nonce, and the first opener from the first nonce (``fair_nonce``). A
  Dudo or Calza opens the reveal: the call waits (``calling``) until every cup's secret is
  public, then every device settles it. Forfeit rule (``kits.bluffing``): a player whose
  device fails its part loses one die; before the round's nonce the draw starts over (the
  opener stays, or the next player on his left if he is out; no palifico comes of it), at
  the reveal the call is void and the round record names the forfeits; the first
  forfeiter opens the next round, as a loser would.
* ``history`` keeps the last ``MAX_HISTORY`` settled rounds for the screen (bids, the call,
  the dice that counted, who lost or gained a die), without the dice themselves: only the
  last round's cups (``last_round``) are shown. A state without it (older code) has none.

Cups, counting, losing dice and turn order are the shared mechanism in ``kits.bluffing``;
this module holds only Perudo's own rules.
"""

from ...kits import bluffing
from ...kits import fair as fair_moves
from ...kits.bluffing import (
    ACE,
    ACES_PLAIN,
    ACES_WILD,
    LEFT,
    MAX_BID_COUNT,
    MAX_ROUNDS,
    BID_FIELDS,
    DIE,
    BluffingGame,
    bid_shape,
    cap_refusal,
    ceil_half,
    count_bid,
    cup_view_shape,
    doubt_loser,
    hand_record,
    hand_record_shape,
    lose_die,
    next_starter,
    players_in,
    raise_refusal,
    refusal_error,
    roll_cups,
    sole_survivor,
)
from ...kits.dice import bid_text, parse_bid
from ...core import fair
from ...core.errors import IllegalAction
from ...core.game import NO_FIELDS, Move
from ...core.options import Option
from ...core.rng import Rng
from ...core.shape import Bool, Dict, Enum, Int, List, OneOf, Optional, PerSeat, Seat, Seats, Where
from ...core.validate import copy_json

START_DICE = 5
PACO = ACE
MAX_HISTORY = 8  # settled rounds kept for the screen's bid history

_REASONS = {
    **bluffing.REASONS,
    "perudo.paco_opening": "Nobody may open on pacos outside a palifico round",
    "perudo.palifico_face": "In a palifico round the face may not change",
    "perudo.palifico_low": "In a palifico round only the quantity may rise",
    "perudo.paco_too_low": "Going to pacos needs at least {count} pacos",
    "perudo.leave_paco_too_low": "Leaving pacos needs at least {count} dice",
    "perudo.paco_raise_low": "Raise the number of pacos",
    "perudo.calza_stale": "That bid is no longer the one on the table",
    "perudo.calza_unnamed": "A Calza out of turn must name the bid it answers",
    "perudo.calza_only": "Out of turn you may only call Calza",
}


def _refuse(refusal: tuple):
    return refusal_error(_REASONS, refusal)


def bid_refusal(previous, new: tuple, palifico: bool, strict_faces: bool):
    """Why ``new`` may not follow ``previous`` (``(count, face)`` tuples), or ``None``.

    Returns ``(code, params)`` rather than raising, so that listing every legal bid (the
    picker, the bots, random play) costs no exceptions.
    """
    count, face = new
    if previous is None:
        return ("perudo.paco_opening", {}) if face == PACO and not palifico else None
    old_count, old_face = previous
    if palifico:
        if face != old_face:
            return ("perudo.palifico_face", {})
        return ("perudo.palifico_low", {}) if count <= old_count else None
    if old_face != PACO and face == PACO:
        needed = ceil_half(old_count)
        return ("perudo.paco_too_low", {"count": needed}) if count < needed else None
    if old_face == PACO and face != PACO:
        needed = 2 * old_count + 1
        return ("perudo.leave_paco_too_low", {"count": needed}) if count < needed else None
    if old_face == PACO:
        return ("perudo.paco_raise_low", {}) if count <= old_count else None
    return raise_refusal(previous, new, strict_faces)


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
        and raise_refusal(previous, new, False) is None
    ):
        refusal = None  # variant W: a one-die player may change face by a plain raise
    if not refusal and options["cap_bids"]:
        refusal = cap_refusal(table["counts"], new[0])
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
    return bluffing.legal_bids(table_bid_refusal, table, seat, max_count)


def _loser_or_gainer(record: dict) -> bool:
    return (record["loser"] is None) != (record["gainer"] is None)


class Perudo(BluffingGame):
    id = "perudo"
    min_seats = 2
    max_seats = 6
    options = {
        "calza": Option(False),
        "calza_by": Option("turn", choices=("turn", "anyone")),
        "bidding": Option("face_free", choices=("face_free", "strict")),
        "palifico": Option(True),
        "palifico_one_die_change_face": Option(False),
        "two_player_calza": Option(True),
        "two_player_palifico": Option(True),
        "cap_bids": Option(False),
        "lost_dice_visible": Option(False),
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
            "history": [],
            "result": None,
        }

    calls = ("dudo", "calza")
    reasons = _REASONS

    # --- queries ----------------------------------------------------------------------
    def may_act(self, state: dict) -> list:
        """With ``calza_by`` ``anyone``: every player still in except the one on turn and the
        last bidder may call Calza on the standing bid (not while a fair draw's step is due)."""
        if state["result"] or state["options"]["calza_by"] != "anyone" or not self.calza_allowed(state):
            return []
        if fair.fair_phase(state):
            return []
        bidder = state["bids"][-1]["seat"]
        return [
            seat for seat, count in enumerate(state["counts"])
            if count > 0 and seat not in (bidder, state["turn"])
        ]

    def calza_allowed(self, state: dict) -> bool:
        options = state["options"]
        if not options["calza"] or not state["bids"]:
            return False
        return options["two_player_calza"] or players_in(state["counts"]) > 2

    def table_bid_refusal(self, table: dict, seat: int, bid: tuple):
        return table_bid_refusal(table, seat, bid)

    def legal_actions(self, state: dict, seat: int) -> list:
        """Every legal bid up to the dice in play (bids above it are legal but never useful),
        plus Dudo and Calza when allowed; out of turn, Calza only. Calls name the bid. None
        during a fair draw's step (the devices' part, not a player's choice)."""
        if self.is_over(state) or fair.fair_phase(state):
            return []
        if seat in self.may_act(state):
            return [self.calza_action(state)]
        if seat not in self.to_act(state):
            return []
        actions = self.bid_actions(state, seat)
        if state["bids"]:
            actions.append({"type": "dudo"})
        if self.calza_allowed(state):
            actions.append(self.calza_action(state))
        return actions

    @staticmethod
    def calza_action(table: dict) -> dict:
        """A Calza on the standing bid of ``table`` (a state or a view), naming it."""
        bid = table["bids"][-1]
        return {"type": "calza", "round": table["round"], "count": bid["count"], "face": bid["face"]}

    # --- moves --------------------------------------------------------------------------
    def play_phase(self, state: dict, seat: int) -> str:
        """The player on turn bids or calls; the others (``may_act``) may only call Calza."""
        return "turn" if seat == state["turn"] else "out_of_turn"

    def wrong_phase(self, state: dict, seat: int, kind: str) -> IllegalAction:
        if fair.fair_phase(state) or kind in fair_moves.MOVES:
            return fair.out_of_step(state, kind)
        return _refuse(("perudo.calza_only", {}))

    def play_call(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        """Dudo or Calza on the standing bid; a named Calza must name it."""
        kind = action["type"]
        if not state["bids"]:
            raise _refuse(("nothing_to_call", {}))
        if kind == "calza":
            named = len(action) > 1
            if not self.calza_allowed(state):
                raise IllegalAction("Calza is not allowed at this table now", "perudo.calza_off")
            if not named and seat != state["turn"]:
                raise _refuse(("perudo.calza_unnamed", {}))
            if named and action != self.calza_action(state):
                raise _refuse(("perudo.calza_stale", {}))
        self.reveal(state, seat, kind, rng)

    moves = {
        "bid": Move(BluffingGame.play_bid, BID_FIELDS, phases=("turn",)),
        "dudo": Move(play_call, phases=("turn",)),
        # Unnamed (from the player on turn, as saves from before ``calza_by`` hold) or
        # naming the bid it answers.
        "calza": Move(play_call, OneOf(
            NO_FIELDS, Dict({"round": Int(1, MAX_ROUNDS), "count": Int(1, MAX_BID_COUNT), "face": DIE}),
        )),
        **fair_moves.MOVES,
    }

    def reveal(self, state: dict, caller: int, call: str, rng: Rng) -> None:
        """Everyone shows: settle the call, then start the next round or end the game. At a
        fair table the call waits for the secrets (``fair_revealed`` settles it)."""
        if "fair" in state:
            self.await_reveal(state, {"caller": caller, "call": call})
            return
        self.settle(state, caller, call, rng, forfeits=[])

    def settle(self, state: dict, caller: int, call: str, rng, forfeits: list) -> None:
        """Counts the standing bid on the open cups; with ``forfeits`` the call is void and
        each forfeiter loses a die instead (the forfeit rule)."""
        bid = state["bids"][-1]
        aces_wild = not state["palifico"]
        actual = count_bid(state["dice"], bid["face"], ACES_WILD if aces_wild else ACES_PLAIN)
        loser = gainer = None
        if forfeits:
            loser = forfeits[0]
        elif call == "dudo":
            loser = doubt_loser(bid, caller, actual)
        elif actual == bid["count"]:
            gainer = caller
        else:
            loser = caller
        counts = state["counts"]
        for seat in forfeits or ([] if loser is None else [loser]):
            lose_die(counts, seat)
        if gainer is not None:
            counts[gainer] = min(START_DICE, counts[gainer] + 1)
        state["last_round"] = {
            **hand_record(state, caller, actual, loser),
            "round": state["round"],
            "call": call,
            "aces_wild": aces_wild,
            "gainer": gainer,
            "palifico": state["palifico"],
            **({"forfeits": forfeits} if forfeits else {}),
        }
        settled = {key: value for key, value in state["last_round"].items() if key != "dice"}
        state["history"] = (state.get("history", []) + [settled])[-MAX_HISTORY:]
        winner = sole_survivor(counts)
        if winner is not None:
            state["result"] = {"winners": [winner]}
            state["dice"] = [[] for _ in counts]
            state["bids"] = []
            return
        starter = next_starter(counts, caller if loser is None else loser, LEFT)
        self.start_round(state, starter, rng, dropped_to_one=loser is not None and counts[loser] == 1)

    def start_round(self, state: dict, starter: int, rng: Rng, dropped_to_one: bool) -> None:
        options = state["options"]
        palifico = (
            dropped_to_one
            and options["palifico"]
            and not state["palifico_done"][starter]
            and (options["two_player_palifico"] or players_in(state["counts"]) > 2)
        )
        if palifico:
            state["palifico_done"][starter] = True
        state["palifico"] = palifico
        state["round"] += 1
        state["turn"] = starter
        state["bids"] = []
        self.start_cups(state, rng)

    # --- fair tables ------------------------------------------------------------------------
    def fair_nonce(self, state: dict) -> None:
        """The first round's opener is public chance: drawn from the first nonce."""
        if state["round"] == 1:
            players = state["fair"]["players"]
            state["turn"] = players[fair.draw(state["fair"]["nonce"], "opener", len(players))]

    def fair_revealed(self, state: dict) -> None:
        calling = state["calling"]
        state["calling"] = None
        self.settle(state, calling["caller"], calling["call"], None, forfeits=self.reveal_cups(state))

    def fair_forfeit(self, state: dict, seat: int, step: str) -> None:
        """The forfeit rule (module docstring): at the reveal the cup stays sealed; before
        the nonce the forfeiter loses a die now and the draw starts over."""
        if step == "reveal":
            if not fair.owed(state["fair"]):
                self.fair_revealed(state)
            return
        counts = state["counts"]
        lose_die(counts, seat)
        winner = sole_survivor(counts)
        if winner is not None:
            state["result"] = {"winners": [winner]}
            state["dice"] = [[] for _ in counts]
            return
        if counts[state["turn"]] == 0:
            state["turn"] = next_starter(counts, state["turn"], LEFT)
        self.start_cups(state, None)

    # --- notation -------------------------------------------------------------------------
    def action_text(self, action: dict) -> str:
        """A named Calza reads ``calza r5 3x4`` (round 5's bid of three fours)."""
        if action["type"] == "calza" and "round" in action:
            return f"calza r{action['round']} {bid_text(action['count'], action['face'])}"
        return super().action_text(action)

    def parse_action(self, text: str) -> dict:
        words = text.strip().lower().split() if isinstance(text, str) else []
        if len(words) == 3 and words[0] == "calza" and words[1][:1] == "r" and words[1][1:].isdecimal():
            count, face = parse_bid(words[2])
            return {"type": "calza", "round": int(words[1][1:]), "count": count, "face": face}
        return super().parse_action(text)

    # --- seeing --------------------------------------------------------------------------
    def view(self, state: dict, seat) -> dict:
        """Public table plus the viewer's own cup; other cups only by their dice count."""
        return {
            **self.public_view(state, seat),
            "round": state["round"],
            "palifico": state["palifico"],
            "palifico_done": list(state["palifico_done"]),
            "last_round": copy_json(state["last_round"]),
            "history": copy_json(state.get("history", [])),
            "calza_allowed": self.calza_allowed(state),
            "may_act": self.may_act(state),
            **self.fair_view(state),
        }

    _bid = bid_shape()
    _round_fields = dict(
        round=Int(1, MAX_ROUNDS),
        call=Enum(*calls),
        aces_wild=Bool(),
        gainer=Optional(Seat()),
        palifico=Bool(),
    )
    _round_optional = {"forfeits": Seats()}  # a fair table's round voided by forfeits
    _last_round = Where(
        hand_record_shape(max_seats, START_DICE, _bid, _round_optional, **_round_fields),
        _loser_or_gainer,
        "a round has either a loser or a gainer",
    )
    _settled = hand_record_shape(max_seats, START_DICE, _bid, _round_optional, **_round_fields)
    del _settled.fields["dice"]  # the history keeps no cups
    _settled = Where(_settled, _loser_or_gainer, "a round has either a loser or a gainer")
    view_shape = cup_view_shape(
        id, options, START_DICE,
        {
            "round": Int(1, MAX_ROUNDS),
            "palifico": Bool(),
            "palifico_done": PerSeat(Bool()),
            "last_round": Optional(_last_round),
            "calza_allowed": Bool(),
        },
        bid=_bid,
        result=Dict({"winners": List(Seat(), max_len=1, min_len=1)}),
        optional={  # optional: a host from before them sends neither
            "history": List(_settled, max_len=MAX_HISTORY),
            "may_act": Seats(),
            "calling": Optional(Dict({"caller": Seat(), "call": Enum(*calls)})),  # fair tables
        },
    )

