"""Set-up for every test folder."""

import importlib.util
from pathlib import Path

from pyengine.core.registry import discover

ROOT = Path(__file__).resolve().parents[1]


def build_step(name: str):
    """The module ``buildtools/<name>.py``, loaded from its path."""
    spec = importlib.util.spec_from_file_location(f"taberna_{name}", ROOT / "buildtools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pytest_configure(config):
    """Compiles the gettext catalogs (``pyengine/i18n/compiled/<lang>.mo``) when a ``.po`` is
    newer, and the names' look-alike letters (``pyengine/protocol/compiled/``), build outputs,
    so plain ``python -m pytest`` needs no build first."""
    config.addinivalue_line(
        "markers", "caching: the test's browser context runs the service worker and makes the memory snapshot"
    )
    build_step("po").compile_catalogs()
    build_step("confusables").compile_table()
    discover("pyengine.games")
