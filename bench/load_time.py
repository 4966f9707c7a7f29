"""Browser benchmark: Taberna's time-to-playable against a bare Pyodide page, in one run.

    python bench/load_time.py [--runs N] [--games N] [--no-write]

Measures, in Debian's Chromium on loopback (the network is not the subject here):
* time-to-playable, from navigation to ``<html data-engine="ready">``, for Taberna and for
  a bare Pyodide hello-world page (main thread, ``loadPyodide`` + ``runPython("1 + 1")``,
  Pyodide's stock files as npm ships them, served the same way), interleaved in ``--runs``
  pairs whose order alternates: cold (fresh context, empty caches) and warm (second visit
  in a persistent profile, after the first visit finished with everything it leaves behind:
  service worker, caches, Taberna's memory snapshot). Printed as medians and as the median of the per-pair ratios with
  their min–max. The goal is a ratio <= 0.5 cold and warm;
* the longest main-thread task of Taberna's page from navigation until playable (Long
  Tasks API: only tasks over 50 ms are reported; goal: none), and, from one traced cold and
  one traced warm load (Chromium's tracing), the longest by wall-clock time and by the main
  thread's CPU time: on a busy machine a task's wall-clock time also counts the time its
  thread waited for a core, its CPU time does not;
* bytes received before the lobby is usable (every response that ended before the page's
  ``lobby-ready`` mark) and bytes of a whole first visit (everything the server sent until
  the page is playable, the service worker has precached the site and the snapshot is
  made), uncompressed as
  served locally and as gzip would send them (GitHub Pages compresses text; zip and PNG
  files are counted as they are);
* Perudo random games per second in Pyodide (the bridge's ``bench``).

Prints the figures and writes them to bench/results.md (between this script's markers).
Timing runs do not use request routing (it disables the HTTP cache); outside hosts are made
unreachable with host resolver rules instead.
"""

import argparse
import contextlib
import gzip
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from buildtools.assemble import build  # noqa: E402
from buildtools.chromium import ARGS, EXECUTABLE  # noqa: E402
from buildtools.runtime import PYODIDE, PYODIDE_FILES, fetch_runtime, node_runtime  # noqa: E402
from buildtools.serve import make_server  # noqa: E402
RESULTS = ROOT / "bench" / "results.md"
HELLO = """<!doctype html><html><head><meta charset="utf-8"><title>hello</title></head><body>
<script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";
const py = await loadPyodide();
document.body.textContent = py.runPython("1 + 1");
performance.mark("engine-ready");
document.documentElement.dataset.engine = "ready";
</script></body></html>
"""
# The page says in the console when it is playable (and when the lobby is usable), so the
# benchmark waits without evaluating anything in the page while it loads: Playwright's
# wait_for_function would inject its 330 KB selector engine into the page first, a
# main-thread task of its own (40–270 ms) that the Long Tasks API would count as the page's,
# and polls with eval, which the page's Content-Security-Policy refuses.
SAY_READY = """
new MutationObserver((_, observer) => {
  if (document.documentElement?.dataset.engine === "ready") {
    console.debug("bench: engine ready");
    observer.disconnect();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-engine"] });
"""
MARK = "performance.getEntriesByName('engine-ready')[0].startTime"
# Registered before any script of the page runs: every main-thread task over 50 ms.
LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
}).observe({ type: "longtask", buffered: true });
"""
# Longest task that started before the engine was ready (0 when none was over 50 ms).
LONGEST = f"Math.max(0, ...window.__longTasks.filter(([start]) => start < {MARK}).map(([, d]) => d))"
# Not compressed by a static host (already compressed, or binary).
PRECOMPRESSED = (".zip", ".png", ".whl")


def private_site(name: str):
    """Builds a private copy of the site (a rebuild of dist/ elsewhere must not change files
    mid-measurement) and serves it on loopback: ``(server, url)``."""
    site = build(Path(tempfile.mkdtemp(prefix=f"taberna-{name}-")) / "dist")["path"]
    return serve(site)


def serve(directory, prefix="/", sent=None):
    """Serves ``directory``; ``sent``, if given, is a list that receives ``(path, bytes)``
    for every file body the server sends (304 answers send none)."""
    server = make_server("127.0.0.1", 0, directory, prefix)
    if sent is not None:
        lock = threading.Lock()

        class Counting(server.RequestHandlerClass):
            def copyfile(self, source, outputfile):
                with lock:
                    sent.append((self.path.split("?")[0], Path(source.name).stat().st_size))
                super().copyfile(source, outputfile)

        server.RequestHandlerClass = Counting
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@contextlib.contextmanager
def chromium_on_private_site(name: str, args=ARGS):
    """``(browser, url)``: Debian's Chromium and a private build of the site on loopback, for
    the benchmarks that time what happens once the site is up; both stop on leaving."""
    from playwright.sync_api import sync_playwright

    server, url = private_site(name)
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=EXECUTABLE, args=args)
            try:
                yield browser, url
            finally:
                browser.close()
    finally:
        server.shutdown()


def open_playable(page, url) -> None:
    """Opens the site and waits until it is playable, polling the page: fine where the load
    itself is not measured (``visit`` waits without touching the page)."""
    page.goto(url)
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=180_000)


def visit(page, url) -> None:
    """Navigates and waits until the page is playable (the context carries SAY_READY)."""
    with page.expect_event("console", lambda message: message.text == "bench: engine ready", timeout=180_000):
        page.goto(url)


def open_page(context, url):
    page = context.new_page()
    visit(page, url)
    return page


def instrumented(context):
    """``context`` with the long-task observer and the ready message in every page."""
    context.add_init_script(LONG_TASKS)
    context.add_init_script(SAY_READY)
    return context


def measure(context, url) -> dict:
    """Time-to-playable and the longest main-thread task of one visit."""
    page = open_page(context, url)
    figures = {"ms": page.evaluate(MARK), "longest_task": page.evaluate(LONGEST)}
    page.close()
    return figures


# Chromium's tracing of main-thread tasks (with each task's thread CPU time) and page marks.
TRACE_CATEGORIES = "disabled-by-default-devtools.timeline,blink.user_timing"


def traced_visit(page, url) -> dict:
    """One visit under Chromium's tracing: the page's main-thread tasks until playable, by
    wall-clock time (what the Long Tasks API sees) and by the thread's CPU time. On a busy
    machine a task's wall-clock time also counts the time its thread waited for a core; its
    CPU time is the work the page gave the main thread, whatever the machine's load."""
    session = page.context.new_cdp_session(page)
    events, done = [], []
    session.on("Tracing.dataCollected", lambda params: events.extend(params["value"]))
    session.on("Tracing.tracingComplete", lambda params: done.append(True))
    session.send("Tracing.start", {"categories": TRACE_CATEGORIES, "transferMode": "ReportEvents"})
    visit(page, url)
    session.send("Tracing.end")
    for _ in range(1200):  # events arrive while Playwright is waiting on something
        if done:
            break
        page.wait_for_timeout(100)
    (ready,) = [e for e in events if e.get("name") == "engine-ready" and e.get("ph") in ("I", "R", "n")][:1]
    start = ready["ts"] - ready["args"]["data"]["startTime"] * 1000  # the navigation, in trace time
    threads = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name" and e["args"]["name"] == "CrRendererMain"}
    tasks = [
        e for e in events
        if e.get("name") == "RunTask" and (e["pid"], e["tid"]) in threads and e["pid"] == ready["pid"]
        and start <= e["ts"] < ready["ts"]
    ]
    return {
        "wall": max(e["dur"] for e in tasks) / 1000,
        "cpu": max(e.get("tdur", 0) for e in tasks) / 1000,
        "over_50_wall": sum(1 for e in tasks if e["dur"] > 50_000),
    }


def traced_loads(browser, driver, url) -> dict:
    """Main-thread tasks of one traced cold and one traced warm load of Taberna."""
    context = instrumented(browser.new_context())
    try:
        cold_tasks = traced_visit(context.new_page(), url)
    finally:
        context.close()
    with tempfile.TemporaryDirectory(prefix="taberna-profile-") as profile:
        context = instrumented(
            driver.chromium.launch_persistent_context(profile, executable_path=EXECUTABLE, args=ARGS)
        )
        try:
            page = context.pages[0] if context.pages else context.new_page()
            visit(page, url)
            settle(page, True)
            page.close()
            warm_tasks = traced_visit(context.new_page(), url)
        finally:
            context.close()
    return {"cold": cold_tasks, "warm": warm_tasks}


SNAPSHOTS = "caches.open('pyodide-snapshot').then(c => c.keys()).then(k => k.length)"


def settle(page, taberna: bool) -> None:
    """Lets a first visit finish what it leaves for the next one (the service worker's
    precache, the memory snapshot made a few seconds after the engine is ready), so the
    second visit measures a real return."""
    if taberna:
        page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        for _ in range(240):
            if page.evaluate(SNAPSHOTS):
                break
            page.wait_for_timeout(500)
        else:
            raise RuntimeError("no memory snapshot was stored within two minutes")
    page.wait_for_timeout(500)


def cold(browser, url) -> dict:
    context = instrumented(browser.new_context())
    try:
        return measure(context, url)
    finally:
        context.close()


def warm(driver, url, profile: Path, taberna: bool) -> dict:
    """Second visit in one persistent profile (the first visit fills the caches)."""
    context = instrumented(
        driver.chromium.launch_persistent_context(str(profile), executable_path=EXECUTABLE, args=ARGS)
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        visit(page, url)
        settle(page, taberna)
        page.close()
        return measure(context, url)
    finally:
        context.close()


def lobby_bytes(browser, url) -> dict:
    """Bytes of every response that ended before the lobby was usable (fresh profile)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => performance.getEntriesByName('lobby-ready').length > 0", timeout=60_000)
        data = page.evaluate(
            """() => {
              const ready = performance.getEntriesByName('lobby-ready')[0].startTime;
              const nav = performance.getEntriesByType('navigation')[0];
              const done = performance.getEntriesByType('resource').filter(r => r.responseEnd <= ready);
              return {ready, files: [nav, ...done].map(r => [r.name, r.encodedBodySize])};
            }"""
        )
        return {"ms": data["ready"], "bytes": sum(size for _, size in data["files"]), "files": data["files"]}
    finally:
        context.close()


def first_visit_bytes(driver, url, sent: list, directory: Path) -> dict:
    """What the server sent for one whole first visit, until playable and precached, in a
    persistent profile (an incognito context keeps no 9.6 MB WebAssembly in its memory
    cache, so its service worker would download it a second time)."""
    sent.clear()
    with tempfile.TemporaryDirectory(prefix="taberna-profile-") as profile:
        context = instrumented(
            driver.chromium.launch_persistent_context(profile, executable_path=EXECUTABLE, args=ARGS)
        )
        try:
            page = open_page(context, url)
            settle(page, True)
            files = list(sent)
        finally:
            context.close()

    def gzipped(path: str) -> int:
        local = directory / (path.lstrip("/") or "index.html")
        data = local.read_bytes()
        return len(data) if local.suffix in PRECOMPRESSED else len(gzip.compress(data, 6))

    return {
        "raw": sum(size for _, size in files),
        "gzip": sum(gzipped(path) for path, _ in files),
        "responses": len(files),
        "largest": sorted(files, key=lambda item: -item[1])[:6],
    }


def pyodide_speed(browser, url, games: int) -> dict:
    context = instrumented(browser.new_context())
    try:
        page = open_page(context, url)
        raw = page.evaluate(
            "n => window.taberna.call('bench', JSON.stringify({game: 'perudo', games: n}))", games
        )
        return json.loads(raw)
    finally:
        context.close()


def write_results(text: str, name: str = "load_time") -> None:
    """Puts ``text`` into bench/results.md between ``name``'s markers (added if missing)."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    block = f"{begin}\n{text}\n{end}"
    current = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Benchmark results\n"
    if begin in current:
        current = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, current, flags=re.S)
    else:
        current = current.rstrip("\n") + "\n\n" + block + "\n"
    RESULTS.write_text(current, encoding="utf-8")


def hello_site() -> Path:
    """The bare page beside Pyodide's stock files (as npm ships them, stdlib from source)."""
    folder = Path(tempfile.mkdtemp(prefix="taberna-hello-"))
    (folder / "index.html").write_text(HELLO, encoding="utf-8")
    (folder / "pyodide").mkdir()
    stock = node_runtime(fetch_runtime()[PYODIDE[0]])
    for name in (*PYODIDE_FILES, "python_stdlib.zip"):
        shutil.copyfile(stock / name, folder / "pyodide" / name)
    return folder


def spread(values: list, scale: float = 1.0, unit: str = "", digits: int = 2) -> str:
    """``median (min–max)``."""
    fmt = lambda v: f"{v * scale:.{digits}f}{unit}"  # noqa: E731
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}–{fmt(max(values))})"


def report(figures: dict, lobby: dict, first_visit: dict, speed: dict, traced: dict, args) -> str:
    lines = [
        f"Browser figures (`python bench/load_time.py --runs {args.runs}`, {time.strftime('%Y-%m-%d')}, "
        "Debian Chromium headless, loopback, 2-core machine shared with other jobs; "
        f"{args.runs} interleaved pairs, median (min–max)):",
        "",
        "| | Taberna playable | bare Pyodide hello | Taberna / hello (goal ≤ 0.5) | longest main-thread task (goal < 50 ms) |",
        "|---|---|---|---|---|",
    ]
    for kind, label in (("cold", "cold (empty caches)"), ("warm", "warm (second visit, persistent profile)")):
        taberna, hello = figures[kind]["taberna"], figures[kind]["hello"]
        ratios = [t["ms"] / h["ms"] for t, h in zip(taberna, hello)]
        tasks = [t["longest_task"] for t in taberna]
        worst = max(tasks)
        lines.append(
            f"| {label} | {spread([t['ms'] for t in taberna], 1e-3, ' s')} "
            f"| {spread([h['ms'] for h in hello], 1e-3, ' s')} | {spread(ratios, unit='×')} "
            f"| {'none over 50 ms' if worst == 0 else f'{worst:.0f} ms (over 50 ms in {sum(1 for t in tasks if t)} of {len(tasks)} loads)'} |"
        )
    lines += [
        "",
        f"* Before the lobby is usable: {lobby['bytes'] / 1024:.0f} KB received in {len(lobby['files'])} "
        f"responses (uncompressed); lobby ready at {lobby['ms']:.0f} ms.",
        f"* A whole first visit (until playable and precached for offline): {first_visit['raw'] / 1e6:.1f} MB "
        f"in {first_visit['responses']} responses ({first_visit['gzip'] / 1e6:.1f} MB with gzip on text and WebAssembly).",
        "* Main-thread tasks of one traced cold and one traced warm load (Chromium's tracing, "
        "navigation to playable): longest by the thread's CPU time "
        f"{traced['cold']['cpu']:.0f} ms cold, {traced['warm']['cpu']:.0f} ms warm; by wall-clock time "
        f"{traced['cold']['wall']:.0f} ms and {traced['warm']['wall']:.0f} ms "
        f"({traced['cold']['over_50_wall']} and {traced['warm']['over_50_wall']} tasks over 50 ms); "
        f"machine load {os.getloadavg()[0]:.1f} at the end of the run.",
        f"* Perudo random 4-seat games in Pyodide: {speed['games_per_second']:.1f} games/s "
        f"({speed['games']} games in {speed['seconds']:.1f} s).",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    # A private build: a rebuild of dist/ elsewhere must not change files mid-measurement.
    site_dir = build(Path(tempfile.mkdtemp(prefix="taberna-bench-")) / "dist")["path"]
    sent = []
    site_server, site = serve(site_dir, sent=sent)
    hello_server, hello = serve(hello_site())

    figures = {"cold": {"taberna": [], "hello": []}, "warm": {"taberna": [], "hello": []}}
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=EXECUTABLE, args=ARGS)
        for run in range(args.runs):
            # Alternate the order so neither page always runs on a warmer machine.
            order = [("taberna", site), ("hello", hello)]
            if run % 2:
                order.reverse()
            for name, url in order:
                figures["cold"][name].append(cold(browser, url))
                with tempfile.TemporaryDirectory(prefix="taberna-profile-") as profile:
                    figures["warm"][name].append(warm(driver, url, Path(profile), name == "taberna"))
            latest = {kind: {name: round(v[-1]["ms"]) for name, v in d.items()} for kind, d in figures.items()}
            print(f"run {run + 1}/{args.runs}: {json.dumps(latest)}", flush=True)
        lobby = lobby_bytes(browser, site)
        first_visit = first_visit_bytes(driver, site, sent, site_dir)
        traced = traced_loads(browser, driver, site)
        speed = pyodide_speed(browser, site, args.games)
        browser.close()
    site_server.shutdown()
    hello_server.shutdown()

    text = report(figures, lobby, first_visit, speed, traced, args)
    print()
    print(text)
    print("\nlobby files:", *(f"  {size:>8}  {name}" for name, size in lobby["files"]), sep="\n")
    print("\nlargest files of a first visit:", *(f"  {size:>8}  {name}" for name, size in first_visit["largest"]), sep="\n")
    print("\nlong tasks (ms):", json.dumps({k: [round(t["longest_task"]) for t in d["taberna"]] for k, d in figures.items()}))
    if not args.no_write:
        write_results(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
