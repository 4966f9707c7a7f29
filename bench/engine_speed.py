"""Random games per second in CPython for every registered game (seeded, uniform legal play).

    python bench/engine_speed.py [--games N] [--game ID]

The same playouts run in the browser under Pyodide through the worker's ``bench`` call
(bench/load_time.py prints that figure), so the two numbers compare like for like.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyengine.core.registry import discover, playable_games  # noqa: E402
from pyengine.core.simulate import random_playout  # noqa: E402

discover("pyengine.games")


def measure(game_id: str, games: int, seats: int) -> dict:
    plies = 0
    began = time.perf_counter()
    for seed in range(games):
        _, log = random_playout(game_id, seed, seats)
        plies += len(log)
    elapsed = time.perf_counter() - began
    return {"games_per_second": games / elapsed, "plies_per_second": plies / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", action="append")
    args = parser.parse_args()
    for game_id, game in sorted(playable_games().items()):
        if args.game and game_id not in args.game:
            continue
        seats = min(4, game.max_seats)
        figures = measure(game_id, args.games, seats)
        print(
            f"{game_id:14s} {seats} seats  {figures['games_per_second']:8.1f} games/s  "
            f"{figures['plies_per_second']:9.0f} actions/s  (CPython {sys.version.split()[0]})"
        )


if __name__ == "__main__":
    main()
