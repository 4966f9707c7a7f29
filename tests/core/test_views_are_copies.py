"""A view is the seat's own copy: a screen or bot that edits what it was given never edits the
table (a shared dict would let a renderer change the game, or one seat's view another's)."""

import json
from itertools import islice

import pytest

from pyengine.core.registry import playable_games
from pyengine.core.rng import Rng
from pyengine.core.simulate import random_moves


def scribble(value) -> None:
    """Edits every dict and list inside ``value`` in place."""
    if isinstance(value, dict):
        for child in list(value.values()):
            scribble(child)
        value["scribbled"] = True
    elif isinstance(value, list):
        for child in value:
            scribble(child)
        value.append("scribbled")


@pytest.mark.parametrize("game_id", sorted(playable_games()))
def test_editing_a_view_leaves_the_state_as_it_was(game_id):
    game = playable_games()[game_id]
    start = game.new_state({}, game.min_seats, 7)
    for _, _, state in ((None, None, start), *islice(random_moves(game, start, Rng(7)), 400)):
        before = json.dumps(state, sort_keys=True)
        for seat in [None, *range(state["seats"])]:
            scribble(game.view(state, seat))
        assert json.dumps(state, sort_keys=True) == before


def test_the_scribbler_edits_nested_values():
    value = {"a": [{"b": []}]}
    scribble(value)
    assert value["a"][0]["b"] == ["scribbled"] and value["scribbled"]
