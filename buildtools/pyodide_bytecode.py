"""Bytecode for the worker, compiled by the CPython that runs in the browser (build.py).

Run inside Pyodide under Node (``pyodide_bytecode.mjs``) with the job folder at /job:
``job.json`` names the standard library zip, the wheels the worker unpacks and the worker
script; this writes ``out/stdlib.zip``, ``out/packages.tar.gz`` and ``out/report.json``.

* The wheels' modules all get a ``__pycache__/<name>.<cache tag>.pyc`` beside their source
  (the source stays, so tracebacks in our code show their lines).
* The standard library keeps its layout, but every module the worker imports at start-up
  (found by running the worker script here, with a stand-in for PyScript's ``polyscript``)
  is shipped as ``.pyc`` instead of ``.py``: compiling those is most of Python's start-up,
  and the modules nobody imports stay small as source. Tracebacks through them still name
  the file, line and function.

Every ``.pyc`` is an unchecked hash-based one (PEP 552): the import system trusts it
without looking at a source file or a timestamp. Code objects carry the paths the modules
have in the browser, so tracebacks point where the import system found them.
"""

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


def pyc(source: bytes, filename: str) -> bytes:
    code = compile(source, filename, "exec", dont_inherit=True, optimize=0)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def folder(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.CRC = info.compress_size = info.file_size = 0
    info.external_attr = (0o40755 << 16) | 0x10
    return info


def loaded_files() -> dict:
    """``{module name: file}`` of every module imported so far."""
    files = {name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())}
    return {name: path for name, path in files.items() if isinstance(path, str)}


def probe_imports(wheels: list, worker: str) -> tuple:
    """Files of the standard library that the worker can import (running the worker script,
    then importing every module of the packages, since some import theirs only when first
    used, like segno for an invite's QR code), and the names of the packages' modules the
    worker script imports (what a memory snapshot imports ahead, engine-files.mjs)."""
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(PROBE_DIR)
    sys.path.insert(0, PROBE_DIR)
    sync = types.SimpleNamespace()
    sys.modules["polyscript"] = types.SimpleNamespace(xworker=types.SimpleNamespace(sync=sync))
    with open(worker, encoding="utf-8") as handle:
        exec(compile(handle.read(), "worker.py", "exec"), {"__name__": "__worker__"})
    if callable(getattr(sync, "lobby", None)):
        sync.lobby("en")  # the page's first call
    ours = sorted(name for name, path in loaded_files().items() if path.startswith(PROBE_DIR + "/"))
    for root, folders, names in os.walk(PROBE_DIR):
        folders[:] = sorted(f for f in folders if f.isidentifier())  # no dist-info, no data
        package = os.path.relpath(root, PROBE_DIR).replace(os.sep, ".")
        for name in sorted(names):
            if name.endswith(".py") and package != ".":
                module = package if name == "__init__.py" else f"{package}.{name[:-3]}"
                try:
                    importlib.import_module(module)
                except Exception:  # noqa: BLE001 - a module that cannot load here is compiled in the browser
                    pass
    prefix = STDLIB_PATH + "/"
    stdlib = {path[len(prefix):] for path in loaded_files().values() if path.startswith(prefix)}
    return stdlib, ours


def write_stdlib(source_zip: str, imported: set, out: str) -> dict:
    compiled = 0
    with zipfile.ZipFile(source_zip) as source, zipfile.ZipFile(out, "w", compresslevel=9) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename in imported:
                target.writestr(entry(info.filename + "c"), pyc(data, f"{STDLIB_PATH}/{info.filename}"))
                compiled += 1
            elif info.is_dir():
                target.mkdir(folder(info.filename))
            else:
                target.writestr(entry(info.filename), data)
    return {"compiled": compiled}


def write_packages(wheels: list, out: str) -> dict:
    """One gzipped tar (ustar) of every wheel's files plus their bytecode: the browser
    unpacks it with its own DecompressionStream and a few lines of JavaScript (engine.mjs),
    much faster than Python unzipping it at start-up."""
    tag = sys.implementation.cache_tag
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
                        if info.is_dir() or info.filename in names:
                            continue
                        names.add(info.filename)
                        data = source.read(info)
                        add(target, info.filename, data)
                        if info.filename.endswith(".py"):
                            folder, _, name = info.filename.rpartition("/")
                            cached = f"{folder}/__pycache__/{name[:-3]}.{tag}.pyc".lstrip("/")
                            add(target, cached, pyc(data, f"{SITE_PACKAGES}/{info.filename}"))
                            compiled += 1
    return {"compiled": compiled}


def main() -> None:
    with open(f"{JOB}/job.json", encoding="utf-8") as handle:
        job = json.load(handle)
    if STDLIB_PATH not in sys.path or SITE_PACKAGES not in sys.path:
        raise SystemExit(f"unexpected sys.path {sys.path}: the worker would not find the bytecode")
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
