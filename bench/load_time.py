"""Browser benchmark: Taberna's time-to-playable against a bare Pyodide page, in one run.

    python bench/load_time.py [--runs N] [--phone-runs N] [--games N] [--no-write]

Measures, in Debian's Chromium, with both sites served on loopback as a static host serves
them (gzip on everything but zip, gzip and PNG files, as GitHub Pages does):
* time-to-playable, from navigation to ``<html data-engine="ready">``, for Taberna and for
  a bare Pyodide hello-world page (main thread, ``loadPyodide`` + ``runPython("1 + 1")``,
  Pyodide's stock files as npm ships them), interleaved in pairs whose order alternates:
  cold (fresh context, empty caches) and warm (second visit in a persistent profile, after
  the first visit finished with everything it leaves behind: service worker, caches,
  Taberna's memory snapshot). Printed as medians and as the median of the per-pair ratios
  with their min–max. ``--runs`` pairs on loopback (goals: ratio <= 0.5 cold, <= 0.4 warm),
  then ``--phone-runs`` pairs under the PHONE profile: Chromium's network and CPU emulation
  applied to the page and to its workers (goals: <= 0.7 cold, <= 0.4 warm; the lobby
  usable within 1 s cold), and when Taberna created the engine's worker (after the lobby);
* the longest main-thread task of Taberna's page from navigation until playable (Long
  Tasks API: only tasks over 50 ms are reported; goal: none), and, from one traced cold and
  one traced warm load (Chromium's tracing), the longest by wall-clock time and by the main
  thread's CPU time: on a busy machine a task's wall-clock time also counts the time its
  thread waited for a core, its CPU time does not; from one traced phone-profile cold load,
  the main thread's CPU time before the lobby was usable;
* bytes on the wire before the lobby is usable (every response that ended before the
  page's ``lobby-ready`` mark), and of a whole first visit of each page (everything the
  server sent until the page is playable; for Taberna also until the service worker has
  precached the site and the snapshot is made; goal: Taberna <= the hello page);
* Perudo random games per second in Pyodide (the bridge's ``bench``).

Prints the figures and writes them to bench/results.md (between this script's markers).
Timing runs do not use request routing (it disables the HTTP cache); outside hosts are made
unreachable with host resolver rules instead.
"""

import argparse
import contextlib
import gzip
import io
import itertools
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
LOBBY = "performance.getEntriesByName('lobby-ready')[0]?.startTime ?? null"
# When Taberna created the engine's worker (its downloads start then).
WORKER = "performance.getEntriesByName('engine-start')[0]?.startTime ?? null"
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
PRECOMPRESSED = (".zip", ".png", ".whl", ".gz")


def private_site(name: str):
    """Builds a private copy of the site (a rebuild of dist/ elsewhere must not change files
    mid-measurement) and serves it on loopback: ``(server, url)``."""
    site = build(Path(tempfile.mkdtemp(prefix=f"taberna-{name}-")) / "dist")["path"]
    return serve(site)


def serve(directory, prefix="/", sent=None):
    """Serves ``directory`` as a static host does, gzip on everything not already compressed
    (GitHub Pages compresses text and WebAssembly, not zip or PNG files); ``sent``, if given,
    is a list that receives ``(path, bytes on the wire)`` for every file body the server
    sends (304 answers send none)."""
    server = make_server("127.0.0.1", 0, directory, prefix)
    lock = threading.Lock()
    compressed = {}

    class Gzipping(server.RequestHandlerClass):
        def send_head(self):
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            wants_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
            if not path.is_file() or path.suffix in PRECOMPRESSED or not wants_gzip:
                return super().send_head()
            since = self.headers.get("If-Modified-Since")
            modified = self.date_time_string(int(path.stat().st_mtime))
            if since == modified:
                self.send_response(304)
                self.end_headers()
                return None
            with lock:
                if path not in compressed:
                    compressed[path] = gzip.compress(path.read_bytes(), 6, mtime=0)
            body = compressed[path]
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Last-Modified", modified)
            self.end_headers()
            return io.BytesIO(body)

        def copyfile(self, source, outputfile):
            size = len(source.getvalue()) if isinstance(source, io.BytesIO) else Path(source.name).stat().st_size
            if sent is not None:
                with lock:
                    sent.append((self.path.split("?")[0], size))
            super().copyfile(source, outputfile)

    server.RequestHandlerClass = Gzipping
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


# A mid-range phone on a good mobile link (Chromium's emulation): the page and every worker
# it starts get the same network and CPU slowdown; the page's own emulation does not reach
# its workers, and Pyodide downloads and runs in one.
PHONE = {"down_mbit": 10, "up_mbit": 5, "rtt_ms": 40, "cpu_slowdown": 4}


def emulate_phone(page) -> None:
    """Applies PHONE to ``page`` and, before they run, to the dedicated workers it starts
    (DevTools' auto-attach, paused until emulated)."""
    from playwright.sync_api import Error as PlaywrightError
    session = page.context.new_cdp_session(page)
    network = {
        "offline": False,
        "latency": PHONE["rtt_ms"],
        "downloadThroughput": PHONE["down_mbit"] * 1e6 / 8,
        "uploadThroughput": PHONE["up_mbit"] * 1e6 / 8,
    }
    emulation = [
        ("Network.enable", {}),
        ("Network.emulateNetworkConditions", network),
        ("Emulation.setCPUThrottlingRate", {"rate": PHONE["cpu_slowdown"]}),
    ]
    ids = itertools.count(1)

    def worker_started(event):
        for method, params in [*emulation, ("Runtime.runIfWaitingForDebugger", {})]:
            message = json.dumps({"id": next(ids), "method": method, "params": params})
            try:
                session.send("Target.sendMessageToTarget", {"sessionId": event["sessionId"], "message": message})
            except PlaywrightError:  # a worker started while the measured page was closing
                return

    for method, params in emulation:
        session.send(method, params)
    session.on("Target.attachedToTarget", worker_started)
    session.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})


def instrumented(context):
    """``context`` with the long-task observer and the ready message in every page."""
    context.add_init_script(LONG_TASKS)
    context.add_init_script(SAY_READY)
    return context


def measure(context, url, phone=False) -> dict:
    """Time-to-playable, when the lobby was usable and the engine's worker created (Taberna)
    and the longest main-thread task of one visit, under the PHONE profile if ``phone``."""
    page = context.new_page()
    if phone:
        emulate_phone(page)
    visit(page, url)
    figures = {
        "ms": page.evaluate(MARK), "longest_task": page.evaluate(LONGEST), "lobby": page.evaluate(LOBBY),
        "worker": page.evaluate(WORKER),
    }
    page.close()
    return figures


# Chromium's tracing of main-thread tasks (with each task's thread CPU time) and page marks.
TRACE_CATEGORIES = "disabled-by-default-devtools.timeline,blink.user_timing"


def traced_visit(page, url) -> dict:
    """One visit under Chromium's tracing: the page's main-thread tasks until playable, by
    wall-clock time (what the Long Tasks API sees) and by the thread's CPU time. On a busy
    machine a task's wall-clock time also counts the time its thread waited for a core; its
    CPU time is the work the page gave the main thread, whatever the machine's load. Also
    the main thread's work before the lobby was usable: its tasks' CPU time, summed."""
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
    marks = {e["name"]: e for e in events if e.get("name") in ("engine-ready", "lobby-ready") and e.get("ph") in ("I", "R", "n")}
    ready, lobby = marks["engine-ready"], marks["lobby-ready"]
    start = ready["ts"] - ready["args"]["data"]["startTime"] * 1000  # the navigation, in trace time
    threads = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name" and e["args"]["name"] == "CrRendererMain"}
    tasks = [
        e for e in events
        if e.get("name") == "RunTask" and "dur" in e  # a task still open when tracing stopped has none
        and (e["pid"], e["tid"]) in threads and e["pid"] == ready["pid"] and start <= e["ts"] < ready["ts"]
    ]
    before_lobby = [e for e in tasks if e["ts"] < lobby["ts"]]
    return {
        "wall": max(e["dur"] for e in tasks) / 1000,
        "cpu": max(e.get("tdur", 0) for e in tasks) / 1000,
        "over_50_wall": sum(1 for e in tasks if e["dur"] > 50_000),
        "lobby_ms": (lobby["ts"] - start) / 1000,
        "lobby_cpu": sum(e.get("tdur", 0) for e in before_lobby) / 1000,
    }


def traced_loads(browser, driver, url) -> dict:
    """Main-thread tasks of one traced cold and one traced warm load of Taberna, and of one
    traced cold load under the PHONE profile."""
    context = instrumented(browser.new_context())
    try:
        cold_tasks = traced_visit(context.new_page(), url)
    finally:
        context.close()
    context = instrumented(browser.new_context())
    try:
        page = context.new_page()
        emulate_phone(page)
        phone_tasks = traced_visit(page, url)
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
    return {"cold": cold_tasks, "warm": warm_tasks, "phone": phone_tasks}


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


def cold(browser, url, phone=False) -> dict:
    context = instrumented(browser.new_context())
    try:
        return measure(context, url, phone)
    finally:
        context.close()


def warm(driver, url, profile: Path, taberna: bool, phone=False) -> dict:
    """Second visit in one persistent profile (the first visit fills the caches)."""
    context = instrumented(
        driver.chromium.launch_persistent_context(str(profile), executable_path=EXECUTABLE, args=ARGS)
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        visit(page, url)
        settle(page, taberna)
        page.close()
        return measure(context, url, phone)
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


def first_visit_bytes(driver, directory: Path, taberna: bool) -> dict:
    """What the server sent for one whole first visit, gzip as a static host sends it: for
    Taberna until playable and precached for offline with the memory snapshot made, for the
    hello page until Python has run. In a persistent profile (an incognito context keeps no
    9.6 MB WebAssembly in its memory cache, so its service worker would download it again),
    from a server of its own on a port of its own: requests of earlier contexts still in
    flight cannot reach it (once they doubled the count)."""
    sent = []
    server, url = serve(directory, sent=sent)
    try:
        with tempfile.TemporaryDirectory(prefix="taberna-profile-") as profile:
            context = instrumented(
                driver.chromium.launch_persistent_context(profile, executable_path=EXECUTABLE, args=ARGS)
            )
            try:
                page = open_page(context, url)
                settle(page, taberna)
                files = list(sent)
            finally:
                context.close()
    finally:
        server.shutdown()
    return {
        "wire": sum(size for _, size in files),
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


def ratio_rows(figures: dict, goals: dict) -> list:
    """Table rows, cold and warm: Taberna, the hello page, their per-pair ratio, the longest
    main-thread task."""
    rows = []
    for kind, label in (("cold", "cold (empty caches)"), ("warm", "warm (second visit, persistent profile)")):
        taberna, hello = figures[kind]["taberna"], figures[kind]["hello"]
        ratios = [t["ms"] / h["ms"] for t, h in zip(taberna, hello)]
        tasks = [t["longest_task"] for t in taberna]
        worst = max(tasks)
        rows.append(
            f"| {label} | {spread([t['ms'] for t in taberna], 1e-3, ' s')} "
            f"| {spread([h['ms'] for h in hello], 1e-3, ' s')} | {spread(ratios, unit='×')} (goal ≤ {goals[kind]}) "
            f"| {'none over 50 ms' if worst == 0 else f'{worst:.0f} ms (over 50 ms in {sum(1 for t in tasks if t)} of {len(tasks)} loads)'} |"
        )
    return rows


TABLE_HEAD = [
    "| | Taberna playable | bare Pyodide hello | Taberna / hello | longest main-thread task (goal < 50 ms) |",
    "|---|---|---|---|---|",
]


def report(figures: dict, phone: dict, lobby: dict, visits: dict, speed: dict, traced: dict, args) -> str:
    load = os.getloadavg()[0]
    taberna, hello = visits["taberna"], visits["hello"]
    lines = [
        f"Browser figures (`python bench/load_time.py --runs {args.runs} --phone-runs {args.phone_runs}`, "
        f"{time.strftime('%Y-%m-%d')}, Debian Chromium headless, 2-core machine shared with other jobs, "
        f"load {load:.1f} at the end of the run; interleaved pairs, median (min–max)).",
    ]
    if args.runs:
        lines += ["", f"Loopback ({args.runs} pairs):", "", *TABLE_HEAD, *ratio_rows(figures, {"cold": 0.5, "warm": 0.4})]
    if args.phone_runs:
        lobby_ms = [t["lobby"] for t in phone["cold"]["taberna"]]
        worker_ms = [t["worker"] for t in phone["cold"]["taberna"]]
        lines += [
            "",
            f"Phone profile ({args.phone_runs} pairs; Chromium's emulation on the page and its workers: "
            f"{PHONE['down_mbit']} Mbit/s down, {PHONE['up_mbit']} up, {PHONE['rtt_ms']} ms round trip, "
            f"CPU {PHONE['cpu_slowdown']}× slower; gzip on the wire):",
            "",
            *TABLE_HEAD,
            *ratio_rows(phone, {"cold": 0.7, "warm": 0.4}),
            "",
            f"* Phone profile, cold: the lobby usable at {spread(lobby_ms, 1e-3, ' s')} (goal ≤ 1 s); the "
            f"engine's worker created at {spread(worker_ms, 1e-3, ' s')}. One traced cold load: the lobby "
            f"usable at {traced['phone']['lobby_ms'] / 1e3:.2f} s after {traced['phone']['lobby_cpu']:.0f} ms "
            "of the main thread's CPU time (its tasks until then, summed).",
        ]
    lines += [
        "",
        f"* A whole first visit, bytes on the wire (gzip as a static host sends it): Taberna "
        f"{taberna['wire'] / 1e6:.2f} MB in {taberna['responses']} responses (until playable, precached for "
        f"offline and the memory snapshot made), the hello page {hello['wire'] / 1e6:.2f} MB in "
        f"{hello['responses']} responses: **{taberna['wire'] / hello['wire']:.2f}×** (goal ≤ 1.0).",
        f"* Before the lobby is usable: {lobby['bytes'] / 1024:.0f} KB received in {len(lobby['files'])} "
        f"responses (on the wire); lobby ready at {lobby['ms']:.0f} ms (loopback).",
        "* Main-thread tasks of one traced cold and one traced warm load (Chromium's tracing, "
        "navigation to playable): longest by the thread's CPU time "
        f"{traced['cold']['cpu']:.0f} ms cold, {traced['warm']['cpu']:.0f} ms warm; by wall-clock time "
        f"{traced['cold']['wall']:.0f} ms and {traced['warm']['wall']:.0f} ms "
        f"({traced['cold']['over_50_wall']} and {traced['warm']['over_50_wall']} tasks over 50 ms).",
        f"* Perudo random 4-seat games in Pyodide: {speed['games_per_second']:.1f} games/s "
        f"({speed['games']} games in {speed['seconds']:.1f} s).",
    ]
    return "\n".join(lines)


def interleaved(runs: int, pages: dict, browser, driver, phone=False) -> dict:
    """``runs`` pairs of cold and warm loads of each page, the order alternating so that
    neither page always runs on a warmer machine."""
    figures = {"cold": {name: [] for name in pages}, "warm": {name: [] for name in pages}}
    for run in range(runs):
        order = list(pages.items())
        if run % 2:
            order.reverse()
        for name, url in order:
            figures["cold"][name].append(cold(browser, url, phone))
            with tempfile.TemporaryDirectory(prefix="taberna-profile-") as profile:
                figures["warm"][name].append(warm(driver, url, Path(profile), name == "taberna", phone))
        latest = {kind: {name: round(v[-1]["ms"]) for name, v in d.items()} for kind, d in figures.items()}
        print(f"{'phone' if phone else 'loopback'} run {run + 1}/{runs}: {json.dumps(latest)}", flush=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--phone-runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    # A private build: a rebuild of dist/ elsewhere must not change files mid-measurement.
    site_dir = build(Path(tempfile.mkdtemp(prefix="taberna-bench-")) / "dist")["path"]
    folders = {"taberna": site_dir, "hello": hello_site()}
    site_server, site = serve(folders["taberna"])
    hello_server, hello = serve(folders["hello"])
    pages = {"taberna": site, "hello": hello}

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=EXECUTABLE, args=ARGS)
        figures = interleaved(args.runs, pages, browser, driver)
        phone = interleaved(args.phone_runs, pages, browser, driver, phone=True)
        lobby = lobby_bytes(browser, site)
        visits = {name: first_visit_bytes(driver, folder, name == "taberna") for name, folder in folders.items()}
        traced = traced_loads(browser, driver, site)
        speed = pyodide_speed(browser, site, args.games)
        browser.close()
    site_server.shutdown()
    hello_server.shutdown()

    text = report(figures, phone, lobby, visits, speed, traced, args)
    print()
    print(text)
    print("\nlobby files:", *(f"  {size:>8}  {name}" for name, size in lobby["files"]), sep="\n")
    for name, visit_bytes in visits.items():
        print(f"\nlargest files of a first visit ({name}, on the wire):",
              *(f"  {size:>8}  {path}" for path, size in visit_bytes["largest"]), sep="\n")
    print("\nlong tasks (ms):", json.dumps({k: [round(t["longest_task"]) for t in d["taberna"]] for k, d in figures.items()}))
    if not args.no_write:
        write_results(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
