"""The prime-order group behind fair card tables: libsodium's, never our own curve code.

Mental poker needs commutative encryption: a card is a group element ``P``, a lock is a
secret scalar ``k`` and locking is ``k·P``, so locks can be put on and taken off in any order
(``a·(b·P) == b·(a·P)``, and ``a⁻¹·(a·P) == P``). The group is the prime-order subgroup of
Curve25519 in its Edwards form, through libsodium's ``crypto_core_ed25519_*`` and
``crypto_scalarmult_ed25519_noclamp``: PyNaCl exposes exactly these under CPython (it has no
ristretto255 bindings) and ``libsodium-wrappers-sumo`` exposes them in the browser, so both
sides run the same library. The cofactor that makes ristretto255 attractive is handled by
checking every point a peer sends with ``is_valid_point`` (canonical, on the curve, in the
prime-order subgroup, not of small order) before it is used; inside that subgroup the
decisional Diffie-Hellman assumption that hides the cards holds as it does for ristretto255.

Every value is 32 bytes. The batch methods exist because in the browser each call crosses
from Python to JavaScript: a whole deck goes in one call.

``use`` installs the implementation for this process: ``NaclGroup`` where PyNaCl imports
(CPython, the tests), the worker's JavaScript-backed one in the browser.
"""

import hashlib
import secrets
from typing import Protocol

SCALAR_BYTES = 32
POINT_BYTES = 32
ORDER = 2**252 + 27742317777372353535851937790883648493  # the prime order of the subgroup


class Group(Protocol):
    """What the card protocol asks of the group; scalars are nonzero and below the order."""

    def scalar_reduce(self, wide: bytes) -> bytes:
        """64 uniform bytes to a uniform scalar (``crypto_core_ed25519_scalar_reduce``)."""

    def scalar_invert(self, scalar: bytes) -> bytes:
        """The scalar ``s⁻¹`` with ``s⁻¹·(s·P) == P``."""

    def scalar_mul(self, a: bytes, b: bytes) -> bytes:
        """The product of two scalars: one multiplication then does the work of two."""

    def from_uniform(self, digest: bytes) -> bytes:
        """A point of the subgroup from 32 uniform bytes (Elligator 2, cofactor cleared)."""

    def is_valid_point(self, point: bytes) -> bool:
        """Whether ``point`` is a canonical encoding of a subgroup element other than zero."""

    def all_valid_points(self, points: list[bytes]) -> bool:
        """Whether every one of ``points`` is valid (``is_valid_point``): a published deck
        checked in one call."""

    def multiply_all(self, scalar: bytes, points: list[bytes]) -> list[bytes]:
        """``[scalar·P for P in points]``; raises ``ValueError`` on an invalid point."""

    def multiply_pairs(self, scalars: list[bytes], points: list[bytes]) -> list[bytes]:
        """``[s·P for s, P in zip(scalars, points)]``; raises ``ValueError`` likewise."""


def random_scalar(group: Group) -> bytes:
    """A fresh secret scalar from the operating system's generator (``secrets``)."""
    return group.scalar_reduce(secrets.token_bytes(64))


def point_for(group: Group, label: str) -> bytes:
    """The public point that stands for ``label`` (a card), the same on every device."""
    return group.from_uniform(hashlib.sha256(f"taberna/card/{label}".encode()).digest())


class NaclGroup:
    """The group through PyNaCl (the libsodium that CPython uses)."""

    def __init__(self):
        from nacl import bindings, exceptions

        self._sodium = bindings
        self._exceptions = exceptions

    def scalar_reduce(self, wide: bytes) -> bytes:
        return self._sodium.crypto_core_ed25519_scalar_reduce(wide)

    def scalar_invert(self, scalar: bytes) -> bytes:
        return self._sodium.crypto_core_ed25519_scalar_invert(scalar)

    def scalar_mul(self, a: bytes, b: bytes) -> bytes:
        return self._sodium.crypto_core_ed25519_scalar_mul(a, b)

    def from_uniform(self, digest: bytes) -> bytes:
        return self._sodium.crypto_core_ed25519_from_uniform(digest)

    def is_valid_point(self, point: bytes) -> bool:
        return (
            isinstance(point, bytes)
            and len(point) == POINT_BYTES
            and self._sodium.crypto_core_ed25519_is_valid_point(point)
        )

    def all_valid_points(self, points: list[bytes]) -> bool:
        return all(map(self.is_valid_point, points))

    def multiply_all(self, scalar: bytes, points: list[bytes]) -> list[bytes]:
        return self.multiply_pairs([scalar] * len(points), points)

    def multiply_pairs(self, scalars: list[bytes], points: list[bytes]) -> list[bytes]:
        if len(scalars) != len(points):
            raise ValueError("as many scalars as points")
        if not all(isinstance(point, bytes) and len(point) == POINT_BYTES for point in points):
            raise ValueError("not a point of the group")
        try:  # libsodium refuses a point outside the subgroup itself: no second check
            return [self._sodium.crypto_scalarmult_ed25519_noclamp(s, p) for s, p in zip(scalars, points)]
        except self._exceptions.CryptoError as refused:
            raise ValueError("not a point of the group") from refused


_installed: list[Group] = []


def use(group: Group) -> None:
    """Installs the group this process uses (the worker calls it once at start-up)."""
    _installed[:] = [group]


def current() -> Group:
    """The installed group, or PyNaCl's when none was installed (CPython)."""
    if not _installed:
        use(NaclGroup())
    return _installed[0]
