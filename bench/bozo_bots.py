"""Bozó benchmark: engine speed under random play, bot decision time, how the levels fare,
and how often each level bluffs.

Prints figures, asserts nothing. ``--games`` per pairing (2,000 for the figures in
``results.md``; lower it for a quick look).

A bid counts as a bluff when the bot, given the same view and seed with bluffing switched
off (``BLUFF_RATE`` zero), would have bid something else: the measured rate is the share
of a level's bids made with its cup in view that the bluff changed.

    python bench/bozo_bots.py [--games 2000] [--seats 4]
    python bench/bozo_bots.py --lineup hard,medium,medium,medium --games 1000

``--lineup`` seats the listed levels (one per seat, rotated with the game number) instead of
the pairings, e.g. one hard bot against three medium ones.
"""

import argparse
import math
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from pyengine.core.registry import discover, get_declaration, get_game  # noqa: E402
from pyengine.core.rng import derive_seed  # noqa: E402
from pyengine.core.simulate import random_playout  # noqa: E402
from pyengine.games.bozo import bot as bozo_bot  # noqa: E402

discover("pyengine.games")


def random_speed(seeds: int, seats: int) -> None:
    start, plies = time.perf_counter(), 0
    for seed in range(seeds):
        plies += len(random_playout("bozo", seed, seats)[1])
    took = time.perf_counter() - start
    print(f"random play, {seats} seats: {plies / took:,.0f} plies/s ({plies} plies, {seeds} games)")


def match(levels: list, games: int, first: int = 0) -> None:
    """Round-robin seating of ``levels``; share of games won per level, with a 95% margin."""
    game = get_game("bozo")
    bots = get_declaration("bozo").bots()
    seats = len(levels)
    wins = {level: 0.0 for level in set(levels)}
    seat_games = {level: 0 for level in set(levels)}
    bids = {level: 0 for level in set(levels)}
    bluffs = {level: 0 for level in set(levels)}
    decisions, thinking = 0, 0.0
    for played, number in enumerate(range(first, first + games), 1):
        order = levels[number % seats:] + levels[: number % seats]
        state = game.new_state({}, seats, number)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            started = time.perf_counter()
            view, seed, level = game.view(state, seat), derive_seed(number, seat, state["hand"]), order[seat]
            action = bots[level](view, seed)
            thinking += time.perf_counter() - started
            decisions += 1
            if action["type"] == "bid" and view["dice"] is not None:
                bids[level] += 1
                bluffs[level] += action != honest(view, level, seed)
            state = game.apply(state, seat, action)
        winners = state["result"]["winners"]
        for seat, level in enumerate(order):
            seat_games[level] += 1
            if seat in winners:
                wins[level] += 1 / len(winners)
        if played in (games // 8, games // 4, games // 2, games):
            report(levels, played, wins, seat_games, bids, bluffs, thinking, decisions)


def report(levels, games, wins, seat_games, bids, bluffs, thinking, decisions) -> None:
    """The figures so far (printed along the way, so a long run is read as it goes)."""
    seats = len(levels)
    print(f"{' vs '.join(levels)}, {games} games:", flush=True)
    for level in sorted(wins):
        share = wins[level] / seat_games[level]
        margin = 1.96 * math.sqrt(share * (1 - share) / seat_games[level])
        fair = 1 / seats
        print(f"  {level:6} wins {share:.1%} ± {margin:.1%} per seat (fair share {fair:.1%}); "
              f"bluffs {bluffs[level] / max(1, bids[level]):.1%} of {bids[level]} bids "
              f"(set rate {bozo_bot.BLUFF_RATE[level]:.0%})")
    print(f"  bot decision: {1000 * thinking / decisions:.2f} ms on average over {decisions}", flush=True)


def honest(view: dict, level: str, seed: int) -> dict:
    """The bot's action at the same view and seed with bluffing switched off."""
    rates = dict(bozo_bot.BLUFF_RATE)
    bozo_bot.BLUFF_RATE.update(dict.fromkeys(rates, 0.0))
    try:
        return bozo_bot.choose_action(view, level, seed)
    finally:
        bozo_bot.BLUFF_RATE.update(rates)


PAIRINGS = {"easy-medium": ("easy", "medium"), "medium-hard": ("medium", "hard"), "easy-hard": ("easy", "hard")}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--first", type=int, default=0, help="first game's number (to split a run)")
    parser.add_argument("--pairing", choices=["all", *PAIRINGS], default="all")
    parser.add_argument("--lineup", help="comma-separated levels, one per seat (overrides --pairing)")
    args = parser.parse_args()
    if args.lineup:
        match(args.lineup.split(","), args.games, args.first)
        return
    if args.pairing == "all":
        random_speed(10, args.seats)
        random_speed(3, 10)
    for name, pair in PAIRINGS.items():
        if args.pairing in ("all", name):
            match(list(pair) * (args.seats // 2), args.games, args.first)


if __name__ == "__main__":
    main()
