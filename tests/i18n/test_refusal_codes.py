"""Refusal codes are named one way and translated everywhere.

A game's own refusals are coded ``<game id>.<reason>`` (catalog key ``err.<game id>.<reason>``,
in the game's own catalogs); the ones core, the kits, the protocol and the shell make are
plain (``not_now``, in the shared catalogs under ``pyengine/i18n``), and a game may raise them too. The codes are read from the sources: the code given
to an error class (``IllegalAction``, ``BadCard``...) or to a helper that passes its ``code``
on, a code assigned to a variable first, and the keys of a ``REASONS`` table.
"""

import ast
from pathlib import Path

import pytest

from buildtools.po import PACKAGE, read_po
from pyengine.core.errors import TabernaError
from pyengine.core.registry import declarations
from pyengine.i18n import COMPLETE_LANGUAGES
from pyengine.kits import cards  # noqa: F401  (defines BadCard, an error class the scan must know)

GAMES = [declaration.id for declaration in declarations()]


def error_classes(cls=TabernaError) -> set:
    names = {cls.__name__}
    for sub in cls.__subclasses__():
        names |= error_classes(sub)
    return names


def _code_argument(call: ast.Call, position: int):
    if len(call.args) > position:
        return call.args[position]
    return next((keyword.value for keyword in call.keywords if keyword.arg == "code"), None)


def _name(call: ast.Call):
    return call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", None)


def _strings(node) -> set:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _forwarders(tree, raisers: dict) -> dict:
    """Functions that hand their own ``code`` parameter to an error class: ``{name: position}``."""
    found = {}
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        params = [arg.arg for arg in function.args.args]
        if "code" not in params:
            continue
        for call in ast.walk(function):
            if isinstance(call, ast.Call) and _name(call) in raisers:
                argument = _code_argument(call, raisers[_name(call)])
                if isinstance(argument, ast.Name) and argument.id == "code":
                    found[function.name] = params.index("code")
    return found


def _own_nodes(scope):
    """The nodes of a module or function, without those of the functions inside it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


def scan(path: Path) -> tuple:
    """``(codes, unread)``: the refusal codes ``path`` can raise (see the module docstring),
    and the lines giving a code the scan cannot read (which would hide it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    raisers = dict.fromkeys(error_classes(), 1)
    forwarders = _forwarders(tree, raisers)
    raisers.update(forwarders)
    codes, unread = set(), []
    scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]
    for scope in scopes:
        nodes = list(_own_nodes(scope))
        for call in nodes:
            if not (isinstance(call, ast.Call) and _name(call) in raisers):
                continue
            argument = _code_argument(call, raisers[_name(call)])
            if argument is None:
                continue
            if isinstance(argument, ast.Constant):
                codes.add(argument.value)
                continue
            if isinstance(argument, ast.Name) and argument.id == "code" and getattr(scope, "name", None) in forwarders:
                continue  # a forwarder's own parameter: its callers give the code
            chosen = [node for node in nodes if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and isinstance(argument, ast.Name) and target.id == argument.id
                for target in node.targets
            )]
            if chosen:  # a code chosen first, then raised
                codes.update(*(_strings(node.value) for node in chosen))
            else:
                unread.append(f"{path.name}:{call.lineno}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            if any(isinstance(target, ast.Name) and target.id.endswith("REASONS") for target in node.targets):
                codes |= {key.value for key in node.value.keys if isinstance(key, ast.Constant)}
    return codes, unread


def codes_under(folder: Path) -> set:
    return set().union(*(scan(path)[0] for path in sorted(folder.glob("*.py"))))


SHARED_CODES = set().union(*(codes_under(PACKAGE / part) for part in ("core", "kits", "protocol", "shell")))


def messages(paths) -> set:
    return set().union(*(read_po(path) for path in paths))


def test_the_scan_finds_codes_of_every_kind():
    assert {"unknown_action", "not_now", "bad_field", "not_your_turn"} <= codes_under(PACKAGE / "core")
    assert {"bad_card", "duplicate_card", "bid_too_low", "illegal_card"} <= codes_under(PACKAGE / "kits")
    botifarra = codes_under(PACKAGE / "games" / "botifarra")
    assert {"botifarra.must_follow", "botifarra.cannot_delegate", "botifarra.bad_record"} <= botifarra  # assigned, raised, forwarded
    assert {"perudo.paco_opening", "perudo.calza_only"} <= codes_under(PACKAGE / "games" / "perudo")  # a REASONS table


def test_shared_codes_are_plain_and_translated_in_the_shared_catalogs():
    assert all("." not in code for code in SHARED_CODES), sorted(code for code in SHARED_CODES if "." in code)
    for lang in COMPLETE_LANGUAGES:
        shared = messages((PACKAGE / "i18n").glob(f"*.{lang}.po"))
        assert sorted(code for code in SHARED_CODES if f"err.{code}" not in shared) == [], lang


@pytest.mark.parametrize("game", GAMES)
def test_a_games_own_codes_are_named_after_it_and_translated_in_its_catalogs(game):
    folder = PACKAGE / "games" / game
    assert [line for path in sorted(folder.glob("*.py")) for line in scan(path)[1]] == []
    own = codes_under(folder) - SHARED_CODES
    assert own, "a game with no refusal of its own: is the scan blind?"
    assert sorted(code for code in own if not code.startswith(f"{game}.")) == []
    for lang in COMPLETE_LANGUAGES:
        catalog = messages((folder / "i18n").glob(f"*.{lang}.po"))
        assert sorted(code for code in own if f"err.{code}" not in catalog) == [], lang
