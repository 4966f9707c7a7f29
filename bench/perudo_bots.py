"""Perudo bot strength and speed: each level in 4-seat tables against three medium bots.

Usage: python bench/perudo_bots.py [--games 2000] [--levels easy,medium,hard] [--seed 1]
                                   [--six-seat-games 40]

The tested bot's seat rotates with the game number, so the opening seat (drawn at random
by the engine) gives no edge. A level as strong as medium wins 25% of the games; the
interval printed is the 95% normal approximation. Decision times are per call to
the level's bot (``BOTS[level]``), in CPU time so that other work on the machine does not count (Pyodide is
about 2-3x slower than this CPython): in the 4-seat games above,
and in full 6-seat tables of the level (30 dice, the most a bot ever reasons about).
"""

import argparse
import math
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from pyengine.core.registry import discover, get_declaration, get_game  # noqa: E402
from pyengine.core.rng import derive_seed  # noqa: E402

discover("pyengine.games")

SEATS = 4


def play(game, levels: list, seed: int, timings: dict) -> int:
    bots = get_declaration(game.id).bots()
    """One game with ``levels[seat]`` bots; returns the winner and adds decision times."""
    state = game.new_state({}, len(levels), seed)
    ply = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        level = levels[seat]
        view = game.view(state, seat)
        started = time.process_time()
        action = bots[level](view, derive_seed(seed, ply, seat))
        spent = time.process_time() - started
        total, calls, worst = timings.get(level, (0.0, 0, 0.0))
        timings[level] = (total + spent, calls + 1, max(worst, spent))
        state = game.apply(state, seat, action)
        ply += 1
    return state["result"]["winners"][0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per level (default 2000)")
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--six-seat-games", type=int, default=40)
    args = parser.parse_args()
    game = get_game("perudo")
    print(f"Perudo bots: each level in {SEATS}-seat tables against three medium bots, "
          f"{args.games} games per level, seat rotated")
    print(f"{'level':8} {'wins':>6} {'win rate':>9} {'95% interval':>16} "
          f"{'ms/decision':>12} {'worst ms':>9} {'wall s':>8}")
    for level in args.levels.split(","):
        timings = {}
        wins = 0
        started = time.perf_counter()
        for index in range(args.games):
            tested = index % SEATS
            levels = ["medium"] * SEATS
            levels[tested] = level
            seed = derive_seed("perudo-bench", args.seed, level, index)
            wins += play(game, levels, seed, timings) == tested
        elapsed = time.perf_counter() - started
        rate = wins / args.games
        margin = 1.96 * math.sqrt(rate * (1 - rate) / args.games)
        total, calls, worst = timings[level]
        interval = f"{max(0.0, rate - margin):.1%}-{rate + margin:.1%}"
        print(f"{level:8} {wins:6d} {rate:9.1%} {interval:>16} "
              f"{1000 * total / calls:12.2f} {1000 * worst:9.1f} {elapsed:8.1f}", flush=True)
    print(f"\nDecision time in 6-seat tables of one level, {args.six_seat_games} games each")
    print(f"{'level':8} {'decisions':>10} {'ms/decision':>12} {'worst ms':>9}")
    for level in args.levels.split(","):
        timings = {}
        for index in range(args.six_seat_games):
            play(game, [level] * 6, derive_seed("perudo-bench-6", args.seed, level, index), timings)
        total, calls, worst = timings[level]
        print(f"{level:8} {calls:10d} {1000 * total / calls:12.2f} {1000 * worst:9.1f}", flush=True)


if __name__ == "__main__":
    main()
