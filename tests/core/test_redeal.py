"""core.redeal: unseen cards dealt again under sizes, forbidden cards and group caps."""

from pyengine.core.redeal import redeal
from pyengine.core.rng import Rng

CARDS = [rank + suit for suit in "HDCS" for rank in ("A", "7", "8", "9", "10", "J", "Q", "K")]


def test_sizes_forbidden_cards_and_caps_hold():
    hearts = {c for c in CARDS if c.endswith("H")}
    forbidden = {0: hearts, 1: {"KS"}}
    caps = {2: {"K": 1, "Q": 0}}
    seen = set()
    for seed in range(50):
        hands = redeal(CARDS, [8, 8, 8, 8], Rng(seed), forbidden=forbidden, caps=caps, group=lambda c: c[:-1])
        assert sorted(sum(hands, [])) == sorted(CARDS) and [len(h) for h in hands] == [8, 8, 8, 8]
        assert not hearts & set(hands[0]) and "KS" not in hands[1]
        assert sum(c[:-1] == "K" for c in hands[2]) <= 1 and not any(c[:-1] == "Q" for c in hands[2])
        seen.add(tuple(hands[3]))
    assert len(seen) == 50  # it varies with the Rng
    assert redeal(CARDS, [8, 8, 8, 8], Rng(3), forbidden=forbidden) == redeal(CARDS, [8, 8, 8, 8], Rng(3), forbidden=forbidden)


def test_a_tight_fit_is_found_and_an_impossible_one_refused():
    # place 0 may hold only hearts and needs all 8; place 1 may not hold hearts
    not_hearts = {c for c in CARDS if not c.endswith("H")}
    hands = redeal(CARDS, [8, 24], Rng(1), forbidden={0: not_hearts, 1: set(CARDS) - not_hearts})
    assert sorted(hands[0]) == sorted(c for c in CARDS if c.endswith("H"))
    assert redeal(CARDS, [9, 23], Rng(1), forbidden={0: not_hearts}) is None
    assert redeal(CARDS, [8, 8], Rng(1)) is None  # sizes must take every card
    assert redeal(CARDS[:4], [4], Rng(1), caps={0: {"A": 0}}, group=lambda c: c[:-1]) is None
