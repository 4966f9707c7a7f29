"""The Python packages the worker runs: pyengine's wheel, built here reproducibly, and the
pinned third-party wheels it unpacks beside it."""

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from buildtools.pypi_tools import build_tools
from buildtools.workspace import CACHE, ROOT, file_hash, log

# The time stamped on every file of the wheel (1980-01-01, the earliest a zip can hold): with
# it, an unchanged package gives a byte-identical wheel, whenever and wherever it is built.
WHEEL_EPOCH = "315532800"


# Pure-Python wheels the worker unpacks beside pyengine (segno draws the invite QR codes),
# fetched with pip from PyPI and checked against these hashes.
WORKER_WHEELS = {
    "segno-1.6.6-py3-none-any.whl": "28c7d081ed0cf935e0411293a465efd4d500704072cdb039778a2ab8736190c7",
}


def build_wheel(out_dir: Path, source: Path = ROOT) -> Path:
    """Builds the pyengine wheel with pip and the build backend pyproject.toml declares, and
    returns its path in ``out_dir``.

    The backend works on a fresh copy of ``pyproject.toml`` and ``pyengine/`` (in-tree builds
    leave ``build/`` behind, whose stale modules would end up in the next wheel). A fixed
    SOURCE_DATE_EPOCH makes the build reproducible: an unchanged package gives a byte-identical
    wheel, hence an unchanged hash in the service worker's list, so browsers keep their copy.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pyengine-wheel-") as scratch:
        copy = Path(scratch) / "src"
        shutil.copytree(source / "pyengine", copy / "pyengine", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        shutil.copyfile(source / "pyproject.toml", copy / "pyproject.toml")
        # Data files keep their mode in the wheel, and a checkout's modes depend on its umask.
        for path in copy.rglob("*"):
            if path.is_file():
                path.chmod(0o644)
        built = Path(scratch) / "wheel"
        env = {**os.environ, "PYTHONPATH": str(build_tools()), "SOURCE_DATE_EPOCH": WHEEL_EPOCH}
        subprocess.run(
            [
                sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
                "--no-build-isolation", "--wheel-dir", str(built), str(copy),
            ],
            check=True,
            env=env,
        )
        (wheel,) = built.glob("*.whl")
        return Path(shutil.copy(wheel, out_dir / wheel.name))


def pinned_wheel(name: str, digest: str) -> Path:
    """The PyPI wheel ``name``, downloaded once into .cache/wheels/ and checked against its
    pinned sha256 ``digest``."""
    path = CACHE / "wheels" / name
    if not path.exists():
        if importlib.util.find_spec("pip") is None:
            sys.exit("pip is needed to fetch pinned wheels (on Debian: apt-get install python3-pip)")
        project, version = name.split("-")[:2]
        log(f"fetching {project}=={version} with pip")
        subprocess.run(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                "--only-binary=:all:", "--dest", str(path.parent), f"{project}=={version}",
            ],
            check=True,
        )
    if file_hash(path) != digest:
        path.unlink()
        sys.exit(f"{name} does not have the pinned sha256; removed it, run the build again")
    return path


def worker_wheels() -> list:
    """The pinned third-party wheels for the worker."""
    return [pinned_wheel(name, digest) for name, digest in WORKER_WHEELS.items()]
