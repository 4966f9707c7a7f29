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


def test_a_deck_with_one_bad_point_is_refused_whole(group):
    deck = fair_deck.start_deck(group, [f"{n}o" for n in range(1, 13)])
    keys = fair_deck.SeatKeys(group, "ab" * 32, "test:0", 1, 0, len(deck))
    locked = fair_deck.lock_step(group, deck, keys)
    assert fair_deck.valid_deck(group, locked)
    for bad in BAD_POINTS[:6]:
        assert not fair_deck.valid_deck(group, [*locked[:-1], fair_deck.text_of(bad)])
