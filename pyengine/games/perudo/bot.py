"""Perudo bots: three levels that see only their seat's view, never the state.

* ``easy``: rough counts with noise; bids its favourite face, doubts on a hunch.
* ``medium``: the exact binomial chance that a bid holds given its own cup (an unseen die
  counts for a face with chance 1/6, or 1/3 when pacos are wild for it). It raises to the
  likeliest legal bid, and calls Dudo or Calza when that risks less than raising.
* ``hard``: the same decisions on a posterior. Every possible cup of every opponent is
  enumerated and weighted by how likely that cup made each bid he made this round: a
  bidder is taken to open on the face his cup holds most of, at about the largest count
  his cup makes an even bet, and to raise on the face his cup makes likeliest to hold at
  the smallest legal count then (softmaxes, with a share of blind bids for bluffs;
  ``kits.bluffing_bot``), so the chances use what the bidding gave away.
  It bluffs on a fixed share of its bids (``BLUFF_RATE``) so that its own bids give away less.

Every bid a bot makes passes the engine's own rule, ``table_bid_refusal``, applied to the
view (it reads only the options, counts, bids and palifico flag that a view carries), so
strict bidding, the cap and palifico variant W are honoured by construction. Bots never
bid more dice than are in play: such a bid always loses a Dudo. Each decision is a pure
function of (view, level, seed).

Out of turn (a table where anyone but the bidder may call Calza, the view's ``may_act``), a
bot is asked once per bid and answers Calza or ``None``: medium and hard call it when the
bid is exact with at least ``OUT_OF_TURN_CALZA`` chance (a Calza is then a better bet than
keeping quiet, which risks nothing); easy when its rough count lands on the bid, now and
then. A Calza always ends the round, so out-of-turn calls can never stall a table.
"""

import math
from functools import lru_cache
from itertools import combinations_with_replacement

from ...kits.bluffing_bot import count_chance, pick_chance
from ...kits.dice import FACES, binomial_at_least
from ...core.registry import bots_by_level
from ...core.rng import Rng
from .odds import face_chance
from .rules import PACO, Perudo, table_bid_refusal

LEVELS = Perudo.bot_levels

# Medium and hard open with the largest count that is at least this likely.
OPEN_CONFIDENCE = 0.5
# Hard: how sharply a bidder is taken to pick the face his cup favours: an opening on a
# face his cup supports with m dice weighs exp(OPENING_SHARPNESS * m), at a count d away from
# the one his cup suggests exp(-COUNT_SHARPNESS * d), a raise whose chance (seen from his
# cup) is c weighs exp(RAISE_SHARPNESS * c), each against the other choices; BLIND_SHARE of
# bids are taken to be chosen blind (bluffs).
OPENING_SHARPNESS = 2.0
COUNT_SHARPNESS = 3.0
RAISE_SHARPNESS = 20.0
BLIND_SHARE = 0.1
# Hard: share of its bids that are bluffs, and how much likelihood a bluff may give up.
BLUFF_RATE = 0.15
BLUFF_SLACK = 0.12
# Hard: a raise costs a die only if it is false *and* challenged; this is the share of
# false raises it expects to see challenged.
CHALLENGE_SHARE = 0.8
# Easy: spread of its guesses, in dice.
EASY_NOISE = 1.5
# Out of turn: medium and hard call Calza when the bid is exact at least this likely; easy
# calls it this often when its guess lands on the bid.
OUT_OF_TURN_CALZA = 0.5
EASY_OUT_OF_TURN = 0.2


def choose_action(view: dict, level: str, seed: int):
    """The action of the seat ``view["you"]``: on its turn a move; out of turn (it is in
    ``may_act``) a Calza or ``None``."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if view.get("result") is None and view.get("you") in view.get("may_act", ()):
        return _out_of_turn(_Situation(view), level, Rng(seed))
    if view.get("result") is not None or view.get("you") not in view.get("to_act", ()):
        raise ValueError("the bot has no move: it is not this seat's turn")
    situation = _Situation(view)
    rng = Rng(seed)
    if level == "easy":
        return _easy(situation, rng)
    if level == "medium":
        odds = _Odds(situation, evidence=False)
        return _decide(situation, odds, rng, bluff_rate=0.0, challenge_share=1.0)
    odds = _Odds(situation, evidence=True)
    return _decide(situation, odds, rng, bluff_rate=BLUFF_RATE, challenge_share=CHALLENGE_SHARE)


def _out_of_turn(s: "_Situation", level: str, rng: Rng):
    """Calza on the standing bid, or ``None`` (keep quiet)."""
    count, face = s.last
    if level == "easy":
        noise = (rng.random() * 2 - 1) * EASY_NOISE
        guess = s.own_support(face) + s.unseen * face_chance(face, s.wild) + noise
        exact = abs(count - guess) < 0.5
        return Perudo.calza_action(s.view) if exact and rng.random() < EASY_OUT_OF_TURN else None
    odds = _Odds(s, evidence=level == "hard")
    return Perudo.calza_action(s.view) if odds.exactly(count, face) >= OUT_OF_TURN_CALZA else None


# --- what the view says ----------------------------------------------------------------------
class _Situation:
    """The facts a bot needs, read from the view once: cup, dice in play, the bid to beat and
    the legal bids (for each face the smallest legal count, the likeliest bid on that face)."""

    def __init__(self, view: dict):
        self.view = view
        self.seat = view["you"]
        # None: a bot covering a friend's seat mid-round at a fair table, whose cup only the
        # friend's device knows: it plays blind, every die in play unseen.
        self.cup = list(view["dice"] or [])
        self.counts = list(view["counts"])
        self.in_play = sum(self.counts)
        self.unseen = self.in_play - len(self.cup)
        self.wild = not view["palifico"]
        self._own = _supports(_tally(self.cup), self.wild)
        self.bids = view["bids"]
        last = self.bids[-1] if self.bids else None
        self.last = (last["count"], last["face"]) if last else None
        self.calza = bool(view["calza_allowed"])
        self.bids_by_face = _smallest_legal_counts(view, self.seat, self.in_play)

    def own_support(self, face: int) -> int:
        """Dice of its own cup that count for a bid on ``face``."""
        return self._own[face]


BOTS = bots_by_level(choose_action, LEVELS)


def _smallest_legal_counts(table: dict, seat: int, in_play: int) -> dict:
    """For each face ``seat`` may bid on at ``table`` (a view, or one with the round's bids
    cut short), the smallest legal count. Legality only grows with the count (up to the
    cap), so it bisects within the dice in play."""

    def legal(count: int, face: int) -> bool:
        return table_bid_refusal(table, seat, (count, face)) is None

    smallest = {}
    for face in FACES:
        if in_play < 1 or not legal(in_play, face):
            continue
        low, high = 1, in_play
        while low < high:
            middle = (low + high) // 2
            if legal(middle, face):
                high = middle
            else:
                low = middle + 1
        smallest[face] = low
    return smallest


def _tally(cup) -> list:
    counts = [0] * 7
    for die in cup:
        counts[die] += 1
    return counts


def _supports(counts, wild: bool) -> tuple:
    """For each face (index 1-6), the dice of a cup given as counts per face that count for it."""
    return (0, counts[PACO]) + tuple(
        counts[face] + counts[PACO] if wild else counts[face] for face in FACES[1:]
    )


# --- how likely a bid is ---------------------------------------------------------------------
@lru_cache(maxsize=None)
def _cups(size: int, wild: bool) -> tuple:
    """Every distinct cup of ``size`` dice as (probability, supports per face)."""
    cups = []
    for dice in combinations_with_replacement(FACES, size):
        counts = _tally(dice)
        ways = math.factorial(size)
        for n in counts:
            ways //= math.factorial(n)
        cups.append((ways / 6**size, _supports(counts, wild)))
    return tuple(cups)


def _convolve(left: list, right: list) -> list:
    out = [0.0] * (len(left) + len(right) - 1)
    for i, a in enumerate(left):
        if a:
            for j, b in enumerate(right):
                out[i + j] += a * b
    return out


def _bid_likelihood(supports: tuple, faces: dict, bid: dict, size: int, in_play: int, wild: bool,
                    opening: bool) -> float:
    """Chance that a bidder whose cup supports each face with ``supports`` makes ``bid``,
    ``faces`` giving the smallest legal count on each face then, mixed with a blind pick:
    a raise is on the face whose smallest count his cup makes likeliest (a softmax over the
    faces of those chances); an opening on the face his cup backs most, for about the
    largest count he finds at least ``OPEN_CONFIDENCE`` likely (softmaxes over the faces
    and over the counts)."""
    face, unseen = bid["face"], in_play - size
    if not opening:
        scores = {f: RAISE_SHARPNESS * _tail(count - supports[f], unseen, face_chance(f, wild))
                  for f, count in faces.items()}
        return pick_chance(scores, face, BLIND_SHARE)
    chance = face_chance(face, wild)
    expected = faces[face]
    while _tail(expected + 1 - supports[face], unseen, chance) >= OPEN_CONFIDENCE:
        expected += 1
    return (pick_chance({f: OPENING_SHARPNESS * supports[f] for f in faces}, face, BLIND_SHARE)
            * count_chance(bid["count"], expected, faces[face], in_play, COUNT_SHARPNESS, BLIND_SHARE))


@lru_cache(maxsize=4096)
def _tail(needed: int, dice: int, chance: float) -> float:
    return binomial_at_least(needed, dice, chance)


class _Odds:
    """Chances that bids hold, from the bot's own cup and a model of the unseen dice.

    Without evidence every unseen die is independent (the exact binomial). With evidence each
    opponent's possible cups are weighted by the bids he made this round, then the opponents'
    totals are convolved: exact for that model, and a few thousand steps at most.
    """

    def __init__(self, situation: _Situation, evidence: bool):
        self.situation = situation
        self.evidence = evidence
        self._unseen = {}
        self._weights = {}

    def _unseen_distribution(self, face: int) -> list:
        """P(the unseen dice hold exactly t dice counting for ``face``), t = 0, 1, ..."""
        if face not in self._unseen:
            s = self.situation
            if self.evidence:
                dist = [1.0]
                for seat, size in enumerate(s.counts):
                    if seat != s.seat and size > 0:
                        dist = _convolve(dist, self._seat_distribution(seat, size, face))
            else:
                p = face_chance(face, s.wild)
                n = s.unseen
                dist = [math.comb(n, t) * p**t * (1 - p) ** (n - t) for t in range(n + 1)]
            self._unseen[face] = dist
        return self._unseen[face]

    def _seat_weights(self, seat: int, size: int) -> list:
        """Posterior weight (unnormalised) of each of ``seat``'s possible cups: the prior
        times, for each bid he made this round, the chance that cup made it (``_bid_likelihood``)."""
        if seat not in self._weights:
            s = self.situation
            cups = _cups(size, s.wild)
            weights = [prior for prior, _ in cups]
            for index, bid in enumerate(s.bids):
                if bid["seat"] == seat:
                    table = dict(s.view, bids=s.bids[:index])
                    faces = _smallest_legal_counts(table, seat, s.in_play)
                    if bid["face"] in faces:
                        weights = [w * _bid_likelihood(supports, faces, bid, size, s.in_play, s.wild, index == 0)
                                   for w, (_, supports) in zip(weights, cups)]
                        top = max(weights)  # rescaled, so that a long round cannot underflow
                        weights = [w / top for w in weights]
            self._weights[seat] = weights
        return self._weights[seat]

    def _seat_distribution(self, seat: int, size: int, face: int) -> list:
        dist = [0.0] * (size + 1)
        cups = _cups(size, self.situation.wild)
        for weight, (_, supports) in zip(self._seat_weights(seat, size), cups):
            dist[supports[face]] += weight
        total = sum(dist)
        return [w / total for w in dist]

    def at_least(self, count: int, face: int) -> float:
        needed = count - self.situation.own_support(face)
        dist = self._unseen_distribution(face)
        return min(1.0, sum(dist[max(0, needed):]))

    def exactly(self, count: int, face: int) -> float:
        needed = count - self.situation.own_support(face)
        dist = self._unseen_distribution(face)
        return dist[needed] if 0 <= needed < len(dist) else 0.0


# --- decisions ---------------------------------------------------------------------------------
def _bid(count: int, face: int) -> dict:
    return {"type": "bid", "count": count, "face": face}


def _opening(s: _Situation, odds: _Odds, face: int) -> dict:
    """The largest count on ``face`` that is likely enough (never below the smallest legal)."""
    count = s.bids_by_face[face]
    while count < s.in_play and odds.at_least(count + 1, face) >= OPEN_CONFIDENCE:
        count += 1
    return _bid(count, face)


def _decide(s: _Situation, odds: _Odds, rng: Rng, *, bluff_rate: float, challenge_share: float):
    """Takes the move with the smallest chance of losing a die.

    Dudo loses if the bid holds; Calza loses unless it is exact (and may win a die back);
    a raise loses if it is false and challenged. A bluff swaps the chosen bid for a bid on
    the face it holds least of, among bids nearly as likely.
    """
    scored = sorted(
        ((odds.at_least(count, face), count, face) for face, count in s.bids_by_face.items()),
        reverse=True,
    )
    if s.last is None:
        best_face = max(
            s.bids_by_face,
            key=lambda f: (s.own_support(f), odds.at_least(s.bids_by_face[f], f), f),
        )
        if rng.random() < bluff_rate:
            best_face = _bluff_face(s, scored, best_face)
        return _opening(s, odds, best_face)
    moves = []
    if scored:
        chance, count, face = scored[0]
        if rng.random() < bluff_rate:
            face = _bluff_face(s, scored, face)
            chance, count = odds.at_least(s.bids_by_face[face], face), s.bids_by_face[face]
        moves.append(((1 - chance) * challenge_share, _bid(count, face)))
    moves.append((odds.at_least(*s.last), {"type": "dudo"}))
    if s.calza:
        moves.append((1 - odds.exactly(*s.last), Perudo.calza_action(s.view)))
    return min(moves, key=lambda move: move[0])[1]


def _bluff_face(s: _Situation, scored: list, face: int) -> int:
    """The face it holds least of among bids within ``BLUFF_SLACK`` of the best chance."""
    top = scored[0][0] if scored else 0.0
    near = [f for chance, _, f in scored if chance >= top - BLUFF_SLACK]
    return min(near, key=lambda f: (s.own_support(f), f != face, f)) if near else face


def _easy(s: _Situation, rng: Rng) -> dict:
    """Guesses each count as its own dice plus the average of the rest, give or take a die."""

    def guess(face: int) -> float:
        noise = (rng.random() * 2 - 1) * EASY_NOISE
        return s.own_support(face) + s.unseen * face_chance(face, s.wild) + noise

    if s.last is not None:
        count, face = s.last
        estimate = guess(face)
        if s.calza and abs(count - estimate) < 0.5 and rng.random() < 0.3:
            return Perudo.calza_action(s.view)
        if count > estimate + 0.5 or not s.bids_by_face:
            return {"type": "dudo"}
    faces = sorted(s.bids_by_face)
    favourite = max(faces, key=lambda f: (s.own_support(f), rng.random()))
    face = favourite if rng.random() < 0.7 else rng.choice(faces)
    count = s.bids_by_face[face]
    if s.last is None:
        count = min(s.in_play, max(count, int(guess(face) * 0.8)))
    return _bid(count, face)
