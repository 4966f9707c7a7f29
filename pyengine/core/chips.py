"""Chips and limited funds, shared by the betting games (Crown and Anchor, Bog).

Chips are whole numbers and are never created or destroyed: every split here is exact,
so a game can assert that the chips on the table always add up to what was brought.
Seats are numbered clockwise, so the player on a seat's left is the next number.
"""

PAY_MODES = ("seating", "pro_rata")


def left_of(seat: int, count: int) -> list:
    """Every other seat in playing order, starting with the one on ``seat``'s left."""
    return [(seat + step) % count for step in range(1, count)]


def pay_claims(fund: int, claims: list, order: list, mode: str = "seating") -> list:
    """What each claim receives from a ``fund`` that may not cover them all.

    ``claims[i]`` is owed to seat ``i``; ``order`` lists the seats that take precedence
    first (e.g. from the payer's left). ``seating`` pays claims in full in that order until
    the fund runs out, the last one partly; ``pro_rata`` gives each claim the same fraction,
    rounded down, and hands the chips left by rounding out one each in ``order``. The
    result is indexed like ``claims`` and adds up to ``min(fund, sum(claims))``.
    """
    if mode not in PAY_MODES:
        raise ValueError(f"unknown pay mode {mode!r}")
    total = sum(claims)
    if total <= fund:
        return list(claims)
    paid = [0] * len(claims)
    if mode == "seating":
        left = fund
        for seat in order:
            paid[seat] = min(claims[seat], left)
            left -= paid[seat]
        return paid
    for seat in order:
        paid[seat] = claims[seat] * fund // total
    left = fund - sum(paid)
    for seat in order:
        if left == 0:
            break
        if paid[seat] < claims[seat]:
            paid[seat] += 1
            left -= 1
    return paid
