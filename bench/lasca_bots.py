"""Lasca bot strength: win rates with alternating colours, and time per move.

Matches: each level against a fixed depth-2 alpha-beta with a material-only evaluation
(the yardstick), then hard against medium. A game that reaches ``--max-plies`` is scored
as a draw. Times are CPU seconds of this process (robust to a loaded machine).
Usage: ``python bench/lasca_bots.py --games 200``.
"""

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from pyengine.core.rng import Rng, derive_seed  # noqa: E402
from pyengine.games.lasca.bot import choose_move  # noqa: E402
from pyengine.games.lasca.rules import START, generate, make, parse_board  # noqa: E402

MATERIAL = {"w": 100, "W": 200, "b": -100, "B": -200}


def material(board, side):
    """Pieces each side commands (the commander's colour group on top); prisoners ignored."""
    score = 0
    for col in board:
        if col:
            colour = col[0].lower()
            for piece in col:
                if piece.lower() != colour:
                    break
                score += MATERIAL[piece]
    return score if side == 0 else -score


def _negamax(board, side, depth, alpha, beta):
    moves = generate(board, side)
    if not moves:
        return -100000 - depth
    if depth == 0:
        return material(board, side)
    best = -10 ** 9
    for move in moves:
        score = -_negamax(make(board, move), 1 - side, depth - 1, -beta, -alpha)
        if score > best:
            best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break
    return best


def yardstick_move(board, side, seed):
    """Depth-2 alpha-beta on material; a seeded pick among equally good moves."""
    scored = []
    for move in generate(board, side):
        scored.append((-_negamax(make(board, move), 1 - side, 1, -10 ** 9, 10 ** 9), move))
    best = max(s for s, _ in scored)
    top = sorted(m for s, m in scored if s == best)
    return top[Rng(seed).below(len(top))]


def player(name):
    if name == "yardstick":
        return yardstick_move
    # No wall-clock cap here, so that results do not depend on the machine's load.
    return lambda board, side, seed: choose_move(board, side, name, seed, safety=None)


def play_game(white, black, seed, max_plies, clock):
    board, side = parse_board(START)
    players = (player(white), player(black))
    names = (white, black)
    for ply in range(max_plies):
        if not generate(board, side):
            return 1 - side
        started = time.process_time()
        move = players[side](board, side, derive_seed(seed, ply))
        clock.setdefault(names[side], []).append(time.process_time() - started)
        board = make(board, move)
        side = 1 - side
    return None


def match(first, second, games, max_plies, seed):
    wins = {first: 0, second: 0}
    draws = 0
    clock = {}
    for game in range(games):
        white, black = (first, second) if game % 2 == 0 else (second, first)
        winner = play_game(white, black, derive_seed(seed, first, second, game), max_plies, clock)
        if winner is None:
            draws += 1
        else:
            wins[(white, black)[winner]] += 1
    return wins, draws, clock


DEFAULT_MATCHES = "easy:yardstick,medium:yardstick,hard:yardstick,hard:medium"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per match (>= 200 for the report)")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--matches", default=DEFAULT_MATCHES,
                        help=f"comma-separated first:second pairs (default {DEFAULT_MATCHES})")
    args = parser.parse_args()
    pairs = [tuple(pair.split(":")) for pair in args.matches.split(",")]
    for first, second in pairs:
        started = time.perf_counter()
        wins, draws, clock = match(first, second, args.games, args.max_plies, args.seed)
        score = (wins[first] + draws / 2) / args.games
        print(f"{first} vs {second}: {wins[first]} wins, {wins[second]} losses, {draws} draws "
              f"over {args.games} games, score {score:.1%} ({time.perf_counter() - started:.0f} s)")
        for name, times in clock.items():
            times.sort()
            print(f"  {name}: {len(times)} moves, CPU per move mean "
                  f"{sum(times) / len(times) * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
