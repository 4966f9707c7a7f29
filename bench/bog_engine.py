"""Bog engine benchmark: random play speed, game length, and ``resample`` cost in the run.

Prints figures, asserts nothing (the bots sample hidden hands with ``resample`` many times
per decision, so its cost bounds how many samples fit in a move).

    python bench/bog_engine.py [--games 12]
"""

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from pyengine.core.rng import Rng  # noqa: E402
from pyengine.games.bog.rules import Bog  # noqa: E402

GAME = Bog()


def percentile(values: list, share: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(share * len(values)))]


def run(seats: int, games: int, options: dict) -> None:
    plies, deals, took, samples = 0, 0, 0.0, []
    for seed in range(games):
        state, chooser = GAME.new_state(options, seats, seed), Rng(seed + 1)
        start = time.perf_counter()
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            actions = GAME.legal_actions(state, seat)
            state = GAME.apply(state, seat, actions[chooser.below(len(actions))])
            plies += 1
            if state["phase"] == "run" and plies % 3 == 0:
                mover = GAME.to_act(state)[0]
                begin = time.perf_counter()
                GAME.resample(state, mover, Rng(plies))
                samples.append(time.perf_counter() - begin)
                start += samples[-1]
        took += time.perf_counter() - start
        deals += state["deal"]
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
    print(f"{seats} seats ({label}): {plies / took:,.0f} plies/s, {deals / games:.1f} deals and "
          f"{plies / games:.0f} plies per random game; resample in the run: median "
          f"{percentile(samples, 0.5) * 1e3:.2f} ms, p95 {percentile(samples, 0.95) * 1e3:.2f} ms "
          f"({len(samples)} samples)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args()
    for seats, options in ((4, {}), (8, {}), (10, {}), (10, {"change_suit": "all_void"})):
        run(seats, args.games, options)


if __name__ == "__main__":
    main()
