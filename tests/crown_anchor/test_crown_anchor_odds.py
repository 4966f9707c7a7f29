"""Crown and Anchor odds: exact expected returns, and the engine's dice agreeing with them."""

import math
from fractions import Fraction
from itertools import product

from pyengine.games.crown_anchor import GAME, expected_return
from pyengine.games.crown_anchor.rules import PAYOUTS, SYMBOLS, settle

ROUNDS = 3000


def test_expected_return_standard_and_fixed_bank():
    """The rotating bank (default) keeps the edge; a bank one player keeps pays fair."""
    assert expected_return({}) == Fraction(-17, 216)
    assert expected_return({"bank": "rotate", "rotate_every": 5}) == Fraction(-17, 216)
    assert expected_return({"bank": "fixed"}) == 0
    assert expected_return({"bank": "lot"}) == 0
    assert expected_return({"bank": "lot", "payouts": "standard"}) == Fraction(-17, 216)
    assert expected_return({"bank": "rotate", "payouts": "fair"}) == 0
    assert expected_return(None) == Fraction(-17, 216)


def test_match_counts_over_all_rolls_are_the_digest_probabilities():
    counts = [0, 0, 0, 0]
    for dice in product(SYMBOLS, repeat=3):
        counts[dice.count("anchor")] += 1
    assert counts == [125, 75, 15, 1]


def six_symbol_gain_moments():
    """Exact mean and variance of one roll's gain for a punter with 1 chip on every symbol."""
    gains = []
    for dice in product(SYMBOLS, repeat=3):
        outcome = settle([{}, {s: 1 for s in SYMBOLS}], list(dice), 0, 100, PAYOUTS["standard"], "seating")
        gains.append(Fraction(outcome["won"][1] - outcome["lost"][1]))
    mean = sum(gains) / len(gains)
    return mean, sum((g - mean) ** 2 for g in gains) / len(gains)


def test_a_long_seeded_game_returns_what_the_odds_say():
    """3000 rolls through ``apply``, a chip on each symbol every round.

    Per chip the estimate's standard error is sqrt(var(G) / N) / 6, where G is one roll's
    gain on the six chips; var(G) = 0.305 exactly (computed below), so with N = 3000 the
    error is 0.0017 and the tolerance of four standard errors is 0.0067, well inside the
    0.079 edge (a fair engine would be 47 standard errors away).
    """
    mean, variance = six_symbol_gain_moments()
    assert mean / 6 == expected_return({})
    tolerance = 4 * math.sqrt(variance / ROUNDS) / 6
    # One banker all game (drawn by lot) paying the standard table, so one seat punts.
    state = GAME.new_state({"start_chips": 100_000, "bank": "lot", "payouts": "standard"}, 2, 20261122)
    banker = state["banker"]
    punter = 1 - banker
    staked = gained = 0
    faces = dict.fromkeys(SYMBOLS, 0)
    for _ in range(ROUNDS):
        for symbol in SYMBOLS:
            state = GAME.apply(state, punter, {"type": "bet", "symbol": symbol, "chips": 1})
        state = GAME.apply(state, punter, {"type": "done"})
        state = GAME.apply(state, banker, {"type": "roll"})
        staked += 6
        gained += state["last"]["delta"][punter]
        for symbol in state["dice"]:
            faces[symbol] += 1
    assert abs(gained / staked - float(expected_return({}))) < tolerance
    assert faces == state["tally"]
    assert state["chips"][punter] - 100_000 == gained
    # Each face 1/6 of 9000 dice: standard deviation sqrt(9000 * 1/6 * 5/6) = 35.4.
    assert all(abs(n - 1500) < 4 * 35.4 for n in faces.values())
