"""The card group: locks commute and come off, a peer's bad point is refused, and the
browser's group computes what libsodium does."""

import hashlib

import pytest

from pyengine.core import fair_deck
from pyengine.core import group as groups
from pyengine.shell.cardgroup import SodiumGroup


@pytest.fixture(scope="module")
def group():
    return groups.NativeGroup()


def test_locks_commute_and_come_off_in_any_order(group):
    card = groups.point_for(group, "7o")
    a, b = groups.random_scalar(group), groups.random_scalar(group)
    [ab] = group.multiply_all(a, group.multiply_all(b, [card]))
    [ba] = group.multiply_all(b, group.multiply_all(a, [card]))
    assert ab == ba != card
    both_off = group.scalar_mul(group.scalar_invert(a), group.scalar_invert(b))
    assert group.multiply_pairs([both_off], [ab]) == [card]


def test_every_card_has_its_own_valid_point(group):
    labels = [f"{rank}{suit}" for rank in range(1, 13) for suit in "ocebx"]
    points = [groups.point_for(group, label) for label in labels]
    assert len(set(points)) == len(labels)
    assert all(group.is_valid_point(point) for point in points)


# ristretto255's generator, as published in RFC 9496 (a valid point, to spoil below).
GENERATOR = bytes.fromhex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76")

# Points a peer may send that the group must refuse (the browser's group is checked on them too).
BAD_POINTS = [
    bytes(32),  # the identity: it would lock nothing
    GENERATOR[:-1] + bytes([GENERATOR[-1] | 0x80]),  # a second spelling some libsodiums decode
    bytes([1]) + bytes(31),  # a negative field element: no element is spelled so
    bytes([2]) + bytes(31),  # decodes to no element
    (2**255 - 17).to_bytes(32, "little"),  # not reduced modulo the field's prime
    b"\xff" * 32,
    b"short",
    "a string",
]


@pytest.mark.parametrize("bad", BAD_POINTS)
def test_a_point_outside_the_subgroup_is_refused(group, bad):
    assert not group.is_valid_point(bad)
    with pytest.raises(ValueError):
        group.multiply_all(groups.random_scalar(group), [groups.point_for(group, "1o"), bad])


def test_a_valid_point_spelled_with_the_top_bit_is_refused(group):
    """One element, one text: the same point with its top bit set is refused (above) though
    it is valid as spelled canonically."""
    assert BAD_POINTS[1] != GENERATOR and group.is_valid_point(GENERATOR)


def test_the_installed_group_defaults_to_rbcls():
    assert isinstance(groups.current(), groups.NativeGroup)


def test_the_browsers_scalar_arithmetic_is_libsodiums(group):
    """The worker's group reduces, multiplies and inverts scalars in Python (no call into
    JavaScript): the same values as libsodium's, edges included."""
    browser = SodiumGroup(sodium=None)  # its scalar methods never reach JavaScript
    wides = [bytes(64), b"\xff" * 64, (groups.ORDER).to_bytes(64, "little")]
    wides += [hashlib.sha512(str(n).encode()).digest() for n in range(20)]
    for wide in wides:
        assert browser.scalar_reduce(wide) == group.scalar_reduce(wide)
    scalars = [group.scalar_reduce(wide) for wide in wides[3:]] + [(groups.ORDER - 1).to_bytes(32, "little")]
    for a, b in zip(scalars, scalars[1:] + scalars[:1]):
        assert browser.scalar_mul(a, b) == group.scalar_mul(a, b)
        assert browser.scalar_invert(a) == group.scalar_invert(a)


class CountingGroup(groups.NativeGroup):
    def __init__(self):
        super().__init__()
        self.checked = 0

    def all_valid_points(self, points):
        self.checked += 1
        return super().all_valid_points(points)


def test_a_deck_is_checked_once_and_never_one_this_device_made():
    """A deck made here by a lock (valid points times a key) or checked once is known valid;
    a deck with a bad point is refused every time it comes."""
    group = CountingGroup()
    deck = fair_deck.start_deck(group, [f"{n}o" for n in range(1, 13)])
    keys = fair_deck.SeatKeys(group, "ab" * 32, "test:0", 1, 0, len(deck))
    locked = fair_deck.lock_step(group, deck, keys)
    assert fair_deck.valid_deck(group, locked) and group.checked == 0
    peer = list(reversed(locked))  # a deck this device did not make
    assert fair_deck.valid_deck(group, peer) and fair_deck.valid_deck(group, peer)
    assert group.checked == 1
    bad = [*peer[:-1], fair_deck.text_of(BAD_POINTS[3])]
    assert not fair_deck.valid_deck(group, bad) and not fair_deck.valid_deck(group, bad)
    assert group.checked == 3
