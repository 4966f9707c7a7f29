"""Dice and bid notation shared by the bluffing games (Perudo, Bozó).

A bid "q x f" claims that at least q dice on the whole table show face f; both games write
it ``"<count>x<face>"`` with face 1 for aces/pacos. The mechanism that plays with these
(cups, counting at the reveal, turn order, losing dice) is ``kits.bluffing``.
"""

import math
import re

from ..core.errors import IllegalAction

FACES = (1, 2, 3, 4, 5, 6)
_BID_TEXT = re.compile(r"^\s*([0-9]{1,3})\s*[xX]\s*([1-6])\s*$")


def parse_bid(text) -> tuple:
    """``"6x5"`` -> ``(6, 5)``; anything else raises ``ValueError`` with the reason."""
    match = _BID_TEXT.match(text) if isinstance(text, str) else None
    if not match:
        raise IllegalAction(f"{text!r} is not a bid like '6x5'", "bad_bid_text")
    count, face = int(match.group(1)), int(match.group(2))
    if count < 1:
        raise IllegalAction("A bid needs at least one die", "bid_count_low")
    return count, face


def bid_text(count: int, face: int) -> str:
    return f"{count}x{face}"


def binomial_at_least(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), exact summation (n is at most a few dozen dice)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))
