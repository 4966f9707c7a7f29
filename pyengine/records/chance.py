"""Chance as a record holds it: the outcome of every draw the rules made, in order.

The rules draw only through ``core.rng.Rng``'s four methods (``below``, ``randint``,
``choice``, ``shuffle``). ``Recording`` plays a table's own generator and writes down what
each outermost call returned (a die's face, a seat, a card, a shuffled deck), so the
outcomes read as the game's own terms; ``Tape`` answers the same calls from those outcomes,
checking that each could have been drawn (in range, one of the items, a true reordering),
so a record replays through the rules exactly, without the seed.
"""

from collections import Counter

from ..core.errors import TabernaError
from ..core.rng import Rng
from ..core.validate import copy_json


class ChanceError(TabernaError):
    """The recorded outcomes do not fit the draws the rules made while replaying."""


def _no_float(_rng):
    raise ChanceError("The rules drew a float, which a record cannot hold", "records.chance_float")


class Recording(Rng):
    """``rng``'s own draws, each outermost call's result kept in ``draws``."""

    __slots__ = ("draws", "_depth")

    def __init__(self, rng: Rng):
        super().__init__(rng.seed, rng.counter)
        self.draws: list = []
        self._depth = 0

    def _kept(self, draw, *args):
        self._depth += 1
        try:
            value = draw(self, *args)
        finally:
            self._depth -= 1
        if self._depth == 0:
            self.draws.append(copy_json(value))
        return value

    def below(self, n):
        return self._kept(Rng.below, n)

    def randint(self, low, high):
        return self._kept(Rng.randint, low, high)

    def choice(self, items):
        return self._kept(Rng.choice, items)

    def shuffle(self, items):
        return self._kept(Rng.shuffle, items)

    random = _no_float


def _key(value):
    """A value as a hashable, type-exact key (``True`` is not ``1``)."""
    return (type(value).__name__, repr(value))


class Tape(Rng):
    """Answers the rules' draws from recorded outcomes; a misfit raises ``ChanceError``."""

    __slots__ = ("draws", "taken")

    def __init__(self, draws: list):
        super().__init__(0)
        self.draws = draws
        self.taken = 0

    def state(self) -> dict:
        """A replayed state's generator: a stand-in (the record holds no seed)."""
        return {"seed": 0, "counter": self.taken}

    def _take(self):
        if self.taken >= len(self.draws):
            raise ChanceError("The record lacks a draw the rules need here", "records.chance_missing")
        value = self.draws[self.taken]
        self.taken += 1
        return value

    def _whole(self, value, low, high):
        if type(value) is not int or not low <= value <= high:
            raise ChanceError(f"{str(value)[:20]!r} is not a draw from {low} to {high}", "records.chance_range",
                              low=low, high=high)
        return value

    def below(self, n):
        return self._whole(self._take(), 0, n - 1)

    def randint(self, low, high):
        return self._whole(self._take(), low, high)

    def choice(self, items):
        value = self._take()
        if _key(value) not in {_key(item) for item in items}:
            raise ChanceError(f"{str(value)[:20]!r} cannot be drawn here", "records.chance_item")
        return value

    def shuffle(self, items):
        value = self._take()
        if not isinstance(value, list) or Counter(map(_key, value)) != Counter(map(_key, items)):
            raise ChanceError("A shuffle in the record is not a reordering of what was shuffled",
                              "records.chance_shuffle")
        return list(value)

    random = _no_float

    def check_used(self) -> None:
        """Every recorded outcome was drawn: none left over."""
        if self.taken != len(self.draws):
            raise ChanceError("The record holds draws the rules did not make here", "records.chance_extra")


class Unused(Rng):
    """The set-up draws of a fair table, which its fair draw replaces (``Game.make_fair``), so
    that a record holds none of them: each is answered with the first outcome it could have
    (nothing shuffled), never seen by anyone."""

    __slots__ = ()

    def __init__(self):
        super().__init__(0)

    def below(self, n):
        return 0

    def randint(self, low, high):
        return low

    def choice(self, items):
        return items[0]

    def shuffle(self, items):
        return list(items)

    random = _no_float
