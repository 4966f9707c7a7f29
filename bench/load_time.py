"""Browser benchmark: Taberna's time-to-playable against a bare Pyodide page, in one run.

    python bench/load_time.py [--runs N] [--games N] [--no-write]

Measures, in Debian's Chromium on loopback (the network is not the subject here):
* cold time-to-playable (fresh profile, empty caches) and warm (second visit in a
  persistent profile, so the service worker serves), as the median of ``--runs`` loads,
  for Taberna (``<html data-engine="ready">``) and for a bare Pyodide hello-world page that
  loads the same Pyodide files and runs ``1 + 1``; the ratio is the goal (<= 1.15);
* bytes received before the lobby is usable (every response that ended before the page's
  ``lobby-ready`` mark, uncompressed as served locally; GitHub Pages would gzip them);
* Perudo random games per second in Pyodide (the bridge's ``bench``).

Prints the figures and writes them to bench/results.md (between this script's markers).
Timing runs do not use request routing (it disables the HTTP cache); outside hosts are made
unreachable with host resolver rules instead.
"""

import argparse
import importlib.util
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results.md"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
HELLO = """<!doctype html><html><head><meta charset="utf-8"><title>hello</title></head><body>
<script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";
const py = await loadPyodide();
document.body.textContent = py.runPython("1 + 1");
performance.mark("engine-ready");
document.documentElement.dataset.engine = "ready";
</script></body></html>
"""
READY = "document.documentElement.dataset.engine === 'ready'"
MARK = "performance.getEntriesByName('engine-ready')[0].startTime"


def load_build():
    spec = importlib.util.spec_from_file_location("taberna_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def private_site(name: str):
    """Builds a private copy of the site (a rebuild of dist/ elsewhere must not change files
    mid-measurement) and serves it on loopback: ``(server, url)``."""
    build = load_build()
    site = build.build(Path(tempfile.mkdtemp(prefix=f"taberna-{name}-")) / "dist")["path"]
    return serve(build, site)


def serve(build, directory, prefix="/"):
    server = build.make_server("127.0.0.1", 0, directory, prefix)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def time_to_ready(context, url) -> float:
    """Milliseconds from navigation start to the page's engine-ready mark."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    value = page.evaluate(MARK)
    page.close()
    return value


def cold(browser, url) -> float:
    context = browser.new_context()
    try:
        return time_to_ready(context, url)
    finally:
        context.close()


def warm(driver, url, profile: Path, service_worker: bool) -> float:
    """Second visit in one persistent profile (first visit fills the caches)."""
    context = driver.chromium.launch_persistent_context(str(profile), executable_path="/usr/bin/chromium", args=ARGS)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(url)
        page.wait_for_function(READY, timeout=180_000)
        if service_worker:
            page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        page.close()
        return time_to_ready(context, url)
    finally:
        context.close()


def lobby_bytes(browser, url) -> dict:
    """Bytes of every response that ended before the lobby was usable (fresh profile)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("performance.getEntriesByName('lobby-ready').length > 0", timeout=60_000)
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


def pyodide_speed(browser, url, games: int) -> dict:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(READY, timeout=180_000)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    build = load_build()
    # A private build: a rebuild of dist/ elsewhere must not change files mid-measurement.
    site_dir = build.build(Path(tempfile.mkdtemp(prefix="taberna-bench-")) / "dist")["path"]
    hello_dir = Path(tempfile.mkdtemp(prefix="taberna-hello-"))
    (hello_dir / "index.html").write_text(HELLO, encoding="utf-8")
    (hello_dir / "pyodide").symlink_to(site_dir / "pyodide")
    site_server, site = serve(build, site_dir)
    hello_server, hello = serve(build, hello_dir)

    figures = {"cold": {"taberna": [], "hello": []}, "warm": {"taberna": [], "hello": []}}
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for run in range(args.runs):
            # Alternate the order so neither page always runs on a warmer machine.
            order = [("taberna", site), ("hello", hello)]
            if run % 2:
                order.reverse()
            for name, url in order:
                figures["cold"][name].append(cold(browser, url))
                with tempfile.TemporaryDirectory(prefix="taberna-profile-") as profile:
                    figures["warm"][name].append(warm(driver, url, Path(profile), name == "taberna"))
            print(f"run {run + 1}/{args.runs}: " + json.dumps({k: {n: round(v[-1]) for n, v in d.items()} for k, d in figures.items()}), flush=True)
        lobby = lobby_bytes(browser, site)
        speed = pyodide_speed(browser, site, args.games)
        browser.close()
    site_server.shutdown()
    hello_server.shutdown()

    med = {kind: {name: statistics.median(values) for name, values in d.items()} for kind, d in figures.items()}
    lines = [
        f"Browser figures (`python bench/load_time.py --runs {args.runs} --games {args.games}`, "
        f"{time.strftime('%Y-%m-%d')}, Debian Chromium headless, loopback, 2-core machine; medians):",
        "",
        "| | Taberna ready | bare Pyodide hello | ratio (goal <= 1.15) |",
        "|---|---|---|---|",
    ]
    for kind in ("cold", "warm"):
        t, h = med[kind]["taberna"], med[kind]["hello"]
        lines.append(f"| {kind} time-to-playable | {t / 1000:.2f} s | {h / 1000:.2f} s | {t / h:.2f}x |")
    lines += [
        "",
        f"* Bytes received before the lobby is usable: {lobby['bytes'] / 1024:.0f} KB uncompressed "
        f"in {len(lobby['files'])} responses (goal <= 512 KB); lobby ready at {lobby['ms']:.0f} ms.",
        f"* Perudo random 4-seat games in Pyodide: {speed['games_per_second']:.1f} games/s "
        f"({speed['games']} games in {speed['seconds']:.1f} s).",
    ]
    text = "\n".join(lines)
    print()
    print(text)
    print("\nlobby files:", *(f"  {size:>8}  {name}" for name, size in lobby["files"]), sep="\n")
    if not args.no_write:
        write_results(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
