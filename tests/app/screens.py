"""Reading the worker's screens as the page does: buttons and their JSON, however quoted."""

import json
from html.parser import HTMLParser


class _Buttons(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list = []

    def handle_starttag(self, tag, attrs):
        if tag == "button":
            self.found.append(dict(attrs))


def button_attributes(html: str) -> list:
    """Every ``<button>``'s attributes (values unescaped, as the page's dataset sees them)."""
    parser = _Buttons()
    parser.feed(html)
    parser.close()
    return parser.found


def buttons(html: str, attribute: str) -> list:
    """The JSON values of the enabled buttons carrying ``attribute`` (``data-act``, ``data-ui``...)."""
    return [
        json.loads(attrs[attribute])
        for attrs in button_attributes(html)
        if attrs.get(attribute) is not None and "disabled" not in attrs
    ]


def handoff_seat(html: str) -> int:
    """The seat a pass-and-play hand-off screen hands the phone to."""
    return next(change["handoff"] for change in buttons(html, "data-ui") if "handoff" in change)
