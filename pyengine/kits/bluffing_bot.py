"""What a bid says about its bidder's cup, for the hard bots of the bluffing dice games
(Perudo, Bozó): bidders are modelled as picking, among the faces they may bid, the one
their own cup favours (a softmax of a score per face), save for a share of blind picks
(bluffs, or reasons the model does not see). A bot weighs each possible cup of an
opponent by the chance that cup made the bids he made: Bayes over the enumerated cups.
"""

import math

__all__ = ["count_chance", "pick_chance"]


def pick_chance(scores: dict, picked, blind_share: float) -> float:
    """Chance that a bidder whose cup gives each option of ``scores`` (option -> score, the
    options he could pick then) picks ``picked``: a softmax of the scores, mixed with a
    uniform pick at ``blind_share``."""
    top = max(scores.values())
    total = sum(math.exp(score - top) for score in scores.values())
    return (1 - blind_share) * math.exp(scores[picked] - top) / total + blind_share / len(scores)


def count_chance(count: int, expected: int, lowest: int, highest: int, sharpness: float, blind_share: float) -> float:
    """Chance that a bidder whose cup suggests opening at ``expected`` opens at ``count``,
    the legal counts running from ``lowest`` to ``highest``: a softmax of minus
    ``sharpness`` times the distance, mixed with a blind pick."""
    scores = {c: -sharpness * abs(c - expected) for c in range(lowest, max(highest, count) + 1)}
    return pick_chance(scores, count, blind_share)
