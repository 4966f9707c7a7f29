"""The wire format: one JSON object per message, versioned, with a fixed schema per kind.

Every message is ``{"v": PROTOCOL, "kind": <kind>, "table": <table id>, ...}`` with exactly
the fields its kind declares, so junk never gets past the door. Guests send few, small
messages, hence a tight inbound size limit; the host sends views, which may be larger.
``decode`` is the single gate for untrusted text: it raises ``ProtocolError`` (a reason plus
a catalog code) and never anything else.
"""

import json
import math

from ..core.errors import TabernaError
from ..core.fair import FAIR_ID, HEX, ROUND
from ..core.game import LEVEL
from ..core.phrases import PHRASE_ID
from ..core.shape import Bool, Dict, Enum, Int, List, Number, Optional, PerSeat, Seat, ShapeError, Str, Unchecked, Where
from ..core.table import MAX_NAME, SEAT_KINDS
from ..core.validate import MAX_JSON_DEPTH

# 2: the welcome names whether phrases are on; the "said" and "secret" kinds.
# 3: the "intent_then" kind (a fair reveal with the next round's commitment).
# 4: fair card deals (``kits.fair_cards``: lock, relock, release, challenge; a played card's
#    position and key); record messages split by size.
# 5: a table that is not fair tells its guests each move ("step") and, once the game is
#    over, its whole record ("game_record"; ``protocol.witness``).
# 6: a fair card deal's points and keys in base64 (``core.fair_deck.PUBLISHED``), not hex.
# 7: a fair card deal's points are ristretto255 elements (``core.group``), not ed25519's.
PROTOCOL = 7
MAX_INBOUND = 8 * 1024  # bytes, guest -> host: intents, joins, pings
MAX_OUTBOUND = 256 * 1024  # bytes, host -> guest: views and seat lists
MAX_SEATS = 64
MAX_NUMBER = 1 << 53  # larger integers do not survive a trip through JavaScript
MAX_ACTION_TYPE = 32
MAX_RECORD = 100_000  # log entries in one record message (the size limit binds first)


class ProtocolError(TabernaError):
    """A message (or a local call) that breaks the protocol; nothing was changed."""


# --- fields: each a shape (``core.shape``), checked at the largest table ----------------
ID = Str(64, r"[A-Za-z0-9_-]+")  # table ids, seat tokens, room codes: fit links and QR codes
SEAT = Seat()  # below MAX_SEATS: fields are checked as at a table of MAX_SEATS seats
COUNT = Int(0, MAX_NUMBER)
TIME = Number(0, MAX_NUMBER)  # milliseconds
# Printable and short; the host also strips what would disguise a name (``host.clean_name``:
# bidi overrides, zero-width characters) before anyone sees it.
NAME = Str(MAX_NAME, r"[^\x00-\x1f\x7f-\x9f\u2028\u2029]*")
TEXT = Str(MAX_OUTBOUND)
OBJECT = Dict({}, other=Unchecked())
PHRASE = Str(24, PHRASE_ID)  # an id (core.phrases): never free text
# An action: a short ``type``; its other fields are its game's move table's to check.
ACTION = Dict({"type": Str(MAX_ACTION_TYPE, "(?s).+")}, other=Unchecked())


def check_field(field: str, shape, value) -> None:
    """Nothing if ``value`` fits ``shape``, else ``ProtocolError`` naming ``field``."""
    try:
        shape.check(value, MAX_SEATS)
    except ShapeError as error:
        raise ProtocolError(f"Field {field!r}: {error}", "sync_bad_field", field=field) from None


def check_id(field, value):
    check_field(field, ID, value)


def check_seat(field, value):
    check_field(field, SEAT, value)


def check_name(field, value):
    check_field(field, NAME, value)


# What guests may send. Few kinds, each with every field required and none extra.
INBOUND = {
    "join": {"table": ID, "seat": Optional(SEAT), "name": NAME},
    "rejoin": {"table": ID, "seat": SEAT, "token": ID},
    "intent": {"table": ID, "seat": SEAT, "action": ACTION, "version": COUNT, "seq": COUNT},
    # An intent and the action its seat owes once it is played: a fair reveal and the next
    # round's commitment, one trip instead of two (``protocol.fair``).
    "intent_then": {"table": ID, "seat": SEAT, "action": ACTION, "then": ACTION, "version": COUNT, "seq": COUNT},
    "sync": {"table": ID},
    "ping": {"table": ID, "t": TIME},
    "say": {"table": ID, "seat": SEAT, "phrase": PHRASE},  # protocol.phrases
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
        "table": ID,
        "game": ID,
        "seat": Optional(SEAT),
        "token": Optional(ID),
        "room": Optional(ID),  # the room code, for a seated guest to find the host again
        "phrases": Bool(),  # whether players may say phrases (protocol.phrases)
    },
    "state": {
        "table": ID,
        "version": COUNT,
        "rev": COUNT,
        "started": Bool(),
        "acted": Optional(COUNT),
        "seats": List(Unchecked(), MAX_OUTBOUND),  # checked with the view: ``PUBLIC_SEATS``
        "view": OBJECT,
    },
    "error": {"table": ID, "code": TEXT, "reason": TEXT, "params": OBJECT, "ref": Optional(COUNT)},
    "pong": {"table": ID, "t": TIME, "rev": COUNT},
    "said": {"table": ID, "seat": SEAT, "phrase": PHRASE},  # a seat's phrase, to every peer
    # A fair table's public record (``protocol.fair``): the current game's log from entry
    # ``from``, with what a guest needs to replay it (game, options, seat count, fair id).
    "record": {
        "table": ID,
        "fair": FAIR_ID,
        "game": ID,
        "base": COUNT,
        "options": OBJECT,
        "seats": Int(1, MAX_SEATS),
        "from": COUNT,
        "entries": List(Dict({"seat": SEAT, "action": ACTION}), MAX_RECORD),
    },
    # A table that is not fair (``protocol.witness``): the move that led to the state that
    # follows (version ``version``, in the game that starts at ``base``), and once the game
    # is over the whole record's text (``records.text``), every deal in it.
    "step": {"table": ID, "base": COUNT, "version": COUNT, "seat": SEAT, "action": ACTION},
    "game_record": {"table": ID, "base": COUNT, "text": TEXT},
    # A fair table's secret the host's device made for a friend's seat a bot covered,
    # handed to that seat's guest once it is the friend's again (``protocol.fair.handover``).
    "secret": {"table": ID, "seat": SEAT, "n": ROUND, "secret": HEX},
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
    for field, shape in schema.items():
        check_field(field, shape, message[field])
    return message


def encode(kind: str, **fields) -> str:
    """One message as compact ASCII JSON (safe for any transport, even with odd names)."""
    message = {"v": PROTOCOL, "kind": kind, **fields}
    return json.dumps(message, separators=(",", ":"), allow_nan=False)
