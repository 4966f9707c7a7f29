"""Room codes as the worker sees them: made and turned into a table id by the page
(``site/net/roomkey.js``), checked and shown here."""

import re

from ..core.errors import TabernaError

# Room codes (made by the page, site/net/roomkey.js): Crockford's base 32 (no I, L, O, U;
# typing I or L reads as 1, O as 0), 12 characters shown as three groups of four.
ROOM_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
ROOM_CODE_LENGTH = 12
_ROOM_CODE = re.compile(f"[{ROOM_ALPHABET}]{{{ROOM_CODE_LENGTH}}}")


def check_room_code(code) -> str:
    if not isinstance(code, str) or not _ROOM_CODE.fullmatch(code):
        raise TabernaError("The room code is malformed", "net_bad_room")
    return code


def shown_room_code(code: str) -> str:
    """``ABCD-EFGH-JKMN``: groups of four are easier to read aloud and to type."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))
