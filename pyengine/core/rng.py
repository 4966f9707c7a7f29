"""A portable counter-based random generator whose whole state is two integers.

Why not ``random.Random``: its state is large, and it must live inside the JSON game state
so that replays are exact. SHA-256 of ``seed:counter`` gives the same bits in CPython and
Pyodide, so a table rolls the same dice in the browser as in the tests.

A seed is either a whole number (one-device tables, tests: below 2**53, so that any
JavaScript number carrying one stays exact) or a *key*: 256 random bits written as 64
lowercase hex digits. Shared tables use keys (``new_key``): a guest who sees every outcome
cannot search a 53-bit space for the seed and predict the next die, and as text the key
never passes through a JavaScript number.
"""

import hashlib
import re
import secrets

_MASK_BITS = 64


class Rng:
    """Draws numbers from ``(seed, counter)``; ``state()`` is what goes into the game state."""

    __slots__ = ("seed", "counter")

    def __init__(self, seed, counter: int = 0):
        self.seed = seed if is_key(seed) else int(seed)
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


_KEY = re.compile(r"[0-9a-f]{64}")


def is_key(seed) -> bool:
    """Whether ``seed`` is a 256-bit key (64 lowercase hex digits)."""
    return isinstance(seed, str) and _KEY.fullmatch(seed) is not None


def new_key() -> str:
    """A fresh 256-bit key from the system's generator (in the browser, Pyodide's
    ``os.urandom`` is ``crypto.getRandomValues``)."""
    return secrets.token_hex(32)


def derive_key(*parts) -> str:
    """A 256-bit key derived from any printable parts (a key stays a key: rematches)."""
    return hashlib.sha256(":".join(str(p) for p in parts).encode()).hexdigest()


def derive_seed(*parts) -> int:
    """A 63-bit seed derived from any printable parts (e.g. table seed, move number, seat)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
