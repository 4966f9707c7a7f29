"""Command line: ``python -m pyengine.games.lasca perft N [LFEN] [--divide]``,
``... moves LFEN`` and ``... play LFEN MOVE...`` (prints the resulting position).

For bug reports and cross-checks with other engines: every input and output is in the
digest's notation. Errors go to stderr with exit status 2.
"""

import argparse
import sys

from .rules import START, legal_moves, parse, perft, play, to_lfen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pyengine.games.lasca")
    commands = parser.add_subparsers(dest="command", required=True)
    p_perft = commands.add_parser("perft", help="count move sequences of N turns")
    p_perft.add_argument("depth", type=int)
    p_perft.add_argument("lfen", nargs="?", default=START)
    p_perft.add_argument("--divide", action="store_true", help="one count per first move")
    p_moves = commands.add_parser("moves", help="list the legal moves")
    p_moves.add_argument("lfen")
    p_play = commands.add_parser("play", help="play moves, print the position")
    p_play.add_argument("lfen")
    p_play.add_argument("moves", nargs="*")
    args = parser.parse_args(argv)
    try:
        position = parse(args.lfen)
        if args.command == "perft":
            if args.depth < 0:
                raise ValueError("the depth must not be negative")
            if args.divide and args.depth > 0:
                for move in legal_moves(position):
                    print(f"{move} {perft(play(position, move), args.depth - 1)}")
            print(perft(position, args.depth))
        elif args.command == "moves":
            for move in legal_moves(position):
                print(move)
        else:
            for move in args.moves:
                position = play(position, move)
            print(to_lfen(position))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
