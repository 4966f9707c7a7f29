"""Build-time libraries from PyPI, installed once with ``pip install --target`` into
``.cache/tools/<key>/`` (never into the system's Python, so PEP 668 does not object): the
wheel's build backend, as pyproject.toml's ``[build-system] requires`` pins it, and
``BUILD_ONLY_TOOLS``. Keyed by the requirements, so a changed pin gets a fresh folder."""

import hashlib
import importlib
import importlib.util
import json
import subprocess
import sys
import tomllib

from buildtools.workspace import CACHE, ROOT, built_beside, log

# resvg renders assets/*.svg into the manifest's PNG icons; polib compiles the gettext
# catalogs (buildtools/po.py); markdown-it-py (with its mdurl) renders the how-to-play pages
# (buildtools/howto.py); zopfli compresses what is served compressed (buildtools/transit.py).
BUILD_ONLY_TOOLS = ["resvg-py==0.5.0", "polib==1.2.0", "markdown-it-py==4.3.0", "mdurl==0.1.2", "zopfli==0.4.3"]


def build_tools():
    """The folder the build tools are installed in (installed on first use)."""
    build_system = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    requirements = [*build_system["requires"], *BUILD_ONLY_TOOLS]
    folder = CACHE / "tools" / hashlib.sha256(json.dumps(requirements).encode()).hexdigest()[:12]
    if folder.exists():
        return folder
    if importlib.util.find_spec("pip") is None:
        sys.exit("pip is needed to fetch the build tools (on Debian: apt-get install python3-pip)")
    log(f"installing {', '.join(requirements)} with pip into {folder.relative_to(ROOT)}/")
    with built_beside(folder) as fresh:
        subprocess.run(
            [
                sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                "--only-binary=:all:", "--target", str(fresh), *requirements,
            ],
            check=True,
        )
    return folder


def tool(module: str):
    """The module ``module``, from this Python when it has it (polib, markdown-it-py),
    otherwise from the build tools' folder."""
    try:
        return importlib.import_module(module)
    except ImportError:
        sys.path.append(str(build_tools()))
        return importlib.import_module(module)
