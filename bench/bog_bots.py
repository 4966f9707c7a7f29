"""Bog bots: chips won per deal by each level against rule-following random players, and
the time a decision takes. Prints figures, asserts nothing.

    python bench/bog_bots.py [--deals 2000] [--seats 4 8] [--levels easy medium hard]
    python bench/bog_bots.py --pyodide [--deals 40]     # decision times in Pyodide under Node
    python bench/bog_bots.py --mixed hard medium [--deals 1000] [--seats 4 8]
    python bench/bog_bots.py --duplicate hard medium [--deals 1000] [--seats 4 8]
    python bench/bog_bots.py --decisions hard medium [--games 30] [--seats 4 8]

One bot seat (a different seat each game) plays against random players, who pick
uniformly among the legal actions (stakes included); a game ends as the rules say (30
chips each, all but one broke) or when the bot goes broke, and the next one starts. A
deal's result is the bot's net chips in it (``last_deal["net"]``); the random seats' mean
net is printed beside it. Decision times are CPU time (``cpu_seconds``: the machine is
shared, so the wall clock would measure the load), counting only the calls with a choice (a forced card or a
lone legal action costs nothing), per level, in milliseconds.

``--mixed A B``: levels A and B at the same table, alternate seats (2 + 2 at 4 seats, 4 + 4
at 8), every seat a bot, games in duplicate pairs: the second game of a pair deals the same
cards (same seed; the shuffles do not depend on the play while as many players are left)
with the levels' seats swapped, so the cards' luck largely cancels. A game stops when the
rules end it or after ``MIXED_GAME_DEALS`` deals. Per deal, the mean net of A's seats in it minus the mean
net of B's: its mean says which level earns more; its 95 % margin takes the pairs of
games as the units (``pair_margin``). Progress goes to stderr every ten pairs.

``--duplicate A B``: the same, but each deal is its own duplicate: from the state at the
deal's start (same chips, boxes and cards) the deal is played twice, the levels' seats
swapped the second time, every bot drawing the same seeds in both (common random numbers),
so that where the two levels decide alike nothing differs. The game goes on from the first
playing. Per level, its mean net per seat over both playings of a deal (each seat played
once by each level, so the seats' luck cancels), with a 95 % margin taking the games as the
units (``pair_margin``); and the difference of the two. A game stops when the rules end it
or after ``DUPLICATE_GAME_DEALS`` deals.

``--decisions A B``: where A's decisions differ from B's, and what each difference is
worth. Tables of B bots, one probe seat (a different seat each game); at each of the
probe's decisions with a choice, A's action is asked too, and where it differs the deal is
finished both ways (the probe's action A's or B's, then every seat B, the same seeds) and
the probe's net difference recorded, by kind of decision (the exchange, bog or out, the
lead of the run, a free card in the run). Games of at most ``DUPLICATE_GAME_DEALS`` deals,
played on with B's actions.

``--pyodide`` runs the timing part (same code, same seeds) in the pinned Pyodide under
Node (the copy ``build.py`` unpacks into ``.cache/``; run ``python build.py`` once first).
"""

import argparse
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import in_pyodide  # noqa: E402
from bench.in_pyodide import cpu_seconds  # noqa: E402
from pyengine.core.rng import Rng, derive_seed  # noqa: E402
from pyengine.games.bog.bot import BOTS  # noqa: E402
from pyengine.games.bog.rules import Bog  # noqa: E402

GAME = Bog()


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


MIXED_GAME_DEALS = 6


def timed_action(view: dict, level: str, seed: int, times: dict):
    """``level``'s bot's action, its CPU time added to ``times[level]`` when it had a choice."""
    started = cpu_seconds()
    action = BOTS[level](view, seed)
    if len(view["legal"]) > 1:
        times[level].append(cpu_seconds() - started)
    return action


def play_mixed(levels: tuple, seats: int, deals: int, seed: int = 0) -> dict:
    """At least ``deals`` deals (whole pairs of games) at tables of ``levels`` taking
    alternate seats; nets per level and deal."""
    nets = {level: [] for level in levels}
    differences, times = [], {level: [] for level in levels}
    by_pair = []  # per pair of games: (sum of the differences, deals)
    game_number = 0
    while len(differences) < deals or game_number % len(levels):
        if game_number % len(levels) == 0:
            by_pair.append([0.0, 0])
        seat_level = [levels[(s + game_number) % len(levels)] for s in range(seats)]
        pair = game_number // len(levels)
        state = GAME.new_state({}, seats, derive_seed("bog-mixed", seed, seats, pair))
        finished, ply = 0, 0
        while not GAME.is_over(state) and finished < MIXED_GAME_DEALS:
            seat = GAME.to_act(state)[0]
            action = timed_action(GAME.view(state, seat), seat_level[seat], derive_seed(pair, ply), times)
            in_deal = [s for s in range(seats) if state["active"][s]]
            state = GAME.apply(state, seat, action)
            ply += 1
            last = state["last_deal"]
            if last is not None and last["deal"] > finished:
                finished = last["deal"]
                means = {}
                for level in levels:
                    mine = [last["net"][s] for s in in_deal if seat_level[s] == level]
                    nets[level] += mine
                    means[level] = sum(mine) / len(mine) if mine else None
                if None not in means.values():
                    differences.append(means[levels[0]] - means[levels[1]])
                    by_pair[-1][0] += differences[-1]
                    by_pair[-1][1] += 1
        game_number += 1
        if game_number % (10 * len(levels)) == 0:  # a long run is read as it goes
            print("  after %d deals: %+.2f ± %.2f" % (len(differences), *pair_margin(by_pair)),
                  file=sys.stderr, flush=True)
    return {"nets": nets, "differences": differences, "by_pair": by_pair, "times": times, "games": game_number}


DUPLICATE_GAME_DEALS = 10


def play_deal(state: dict, seat_level: list, key) -> tuple:
    """The deal under way in ``state`` played to its end by ``seat_level``'s bots (the bot's
    seed from ``key`` and the ply); the state after it and the decision times per level."""
    deal, ply, times = state["deal"], 0, {level: [] for level in seat_level}
    while not GAME.is_over(state) and state["deal"] == deal:
        seat = GAME.to_act(state)[0]
        action = timed_action(GAME.view(state, seat), seat_level[seat], derive_seed(key, ply), times)
        state = GAME.apply(state, seat, action)
        ply += 1
    return state, times


def play_duplicate(levels: tuple, seats: int, deals: int, seed: int = 0) -> dict:
    """At least ``deals`` duplicate deals (whole games) at tables of ``levels`` taking
    alternate seats, each deal played twice from the same start with the seats swapped;
    per game, the sums of each level's mean net per deal (``by_game``)."""
    first, second = levels
    by_game, times = [], {level: [] for level in levels}
    played = game_number = 0
    while played < deals:
        state = GAME.new_state({}, seats, derive_seed("bog-duplicate", seed, seats, game_number))
        totals = {first: 0.0, second: 0.0, "difference": 0.0}
        count = 0
        while not GAME.is_over(state) and state["deal"] <= DUPLICATE_GAME_DEALS:
            key = derive_seed(seed, game_number, state["deal"])
            nets = {level: [] for level in levels}
            after = None
            for swap in (0, 1):
                seat_level = [levels[(s + swap) % 2] for s in range(seats)]
                in_deal = [s for s in range(seats) if state["active"][s]]
                end, spent = play_deal(state, seat_level, key)
                for level in levels:
                    times[level] += spent[level]
                    nets[level] += [end["last_deal"]["net"][s] for s in in_deal if seat_level[s] == level]
                after = after or end
            means = {level: sum(nets[level]) / len(nets[level]) for level in levels}
            totals[first] += means[first]
            totals[second] += means[second]
            totals["difference"] += means[first] - means[second]
            count += 1
            state = after
        by_game.append((totals, count))
        played += count
        game_number += 1
        if game_number % 5 == 0:  # a long run is read as it goes
            print(f"  after {played} deals: " + "; ".join(duplicate_figures(levels, by_game)), file=sys.stderr, flush=True)
    return {"by_game": by_game, "times": times, "games": game_number}


def duplicate_figures(levels: tuple, by_game: list) -> list:
    """Each level's mean net per seat and deal, and their difference, with 95 % margins."""
    figures = []
    for key in (*levels, "difference"):
        mean, margin = pair_margin([(totals[key], n) for totals, n in by_game])
        figures.append(f"{' − '.join(levels) if key == 'difference' else key} {mean:+.2f} ± {margin:.2f}")
    return figures


def decision_kind(view: dict) -> str:
    if view["phase"] != "run":
        return view["phase"]
    return "free card" if view["run"]["played"] else "lead"


def play_decisions(levels: tuple, seats: int, games: int, seed: int = 0) -> dict:
    """Per kind of decision: how many the probe took with a choice, and the net difference
    (A's action against B's) of each that differed."""
    tested, base = levels
    taken, differences = {}, {}
    for game_number in range(games):
        state = GAME.new_state({}, seats, derive_seed("bog-decisions", seed, seats, game_number))
        probe, ply = game_number % seats, 0
        while not GAME.is_over(state) and state["deal"] <= DUPLICATE_GAME_DEALS:
            seat = GAME.to_act(state)[0]
            view = GAME.view(state, seat)
            key = derive_seed(seed, game_number, state["deal"], ply)
            action = BOTS[base](view, derive_seed(key, 0))
            if seat == probe and len(view["legal"]) > 1:
                kind = decision_kind(view)
                taken[kind] = taken.get(kind, 0) + 1
                other = BOTS[tested](view, derive_seed(key, 0))
                if other != action:
                    nets = [play_deal(GAME.apply(state, seat, a), [base] * seats, key)[0]["last_deal"]["net"][probe]
                            for a in (other, action)]
                    differences.setdefault(kind, []).append(nets[0] - nets[1])
            state = GAME.apply(state, seat, action)
            ply += 1
    return {"taken": taken, "differences": differences}


def report_decisions(levels: tuple, seats: int, games: int, result: dict) -> None:
    tested, base = levels
    print(f"{seats} seats, {tested}'s decisions in {base}'s seat, {games} games:")
    for kind, count in sorted(result["taken"].items()):
        values = result["differences"].get(kind, [])
        worth = "%+.2f ± %.2f chips each" % mean_margin(values) if len(values) > 1 else "-"
        print(f"  {kind:10}: {len(values):4d} of {count:4d} differ; {tested} − {base}: {worth}, {sum(values):+.0f} in all")


def report_duplicate(levels: tuple, seats: int, result: dict) -> None:
    first, second = levels
    by_game = result["by_game"]
    print(f"{seats} seats, {first} vs {second} at the same table, {sum(n for _, n in by_game)} duplicate deals "
          f"({result['games']} games), chips per seat and deal:")
    for figure in duplicate_figures(levels, by_game):
        print("  " + figure)
    for level in levels:
        print("  " + timing_line(level, result["times"][level]))


def pair_margin(by_pair: list) -> tuple:
    """Mean difference per deal and its 95 % margin with the pairs of games as the units
    (a ratio estimator): the two games of a pair share their cards, so their deals are not
    independent, and this margin counts what the duplicate deal cancels."""
    deals = sum(n for _, n in by_pair)
    mean = sum(total for total, _ in by_pair) / deals
    pairs = len(by_pair)
    spread = sum((total - mean * n) ** 2 for total, n in by_pair) / max(1, pairs - 1)
    return mean, 1.96 * math.sqrt(spread * pairs) / deals


def mean_margin(values: list) -> tuple:
    """Mean and 95 % margin (normal approximation)."""
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((x - mean) ** 2 for x in values) / max(1, len(values) - 1))
    return mean, 1.96 * spread / math.sqrt(len(values))


def report_mixed(levels: tuple, seats: int, result: dict) -> None:
    first, second = levels
    print(f"{seats} seats, {first} vs {second} at the same table, {len(result['differences'])} deals "
          f"({result['games']} games):")
    for level in levels:
        mean, margin = mean_margin(result["nets"][level])
        print(f"  {level:6}: {mean:+6.2f} ± {margin:4.2f} chips per seat and deal ({len(result['nets'][level])})")
    mean, margin = pair_margin(result["by_pair"])
    print(f"  {first} − {second}, per deal: {mean:+6.2f} ± {margin:4.2f} chips "
          f"({len(result['by_pair'])} pairs of games; ± {mean_margin(result['differences'])[1]:4.2f} "
          f"if the deals were independent)", flush=True)
    for level in levels:
        print("  " + timing_line(level, result["times"][level]))


def percentile(values: list, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def timing_line(level: str, times: list) -> str:
    ms = [1000 * t for t in times]
    return (f"{level:6} decisions {len(ms):5d}: p50 {percentile(ms, 0.5):6.1f} ms  "
            f"p95 {percentile(ms, 0.95):6.1f} ms  max {max(ms, default=float('nan')):6.1f} ms")


def report(level: str, seats: int, result: dict) -> None:
    nets = result["nets"]
    mean, margin = mean_margin(nets)
    baseline = sum(result["others"]) / len(result["others"])
    print(f"{seats} seats, {level:6}: {mean:+6.2f} ± {margin:4.2f} chips per deal over {len(nets)} deals "
          f"({result['games']} games); random seats {baseline:+6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seats", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--levels", nargs="+", default=list(BOTS))
    parser.add_argument("--mixed", nargs=2, metavar=("LEVEL", "OTHER"), help="two levels at the same table")
    parser.add_argument("--duplicate", nargs=2, metavar=("LEVEL", "OTHER"),
                        help="two levels at the same table, each deal played twice with the seats swapped")
    parser.add_argument("--decisions", nargs=2, metavar=("LEVEL", "OTHER"),
                        help="the worth of LEVEL's decisions where they differ from OTHER's")
    parser.add_argument("--games", type=int, default=30, help="games for --decisions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pyodide", action="store_true", help="decision times in Pyodide under Node")
    parser.add_argument("--timing-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pyodide:
        run_in_pyodide(args)
        return
    if args.decisions:
        for seats in args.seats:
            levels = tuple(args.decisions)
            report_decisions(levels, seats, args.games, play_decisions(levels, seats, args.games, args.seed))
        return
    if args.duplicate:
        for seats in args.seats:
            levels = tuple(args.duplicate)
            report_duplicate(levels, seats, play_duplicate(levels, seats, args.deals, args.seed))
        return
    if args.mixed:
        for seats in args.seats:
            report_mixed(tuple(args.mixed), seats, play_mixed(tuple(args.mixed), seats, args.deals, args.seed))
        return
    times = {level: [] for level in args.levels}
    for seats in args.seats:
        for level in args.levels:
            result = play_deals(level, seats, args.deals, args.seed)
            times[level] += result["times"]
            if not args.timing_only:
                report(level, seats, result)
    where = "Pyodide" if sys.platform == "emscripten" else f"CPython {sys.version.split()[0]}"
    print(f"decision time ({where}, seats {' and '.join(map(str, args.seats))}):")
    for level in args.levels:
        print("  " + timing_line(level, times[level]))


def run_in_pyodide(args) -> None:
    argv = ["--timing-only", "--deals", str(args.deals), "--seats", *map(str, args.seats), "--levels", *args.levels]
    in_pyodide.run("bench/bog_bots.py", argv)


if __name__ == "__main__":
    main()
