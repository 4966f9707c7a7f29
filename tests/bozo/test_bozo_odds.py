"""Bozó odds against exhaustive enumeration of every roll, counted by the engine's own rule."""

import itertools
from collections import Counter
from functools import lru_cache

import pytest

from pyengine.kits.bluffing import ACES_IF_SHOWN, count_bid
from pyengine.games.bozo import GAME
from pyengine.games.bozo.odds import bid_chance, chance, chance_from_cups, uniform_cups

OWN_CUPS = [(), (1,), (5,), (1, 1), (2, 5), (1, 3, 3), (4, 4, 6), (1, 2, 6)]


@lru_cache(maxsize=None)
def table_counts(own, unseen):
    """For each face, how many of all 6**unseen rolls give each count at the reveal."""
    tally = {face: Counter() for face in range(1, 7)}
    for roll in itertools.product(range(1, 7), repeat=unseen):
        cups = [list(own), list(roll)]
        for face in range(1, 7):
            tally[face][count_bid(cups, face, ACES_IF_SHOWN)] += 1
    return tally


def enumerated(count, face, own, unseen):
    """The exact share of all rolls in which the bid holds, counted by the engine's rule."""
    hits = sum(n for total, n in table_counts(own, unseen)[face].items() if total >= count)
    return hits / 6**unseen


@pytest.mark.parametrize("own", OWN_CUPS)
@pytest.mark.parametrize("unseen", [0, 1, 2, 3, 5])
def test_closed_form_matches_enumeration(own, unseen):
    for face in range(1, 7):
        for count in range(1, len(own) + unseen + 2):
            assert chance(count, face, own, unseen) == pytest.approx(
                enumerated(count, face, own, unseen), abs=1e-12
            ), (count, face, own, unseen)


@pytest.mark.parametrize("own", OWN_CUPS[:5])
def test_cup_convolution_matches_enumeration(own):
    """Opponents of 3, 2 and 1 dice with uniform beliefs: the same numbers as enumeration."""
    opponents = [uniform_cups(3), uniform_cups(2), uniform_cups(1)]
    for face in range(1, 7):
        for count in range(1, len(own) + 8):
            assert chance_from_cups(count, face, own, opponents) == pytest.approx(
                enumerated(count, face, own, 6), abs=1e-12
            )


def test_uniform_cups_are_a_distribution():
    for size in (1, 2, 3):
        assert sum(p for p, _ in uniform_cups(size)) == pytest.approx(1.0)
    assert len(uniform_cups(3)) == 56


def test_skewed_beliefs_move_the_chance():
    """An opponent known to hold a sena makes the aces count for senas."""
    sure_six = [(1.0, (6, 6, 6))]
    assert chance_from_cups(2, 6, (1, 1), [sure_six]) == 1.0
    no_six = [(1.0, (2, 3, 4))]
    assert chance_from_cups(1, 6, (1, 1), [no_six]) == 0.0


def test_aces_count_only_where_the_face_shows_unlike_perudo():
    """Holding two aces and no sena, with one unseen die: 2 senas need that die to be a sena."""
    assert chance(2, 6, (1, 1), 1) == pytest.approx(1 / 6)
    assert chance(2, 6, (1, 1, 6), 0) == 1.0
    assert chance(1, 6, (1, 1), 0) == 0.0


def test_view_odds_use_only_the_seats_own_cup():
    state = GAME.new_state({}, 3, seed=8)
    state["choosing"] = False
    state["dice"] = [[1, 1, 4], [6, 6, 6], [6, 6, 6]]
    view = GAME.view(state, 0)
    assert bid_chance(view, 3, 4) == pytest.approx(chance(3, 4, (1, 1, 4), 6))
    blind = GAME.new_state({"blind_bids": True}, 3, seed=8)
    assert bid_chance(GAME.view(blind, 0), 2, 4) == pytest.approx(chance(2, 4, (), 9))
