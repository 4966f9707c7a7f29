"""The one contract every registered game must honour, checked by random legal play."""

import json
import marshal

import pytest

from pyengine.core.errors import IllegalAction
from pyengine.core.registry import playable_games
from pyengine.core.rng import Rng, derive_seed
from pyengine.core.shape import Shape
from pyengine.core.table import MAX_NAME, MAX_SEED, Table

GAMES = sorted(playable_games())
# Options that change who may act, played besides each game's defaults.
VARIANTS = [("perudo", {"calza": True, "calza_by": "anyone"})]
PLAYS = [(game_id, {}) for game_id in GAMES] + VARIANTS
SEEDS = range(12)
# The first seeds check every ply this far into the game, then every seventh like the rest:
# whole games of most titles, and the openings of the longest (Bozó at 20 seats: ~6,000 plies).
FULLY_CHECKED_SEEDS, FULLY_CHECKED_PLIES = 3, 600
# Resamples per viewer and state: at least the first, then until a secret changes. One die
# of six faces left alone by eleven re-rolls happens once in 360 million.
MIN_DRAWS, MAX_DRAWS = 2, 12
# Names as long as allowed and as hostile as a player may type them.
NAMES = ['"><svg onload=alert(1)>', "<img src=x onerror=al>", "' onmouseover='x'", "Zoë"]


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def snapshot(state) -> bytes:
    """The state's exact contents, to tell whether a call changed it: marshal's format 2 (no
    back-references) gives the same bytes for an untouched tree and other bytes for any
    change of a value, a type (``True`` is not ``1``), a key or an order; in C, 6x faster
    than ``canonical``, which took a third of a 20-seat game's checks."""
    return marshal.dumps(state, 2)


def seat_counts(game):
    return sorted({game.min_seats, min(game.max_seats, game.min_seats + 1), game.max_seats})


def table_seed(seed: int) -> int:
    """A seed with many digits, so that finding it in a view cannot be a coincidence."""
    return derive_seed("contract", seed) % (MAX_SEED + 1)


def without_generator(state) -> dict:
    return {key: value for key, value in state.items() if key != "rng"}


def viewers_at(state, seat: int, ply: int) -> tuple:
    """Who looks at a checked ply: the spectator, the seat about to act and one more seat in
    turn, so that every seat is looked at over a game without checking 21 viewpoints at
    every ply of a 20-seat table."""
    return tuple(dict.fromkeys((None, seat, ply % state["seats"])))


def every_viewer(state) -> tuple:
    return (None, *range(state["seats"]))


def seen_by(game, state, viewers) -> dict:
    """Each viewer's view of ``state`` and its canonical text, made once for every check of a ply."""
    views = {viewer: game.view(state, viewer) for viewer in viewers}
    return {viewer: (view, canonical(view)) for viewer, view in views.items()}


def check_resample(game, state, rng, seen_views):
    """For each viewer (the spectator or a seat; ``seen_views`` from ``seen_by``): what it
    sees is unchanged in every resampled state;
    the generator is always redrawn; and something hidden is redrawn too, in a game with
    secrets that is still running while the viewer has some left to guess (in one of a few
    draws), or nothing else ever is, in a game without."""
    before = snapshot(state)
    hidden = without_generator(state)
    for viewer, (_, seen) in seen_views.items():
        redrawn = False
        for draw in range(MAX_DRAWS):
            if draw >= MIN_DRAWS and (redrawn or not game.hidden_information):
                break
            resampled = game.resample(state, viewer, rng)
            assert canonical(game.view(resampled, viewer)) == seen, f"resampling changed what {viewer} sees"
            assert resampled["rng"] != state["rng"], "resampling kept the generator, which foresees rolls"
            redrawn = redrawn or without_generator(resampled) != hidden
        if not game.hidden_information:
            assert not redrawn, f"{game.id} declares no secrets but resampling redrew some"
        elif game.has_secrets(state, viewer):
            assert redrawn, f"resampling for {viewer} redrew none of the secrets"
    assert snapshot(state) == before, "resample mutated its input"


def check_no_generator_in(text: str, state):
    """No value or key anywhere in the view (``text``: its JSON) is the generator's seed
    (the seeds here have 15 digits or more) nor the generator itself."""
    seed = state["rng"]["seed"]
    assert seed >= 10**14 and str(seed) not in text, "a view carries the seed"
    assert '"rng"' not in text, "a view carries the generator"


def players_for(table) -> list:
    """The two forms of ``players`` the shell adds: a table's seats and a shared table's
    public seats, with the longest and most hostile names."""
    seats = []
    for index, seat in enumerate(table.seats):
        entry = dict(seat)
        entry["name"] = NAMES[index % len(NAMES)][:MAX_NAME]
        seats.append(entry)
    public = [
        {**seat, "open": seat["kind"] == "remote", "covered": False, "connected": index % 2 == 0}
        for index, seat in enumerate(seats)
    ]
    return [seats, public]


def check_views_fit(game, state, players, seen_views):
    """Each viewer's view (``seen_views`` from ``seen_by``) fits the game's shape, with either
    form of ``players`` (in turn) and without."""
    seats = state["seats"]
    for viewer, (view, text) in seen_views.items():
        assert json.loads(text) == view
        check_no_generator_in(text, state)
        if viewer is None:
            game.check_view(view, seats)
        game.check_view({**view, "players": players[(viewer or 0) % len(players)]}, seats)


def check_illegal_actions_rejected(game, state):
    before = snapshot(state)
    movers = game.to_act(state)
    idle = [s for s in range(state["seats"]) if s not in movers and s not in game.may_act(state)]
    attempts = [(movers[0], {"type": "__no_such_action__"}), (movers[0], "dudo"), (movers[0], None)]
    if idle:
        legal = game.legal_actions(state, movers[0])
        attempts.append((idle[0], legal[0]))
    attempts.append((state["seats"] + 3, {"type": "__no_such_action__"}))
    for seat, action in attempts:
        with pytest.raises(IllegalAction) as caught:
            game.apply(state, seat, action)
        assert caught.value.reason
        assert snapshot(state) == before


def play_id(game_id: str, options: dict, seed: int) -> str:
    """``perudo-3``, ``perudo-calza_True-calza_by_anyone-3``: the game, its options, the seed."""
    return "-".join([game_id, *(f"{k}_{v}" for k, v in options.items()), str(seed)])


@pytest.mark.parametrize(
    "game_id, options, seed",
    [pytest.param(*play, seed, id=play_id(*play, seed)) for play in PLAYS for seed in SEEDS],
)
def test_random_play_honours_the_contract(game_id, options, seed):
    """One game per test, so that the test processes share out the longest games."""
    game = playable_games()[game_id]
    assert isinstance(game.view_shape, Shape), f"{game_id} declares no view_shape"
    seats = seat_counts(game)[seed % len(seat_counts(game))]
    kinds = [{"kind": "human", "name": f"P{i}"} for i in range(seats - 1)]
    kinds.append({"kind": "bot", "name": "Bot", "level": game.bot_levels[0]})
    table = Table(game_id, options, kinds, table_seed(seed))
    players = players_for(table)
    state = table.state
    chooser = Rng(seed + 1000)
    resampler = Rng(seed + 2000)
    log = []
    while not game.is_over(state):
        assert len(log) < 20_000, "game did not end"  # Bozó at 20 seats: ~6,000 random plies
        movers = game.to_act(state)
        assert movers, "a running game must have someone to act"
        optional = game.may_act(state)
        assert not set(optional) & set(movers), "may_act lists seats besides to_act"
        movers = movers + optional
        seat = movers[chooser.below(len(movers))]
        actions = game.legal_actions(state, seat)
        assert actions, f"seat {seat} may act but has no legal action"
        action = actions[chooser.below(len(actions))]
        assert canonical(json.loads(canonical(action))) == canonical(action)
        checked = (seed < FULLY_CHECKED_SEEDS and len(log) < FULLY_CHECKED_PLIES) or len(log) % 7 == 0
        if checked:
            seen_views = seen_by(game, state, viewers_at(state, seat, len(log)))
            check_resample(game, state, resampler, seen_views)
            check_illegal_actions_rejected(game, state)
            check_views_fit(game, state, players, seen_views)
            before = snapshot(state)
        new_state = game.apply(state, seat, action)
        if checked:  # serialising a 20-seat state at each of ~6,000 plies was a third of the time
            assert snapshot(state) == before, "apply mutated its input"
            assert json.loads(canonical(new_state)) == new_state
        state = new_state
        log.append({"seat": seat, "action": action})
    result = game.result(state)
    assert result and isinstance(result.get("winners"), list)
    seen_views = seen_by(game, state, every_viewer(state))
    check_resample(game, state, resampler, seen_views)
    check_views_fit(game, state, players, seen_views)
    finished = canonical(state)
    for seat in range(seats):
        with pytest.raises(IllegalAction):
            game.apply(state, seat, log[-1]["action"])
    assert canonical(state) == finished

    saved = table.to_dict()
    saved["log"] = log
    replayed = Table.from_dict(json.loads(json.dumps(saved)))
    assert canonical(replayed.state) == canonical(state), "replay diverged"
