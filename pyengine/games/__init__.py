"""Every sub-package here is a game; importing it registers the game (see core.registry).

Discovery is automatic so that adding a game never edits a shared file.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    if _module.ispkg:
        importlib.import_module(f"{__name__}.{_module.name}")
