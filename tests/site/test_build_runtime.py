"""build.py's start-up parts: bytecode compiled by Pyodide's own Python, the served runtime
files, and the checks that fail the build when they would not work in the browser."""

import gzip
import json
import re
import subprocess
import tarfile
import textwrap
import zipfile

import pytest

from buildtools import runtime
from buildtools.assemble import build


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build(tmp_path_factory.mktemp("runtime") / "dist")


@pytest.fixture(scope="module")
def site(built):
    return built["path"]


@pytest.fixture(scope="module")
def compiled(built):
    """The compiler's output folder (stdlib.zip, packages.tar.gz, report.json) for this build."""
    return built["bytecode"]


def test_the_worker_gets_bytecode_for_the_runtime_it_runs_on(site, compiled):
    report = runtime.check_bytecode(compiled, site / "pyodide")
    lock = json.loads((site / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert report["python"] == lock["info"]["python"]
    assert lock["packages"] == {}  # the worker loads none of Pyodide's distribution
    with zipfile.ZipFile(site / "runtime" / "stdlib.zip") as stdlib:
        names = set(stdlib.namelist())
    # What Python's start-up imports comes as bytecode only; what nobody imports is left out.
    for module in ("os.pyc", "json/__init__.pyc", "asyncio/base_events.pyc", "_pyodide/_base.pyc"):
        assert module in names
    assert not [n for n in names if not n.endswith(".pyc")]
    assert not [n for n in names if n.startswith(("unittest/", "pydoc", "xmlrpc/", "multiprocessing/"))]
    # Also what our packages import only when first used (segno, for an invite's QR code).
    assert "urllib/request.pyc" in names
    assert not (site / "pyodide" / "python_stdlib.zip").exists()
    with tarfile.open(site / "runtime" / "packages.tar.gz") as packages:
        shipped = set(packages.getnames())
    for module in ("pyengine/shell/reply", "pyengine/core/table", "segno/encoder"):
        assert f"{module}.pyc" in shipped and f"{module}.py" not in shipped  # bytecode, once
    assert not [n for n in shipped if n.endswith(".py") or "__pycache__" in n]
    assert "pyengine/i18n/compiled/en.mo" in shipped  # data the worker reads stays
    assert not [n for n in shipped if n.endswith((".css", ".svg"))]  # the page's, not the worker's
    engine = (site / "engine-files.mjs").read_text(encoding="utf-8")
    assert f'const SITE_PACKAGES = "{report["site_packages"]}";' in engine


def test_the_archives_are_served_as_compiled_in_fewer_bytes(site, compiled):
    """Recompressed by Zopfli (buildtools/transit.py): the same entries, names, times and
    contents, a valid archive, and smaller than zlib made it."""
    with zipfile.ZipFile(compiled / "stdlib.zip") as made, zipfile.ZipFile(site / "runtime" / "stdlib.zip") as served:
        assert served.testzip() is None
        assert [(i.filename, i.date_time) for i in served.infolist()] == [(i.filename, i.date_time) for i in made.infolist()]
        assert all(served.read(name) == made.read(name) for name in made.namelist())
    made, served = (gzip.decompress((folder / "packages.tar.gz").read_bytes()) for folder in (compiled, site / "runtime"))
    assert served == made
    for name in ("stdlib.zip", "packages.tar.gz"):
        assert (site / "runtime" / name).stat().st_size < (compiled / name).stat().st_size


def test_a_wrong_magic_number_fails_the_build(site, compiled, tmp_path):
    report = json.loads((compiled / "report.json").read_text(encoding="utf-8"))
    folder = tmp_path / "compiled"
    folder.mkdir()
    (folder / "report.json").write_text(json.dumps(report), encoding="utf-8")
    with tarfile.open(folder / "packages.tar.gz", "w:gz"):
        pass
    with zipfile.ZipFile(compiled / "stdlib.zip") as source, zipfile.ZipFile(folder / "stdlib.zip", "w") as target:
        name = next(n for n in source.namelist() if n.endswith(".pyc"))
        data = bytearray(source.read(name))
        data[0] ^= 0xFF  # another Python's magic number
        target.writestr(name, bytes(data))
    with pytest.raises(SystemExit, match="magic"):
        runtime.check_bytecode(folder, site / "pyodide")
    report["python"] = "3.13.0"
    (folder / "report.json").write_text(json.dumps(report), encoding="utf-8")
    with pytest.raises(SystemExit, match="3.13.0"):
        runtime.check_bytecode(folder, site / "pyodide")


def test_only_the_pyscript_chunks_the_page_loads_are_served(site, tmp_path):
    served = sorted(p.name for p in (site / "pyscript").iterdir())
    assert "core.js" in served
    stems = {n[: -len(".js")] if n == "core.js" else n.rpartition("-")[0] for n in served}
    assert stems == set(runtime.PYSCRIPT_CHUNKS)
    # The editor's, terminal's, TOML's and packages' own chunks are left out.
    assert not [n for n in served if n.startswith(("codemirror", "xterm", "toml", "zip", "pyodide_graph", "mpy"))]
    assert not [n for n in served if n.endswith(".css")]
    text = (site / "sw.js").read_text(encoding="utf-8")
    precache = json.loads(re.search(r"const PRECACHE = (\{.*?\});", text, re.S).group(1))
    assert {f"pyscript/{n}" for n in served} <= set(precache)
    assert not [p for p in precache if p.startswith("pyscript/") and p[len("pyscript/"):] not in served]
    # A served chunk that imports one the build left out fails the build.
    (tmp_path / "a.js").write_text('import{x}from"./b-123.js";export{x};', encoding="utf-8")
    with pytest.raises(SystemExit, match="b-123.js"):
        runtime.check_pyscript_chunks(tmp_path)
    (tmp_path / "b-123.js").write_text("export const x=1;", encoding="utf-8")
    runtime.check_pyscript_chunks(tmp_path)


def test_the_page_switches_off_every_plugin_whose_chunk_is_not_served(site):
    """PyScript's core imports each plugin's chunk at start unless the page's configuration
    (<py-config>, <mpy-config>) names it with "!": every plugin the core knows is off, so
    the page never asks for a chunk the build left out."""
    (core,) = (site / "pyscript").glob("core-*.js")
    plugins = set(re.findall(r'"?([\w-]+)"?:\(\)=>import\("\./[\w-]+\.js"\)', core.read_text(encoding="utf-8")))
    assert {"error", "py-editor", "py-terminal"} <= plugins
    page = (site / "index.html").read_text(encoding="utf-8")
    for kind in ("py", "mpy"):
        (config,) = re.findall(rf"<{kind}-config hidden>(.*?)</{kind}-config>", page, re.S)
        assert {f"!{name}" for name in plugins} <= set(json.loads(config)["plugins"])


# Runs in Pyodide under Node with the site's own runtime files and engine-files.mjs, as the
# worker would; "python" unpacks as a browser without DecompressionStream does.
IMPORT_CHECK = textwrap.dedent(
    """
    import { readFileSync } from "node:fs";
    const [runtime, site, unpacker] = process.argv.slice(2);
    const { loadPyodide } = await import(runtime + "/pyodide.mjs");
    const engine = await import(site + "/engine-files.mjs");
    const pyodide = await loadPyodide({ indexURL: runtime + "/", stdLibURL: site + "/runtime/stdlib.zip" });
    if (unpacker === "python") delete globalThis.DecompressionStream;
    const archive = new Uint8Array(readFileSync(site + "/runtime/packages.tar.gz"));
    const packages = await engine.unpackPackages(archive);
    if (Boolean(packages.gzip) !== (unpacker === "python")) throw new Error("wrong unpacker");
    engine.writePackages(pyodide, packages);
    console.log(pyodide.runPython(readFileSync(0, "utf8")));
    """
)
PYTHON_CHECK = textwrap.dedent(
    """
    import importlib.machinery, json, sys, traceback
    def refuse(*args, **kwargs):
        raise AssertionError("compiled from source")
    # Any module of ours compiled from source instead of loaded from bytecode fails here.
    importlib.machinery.SourceFileLoader.source_to_code = refuse
    import json as json_module
    from pyengine.shell import reply
    import segno
    try:
        reply.parse_json("{")  # raises inside our code
    except Exception:
        text = traceback.format_exc()
    json.dumps({"reply": reply.__file__, "json": json_module.__file__, "traceback": text, "doc": reply.__doc__,
                "columns": [p[2:] for p in reply.parse_json.__code__.co_positions() if p[2:] != (None, None)]})
    """
)


@pytest.mark.parametrize("unpacker", ["browser", "python"])
def test_the_bytecode_loads_in_pyodide_and_tracebacks_show_our_lines(site, compiled, tmp_path, unpacker):
    node_pyodide = runtime.node_runtime(runtime.fetch_runtime()[runtime.PYODIDE[0]])
    report = json.loads((compiled / "report.json").read_text(encoding="utf-8"))
    script = tmp_path / "check.mjs"
    script.write_text(IMPORT_CHECK, encoding="utf-8")
    run = subprocess.run(
        ["node", str(script), str(node_pyodide), str(site), unpacker],
        input=PYTHON_CHECK, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["reply"] == f"{report['site_packages']}/pyengine/shell/reply.pyc"
    assert result["json"] == "/lib/python314.zip/json/__init__.pyc"
    assert result["doc"] is None  # compiled without docstrings
    assert result["columns"] == []  # compiled without column ranges
    # Tracebacks name our source file, line and function.
    assert re.search(r'pyengine/shell/reply\.py", line \d+, in parse_json', result["traceback"])
