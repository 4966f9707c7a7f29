"""What the tests need (pytest, the Playwright driver, Debian's chromium and mosquitto),
installed when missing, and the test run itself."""

import os
import subprocess
import sys
from pathlib import Path

from buildtools.chromium import EXECUTABLE
from buildtools.workspace import ROOT, log

MOSQUITTO = Path("/usr/sbin/mosquitto")

# Module name -> pip requirement (segno: the worker's QR codes, tested in CPython too; xdist:
# the suite runs in several processes; rbcl: libsodium's ristretto255 for fair card tables, which the
# browser gets from libsodium-wrappers-sumo).
TEST_PACKAGES = {
    "pytest": "pytest",
    "xdist": "pytest-xdist",
    "playwright": "playwright",
    "segno": "segno==1.6.6",
    "rbcl": "rbcl==1.1.2",
}
# Three processes on the 2-core development machine: a browser test spends most of its time
# waiting (bots keep a pace, peers connect), and the suite kept the two cores less than half
# busy with two. A process that runs out of tests takes some from another's queue, so a long
# test near the end of one queue leaves no core idle.
TEST_WORKERS = ["-n", "3", "--dist", "worksteal"]


def _has_modules(python: str) -> bool:
    probe = "import importlib.util, sys; sys.exit(any(importlib.util.find_spec(m) is None for m in sys.argv[1:]))"
    return subprocess.run([python, "-c", probe, *TEST_PACKAGES]).returncode == 0


def test_python() -> str:
    """An interpreter with pytest, segno, rbcl and the Playwright driver (the pip package; its bundled
    browsers are never downloaded: the tests drive Debian's chromium).

    This interpreter if it has them or pip may add them; otherwise a ``.venv/`` that sees the
    system packages (a distribution's Python refuses pip installs, PEP 668).
    """
    if _has_modules(sys.executable):
        return sys.executable
    requirements = list(TEST_PACKAGES.values())
    log(f"installing {', '.join(requirements)} with pip")
    if subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *requirements]).returncode == 0:
        return sys.executable
    venv = ROOT / ".venv"
    python = venv / "bin" / "python"
    if not python.exists():
        log("pip refused: creating .venv/")
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    if not _has_modules(str(python)):
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *requirements], check=True)
    return str(python)


def install_debian_tools() -> None:
    """Debian's chromium (the browser tests) and mosquitto (their loopback relay) through
    apt-get, when they are not there yet."""
    missing = [name for name, path in (("chromium", Path(EXECUTABLE)), ("mosquitto", MOSQUITTO)) if not path.exists()]
    if not missing:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    log(f"installing Debian's {' and '.join(missing)} with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([*sudo, "apt-get", "update"], check=True, env=env)
    subprocess.run([*sudo, "apt-get", "install", "-y", "--no-install-recommends", *missing], check=True, env=env)


def run_pytest(python: str, pytest_args: list) -> int:
    """pytest's exit status, run in TEST_WORKERS processes unless ``pytest_args`` say otherwise."""
    status = subprocess.run([python, "-m", "pytest", "-q", *TEST_WORKERS, *pytest_args], cwd=ROOT).returncode
    if status == 5:
        log("pytest collected no tests (exit 5): nothing failed, nothing ran")
        return 0
    return status
