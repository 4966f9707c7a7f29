"""The card group in the browser: ``core.group``'s interface over the worker's libsodium.

``site/worker.py`` imports ``site/card-group.mjs`` (libsodium-wrappers-sumo) when the page
first asks for the card group, and installs a ``SodiumGroup`` around it with
``core.group.use``; nothing here imports anything of the browser. Every point operation is
one call into JavaScript: a batch passes its 32-byte values end to end as one ``bytes`` and
gets one buffer back, so a whole deck crosses once. The scalar operations (reduce, multiply,
invert modulo the group's order) are exact integer arithmetic, done here: a call into
JavaScript costs far more than the arithmetic (≈ 1 ms a call in the worker on a busy machine,
and a deal asks for hundreds), and ``exercise`` compares the results with CPython's (``rbcl``).

``exercise`` and ``deal_workload`` run on any group, so the browser's can be compared with
CPython's: the data calls ``group_selftest`` (the browser test compares the worker's answers
with CPython's) and ``group_bench`` (``bench/card_group.py``).
"""

import time

from ..core import group as groups
from ..core.group import ORDER, POINT_BYTES, SCALAR_BYTES


def _all_sized(values, size: int) -> bool:
    return all(isinstance(value, bytes) and len(value) == size for value in values)


def _scalar(value: int) -> bytes:
    return value.to_bytes(SCALAR_BYTES, "little")


def _number(scalar: bytes) -> int:
    return int.from_bytes(scalar, "little")


class SodiumGroup:
    """``core.group.Group`` over ``card-group.mjs`` (handed in as a JavaScript module)."""

    def __init__(self, sodium):
        self._js = sodium

    def scalar_reduce(self, wide: bytes) -> bytes:
        return _scalar(_number(wide) % ORDER)

    def scalar_invert(self, scalar: bytes) -> bytes:
        return _scalar(pow(_number(scalar), -1, ORDER))

    def scalar_mul(self, a: bytes, b: bytes) -> bytes:
        return _scalar(_number(a) * _number(b) % ORDER)

    def from_hash(self, digest: bytes) -> bytes:
        return self._js.fromHash(digest).to_bytes()

    def is_valid_point(self, point: bytes) -> bool:
        return self.all_valid_points([point])

    def all_valid_points(self, points: list[bytes]) -> bool:
        return all(map(groups.well_formed, points)) and bool(self._js.allValidPoints(b"".join(points)))

    def multiply_all(self, scalar: bytes, points: list[bytes]) -> list[bytes]:
        return self._multiply([scalar], points)

    def multiply_pairs(self, scalars: list[bytes], points: list[bytes]) -> list[bytes]:
        if len(scalars) != len(points):
            raise ValueError("as many scalars as points")
        return self._multiply(scalars, points)

    def _multiply(self, scalars: list[bytes], points: list[bytes]) -> list[bytes]:
        """One scalar for every point, or one per point: a single call into JavaScript."""
        if not _all_sized(scalars, SCALAR_BYTES):
            raise ValueError("a scalar is 32 bytes")
        if not all(map(groups.well_formed, points)):
            raise ValueError("not a point of the group")
        product = self._js.multiply(b"".join(scalars), b"".join(points))
        if product is None:
            raise ValueError("not a point of the group")
        data = product.to_bytes()
        return [data[at : at + POINT_BYTES] for at in range(0, len(data), POINT_BYTES)]


def exercise(group, request: dict) -> dict:
    """Every operation of ``group`` on the request's inputs, in hex: ``digests`` (points
    made with ``from_hash``), ``wide`` (64-byte inputs of scalars), ``bad`` (points to
    refuse). Run on the worker's group and on CPython's, the answers must be equal."""
    points = [group.from_hash(bytes.fromhex(digest)) for digest in request["digests"]]
    scalars = [group.scalar_reduce(bytes.fromhex(wide)) for wide in request["wide"]]
    inverses = [group.scalar_invert(scalar) for scalar in scalars]
    products = [group.scalar_mul(a, b) for a, b in zip(scalars, scalars[1:] + scalars[:1])]
    locked = group.multiply_all(scalars[0], points)
    paired = group.multiply_pairs(products, locked[: len(products)])
    unlocked = group.multiply_pairs(inverses[:1] * len(locked), locked)
    bad = [bytes.fromhex(point) for point in request["bad"]]
    refused = []
    for point in bad:
        try:
            group.multiply_pairs(scalars[:2], [points[0], point])
        except ValueError:
            refused.append(True)
        else:
            refused.append(False)
    batches = [points] + [[*points, point] for point in bad]
    values = {
        "points": points,
        "scalars": scalars,
        "inverses": inverses,
        "products": products,
        "locked": locked,
        "paired": paired,
        "unlocked": unlocked,
    }
    return {
        **{name: [value.hex() for value in found] for name, found in values.items()},
        "valid": [group.is_valid_point(point) for point in points + bad],
        "all_valid": [group.all_valid_points(batch) for batch in batches],
        "refused": refused,
    }


def deal_workload(group, seats: int, cards: int, passes: int) -> dict:
    """The crypto of one deal: each pass, every seat multiplies the whole deck, in deck-sized
    batches (the first pass with one lock for the deck, the others with a lock per card).
    Times it on ``group``: ``{"multiplications", "ms", "ms_per_multiplication"}``."""
    deck = [groups.point_for(group, f"card{index}") for index in range(cards)]
    locks = [groups.random_scalar(group) for _ in range(cards)]
    began = time.perf_counter()
    for step in range(passes):
        for _ in range(seats):
            deck = group.multiply_all(locks[0], deck) if step == 0 else group.multiply_pairs(locks, deck)
    ms = (time.perf_counter() - began) * 1000
    count = seats * cards * passes
    return {"multiplications": count, "ms": ms, "ms_per_multiplication": ms / count}

