"""Lasca move-generation speed: perft 1..N from the start (or a given position) in CPython.

Prints the count, the CPU time and leaf nodes per second for each depth; the counts for
depths 1-6 must read 6, 6, 18, 54, 116, 324 (the digest). CPU time, not wall time, so a
busy machine skews the figures less. Usage: ``python bench/lasca_perft.py --depth 12``.
"""

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from pyengine.games.lasca import START, parse, perft  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=12, help="deepest perft to run")
    parser.add_argument("--lfen", default=START, help="position (default: the start)")
    args = parser.parse_args()
    position = parse(args.lfen)
    total_nodes, total_time = 0, 0.0
    print(f"{'depth':>5} {'nodes':>12} {'seconds':>9} {'nodes/s':>10}")
    for depth in range(1, args.depth + 1):
        started = time.process_time()
        nodes = perft(position, depth)
        elapsed = time.process_time() - started
        total_nodes += nodes
        total_time += elapsed
        rate = f"{nodes / elapsed:10.0f}" if elapsed > 0.001 else f"{'-':>10}"
        print(f"{depth:>5} {nodes:>12} {elapsed:>9.3f} {rate}", flush=True)
    print(f"total {total_nodes} leaves in {total_time:.2f} s CPU: "
          f"{total_nodes / max(total_time, 1e-9):.0f} nodes/s")


if __name__ == "__main__":
    main()
