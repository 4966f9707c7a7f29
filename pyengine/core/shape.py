"""Shapes of plain JSON data: what a guest checks a host's view against before drawing it.

A shape is a small tree of combinators::

    Dict({"you": Optional(Seat()), "counts": PerSeat(Int(0, 5)), "name": Str(24)},
         optional={"players": PLAYERS})

``shape.check(value, seats)`` returns nothing or raises ``ShapeError`` naming the path of
the first misfit (``players[2].name: longer than 24 characters``); ``shape.fits`` says yes
or no. Leaves: ``Int(lo, hi)``, ``Number(lo, hi)``, ``Str(max_len, pattern)``, ``Bool()``,
``Enum(*values)``, ``Seat()``, ``Unchecked()``. Containers: ``List(item, max_len)``,
``Tuple(*items)``, ``PerSeat(item)``, ``Seats()``, ``Dict(fields, optional, other)`` (exact
keys, unless ``other`` is the shape of any other key's value), ``Map(key, value, max_len)``.
Choices and checks across fields: ``Optional(shape)``, ``OneOf(*shapes)``,
``Where(shape, test, why)``.

Seats are relative: a view belongs to a table of ``seats`` seats, given to ``check``, so
``Seat()`` is a seat number of that table and ``PerSeat(item)`` one item per seat. A game
declares one shape for every table size, and a view of a 3-seat table that names seat 5
or lists 4 cups does not fit. Every number has a range and every list and text a length,
so what fits is small and what a renderer indexes exists.

Why not jsonschema: it needs rpds-py, a compiled extension that Pyodide's core lacks (the
site loads Pyodide with no packages). Pure-Python validators (fastjsonschema, voluptuous)
would be one more dependency to ship into every phone for what is ~150 lines here, and
JSON Schema cannot say "a seat below this table's seat count" or "the legal moves of this
position" without a schema per table size plus custom code anyway.
"""

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_KEY_SHOWN = 32  # a hostile key is cut short in the path


class ShapeError(ValueError):
    """A value that does not fit; ``where`` is its path (``players[2].name``), ``why`` the misfit."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why
        self.path: list = []  # filled in by the containers on the way out, outermost first

    @property
    def where(self) -> str:
        parts = []
        for step in self.path:
            if type(step) is int:
                parts.append(f"[{step}]")
            elif _PLAIN_KEY.fullmatch(step):
                parts.append(f".{step}")
            else:
                parts.append("[" + repr(step[:MAX_KEY_SHOWN]) + "]")
        return "".join(parts).lstrip(".") or "(top)"

    def __str__(self) -> str:
        return f"{self.where}: {self.why}"


def _same(a, b) -> bool:
    """Equal as JSON: ``True`` is not ``1``, ``[1]`` is not ``[1.0]``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


class Shape:
    def check(self, value, seats: int) -> None:
        """Nothing if ``value`` fits at a table of ``seats`` seats, else ``ShapeError``."""
        self.walk(value, seats)

    def fits(self, value, seats: int) -> bool:
        try:
            self.walk(value, seats)
        except ShapeError:
            return False
        return True

    def walk(self, value, seats: int) -> None:
        raise NotImplementedError


# --- leaves ---------------------------------------------------------------------------------
class Int(Shape):
    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def walk(self, value, seats):
        if type(value) is not int:
            raise ShapeError("not a whole number")
        if not self.lo <= value <= self.hi:
            raise ShapeError(f"not from {self.lo} to {self.hi}")


class Number(Shape):
    """A whole or decimal number from ``lo`` to ``hi`` (never ``True``; parsed JSON holds no
    infinity or NaN)."""

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def walk(self, value, seats):
        if type(value) not in (int, float):
            raise ShapeError("not a number")
        if not self.lo <= value <= self.hi:
            raise ShapeError(f"not from {self.lo} to {self.hi}")


class Unchecked(Shape):
    """Any value: one another layer checks (an action's fields, which its game's move table
    checks; a view, which the guest checks against its game's ``view_shape``)."""

    def walk(self, value, seats):
        return None


class Seat(Shape):
    """A seat number of this table: 0 to ``seats - 1``."""

    def walk(self, value, seats):
        if type(value) is not int or not 0 <= value < seats:
            raise ShapeError(f"not a seat number below {seats}")


class Str(Shape):
    """Text of at most ``max_len`` characters (valid Unicode), matching ``pattern`` if given.
    Markup characters fit (screens escape text by construction) and so do control characters
    (a name typed on the host's device may hold a tab): refusing them would lock guests out."""

    def __init__(self, max_len: int, pattern: str | None = None):
        self.max_len = max_len
        self.pattern = re.compile(pattern) if pattern else None

    def walk(self, value, seats):
        if not isinstance(value, str):
            raise ShapeError("not text")
        if len(value) > self.max_len:
            raise ShapeError(f"longer than {self.max_len} characters")
        if _SURROGATE.search(value):
            raise ShapeError("not valid Unicode text")
        if self.pattern and not self.pattern.fullmatch(value):
            raise ShapeError("not in the expected notation")


class Bool(Shape):
    def walk(self, value, seats):
        if type(value) is not bool:
            raise ShapeError("not true or false")


class Enum(Shape):
    """One of a few exact values (compared as JSON, so ``True`` is not ``1``)."""

    def __init__(self, *values):
        self.values = values
        # Only texts (the usual case): a set lookup says the same as comparing one by one.
        self.texts = frozenset(values) if all(type(v) is str for v in values) else None

    def walk(self, value, seats):
        if self.texts is not None:
            if type(value) is not str or value not in self.texts:
                raise ShapeError("not one of the expected values")
        elif not any(_same(value, allowed) for allowed in self.values):
            raise ShapeError("not one of the expected values")


# --- containers -----------------------------------------------------------------------------
class List(Shape):
    def __init__(self, item: Shape, max_len: int, min_len: int = 0):
        self.item, self.max_len, self.min_len = item, max_len, min_len

    def bounds(self, seats: int) -> tuple:
        return self.min_len, self.max_len

    def walk(self, value, seats):
        if not isinstance(value, list):
            raise ShapeError("not a list")
        low, high = self.bounds(seats)
        if not low <= len(value) <= high:
            raise ShapeError(
                f"has {len(value)} items, not {low}" if low == high else f"has {len(value)} items, not {low} to {high}"
            )
        walk = self.item.walk
        index = 0
        try:
            for index, item in enumerate(value):
                walk(item, seats)
        except ShapeError as error:
            error.path.insert(0, index)
            raise


class PerSeat(List):
    """One ``item`` per seat of the table, in seat order."""

    def __init__(self, item: Shape):
        super().__init__(item, 0)

    def bounds(self, seats: int) -> tuple:
        return seats, seats


class Seats(List):
    """A list of distinct seat numbers of this table (who is to act, who won)."""

    def __init__(self, min_len: int = 0):
        super().__init__(Seat(), 0, min_len)

    def bounds(self, seats: int) -> tuple:
        return self.min_len, seats

    def walk(self, value, seats):
        super().walk(value, seats)
        if len(set(value)) != len(value):
            raise ShapeError("names a seat twice")


class Tuple(Shape):
    """A list of fixed length whose items have shapes of their own."""

    def __init__(self, *items: Shape):
        self.items = items

    def walk(self, value, seats):
        if not isinstance(value, list) or len(value) != len(self.items):
            raise ShapeError(f"not a list of {len(self.items)} items")
        index = 0
        try:
            for index, (shape, item) in enumerate(zip(self.items, value)):
                shape.walk(item, seats)
        except ShapeError as error:
            error.path.insert(0, index)
            raise


class Dict(Shape):
    """An object with exactly the keys of ``fields``, plus any of ``optional``; with ``other``,
    any further key too, its value fitting ``other``."""

    def __init__(self, fields: dict, optional: dict | None = None, other: Shape | None = None):
        self.fields = fields
        self.optional = optional or {}
        self.other = other

    def walk(self, value, seats):
        if not isinstance(value, dict):
            raise ShapeError("not an object")
        fields, optional, other = self.fields, self.optional, self.other
        for key in fields:
            if key not in value:
                raise ShapeError(f"lacks {key!r}")
        if len(value) > len(fields) and other is None:
            for key in value:
                if key not in fields and key not in optional:
                    raise ShapeError(f"has an unexpected key {str(key)[:MAX_KEY_SHOWN]!r}")
        key = None
        try:
            for key, item in value.items():
                (fields.get(key) or optional.get(key) or other).walk(item, seats)
        except ShapeError as error:
            error.path.insert(0, key)
            raise


class Map(Shape):
    """An object with at most ``max_len`` entries, any keys that fit ``key``."""

    def __init__(self, key: Shape, value: Shape, max_len: int):
        self.key, self.value, self.max_len = key, value, max_len

    def walk(self, value, seats):
        if not isinstance(value, dict):
            raise ShapeError("not an object")
        if len(value) > self.max_len:
            raise ShapeError(f"has more than {self.max_len} entries")
        for key, item in value.items():
            if not self.key.fits(key, seats):
                raise ShapeError(f"has an unexpected key {str(key)[:MAX_KEY_SHOWN]!r}")
            try:
                self.value.walk(item, seats)
            except ShapeError as error:
                error.path.insert(0, key)
                raise


# --- choices and cross-checks ---------------------------------------------------------------
class Optional(Shape):
    """``None`` or ``shape``."""

    def __init__(self, shape: Shape):
        self.shape = shape

    def walk(self, value, seats):
        if value is not None:
            self.shape.walk(value, seats)


class OneOf(Shape):
    """Fits at least one of ``shapes`` (tried in order).

    Objects told apart by a tag (every form a ``Dict`` requiring the same key, an ``Enum``
    of texts that no two forms share, like ``{"event": "ante", ...}``) are checked against
    the one form their tag names: no other could fit, and trying each form in turn (a
    misfit raised and caught per form) made long event lists slow to check."""

    def __init__(self, *shapes: Shape):
        self.shapes = shapes
        self.tag, self.by_tag = _tagged_forms(shapes)

    def walk(self, value, seats):
        if self.tag is not None:
            tag = value.get(self.tag) if type(value) is dict else None
            form = self.by_tag.get(tag) if type(tag) is str else None
            if form is not None and form.fits(value, seats):
                return
        elif any(shape.fits(value, seats) for shape in self.shapes):
            return
        raise ShapeError(f"fits none of its {len(self.shapes)} forms")


def _tagged_forms(shapes) -> tuple:
    """``(key, {tag: form})`` when every one of ``shapes`` is a ``Dict`` requiring ``key``
    as an ``Enum`` of texts, no text in two forms; else ``(None, None)``."""
    if not shapes or not all(type(shape) is Dict for shape in shapes):
        return None, None
    for key in shapes[0].fields:
        by_tag = {}
        for shape in shapes:
            tag = shape.fields.get(key)
            if type(tag) is not Enum or tag.texts is None or not tag.texts.isdisjoint(by_tag):
                break
            by_tag.update(dict.fromkeys(tag.texts, shape))
        else:
            return key, by_tag
    return None, None


class Where(Shape):
    """``shape``, and then ``test(value)`` true: what ties fields together (a die count that
    matches a cup, moves that are the position's legal moves). ``why`` names the misfit."""

    def __init__(self, shape: Shape, test, why: str):
        self.shape, self.test, self.why = shape, test, why

    def walk(self, value, seats):
        self.shape.walk(value, seats)
        if not self.test(value):
            raise ShapeError(self.why)
