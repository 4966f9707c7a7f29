"""Bog bots: chips won per deal by each level against rule-following random players, and
the time a decision takes. Prints figures, asserts nothing.

    python bench/bog_bots.py [--deals 2000] [--seats 4 8] [--levels easy medium hard]
    python bench/bog_bots.py --pyodide [--deals 40]     # decision times in Pyodide under Node

One bot seat (a different seat each game) plays against random players, who pick
uniformly among the legal actions (stakes included); a game ends as the rules say (30
chips each, all but one broke) or when the bot goes broke, and the next one starts. A
deal's result is the bot's net chips in it (``last_deal["net"]``); the random seats' mean
net is printed beside it. Decision times are CPU time (``cpu_seconds``: the machine is
shared, so the wall clock would measure the load), counting only the calls with a choice (a forced card or a
lone legal action costs nothing), per level, in milliseconds.

``--pyodide`` runs the timing part (same code, same seeds) in the pinned Pyodide under
Node (the copy ``build.py`` unpacks into ``.cache/``; run ``python build.py`` once first).
"""

import argparse
import json
import math
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pyengine.core.rng import Rng, derive_seed  # noqa: E402
from pyengine.games.bog.bot import BOTS  # noqa: E402
from pyengine.games.bog.rules import Bog  # noqa: E402

GAME = Bog()


def cpu_seconds() -> float:
    """CPU time of this process: under Pyodide, Node's own count (``process.cpuUsage``),
    since the interpreter's clocks there are the wall clock."""
    if sys.platform == "emscripten":
        from js import process  # the Node process hosting Pyodide

        usage = process.cpuUsage()
        return (usage.user + usage.system) / 1e6
    return time.process_time()


def play_deals(level: str, seats: int, deals: int, seed: int = 0) -> dict:
    """``deals`` deals of one ``level`` bot against random players; nets and decision times."""
    bot = BOTS[level]
    nets, others, times = [], [], []
    game_number = 0
    while len(nets) < deals:
        me = game_number % seats
        state = GAME.new_state({}, seats, derive_seed("bog-bench", seed, seats, game_number))
        chooser = Rng(derive_seed("random players", seed, seats, game_number))
        finished, ply = 0, 0
        while not GAME.is_over(state) and state["active"][me] and len(nets) < deals:
            seat = GAME.to_act(state)[0]
            if seat == me:
                view = GAME.view(state, seat)
                started = cpu_seconds()
                action = bot(view, derive_seed(game_number, ply))
                if len(view["legal"]) > 1:
                    times.append(cpu_seconds() - started)
            else:
                actions = GAME.legal_actions(state, seat)
                action = actions[chooser.below(len(actions))]
            in_deal = [s for s in range(seats) if state["active"][s] and s != me]
            state = GAME.apply(state, seat, action)
            ply += 1
            last = state["last_deal"]
            if last is not None and last["deal"] > finished:
                finished = last["deal"]
                nets.append(last["net"][me])
                others.append(sum(last["net"][s] for s in in_deal) / len(in_deal))
        game_number += 1
    return {"nets": nets, "others": others, "times": times, "games": game_number}


def percentile(values: list, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def timing_line(level: str, times: list) -> str:
    ms = [1000 * t for t in times]
    return (f"{level:6} decisions {len(ms):5d}: p50 {percentile(ms, 0.5):6.1f} ms  "
            f"p95 {percentile(ms, 0.95):6.1f} ms  max {max(ms, default=float('nan')):6.1f} ms")


def report(level: str, seats: int, result: dict) -> None:
    nets = result["nets"]
    mean = sum(nets) / len(nets)
    spread = math.sqrt(sum((x - mean) ** 2 for x in nets) / max(1, len(nets) - 1))
    margin = 1.96 * spread / math.sqrt(len(nets))
    baseline = sum(result["others"]) / len(result["others"])
    print(f"{seats} seats, {level:6}: {mean:+6.2f} ± {margin:4.2f} chips per deal over {len(nets)} deals "
          f"({result['games']} games); random seats {baseline:+6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seats", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--levels", nargs="+", default=list(BOTS))
    parser.add_argument("--pyodide", action="store_true", help="decision times in Pyodide under Node")
    parser.add_argument("--timing-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pyodide:
        run_in_pyodide(args)
        return
    times = {level: [] for level in args.levels}
    for seats in args.seats:
        for level in args.levels:
            result = play_deals(level, seats, args.deals)
            times[level] += result["times"]
            if not args.timing_only:
                report(level, seats, result)
    where = "Pyodide" if sys.platform == "emscripten" else f"CPython {sys.version.split()[0]}"
    print(f"decision time ({where}, seats {' and '.join(map(str, args.seats))}):")
    for level in args.levels:
        print("  " + timing_line(level, times[level]))


NODE_SCRIPT = """
import { pathToFileURL } from "node:url";
const [runtime, repo, argv] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(runtime + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: runtime + "/" });
pyodide.FS.mkdirTree("/repo");
pyodide.mountNodeFS("/repo", repo);
pyodide.globals.set("bench_argv", JSON.parse(argv));
pyodide.runPython(`
import runpy, sys
sys.argv = ["bench/bog_bots.py", *bench_argv]
sys.path.insert(0, "/repo")
runpy.run_path("/repo/bench/bog_bots.py", run_name="__main__")
`);
"""


def run_in_pyodide(args) -> None:
    runtimes = sorted((ROOT / ".cache").glob("pyodide-node-*/pyodide.mjs"))
    if not runtimes:
        sys.exit("no Pyodide for Node in .cache/: run `python build.py` once")
    argv = ["--timing-only", "--deals", str(args.deals), "--seats", *map(str, args.seats), "--levels", *args.levels]
    subprocess.run(["node", "--input-type=module", "-e", NODE_SCRIPT, str(runtimes[-1].parent), str(ROOT),
                    json.dumps(argv)], check=True)


if __name__ == "__main__":
    main()
