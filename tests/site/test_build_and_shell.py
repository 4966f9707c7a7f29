"""build.py without a browser: the wheel, the icons, the lobby, the catalogs, the server."""

import hashlib
import base64
import csv
import io
import json
import os
import re
import shutil
import struct
import threading
import urllib.request
import zipfile
from pathlib import Path

import pytest

from buildtools import assemble, icons, transit
from buildtools.serve import make_server
from buildtools.wheels import build_wheel
from buildtools.workspace import engine
from pyengine.core.registry import declarations
from pyengine.i18n import catalog

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"


def test_wheel_is_built_by_the_backend_with_the_package_data_and_a_valid_record(tmp_path):
    wheel = build_wheel(tmp_path)
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert "pyengine/__init__.py" in names and "pyengine/shell/calls.py" in names
        assert {"pyengine/i18n/compiled/en.mo", "pyengine/i18n/compiled/it.mo", "pyengine/shell/shell.css",
                "pyengine/games/perudo/view.css", "pyengine/games/perudo/icon.svg"} <= names
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        assert not [n for n in names if not n.startswith(("pyengine/", "pyengine-"))]
        wheel_file = archive.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
        assert "Generator: setuptools (" in wheel_file
        record_name = next(n for n in names if n.endswith(".dist-info/RECORD"))
        rows = list(csv.reader(io.StringIO(archive.read(record_name).decode())))
        assert {row[0] for row in rows} == names
        for path, digest, size in rows:
            if path == record_name:
                continue
            data = archive.read(path)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == f"sha256={expected}" and int(size) == len(data)


def _project_copy(folder: Path) -> Path:
    shutil.copytree(ROOT / "pyengine", folder / "pyengine", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(ROOT / "pyproject.toml", folder / "pyproject.toml")
    return folder


def test_unchanged_package_gives_a_byte_identical_wheel(tmp_path):
    """Same bytes wherever and whenever it is built (other folder, file times, permissions),
    so the service worker's hash of it stays and browsers keep their copy; any change to the
    package, data included, gives a new wheel."""
    first = build_wheel(tmp_path / "a")
    copy = _project_copy(tmp_path / "copy")
    for path in copy.rglob("*"):
        os.utime(path, (1_700_000_000, 1_700_000_000))
        if path.is_file():
            path.chmod(0o664)
    assert build_wheel(tmp_path / "b", copy).read_bytes() == first.read_bytes()

    # A game's data in a folder of its own (no __init__.py) is package data too.
    (copy / "pyengine" / "games" / "perudo" / "icons").mkdir()
    (copy / "pyengine" / "games" / "perudo" / "icons" / "cup.svg").write_text("<svg/>")
    changed = build_wheel(tmp_path / "c", copy)
    assert changed.read_bytes() != first.read_bytes()
    with zipfile.ZipFile(changed) as archive:
        assert "pyengine/games/perudo/icons/cup.svg" in archive.namelist()


def _png_header(data: bytes):
    """(width, height, bit depth, colour type) from a PNG's IHDR."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">IIBB", data[16:26])


def test_icons_are_rendered_from_the_svg_art_at_the_declared_sizes(tmp_path):
    icons.write_icons(tmp_path)
    manifest = json.loads((SITE / "manifest.webmanifest").read_text(encoding="utf-8"))
    for icon in manifest["icons"]:
        data = (tmp_path / Path(icon["src"]).name).read_bytes()
        if icon["type"] == "image/png":
            width, height, depth, _ = _png_header(data)
            assert f"{width}x{height}" == icon["sizes"] and depth == 8
    for name, source, size in icons.PNG_ICONS:
        assert (ROOT / "assets" / source).exists()
        rendered = icons.render_png(ROOT / "assets" / source, size)
        assert _png_header(rendered)[2:] == (8, 6)  # resvg renders 8-bit RGBA
        written = (tmp_path / name).read_bytes()
        assert transit.smaller_png(rendered) == written and len(written) < len(rendered)  # deterministic, smaller
    # Pixels (transparent corners, full-bleed maskable, the pips) are checked in the browser:
    # tests/browser/test_build_browser.py.


def test_lobby_lists_every_game_with_its_playable_state():
    games = assemble.engine_games()
    html = assemble.lobby_html(games)
    ids = re.findall(r'data-game="([a-z_]+)"', html)
    assert ids == [declaration.id for declaration in declarations()]
    for game in games:
        assert (f'data-open="{game["id"]}"' in html) == game["playable"]
    assert next(g for g in games if g["id"] == "perudo")["playable"]


def test_every_declared_game_brings_its_icon_and_the_languages_come_from_the_engine():
    from pyengine.i18n import LANGUAGES, language_tag

    art = icons.svg_art()
    ids = [declaration.id for declaration in declarations()]
    assert sorted(name for name in art if name.startswith("icons/game-")) == sorted(f"icons/game-{gid}.svg" for gid in ids)
    for gid in ids:
        assert art[f"icons/game-{gid}.svg"].read_text(encoding="utf-8").lstrip().startswith("<svg")
    # The page carries them inline: an <img> of an SVG is a document of its own to load.
    lobby = assemble.inline_svg_images(assemble.lobby_html(assemble.engine_games()), art)
    assert "<img" not in lobby and lobby.count('<svg class="card-art" aria-hidden="true" width="56"') == len(ids)
    options = str(engine("pyengine.shell.lobby").language_options())
    options_found = re.findall(r'<option value="([a-z]+)" lang="([a-zA-Z-]+)">[^<]+</option>', options)
    assert options_found == [(lang, language_tag(lang)) for lang in LANGUAGES]
    assert 'lang="pt-BR"' in options  # our Portuguese is Brazilian
    assert ">Português<" in options


def test_the_page_preloads_every_module_its_scripts_import(tmp_path):
    """The lobby is usable once app.js has run, which waits for every module it imports, however
    deep: each is requested with the page, not only once the module that names it arrived."""
    (tmp_path / "pyscript").mkdir()
    for chunk in ("core-abc.js", "error-def.js", "py-editor-ghi.js"):  # the editor's is not served
        (tmp_path / "pyscript" / chunk).write_text("", encoding="utf-8")
    scripts = assemble.MODULE_SCRIPT.findall((SITE / "index.html").read_text(encoding="utf-8"))
    assert scripts[-1] == "app.js"
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', assemble.preload_links(tmp_path, scripts))
    graph = assemble.static_imports(SITE / "app.js")
    assert {"saves.js", "yourgames.js", "net/roomkey.js"} <= set(graph)  # net/roomkey.js through net/links.js
    assert "session.js" not in graph  # imported with the engine, after the lobby
    assert "net/transports.js" not in graph  # imported when a table is shared
    assert set(graph) - set(scripts) <= set(preloaded)
    # PyScript's core imports its error chunk before it creates a worker (even with the plugin off).
    assert preloaded[-3:] == ["pyscript/core.js", "pyscript/core-abc.js", "pyscript/error-def.js"]
    assert len(preloaded) == len(set(preloaded))


def test_template_fills_english_and_escapes():
    text = assemble.fill_template('<p title="{{ a }}">{{b}}</p>', {"a": 'x"y', "b": "<b>"})
    assert text == '<p title="x&quot;y">&lt;b&gt;</p>'


def test_merged_catalogs_carry_every_key_and_plurals_as_cldr_categories():
    """The page's catalogs (completeness itself: tests/i18n/test_catalogs.py)."""
    merged = assemble.merged_catalogs()
    assert all(set(merged[lang]) == set(merged["en"]) for lang in merged)
    assert merged["pt"]["lobby.play"] == "Jogar"
    assert merged["pt"]["perudo.dice_count"] == {"one": "{count} dado", "other": "{count} dados"}
    for declaration in declarations():
        for lang in merged:
            assert merged[lang][f"lobby.{declaration.id}.name"]


def test_server_types_and_sub_path(tmp_path):
    (tmp_path / "a.mjs").write_text("export {}")
    (tmp_path / "b.wasm").write_bytes(b"\0asm")
    (tmp_path / "index.html").write_text("hi")
    served = []
    server = make_server("127.0.0.1", 0, tmp_path, "/sub/", served=served)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with urllib.request.urlopen(base + "/sub/a.mjs") as reply:
            assert reply.headers["Content-Type"] == "text/javascript"
        with urllib.request.urlopen(base + "/sub/b.wasm") as reply:
            assert reply.headers["Content-Type"] == "application/wasm"
        with urllib.request.urlopen(base + "/sub/") as reply:
            assert reply.read() == b"hi"
        with pytest.raises(urllib.error.HTTPError) as outside:
            urllib.request.urlopen(base + "/index.html")
        assert outside.value.code == 404
        assert served == ["/sub/a.mjs", "/sub/b.wasm", "/sub/", "/index.html"]
    finally:
        server.shutdown()
        server.server_close()


def test_service_worker_lists_every_file_with_its_hash(tmp_path):
    (tmp_path / "index.html").write_text("<p>one</p>")
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "x.js").write_text("1")
    version = assemble.write_service_worker(tmp_path)
    text = (tmp_path / "sw.js").read_text()
    precache = json.loads(re.search(r"const PRECACHE = (\{.*?\});", text, re.S).group(1))
    assert precache == {
        "deep/x.js": hashlib.sha256(b"1").hexdigest(),
        "index.html": hashlib.sha256(b"<p>one</p>").hexdigest(),
    }
    assert f'const VERSION = "{version}"' in text
    (tmp_path / "deep" / "x.js").write_text("2")
    assert assemble.write_service_worker(tmp_path) != version  # any change makes a new cache


def test_every_key_the_page_uses_has_an_english_text():
    """The page's own strings (``t("…")``, ``data-i18n…``) must all be in the catalogs."""
    english = catalog("en")
    sources = [*SITE.glob("*.js"), *SITE.glob("net/*.js"), SITE / "index.html"]
    used = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\b(?:t|netError)\(\s*["']([a-z_]+\.[a-z_.]+)["']""", text))
        used |= set(re.findall(r'data-i18n(?:-[a-z]+)?="([a-z_]+\.[a-z_.]+)"', text))
    assert used, "no keys found: the pattern is broken"
    assert {"friends.heading", "resume.continue", "net.code_malformed"} <= used
    assert sorted(used - set(english)) == []


def test_the_tables_stylesheet_carries_the_shared_screens_and_every_game_and_the_lobbys_none():
    """The lobby's first paint waits for style.css only; what a table draws with is in tables.css."""
    sheets = assemble.stylesheets()
    assert list(sheets) == ["style.css", "tables.css"]
    for part in [ROOT / "site/tables.css", *ROOT.glob("pyengine/ui/*.css"), *ROOT.glob("pyengine/games/*/view.css")]:
        assert part.read_text(encoding="utf-8") in sheets["tables.css"], part
        assert part.read_text(encoding="utf-8") not in sheets["style.css"], part
    assert ".tb-net" in sheets["tables.css"]
    assert ".card-howto" in sheets["style.css"] and ".howto h1" in sheets["style.css"]  # the lobby's links, the how-to pages
