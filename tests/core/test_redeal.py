"""core/redeal.py: unseen cards shared among places of fixed sizes under "cannot hold" sets."""

import pytest

from pyengine.core.redeal import NoConsistentDeal, redeal
from pyengine.core.rng import Rng


def test_sizes_and_constraints_hold_and_every_card_is_placed_once():
    cards = [f"{rank}{suit}" for suit in "oceb" for rank in range(1, 10)]
    forbidden = [{c for c in cards if c.endswith("o")}, {c for c in cards if c.endswith("c")}, set()]
    for seed in range(200):
        places = redeal(cards, [12, 12, 12], forbidden, Rng(seed))
        assert [len(p) for p in places] == [12, 12, 12]
        assert sorted(c for p in places for c in p) == sorted(cards)
        for place, banned in zip(places, forbidden):
            assert not set(place) & banned


def test_a_chain_of_moves_when_the_greedy_placement_gets_stuck():
    # Place 0 may hold only a, place 1 only a or b: whenever a lands in place 1 first, b
    # needs an augmenting path (move a to place 0). Both outcomes must always be complete.
    cards = ["a", "b", "c"]
    forbidden = [{"b", "c"}, {"c"}, set()]
    for seed in range(100):
        assert redeal(cards, [1, 1, 1], forbidden, Rng(seed)) == [["a"], ["b"], ["c"]]


def test_every_consistent_deal_can_come_out():
    seen = {tuple(map(tuple, map(sorted, redeal(["a", "b", "c", "d"], [2, 2], [set(), set()], Rng(s)))))
            for s in range(200)}
    assert len(seen) == 6


def test_impossible_constraints_are_refused_not_looped():
    with pytest.raises(NoConsistentDeal):
        redeal(["a", "b"], [1, 1], [{"a", "b"}, set()], Rng(1))
    with pytest.raises(NoConsistentDeal):
        redeal(["a"], [2], [set()], Rng(1))
