"""The card group's cost: a deal's crypto in the browser's worker and in CPython.

    nice -n 19 python bench/card_group.py [--repeat 3] [--warm 5]

Builds a private copy of the site and opens it in Debian's Chromium (headless), one fresh
context per cold run. Through the real worker (``window.taberna.call``): ``card_group``
(libsodium fetched, compiled and installed: the first fair card table pays it), then the
data call ``group_bench`` (``pyengine.shell.cardgroup.deal_workload``: every seat
multiplies the whole deck each pass, in deck-sized batches, one call into JavaScript per
batch) for a deal of Botifarra (4 seats × 48 cards × 2 passes) or Bog (10 × 40 × 2).
Cold: the load and that game's first deal, in a fresh profile whose worker never loaded
libsodium. Warm: ``--warm`` more deals of each game in the same worker (the fastest and
the median). Each call is timed twice: the page's wall time around it (what a deal waits
for, the messages aside; a loaded machine stretches it) and the CPU time of the worker's
thread meanwhile (from Linux's ``schedstat``, as ``bench/bot_timing_browser.py`` reads it;
V8's background compilation runs on other threads and is not in it). Then the same
workload in this CPython with rbcl's ``NativeGroup`` (wall and CPU time).

Goals for a whole deal, messages included (issue 24): ≤ 1 s for Botifarra at 4, ≤ 3 s for
Bog at 10; this measures the crypto part.
"""

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from buildtools.assemble import build  # noqa: E402
from buildtools.chromium import ARGS, EXECUTABLE  # noqa: E402
from buildtools.serve import make_server  # noqa: E402
from pyengine.core.group import NativeGroup  # noqa: E402
from pyengine.shell.cardgroup import deal_workload  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bot_timing_browser import worker_thread_stat  # noqa: E402

DEALS = {"botifarra": {"seats": 4, "cards": 48, "passes": 2}, "bog": {"seats": 10, "cards": 40, "passes": 2}}
ENGINE_TIMEOUT_MS = 180_000

# In the page: one call, its wall time around it and its answer.
TIMED_CALL = """async ([name, args]) => {
  const began = performance.now();
  const answer = await window.taberna.call(name, ...args);
  return {wall: performance.now() - began, answer: answer === undefined ? null : JSON.parse(answer)};
}"""


class Engine:
    """A fresh browser profile's page with the engine ready (no service worker, no memory
    snapshot: neither is what a deal waits for, and both would compete for the CPU), and
    the CPU clock of its worker's thread (``bot_timing_browser.worker_thread_stat``)."""

    def __init__(self, driver, url):
        profile = tempfile.mkdtemp(prefix="taberna-card-group-profile-")
        self.context = driver.chromium.launch_persistent_context(
            profile, executable_path=EXECUTABLE, args=ARGS, service_workers="block"
        )
        self.context.route("**/snapshot.mjs", lambda route: route.abort())
        self.page = self.context.new_page()
        self.page.goto(url)
        self.page.wait_for_function(
            "() => document.documentElement.dataset.engine !== 'loading'", timeout=ENGINE_TIMEOUT_MS
        )
        if self.page.evaluate("document.documentElement.dataset.engine") != "ready":
            raise SystemExit("the engine did not start")
        self.thread = worker_thread_stat(profile)

    def cpu_ms(self) -> float:
        return int(self.thread.read_text().split()[0]) / 1e6

    def call(self, name, *args) -> dict:
        """``{"wall", "cpu", "answer"}``: the page's wall time around the call, the worker
        thread's CPU time meanwhile (ms), and the call's answer."""
        began = self.cpu_ms()
        result = self.page.evaluate(TIMED_CALL, [name, list(args)])
        return {**result, "cpu": self.cpu_ms() - began}

    def deal(self, game) -> dict:
        result = self.call("group_bench", json.dumps(DEALS[game]))
        if "ms" not in result["answer"]:
            raise SystemExit(f"group_bench failed: {result['answer']}")
        return {**result, "worker": result["answer"]["ms"], "count": result["answer"]["multiplications"]}


def browser_figures(repeat: int, warm: int) -> dict:
    from playwright.sync_api import sync_playwright

    dist = build(Path(tempfile.mkdtemp(prefix="taberna-card-group-")) / "dist")["path"]
    server = make_server("127.0.0.1", 0, dist)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    figures = {game: {"load": [], "cold": [], "warm": []} for game in DEALS}
    try:
        with sync_playwright() as driver:
            for run in range(repeat):
                for game in DEALS:
                    engine = Engine(driver, url)
                    figures[game]["load"].append(engine.call("card_group"))
                    figures[game]["cold"].append(engine.deal(game))
                    figures[game]["warm"] += [engine.deal(game) for _ in range(warm)]
                    engine.context.close()
                    print(f"  run {run + 1}/{repeat} {game}: done", file=sys.stderr, flush=True)
    finally:
        server.shutdown()
    return figures


def cpython_figures(warm: int) -> dict:
    """Each deal's figures with ``cpu``: the CPU time it took (a loaded machine stretches
    only the wall time)."""
    group = NativeGroup()
    figures = {}
    for game, shape in DEALS.items():
        figures[game] = []
        for _ in range(1 + warm):
            began = time.process_time()
            figures[game].append({**deal_workload(group, **shape), "cpu": (time.process_time() - began) * 1000})
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="cold runs per game (a fresh context each)")
    parser.add_argument("--warm", type=int, default=5, help="warm deals per cold run")
    args = parser.parse_args()
    figures = browser_figures(args.repeat, args.warm)
    cpython = cpython_figures(args.warm * args.repeat)
    print("ms: wall time (the page's, around the call) / CPU time (the worker's thread, or CPython's)")
    print("cold = median of the fresh profiles; warm and CPython = fastest · median of the deals after the first")

    def spread(values) -> str:
        return f"{min(values):5.0f} · {statistics.median(values):5.0f}"

    for game, found in figures.items():
        count = found["cold"][0]["count"]
        warm_cpu = [d["cpu"] for d in found["warm"]]
        native = cpython[game][1:]
        print(f"{game} ({count} multiplications)")
        print(f"  load libsodium (card_group)  {statistics.median(d['wall'] for d in found['load']):6.0f} /"
              f" {statistics.median(d['cpu'] for d in found['load']):6.0f}")
        print(f"  first deal after it          {statistics.median(d['wall'] for d in found['cold']):6.0f} /"
              f" {statistics.median(d['cpu'] for d in found['cold']):6.0f}")
        print(f"  load + first deal (wall)     {statistics.median(lo['wall'] + d['wall'] for lo, d in zip(found['load'], found['cold'])):6.0f}")
        print(f"  warm deal                    {spread([d['wall'] for d in found['warm']])} / {spread(warm_cpu)}"
              f"   ({min(warm_cpu) / count:.3f} ms CPU per multiplication)")
        print(f"  CPython, rbcl                {spread([d['ms'] for d in native])} / {spread([d['cpu'] for d in native])}"
              f"   ({min(d['cpu'] for d in native) / count:.3f} ms CPU per multiplication)")
    print(f"at {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {open('/proc/loadavg').read().split()[0]}")


if __name__ == "__main__":
    main()
