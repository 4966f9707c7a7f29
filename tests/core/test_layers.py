"""The packages depend one way: core <- kits, records <- games <- shell, and records <- protocol <- shell. A module that imports
against that direction (core naming a kit or a game, a kit naming a game) fails here."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "pyengine"
# What each package may import from pyengine, besides itself.
ALLOWED = {
    "core": set(),
    "kits": {"core"},
    # the catalogs (a leaf): names may not read as a seat's label; records: a table that is not
    # fair sends its guests its whole record at the end, and they read it as an import
    "protocol": {"core", "i18n", "records"},
    "ui": {"core", "kits"},
    "i18n": set(),
    "records": {"core", "i18n"},  # finds a game's notation through its declaration, as bots
    "games": {"core", "kits", "ui", "i18n", "records"},
    "shell": {"core", "kits", "protocol", "ui", "i18n", "games", "records"},
}


def pyengine_imports(path: Path) -> set:
    """The top-level pyengine packages that ``path`` imports, absolute or relative."""
    package_parts = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_parts[: len(package_parts) - node.level + 1]
                parts = (*base, *(node.module.split(".") if node.module else ()))
                names = [(*parts, alias.name) for alias in node.names] if not node.module else [parts]
            else:
                names = [tuple(node.module.split("."))]
        elif isinstance(node, ast.Import):
            names = [tuple(alias.name.split(".")) for alias in node.names]
        else:
            continue
        found |= {name[1] for name in names if len(name) > 1 and name[0] == "pyengine"}
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_package_imports_only_the_layers_under_it(package):
    wrong = {
        str(path.relative_to(PACKAGE)): sorted(imported - ALLOWED[package] - {package})
        for path in (PACKAGE / package).rglob("*.py")
        if (imported := pyengine_imports(path)) - ALLOWED[package] - {package}
    }
    assert wrong == {}


def test_the_scan_sees_relative_imports():
    shell = pyengine_imports(PACKAGE / "shell" / "calls.py")
    assert {"core", "i18n"} <= shell
    assert "core" in pyengine_imports(PACKAGE / "kits" / "trick_taking.py")
