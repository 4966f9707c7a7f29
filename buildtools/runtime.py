"""The pinned runtime the page runs: Pyodide and PyScript from the npm registry (only the
files the site serves), and the worker's Python compiled to bytecode by that very Pyodide
under Node (buildtools/pyodide_bytecode.*)."""

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from buildtools.transit import smaller_gzip, smaller_zip
from buildtools.workspace import BUILDTOOLS, CACHE, SITE, built_beside, file_hash, log

# Pinned runtime, fetched with `npm pack` from the npm registry (never committed).
PYODIDE = ("pyodide", "314.0.7")
PYSCRIPT = ("@pyscript/core", "0.7.31")
# Served as they come but the lock file, whose package list is dropped (copy_runtime);
# Pyodide's python_stdlib.zip is replaced by runtime/stdlib.zip (bytecode).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
)

# PyScript's chunks that our page loads (hashed names: matched by the part before the hash):
# the core, and the error plugin's, which the core imports to learn that it is off (the
# page's <py-config> and <mpy-config> switch every plugin off). The other plugins' chunks
# and the editor's, terminal's, TOML's and packages' own (codemirror, xterm, toml, zip,
# pyodide_graph, ≈ 1 MB) load only for features the site does not use: not served.
PYSCRIPT_CHUNKS = ("core", "error")
# The header of an unchecked hash-based .pyc (PEP 552): flags 0b01 after the magic number.
PYC_UNCHECKED_HASH = 1


def _tarball_name(package: str, version: str) -> str:
    return f"{package.lstrip('@').replace('/', '-')}-{version}.tgz"


def fetch_runtime() -> dict:
    """Paths of the pinned runtime's npm tarballs (see ``npm_tarballs``)."""
    return npm_tarballs((PYODIDE, PYSCRIPT))


def npm_tarballs(pins) -> dict:
    """``{package: path}`` of the ``(package, version)`` pins' tarballs, downloaded once into
    .cache/npm/ with `npm pack`."""
    folder = CACHE / "npm"
    folder.mkdir(parents=True, exist_ok=True)
    wanted = {pkg: folder / _tarball_name(pkg, ver) for pkg, ver in pins}
    missing = [f"{pkg}@{ver}" for pkg, ver in pins if not wanted[pkg].exists()]
    if missing:
        if shutil.which("npm") is None:
            sys.exit(f"npm is needed to fetch {' '.join(missing)} (install Node.js / npm)")
        log(f"fetching {' '.join(missing)} from the npm registry")
        subprocess.run(
            ["npm", "pack", "--silent", "--pack-destination", str(folder), *missing],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    for path in wanted.values():
        if not path.exists():
            sys.exit(f"npm pack did not produce {path.name}")
    return wanted


def extract(tarball: Path, keep, dest: Path) -> None:
    """Copies the tarball members that ``keep(relative_name)`` accepts into ``dest``."""
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            if not member.isfile():
                continue
            relative = member.name.split("/", 1)[1]  # drop the leading "package/"
            if not keep(relative):
                continue
            target = dest / Path(relative).name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.extractfile(member).read())


def _pyscript_chunk(name: str) -> bool:
    if not (name.startswith("dist/") and name.count("/") == 1 and name.endswith(".js")):
        return False
    stem = name[len("dist/") : -len(".js")]
    return stem in PYSCRIPT_CHUNKS or stem.rpartition("-")[0] in PYSCRIPT_CHUNKS


def check_pyscript_chunks(folder: Path) -> None:
    """Fails the build if a served chunk imports (statically) one that is not served."""
    served = {p.name for p in folder.glob("*.js")}
    for path in sorted(folder.glob("*.js")):
        for target in re.findall(r"""(?:\bfrom|\bimport)\s*["']\./([\w.-]+\.js)["']""", path.read_text(encoding="utf-8")):
            if target not in served:
                sys.exit(f"pyscript/{path.name} imports {target}, which the build does not serve (PYSCRIPT_CHUNKS)")


def copy_runtime(tarballs: dict, out: Path) -> None:
    extract(tarballs[PYODIDE[0]], lambda name: name in PYODIDE_FILES, out / "pyodide")
    trim_lock(out / "pyodide" / "pyodide-lock.json")
    extract(tarballs[PYSCRIPT[0]], _pyscript_chunk, out / "pyscript")
    check_pyscript_chunks(out / "pyscript")


def trim_lock(path: Path) -> None:
    """Pyodide's lock file without its package list (357 packages, 27 kB gzip): the worker
    loads no package of Pyodide's distribution (ours come unpacked from
    runtime/packages.tar.gz), and Pyodide reads only the lock's ``info`` at start-up."""
    lock = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({"info": lock["info"], "packages": {}}), encoding="utf-8")


def node_runtime(tarball: Path) -> Path:
    """The pinned Pyodide unpacked once into .cache/ for Node (the compiler of our bytecode)."""
    folder = CACHE / f"pyodide-node-{file_hash(tarball)[:12]}"
    if not folder.exists():
        with built_beside(folder) as fresh:
            extract(tarball, lambda name: name in (*PYODIDE_FILES, "python_stdlib.zip", "package.json"), fresh)
    return folder


def compiled_runtime(tarball: Path, wheels: list) -> Path:
    """``.cache/bytecode/<key>/``: stdlib.zip, packages.tar.gz and report.json, made by
    buildtools/pyodide_bytecode.py in the pinned Pyodide's own CPython under Node.

    Keyed by everything that goes in (runtime, wheels, worker script, the tools), so an
    unchanged build costs nothing and a changed one one Node run (≈ 10 s).
    """
    worker = SITE / "worker.py"
    inputs = [tarball, *wheels, worker, *sorted(BUILDTOOLS.glob("pyodide_bytecode.*"))]
    key = hashlib.sha256("".join(p.name + file_hash(p) for p in inputs).encode()).hexdigest()[:16]
    done = CACHE / "bytecode" / key
    if (done / "report.json").exists():
        return done
    if shutil.which("node") is None:
        sys.exit("Node.js is needed to compile the worker's bytecode with Pyodide's own Python")
    runtime = node_runtime(tarball)
    with built_beside(done) as fresh, tempfile.TemporaryDirectory(prefix=f".{key}-job-", dir=done.parent) as scratch:
        job = Path(scratch)
        shutil.copyfile(runtime / "python_stdlib.zip", job / "python_stdlib.zip")
        shutil.copyfile(worker, job / "worker.py")
        for wheel in wheels:
            shutil.copyfile(wheel, job / wheel.name)
        description = {"stdlib": "python_stdlib.zip", "wheels": [w.name for w in wheels], "worker": "worker.py"}
        (job / "job.json").write_text(json.dumps(description), encoding="utf-8")
        log("compiling the worker's bytecode with Pyodide's Python under Node")
        run = subprocess.run(
            ["node", str(BUILDTOOLS / "pyodide_bytecode.mjs"), str(runtime), str(job)], capture_output=True, text=True
        )
        if run.returncode != 0:
            sys.exit(f"compiling the bytecode failed:\n{run.stderr[-4000:]}")
        (job / "out").rename(fresh)
    return done


def check_bytecode(folder: Path, runtime: Path) -> dict:
    """The compiled archives' report, after checking that every .pyc in them carries the
    magic number of the Python that runs in the browser and the unchecked-hash flag; the
    build fails otherwise (a wrong magic number would make the worker fail to import).

    The magic number is the one reported by the pinned runtime that is served (same
    WebAssembly file), and its Python version must be the one ``pyodide-lock.json`` names.
    """
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    lock = json.loads((runtime / "pyodide-lock.json").read_text(encoding="utf-8"))
    if report["python"] != lock["info"]["python"]:
        sys.exit(f"bytecode compiled by Python {report['python']}, the runtime is {lock['info']['python']}")
    magic = bytes.fromhex(report["magic"])
    with zipfile.ZipFile(folder / "stdlib.zip") as stdlib, tarfile.open(folder / "packages.tar.gz") as packages:
        headers = [
            *((f"stdlib.zip/{n}", stdlib.open(n).read(8)) for n in stdlib.namelist() if n.endswith(".pyc")),
            *((f"packages/{m.name}", packages.extractfile(m).read(8)) for m in packages if m.name.endswith(".pyc")),
        ]
    for name, header in headers:
        if header[:4] != magic or int.from_bytes(header[4:8], "little") != PYC_UNCHECKED_HASH:
            sys.exit(f"{name}: magic {header[:4].hex()} (runtime {magic.hex()}) or flags differ")
    return report


def add_bytecode(tarball: Path, wheels: list, stage: Path) -> Path:
    """runtime/stdlib.zip and runtime/packages.tar.gz for the worker (see site/engine.mjs),
    recompressed by Zopfli, and engine-files.mjs filled in; returns the compiler's output folder."""
    compiled = compiled_runtime(tarball, wheels)
    runtime = node_runtime(tarball)
    if file_hash(runtime / "pyodide.asm.wasm") != file_hash(stage / "pyodide" / "pyodide.asm.wasm"):
        sys.exit("the bytecode was compiled by another Pyodide than the one served")
    report = check_bytecode(compiled, runtime)
    (stage / "runtime").mkdir(exist_ok=True)
    for name, smaller in (("stdlib.zip", smaller_zip), ("packages.tar.gz", smaller_gzip)):
        (stage / "runtime" / name).write_bytes(smaller((compiled / name).read_bytes()))
    write_engine_files(stage, report)
    return compiled


def write_engine_files(stage: Path, report: dict) -> None:
    """engine-files.mjs with the names the build knows: where the packages go, what a memory
    snapshot imports ahead, and the key that ties a stored snapshot to everything it
    depends on (the runtime, the bytecode, the packages and the modules that load them)."""
    template = (SITE / "engine-files.mjs").read_text(encoding="utf-8")
    depends = [*sorted((stage / "pyodide").iterdir()), *sorted((stage / "runtime").iterdir())]
    depends += [SITE / "engine.mjs", SITE / "snapshot.mjs"]
    key = hashlib.sha256(
        "".join(file_hash(p) for p in depends).encode() + template.encode() + json.dumps(report).encode()
    ).hexdigest()[:16]
    text = (
        template.replace("__SITE_PACKAGES__", report["site_packages"])
        .replace("__WARM_IMPORTS__", json.dumps(report["warm_imports"]))
        .replace("__SNAPSHOT_KEY__", key)
    )
    (stage / "engine-files.mjs").write_text(text, encoding="utf-8")
