"""Bench scripts in Pyodide: the pinned Pyodide's CPython under Node (the runtime
``python build.py`` unpacks into .cache/ to compile the worker's bytecode), the WebAssembly
interpreter the site's worker runs, without a browser around it.

``run("bench/x.py", argv)`` runs that script there with ``argv`` (the repository mounted at
/repo); ``cpu_seconds()`` is the clock such a script times itself with.
"""

import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

NODE_SCRIPT = """
import { pathToFileURL } from "node:url";
const [runtime, repo, script, argv] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(runtime + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: runtime + "/" });
pyodide.FS.mkdirTree("/repo");
pyodide.mountNodeFS("/repo", repo);
pyodide.globals.set("bench_script", script);
pyodide.globals.set("bench_argv", JSON.parse(argv));
pyodide.runPython(`
import runpy, sys
sys.argv = [bench_script, *bench_argv]
sys.path.insert(0, "/repo")
runpy.run_path("/repo/" + bench_script, run_name="__main__")
`);
"""


def run(script: str, argv: list) -> None:
    """Runs ``script`` (a path from the repository's root) with ``argv`` in Pyodide under Node."""
    runtimes = sorted((ROOT / ".cache").glob("pyodide-node-*/pyodide.mjs"))
    if not runtimes:
        sys.exit("no Pyodide for Node in .cache/: run `python build.py` once")
    subprocess.run(
        ["node", "--input-type=module", "-e", NODE_SCRIPT, str(runtimes[-1].parent), str(ROOT), script, json.dumps(argv)],
        check=True,
    )


def cpu_seconds() -> float:
    """CPU time of this process: under Pyodide, Node's own count (``process.cpuUsage``),
    since the interpreter's clocks there are the wall clock."""
    if sys.platform == "emscripten":
        from js import process  # the Node process hosting Pyodide

        usage = process.cpuUsage()
        return (usage.user + usage.system) / 1e6
    return time.process_time()
