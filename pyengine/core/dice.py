"""Dice-cup mechanics shared by the bluffing games (Perudo, Bozó): bids, cups, counting.

A bid "q x f" claims that at least q dice on the whole table show face f. Both games write
bids as ``"<count>x<face>"`` with face 1 for aces/pacos, roll every cup at the start of a
hand from the state's RNG, count wild aces at the reveal and pass the turn round the table
skipping players who are out.
"""

import math
import re

from .errors import IllegalAction

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


def roll_cups(rng, counts: list) -> list:
    """A fresh roll for every cup, sorted so a cup reads the same however it was rolled."""
    return [sorted(rng.randint(1, 6) for _ in range(n)) for n in counts]


def count_face(cups: list, face: int, aces_wild: bool) -> int:
    """Dice on the table that count for ``face`` (aces too when they are wild for it)."""
    total = 0
    for cup in cups:
        for die in cup:
            if die == face or (aces_wild and die == 1 and face != 1):
                total += 1
    return total


def next_in_play(counts: list, seat: int, step: int = 1) -> int:
    """The next seat after ``seat`` (``step`` +1 left, -1 right) that still has dice."""
    seats = len(counts)
    for offset in range(1, seats + 1):
        candidate = (seat + step * offset) % seats
        if counts[candidate] > 0:
            return candidate
    raise ValueError("nobody has dice")


def binomial_at_least(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), exact summation (n is at most a few dozen dice)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))
