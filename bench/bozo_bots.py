"""Bozó benchmark: engine speed under random play, bot decision time, and how the levels fare.

Prints figures, asserts nothing. Modest defaults; raise --games for tighter numbers.

    python bench/bozo_bots.py [--games 60] [--seats 4]
"""

import argparse
import math
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from pyengine.core.registry import get_declaration, get_game  # noqa: E402
from pyengine.core.rng import derive_seed  # noqa: E402
from pyengine.core.simulate import random_playout  # noqa: E402


def random_speed(seeds: int, seats: int) -> None:
    start, plies = time.perf_counter(), 0
    for seed in range(seeds):
        plies += len(random_playout("bozo", seed, seats)[1])
    took = time.perf_counter() - start
    print(f"random play, {seats} seats: {plies / took:,.0f} plies/s ({plies} plies, {seeds} games)")


def match(levels: list, games: int) -> None:
    """Round-robin seating of ``levels``; share of games won per level, with a 95% margin."""
    game = get_game("bozo")
    bots = get_declaration("bozo").bots()
    seats = len(levels)
    wins = {level: 0.0 for level in set(levels)}
    seat_games = {level: 0 for level in set(levels)}
    decisions, thinking = 0, 0.0
    for number in range(games):
        order = levels[number % seats:] + levels[: number % seats]
        state = game.new_state({}, seats, number)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            started = time.perf_counter()
            action = bots[order[seat]](game.view(state, seat), derive_seed(number, seat, state["hand"]))
            thinking += time.perf_counter() - started
            decisions += 1
            state = game.apply(state, seat, action)
        winners = state["result"]["winners"]
        for seat, level in enumerate(order):
            seat_games[level] += 1
            if seat in winners:
                wins[level] += 1 / len(winners)
    print(f"{' vs '.join(levels)}, {games} games:")
    for level in sorted(wins):
        share = wins[level] / seat_games[level]
        margin = 1.96 * math.sqrt(share * (1 - share) / seat_games[level])
        fair = 1 / seats
        print(f"  {level:6} wins {share:.1%} ± {margin:.1%} per seat (fair share {fair:.1%})")
    print(f"  bot decision: {1000 * thinking / decisions:.2f} ms on average over {decisions}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    random_speed(10, args.seats)
    random_speed(3, 10)
    match(["easy", "medium"] * (args.seats // 2), args.games)
    match(["medium", "hard"] * (args.seats // 2), args.games)
    match(["easy", "hard"] * (args.seats // 2), args.games)


if __name__ == "__main__":
    main()
