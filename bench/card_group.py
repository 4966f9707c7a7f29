"""The card group's cost: a deal's crypto in the browser's worker and in CPython.

    nice -n 19 python bench/card_group.py [--repeat 3] [--warm 5]

Builds a private copy of the site and opens it in Debian's Chromium (headless), one fresh
context per cold run. Through the real worker (``window.taberna.call``): ``card_group``
(libsodium fetched, compiled and installed: the first fair card table pays it), then the
data call ``group_bench`` (``pyengine.shell.cardgroup.deal_workload``: every seat
multiplies the whole deck each pass, in deck-sized batches, one call into JavaScript per
batch) for a deal of Botifarra (4 seats × 48 cards × 2 passes) or Bog (10 × 40 × 2).
Cold: the load and that game's first deal, in a context whose worker never loaded
libsodium. Warm: ``--warm`` more deals of each game in the same worker (the fastest and
the median). Times are the worker's own (``perf_counter`` around the batches) and the
page's wall time around the call (what a deal waits for, the messages aside). Then the
same workload in this CPython with PyNaCl's ``NaclGroup``.

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
from pyengine.core.group import NaclGroup  # noqa: E402
from pyengine.shell.cardgroup import deal_workload  # noqa: E402

DEALS = {"botifarra": {"seats": 4, "cards": 48, "passes": 2}, "bog": {"seats": 10, "cards": 40, "passes": 2}}
ENGINE_TIMEOUT_MS = 180_000

# In the page: one call, its wall time around it and its answer.
TIMED_CALL = """async ([name, args]) => {
  const began = performance.now();
  const answer = await window.taberna.call(name, ...args);
  return {wall: performance.now() - began, answer: answer === undefined ? null : JSON.parse(answer)};
}"""


def timed_call(page, name, *args) -> dict:
    return page.evaluate(TIMED_CALL, [name, list(args)])


def open_engine(browser, url):
    """A fresh context's page with the engine ready (no service worker, no memory snapshot:
    neither is what a deal waits for, and both would compete for the CPU)."""
    context = browser.new_context(service_workers="block")
    context.route("**/snapshot.mjs", lambda route: route.abort())
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => document.documentElement.dataset.engine !== 'loading'", timeout=ENGINE_TIMEOUT_MS)
    if page.evaluate("document.documentElement.dataset.engine") != "ready":
        raise SystemExit("the engine did not start")
    return context, page


def deal(page, game) -> dict:
    result = timed_call(page, "group_bench", json.dumps(DEALS[game]))
    if "ms" not in result["answer"]:
        raise SystemExit(f"group_bench failed: {result['answer']}")
    return {"worker": result["answer"]["ms"], "wall": result["wall"], "count": result["answer"]["multiplications"]}


def browser_figures(repeat: int, warm: int) -> dict:
    from playwright.sync_api import sync_playwright

    dist = build(Path(tempfile.mkdtemp(prefix="taberna-card-group-")) / "dist")["path"]
    server = make_server("127.0.0.1", 0, dist)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    figures = {game: {"load": [], "cold": [], "warm": []} for game in DEALS}
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=EXECUTABLE, args=ARGS)
            for run in range(repeat):
                for game in DEALS:
                    context, page = open_engine(browser, url)
                    figures[game]["load"].append(timed_call(page, "card_group")["wall"])
                    figures[game]["cold"].append(deal(page, game))
                    figures[game]["warm"] += [deal(page, game) for _ in range(warm)]
                    context.close()
                    print(f"  run {run + 1}/{repeat} {game}: done", file=sys.stderr, flush=True)
            browser.close()
    finally:
        server.shutdown()
    return figures


def cpython_figures(warm: int) -> dict:
    group = NaclGroup()
    return {game: [deal_workload(group, **shape) for _ in range(1 + warm)] for game, shape in DEALS.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="cold runs per game (a fresh context each)")
    parser.add_argument("--warm", type=int, default=5, help="warm deals per cold run")
    args = parser.parse_args()
    figures = browser_figures(args.repeat, args.warm)
    cpython = cpython_figures(args.warm * args.repeat)
    print("ms; cold = median of the fresh contexts, warm = fastest / median of the deals after the first")
    print(f"{'deal':>10} {'mults':>6} {'load':>6} {'cold deal':>16} {'cold total':>11} {'warm deal':>21}"
          f" {'ms/mult warm':>13} {'CPython deal':>15} {'ms/mult':>8}")
    for game, found in figures.items():
        count = found["cold"][0]["count"]
        load = statistics.median(found["load"])
        cold_worker = statistics.median(d["worker"] for d in found["cold"])
        cold_wall = statistics.median(d["wall"] for d in found["cold"])
        cold_total = statistics.median(lo + d["wall"] for lo, d in zip(found["load"], found["cold"]))
        warm = sorted(d["wall"] for d in found["warm"])
        warm_worker = sorted(d["worker"] for d in found["warm"])
        native = sorted(d["ms"] for d in cpython[game][1:])
        print(
            f"{game:>10} {count:>6} {load:6.0f} {cold_worker:7.0f} ({cold_wall:4.0f} wall) {cold_total:11.0f}"
            f" {warm[0]:6.0f} / {statistics.median(warm):4.0f} wall ({warm_worker[0]:4.0f})"
            f" {warm_worker[0] / count:13.3f} {native[0]:6.0f} / {statistics.median(native):5.0f}"
            f" {native[0] / count:8.3f}"
        )
    firsts = ", ".join(f"{game} {deals[0]['ms']:.0f}" for game, deals in cpython.items())
    print(f"(CPython's first deals: {firsts} ms; load = card_group's wall time: libsodium fetched, compiled and installed)")
    print(f"at {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {open('/proc/loadavg').read().split()[0]}")


if __name__ == "__main__":
    main()
