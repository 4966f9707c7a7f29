"""``python build.py new-game <id>`` writes a game that passes the suite, and touches nothing else.

The scaffold runs on a copy of the project; the copy's own tests then run there with the new
game discovered beside the others: every test parametrized by game (contract, catalogs,
how-to pages, screens, shared tables, fuzzing) for the new game, and the game-wide checks of
the declarations and catalogs.
"""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from buildtools.new_game import TEMPLATE, main
from buildtools.pypi_tools import tool
from pyengine.core.registry import declarations

ROOT = Path(__file__).resolve().parents[2]
GAME_ID = "scaffolded"  # a word no test's name holds, so -k picks the new game's tests alone
NOT_COPIED = shutil.ignore_patterns(".git", ".cache", ".venv", "dist", ".dist.*", "__pycache__", "compiled")


def digests(root: Path) -> dict:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*") if p.is_file()}


def tools_path() -> str:
    """Where this Python finds the build's PyPI tools, so the copy installs none."""
    folders = {Path(tool("polib").__file__).parent, Path(tool("markdown_it").__file__).parents[1]}
    return os.pathsep.join(map(str, sorted(folders)))


def test_a_new_game_from_the_scaffold_passes_the_suite_and_edits_no_shared_file(tmp_path, capsys):
    copy = tmp_path / "taberna"
    shutil.copytree(ROOT, copy, ignore=NOT_COPIED)
    before = digests(copy)

    assert main(GAME_ID, copy / "pyengine" / "games") == 0
    after = digests(copy)
    added = sorted(set(after) - set(before))
    assert [path for path in before if after[path] != before[path]] == []  # no shared edit
    assert all(path.startswith(f"pyengine/games/{GAME_ID}/") for path in added)
    assert len(added) == len(list(TEMPLATE.rglob("*.tmpl")))
    assert f"wrote {len(added)} files" in capsys.readouterr().out

    others = " or ".join(declaration.id for declaration in declarations())
    selection = f"{GAME_ID} or ((test_declarations or test_catalogs or test_howto) and not ({others}))"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", "-p", "no:xdist",
         "tests", "--ignore=tests/browser", "--ignore=tests/site", "-k", selection],
        cwd=copy, env={**os.environ, "PYTHONPATH": tools_path()}, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    passed = {line.split(" ", 1)[1] for line in run.stdout.splitlines() if line.startswith("PASSED ")}
    expected = [
        f"tests/test_contract.py::test_random_play_honours_the_contract[{GAME_ID}-11]",
        "tests/app/test_declarations.py::test_every_game_package_declares_itself_with_its_strings_and_icon",
        "tests/app/test_declarations.py::test_no_shared_file_names_a_game",
        f"tests/i18n/test_catalogs.py::test_every_language_has_exactly_the_keys_english_has[{GAME_ID}.en.po]",
        f"tests/i18n/test_catalogs.py::test_no_screen_shows_a_raw_key[{GAME_ID}-it]",
        f"tests/i18n/test_howto.py::test_every_playable_game_has_a_page_that_explains_every_option[{GAME_ID}-ca]",
        f"tests/app/test_shared_table.py::test_every_game_travels_the_same_way[{GAME_ID}]",
        f"tests/protocol/test_protocol_view_fuzz.py::test_whatever_fits_draws_without_error[{GAME_ID}]",
        f"tests/core/test_views_are_copies.py::test_editing_a_view_leaves_the_state_as_it_was[{GAME_ID}]",
        f"tests/i18n/test_refusal_codes.py::test_a_games_own_codes_are_named_after_it_and_translated_in_its_catalogs[{GAME_ID}]",
    ]
    assert [name for name in expected if name not in passed] == []


def test_the_scaffold_refuses_a_bad_id_or_a_game_that_exists(tmp_path, capsys):
    games = tmp_path / "games"
    (games / "taken").mkdir(parents=True)
    for game_id, reason in [("Bad-id", "not a game id"), ("a__b", "not a game id"), ("x", "not a game id"),
                            ("class", "Python keyword"), ("taken", "already exists"), ("setup", "shell's messages")]:
        assert main(game_id, games) == 1, game_id
        assert reason in capsys.readouterr().err, game_id
    assert [p.name for p in games.iterdir()] == ["taken"]
