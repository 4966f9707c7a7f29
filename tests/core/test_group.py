"""The card group: locks commute and come off, and a peer's bad point is refused."""

import pytest

from pyengine.core import group as groups


@pytest.fixture(scope="module")
def group():
    return groups.NaclGroup()


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


# Points a peer may send that the group must refuse (the browser's group is checked on them too).
BAD_POINTS = [
    bytes(32),  # not the encoding of a subgroup element
    bytes([1]) + bytes(31),  # the neutral element
    bytes.fromhex("ec" + "ff" * 30 + "7f"),  # of order 2: would leak a bit of a lock
    b"\xff" * 32,  # not canonical
    b"short",
    "a string",
]


@pytest.mark.parametrize("bad", BAD_POINTS)
def test_a_point_outside_the_subgroup_is_refused(group, bad):
    assert not group.is_valid_point(bad)
    with pytest.raises(ValueError):
        group.multiply_all(groups.random_scalar(group), [groups.point_for(group, "1o"), bad])


def test_the_installed_group_defaults_to_pynacl():
    assert isinstance(groups.current(), groups.NaclGroup)
