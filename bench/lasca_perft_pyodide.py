"""Lasca perft in the browser: the same move generator under Pyodide, in Debian Chromium.

    python bench/lasca_perft_pyodide.py [--depth N]

Builds a private copy of the site, loads it headless, and calls the worker's ``perft``
(Lasca's own tool, declared by its package); prints nodes per second per depth, to compare
with bench/lasca_perft.py.
"""

import argparse
import importlib.util
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("taberna_load_time", HERE / "load_time.py")
load_time = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(load_time)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10)
    args = parser.parse_args()
    with load_time.chromium_on_private_site("perft") as (browser, url):
        page = browser.new_page()
        load_time.open_playable(page, url)
        raw = page.evaluate("d => window.taberna.call('perft', JSON.stringify({depth: d}))", args.depth)
    print("depth        nodes   seconds    nodes/s   (Pyodide, Chromium headless)")
    for row in json.loads(raw)["results"]:
        rate = f"{row['nodes'] / row['seconds']:10.0f}" if row["seconds"] > 0.01 else "         -"
        print(f"{row['depth']:5d} {row['nodes']:12d} {row['seconds']:9.3f} {rate}")


if __name__ == "__main__":
    main()
