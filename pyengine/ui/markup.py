"""Markup that escapes by construction: every screen's HTML and SVG is built here.

A screen is a tree of ``h(tag, attrs, *children)`` calls, in the spirit of python-chess's
``chess.svg`` (which builds its SVG as an element tree): nothing is pasted into a template,
so no value from a view, a peer or a catalog can become live markup.

* **Text** children (``str``) are always escaped; numbers are formatted here (``fmt``).
* **Attribute** values are always escaped and quoted. ``True`` writes a boolean attribute,
  ``None``/``False`` leave it out, a list or tuple for ``class`` is joined (falsy entries
  dropped), a dict or list elsewhere is written as compact JSON (``data-act``, ``data-ui``).
* **Raw markup** enters only as an already-built ``Markup`` fragment: there is no way to
  wrap a plain string as markup.
* **Never allowed**: ``on*`` event-handler attributes and ``style`` attributes (the site's
  Content-Security-Policy forbids inline script and inline style: use classes, or SVG
  geometry attributes), ``javascript:``/``data:``/``vbscript:`` URLs, and tag or attribute
  names outside a safe alphabet. Breaking one of these rules is a programming error and
  raises ``ValueError`` at once, in CPython tests, not in a player's browser.
"""

import json
import math
import re
from html import escape

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-:_.][A-Za-z0-9]+)*\Z")
_URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "xlink:href", "poster"})
_UNSAFE_URL = re.compile(r"\s*(?:javascript|data|vbscript)\s*:", re.IGNORECASE)
# HTML elements that never have content, and SVG shapes written self-closed to stay short.
_VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
_SVG_LEAVES = frozenset({"circle", "ellipse", "line", "path", "polygon", "polyline", "rect", "stop", "use"})


class Markup:
    """A built, safe fragment of HTML/SVG. ``str(fragment)`` is the markup text."""

    __slots__ = ("_html",)

    def __init__(self, html: str = "", *, _built: bool = False):
        if not _built:
            raise TypeError("Markup is made by h() and fragment(), never from a string")
        self._html = html

    def __str__(self) -> str:
        return self._html

    def __repr__(self) -> str:
        return f"Markup({self._html!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Markup) and other._html == self._html

    def __hash__(self) -> int:
        return hash(self._html)

    def __bool__(self) -> bool:
        return bool(self._html)

    def __add__(self, other):
        if not isinstance(other, Markup):
            return NotImplemented
        return Markup(self._html + other._html, _built=True)


EMPTY = Markup("", _built=True)


def fmt(number) -> str:
    """A number as markup text: integers as they are, other numbers with at most 3 decimals."""
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise TypeError(f"not a number: {number!r}")
    if isinstance(number, int):
        return str(number)
    if not math.isfinite(number):
        raise ValueError(f"not a finite number: {number!r}")
    text = f"{number:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


_CHECKED_NAMES: set = set()  # names already found safe: screens reuse a few dozen of them


def _check_name(kind: str, name) -> str:
    if name in _CHECKED_NAMES:
        return name
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"unsafe {kind} name: {name!r}")
    _CHECKED_NAMES.add(name)
    return name


_ALLOWED_ATTRIBUTES: dict = {}  # name -> lower-case name, for names already found allowed


def _attribute_name(name) -> str:
    """The lower-case form of an allowed attribute name; refuses handlers and inline style."""
    lowered = _ALLOWED_ATTRIBUTES.get(name)
    if lowered is None:
        _check_name("attribute", name)
        lowered = name.lower()
        if lowered.startswith("on") or lowered == "style":
            raise ValueError(f"attribute {name} is not allowed (inline script or style)")
        _ALLOWED_ATTRIBUTES[name] = lowered
    return lowered


def _attribute_text(name: str, value) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return fmt(value)
    if isinstance(value, str):
        text = value
    elif name == "class" and isinstance(value, (list, tuple)):
        text = " ".join(str(part) for part in value if part)
    elif isinstance(value, (dict, list, tuple)):
        text = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    else:
        raise TypeError(f"attribute {name}: cannot write {type(value).__name__}")
    if name in _URL_ATTRIBUTES and _UNSAFE_URL.match(text):
        raise ValueError(f"attribute {name}: unsafe URL")
    return text


# Written attributes by (name, kind, value): screens repeat the same few hundred (classes,
# roles, test hooks, labels, SVG geometry), so each is checked and escaped once. Only text
# and numbers are kept, and only once they passed every check; the cache is emptied when
# full, so it cannot grow without bound.
_WRITTEN: dict = {}
_WRITTEN_LIMIT = 8192
_KEPT_KINDS = frozenset({str, int, float})


def _attribute(name, value) -> str:
    """One attribute as written (`` name="value"``), or "" when left out."""
    kind = type(value)
    if kind in _KEPT_KINDS:
        written = _WRITTEN.get((name, kind, value))
        if written is None:
            written = f' {name}="{escape(_attribute_text(_attribute_name(name), value), quote=True)}"'
            if len(_WRITTEN) >= _WRITTEN_LIMIT:
                _WRITTEN.clear()
            _WRITTEN[(name, kind, value)] = written
        return written
    lowered = _attribute_name(name)
    if value is None or value is False:
        return ""
    if value is True:
        return " " + name
    if lowered == "class" and kind is list:  # the usual class list: its joined text is kept
        return _attribute(name, " ".join(str(part) for part in value if part))
    return f' {name}="{escape(_attribute_text(lowered, value), quote=True)}"'


def _attributes(attrs) -> str:
    if not isinstance(attrs, dict):
        raise TypeError("attributes must be a dict")
    return "".join([_attribute(name, value) for name, value in attrs.items()])


def _children(children, out: list) -> None:
    for child in children:
        kind = type(child)
        if kind is str:
            out.append(escape(child, quote=False) if ("&" in child or "<" in child or ">" in child) else child)
        elif kind is Markup:
            out.append(child._html)
        elif child is None or child is False:
            continue
        elif isinstance(child, Markup):
            out.append(child._html)
        elif isinstance(child, str):
            out.append(escape(child, quote=False))
        elif isinstance(child, (int, float)) and not isinstance(child, bool):
            out.append(fmt(child))
        elif isinstance(child, (list, tuple)) or hasattr(child, "__next__"):
            _children(child, out)
        else:
            raise TypeError(f"cannot place {type(child).__name__} in markup")


def _built(html: str) -> Markup:
    """A fragment this module has built (skips the constructor's refusal of plain strings)."""
    made = _new_markup(Markup)
    made._html = html
    return made


_new_markup = Markup.__new__


def h(tag: str, attrs: dict | None = None, *children) -> Markup:
    """One element: ``h("p", {"class": "note"}, "Hello ", h("b", None, name))``.

    Children may be text, numbers, ``Markup``, ``None``/``False`` (skipped), or lists and
    generators of those (flattened), so screens read as nested calls.
    """
    if tag not in _CHECKED_NAMES:
        _check_name("tag", tag)
    inner: list = []
    if children:
        _children(children, inner)
    start = f"<{tag}{_attributes(attrs)}" if attrs else "<" + tag
    if tag in _VOID:
        if inner:
            raise ValueError(f"<{tag}> cannot have content")
        return _built(start + ">")
    if not inner and tag in _SVG_LEAVES:
        return _built(start + "/>")
    return _built(f"{start}>{''.join(inner)}</{tag}>")


def fragment(*children) -> Markup:
    """Siblings without a wrapping element (same children rules as ``h``)."""
    inner: list = []
    _children(children, inner)
    return _built("".join(inner))
