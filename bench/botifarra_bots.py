"""Botifarra bots: strength by pairing, and decision time per level (CPython and Pyodide).

    python bench/botifarra_bots.py [--hands 1000] [--jobs 1] [--pairings hard-random,...] [--duplicate] [--log games.jsonl]
    python bench/botifarra_bots.py --report games.jsonl [more.jsonl ...]
    python bench/botifarra_bots.py --pyodide [--timing-hands 3]
    python bench/botifarra_bots.py --variant '{"exact_tricks": 5}' --phases play [--deals 100] [--log f.jsonl]

Each pairing plays whole games to 101 (the default table: four players in partnerships,
obligada) until at least ``--hands`` hands were dealt; the pair named first sits at seats
0 and 2 in even games and 1 and 3 in odd ones. ``random`` is a rule-following random pair:
any legal card, any trump choice, and it never doubles (a random contro would only
inflate the variance). Printed: games won by the first pair (with a 95 % interval), hands,
and each level's decision time (p50, p95, max) over every decision it made, in CPU time
of the process (the machine is shared: wall time would count the other programs' turns).
``--log`` appends each finished game (pairing, won, hands, decision times) as a JSON line,
so a long run can be split over processes, and read back, even unfinished, by ``--report``.

``--duplicate`` plays each game twice, the same deals (the same seed: the shuffles do not
depend on the play) with the pairs' seats swapped, so the cards' luck largely cancels; the
second interval printed then takes the pairs of games as the units (each pair scores 0,
½ or 1 for the first pair). Every run ends with the levels' order as the pairings show it
(hard > medium > easy, each step a pairing whose interval lies above 50 %).

``--variant`` measures a change to hard (settings over ``LEVELS["hard"]``, as JSON) one
decision at a time, which whole games are far too noisy to do: in the first hand of
``--deals`` deals (hard against medium, the pairs' seats alternating), at each of hard's
decisions in ``--phases`` the variant is asked too; where it chooses otherwise, the hand is
played out from each of the two actions ``--continuations`` times (the same bots and seeds
for both), and the difference in the hard side's net score (its gain minus the other
side's) is the variant's gain on that decision. Printed: decisions, how many differed, the
mean gain per differing decision with a 95 % margin, and the variant's decision CPU time.

``--pyodide`` plays ``--timing-hands`` hands with one bot of each level at the table in
the pinned Pyodide under Node (the browser worker's Python, unpacked by ``build.py`` into
``.cache/pyodide-node-*``) and prints the same time figures, measured there in the Node
process's CPU time.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyengine.core.rng import Rng, derive_seed  # noqa: E402
from pyengine.games.botifarra import bot as bot_module  # noqa: E402
from pyengine.games.botifarra.bot import BOTS  # noqa: E402
from pyengine.games.botifarra.rules import Botifarra  # noqa: E402

GAME = Botifarra()
PAIRINGS = ("hard-random", "hard-medium", "medium-easy")
HEADER = f"{'level':>7} {'moves':>7} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9}"


def random_bot(view: dict, seed: int) -> dict:
    """Any legal action, except that it never doubles."""
    actions = [a for a in view["legal_actions"] if a["type"] != "double"] or view["legal_actions"]
    return Rng(seed).choice(actions)


def bot(level: str):
    return random_bot if level == "random" else BOTS[level]


def play_game(first: str, second: str, seed: int, max_hands: int = 0, shift: int = None) -> dict:
    """One game: ``first`` at seats 0, 2 (``shift`` 0; by default when the seed is even) or
    1, 3; its result and the decision times of each level. ``max_hands`` (0: none) stops it
    early (timing runs)."""
    shift = seed % 2 if shift is None else shift
    levels = [first if (seat + shift) % 2 == 0 else second for seat in range(4)]
    state = GAME.new_state({}, 4, seed)
    times = {level: [] for level in set(levels)}
    move = 0
    while not GAME.is_over(state) and not (max_hands and state["hand_number"] > max_hands):
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        started = time.process_time()
        action = bot(levels[seat])(view, derive_seed(seed, move, seat))
        times[levels[seat]].append(time.process_time() - started)
        state = GAME.apply(state, seat, action)
        move += 1
    result = GAME.result(state)
    won = result is not None and result["winners"][0] % 2 == shift
    hands = state["hand_number"] if result else state["hand_number"] - 1
    return {"won": won, "hands": hands, "times": times, "seed": seed}


def hand_gain(state: dict, levels: list, seed: int, move: int) -> int:
    """The net score (gain minus the other side's) of seats 0 and 2 in the hand of
    ``state``, played out by ``levels`` from there."""
    number = state["hand_number"]
    while state["hand_number"] == number and not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, bot(levels[seat])(GAME.view(state, seat), derive_seed(seed, move, seat)))
        move += 1
    gains = state["last_hand"]["gains"]
    return gains[0] - gains[1]


def variant_decisions(variant: dict, phases: set, deal: int, continuations: int) -> list:
    """Hard's decisions in ``phases`` of one deal's first hand, each compared with the
    variant's: ``{"phase", "same", "cpu", "gain"}`` (``gain``: the variant's mean gain in
    the hard side's net score over the continuations, 0 when it chose the same)."""
    bot_module.LEVELS["variant"] = {**bot_module.LEVELS["hard"], **variant}
    seed = derive_seed(0, "variant", deal)
    hard = deal % 2
    levels = ["hard" if seat % 2 == hard else "medium" for seat in range(4)]
    state = GAME.new_state({}, 4, seed)
    move, records = 0, []
    while state["hand_number"] == 1 and not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        action = bot(levels[seat])(view, derive_seed(seed, move, seat))
        if levels[seat] == "hard" and view["phase"] in phases and len(view["legal_actions"]) > 1:
            started = time.process_time()
            other = bot_module.choose_action(view, "variant", derive_seed(seed, move, seat))
            record = {"phase": view["phase"], "same": other == action, "cpu": time.process_time() - started,
                      "gain": 0.0}
            if other != action:
                sign = 1 if hard == 0 else -1
                record["gain"] = sign * sum(
                    hand_gain(GAME.apply(state, seat, other), levels, seed + k, move + 1)
                    - hand_gain(GAME.apply(state, seat, action), levels, seed + k, move + 1)
                    for k in range(1, continuations + 1)) / continuations
            records.append(record)
        state = GAME.apply(state, seat, action)
        move += 1
    return records


def variant_line(records: list) -> str:
    differing = [record["gain"] for record in records if not record["same"]]
    count = len(differing)
    mean = sum(differing) / count if count else 0.0
    spread = math.sqrt(sum((x - mean) ** 2 for x in differing) / (count - 1) / count) if count > 1 else 0.0
    _, p95, top = percentiles([record["cpu"] for record in records])
    return (f"{len(records)} decisions, {count} chosen otherwise: gain {mean:+.2f} ± {1.96 * spread:.2f} points "
            f"per differing decision ({sum(differing) / max(1, len(records)):+.2f} per decision); "
            f"variant CPU p95 {p95 * 1e3:.0f} ms, max {top * 1e3:.0f} ms")


def _game_job(job):
    return play_game(*job)


def run_pairing(name: str, hands: int, jobs: int, seed: int, log=None, duplicate=False) -> dict:
    """Games until ``hands`` hands were played; games are handed out in batches (in
    duplicate, each seed twice, the seats swapped). Each game is appended to ``log`` (an
    open text file), if given, as it finishes."""
    first, second = name.split("-")
    tally = Tally(name)
    batch = max(2, jobs) if duplicate else max(1, jobs)
    with Pool(jobs) if jobs > 1 else _Serial() as pool:
        while tally.hands < hands:
            if duplicate:
                seeds = [derive_seed(seed, name, "duplicate", (tally.games + i) // 2) for i in range(batch)]
                games = [(first, second, s, 0, i % 2) for i, s in enumerate(seeds)]
            else:
                games = [(first, second, derive_seed(seed, name, tally.games + i)) for i in range(batch)]
            for outcome in pool.map(_game_job, games):
                tally.add(outcome)
                if log is not None:
                    log.write(json.dumps({"pairing": name, **outcome}) + "\n")
                    log.flush()
    return tally


class Tally:
    """One pairing's games, wins, hands and each level's decision times."""

    def __init__(self, pairing: str):
        self.pairing = pairing
        self.games = self.hands = self.wins = 0
        self.times = {}
        self.by_seed = {}  # seed -> wins of the first pair in its games (two in duplicate)

    def add(self, outcome: dict) -> None:
        self.games += 1
        self.hands += outcome["hands"]
        self.wins += outcome["won"]
        self.by_seed.setdefault(outcome.get("seed"), []).append(outcome["won"])
        for level, spent in outcome["times"].items():
            self.times.setdefault(level, []).extend(spent)

    def pair_interval(self):
        """``(pairs, share, low, high)`` over the seeds played twice (duplicate): the mean
        of each pair's share of wins with a 95 % normal margin; ``None`` without pairs."""
        shares = [sum(won) / 2 for seed, won in self.by_seed.items() if seed is not None and len(won) == 2]
        if len(shares) < 2:
            return None
        mean = sum(shares) / len(shares)
        spread = math.sqrt(sum((x - mean) ** 2 for x in shares) / (len(shares) - 1) / len(shares))
        return len(shares), mean, mean - 1.96 * spread, mean + 1.96 * spread


def read_logs(paths: list) -> dict:
    """``{pairing: Tally}`` from ``--log`` files (a line cut short by a stopped run is skipped)."""
    tallies = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            try:
                outcome = json.loads(line)
            except ValueError:
                continue
            pairing = outcome.pop("pairing")
            tallies.setdefault(pairing, Tally(pairing)).add(outcome)
    return tallies


class _Serial:
    """``Pool``'s ``map`` in this process (one job)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def map(self, function, items):
        return [function(item) for item in items]


def percentiles(samples: list) -> tuple:
    ordered = sorted(samples)
    if not ordered:
        return (0.0, 0.0, 0.0)

    def at(q):
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return at(0.5), at(0.95), ordered[-1]


def time_line(level: str, samples: list) -> str:
    p50, p95, top = percentiles(samples)
    return f"{level:>7} {len(samples):>7} {p50 * 1e3:9.1f} {p95 * 1e3:9.1f} {top * 1e3:9.1f}"


def wilson(wins: int, games: int) -> tuple:
    """95 % Wilson interval of a proportion."""
    if not games:
        return 0.0, 0.0
    z, p = 1.96, wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - spread, centre + spread


def timing_run(hands: int, seed: int, clock=time.process_time) -> dict:
    """Decision times of one bot of each level (easy, medium, hard, and hard again) playing
    ``hands`` hands of one table: the figures the Pyodide run prints. ``clock`` reads CPU
    seconds (under Node: the process's CPU usage, as Pyodide's own clocks read wall time)."""
    levels = ["easy", "medium", "hard", "hard"]
    times = {level: [] for level in levels}
    state = GAME.new_state({}, 4, seed)
    move = 0
    while not GAME.is_over(state) and state["hand_number"] <= hands:
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        started = clock()
        action = BOTS[levels[seat]](view, derive_seed(seed, move, seat))
        times[levels[seat]].append(clock() - started)
        state = GAME.apply(state, seat, action)
        move += 1
    return times


_NODE_SCRIPT = """
import { pathToFileURL } from "node:url";
const [runtimeDir, root, hands] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(runtimeDir + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: runtimeDir + "/" });
pyodide.FS.mkdirTree("/src");
pyodide.mountNodeFS("/src", root);
const out = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/src")
sys.argv = ["botifarra_bots"]
import importlib.util
spec = importlib.util.spec_from_file_location("bench_botifarra", "/src/bench/botifarra_bots.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
from js import process

def cpu_seconds():
    usage = process.cpuUsage()
    return (usage.user + usage.system) / 1e6

json.dumps(bench.timing_run(${Number(hands)}, 2026, cpu_seconds))
`);
console.log(out);
"""


def pyodide_times(hands: int) -> dict:
    runtimes = sorted((ROOT / ".cache").glob("pyodide-node-*"))
    if not runtimes:
        sys.exit("no .cache/pyodide-node-*: run `python build.py` once (it unpacks Pyodide for Node)")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "time_bots.mjs"
        script.write_text(_NODE_SCRIPT, encoding="utf-8")
        run = subprocess.run(["node", str(script), str(runtimes[-1]), str(ROOT), str(hands)],
                             capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"Pyodide run failed:\n{run.stderr[-3000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per pairing (default 1000)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (the machine is shared: keep it small)")
    parser.add_argument("--pairings", default=",".join(PAIRINGS), help="comma-separated, e.g. hard-random")
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--pyodide", action="store_true", help="time each level in Pyodide under Node instead")
    parser.add_argument("--timing-hands", type=int, default=3)
    parser.add_argument("--log", help="append each finished game to this file (JSON lines)")
    parser.add_argument("--duplicate", action="store_true", help="each deal sequence twice, the pairs swapped")
    parser.add_argument("--report", nargs="+", metavar="LOG", help="print the figures of --log files instead")
    parser.add_argument("--variant", help="hard's settings to compare decision by decision (JSON)")
    parser.add_argument("--phases", default="choose,double,play", help="the decisions --variant compares")
    parser.add_argument("--deals", type=int, default=100, help="deals --variant plays")
    parser.add_argument("--first-deal", type=int, default=0, help="the first deal's number (split a run)")
    parser.add_argument("--continuations", type=int, default=4, help="play-outs of each differing decision")
    args = parser.parse_args()
    if args.variant:
        records = []
        log = open(args.log, "a", encoding="utf-8") if args.log else None
        for deal in range(args.first_deal, args.first_deal + args.deals):
            for record in variant_decisions(json.loads(args.variant), set(args.phases.split(",")), deal,
                                            args.continuations):
                records.append(record)
                if log is not None:
                    log.write(json.dumps({"variant": args.variant, "deal": deal, **record}) + "\n")
                    log.flush()
        print(f"variant {args.variant} against hard, phases {args.phases}, {args.deals} deals: {variant_line(records)}")
        return
    if args.pyodide:
        started = time.perf_counter()
        times = pyodide_times(args.timing_hands)
        print(f"Pyodide under Node, {args.timing_hands} hands, {time.perf_counter() - started:.0f} s")
        print(HEADER)
        for level in ("easy", "medium", "hard"):
            print(time_line(level, times[level]))
        return
    if args.report:
        tallies = read_logs(args.report)
        for tally in tallies.values():
            print(tally_line(tally))
        print(order_line(tallies.values()))
        print_times(tallies.values(), "logged games")
        return
    tallies = []
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    try:
        for name in args.pairings.split(","):
            started = time.perf_counter()
            tallies.append(run_pairing(name, args.hands, args.jobs, args.seed, log, args.duplicate))
            print(f"{tally_line(tallies[-1])}, {time.perf_counter() - started:.0f} s", flush=True)
    finally:
        if log is not None:
            log.close()
    print(order_line(tallies))
    print_times(tallies, f"pid {os.getpid()}")


def tally_line(tally: Tally) -> str:
    low, high = wilson(tally.wins, tally.games)
    share = tally.wins / tally.games if tally.games else 0.0
    line = (f"{tally.pairing}: first pair won {tally.wins}/{tally.games} games = {share:.1%} "
            f"(95 % {low:.1%}-{high:.1%}), {tally.hands} hands")
    pairs = tally.pair_interval()
    if pairs:
        count, mean, low, high = pairs
        line += f"; {count} duplicate pairs: {mean:.1%} (95 % {low:.1%}-{high:.1%})"
    return line


#: The levels from strongest to weakest, each step of the order one pairing.
LEVEL_ORDER = ("hard", "medium", "easy")


def order_line(tallies) -> str:
    """Whether the pairings run show each level above the next one: a step holds when the
    stronger pair's games won have a 95 % interval above 50 %."""
    by_pairing = {tally.pairing: tally for tally in tallies}
    steps = []
    for stronger, weaker in zip(LEVEL_ORDER, LEVEL_ORDER[1:]):
        tally = by_pairing.get(f"{stronger}-{weaker}")
        if tally is None or not tally.games:
            steps.append(f"{stronger} > {weaker} not run")
            continue
        low, _ = wilson(tally.wins, tally.games)
        steps.append(f"{stronger} > {weaker} {'holds' if low > 0.5 else 'NOT SHOWN'} (low end {low:.1%})")
    return "level order: " + "; ".join(steps)


def print_times(tallies, source: str) -> None:
    all_times = {}
    for tally in tallies:
        for level, spent in tally.times.items():
            if level != "random":
                all_times.setdefault(level, []).extend(spent)
    print(f"decision time in CPython {sys.version.split()[0]} ({source}), every decision of the runs above")
    print(HEADER)
    for level in ("easy", "medium", "hard"):
        if level in all_times:
            print(time_line(level, all_times[level]))


if __name__ == "__main__":
    main()
