"""Build-time libraries from PyPI (polib, markdown-it-py): imported as they are when the
Python running already has them, otherwise from the folder ``build.py`` installs its build
tools into (``.cache/tools/``, installed there with pip on first use)."""

import importlib
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tool(module: str):
    """The module ``module``, from this Python or from build.py's tools folder."""
    try:
        return importlib.import_module(module)
    except ImportError:
        spec = importlib.util.spec_from_file_location("taberna_build", ROOT / "build.py")
        build = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(build)
        sys.path.append(str(build.build_tools()))
        return importlib.import_module(module)
