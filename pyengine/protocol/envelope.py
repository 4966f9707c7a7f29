"""The wire format: one JSON object per message, versioned, with a fixed schema per kind.

Every message is ``{"v": PROTOCOL, "kind": <kind>, "table": <table id>, ...}`` with exactly
the fields its kind declares, so junk never gets past the door. Guests send few, small
messages, hence a tight inbound size limit; the host sends views, which may be larger.
``decode`` is the single gate for untrusted text: it raises ``ProtocolError`` (a reason plus
a catalog code) and never anything else.
"""

import json
import math
import re

from ..core.errors import TabernaError
from ..core.game import LEVEL
from ..core.shape import Bool, Dict, Enum, PerSeat, Str, Where
from ..core.table import MAX_NAME, SEAT_KINDS
from ..core.validate import MAX_JSON_DEPTH

PROTOCOL = 1
MAX_INBOUND = 8 * 1024  # bytes, guest -> host: intents, joins, pings
MAX_OUTBOUND = 256 * 1024  # bytes, host -> guest: views and seat lists
MAX_SEATS = 64
MAX_NUMBER = 1 << 53  # larger integers do not survive a trip through JavaScript
MAX_ACTION_TYPE = 32
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


class ProtocolError(TabernaError):
    """A message (or a local call) that breaks the protocol; nothing was changed."""


# --- field checks: each returns nothing or raises ProtocolError ----------------------------
def _bad(field: str, why: str):
    return ProtocolError(f"Field {field!r} {why}", "sync_bad_field", field=field)


def check_id(field, value):
    """Table ids and seat tokens: short, URL-safe, so they fit in links and QR codes."""
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise _bad(field, "must be 1 to 64 letters, digits, '-' or '_'")


def _count(field, value):
    if type(value) is not int or not 0 <= value <= MAX_NUMBER:
        raise _bad(field, "must be a non-negative whole number")


def check_seat(field, value):
    if type(value) is not int or not 0 <= value < MAX_SEATS:
        raise _bad(field, f"must be a seat number below {MAX_SEATS}")


def _seat_or_none(field, value):
    if value is not None:
        check_seat(field, value)


def _count_or_none(field, value):
    if value is not None:
        _count(field, value)


def _id_or_none(field, value):
    if value is not None:
        check_id(field, value)


def _time(field, value):
    if type(value) not in (int, float) or not (0 <= value <= MAX_NUMBER):
        raise _bad(field, "must be a time in milliseconds")


def check_name(field, value):
    """Printable, short; the host also strips what would disguise a name
    (``host.clean_name``: bidi overrides, zero-width characters) before anyone sees it."""
    if not isinstance(value, str) or len(value) > MAX_NAME or _CONTROL.search(value):
        raise _bad(field, f"must be a name of at most {MAX_NAME} printable characters")


def _text(field, value):
    if not isinstance(value, str):
        raise _bad(field, "must be text")


def _action(field, value):
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise _bad(field, "must be an object with a 'type'")
    if not 0 < len(value["type"]) <= MAX_ACTION_TYPE:
        raise _bad(field, "has a bad 'type'")


def _flag(field, value):
    if not isinstance(value, bool):
        raise _bad(field, "must be true or false")


def _object(field, value):
    if not isinstance(value, dict):
        raise _bad(field, "must be an object")


def _list(field, value):
    if not isinstance(value, list):
        raise _bad(field, "must be a list")


# What guests may send. Few kinds, each with every field required and none extra.
INBOUND = {
    "join": {"table": check_id, "seat": _seat_or_none, "name": check_name},
    "rejoin": {"table": check_id, "seat": check_seat, "token": check_id},
    "intent": {
        "table": check_id,
        "seat": check_seat,
        "action": _action,
        "version": _count,
        "seq": _count,
    },
    "sync": {"table": check_id},
    "ping": {"table": check_id, "t": _time},
}

# A state's ``seats``, as ``Host.public_seats`` makes them: the guest checks them with the
# view (``Guest.receive``), since they become the ``players`` its screen draws.
PUBLIC_SEATS = PerSeat(Where(
    Dict(
        {"kind": Enum(*SEAT_KINDS), "name": Str(MAX_NAME), "open": Bool(), "covered": Bool(), "connected": Bool()},
        optional={"level": LEVEL},
    ),
    lambda seat: ("level" in seat) == (seat["kind"] == "bot"),
    "a bot's seat has a level, and no other seat has",
))

# What the host sends. Guests check it too: a broken or hostile host must not crash them.
OUTBOUND = {
    "welcome": {
        "table": check_id,
        "game": check_id,
        "seat": _seat_or_none,
        "token": _id_or_none,
        "room": _id_or_none,  # the room code, for a seated guest to find the host again
    },
    "state": {
        "table": check_id,
        "version": _count,
        "rev": _count,
        "started": _flag,
        "acted": _count_or_none,
        "seats": _list,
        "view": _object,
    },
    "error": {
        "table": check_id,
        "code": _text,
        "reason": _text,
        "params": _object,
        "ref": _count_or_none,
    },
    "pong": {"table": check_id, "t": _time, "rev": _count},
}


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("number out of range")
    return value


def _unique_keys(pairs):
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("duplicate key")
    return result


def _shallow(value) -> bool:
    """The depth limit of ``is_plain_json``, for parsed JSON (plain data by construction),
    visiting containers only: views are mostly lists of small numbers, so this is much
    faster than the full walk."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if children and depth >= MAX_JSON_DEPTH:
            return False
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


def decode(text, schemas: dict, limit: int) -> dict:
    """The checked message in ``text``; anything else raises ``ProtocolError``."""
    if not isinstance(text, str):
        raise ProtocolError("A message must be text", "sync_bad_json")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise ProtocolError(f"A message may not exceed {limit} bytes", "sync_too_big", limit=limit)
    try:
        message = json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
        )
    except (ValueError, RecursionError):
        raise ProtocolError("The message is not valid JSON", "sync_bad_json") from None
    if not isinstance(message, dict) or not _shallow(message):
        raise ProtocolError("A message must be a plain JSON object", "sync_not_object")
    if message.get("v") != PROTOCOL or type(message.get("v")) is not int:
        raise ProtocolError(
            "The message comes from another version of Taberna", "sync_protocol", expected=PROTOCOL
        )
    kind = message.get("kind")
    schema = schemas.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise ProtocolError("Unknown kind of message", "sync_unknown_kind", kind=str(kind)[:32])
    fields = set(message) - {"v", "kind"}
    missing = sorted(set(schema) - fields)
    if missing:
        raise ProtocolError(f"Field {missing[0]!r} is missing", "sync_missing_field", field=missing[0])
    extra = sorted(fields - set(schema))
    if extra:
        field = extra[0][:32]
        raise ProtocolError(f"Unexpected field {field!r}", "sync_extra_field", field=field)
    for field, check in schema.items():
        check(field, message[field])
    return message


def encode(kind: str, **fields) -> str:
    """One message as compact ASCII JSON (safe for any transport, even with odd names)."""
    message = {"v": PROTOCOL, "kind": kind, **fields}
    return json.dumps(message, separators=(",", ":"), allow_nan=False)
