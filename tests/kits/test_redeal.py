"""kits.redeal: unseen cards dealt again under sizes, forbidden cards and group caps."""

import pytest

from pyengine.kits.redeal import NoConsistentDeal, redeal
from pyengine.core.rng import Rng

CARDS = [rank + suit for suit in "HDCS" for rank in ("A", "7", "8", "9", "10", "J", "Q", "K")]


def rank(card):
    return card[:-1]


def test_sizes_forbidden_cards_and_caps_hold():
    hearts = {c for c in CARDS if c.endswith("H")}
    forbidden = {0: hearts, 1: {"KS"}}
    caps = {2: {"K": 1, "Q": 0}}
    seen = set()
    for seed in range(50):
        hands = redeal(CARDS, [8, 8, 8, 8], Rng(seed), forbidden=forbidden, caps=caps, group=rank)
        assert sorted(sum(hands, [])) == sorted(CARDS) and [len(h) for h in hands] == [8, 8, 8, 8]
        assert not hearts & set(hands[0]) and "KS" not in hands[1]
        assert sum(rank(c) == "K" for c in hands[2]) <= 1 and not any(rank(c) == "Q" for c in hands[2])
        seen.add(tuple(hands[3]))
    assert len(seen) == 50  # it varies with the Rng
    assert redeal(CARDS, [8, 8, 8, 8], Rng(3), forbidden=forbidden) == redeal(CARDS, [8, 8, 8, 8], Rng(3), forbidden=forbidden)


def test_two_voids_leave_every_card_placed_once():
    cards = [f"{number}{suit}" for suit in "oceb" for number in range(1, 10)]
    forbidden = {0: {c for c in cards if c.endswith("o")}, 1: {c for c in cards if c.endswith("c")}}
    for seed in range(200):
        places = redeal(cards, [12, 12, 12], Rng(seed), forbidden=forbidden)
        assert [len(p) for p in places] == [12, 12, 12]
        assert sorted(c for p in places for c in p) == sorted(cards)
        for place, banned in forbidden.items():
            assert not set(places[place]) & banned


def test_a_chain_of_moves_when_the_first_placement_gets_stuck():
    # Place 0 may hold only a, place 1 only a or b: whenever a lands in place 1 first, b
    # needs an augmenting path (move a to place 0). Both outcomes must always be complete.
    for seed in range(100):
        assert redeal(["a", "b", "c"], [1, 1, 1], Rng(seed), forbidden={0: {"b", "c"}, 1: {"c"}}) == [["a"], ["b"], ["c"]]


def test_a_tight_fit_is_found():
    # place 0 may hold only hearts and needs all 8; place 1 may not hold hearts
    not_hearts = {c for c in CARDS if not c.endswith("H")}
    hands = redeal(CARDS, [8, 24], Rng(1), forbidden={0: not_hearts, 1: set(CARDS) - not_hearts})
    assert sorted(hands[0]) == sorted(c for c in CARDS if c.endswith("H"))


def test_every_consistent_deal_can_come_out_and_an_unconstrained_deal_is_uniform():
    counts = {}
    for seed in range(600):
        deal = tuple(map(tuple, map(sorted, redeal(["a", "b", "c", "d"], [1, 3], Rng(seed)))))
        counts[deal] = counts.get(deal, 0) + 1
    assert len(counts) == 4
    assert all(100 <= n <= 200 for n in counts.values())  # 150 each if uniform (binomial sd ~10.6)
    seen = {tuple(map(tuple, map(sorted, redeal(["a", "b", "c", "d"], [2, 2], Rng(s))))) for s in range(200)}
    assert len(seen) == 6


def test_impossible_facts_are_refused_not_looped():
    not_hearts = {c for c in CARDS if not c.endswith("H")}
    with pytest.raises(NoConsistentDeal):
        redeal(CARDS, [9, 23], Rng(1), forbidden={0: not_hearts})
    with pytest.raises(NoConsistentDeal):
        redeal(["a", "b"], [1, 1], Rng(1), forbidden={0: {"a", "b"}})
    with pytest.raises(NoConsistentDeal):
        redeal(CARDS, [8, 8], Rng(1))  # sizes must take every card
    with pytest.raises(NoConsistentDeal):
        redeal(["a"], [2], Rng(1))
    with pytest.raises(NoConsistentDeal):
        redeal(CARDS[:4], [4], Rng(1), caps={0: {"A": 0}}, group=rank)
    assert issubclass(NoConsistentDeal, ValueError)
