"""The dice-bluffing mechanism that Perudo and Bozó share: one mechanism, two rule sets.

Every player hides dice under a cup. A hand rolls every cup from the state's RNG; players
in turn claim "at least q dice on the table show f" (a bid, ``"<q>x<f>"``, aces are face 1)
and the next player either raises or challenges. At the reveal the dice are counted under
the game's ace rule, the loser gives up a die, a player without dice is out, and the loser
(or, if he is out, the nearest player with dice on a fixed side) starts the next hand.

What differs is left to the games: which bid may follow which (each game returns refusals
as data, ``(code, params)``, so listing legal bids raises nothing), how aces count, what
ends a hand's sequel (Perudo's palifico rounds, Bozó's rounds and points) and any extra
actions. Seats are numbered clockwise: step ``LEFT`` (+1) is the player on one's left.

State keys the shared code relies on: ``counts`` (dice per seat), ``dice`` (the cups),
``turn``, ``bids`` (``{"seat", "count", "face"}`` oldest first), ``options``, ``result``.

At a fair table (``core.fair``) no cup comes from the generator: every cup is sealed
(``None`` in ``dice``) and its dice are a function of its owner's secret and the round's
joint nonce; its owner's device fills it in (``with_own_cup``) and nobody else can until the
rules reveal the cups and every secret is published (``fair_revealed``). Each hand begins
with a fair round among the players who still have dice (``start_cups``). The forfeit rule
both games share: a player whose device does not take its part in time (or whose reveal
does not match its commitment and is never corrected) loses one die. Before the round's
nonce exists the draw then starts over; at the reveal its cup stays sealed and the call is
void (``forfeited_call``): nobody else loses or gains a die for it.
"""

from . import fair as fair_moves
from .dice import FACES, bid_text, parse_bid
from ..core import fair
from ..core.errors import IllegalAction
from ..core.game import PLAYERS, Game
from ..core.options import options_shape
from ..core.rng import Rng
from ..core.shape import Dict, Enum, Int, List, Optional, PerSeat, Seat, Seats, Where
from ..core.validate import copy_json

ACE = 1
MAX_BID_COUNT = 999
# Each bid outranks the one before, and there are about seven ranks per quantity (six
# faces, and aces between quantities), so no hand holds more bids than this.
MAX_BIDS = 7 * MAX_BID_COUNT
MAX_ROUNDS = 1 << 20  # round numbers: far beyond any game, small enough to draw
LEFT, RIGHT = 1, -1

# How aces count at the reveal.
ACES_WILD = "wild"  # an ace counts for every face (Perudo)
ACES_PLAIN = "plain"  # an ace is only an ace (Perudo's palifico)
ACES_IF_SHOWN = "if_shown"  # an ace counts for f only if some die naturally shows f (Bozó)

# Refusals both games give in the same words; each game adds its own.
REASONS = {
    "bid_too_low": "Bid more dice, or the same dice on a higher face",
    "strict_face": "In strict bidding the face may not go down",
    "bid_over_cap": "There are only {count} dice in play",
    "nothing_to_call": "There is no bid to challenge yet",
}


# --- bids -----------------------------------------------------------------------------------
def ceil_half(count: int) -> int:
    return (count + 1) // 2


def raise_refusal(old: tuple, new: tuple, strict_faces: bool):
    """The growth rule between two bids on ordinary faces: more dice, or the same number of
    dice on a higher face; ``strict_faces`` also forbids a lower face when the count rises."""
    count, face = new
    old_count, old_face = old
    if count < old_count or (count == old_count and face <= old_face):
        return ("bid_too_low", {})
    if strict_faces and face < old_face:
        return ("strict_face", {})
    return None


def cap_refusal(counts: list, count: int):
    """Refusal for a bid above the dice in play (used when the table caps bids)."""
    in_play = sum(counts)
    return ("bid_over_cap", {"count": in_play}) if count > in_play else None


def refusal_error(reasons: dict, refusal: tuple) -> IllegalAction:
    code, params = refusal
    return IllegalAction(reasons[code].format(**params), code, **params)


def legal_bids(refusal, table: dict, seat: int, max_count=None) -> list:
    """Every ``(count, face)`` for which ``refusal(table, seat, bid)`` is ``None``, up to
    ``max_count`` (default: the dice in play; higher bids are never worth making)."""
    top = sum(table["counts"]) if max_count is None else max_count
    return [
        (count, face)
        for count in range(1, top + 1)
        for face in FACES
        if refusal(table, seat, (count, face)) is None
    ]


# --- cups and counting ----------------------------------------------------------------------
def roll_cups(rng, counts: list) -> list:
    """A fresh roll for every cup, sorted so a cup reads the same however it was rolled."""
    return [sorted(rng.randint(1, 6) for _ in range(n)) for n in counts]


def count_bid(cups: list, face: int, aces: str) -> int:
    """Dice on the table that count for a bid on ``face`` under the ace rule ``aces``.

    A bid on aces counts only aces under every rule.
    """
    dice = [d for cup in cups for d in cup]
    natural = dice.count(face)
    if face == ACE or aces == ACES_PLAIN or (aces == ACES_IF_SHOWN and natural == 0):
        return natural
    return natural + dice.count(ACE)


# --- turn order, losing dice, who starts -------------------------------------------------------
def next_in_play(counts: list, seat: int, step: int = LEFT) -> int:
    """The next seat after ``seat`` in direction ``step`` that still has dice."""
    seats = len(counts)
    for offset in range(1, seats + 1):
        candidate = (seat + step * offset) % seats
        if counts[candidate] > 0:
            return candidate
    raise ValueError("nobody has dice")


def players_in(counts: list) -> int:
    return sum(1 for n in counts if n > 0)


def doubt_loser(bid: dict, caller: int, actual: int) -> int:
    """Who loses a die when ``caller`` challenges ``bid``: the caller if the bid holds."""
    return caller if actual >= bid["count"] else bid["seat"]


def lose_die(counts: list, seat: int) -> bool:
    """Takes one die from ``seat``; True when that was his last (he is out)."""
    counts[seat] -= 1
    return counts[seat] == 0


def sole_survivor(counts: list):
    """The only seat still holding dice, or ``None`` while several do."""
    holders = [seat for seat, n in enumerate(counts) if n > 0]
    return holders[0] if len(holders) == 1 else None


def next_starter(counts: list, loser: int, side: int) -> int:
    """The loser starts the next hand; if he is out, the nearest player on ``side``."""
    return loser if counts[loser] > 0 else next_in_play(counts, loser, side)


def hand_record(state: dict, caller: int, actual: int, loser) -> dict:
    """The public account of a settled hand (taken after the loser's die is gone)."""
    counts = state["counts"]
    return {
        "dice": state["dice"],
        "bids": state["bids"],
        "caller": caller,
        "actual": actual,
        "loser": loser,
        "eliminated": loser if loser is not None and counts[loser] == 0 else None,
    }


def _dice_in(state: dict, seat: int) -> int:
    """How many dice a cup holds, sealed (a fair table's ``None``) or not."""
    cup = state["dice"][seat]
    return state["counts"][seat] if cup is None else len(cup)


# --- what a view and an action may hold ----------------------------------------------------------------------
DIE = Int(1, 6)
BID_FIELDS = Dict({"count": Int(1, MAX_BID_COUNT), "face": DIE})  # a bid action's fields


def bid_shape(**optional) -> Dict:
    return Dict({"seat": Seat(), "count": Int(1, MAX_BID_COUNT), "face": DIE}, optional=optional)


def cups_shape(max_dice: int) -> PerSeat:
    return PerSeat(List(DIE, max_len=max_dice))


def hand_record_shape(max_seats: int, max_dice: int, bid: Dict, optional=None, **fields) -> Dict:
    """What ``hand_record`` keeps, plus the game's own ``fields`` (and ``optional`` ones)."""
    return Dict(optional=optional or {}, fields={
        "dice": cups_shape(max_dice),
        "bids": List(bid, max_len=MAX_BIDS, min_len=1),
        "caller": Seat(),
        "actual": Int(0, max_seats * max_dice),
        "loser": Optional(Seat()),
        "eliminated": Optional(Seat()),
        **fields,
    })


def _own_cup_shown(cup_shown):
    """A cup is shown exactly when ``cup_shown`` says, except that at a fair table a host
    cannot show a guest's own cup (the guest's device fills it in)."""
    def test(view: dict) -> bool:
        if view["dice"] is None:
            return not cup_shown(view) or view.get("fair") is not None
        return cup_shown(view)
    return test


def _cup_matches_count(view: dict) -> bool:
    dice = view["dice"]
    return dice is None or (view["you"] is not None and len(dice) <= view["counts"][view["you"]])


def _seated(view: dict) -> bool:
    return view["you"] is not None


def _someone_to_bid_against(view: dict) -> bool:
    if view["result"] is not None:
        return True
    return bool(view["to_act"]) and view["counts"][view["turn"]] > 0 and players_in(view["counts"]) >= 2


def cup_view_shape(
    game_id: str, options: dict, max_dice: int, fields: dict, *, bid: Dict, result: Dict, cup_shown=_seated,
    optional=None,
):
    """The shape of a cup game's view: ``public_view``'s keys plus the game's ``fields`` (and
    any of its ``optional`` ones), and what ties them: the viewer's cup is there exactly when
    ``cup_shown(view)`` and holds no more dice than its count, and while the game runs the
    player to speak has dice and so does someone else."""
    shape = Dict(
        {
            "game": Enum(game_id),
            "you": Optional(Seat()),
            "to_act": Seats(),
            "turn": Seat(),
            "counts": PerSeat(Int(0, max_dice)),
            "dice": Optional(List(DIE, max_len=max_dice)),
            "bids": List(bid, max_len=MAX_BIDS),
            "options": options_shape(options),
            "result": Optional(result),
            **fields,
        },
        optional={"players": PLAYERS, "fair": fair.VIEW_SHAPE, **(optional or {})},
    )
    shape = Where(shape, _own_cup_shown(cup_shown), "the own cup is missing or shown")
    shape = Where(shape, _cup_matches_count, "the own cup holds more dice than its count")
    return Where(shape, _someone_to_bid_against, "the game runs but nobody can bid")


# --- the game skeleton ---------------------------------------------------------------------
class BluffingGame(Game):
    """A cup-and-bid game. Subclasses supply the bid rule, the calls and the sequel."""

    hidden_information = True  # the cups
    fair_chance = True
    reasons = REASONS
    calls: tuple = ()  # one-word actions besides bids, for the notation

    def table_bid_refusal(self, table: dict, seat: int, bid: tuple):
        """Why ``seat`` may not bid ``bid`` at ``table`` (a state or a seat's view), or None."""
        raise NotImplementedError

    def after_bid(self, state: dict, seat: int) -> None:
        """Bookkeeping once a legal bid is on the list; by default play passes left."""
        state["turn"] = next_in_play(state["counts"], seat)

    def refuse(self, refusal: tuple) -> IllegalAction:
        return refusal_error(self.reasons, refusal)

    def legal_bids(self, table: dict, seat: int, max_count=None) -> list:
        return legal_bids(self.table_bid_refusal, table, seat, max_count)

    def bid_actions(self, state: dict, seat: int) -> list:
        return [{"type": "bid", "count": c, "face": f} for c, f in self.legal_bids(state, seat)]

    def play_bid(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        """The ``bid`` move's handler (fields ``BID_FIELDS``), for the game's move table."""
        count, face = action["count"], action["face"]
        refusal = self.table_bid_refusal(state, seat, (count, face))
        if refusal:
            raise self.refuse(refusal)
        state["bids"].append({"seat": seat, "count": count, "face": face})
        self.after_bid(state, seat)

    # --- fair tables (``core.fair``) -------------------------------------------------------
    def make_fair(self, state: dict, fair_id: str) -> dict:
        """Every cup sealed, the first fair round begun; the opener (drawn by ``setup`` from
        the generator) is drawn again from the round's nonce (``fair_nonce``)."""
        state = copy_json(state)
        counts = state["counts"]
        state["fair"] = fair.start(fair_id, self.fair_players(state), len(counts))
        state["dice"] = [None] * len(counts)
        state["turn"] = 0
        state["calling"] = None  # a call waiting for the reveal
        return state

    @staticmethod
    def fair_players(state: dict) -> list:
        return [seat for seat, n in enumerate(state["counts"]) if n > 0]

    def start_cups(self, state: dict, rng) -> None:
        """A hand's cups: rolled from ``rng``, or at a fair table sealed for a new fair round
        among the players who still have dice."""
        counts = state["counts"]
        if "fair" not in state:
            state["dice"] = roll_cups(rng, counts)
            return
        state["dice"] = [None] * len(counts)
        state["fair"] = fair.next_round(state["fair"], self.fair_players(state))

    def with_own_cup(self, state: dict, seat: int, held: dict) -> dict:
        if "fair" not in state or state["dice"][seat] is not None:
            return state
        dice = fair.own_cup(state["fair"], seat, held, state["counts"][seat])
        if dice is None:
            return state
        seen = dict(state)
        seen["dice"] = list(state["dice"])
        seen["dice"][seat] = dice
        return seen

    def reveal_cups(self, state: dict) -> list:
        """Every cup filled in from the published secrets (a forfeited cup stays empty);
        returns the seats that forfeited."""
        record = state["fair"]
        state["dice"] = [
            cup if cup is not None else (fair.revealed_cup(record, seat, state["counts"][seat]) or [])
            for seat, cup in enumerate(state["dice"])
        ]
        return list(record["forfeits"])

    def to_act(self, state: dict) -> list:
        """During a fair draw's step, the seats that owe it; else ``players_to_act``."""
        if state["result"]:
            return []
        if fair.fair_phase(state):
            return fair.owed(state["fair"])
        return self.players_to_act(state)

    def players_to_act(self, state: dict) -> list:
        return [state["turn"]]

    def phase(self, state: dict, seat: int) -> str:
        """A fair draw's step (``fair_<step>``) while one is due, else ``play_phase``."""
        return fair.fair_phase(state) or self.play_phase(state, seat)

    def play_phase(self, state: dict, seat: int) -> str:
        raise NotImplementedError

    def await_reveal(self, state: dict, calling: dict) -> None:
        """At a fair table a call waits for every cup's secret (``fair_revealed``)."""
        state["calling"] = calling
        state["fair"]["step"] = "reveal"

    def fair_view(self, state: dict) -> dict:
        """The public fair round and the call waiting for it, for views of a fair table
        (nothing for others)."""
        if "fair" not in state:
            return {}
        return {"fair": fair.public(state["fair"]), "calling": copy_json(state["calling"])}

    def own_cup_seen(self, state: dict, seat: int) -> bool:
        """Whether ``seat`` sees its own cup now (Bozó's blind bids keep it closed)."""
        return True

    def public_view(self, state: dict, seat) -> dict:
        """The part of a seat's view both games share: the viewer's own cup, others' counts."""
        show = seat is not None and self.own_cup_seen(state, seat) and state["dice"][seat] is not None
        return {
            "game": self.id,
            "you": seat,
            "to_act": self.to_act(state),
            "turn": state["turn"],
            "counts": list(state["counts"]),
            "dice": list(state["dice"][seat]) if show else None,
            "bids": copy_json(state["bids"]),
            "options": dict(state["options"]),
            "result": copy_json(state["result"]),
        }

    def resample(self, state: dict, seat, rng: Rng) -> dict:
        """Every cup ``seat`` cannot see re-rolled with as many dice as it holds (its own
        stays if it has looked; revealed hands are history, not cups)."""
        resampled = super().resample(state, seat, rng)
        kept = seat if seat is not None and self.own_cup_seen(state, seat) else None
        resampled["dice"] = [
            cup if owner == kept and cup is not None else roll_cups(rng, [_dice_in(state, owner)])[0]
            for owner, cup in enumerate(state["dice"])
        ]
        return resampled

    def action_text(self, action: dict) -> str:
        if action["type"] == "bid":
            return bid_text(action["count"], action["face"])
        return action["type"]

    def parse_action(self, text: str) -> dict:
        word = text.strip().lower() if isinstance(text, str) else ""
        if word in self.calls:
            return {"type": word}
        count, face = parse_bid(text)
        return {"type": "bid", "count": count, "face": face}
