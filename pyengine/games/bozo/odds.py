"""Exact chances of a Bozó bid from one seat, under the conditional-ace rule.

At the reveal a bid on face f (2-6) counts the f's plus the aces, but the aces only if at
least one die on the whole table naturally shows f; a bid on aces counts the aces. Seen
from a seat holding ``own`` with ``unseen`` other dice, let F and A be the f's and aces
among the unseen dice (each die is f with chance 1/6, an ace with 1/6). Then:

* aces bid: own aces + A ~ Binomial(unseen, 1/6) must reach q;
* own cup shows f: the aces surely count, so own f's + own aces + (F + A) with F + A ~
  Binomial(unseen, 1/3);
* own cup has no f: the bid needs F >= 1 and F + A >= q - own aces, i.e.
  P(F + A >= k) - P(F = 0, A >= k) with k = max(q - own aces, 1), the second term a sum
  over A ~ aces among dice that are not f (chance 1/6 each, 4/6 for neither).

``chance`` is that closed form; ``chance_from_cups`` gets the same number from a weighted
list of possible cups per opponent (the hard bot's beliefs after the bidding), by
convolving each opponent's (f's, aces) distribution. Tests check both against exhaustive
enumeration of every roll.
"""

from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, factorial

from ...kits.bluffing import ACE
from ...kits.dice import FACES, binomial_at_least


def chance(count: int, face: int, own, unseen: int) -> float:
    """P(a bid of ``count`` x ``face`` holds) for a seat holding ``own`` with ``unseen``
    dice it cannot see (``own`` empty when the seat has not looked)."""
    own_aces = sum(1 for d in own if d == ACE)
    if face == ACE:
        return binomial_at_least(count - own_aces, unseen, 1 / 6)
    own_face = sum(1 for d in own if d == face)
    if own_face:
        return binomial_at_least(count - own_face - own_aces, unseen, 1 / 3)
    need = max(count - own_aces, 1)
    if need > unseen:
        return 0.0
    no_face = sum(comb(unseen, j) * (1 / 6) ** j * (4 / 6) ** (unseen - j) for j in range(need, unseen + 1))
    return binomial_at_least(need, unseen, 1 / 3) - no_face


def bid_chance(view: dict, count: int, face: int) -> float:
    """``chance`` from a seat's view: its own cup if it has looked, every other die unseen."""
    own = view["dice"] or []
    return chance(count, face, own, sum(view["counts"]) - len(own))


@lru_cache(maxsize=None)
def uniform_cups(size: int) -> tuple:
    """Every sorted cup of ``size`` dice with its probability: ``((p, cup), ...)``."""
    cups = []
    for cup in combinations_with_replacement(FACES, size):
        ways = factorial(size)
        for face in FACES:
            ways //= factorial(cup.count(face))
        cups.append((ways / 6**size, cup))
    return tuple(cups)


def face_and_aces(cups, face: int) -> dict:
    """``{(f's, aces): probability}`` for one opponent whose cup is distributed as ``cups``."""
    out: dict = {}
    for p, cup in cups:
        key = (cup.count(face) if face != ACE else 0, cup.count(ACE))
        out[key] = out.get(key, 0.0) + p
    return out


def joint_face_and_aces(opponents, face: int) -> dict:
    """``{(F, A): probability}`` over all opponents (independent cups), by convolution."""
    joint = {(0, 0): 1.0}
    for cups in opponents:
        single = face_and_aces(cups, face)
        merged: dict = {}
        for (f1, a1), p1 in joint.items():
            for (f2, a2), p2 in single.items():
                key = (f1 + f2, a1 + a2)
                merged[key] = merged.get(key, 0.0) + p1 * p2
        joint = merged
    return joint


def tail_from_cups(face: int, own, opponents) -> list:
    """``tail[q]`` = P(a bid of q x ``face`` holds), for q from 0 to every die on the table,
    when each opponent's cup follows a weighted list ``((p, cup), ...)``."""
    own_face = sum(1 for d in own if d == face) if face != ACE else 0
    own_aces = sum(1 for d in own if d == ACE)
    total = len(own) + sum(len(cups[0][1]) for cups in opponents)
    exact = [0.0] * (total + 2)
    for (f, a), p in joint_face_and_aces(opponents, face).items():
        aces = own_aces + a
        natural = own_face + f
        counted = aces if face == ACE else natural + (aces if natural else 0)
        exact[counted] += p
    tail = [0.0] * (total + 2)
    for q in range(total, -1, -1):
        tail[q] = tail[q + 1] + exact[q]
    return tail


def chance_from_cups(count: int, face: int, own, opponents) -> float:
    """P(bid holds) when each opponent's cup follows a weighted list ``((p, cup), ...)``."""
    tail = tail_from_cups(face, own, opponents)
    return tail[count] if count < len(tail) else 0.0
