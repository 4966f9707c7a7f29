"""Botifarra engine costs in CPython (CPU time, so a loaded machine does not inflate them): a card played (``apply``), a ``view``, a ``resample``
(bots call it ~40 times per decision), and random whole games per variant.

    python bench/botifarra_engine.py [--games N]

The engine is not registered yet, so this bench uses the class directly.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyengine.core.rng import Rng  # noqa: E402
from pyengine.games.botifarra.rules import Botifarra  # noqa: E402

GAME = Botifarra()
VARIANTS = [("4 partnerships", 4, {}), ("4 individual", 4, {"individual": True}), ("3 players", 3, {}),
            ("2 six piles", 2, {}), ("2 piles+hand", 2, {"two_player_layout": "four_piles_and_hand"})]


def random_game(seats, options, seed):
    """Every (state, seat, action) of one uniformly random game."""
    state, chooser = GAME.new_state(options, seats, seed), Rng(seed + 1)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        action = actions[chooser.below(len(actions))]
        yield state, seat, action
        state = GAME.apply(state, seat, action)


def micro(seats, options, games):
    """Median µs per played card, per view and per resample over the states of random games."""
    plays, views, resamples = [], [], []
    for seed in range(games):
        for state, seat, action in random_game(seats, options, seed):
            if action["type"] != "play":
                continue
            began = time.process_time()
            GAME.apply(state, seat, action)
            plays.append(time.process_time() - began)
            began = time.process_time()
            GAME.view(state, seat)
            views.append(time.process_time() - began)
            began = time.process_time()
            GAME.resample(state, seat, Rng(seed))
            resamples.append(time.process_time() - began)
    return [statistics.median(xs) * 1e6 for xs in (plays, views, resamples)] + [max(resamples) * 1e6]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print(f"CPython {sys.version.split()[0]}; medians over the card plays of {args.games} random games")
    print(f"{'variant':16s} {'play µs':>8s} {'view µs':>8s} {'resample µs':>12s} {'max':>7s} {'games/s':>8s}")
    for name, seats, options in VARIANTS:
        play, view, resample, worst = micro(seats, options, args.games)
        began = time.process_time()
        for seed in range(args.games):
            for _ in random_game(seats, options, 1000 + seed):
                pass
        rate = args.games / (time.process_time() - began)
        print(f"{name:16s} {play:8.0f} {view:8.0f} {resample:12.0f} {worst:7.0f} {rate:8.1f}")


if __name__ == "__main__":
    main()
