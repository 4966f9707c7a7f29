"""Errors that carry a human-readable reason plus a message-catalog key.

Every rejected input (an illegal move, bad options, a corrupt save, a hostile peer
message) raises one of these. ``code`` and ``params`` let the interface translate the
reason; ``str(error)`` is the English reason, good enough for logs and bug reports.
"""


class TabernaError(ValueError):
    """Base class: a rejected input. The state it was aimed at is left untouched."""

    def __init__(self, reason: str, code: str = "error", **params):
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.params = params

    def to_json(self) -> dict:
        return {"reason": self.reason, "code": self.code, "params": self.params}


class IllegalAction(TabernaError):
    """The action is well formed or not, but the rules do not allow it now."""


class InvalidOptions(TabernaError):
    """Table options that the game does not accept."""


class BadSave(TabernaError):
    """A saved table that cannot be restored (corrupt, tampered or from another format)."""
