"""A view is the seat's own copy: a screen or bot that edits what it was given never edits the
table (a shared dict would let a renderer change the game, or one seat's view another's)."""

import json

import pytest

from pyengine.core.registry import playable_games
from pyengine.core.rng import Rng


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


def positions(game, seed: int, plies: int):
    """A start and positions along one random game, the finished one included when reached."""
    state = game.new_state({}, game.min_seats, seed)
    chooser = Rng(seed)
    yield state
    for _ in range(plies):
        if game.is_over(state):
            break
        movers = game.to_act(state)
        seat = movers[chooser.below(len(movers))]
        actions = game.legal_actions(state, seat)
        state = game.apply(state, seat, actions[chooser.below(len(actions))])
        yield state


@pytest.mark.parametrize("game_id", sorted(playable_games()))
def test_editing_a_view_leaves_the_state_as_it_was(game_id):
    game = playable_games()[game_id]
    for state in positions(game, seed=7, plies=400):
        before = json.dumps(state, sort_keys=True)
        for seat in [None, *range(state["seats"])]:
            scribble(game.view(state, seat))
        assert json.dumps(state, sort_keys=True) == before


def test_the_scribbler_edits_nested_values():
    value = {"a": [{"b": []}]}
    scribble(value)
    assert value["a"][0]["b"] == ["scribbled"] and value["scribbled"]
