"""The folders the build reads and writes, and the one way it writes a finished thing: made
beside its place, then renamed into it, so nothing ever sees it half made (neither a server
serving ``dist/`` nor another build running at the same time: tests make private builds)."""

import contextlib
import hashlib
import importlib
import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
SITE = ROOT / "site"
ASSETS = ROOT / "assets"
PACKAGE = ROOT / "pyengine"
BUILDTOOLS = ROOT / "buildtools"


def log(message: str) -> None:
    print(f"[build] {message}", flush=True)


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def engine(module: str):
    """A module of the engine package: the languages, catalogs, games and lobby markup are
    the engine's own, so the static page and the worker never disagree. Imported when first
    asked for, after the build has compiled the catalogs the engine reads (the folder that
    holds ``buildtools`` holds ``pyengine`` too)."""
    return importlib.import_module(module)


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


@contextlib.contextmanager
def built_beside(target: Path, replace: bool = False):
    """Yields a path beside ``target``, not made yet, for the block to make (a file or a
    folder); when the block succeeds, that path takes ``target``'s place by a rename.

    A file replaces the old one. Cached folders are named by what goes into them, so when
    another build made ``target`` first, ours is the same and is dropped; ``replace=True``
    swaps out an older folder instead (the site in ``dist/``).
    """
    fresh = target.with_name(f".{target.name}.building-{os.getpid()}")
    _remove(fresh)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        yield fresh
    except BaseException:
        _remove(fresh)
        raise
    if replace and target.is_dir():
        retired = target.with_name(f".{target.name}.old-{os.getpid()}")
        target.rename(retired)
        fresh.rename(target)
        _remove(retired)
        return
    try:
        fresh.replace(target)
    except OSError:  # a folder that another build made first
        _remove(fresh)
