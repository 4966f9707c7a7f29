"""Fixtures for every test folder."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def build_module():
    """build.py, loaded as a module (it is the project's script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("taberna_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
