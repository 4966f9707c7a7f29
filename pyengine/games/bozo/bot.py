"""Bozó bots: three levels that see only their seat's view, never the state.

All three price bids with the exact chance under the conditional-ace rule (``odds``), and
only ever pick from ``legal_bids`` applied to the view (the engine's own rule, so every
option is honoured); they never bid more dice than are in play, since such a bid always
loses a doubt.

* ``easy``: exact chances blurred by noise; sometimes bids blind when a blind table lets it;
  picks a direction at random.
* ``medium``: exact chances from its own cup. Opens with the largest bid at least
  ``OPEN_CONFIDENCE`` likely, raises to the likeliest legal bid, and doubts when the last
  bid is less likely to hold than its best raise is to fail. Keeps the direction.
* ``hard``: the same decisions on beliefs: each opponent's possible cups are weighted by
  how likely each cup made the bids he made this hand (``kits.bluffing_bot``: an opening
  on the face and about the count where the cup finds the largest likely bid, a raise on
  the face whose smallest legal bid the cup makes likeliest, a share of blind picks; blind
  bids say nothing),
  and it expects only ``CHALLENGE_SHARE`` of its false raises to be doubted. It sends play
  towards the neighbour with fewer dice, who must answer its bids on the least information.

Every level bluffs at its own controlled rate (``BLUFF_RATE``, the share of its bids made
with its own cup in view): instead of its chosen bid it makes one nearly as likely (within
``BLUFF_SLACK``) on the face it holds least of, so that its bids tell the table less about
its cup (the ``hard`` level reads exactly that from others' bids). ``bench/bozo_bots.py``
measures the rates actually reached (lower than set: often no other bid is near enough)
and the levels' win rates.

With ``raise_own`` on, a bot that has just bid keeps its bid: it already chose its best.
Each decision is a pure function of (view, level, seed).
"""

from functools import lru_cache

from ...kits.bluffing import ACE, LEFT, RIGHT, next_in_play
from ...kits.bluffing_bot import count_chance, pick_chance
from ...core.registry import bots_by_level
from ...core.rng import Rng
from .odds import chance, tail_from_cups, uniform_cups
from .rules import WAY_NAMES, legal_bids, table_rule

LEVELS = ("easy", "medium", "hard")
OPEN_CONFIDENCE = 0.5
EASY_NOISE = 0.2
EASY_BLIND_RATE = 0.25
EASY_DOUBT_BELOW = 0.35
# Hard's model of a bidder (``kits.bluffing_bot.pick_chance``): an opening on a face where his
# cup finds c dice likely scores OPENING_SHARPNESS * c, at a count d away from c
# -COUNT_SHARPNESS * d; a raise whose chance (from his cup) is p scores RAISE_SHARPNESS * p;
# BLIND_SHARE of bids are blind picks.
OPENING_SHARPNESS = 2.0
COUNT_SHARPNESS = 3.0
RAISE_SHARPNESS = 20.0
BLIND_SHARE = 0.1
CHALLENGE_SHARE = 0.8
BLUFF_RATE = {"easy": 0.10, "medium": 0.15, "hard": 0.20}
BLUFF_SLACK = 0.12


def choose_action(view: dict, level: str, seed: int) -> dict:
    """The action of the seat ``view["you"]``, which must be one of those to act."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    seat = view.get("you")
    if view.get("result") is not None or seat not in view.get("to_act", ()):
        raise ValueError("the bot has no move: it is not this seat's turn")
    rng = Rng(seed)
    if seat != view["turn"]:
        return {"type": "keep"}
    # A cup still unseen: look at it, unless bidding blind. A cup seen and still None is
    # sealed (a bot covering a friend's seat mid-hand at a fair table: only the friend's
    # device knows it): the bot plays blind, every die in play unseen.
    if not view["looked"][seat] and not (level == "easy" and rng.random() < EASY_BLIND_RATE):
        return {"type": "look"}
    if view["choosing"]:
        return {"type": "direction", "way": _direction(view, level, rng)}
    prices = _prices(view, level)
    if level == "easy":
        prices = {bid: p + EASY_NOISE * (2 * rng.random() - 1) for bid, p in prices.items()}
    bids = legal_bids(view, seat)
    last = view["bids"][-1] if view["bids"] else None
    if last is None:
        return _bid(_bluff(view, level, rng, bids, prices, _opening(bids, prices)))
    held = prices.get((last["count"], last["face"]), 0.0)  # above the dice in play: false
    if not bids:
        return {"type": "doubt"}
    best = max(bids, key=lambda b: prices[b])
    if level == "easy":
        doubt = held < EASY_DOUBT_BELOW
    else:
        share = CHALLENGE_SHARE if level == "hard" else 1.0
        doubt = held < (1 - prices[best]) * share
    return {"type": "doubt"} if doubt else _bid(_bluff(view, level, rng, bids, prices, best))


BOTS = bots_by_level(choose_action, LEVELS)


def _bid(bid: tuple) -> dict:
    return {"type": "bid", "count": bid[0], "face": bid[1]}


def _bluff(view: dict, level: str, rng: Rng, bids: list, prices: dict, chosen: tuple) -> tuple:
    """``chosen``, or at the level's rate another bid nearly as likely, on the face the bot
    holds least of (aces count for every face but their own). A blind bid has nothing to
    hide, and with no other bid near enough the bot bids ``chosen``."""
    own = view["dice"]
    if own is None or rng.random() >= BLUFF_RATE[level]:
        return chosen
    near = [b for b in bids if b != chosen and prices[b] >= prices[chosen] - BLUFF_SLACK]
    if not near:
        return chosen
    return min(near, key=lambda b: (_support(tuple(own), b[1]), -prices[b], b))


def _opening(bids: list, prices: dict) -> tuple:
    """The largest bid likely enough, the likeliest on ties; else the likeliest of all."""
    likely = [b for b in bids if prices[b] >= OPEN_CONFIDENCE]
    if likely:
        return max(likely, key=lambda b: (b[0], prices[b]))
    return max(bids, key=lambda b: prices[b])


def _direction(view: dict, level: str, rng: Rng) -> str:
    if level == "easy":
        return WAY_NAMES[rng.choice((LEFT, RIGHT))]
    if level == "medium":
        return WAY_NAMES[view["direction"]]
    counts, seat = view["counts"], view["you"]
    left, right = (counts[next_in_play(counts, seat, step)] for step in (LEFT, RIGHT))
    if left == right:
        return WAY_NAMES[view["direction"]]
    return "left" if left < right else "right"


def _prices(view: dict, level: str) -> dict:
    """The chance that each bid up to the dice in play holds, seen from this seat."""
    own = view["dice"] or []
    in_play = sum(view["counts"])
    if level != "hard":
        unseen = in_play - len(own)
        return {
            (count, face): chance(count, face, own, unseen)
            for face in range(1, 7)
            for count in range(1, in_play + 1)
        }
    opponents = _beliefs(view)
    prices = {}
    for face in range(1, 7):
        tail = tail_from_cups(face, own, opponents)
        for count in range(1, in_play + 1):
            prices[(count, face)] = tail[count] if count < len(tail) else 0.0
    return prices


def _support(cup: tuple, face: int) -> int:
    return cup.count(ACE) + (cup.count(face) if face != ACE else 0)


def _beliefs(view: dict) -> list:
    """Each other cup as ``((p, cup), ...)``: uniform, reweighted by the chance that cup
    made each bid its owner made with it in view this hand (``_bid_chance``)."""
    seat = view["you"]
    unknown = [s for s, n in enumerate(view["counts"]) if n > 0 and s != seat]
    if view["dice"] is None:
        unknown.insert(0, seat)
    in_play = sum(view["counts"])
    beliefs = []
    for other in unknown:
        weighted = list(uniform_cups(view["counts"][other]))
        for index, bid in enumerate(view["bids"]):
            if bid["seat"] == other and not bid.get("blind"):
                rule = table_rule(dict(view, bids=view["bids"][:index]))
                smallest = {}
                for face in range(1, 7):
                    count = next((c for c in range(1, in_play + 1) if rule((c, face)) is None), None)
                    if count is not None:
                        smallest[face] = count
                if bid["face"] in smallest:
                    weighted = [(w * _bid_chance(cup, smallest, bid, in_play, index == 0), cup)
                                for w, cup in weighted]
                    top = max(w for w, _ in weighted)  # rescaled, so that a long hand cannot underflow
                    weighted = [(w / top, cup) for w, cup in weighted]
        total = sum(w for w, _ in weighted)
        beliefs.append(tuple((w / total, cup) for w, cup in weighted))
    return beliefs


def _bid_chance(cup: tuple, smallest: dict, bid: dict, in_play: int, opening: bool) -> float:
    """Chance that a bidder holding ``cup`` makes ``bid``, ``smallest`` giving the smallest
    legal count on each face then: a raise on the face whose smallest bid his cup makes
    likeliest; an opening, like the bots', on the face where his cup finds the largest
    count at least ``OPEN_CONFIDENCE`` likely, for about that count."""
    aces, unseen = cup.count(ACE), in_play - len(cup)

    def held(count, face):
        return _chance_held(count, face == ACE, aces, cup.count(face), unseen)

    if not opening:
        scores = {f: RAISE_SHARPNESS * held(count, f) for f, count in smallest.items()}
        return pick_chance(scores, bid["face"], BLIND_SHARE)
    likely = {}
    for f, count in smallest.items():
        while count < in_play and held(count + 1, f) >= OPEN_CONFIDENCE:
            count += 1
        likely[f] = count
    face = bid["face"]
    faces = {f: OPENING_SHARPNESS * count for f, count in likely.items()}
    return (pick_chance(faces, face, BLIND_SHARE)
            * count_chance(bid["count"], likely[face], smallest[face], in_play, COUNT_SHARPNESS, BLIND_SHARE))


@lru_cache(maxsize=8192)
def _chance_held(count: int, aces_bid: bool, aces: int, naturals: int, unseen: int) -> float:
    """``odds.chance`` from a cup's aces and naturals of the face, all it depends on."""
    own = (ACE,) * aces + (() if aces_bid else (2,) * naturals)
    return chance(count, ACE if aces_bid else 2, own, unseen)
