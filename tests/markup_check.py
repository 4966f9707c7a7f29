"""Finds live markup that hostile values managed to create in rendered HTML.

Used by the hostile-render tests: a screen is rendered with payloads such as
``<img src=x onerror=…>`` in every field, parsed with the standard library's HTML parser (as
a browser would tokenise it), and every element and attribute is checked: any event-handler
attribute, ``style`` attribute, script-like element or ``javascript:`` URL means a value
escaped its text or attribute and became markup.
"""

from html.parser import HTMLParser

HOSTILE = (
    "<img src=x onerror=alert(1)>",
    '"><svg onload=alert(2)>',
    "' onmouseover='alert(3)",
    "</textarea><script>alert(4)</script>",
    "javascript:alert(5)",
    "&lt;b&gt;&amp;",
    "\u202eevil\u202c",
)
_DANGEROUS_TAGS = {"script", "iframe", "object", "embed", "img", "style", "link", "meta", "base", "form", "foreignobject"}


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list = []

    def handle_starttag(self, tag, attrs):
        if tag in _DANGEROUS_TAGS:
            self.problems.append(f"<{tag}> element")
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.problems.append(f"{name}= attribute on <{tag}>")
            if name in ("href", "src", "xlink:href", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL in {name} on <{tag}>")

    handle_startendtag = handle_starttag


def live_markup(html: str) -> list:
    """Problems found in ``html`` (empty when no hostile value became markup)."""
    collector = _Collector()
    collector.feed(str(html))
    collector.close()
    return collector.problems
