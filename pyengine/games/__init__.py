"""Every sub-package here is a game; importing it declares the game (``core.registry.declare``).

Discovery is automatic so that adding a game never edits a shared file: see README.md here.
(A folder scan rather than ``pkgutil.iter_modules``, which imports ``inspect`` at start-up.)
"""

import importlib
from pathlib import Path

for _folder in sorted(Path(__file__).parent.iterdir()):
    if (_folder / "__init__.py").is_file():
        importlib.import_module(f"{__name__}.{_folder.name}")
