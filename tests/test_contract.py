"""The one contract every registered game must honour, checked by random legal play."""

import json

import pytest

from pyengine.core.errors import IllegalAction
from pyengine.core.registry import playable_games
from pyengine.core.rng import Rng
from pyengine.core.table import Table

GAMES = sorted(playable_games())
SEEDS = range(12)


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def seat_counts(game):
    return sorted({game.min_seats, min(game.max_seats, game.min_seats + 1), game.max_seats})


def check_views_hide_secrets(game, state, seed):
    """One owner per call (rotating with the seed keeps big tables cheap), every viewer."""
    viewers = [None, *range(state["seats"])]
    for owner in (seed % state["seats"],):
        scrambled = game.scramble_private(state, owner, seed)
        for viewer in viewers:
            if viewer == owner:
                continue
            assert canonical(game.view(state, viewer)) == canonical(
                game.view(scrambled, viewer)
            ), f"seat {viewer}'s view depends on seat {owner}'s secrets"


def check_illegal_actions_rejected(game, state):
    before = canonical(state)
    movers = game.to_act(state)
    idle = [s for s in range(state["seats"]) if s not in movers]
    attempts = [(movers[0], {"type": "__no_such_action__"}), (movers[0], "dudo"), (movers[0], None)]
    if idle:
        legal = game.legal_actions(state, movers[0])
        attempts.append((idle[0], legal[0]))
    attempts.append((state["seats"] + 3, {"type": "__no_such_action__"}))
    for seat, action in attempts:
        with pytest.raises(IllegalAction) as caught:
            game.apply(state, seat, action)
        assert caught.value.reason
        assert canonical(state) == before


@pytest.mark.parametrize("game_id", GAMES)
def test_random_play_honours_the_contract(game_id):
    game = playable_games()[game_id]
    for seed in SEEDS:
        seats = seat_counts(game)[seed % len(seat_counts(game))]
        table = Table(game_id, {}, [{"kind": "human", "name": f"P{i}"} for i in range(seats)], seed)
        state = table.state
        chooser = Rng(seed + 1000)
        log = []
        full_checks = seed < 3
        while not game.is_over(state):
            assert len(log) < 5000, "game did not end"
            movers = game.to_act(state)
            assert movers, "a running game must have someone to act"
            seat = movers[chooser.below(len(movers))]
            actions = game.legal_actions(state, seat)
            assert actions, f"seat {seat} may act but has no legal action"
            action = actions[chooser.below(len(actions))]
            assert canonical(json.loads(canonical(action))) == canonical(action)
            if full_checks or len(log) % 7 == 0:
                check_views_hide_secrets(game, state, seed + len(log))
                check_illegal_actions_rejected(game, state)
                for viewer in (None, *range(seats)):
                    view = game.view(state, viewer)
                    assert json.loads(canonical(view)) == view
            before = canonical(state)
            new_state = game.apply(state, seat, action)
            assert canonical(state) == before, "apply mutated its input"
            assert json.loads(canonical(new_state)) == new_state
            state = new_state
            log.append({"seat": seat, "action": action})
        result = game.result(state)
        assert result and isinstance(result.get("winners"), list)
        finished = canonical(state)
        for seat in range(seats):
            with pytest.raises(IllegalAction):
                game.apply(state, seat, log[-1]["action"])
        assert canonical(state) == finished

        saved = table.to_dict()
        saved["log"] = log
        replayed = Table.from_dict(json.loads(json.dumps(saved)))
        assert canonical(replayed.state) == canonical(state), "replay diverged"
