"""Bot decision time in the browser worker: every game's bots, per level, in Chromium.

    python bench/bot_timing_browser.py [--decisions 200] [--games botifarra,bog] [--cpython]

Builds a private copy of the site, opens a page of it in Debian's Chromium (headless) and
starts Pyodide in a dedicated Worker from the site's own runtime files, as the site's
engine worker does (``engine-files.mjs``: the bytecode-compiled standard library, and our
packages unpacked from ``runtime/packages.tar.gz``). In that worker this file's
``sample_times`` plays seeded games in which every seat is a bot (the levels taking turns
round the table) and times each decision that has a choice (a forced action costs the
bot nothing and is played without asking it) until each level has ``--decisions`` of them
(Botifarra and Bog; the other games get a quarter). Printed: p50 / p95 / max per game,
table size and level, twice: in the worker's wall time (what a player waits, inflated on
a loaded machine), and in the CPU time of the worker's own thread (what the decision
costs: before and after each decision the worker asks the bench's server, by a synchronous
request, for that thread's run time from Linux's ``/proc/<pid>/task/<tid>/schedstat``).
``--cpython`` times the same positions in this interpreter's CPU time instead.

Targets (issues 15 and 16): Botifarra hard p95 <= 1 s, easy and medium <= 300 ms; Bog
every level <= 300 ms.
"""

import argparse
import json
import time

#: (game, seats) tables timed, and the share of ``--decisions`` each gets.
TABLES = (("botifarra", 4, 1.0), ("bog", 4, 1.0), ("bog", 8, 1.0), ("perudo", 4, 0.25), ("bozo", 4, 0.25),
          ("lasca", 2, 0.25), ("crown_anchor", 4, 0.25))
MAX_PLIES = 3000  # per game: a long game gives way to the next seed


def sample_times(request: dict, clocks: dict) -> dict:
    """``{clock: {level: [seconds...]}}`` for the bots of ``request["game"]`` at
    ``request["seats"]``, each decision read on every one of ``clocks`` (``{name: read()}``,
    the first read innermost; what a reading itself costs, the median of 30 empty
    readings, is taken off): games from seed ``request["seed"]`` on until every level has
    made ``request["decisions"]`` decisions with a choice. Runs in Pyodide (the worker) and
    in CPython alike."""
    from pyengine.core.registry import discover, get_game
    from pyengine.core.rng import Rng, derive_seed

    game_id, seats, wanted = request["game"], request["seats"], request["decisions"]
    bots = next(declaration for declaration in discover("pyengine.games") if declaration.id == game_id).bots()
    game = get_game(game_id)
    levels = list(game.bot_levels)
    times = {name: {level: [] for level in levels} for name in clocks}

    def readings():
        return {name: read() for name, read in reversed(clocks.items())}

    def spans(started):
        ended = {name: read() for name, read in clocks.items()}
        return {name: ended[name] - started[name] for name in clocks}

    empty = [spans(readings()) for _ in range(30)]
    cost = {name: sorted(span[name] for span in empty)[len(empty) // 2] for name in clocks}
    counted = {level: 0 for level in levels}
    seed = request["seed"]
    while levels and min(counted.values()) < wanted:
        state = game.new_state({}, seats, seed)
        chooser = Rng(derive_seed(seed, "movers"))
        plies = 0
        while not game.is_over(state) and plies < MAX_PLIES:
            movers = game.to_act(state)
            seat = movers[chooser.below(len(movers))]
            actions = game.legal_actions(state, seat)
            if len(actions) == 1:
                action = actions[0]
            else:
                level = levels[(seat + seed) % len(levels)]
                view = game.view(state, seat)
                started = readings()
                action = bots[level](view, derive_seed(seed, plies, seat))
                spent = spans(started)
                if counted[level] < wanted:
                    counted[level] += 1
                    for name in clocks:
                        times[name][level].append(max(0.0, spent[name] - cost[name]))
            state = game.apply(state, seat, action)
            plies += 1
        seed += 1
    return times


# --- the browser side -------------------------------------------------------------------------
PAGE = "<!doctype html><meta charset=utf-8><title>bot timing</title>"
# A dedicated module Worker: Pyodide and our packages exactly as site/engine.mjs loads them
# (without the memory snapshot), then this file's source, then one table per message.
WORKER = """
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { downloadPackages, runtimeOptions, writePackages } from "./engine-files.mjs";

const ready = (async () => {
  const [pyodide, packages] = await Promise.all([loadPyodide(runtimeOptions), downloadPackages()]);
  writePackages(pyodide, packages);
  return pyodide;
})();

self.onmessage = async ({ data }) => {
  try {
    const pyodide = await ready;
    pyodide.globals.set("HARNESS", data.source);
    pyodide.globals.set("REQUEST", JSON.stringify(data.request));
    const out = pyodide.runPython(`
import json, time
from js import XMLHttpRequest

def thread_seconds():  # this worker thread's CPU time, read by the bench's server
    request = XMLHttpRequest.new()
    request.open("GET", "./__thread_cpu", False)
    request.send()
    return float(request.responseText)

harness = {"__name__": "bot_timing"}
exec(compile(HARNESS, "bot_timing_browser.py", "exec"), harness)
json.dumps(harness["sample_times"](json.loads(REQUEST), {"wall": time.perf_counter, "cpu": thread_seconds}))
`);
    postMessage({ ok: true, out });
  } catch (error) {
    postMessage({ ok: false, error: String(error) });
  }
};
"""
# Called with page.evaluate: starts the worker once, then sends one table's request.
RUN = """async ([source, request]) => {
  window.botTiming ??= new Worker("./bot-timing-worker.mjs", { type: "module" });
  return await new Promise((resolve) => {
    window.botTiming.onmessage = ({ data }) => resolve(data);
    window.botTiming.postMessage({ source, request });
  });
}"""


def worker_thread_stat(profile: str):
    """The ``schedstat`` file of the dedicated worker thread of the Chromium using
    ``profile`` (its first number: nanoseconds the thread has run)."""
    from pathlib import Path

    for process in Path("/proc").iterdir():
        try:
            command = (process / "cmdline").read_bytes()  # Chromium rewrites it as one string
            if b"--type=renderer" not in command or f"--user-data-dir={profile}".encode() not in command:
                continue
            for thread in (process / "task").iterdir():
                if (thread / "comm").read_text().startswith("DedicatedWorker"):
                    return thread / "schedstat"
        except OSError:
            continue
    raise LookupError("no dedicated worker thread found")


def browser_times(requests: list, report) -> None:
    """Runs each request in the worker; ``report(request, times)`` as each finishes."""
    import importlib.util
    import tempfile
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    here = Path(__file__).resolve()
    spec = importlib.util.spec_from_file_location("taberna_load_time", here.parent / "load_time.py")
    load_time = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(load_time)
    site = load_time.build(Path(tempfile.mkdtemp(prefix="taberna-bot-timing-")) / "dist")["path"]
    Path(site, "bot-timing.html").write_text(PAGE, encoding="utf-8")
    Path(site, "bot-timing-worker.mjs").write_text(WORKER, encoding="utf-8")
    source = here.read_text(encoding="utf-8")
    profile = tempfile.mkdtemp(prefix="taberna-bot-timing-profile-")
    server, url = load_time.serve(site)
    site_handler = server.RequestHandlerClass

    found = []

    class ThreadClock(site_handler):
        def do_GET(self):
            if not self.path.endswith("/__thread_cpu"):
                return super().do_GET()
            found[:] = found or [worker_thread_stat(profile)]
            body = repr(int(found[0].read_text().split()[0]) / 1e9).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server.RequestHandlerClass = ThreadClock
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch_persistent_context(profile, executable_path=load_time.EXECUTABLE,
                                                                args=load_time.ARGS)
            page = browser.new_page()
            page.set_default_timeout(0)
            page.goto(url + "bot-timing.html")
            for request in requests:
                answer = page.evaluate(RUN, [source, request])
                if not answer["ok"]:
                    raise SystemExit(f"the worker failed: {answer['error']}")
                report(request, json.loads(answer["out"]))
            browser.close()
    finally:
        server.shutdown()


def percentiles(samples: list) -> tuple:
    ordered = sorted(samples)

    def at(q):
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return at(0.5), at(0.95), ordered[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200, help="timed decisions per level (Botifarra, Bog)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every table)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cpython", action="store_true", help="time in this interpreter (CPU time) instead")
    args = parser.parse_args()
    chosen = set(filter(None, args.games.split(",")))
    requests = [{"game": game, "seats": seats, "decisions": max(10, round(args.decisions * share)), "seed": args.seed}
                for game, seats, share in TABLES if not chosen or game in chosen]
    where = "CPython, CPU time" if args.cpython else "Pyodide in a Chromium dedicated worker"
    clocks_shown = ["cpu"] if args.cpython else ["wall", "cpu"]
    print(f"bot decision time ({where}); decisions with a choice; p50 / p95 / max in ms")
    print(f"{'game':>13} {'seats':>5} {'level':>8} {'moves':>6} " + " ".join(f"{name:>22}" for name in clocks_shown))

    def report(request, times):
        for level in next(iter(times.values())):
            cells = []
            for name in clocks_shown:
                cells.append("{:6.1f} {:7.1f} {:7.1f}".format(*(x * 1e3 for x in percentiles(times[name][level]))))
            print(f"{request['game']:>13} {request['seats']:>5} {level:>8} {len(times[clocks_shown[0]][level]):>6} "
                  + " ".join(f"{cell:>22}" for cell in cells), flush=True)

    if args.cpython:
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        for request in requests:
            report(request, sample_times(request, {"cpu": time.process_time}))
    else:
        browser_times(requests, report)


if __name__ == "__main__":
    main()
