"""``python build.py new-game <id>``: a new game package, playable at once, from templates.

The package ``pyengine/games/<id>/`` is written from ``buildtools/game_template/``: a
take-away game for two (rules, bots, screen, styles, icon, catalogs and how-to pages in
every language) that already passes every test a game must pass
(``pyengine/games/README.md``), for its author to replace piece by piece. Nothing outside
the new folder is touched: the game declares itself. In the templates, ``{{id}}``,
``{{Name}}``, ``{{Class}}`` and ``{{order}}`` (in file names too) stand for the id, the
lobby name, the rules class and the lobby order; a template file ends in ``.tmpl``.
"""

import keyword
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "pyengine" / "games"
SHELL_CATALOGS = ROOT / "pyengine" / "i18n"
TEMPLATE = Path(__file__).resolve().parent / "game_template"
SUFFIX = ".tmpl"
# A Python package name, a word in message keys (``<id>.pile``) and CSS classes (``<id>-pile``).
GAME_ID = re.compile(r"[a-z][a-z_]{1,22}[a-z]")
ORDER_STEP = 10


def refusal(game_id: str, games: Path) -> str:
    """Why ``game_id`` cannot be a new game in ``games``; empty when it can."""
    if not GAME_ID.fullmatch(game_id) or "__" in game_id:
        return (f"{game_id!r} is not a game id: 3 to 24 lowercase letters, single underscores "
                "between words (e.g. 'nine_men')")
    if keyword.iskeyword(game_id):
        return f"{game_id!r} is a Python keyword: the package could not be imported"
    if (games / game_id).exists():
        return f"{games / game_id} already exists: pick another id"
    if game_id in shell_namespaces():
        return f"the shell's messages already use keys '{game_id}.…': pick another id"
    return ""


def shell_namespaces() -> set:
    """The first words of the shell's message keys (``setup`` of ``setup.start``)."""
    keys = re.compile(r'^msgid "([a-z_]+)\.', re.M)
    return {name for po in SHELL_CATALOGS.glob("*.en.po") for name in keys.findall(po.read_text(encoding="utf-8"))}


def next_order(games: Path) -> int:
    """A lobby place after every declared game's (their ``order=`` in ``__init__.py``)."""
    declared = re.compile(r"\border=(\d+)")
    orders = [int(found[1]) for init in games.glob("*/__init__.py")
              if (found := declared.search(init.read_text(encoding="utf-8")))]
    return max(orders, default=0) + ORDER_STEP


def fill(text: str, values: dict) -> str:
    for name, value in values.items():
        text = text.replace("{{" + name + "}}", value)
    return text


def main(game_id: str, games: Path = GAMES) -> int:
    """Writes ``games/<game_id>/`` from the templates; 0, or 1 with the reason on stderr."""
    why = refusal(game_id, games)
    if why:
        print(f"new-game: {why}", file=sys.stderr)
        return 1
    values = {
        "id": game_id,
        "Name": game_id.replace("_", " ").capitalize(),
        "Class": "".join(word.capitalize() for word in game_id.split("_")),
        "order": str(next_order(games)),
    }
    folder = games / game_id
    written = []
    for template in sorted(TEMPLATE.rglob("*" + SUFFIX)):
        target = folder / fill(str(template.relative_to(TEMPLATE))[: -len(SUFFIX)], values)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(fill(template.read_text(encoding="utf-8"), values), encoding="utf-8")
        written.append(target)
    print(f"new-game: wrote {len(written)} files into {folder} (no other file changed):")
    for path in written:
        print(f"  {path.relative_to(folder)}")
    print("It plays already: `python build.py serve`. Replace the take-away game with yours, keeping to\n"
          "pyengine/games/README.md, and run `python build.py test -k " + game_id + "`.")
    return 0

