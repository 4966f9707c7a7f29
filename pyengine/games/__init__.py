"""Every sub-package here is a game; importing it declares the game (``core.registry.declare``).

Discovery is automatic so that adding a game never edits a shared file: see README.md here.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    if _module.ispkg:
        importlib.import_module(f"{__name__}.{_module.name}")
