"""How long drawing one seat's screen takes, per game (CPU time, so a loaded machine does not
inflate it): every reply the worker sends to the page renders a screen, in Pyodide on a phone.

Positions come from seeded random play (the same on every run) at a few seat counts and at
several points of a game (start, early, middle, late, the end), each seen by the spectator
and by every seat, timed in English and in Catalan (whose messages elide articles).
``--digest`` prints a SHA-256 of every screen drawn, in every language, instead of timing
them, to show that a faster renderer draws the very same bytes: run it before and after a
change and compare.

    python bench/render_speed.py [--repeat N] [--digest]
"""

import argparse
import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyengine.core.registry import discover, get_declaration, playable_games  # noqa: E402
from pyengine.core.rng import Rng  # noqa: E402
from pyengine.core.simulate import random_moves  # noqa: E402
from pyengine.i18n import LANGUAGES, Translator  # noqa: E402
from pyengine.shell.screens import seat_view  # noqa: E402

discover("pyengine.games")

TIMED_LANGUAGES = ("en", "ca")
PHASES = (0, 0.1, 0.4, 0.7, 1.0)  # how far into a random game, as a share of its plies


def seat_counts(game) -> list:
    return sorted({game.min_seats, (game.min_seats + game.max_seats) // 2, game.max_seats})


def positions(game, seats: int, seed: int) -> list:
    """States of one seeded random game at each of ``PHASES``."""
    start = game.new_state({}, seats, seed)
    states = [start, *(state for _, _, state in random_moves(game, start, Rng(seed + 1000)))]
    return [states[round(share * (len(states) - 1))] for share in PHASES]


def screens(game_id: str) -> list:
    """``(seats, view, players)`` to draw: every position of every seat count, every viewer."""
    game = playable_games()[game_id]
    drawn = []
    for seats in seat_counts(game):
        players = [{"kind": "human", "name": f"P{i}" if i % 2 else ""} for i in range(seats)]
        for state in positions(game, seats, seed=seats * 7 + 1):
            drawn += [(seats, game.view(state, viewer), players) for viewer in (None, *range(seats))]
    return drawn


def render_all(screen, drawn: list, translators: list) -> list:
    return [str(seat_view(screen, view, players, {}, t)) for t in translators for _, view, players in drawn]


def fastest(screen, drawn: list, translators: list, repeat: int) -> float:
    """The least CPU time of ``repeat`` passes over ``drawn``: other jobs on a shared machine
    only ever slow a pass down."""
    spent = []
    for _ in range(repeat):
        start = time.process_time()
        render_all(screen, drawn, translators)
        spent.append(time.process_time() - start)
    return min(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="passes over the screens when timing (the fastest counts)")
    parser.add_argument("--digest", action="store_true", help="print a digest of every screen instead of timings")
    args = parser.parse_args()
    if args.digest:
        translators = [Translator(lang) for lang in LANGUAGES]
        everything = hashlib.sha256()
        for game_id in playable_games():
            drawn = screens(game_id)
            pages = render_all(get_declaration(game_id).screen(), drawn, translators)
            digest = hashlib.sha256("\0".join(pages).encode()).hexdigest()
            everything.update(digest.encode())
            print(f"{game_id:14} {len(pages):5} screens  {digest}")
        print(f"{'all':14} {'':14}  {everything.hexdigest()}")
        return
    translators = [Translator(lang) for lang in TIMED_LANGUAGES]
    print(f"{'game':14} {'seats':>8} {'screens':>8} {'ms/render':>10}")
    for game_id in playable_games():
        screen, drawn = get_declaration(game_id).screen(), screens(game_id)
        render_all(screen, drawn, translators)  # warm the catalogs and caches
        for seats in sorted({s for s, _, _ in drawn}):
            some = [item for item in drawn if item[0] == seats]
            count = len(some) * len(translators)
            print(f"{game_id:14} {seats:8} {count:8} {fastest(screen, some, translators, args.repeat) / count * 1000:10.2f}")


if __name__ == "__main__":
    main()
