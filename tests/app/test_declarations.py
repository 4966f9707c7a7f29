"""What a game is: every game package declares itself, and nothing shared names a game."""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from buildtools.po import read_po
from pyengine.core.errors import InvalidOptions
from pyengine.core.registry import KINDS, declarations, declare, forget, get_game, playable_games
from pyengine.i18n import COMPLETE_LANGUAGES, LANGUAGES, Translator, catalog
from pyengine.shell.calls import lobby
from pyengine.shell.lobby import lobby_cards

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_package_declares_itself_with_its_strings_and_icon():
    found = declarations()
    folders = sorted(p.parent.name for p in (ROOT / "pyengine" / "games").glob("*/__init__.py"))
    assert found and sorted(d.id for d in found) == folders
    orders = [d.order for d in found]
    assert orders == sorted(set(orders))  # in lobby order, without ties
    for declaration in found:
        assert declaration.kind in KINDS
        assert declaration.folder == ROOT / "pyengine" / "games" / declaration.id
        assert declaration.icon.read_text(encoding="utf-8").lstrip().startswith("<svg")
        own = read_po(declaration.folder / "i18n" / f"{declaration.id}.en.po")
        assert own[f"lobby.{declaration.id}.name"] and own[f"lobby.{declaration.id}.blurb"]
        for lang in COMPLETE_LANGUAGES:
            assert catalog(lang)[f"lobby.{declaration.id}.name"], (lang, declaration.id)
        assert 1 <= declaration.min_seats <= declaration.max_seats


def test_the_lobby_lists_the_declared_games_in_their_order_all_playable():
    games = json.loads(lobby("en"))["games"]
    assert [g["id"] for g in games] == [d.id for d in declarations()]
    assert all(g["playable"] for g in games)
    botifarra = next(g for g in games if g["id"] == "botifarra")
    assert (botifarra["kind"], botifarra["min_seats"], botifarra["max_seats"], botifarra["playable"]) == (
        "cards", 2, 4, True)


def test_a_package_without_rules_yet_is_listed_as_coming_soon_and_cannot_be_opened():
    declare("tests.app.soonish", order=98, kind="dice", seats=(2, 5))
    try:
        entry = next(g for g in json.loads(lobby("en"))["games"] if g["id"] == "soonish")
        assert entry == {"id": "soonish", "playable": False, "kind": "dice", "min_seats": 2, "max_seats": 5}
        for lang in COMPLETE_LANGUAGES:
            card = str(lobby_cards([entry], Translator(lang)))
            assert f">{catalog(lang)['lobby.soon']}</p>" in card and 'data-playable="false"' in card
            assert "data-open" not in card and "<button" not in card  # nothing to open
        assert "soonish" not in playable_games()
        with pytest.raises(InvalidOptions) as refused:
            get_game("soonish")
        assert refused.value.code == "unknown_game"
    finally:
        forget("soonish")
    assert "soonish" not in [d.id for d in declarations()]


def test_playable_games_have_a_screen_and_a_bot_for_every_level():
    for declaration in declarations():
        if not declaration.playable:
            continue
        game = declaration.rules
        screen = declaration.screen()
        assert callable(screen.render) and isinstance(screen.persistent_ui, tuple)
        bots = declaration.bots()
        assert list(bots) == list(game.bot_levels), declaration.id
        state = game.new_state({}, game.min_seats, 3)
        seat = game.to_act(state)[0]
        for level, play in bots.items():
            action = play(game.view(state, seat), 5)
            game.apply(state, seat, action)  # legal: raises otherwise


def _fresh_modules(code: str) -> list:
    """The pyengine modules (and segno) a fresh interpreter has imported after ``code``."""
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith(('pyengine', 'segno')))))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_rules_import_neither_bots_nor_screens_and_the_lobby_loads_no_shared_table_code():
    modules = _fresh_modules("from pyengine.shell.calls import exports, lobby\nexports()\nlobby('en')")
    assert [m for m in modules if m.endswith((".bot", ".view"))] == []
    assert [m for m in modules if m.startswith("pyengine.protocol") or m.startswith("segno") or m.endswith((".hosted", ".joined", ".qr"))] == []


def test_a_one_device_game_loads_only_its_own_bots_and_screen():
    play = """
import json
from pyengine.shell.calls import WORKER
fields = {"seat0_kind": "human", "seat1_kind": "bot:easy", "seed": "3"}
reply = json.loads(WORKER.start(json.dumps({"game": "lasca", "fields": fields}), "en"))
assert reply["ok"], reply
"""
    modules = _fresh_modules(play)
    assert "pyengine.games.lasca.view" in modules
    assert [m for m in modules if m.endswith((".bot", ".view")) and ".lasca." not in m] == []
    assert [m for m in modules if m.startswith("pyengine.protocol") or m.startswith("segno") or m.endswith((".hosted", ".joined"))] == []


def _code_strings(path: Path) -> list:
    """The string literals of a Python file's code (docstrings left out: prose may name games)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_shared_file_names_a_game():
    """Adding a game edits no shared file: no code of the shell, core, page or build names one."""
    ids = [d.id for d in declarations()]
    pattern = re.compile(r"\b(" + "|".join(ids) + r")\b")
    shared = ("core", "kits", "protocol", "records", "shell", "ui")
    python = [*(p for folder in shared for p in (ROOT / "pyengine" / folder).rglob("*.py")),
              ROOT / "build.py", *(ROOT / "buildtools").glob("*.py"), ROOT / "site" / "worker.py"]
    named = [str(p.relative_to(ROOT)) for p in python if any(pattern.search(text) for text in _code_strings(p))]
    quoted = re.compile(r"""["'`](""" + "|".join(ids) + r""")["'`]""")
    page = [*(ROOT / "site").rglob("*.js"), ROOT / "site" / "index.html"]
    named += [str(p.relative_to(ROOT)) for p in page if quoted.search(p.read_text(encoding="utf-8"))]
    assert named == []
    for lang in LANGUAGES:  # the shell's catalogs hold no game's strings
        for domain in ("shell", "core", "sync", "friends"):
            keys = read_po(ROOT / "pyengine" / "i18n" / f"{domain}.{lang}.po")
            assert not [key for key in keys if pattern.search(key)], (lang, domain)
