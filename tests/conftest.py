"""Set-up for every test folder."""

import importlib.util
from pathlib import Path

from pyengine.core.registry import discover

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config):
    """Compiles the gettext catalogs (``pyengine/i18n/compiled/<lang>.mo``, a build output)
    when a ``.po`` is newer, so plain ``python -m pytest`` needs no build first."""
    spec = importlib.util.spec_from_file_location("taberna_po", ROOT / "buildtools" / "po.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.compile_catalogs()
    discover("pyengine.games")
