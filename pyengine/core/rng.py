"""A portable counter-based random generator whose whole state is two integers.

Why not ``random.Random``: its state is large, and it must live inside the JSON game state
so that replays are exact. SHA-256 of ``seed:counter`` gives the same bits in CPython and
Pyodide, so a table rolls the same dice in the browser as in the tests.
"""

import hashlib

_MASK_BITS = 64


class Rng:
    """Draws numbers from ``(seed, counter)``; ``state()`` is what goes into the game state."""

    __slots__ = ("seed", "counter")

    def __init__(self, seed: int, counter: int = 0):
        self.seed = int(seed)
        self.counter = int(counter)

    @classmethod
    def from_state(cls, state: dict) -> "Rng":
        return cls(state["seed"], state["counter"])

    def state(self) -> dict:
        return {"seed": self.seed, "counter": self.counter}

    def _next64(self) -> int:
        digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
        self.counter += 1
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, unbiased (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << _MASK_BITS) - ((1 << _MASK_BITS) % n)
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both ends included."""
        return low + self.below(high - low + 1)

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> list:
        """A new list with ``items`` in a uniformly random order (Fisher-Yates)."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self._next64() >> 11) / float(1 << 53)


def derive_seed(*parts) -> int:
    """A 63-bit seed derived from any printable parts (e.g. table seed, move number, seat)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
