"""Small HTML helpers: escaping and the two kinds of interactive buttons.

A ``data-act`` button plays an action for the seat whose screen it is; a ``data-ui`` button
changes only what this screen shows. The page's glue delegates clicks on both.
"""

import json
from html import escape


def attr_json(value) -> str:
    """A JSON value safe inside a single-quoted HTML attribute."""
    return escape(json.dumps(value, separators=(",", ":"), sort_keys=True), quote=True)


def _attrs(extra: dict) -> str:
    parts = []
    for name, value in extra.items():
        if value is None or value is False:
            continue
        if value is True:
            parts.append(f" {name}")
        else:
            parts.append(f' {name}="{escape(str(value), quote=True)}"')
    return "".join(parts)


def act_button(label_html: str, action: dict, *, cls: str = "", **extra) -> str:
    """A button that plays ``action``; ``label_html`` is trusted markup (escape text first)."""
    return (
        f"<button type=\"button\" class=\"{escape(cls)}\" data-act='{attr_json(action)}'"
        f"{_attrs(extra)}>{label_html}</button>"
    )


def ui_button(label_html: str, change: dict, *, cls: str = "", **extra) -> str:
    """A button that merges ``change`` into the screen's UI state."""
    return (
        f"<button type=\"button\" class=\"{escape(cls)}\" data-ui='{attr_json(change)}'"
        f"{_attrs(extra)}>{label_html}</button>"
    )
