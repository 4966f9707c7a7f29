"""The static site assembled into ``dist/``: the page's files from ``site/`` with the lobby,
languages and Content-Security-Policy filled in, the lobby's and the tables' stylesheets,
the catalogs, the how-to-play pages, the runtime and the worker's packages, the icons, and
the service worker's precache list of it all."""

import hashlib
import json
import re
import shutil
import tempfile
from pathlib import Path

from buildtools import howto, po
from buildtools.confusables import compile_table
from buildtools.icons import svg_art, write_icons
from buildtools.relay import relay_bundle
from buildtools.runtime import PYODIDE, PYSCRIPT_CHUNKS, add_bytecode, copy_runtime, fetch_runtime
from buildtools.sodium import copy_sodium
from buildtools.wheels import build_wheel, worker_wheels
from buildtools.workspace import DIST, PACKAGE, SITE, built_beside, engine, file_hash, log

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


def merged_catalogs() -> dict:
    """``{lang: {key: text}}`` from every ``.po`` catalog (``pyengine/i18n/`` and each game
    package's ``i18n/``), English filling gaps; a plural message is an object of CLDR
    categories (the page picks one with ``Intl.PluralRules``)."""
    english = po.read_messages("en")
    return {lang: {**english, **po.read_messages(lang)} for lang in engine("pyengine.i18n").LANGUAGES}


def engine_games() -> list:
    """Lobby entries from the engine's own ``lobby`` call (one answer for the page and the worker)."""
    return json.loads(engine("pyengine.shell.calls").lobby("en"))["games"]


def lobby_html(games: list) -> str:
    """The static game cards, built by the engine in English: the lobby's first paint needs no Python."""
    cards = engine("pyengine.shell.lobby").lobby_cards(games, engine("pyengine.i18n").Translator("en"))
    return str(cards)


# A module script of the page, as index.html names it.
MODULE_SCRIPT = re.compile(r'<script type="module" src="([^"]+)"></script>')
# A static import of a relative module: ``import … from "./x.js";`` or ``import "./x.js";``.
STATIC_IMPORT = re.compile(r'^import\b[^;]*?"(\./[^"]+)";', re.M)


def static_imports(entry: Path) -> list:
    """Every module ``entry`` imports statically, however deep (paths from ``site/``): the
    module runs only once all of them have arrived."""
    found, queue = [], [entry]
    while queue:
        module = queue.pop(0)
        for spec in STATIC_IMPORT.findall(module.read_text(encoding="utf-8")):
            path = (module.parent / spec).resolve()
            name = path.relative_to(SITE).as_posix()
            if name not in found:
                found.append(name)
                queue.append(path)
    return found


def preload_links(out: Path, scripts: list) -> str:
    """``modulepreload`` for every module the page's ``scripts`` import statically, then for
    PyScript's entry and its chunks (hashed names differ by version): each downloads beside
    the page's scripts instead of only once the module that imports it has arrived (the
    lobby is usable once app.js has run; the core is compiled and waiting when app.js
    starts the worker, and so is the error chunk, which the core imports before it creates
    a worker even with the error plugin off: one round trip less before the worker)."""
    modules = [name for script in scripts for name in static_imports(SITE / script) if name not in scripts]
    hashed = sorted(p.name for p in (out / "pyscript").glob("*-*.js") if p.name.rpartition("-")[0] in PYSCRIPT_CHUNKS)
    chunks = [f"pyscript/{name}" for name in ["core.js", *hashed]]
    return "\n".join(f'<link rel="modulepreload" href="{name}">' for name in dict.fromkeys([*modules, *chunks]))


# A decorative image of the site's own SVG art, as index.html and the lobby's cards name it.
SVG_IMAGE = re.compile(r'<img ((?:class="[^"]*" )?)src="(icons/[\w-]+\.svg)" alt="" width="(\d+)" height="(\d+)">')


def inline_svg_images(html: str, art: dict) -> str:
    """Each decorative ``<img>`` of our SVG art (``art``: icons.svg_art()) replaced by the SVG
    itself: an SVG image is a document of its own, loaded, parsed, laid out and painted on
    the main thread before the lobby's first frame has its icons; inline it is a few shapes."""

    def inline(match):
        css_class, src, width, height = match.groups()
        svg = art[src].read_text(encoding="utf-8").strip()
        return svg.replace("<svg", f'<svg {css_class}aria-hidden="true" width="{width}" height="{height}"', 1)

    return SVG_IMAGE.sub(inline, html)


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


# The how-to pages' styles, and their links from the lobby's cards: in the first stylesheet.
HOWTO_CSS = PACKAGE / "shell" / "howto.css"


def stylesheets() -> dict:
    """``{file name: CSS}``, the page's two stylesheets, each headed by its ``site/`` file.

    ``style.css``, the only one the lobby's first paint (and a how-to page) waits for: the
    page's own CSS and the how-to pages'. ``tables.css``, what only a table's screens use,
    most of the CSS: the shared components (``site/tables.css``), the engine's shared
    pieces (``pyengine/ui/*.css``), the shell's screens (``pyengine/shell/*.css``), then each
    game's ``pyengine/games/<id>/view.css`` (a game's owner styles it beside its view,
    without editing the shell). The page links it once the lobby is usable, and the engine
    is ready only once it is in (app.js): a table never paints without it. It comes after
    ``style.css``, so the cascade is as in one file."""
    tables = [
        SITE / "tables.css",
        *sorted(PACKAGE.glob("ui/*.css")),
        *sorted(p for p in PACKAGE.glob("shell/*.css") if p != HOWTO_CSS),
        *sorted(PACKAGE.glob("games/*/view.css")),
    ]
    parts = {"style.css": [SITE / "style.css", HOWTO_CSS], "tables.css": tables}
    return {name: "\n".join(p.read_text(encoding="utf-8") for p in files) for name, files in parts.items()}


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

    The site is put together beside ``out`` and swapped in at the end, so a server already
    serving ``out`` never sees a half-built site.
    """
    tarballs = fetch_runtime()
    po.compile_catalogs()  # before the wheel and before the engine is asked anything
    compile_table()  # the names' look-alike letters, before the wheel too
    out = Path(out)
    with built_beside(out, replace=True) as stage, tempfile.TemporaryDirectory(prefix="pyengine-wheel-") as wheels:
        stage.mkdir()
        wheel = build_wheel(Path(wheels))
        copy_runtime(tarballs, stage)
        catalogs = merged_catalogs()
        write_catalogs(stage / "i18n", catalogs)
        games = engine_games()
        copy_page(stage, catalogs["en"], games)
        write_howto_pages(stage / "howto")
        copy_net(stage / "net")
        copy_sodium(stage / "sodium")
        bytecode = add_bytecode(tarballs[PYODIDE[0]], [wheel, *worker_wheels()], stage)
        write_icons(stage / "icons")
        version = write_service_worker(stage)
        total = sum(p.stat().st_size for p in stage.rglob("*") if p.is_file())
    log(f"{out.name}/ ready: version {version}, {total / 1e6:.1f} MB, wheel {wheel.name}")
    return {"version": version, "wheel": wheel.name, "games": games, "path": out, "bytecode": bytecode}


def write_catalogs(dest: Path, catalogs: dict) -> None:
    """``i18n/<lang>.json``, the page's catalogs."""
    dest.mkdir()
    for lang, catalog in catalogs.items():
        (dest / f"{lang}.json").write_text(
            json.dumps(catalog, ensure_ascii=False, sort_keys=True, separators=(",", ":")), encoding="utf-8"
        )


def copy_page(stage: Path, english: dict, games: list) -> None:
    """The files of ``site/``: index.html filled in (its SVG art inline), each stylesheet
    made whole (``stylesheets``), the rest as they are (sw.js is written last, over
    everything else)."""
    css = stylesheets()
    for path in sorted(SITE.iterdir()):
        if path.name == "sw.js" or not path.is_file():
            continue
        if path.name == "index.html":
            text = path.read_text(encoding="utf-8")
            scripts = MODULE_SCRIPT.findall(text)
            text = (
                text.replace("<!--LOBBY-->", lobby_html(games))
                .replace("<!--LANGUAGES-->", str(engine("pyengine.shell.lobby").language_options()))
                .replace("<!--PRELOAD-->", preload_links(stage, scripts))
                .replace("<!--CSP-->", csp_meta())
            )
            (stage / path.name).write_text(inline_svg_images(fill_template(text, english), svg_art()), encoding="utf-8")
        elif path.suffix == ".css":
            (stage / path.name).write_text(css[path.name], encoding="utf-8")
        else:
            shutil.copyfile(path, stage / path.name)


def write_howto_pages(dest: Path) -> None:
    """The how-to-play pages, one per game and language (from each package's howto/*.md)."""
    i18n = engine("pyengine.i18n")
    howto.write_pages(
        dest,
        [(d.id, d.folder) for d in engine("pyengine.core.registry").discover("pyengine.games")],
        i18n.LANGUAGES,
        i18n.translate,
        csp_meta(),
        i18n.language_tag,
    )


def copy_net(dest: Path) -> None:
    """The page's networking modules; the relay entry is not served, its bundle is."""
    dest.mkdir()
    for path in sorted((SITE / "net").glob("*.js")):
        if path.name != "relay-entry.js":
            shutil.copyfile(path, dest / path.name)
    shutil.copyfile(relay_bundle(), dest / "relay-bundle.js")
