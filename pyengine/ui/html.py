"""The two kinds of interactive buttons, built with ``markup.h``.

A ``data-act`` button plays an action for the seat whose screen it is; a ``data-ui`` button
changes only what this screen shows. The page's glue delegates clicks on both and reads the
attribute as JSON.
"""

from .markup import Markup, h


def act_button(label, action: dict, *, cls="", **attrs) -> Markup:
    """A button that plays ``action``; ``label`` is text or built markup."""
    return h("button", {"type": "button", "class": cls or None, "data-act": action, **attrs}, label)


def ui_button(label, change: dict, *, cls="", **attrs) -> Markup:
    """A button that merges ``change`` into the screen's UI state."""
    return h("button", {"type": "button", "class": cls or None, "data-ui": change, **attrs}, label)
