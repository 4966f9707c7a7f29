"""What a guest's check and a bot's determinisation cost, per game at its largest table
(CPU time, so a loaded machine does not inflate them): ``check_view`` on a view from mid-game
(a guest runs it on every state it receives), ``resample`` (bots of card games call it in
their inner loop) and ``view`` for comparison.

    python bench/view_shapes.py [--plies N]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyengine.core.registry import discover, playable_games  # noqa: E402
from pyengine.core.rng import Rng  # noqa: E402

discover("pyengine.games")


def per_call_us(call, budget=0.3) -> float:
    count, start = 0, time.process_time()
    while time.process_time() - start < budget:
        call()
        count += 1
    return (time.process_time() - start) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plies", type=int, default=60, help="random plies before measuring")
    plies = parser.parse_args().plies
    print(f"{'game':14} seats {'check_view':>12} {'view':>10} {'resample':>10}")
    for game_id, game in playable_games().items():
        seats = game.max_seats
        state, chooser, worlds = game.new_state({}, seats, 7), Rng(8), Rng(9)
        for _ in range(plies):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            actions = game.legal_actions(state, seat)
            state = game.apply(state, seat, actions[chooser.below(len(actions))])
        view = game.view(state, 1)
        check = per_call_us(lambda: game.check_view(view, seats))
        look = per_call_us(lambda: game.view(state, 1))
        draw = per_call_us(lambda: game.resample(state, 1, worlds))
        print(f"{game_id:14} {seats:5} {check:10.1f}us {look:8.1f}us {draw:8.1f}us")


if __name__ == "__main__":
    main()
