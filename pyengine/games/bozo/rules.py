"""Bozó, the Brazilian liar's dice (digest: shared/rules/bozo.md; issue 3 where they differ).

2 to 20 players, 3 dice each (the source says "no limit"; 20 is the sane maximum we chose:
60 dice still fit the bid picker and the odds tables, 20 opponent strips still fit a phone's
table as two compact rows, and a turn comes round often enough to keep everyone at the table). A game is a series of rounds; a round is a series of hands,
each ending with one die lost; the last player holding dice wins the round and scores a
point; everyone starts the next round with 3 dice again.

Rules the engine enforces, with the digest's resolutions ([res]) as defaults and their
alternatives as table options:

* Counting: for a bid on face f (2-6) count the f's plus the aces, but aces count as f only
  if at least one die on the table naturally shows f; a bid on aces counts only aces.
* Bids (``bid_allowed``, the one rule the engine, the picker and the bots use): normal to
  normal by the growth rule (more dice, or as many on a higher face); ``bidding`` option
  ``face_free`` (default: 5 ternos -> 7 duques is legal) or ``strict`` (the face may not go
  down when the count rises). Entering aces: at least half the last bid, rounded up. Aces
  to aces: more aces. Leaving aces: at least double the aces, and above every ordinary bid
  already made in the hand. No aces bid may repeat or fall below an earlier one in the hand.
* ``aces_opening`` (default on): a hand may be opened in aces; off forbids it as in Perudo.
* ``cap_bids`` (off): bids above the dice in play are refused; by default they are legal
  (and always lose a doubt).
* Direction: the starter of a hand chooses left or right (a ``direction`` action) before
  his opening bid. ``direction`` option ``each_hand`` (default) or ``round``: fixed for the
  whole round, chosen by the round's first starter. With only two players in the hand both
  ways lead to the same player, so nobody is asked and the direction stays as it was.
* Who starts: the loser of a hand starts the next; if he is out, the nearest player with
  dice on his right, whatever the direction of play (seats are numbered clockwise, so the
  right is step -1). The first round is started by a random player; a later round by the
  winner of the previous one (``round_starter`` ``winner``, default) or a random player.
* Only the next player may doubt (``doubt``); if the count reaches the bid the doubter
  loses a die, otherwise the bidder does.
* ``blind_bids`` (off), "no escuro": cups stay closed to their owners when a hand is
  rolled. On his turn a player either lifts his cup (``look``, he keeps the turn) or bids
  without looking (the bid is marked ``blind``) and only then sees his dice.
* ``raise_own`` (off): before the next player speaks, the bidder may raise his own bid
  again, by an ordinary legal bid over it (so 8 duques <-> 4 ases counts as upwards), as
  often as he likes, and closes that window with ``keep``. The next player speaks after
  that: at a turn-based table a quick next player (a bot) would otherwise always speak
  before a human bidder could raise.
* End (``game_end``): at ``points_target`` points (default, 3), or after ``rounds`` rounds,
  when everyone with the most points wins.
* ``history`` keeps the last ``MAX_HISTORY`` settled hands for the screen, as ``last_hand``
  records them but without the cups.

Fair tables (shared tables, ``core.fair``): every cup comes from its owner's secret and the
hand's joint nonce; the first round's starter, and with ``round_starter`` ``random`` each
later round's, is drawn from the nonce of the round's first hand (``fair_nonce``). A doubt
opens the reveal at the end of the hand: it waits (``calling``) until every cup's secret is
public, then every device settles it. Forfeit rule (``kits.bluffing``): a player whose
device fails its part loses one die and starts the next hand as a loser would (before the
hand's nonce the hand is dealt again; at the reveal the doubt is void and the hand's record
names the forfeits); a player left alone with dice wins the round as usual.

The other etiquette rules need no engine: the hand's bids are always on screen (nobody has
to ask for them again), rolled dice never land stacked, and players who are out see only
what spectators see. Cups, counting, losing dice and turn order are the shared mechanism in
``kits.bluffing``; this module holds only Bozó's own rules.
"""

from ...kits import bluffing
from ...kits import fair as fair_moves
from ...kits.bluffing import (
    ACE,
    ACES_IF_SHOWN,
    LEFT,
    RIGHT,
    BID_FIELDS,
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
    next_in_play,
    next_starter,
    players_in,
    raise_refusal,
    sole_survivor,
)
from ...kits.dice import parse_bid
from ...core import fair
from ...core.errors import IllegalAction
from ...core.game import Move
from ...core.options import Option
from ...core.rng import Rng
from ...core.shape import Bool, Dict, Enum, Int, List, Optional, PerSeat, Seat, Seats
from ...core.validate import copy_json

START_DICE = 3
MAX_HISTORY = 8  # settled hands kept for the screen's history
WAYS = {"left": LEFT, "right": RIGHT}
WAY_NAMES = {LEFT: "left", RIGHT: "right"}

REASONS = {
    **bluffing.REASONS,
    "bozo.aces_opening": "This table does not allow opening in aces",
    "bozo.aces_too_low": "Going to aces needs at least {count} aces",
    "bozo.aces_not_above": "Aces bids must rise: {count} aces have been bid this hand",
    "bozo.leave_aces_too_low": "Leaving aces needs at least {count} dice",
    "bozo.not_above_earlier": "The bid must be above {count}x{face}, bid earlier this hand",
    "bozo.direction_first": "Choose the direction of play first",
}


def hand_rule(history: list, aces_opening: bool = True, strict_faces: bool = False):
    """Why a new bid may not follow ``history`` (``(count, face)`` tuples of the current hand,
    oldest first), as a function of the new bid giving ``(code, params)``, or ``None`` when
    it may. What the history decides is read once: ``legal_bids`` asks about every bid up to
    the dice in play (360 at 20 seats), once per move and per bot world."""
    if not history:
        if aces_opening:
            return lambda new: None
        return lambda new: ("bozo.aces_opening", {}) if new[1] == ACE else None
    last = history[-1]
    old_count, old_face = last
    top = max((c for c, f in history if f == ACE), default=0)
    if old_face != ACE:
        floor = ceil_half(old_count)

        def after_ordinary(new: tuple):
            if new[1] == ACE:
                if new[0] < floor:
                    return ("bozo.aces_too_low", {"count": floor})
                return ("bozo.aces_not_above", {"count": top}) if new[0] <= top else None
            return raise_refusal(last, new, strict_faces)

        return after_ordinary
    ordinary = [bid for bid in history if bid[1] != ACE]
    best = max(ordinary) if ordinary else None

    def after_aces(new: tuple):
        count, face = new
        if face == ACE:
            return ("bozo.aces_not_above", {"count": top}) if count <= top else None
        if count < 2 * old_count:
            return ("bozo.leave_aces_too_low", {"count": 2 * old_count})
        if best and raise_refusal(best, new, False):
            return ("bozo.not_above_earlier", {"count": best[0], "face": best[1]})
        return None

    return after_aces


def bid_allowed(history: list, new: str, *, aces_opening: bool = True, strict_faces: bool = False) -> bool:
    """Whether bid ``new`` (``"6x5"``, aces ``"3x1"``) may follow ``history``, the bids of
    the current hand oldest first. Malformed bid texts are never allowed."""
    try:
        before = [parse_bid(text) for text in history]
        parsed = parse_bid(new)
    except IllegalAction:
        return False
    return hand_rule(before, aces_opening, strict_faces)(parsed) is None


def table_rule(table: dict):
    """The table's whole bid rule (hand rule, options, phase) as a function of the new bid,
    with the hand read once; ``table`` is a state or a seat's view, so the engine, the
    picker and the bots share it."""
    if table["choosing"]:
        return lambda new: ("bozo.direction_first", {})
    options = table["options"]
    history = [(b["count"], b["face"]) for b in table["bids"]]
    rule = hand_rule(history, options["aces_opening"], options["bidding"] == "strict")
    if not options["cap_bids"]:
        return rule
    counts = table["counts"]

    def capped(new: tuple):
        return rule(new) or cap_refusal(counts, new[0])

    return capped


def table_bid_refusal(table: dict, seat: int, new: tuple):
    """Why ``seat`` may not bid ``new`` at ``table`` (every seat has the same bid rule)."""
    return table_rule(table)(new)


def legal_bids(table: dict, seat: int, max_count=None) -> list:
    """Every ``(count, face)`` ``seat`` may bid, up to ``max_count`` (default: dice in play)."""
    rule = table_rule(table)
    return bluffing.legal_bids(lambda _table, _seat, new: rule(new), table, seat, max_count)


class Bozo(BluffingGame):
    id = "bozo"
    min_seats = 2
    max_seats = 20  # see the module docstring
    calls = ("doubt", "look", "keep")
    reasons = REASONS
    options = {
        "aces_opening": Option(True),
        "bidding": Option("face_free", choices=("face_free", "strict")),
        "cap_bids": Option(False),
        "direction": Option("each_hand", choices=("each_hand", "round")),
        "round_starter": Option("winner", choices=("winner", "random")),
        "blind_bids": Option(False),
        "raise_own": Option(False),
        "game_end": Option("points", choices=("points", "rounds")),
        "points_target": Option(3, minimum=1, maximum=21),
        "rounds": Option(5, minimum=1, maximum=50),
    }

    # --- set-up ---------------------------------------------------------------------
    def setup(self, options: dict, seats: int, rng: Rng) -> dict:
        state = {
            "options": options,
            "counts": [START_DICE] * seats,
            "dice": [],
            "looked": [],
            "turn": rng.below(seats),
            "direction": LEFT,
            "choosing": False,
            "bids": [],
            "raiser": None,
            "round": 1,
            "hand": 0,
            "points": [0] * seats,
            "round_winners": [],
            "last_hand": None,
            "history": [],
            "result": None,
        }
        self.start_hand(state, state["turn"], rng)
        return state

    def start_hand(self, state: dict, starter: int, rng: Rng) -> None:
        """A fresh roll; the starter is asked for a direction when it can matter."""
        counts = state["counts"]
        state["hand"] += 1
        state["turn"] = starter
        state["bids"] = []
        state["raiser"] = None
        self.start_cups(state, rng)
        state["looked"] = [not state["options"]["blind_bids"]] * len(counts)
        per_round = state["options"]["direction"] == "round"
        state["choosing"] = players_in(counts) > 2 and not (per_round and state["hand"] > 1)

    # --- queries ----------------------------------------------------------------------
    def players_to_act(self, state: dict) -> list:
        if state["raiser"] is not None:
            return [state["raiser"]]
        return [state["turn"]]

    def table_bid_refusal(self, table: dict, seat: int, bid: tuple):
        return table_bid_refusal(table, seat, bid)

    def legal_bids(self, table: dict, seat: int, max_count=None) -> list:
        return legal_bids(table, seat, max_count)

    def legal_actions(self, state: dict, seat: int) -> list:
        """Legal bids up to the dice in play (higher ones are legal but never useful), the
        doubt, and the moves of the phase: direction, look, keep. None during a fair draw's
        step (the devices' part, not a player's choice)."""
        if self.is_over(state) or seat not in self.to_act(state) or fair.fair_phase(state):
            return []
        if seat != state["turn"]:
            return [*self.bid_actions(state, seat), {"type": "keep"}]
        actions = [] if state["looked"][seat] else [{"type": "look"}]
        if state["choosing"]:
            return actions + [{"type": "direction", "way": way} for way in WAYS]
        actions += self.bid_actions(state, seat)
        if state["bids"]:
            actions.append({"type": "doubt"})
        return actions

    # --- moves --------------------------------------------------------------------------
    def after_bid(self, state: dict, seat: int) -> None:
        if not state["looked"][seat]:
            state["bids"][-1]["blind"] = True
            state["looked"][seat] = True
        state["turn"] = next_in_play(state["counts"], seat, state["direction"])
        state["raiser"] = seat if state["options"]["raise_own"] else None

    def play_phase(self, state: dict, seat: int) -> str:
        """A bidder who may still raise his own bid (``raise_own``) only bids or keeps."""
        return "raising" if seat == state["raiser"] else "turn"

    def wrong_phase(self, state: dict, seat: int, kind: str) -> IllegalAction:
        if fair.fair_phase(state) or kind in fair_moves.MOVES:
            return fair.out_of_step(state, kind)
        return IllegalAction("Before the next player speaks you may only raise your bid or keep it",
                             "bozo.raiser_only")

    def play_direction(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        if not state["choosing"]:
            raise IllegalAction("The direction of play is already set", "bozo.direction_set")
        state["direction"] = WAYS[action["way"]]
        state["choosing"] = False

    def play_keep(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        if seat != state["raiser"]:
            raise IllegalAction("You have no bid to keep", "bozo.nothing_to_keep")
        state["raiser"] = None

    def play_look(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        if state["looked"][seat]:
            raise IllegalAction("You have already seen your dice", "bozo.already_looked")
        state["looked"][seat] = True

    def play_doubt(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        if not state["bids"]:
            raise self.refuse(("nothing_to_call", {}))
        self.reveal(state, seat, rng)

    moves = {
        "bid": Move(BluffingGame.play_bid, BID_FIELDS, phases=("turn", "raising")),
        "keep": Move(play_keep, phases=("turn", "raising")),
        "direction": Move(play_direction, Dict({"way": Enum(*WAYS)}), phases=("turn",)),
        "look": Move(play_look, phases=("turn",)),
        "doubt": Move(play_doubt, phases=("turn",)),
        **fair_moves.MOVES,
    }

    def reveal(self, state: dict, caller: int, rng: Rng) -> None:
        """Everyone shows; the loser gives up a die; then the next hand, round or the end.
        At a fair table the doubt waits for the secrets (``fair_revealed`` settles it)."""
        if "fair" in state:
            self.await_reveal(state, {"caller": caller})
            return
        self.settle(state, caller, rng, forfeits=[])

    def settle(self, state: dict, caller: int, rng, forfeits: list) -> None:
        """Counts the last bid on the open cups; with ``forfeits`` the doubt is void and each
        forfeiter loses a die instead (the forfeit rule)."""
        bid = state["bids"][-1]
        actual = count_bid(state["dice"], bid["face"], ACES_IF_SHOWN)
        loser = forfeits[0] if forfeits else doubt_loser(bid, caller, actual)
        counts = state["counts"]
        for seat in forfeits or [loser]:
            lose_die(counts, seat)
        winner = sole_survivor(counts)
        state["last_hand"] = {
            **hand_record(state, caller, actual, loser),
            "round": state["round"],
            "hand": state["hand"],
            "round_winner": winner,
            **({"forfeits": forfeits} if forfeits else {}),
        }
        settled = {key: value for key, value in state["last_hand"].items() if key != "dice"}
        state["history"] = (state["history"] + [copy_json(settled)])[-MAX_HISTORY:]
        self.after_hand(state, loser, winner, rng)

    def after_hand(self, state: dict, loser: int, winner, rng) -> None:
        """The next hand, started by the loser (or his nearest right-hand player still in), or
        the round's point to the one player left, then the next round or the end."""
        counts = state["counts"]
        if winner is None:
            self.start_hand(state, next_starter(counts, loser, RIGHT), rng)
            return
        state["points"][winner] += 1
        state["round_winners"].append(winner)
        options = state["options"]
        if options["game_end"] == "points":
            if state["points"][winner] >= options["points_target"]:
                self.finish(state, [winner])
                return
        elif state["round"] >= options["rounds"]:
            top = max(state["points"])
            self.finish(state, [s for s, p in enumerate(state["points"]) if p == top])
            return
        state["round"] += 1
        state["hand"] = 0
        state["counts"] = [START_DICE] * len(counts)
        if options["round_starter"] == "winner":
            starter = winner
        elif "fair" in state:  # drawn from the round's first nonce (``fair_nonce``)
            starter, state["draw_starter"] = winner, True
        else:
            starter = rng.below(len(counts))
        self.start_hand(state, starter, rng)

    # --- fair tables ------------------------------------------------------------------------
    def make_fair(self, state: dict, fair_id: str) -> dict:
        """As every cup game's, and the first round's starter is drawn from the first nonce."""
        state = super().make_fair(state, fair_id)
        state["draw_starter"] = True
        return state

    def fair_nonce(self, state: dict) -> None:
        """A round's random starter is public chance: drawn from its first hand's nonce."""
        if state["draw_starter"]:
            players = state["fair"]["players"]
            state["turn"] = players[fair.draw(state["fair"]["nonce"], "starter", len(players))]
            state["draw_starter"] = False

    def fair_revealed(self, state: dict) -> None:
        calling = state["calling"]
        state["calling"] = None
        self.settle(state, calling["caller"], None, forfeits=self.reveal_cups(state))

    def fair_forfeit(self, state: dict, seat: int, step: str) -> None:
        """The forfeit rule (module docstring): at the reveal the cup stays sealed; before
        the nonce the forfeiter loses a die now and starts the next hand, dealt again."""
        if step == "reveal":
            if not fair.owed(state["fair"]):
                self.fair_revealed(state)
            return
        lose_die(state["counts"], seat)
        self.after_hand(state, seat, sole_survivor(state["counts"]), None)

    def finish(self, state: dict, winners: list) -> None:
        state["result"] = {"winners": winners, "points": list(state["points"])}
        state["dice"] = [[] for _ in state["counts"]]
        state["bids"] = []
        state["raiser"] = None

    # --- seeing --------------------------------------------------------------------------
    def own_cup_seen(self, state: dict, seat: int) -> bool:
        return state["looked"][seat]

    def view(self, state: dict, seat) -> dict:
        """Public table plus the viewer's own cup once he has looked at it."""
        return {
            **self.public_view(state, seat),
            "looked": list(state["looked"]),
            "direction": state["direction"],
            "choosing": state["choosing"],
            "raiser": state["raiser"],
            "round": state["round"],
            "hand": state["hand"],
            "points": list(state["points"]),
            "round_winners": list(state["round_winners"]),
            "last_hand": copy_json(state["last_hand"]),
            "history": copy_json(state["history"]),
            **self.fair_view(state),
        }

    # Most points a player can hold, and most rounds a game can last: a game by rounds
    # ends after ``rounds``; one by points before everyone holds one short of the target.
    _max_points = max(options["rounds"].maximum, options["points_target"].maximum)
    _max_rounds = max(options["rounds"].maximum, max_seats * (options["points_target"].maximum - 1) + 1)
    _bid = bid_shape(blind=Enum(True))
    _hand_fields = {
        "loser": Seat(),
        "round": Int(1, _max_rounds),
        "hand": Int(1, max_seats * START_DICE),
        "round_winner": Optional(Seat()),
    }
    _hand_optional = {"forfeits": Seats()}  # a fair table's void doubt
    _settled = hand_record_shape(max_seats, START_DICE, _bid, _hand_optional, **_hand_fields)
    del _settled.fields["dice"]  # the history keeps no cups
    view_shape = cup_view_shape(
        id, options, START_DICE,
        {
            "looked": PerSeat(Bool()),
            "direction": Enum(*WAY_NAMES),
            "choosing": Bool(),
            "raiser": Optional(Seat()),
            "round": Int(1, _max_rounds),
            "hand": Int(1, max_seats * START_DICE),
            "points": PerSeat(Int(0, _max_points)),
            "round_winners": List(Seat(), max_len=_max_rounds),
            "last_hand": Optional(hand_record_shape(max_seats, START_DICE, _bid, _hand_optional, **_hand_fields)),
            "history": List(_settled, max_len=MAX_HISTORY),
        },
        bid=_bid,
        result=Dict({"winners": Seats(min_len=1), "points": PerSeat(Int(0, _max_points))}),
        cup_shown=lambda view: view["you"] is not None and view["looked"][view["you"]],
        optional={"calling": Optional(Dict({"caller": Seat()}))},  # fair tables
    )

    # --- notation and bots -------------------------------------------------------------------
    def action_text(self, action: dict) -> str:
        if action["type"] == "direction":
            return action["way"]
        return super().action_text(action)

    def parse_action(self, text: str) -> dict:
        word = text.strip().lower() if isinstance(text, str) else ""
        if word in WAYS:
            return {"type": "direction", "way": word}
        return super().parse_action(text)
