"""The prime-order group behind fair card tables: libsodium's, never our own curve code.

Mental poker needs commutative encryption: a card is a group element ``P``, a lock is a
secret scalar ``k`` and locking is ``k·P``, so locks can be put on and taken off in any order
(``a·(b·P) == b·(a·P)``, and ``a⁻¹·(a·P) == P``). The group is ristretto255, through
libsodium's ``crypto_core_ristretto255_*`` and ``crypto_scalarmult_ristretto255``: ``rbcl``
(a wheel that bundles libsodium) exposes them under CPython and ``libsodium-wrappers-sumo``
in the browser, so both sides run the same library. Ristretto255 is a group of prime order
in which every valid encoding decodes to an element: a peer's point is checked by decoding
it, with no cofactor and no small-order points to refuse (the ed25519 subgroup this replaced
needed a check costing a multiplication a point, ten thousand a 10-seat deal). Besides
libsodium's decoding, ``well_formed`` refuses the identity (it would lock nothing) and the
one spelling some libsodium versions still decode, the top bit set, so that one element has
one text on every device.

Every value is 32 bytes. The batch methods exist because in the browser each call crosses
from Python to JavaScript: a whole deck goes in one call.

``use`` installs the implementation for this process: ``NativeGroup`` where ``rbcl`` imports
(CPython, the tests), the worker's JavaScript-backed one in the browser.
"""

import contextlib
import hashlib
import importlib
import os
import secrets
from functools import cache
from typing import Protocol

SCALAR_BYTES = 32
POINT_BYTES = 32
ORDER = 2**252 + 27742317777372353535851937790883648493  # the group's prime order


class Group(Protocol):
    """What the card protocol asks of the group; scalars are nonzero and below the order."""

    def scalar_reduce(self, wide: bytes) -> bytes:
        """64 uniform bytes to a uniform scalar (``crypto_core_ristretto255_scalar_reduce``)."""

    def scalar_invert(self, scalar: bytes) -> bytes:
        """The scalar ``s⁻¹`` with ``s⁻¹·(s·P) == P``."""

    def scalar_mul(self, a: bytes, b: bytes) -> bytes:
        """The product of two scalars: one multiplication then does the work of two."""

    def from_hash(self, digest: bytes) -> bytes:
        """An element of the group from 64 uniform bytes (``crypto_core_ristretto255_from_hash``)."""

    def is_valid_point(self, point: bytes) -> bool:
        """Whether ``point`` is the encoding of an element other than the identity
        (``well_formed`` and decoded by libsodium)."""

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
    return group.from_hash(hashlib.sha512(f"taberna/card/{label}".encode()).digest())


def well_formed(point) -> bool:
    """What libsodium's decoding leaves to us: 32 bytes, the top bit clear (the one canonical
    spelling on every libsodium version), not the identity (all zeros)."""
    return isinstance(point, bytes) and len(point) == POINT_BYTES and point[-1] < 0x80 and any(point)


@cache
def _rbcl():
    """``rbcl``, imported once. At its import it writes the libsodium it bundles to a new
    temporary file (2.8 MB) that it never removes; once loaded, the file is not needed."""
    import rbcl

    with contextlib.suppress(OSError):
        os.remove(importlib.import_module("rbcl._sodium").lib_path)
    return rbcl


class NativeGroup:
    """The group through ``rbcl`` (the libsodium that CPython uses)."""

    def __init__(self):
        self._sodium = _rbcl()

    def scalar_reduce(self, wide: bytes) -> bytes:
        return self._sodium.crypto_core_ristretto255_scalar_reduce(wide)

    def scalar_invert(self, scalar: bytes) -> bytes:
        return self._sodium.crypto_core_ristretto255_scalar_invert(scalar)

    def scalar_mul(self, a: bytes, b: bytes) -> bytes:
        return self._sodium.crypto_core_ristretto255_scalar_mul(a, b)

    def from_hash(self, digest: bytes) -> bytes:
        return self._sodium.crypto_core_ristretto255_from_hash(digest)

    def is_valid_point(self, point: bytes) -> bool:
        return well_formed(point) and self._sodium.crypto_core_ristretto255_is_valid_point(point)

    def all_valid_points(self, points: list[bytes]) -> bool:
        return all(map(self.is_valid_point, points))

    def multiply_all(self, scalar: bytes, points: list[bytes]) -> list[bytes]:
        return self.multiply_pairs([scalar] * len(points), points)

    def multiply_pairs(self, scalars: list[bytes], points: list[bytes]) -> list[bytes]:
        if len(scalars) != len(points):
            raise ValueError("as many scalars as points")
        if not all(map(well_formed, points)):
            raise ValueError("not a point of the group")
        try:  # libsodium decodes each point (refusing any other encoding): no second check
            return [self._sodium.crypto_scalarmult_ristretto255(s, p) for s, p in zip(scalars, points)]
        except RuntimeError as refused:
            raise ValueError("not a point of the group") from refused


_installed: list[Group] = []


def use(group: Group) -> None:
    """Installs the group this process uses (the worker calls it once at start-up)."""
    _installed[:] = [group]


def current() -> Group:
    """The installed group, or ``rbcl``'s when none was installed (CPython)."""
    if not _installed:
        use(NativeGroup())
    return _installed[0]
