"""Every sub-package here is a game: ``core.registry.discover("pyengine.games")`` imports each,
and its ``__init__.py`` declares it (``core.registry.declare``). Discovery is automatic so that
adding a game never edits a shared file: see README.md here.
"""
