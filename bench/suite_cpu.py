"""Where the test suite's CPU goes: every test's CPU seconds, its browsers' included.

The suite is CPU-bound on two cores (issue 22), so wall-clock ``--durations`` mislead: a test
that waits on a loaded machine looks as slow as one that computes. This runs the README's
test command with itself as a pytest plugin (``-p suite_cpu``): each pytest process (xdist's
workers too) moves into a cgroup of its own (Linux cgroup v1 ``cpuacct``, as root), so every
process a test starts, Chromium's renderers and the ones that have exited included, is
counted; each test's share is the group's CPU from its set-up to its teardown.

    python bench/suite_cpu.py [pytest args]      # e.g. tests/browser -k friends

Prints CPU by file and the costliest tests; the log (CPU s, wall s, test id) stays in
``.cache/suite_cpu.tsv``.
"""

import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CPUACCT = Path("/sys/fs/cgroup/cpuacct")
LOG_VARIABLE = "TABERNA_SUITE_CPU_LOG"


# --- the plugin: runs inside every pytest process --------------------------------------------------
def _group() -> Path:
    return CPUACCT / f"taberna-suite-{os.getpid()}"


def _usage() -> float:
    return int((_group() / "cpuacct.usage").read_text()) / 1e9


if os.environ.get(LOG_VARIABLE):  # imported by pytest as the plugin (``main`` sets it)
    import pytest

    def pytest_sessionstart(session):
        _group().mkdir(exist_ok=True)
        (_group() / "cgroup.procs").write_text(str(os.getpid()))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        cpu, wall = _usage(), time.monotonic()
        yield
        with open(os.environ[LOG_VARIABLE], "a", encoding="utf-8") as log:
            log.write(f"{_usage() - cpu:.2f}\t{time.monotonic() - wall:.2f}\t{item.nodeid}\n")


# --- the command ---------------------------------------------------------------------------------------
def report(log: Path, top: int = 25) -> None:
    rows = [line.split("\t") for line in log.read_text(encoding="utf-8").splitlines() if line.count("\t") == 2]
    by_file = defaultdict(lambda: [0.0, 0])
    for cpu, _wall, nodeid in rows:
        entry = by_file[nodeid.split("::", 1)[0]]
        entry[0] += float(cpu)
        entry[1] += 1
    total = sum(float(cpu) for cpu, _, _ in rows)
    browser = sum(float(cpu) for cpu, _, nodeid in rows if nodeid.startswith("tests/browser/"))
    print(f"\n{len(rows)} tests, {total / 60:.1f} CPU-minutes ({browser / 60:.1f} in tests/browser)")
    print("\nCPU s  tests  file")
    for name, (cpu, count) in sorted(by_file.items(), key=lambda item: -item[1][0])[:top]:
        print(f"{cpu:6.1f}  {count:5d}  {name}")
    print("\nCPU s  wall s  test")
    for cpu, wall, nodeid in sorted(rows, key=lambda row: -float(row[0]))[:top]:
        print(f"{float(cpu):6.1f}  {float(wall):6.1f}  {nodeid[:140]}")


def main(pytest_args: list) -> int:
    if not os.access(CPUACCT, os.W_OK):
        print(f"{CPUACCT} is not writable: this needs root and cgroup v1's cpuacct controller", file=sys.stderr)
        return 2
    log = ROOT / ".cache" / "suite_cpu.tsv"
    log.parent.mkdir(exist_ok=True)
    log.write_text("")
    path = os.pathsep.join(filter(None, [str(ROOT / "bench"), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, LOG_VARIABLE: str(log), "PYTHONPATH": path}
    status = subprocess.run([sys.executable, "build.py", "test", "-p", "suite_cpu", *pytest_args], cwd=ROOT, env=env).returncode
    for group in CPUACCT.glob("taberna-suite-*"):
        try:
            group.rmdir()
        except OSError:
            pass  # a process still in it
    report(log)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
