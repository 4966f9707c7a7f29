"""Seeded random play, shared by the contract test, benchmarks and the in-browser self-test.

The same (game, seed) must give the same digest in CPython and in Pyodide: that is the
check that the engines and the RNG are portable.
"""

import hashlib
import json

from .registry import get_game
from .rng import Rng

MAX_PLIES = 5000


def state_digest(state: dict) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


def random_moves(game, state: dict, chooser: Rng):
    """``(seat, action, state after it)`` for each move of uniformly random legal play from
    ``state`` on (an optional out-of-turn move now and then too), to the end or ``MAX_PLIES``."""
    for _ in range(MAX_PLIES):
        if game.is_over(state):
            return
        movers = game.to_act(state) + game.may_act(state)
        seat = movers[chooser.below(len(movers))]
        actions = game.legal_actions(state, seat)
        action = actions[chooser.below(len(actions))]
        state = game.apply(state, seat, action)
        yield seat, action, state


def random_playout(game_id: str, seed: int, seats: int | None = None, options=None):
    """Plays uniformly random legal actions to the end; returns (final state, log)."""
    game = get_game(game_id)
    state = game.new_state(options or {}, seats or game.min_seats, seed)
    log = []
    for seat, action, state in random_moves(game, state, Rng(seed ^ 0x5EED)):
        log.append({"seat": seat, "action": action})
    return state, log


def playout_digest(game_id: str, seed: int, seats: int | None = None) -> dict:
    """A compact fingerprint of one random game, comparable across interpreters."""
    state, log = random_playout(game_id, seed, seats)
    return {"game": game_id, "seed": seed, "plies": len(log), "digest": state_digest(state)}
