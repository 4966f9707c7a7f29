"""Chips and limited funds, shared by the betting games (Crown and Anchor, Bog).

Chips are whole numbers and are never created or destroyed: every split here is exact,
so a game can assert that the chips on the table always add up to what was brought.
Seats are numbered clockwise, so the player on a seat's left is the next number.

**Chips that identify their owner** (Bog's coloured chips): a *pot* is a list indexed by
seat, ``pot[s]`` the chips seat ``s`` put there, so a table can show whose chips lie where
and return or share them by owner. ``stacks[s]`` is what seat ``s`` holds in front of him.
A player short of chips pays what he has: every move below is capped by the payer's stack
and returns the chips actually moved.
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


def new_pot(seats: int) -> list:
    """An empty pot: no chips from anyone."""
    return [0] * seats


def _take(stacks: list, seat: int, chips: int) -> int:
    """Takes up to ``chips`` from ``seat``'s stack (never more than he has); how many."""
    taken = max(0, min(chips, stacks[seat]))
    stacks[seat] -= taken
    return taken


def stake(stacks: list, pot: list, seat: int, chips: int) -> int:
    """Moves up to ``chips`` from ``seat``'s stack into ``pot`` under his name."""
    moved = _take(stacks, seat, chips)
    pot[seat] += moved
    return moved


def collect(stacks: list, pot: list, seat: int) -> int:
    """Every chip of ``pot``, whoever put it there, goes to ``seat``'s stack."""
    won = sum(pot)
    stacks[seat] += won
    pot[:] = new_pot(len(pot))
    return won


def pay(stacks: list, payer: int, payee: int, chips: int) -> int:
    """Up to ``chips`` from ``payer``'s stack to ``payee``'s."""
    moved = _take(stacks, payer, chips)
    stacks[payee] += moved
    return moved


def share_out(fund: int, weights: list, order: list) -> list:
    """``fund`` split in proportion to ``weights`` (indexed by seat): each share rounded
    down, then the chips left by rounding handed out one each, in ``order``, to seats with
    a weight. Adds up to ``fund`` exactly (to nothing if no seat has a weight)."""
    total = sum(weights)
    if total <= 0:
        return [0] * len(weights)
    shares = [weight * fund // total for weight in weights]
    left = fund - sum(shares)
    for seat in order:
        if left == 0:
            break
        if weights[seat] > 0:
            shares[seat] += 1
            left -= 1
    return shares
