"""Build, serve and test Taberna.

    python build.py                 build the static site into dist/
    python build.py serve [--port N] [--host H]
                                    build, then serve dist/ on http://127.0.0.1:8000
    python build.py test [pytest args]
                                    install what the tests need, build, run every test

Why a single script with the standard library only: a fresh machine needs nothing but
Python with pip (to fetch the worker's pinned wheels and the build tools: the wheel's build
backend, the icons' SVG renderer), npm (to fetch the pinned runtime and the relay
transport's bundler from the registry) and, for the tests, the packages this script
installs itself.
"""

import argparse
import functools
import hashlib
import http.server
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
SITE = ROOT / "site"
ASSETS = ROOT / "assets"
PACKAGE = ROOT / "pyengine"

# Pinned runtime, fetched with `npm pack` from the npm registry (never committed).
PYODIDE = ("pyodide", "314.0.7")
PYSCRIPT = ("@pyscript/core", "0.7.31")
# Served as they come; Pyodide's python_stdlib.zip is replaced by runtime/stdlib.zip (bytecode).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
)
# The time stamped on every file of the wheel (1980-01-01, the earliest a zip can hold): with
# it, an unchanged package gives a byte-identical wheel, whenever and wherever it is built.
WHEEL_EPOCH = "315532800"
# Build-time tools besides the wheel's build backend: resvg renders assets/*.svg into the
# manifest's PNG icons; polib compiles the gettext catalogs (buildtools/po.py); markdown-it-py
# (with its mdurl) renders the how-to-play pages (buildtools/howto.py).
BUILD_ONLY_TOOLS = ["resvg-py==0.5.0", "polib==1.2.0", "markdown-it-py==4.3.0", "mdurl==0.1.2"]
# The manifest's PNG icons: (file, SVG source in assets/, size in pixels).
PNG_ICONS = (
    ("icon-192.png", "icon.svg", 192),
    ("icon-512.png", "icon.svg", 512),
    ("icon-maskable-512.png", "icon-maskable.svg", 512),
)
# The page's Content-Security-Policy, written into index.html as a meta tag (GitHub Pages
# sends no headers of ours). Why each source is there: README, "Threat model".
CONTENT_SECURITY_POLICY = {
    "default-src": ["'none'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "connect-src": ["'self'", "wss:", "ws://127.0.0.1:*", "ws://localhost:*"],
    "worker-src": ["'self'", "blob:"],
    "manifest-src": ["'self'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
    "form-action": ["'none'"],
}
CHROMIUM = Path("/usr/bin/chromium")
MOSQUITTO = Path("/usr/sbin/mosquitto")

# The relay transport's bundle (site/net/relay-entry.js -> net/relay-bundle.js): Trystero's
# MQTT strategy, bundled by esbuild. Installed with npm into .cache/relay/ (never committed);
# mqtt is listed to pin the version @trystero-p2p/mqtt would otherwise take from a range.
RELAY_TOOLS = {"@trystero-p2p/mqtt": "0.25.4", "mqtt": "5.16.0", "esbuild": "0.28.2"}
# Pure-Python wheels the worker unpacks beside pyengine (segno draws the invite QR codes),
# fetched with pip from PyPI and checked against these hashes.
WORKER_WHEELS = {
    "segno-1.6.6-py3-none-any.whl": "28c7d081ed0cf935e0411293a465efd4d500704072cdb039778a2ab8736190c7",
}

MIME_TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".py": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
    ".png": "image/png",
}


def log(message: str) -> None:
    print(f"[build] {message}", flush=True)


# --- build-time tools and the wheel ---------------------------------------------------------
def build_tools() -> Path:
    """``.cache/tools/<key>/``: the wheel's build backend, as pyproject.toml's
    ``[build-system] requires`` pins it, and ``BUILD_ONLY_TOOLS``, installed once with
    ``pip install --target`` (never into the system's Python, so PEP 668 does not object).

    Keyed by the requirements, so a changed pin gets a fresh folder.
    """
    build_system = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    requirements = [*build_system["requires"], *BUILD_ONLY_TOOLS]
    folder = CACHE / "tools" / hashlib.sha256(json.dumps(requirements).encode()).hexdigest()[:12]
    if folder.exists():
        return folder
    if importlib.util.find_spec("pip") is None:
        sys.exit("pip is needed to fetch the build tools (on Debian: apt-get install python3-pip)")
    log(f"installing {', '.join(requirements)} with pip into {folder.relative_to(ROOT)}/")
    # Installed beside and renamed into place, like the relay tools.
    fresh = folder.with_name(f".{folder.name}-{os.getpid()}")
    shutil.rmtree(fresh, ignore_errors=True)
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "--only-binary=:all:", "--target", str(fresh), *requirements,
        ],
        check=True,
    )
    try:
        fresh.rename(folder)
    except OSError:  # another build got there first
        shutil.rmtree(fresh)
    return folder


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


# --- the pinned runtime -------------------------------------------------------------------
def _tarball_name(package: str, version: str) -> str:
    return f"{package.lstrip('@').replace('/', '-')}-{version}.tgz"


def fetch_runtime() -> dict:
    """Paths of the pinned npm tarballs, downloaded once into .cache/npm/ with `npm pack`."""
    folder = CACHE / "npm"
    folder.mkdir(parents=True, exist_ok=True)
    wanted = {pkg: folder / _tarball_name(pkg, ver) for pkg, ver in (PYODIDE, PYSCRIPT)}
    missing = [f"{pkg}@{ver}" for pkg, ver in (PYODIDE, PYSCRIPT) if not wanted[pkg].exists()]
    if missing:
        if shutil.which("npm") is None:
            sys.exit("npm is needed to fetch the pinned runtime (install Node.js / npm)")
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


def _extract(tarball: Path, keep, dest: Path) -> None:
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


# PyScript's chunks that our page loads (hashed names: matched by the part before the hash):
# the core, and the error plugin's, which the core imports to learn that it is off (the
# page's <py-config> and <mpy-config> switch every plugin off). The other plugins' chunks
# and the editor's, terminal's, TOML's and packages' own (codemirror, xterm, toml, zip,
# pyodide_graph, ≈ 1 MB) load only for features the site does not use: not served.
PYSCRIPT_CHUNKS = ("core", "error")


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
    _extract(tarballs[PYODIDE[0]], lambda name: name in PYODIDE_FILES, out / "pyodide")
    _extract(tarballs[PYSCRIPT[0]], _pyscript_chunk, out / "pyscript")
    check_pyscript_chunks(out / "pyscript")


# --- bytecode for the worker ------------------------------------------------------------------
BUILDTOOLS = ROOT / "buildtools"
# The header of an unchecked hash-based .pyc (PEP 552): flags 0b01 after the magic number.
PYC_UNCHECKED_HASH = 1


def node_runtime(tarball: Path) -> Path:
    """The pinned Pyodide unpacked once into .cache/ for Node (the compiler of our bytecode)."""
    folder = CACHE / f"pyodide-node-{file_hash(tarball)[:12]}"
    if not folder.exists():
        fresh = folder.with_name(f".{folder.name}-{os.getpid()}")
        shutil.rmtree(fresh, ignore_errors=True)
        _extract(tarball, lambda name: name in (*PYODIDE_FILES, "python_stdlib.zip", "package.json"), fresh)
        try:
            fresh.rename(folder)
        except OSError:  # another build got there first
            shutil.rmtree(fresh)
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
    job = done.with_name(f".{key}-{os.getpid()}")
    shutil.rmtree(job, ignore_errors=True)
    job.mkdir(parents=True)
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
    try:
        (job / "out").rename(done)
    except OSError:  # another build got there first
        pass
    shutil.rmtree(job, ignore_errors=True)
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
    and engine-files.mjs filled in; returns the compiler's output folder."""
    compiled = compiled_runtime(tarball, wheels)
    runtime = node_runtime(tarball)
    if file_hash(runtime / "pyodide.asm.wasm") != file_hash(stage / "pyodide" / "pyodide.asm.wasm"):
        sys.exit("the bytecode was compiled by another Pyodide than the one served")
    report = check_bytecode(compiled, runtime)
    (stage / "runtime").mkdir(exist_ok=True)
    for name in ("stdlib.zip", "packages.tar.gz"):
        shutil.copyfile(compiled / name, stage / "runtime" / name)
    write_engine_files(stage, report)
    return compiled


def write_engine_files(stage: Path, report: dict) -> None:
    """engine-files.mjs with the names build.py knows: where the packages go, what a memory
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


def relay_bundle() -> Path:
    """``.cache/relay/bundle-<key>.js``: the relay entry bundled for the browser.

    Keyed by the pinned tools and the entry's text, so an unchanged entry costs nothing and a
    fresh machine pays one npm install and one esbuild run.
    """
    entry = SITE / "net" / "relay-entry.js"
    pins = json.dumps(RELAY_TOOLS, sort_keys=True)
    folder = CACHE / "relay"
    key = hashlib.sha256((pins + entry.read_text(encoding="utf-8")).encode()).hexdigest()[:16]
    bundle = folder / f"bundle-{key}.js"
    if bundle.exists():
        return bundle
    tools = folder / f"tools-{hashlib.sha256(pins.encode()).hexdigest()[:12]}"
    esbuild = tools / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        if shutil.which("npm") is None:
            sys.exit("npm is needed to bundle the relay transport (install Node.js / npm)")
        log(f"installing {', '.join(f'{k}@{v}' for k, v in RELAY_TOOLS.items())} with npm")
        # Installed beside and renamed into place: builds running at the same time (tests make
        # private builds) never see a half-installed folder.
        fresh = folder / f".{tools.name}-{os.getpid()}"
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(parents=True)
        (fresh / "package.json").write_text(
            json.dumps({"private": True, "dependencies": RELAY_TOOLS}, indent=1), encoding="utf-8"
        )
        subprocess.run(
            ["npm", "install", "--silent", "--no-audit", "--no-fund", "--ignore-scripts"],
            cwd=fresh,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        try:
            fresh.rename(tools)
        except OSError:  # another build got there first
            shutil.rmtree(fresh)
    # The entry is bundled from inside the tools folder so its imports resolve there.
    source = tools / f"entry-{key}.js"
    shutil.copyfile(entry, source)
    log("bundling the relay transport with esbuild")
    partial = bundle.with_name(f".{bundle.name}.{os.getpid()}")
    subprocess.run(
        [
            str(esbuild), source.name, "--bundle", "--format=esm", "--minify", "--platform=browser",
            "--log-level=warning", f"--outfile={partial}",
        ],
        cwd=tools,
        check=True,
    )
    partial.replace(bundle)
    return bundle


def worker_wheels() -> list:
    """The pinned third-party wheels for the worker, downloaded once into .cache/wheels/."""
    folder = CACHE / "wheels"
    paths = []
    for name, digest in WORKER_WHEELS.items():
        path = folder / name
        if not path.exists():
            if importlib.util.find_spec("pip") is None:
                sys.exit("pip is needed to fetch the worker's wheels (on Debian: apt-get install python3-pip)")
            project, version = name.split("-")[:2]
            log(f"fetching {project}=={version} with pip")
            subprocess.run(
                [
                    sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--only-binary=:all:", "--dest", str(folder), f"{project}=={version}",
                ],
                check=True,
            )
        if file_hash(path) != digest:
            path.unlink()
            sys.exit(f"{name} does not have the pinned sha256; removed it, run the build again")
        paths.append(path)
    return paths


# --- catalogs, the games and the lobby (all from the engine package) -----------------------------
def engine(module: str):
    """A module of the engine package: the languages, catalogs, games and lobby markup are
    the engine's own, so the static page and the worker never disagree."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module(module)


def buildtool(name: str):
    """A module of ``buildtools/`` (the catalogs' compiler, the how-to-play pages)."""
    for folder in (str(BUILDTOOLS), str(build_tools())):
        if folder not in sys.path:
            sys.path.append(folder)
    return importlib.import_module(name)


def merged_catalogs() -> dict:
    """``{lang: {key: text}}`` from every ``.po`` catalog (``pyengine/i18n/`` and each game
    package's ``i18n/``), English filling gaps; a plural message is an object of CLDR
    categories (the page picks one with ``Intl.PluralRules``)."""
    po = buildtool("po")
    english = po.read_messages("en")
    return {lang: {**english, **po.read_messages(lang)} for lang in engine("pyengine.i18n").LANGUAGES}


def engine_games() -> list:
    """Lobby entries from the engine's own ``lobby`` call (one answer for the page and the worker)."""
    return json.loads(engine("pyengine.shell.calls").lobby("en"))["games"]


def lobby_html(games: list) -> str:
    """The static game cards, built by the engine in English: the lobby's first paint needs no Python."""
    cards = engine("pyengine.shell.lobby").lobby_cards(games, engine("pyengine.i18n").Translator("en"))
    return str(cards)


def copy_game_icons(dest: Path) -> None:
    """Each declared game's ``icon.svg`` (in its package) as ``icons/game-<id>.svg``."""
    for declaration in engine("pyengine.core.registry").discover("pyengine.games"):
        shutil.copyfile(declaration.icon, dest / f"game-{declaration.id}.svg")


def preload_links(out: Path) -> str:
    """``modulepreload`` for PyScript's entry and core chunk (hashed names differ by version),
    so they download beside app.js instead of after it: the worker starts sooner."""
    chunks = ["core.js", *sorted(p.name for p in (out / "pyscript").glob("core-*.js"))]
    return "\n".join(f'<link rel="modulepreload" href="pyscript/{name}">' for name in chunks)


def csp_meta() -> str:
    """The ``<meta>`` that carries CONTENT_SECURITY_POLICY (it must precede every resource)."""
    policy = "; ".join(f"{name} {' '.join(sources)}" for name, sources in CONTENT_SECURITY_POLICY.items())
    return f'<meta http-equiv="Content-Security-Policy" content="{policy}">'


def fill_template(text: str, t: dict) -> str:
    """Replaces ``{{key}}`` with the English message (the static page's first paint)."""
    from html import escape

    out, rest = [], text
    while "{{" in rest:
        before, _, after = rest.partition("{{")
        key, _, rest = after.partition("}}")
        out.append(before)
        out.append(escape(t[key.strip()]))
    out.append(rest)
    return "".join(out)


def site_css() -> str:
    """The site's CSS, then the engine's shared pieces' ``pyengine/ui/*.css`` and shell screens'
    ``pyengine/shell/*.css``, then each game's own ``pyengine/games/<id>/view.css`` (so a
    game's owner styles it beside its view, without editing the shell).
    One file keeps the first paint to a single stylesheet request."""
    parts = [
        SITE / "style.css",
        *sorted(PACKAGE.glob("ui/*.css")),
        *sorted(PACKAGE.glob("shell/*.css")),
        *sorted(PACKAGE.glob("games/*/view.css")),
    ]
    return "\n".join(p.read_text(encoding="utf-8") for p in parts)


# --- icons ------------------------------------------------------------------------------------
def render_png(svg: Path, size: int) -> bytes:
    """``svg`` rendered by resvg as a ``size`` x ``size`` PNG."""
    tools = str(build_tools())
    sys.path.insert(0, tools)
    try:
        import resvg_py

        return bytes(resvg_py.svg_to_bytes(svg_path=str(svg), width=size, height=size, skip_system_fonts=True))
    finally:
        sys.path.remove(tools)


def write_icons(dest: Path) -> None:
    """The SVG art as it is, and the manifest's PNG icons rendered from it."""
    dest.mkdir(parents=True, exist_ok=True)
    for svg in sorted(ASSETS.glob("*.svg")):
        shutil.copyfile(svg, dest / svg.name)
    for name, source, size in PNG_ICONS:
        (dest / name).write_bytes(render_png(ASSETS / source, size))


# --- the site -------------------------------------------------------------------------------
def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_service_worker(site: Path = DIST) -> str:
    """Writes sw.js with the precache list (every file but itself) and returns the version."""
    files = sorted(p for p in site.rglob("*") if p.is_file() and p.name != "sw.js")
    precache = {p.relative_to(site).as_posix(): file_hash(p) for p in files}
    version = hashlib.sha256(json.dumps(precache, sort_keys=True).encode()).hexdigest()[:16]
    template = (SITE / "sw.js").read_text(encoding="utf-8")
    text = template.replace("__VERSION__", version).replace(
        "__PRECACHE__", json.dumps(precache, indent=1, sort_keys=True)
    )
    (site / "sw.js").write_text(text, encoding="utf-8")
    return version


def build(out: Path = DIST) -> dict:
    """Assembles the site into ``out`` and returns a summary (used by tests and benchmarks).

    The site is put together in a fresh sibling folder and swapped in at the end, so a server
    already serving ``out`` never sees a half-built site.
    """
    tarballs = fetch_runtime()
    buildtool("po").compile_catalogs()  # before the wheel and before the engine is asked anything
    out = Path(out)
    stage = out.with_name(f".{out.name}.building-{os.getpid()}")
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    wheel = build_wheel(stage.with_name(f"{stage.name}-wheel"))
    copy_runtime(tarballs, stage)

    catalogs = merged_catalogs()
    (stage / "i18n").mkdir()
    for lang, catalog in catalogs.items():
        (stage / "i18n" / f"{lang}.json").write_text(
            json.dumps(catalog, ensure_ascii=False, sort_keys=True, separators=(",", ":")), encoding="utf-8"
        )

    games = engine_games()
    english = catalogs["en"]
    for path in sorted(SITE.iterdir()):
        if path.name == "sw.js" or not path.is_file():
            continue
        if path.name == "index.html":
            text = (
                path.read_text(encoding="utf-8")
                .replace("<!--LOBBY-->", lobby_html(games))
                .replace("<!--LANGUAGES-->", str(engine("pyengine.shell.lobby").language_options()))
                .replace("<!--PRELOAD-->", preload_links(stage))
                .replace("<!--CSP-->", csp_meta())
            )
            (stage / path.name).write_text(fill_template(text, english), encoding="utf-8")
        elif path.name == "style.css":
            (stage / path.name).write_text(site_css(), encoding="utf-8")
        else:
            shutil.copyfile(path, stage / path.name)
    # The how-to-play pages, one per game and language (from each package's howto/*.md).
    buildtool("howto").write_pages(
        stage / "howto",
        [(d.id, d.folder) for d in engine("pyengine.core.registry").discover("pyengine.games")],
        engine("pyengine.i18n").LANGUAGES,
        engine("pyengine.i18n").translate,
        csp_meta(),
        engine("pyengine.i18n").language_tag,
    )
    # The page's networking modules; the relay entry is not served, its bundle is.
    (stage / "net").mkdir()
    for path in sorted((SITE / "net").glob("*.js")):
        if path.name != "relay-entry.js":
            shutil.copyfile(path, stage / "net" / path.name)
    shutil.copyfile(relay_bundle(), stage / "net" / "relay-bundle.js")
    bytecode = add_bytecode(tarballs[PYODIDE[0]], [wheel, *worker_wheels()], stage)
    shutil.rmtree(wheel.parent)
    write_icons(stage / "icons")
    copy_game_icons(stage / "icons")
    version = write_service_worker(stage)
    total = sum(p.stat().st_size for p in stage.rglob("*") if p.is_file())

    retired = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        out.rename(retired)
    stage.rename(out)
    if retired.exists():
        shutil.rmtree(retired)
    log(f"{out.name}/ ready: version {version}, {total / 1e6:.1f} MB, wheel {wheel.name}")
    return {"version": version, "wheel": wheel.name, "games": games, "path": out, "bytecode": bytecode}


# --- serving -----------------------------------------------------------------------------------
class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right MIME types (module scripts and wasm are checked strictly).

    ``prefix`` serves the site under a sub-path (as GitHub Pages does for project sites);
    anything outside it is a 404.
    """

    prefix = "/"
    served = None  # a list to record the paths asked for (tests), or None
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def translate_path(self, path):
        if self.served is not None:
            self.served.append(path)
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if not clean.startswith(self.prefix):
            return str(DIST / "__outside_the_site__")
        return super().translate_path("/" + clean[len(self.prefix):])

    def end_headers(self):
        # Revalidate on every load, like a fresh deploy would: the service worker, not the
        # HTTP cache, is what makes repeat visits fast and offline.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):
        if os.environ.get("TABERNA_SERVE_LOG"):
            super().log_message(format, *args)


def make_server(host: str, port: int, directory: Path = DIST, prefix: str = "/", served=None):
    """A threaded HTTP server for ``directory`` under ``prefix`` (port 0 picks a free port).

    ``served``, if given, is a list that receives the path of every request."""
    if not prefix.endswith("/"):
        prefix += "/"
    handler = type(
        "BoundSiteHandler",
        (SiteHandler,),
        {
            "prefix": prefix,
            "served": served,
            "__init__": functools.partialmethod(SiteHandler.__init__, directory=str(directory)),
        },
    )
    return http.server.ThreadingHTTPServer((host, port), handler)


def serve(host: str, port: int) -> None:
    build()
    try:
        server = make_server(host, port)
    except OSError as error:
        sys.exit(f"cannot serve on {host}:{port} ({error.strerror}); pick another with --port N")
    log(f"serving dist/ on http://{host}:{server.server_address[1]}/  (Ctrl+C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# --- testing -----------------------------------------------------------------------------------
# Module name -> pip requirement (segno: the worker's QR codes, tested in CPython too; xdist:
# the suite runs in two processes, one per core of the development machine).
TEST_PACKAGES = {"pytest": "pytest", "xdist": "pytest-xdist", "playwright": "playwright", "segno": "segno==1.6.6"}
TEST_WORKERS = "2"


def _has_modules(python: str) -> bool:
    probe = "import importlib.util, sys; sys.exit(any(importlib.util.find_spec(m) is None for m in sys.argv[1:]))"
    return subprocess.run([python, "-c", probe, *TEST_PACKAGES]).returncode == 0


def test_python() -> str:
    """An interpreter with pytest, segno and the Playwright driver (the pip package; its bundled
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
    missing = [name for name, path in (("chromium", CHROMIUM), ("mosquitto", MOSQUITTO)) if not path.exists()]
    if not missing:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    log(f"installing Debian's {' and '.join(missing)} with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([*sudo, "apt-get", "update"], check=True, env=env)
    subprocess.run([*sudo, "apt-get", "install", "-y", "--no-install-recommends", *missing], check=True, env=env)


def run_tests(pytest_args: list) -> int:
    python = test_python()
    install_debian_tools()
    build()
    status = subprocess.run([python, "-m", "pytest", "-q", "-n", TEST_WORKERS, *pytest_args], cwd=ROOT).returncode
    if status == 5:
        log("pytest collected no tests (exit 5): nothing failed, nothing ran")
        return 0
    return status


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Build, serve and test Taberna.")
    parser.add_argument("command", nargs="?", default="build", choices=("build", "serve", "test"))
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    args, rest = parser.parse_known_args(argv)
    if rest and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "build":
        build()
        return 0
    if args.command == "serve":
        serve(args.host, args.port)
        return 0
    return run_tests(rest)


if __name__ == "__main__":
    sys.exit(main())
