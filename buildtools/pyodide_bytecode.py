"""Bytecode for the worker, compiled by the CPython that runs in the browser (build.py).

Run inside Pyodide under Node (``pyodide_bytecode.mjs``) with the job folder at /job:
``job.json`` names the standard library zip, the wheels the worker unpacks and the worker
script; this writes ``out/stdlib.zip``, ``out/packages.tar.gz`` and ``out/report.json``.

Only what runs is shipped, and only once:
* The standard library is cut down to the modules the worker can import: those Pyodide's
  start-up imported here, then those the worker script, every module of the wheels, every
  module they name in an import statement (even inside a function, like segno for an
  invite's QR code) and a call of each kind (lobby, seeded games, a QR code) import.
  ``tests/browser/test_startup_browser.py`` checks in Chromium that nothing the worker
  asks for is missing. Every module is shipped as bytecode only: compiling source is most
  of Python's start-up, and a phone pays it four times over.
* The wheels' modules are shipped as bytecode only (``<name>.pyc`` where the source was),
  with their data files but those the worker never reads (styles and art, which the build
  puts into the page, type stubs).

Every ``.pyc`` is an unchecked hash-based one (PEP 552): the import system trusts it
without looking at a source file or a timestamp. It is compiled as ``python -OO`` would
(no docstrings: nothing of ours, segno's or Pyodide's needs them; no asserts: ours have
none), and ``pyodide_bytecode.mjs`` runs Python without column ranges in code objects
(``PYTHONNODEBUGRANGES``): tracebacks keep file, line and function, without the ``^^^``
under the expression, and the bytecode is a quarter smaller. Code objects carry the paths
the modules have in the browser (our modules' as their source's), so tracebacks point at
the right file and line.
"""
import ast
import gzip
import importlib.util
import io
import json
import os
import sys
import tarfile
import types
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

JOB = "/job"
ZIP_TIME = (2024, 1, 1, 0, 0, 0)
STDLIB_PATH = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
SITE_PACKAGES = f"/lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages"
PROBE_DIR = "/tmp/probe-site"
OPTIMIZE = 2  # as python -OO: no docstrings, no asserts
# Package data the worker never reads: styles and art go into the page, stubs are for editors.
UNREAD_DATA = (".css", ".svg", ".pyi", ".typed", ".1")


def pyc(source: bytes, filename: str) -> bytes:
    code = compile(source, filename, "exec", dont_inherit=True, optimize=OPTIMIZE)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def loaded_files() -> dict:
    """``{module name: file}`` of every module imported so far."""
    files = {name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())}
    return {name: path for name, path in files.items() if isinstance(path, str)}


def named_imports(path: str) -> set:
    """The absolute module names an import statement anywhere in ``path`` names (function
    bodies too: those run only when first used)."""
    with open(path, "rb") as handle:
        tree = ast.parse(handle.read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.add(node.module)
    return names


def try_import(module: str) -> None:
    try:
        importlib.import_module(module)
    except Exception:  # noqa: BLE001 - what cannot load here (another platform's) cannot in the browser
        pass


def probe_imports(wheels: list, worker: str) -> tuple:
    """Files of the standard library that the worker can import, and the names of the
    packages' modules the worker script imports (what a memory snapshot imports ahead,
    engine-files.mjs). See the module's docstring for what is run to find them."""
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(PROBE_DIR)
    sys.path.insert(0, PROBE_DIR)
    sync = types.SimpleNamespace()
    sys.modules["polyscript"] = types.SimpleNamespace(xworker=types.SimpleNamespace(sync=sync))
    with open(worker, encoding="utf-8") as handle:
        exec(compile(handle.read(), "worker.py", "exec"), {"__name__": "__worker__"})
    lobby = json.loads(sync.lobby("en"))  # the page's first call
    ours = sorted(name for name, path in loaded_files().items() if path.startswith(PROBE_DIR + "/"))
    exercise(sync, [game["id"] for game in lobby["games"] if game["playable"]])
    named = set()
    for root, folders, names in os.walk(PROBE_DIR):
        folders[:] = sorted(f for f in folders if f.isidentifier())  # no dist-info, no data
        package = os.path.relpath(root, PROBE_DIR).replace(os.sep, ".")
        for name in sorted(names):
            if name.endswith(".py") and package != ".":
                try_import(package if name == "__init__.py" else f"{package}.{name[:-3]}")
                named |= named_imports(os.path.join(root, name))
    for module in sorted(named):
        try_import(module)
    prefix = STDLIB_PATH + "/"
    stdlib = {path[len(prefix):] for path in loaded_files().values() if path.startswith(prefix)}
    return stdlib, ours


def exercise(sync, games: list) -> None:
    """Calls that import on first use: a seeded game of every playable game, a QR code."""
    sync.selftest(json.dumps({"games": games, "seeds": [0]}))
    sync.net_qr("https://example.org/#invite")


def write_stdlib(source_zip: str, imported: set, out: str) -> dict:
    """Only the imported modules, as bytecode."""
    with zipfile.ZipFile(source_zip) as source, zipfile.ZipFile(out, "w", compresslevel=9) as target:
        for name in sorted(imported):
            target.writestr(entry(name + "c"), pyc(source.read(name), f"{STDLIB_PATH}/{name}"))
    return {"compiled": len(imported)}


def write_packages(wheels: list, out: str) -> dict:
    """One gzipped tar (ustar) of every wheel's modules as bytecode and the data files the
    worker reads: the browser unpacks it with its own DecompressionStream and a few lines of
    JavaScript (engine.mjs), much faster than Python unzipping it at start-up."""
    compiled, names = 0, set()

    def add(archive, name: str, data: bytes) -> None:
        info = tarfile.TarInfo(name)
        info.size, info.mode = len(data), 0o644
        archive.addfile(info, io.BytesIO(data))

    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as packed:
        with tarfile.open(fileobj=packed, mode="w", format=tarfile.USTAR_FORMAT) as target:
            for wheel in wheels:
                with zipfile.ZipFile(wheel) as source:
                    for info in source.infolist():
                        name = info.filename
                        if info.is_dir() or name in names or name.endswith(UNREAD_DATA):
                            continue
                        names.add(name)
                        data = source.read(info)
                        if name.endswith(".py"):
                            add(target, name + "c", pyc(data, f"{SITE_PACKAGES}/{name}"))
                            compiled += 1
                        else:
                            add(target, name, data)
    return {"compiled": compiled}


def main() -> None:
    with open(f"{JOB}/job.json", encoding="utf-8") as handle:
        job = json.load(handle)
    if STDLIB_PATH not in sys.path or SITE_PACKAGES not in sys.path:
        raise SystemExit(f"unexpected sys.path {sys.path}: the worker would not find the bytecode")
    if any(column is not None for *_, column in compile("x", "x", "eval").co_positions()):
        raise SystemExit("column ranges are on: run with PYTHONNODEBUGRANGES=1 (pyodide_bytecode.mjs)")
    os.makedirs(f"{JOB}/out", exist_ok=True)
    wheels = [f"{JOB}/{name}" for name in job["wheels"]]
    imported, warm_imports = probe_imports(wheels, f"{JOB}/{job['worker']}")
    report = {
        "python": ".".join(map(str, sys.version_info[:3])),
        "magic": importlib.util.MAGIC_NUMBER.hex(),
        "cache_tag": sys.implementation.cache_tag,
        "stdlib_path": STDLIB_PATH,
        "site_packages": SITE_PACKAGES,
        "warm_imports": warm_imports,
        "stdlib": write_stdlib(f"{JOB}/{job['stdlib']}", imported, f"{JOB}/out/stdlib.zip"),
        "packages": write_packages(wheels, f"{JOB}/out/packages.tar.gz"),
    }
    with open(f"{JOB}/out/report.json", "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=1)


main()
