"""Redealing unseen cards under constraints: the heart of ``resample`` for card games.

A player who cannot see some cards still knows where they cannot be: a player who did not
follow suit holds none of it, a card announced in a hand stays there. ``redeal`` shares
``cards`` among places (hidden hands, face-down piles) of fixed sizes so that no place gets
a card it may not hold.

It never loops: cards are placed most-constrained first, each into an allowed place drawn
with probability proportional to its free room (which is what a uniform deal would do if
nothing were constrained); when every allowed place is full, an augmenting path moves
already placed cards along (a b-matching, as in Hopcroft-Karp). Whenever a consistent deal
exists (the real one always does) it is found. The result is not exactly uniform over all
consistent deals when constraints bite, but every consistent deal can come out.
"""

from collections import deque

from .rng import Rng


class NoConsistentDeal(ValueError):
    """The constraints admit no deal (a caller's bookkeeping is wrong, never chance)."""


def redeal(cards, sizes, forbidden, rng: Rng) -> list:
    """``cards`` shared among places of ``sizes``; ``forbidden[i]`` is the set of cards place
    ``i`` may not hold. Returns one list per place (cards in the order they were placed)."""
    sizes = list(sizes)
    if sum(sizes) != len(cards) or len(forbidden) != len(sizes):
        raise NoConsistentDeal(f"{len(cards)} cards do not fill places of sizes {sizes}")
    places = range(len(sizes))
    allowed = {card: [i for i in places if card not in forbidden[i]] for card in cards}
    shuffled = rng.shuffle(list(cards))
    order = sorted(shuffled, key=lambda card: len(allowed[card]))  # stable: ties stay shuffled
    held = [[] for _ in places]
    for card in order:
        open_places = [i for i in allowed[card] if len(held[i]) < sizes[i]]
        if open_places:
            held[_weighted_pick(open_places, [sizes[i] - len(held[i]) for i in open_places], rng)].append(card)
        elif not _augment(card, allowed, held, sizes):
            raise NoConsistentDeal(f"no place can take {card}")
    return held


def _weighted_pick(choices: list, weights: list, rng: Rng):
    roll = rng.below(sum(weights))
    for choice, weight in zip(choices, weights):
        if roll < weight:
            return choice
        roll -= weight
    raise AssertionError("unreachable")


def _augment(card, allowed, held, sizes) -> bool:
    """Places ``card`` by moving placed cards along a shortest path to a place with room."""
    came_from = {i: None for i in allowed[card]}  # place -> (previous place, card moved out)
    queue = deque(allowed[card])
    while queue:
        place = queue.popleft()
        if len(held[place]) < sizes[place]:
            while came_from[place] is not None:
                previous, moved = came_from[place]
                held[previous].remove(moved)
                held[place].append(moved)
                place = previous
            held[place].append(card)
            return True
        for moved in held[place]:
            for target in allowed[moved]:
                if target not in came_from:
                    came_from[target] = (place, moved)
                    queue.append(target)
    return False
