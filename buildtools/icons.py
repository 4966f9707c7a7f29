"""The site's icons: the SVG art as it is, the manifest's PNG icons rendered from it by
resvg, and where the page's inline SVG art comes from (each declared game's lobby icon
from its package)."""

import shutil
import sys
from pathlib import Path

from buildtools.pypi_tools import build_tools
from buildtools.transit import smaller_png
from buildtools.workspace import ASSETS, engine

# The manifest's PNG icons: (file, SVG source in assets/, size in pixels).
PNG_ICONS = (
    ("icon-192.png", "icon.svg", 192),
    ("icon-512.png", "icon.svg", 512),
    ("icon-maskable-512.png", "icon-maskable.svg", 512),
)


def render_png(svg: Path, size: int) -> bytes:
    """``svg`` rendered by resvg as a ``size`` x ``size`` PNG."""
    tools = str(build_tools())
    sys.path.insert(0, tools)
    try:
        import resvg_py

        return bytes(resvg_py.svg_to_bytes(svg_path=str(svg), width=size, height=size, skip_system_fonts=True))
    finally:
        sys.path.remove(tools)


def write_icons(dest: Path) -> None:
    """The SVG art as it is, and the manifest's PNG icons rendered from it (then compressed
    harder: a host sends PNG files as they are)."""
    dest.mkdir(parents=True, exist_ok=True)
    for svg in sorted(ASSETS.glob("*.svg")):
        shutil.copyfile(svg, dest / svg.name)
    for name, source, size in PNG_ICONS:
        (dest / name).write_bytes(smaller_png(render_png(ASSETS / source, size)))


def svg_art() -> dict:
    """``{path the page names: source file}`` of the SVG art the page shows inline: the
    site's own (``icons/<name>`` from assets/) and each declared game's ``icon.svg`` (in its
    package) as ``icons/game-<id>.svg``, the lobby card's image."""
    art = {f"icons/{svg.name}": svg for svg in sorted(ASSETS.glob("*.svg"))}
    for declaration in engine("pyengine.core.registry").discover("pyengine.games"):
        art[f"icons/game-{declaration.id}.svg"] = declaration.icon
    return art
