"""A record as a link's fragment, and back: ``#replay=`` then the record's text compressed
(zlib) and written in base64url, so a whole game travels in a link with no server.

Read back as untrusted input: the fragment is decoded within limits (no more text than a
record may have, however well it compresses) and the text is then read as any record is,
step by step through the rules. The link leaves the notes out (``; …`` lines: what an
import skips), so its replay shows the same game from a shorter text.
"""

import base64
import binascii
import re
import zlib

from .text import MAX_TEXT, NOTE, RecordError

PREFIX = "replay="
# A record of MAX_TEXT characters compresses to far less; a longer fragment is no record.
MAX_PAYLOAD = MAX_TEXT
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+")


def link_payload(text: str) -> str:
    """The fragment's payload for a record's text (without ``replay=``). The notes go: a
    reader's comments, which an import skips, would only make the link longer."""
    kept = "".join(line for line in text.splitlines(keepends=True) if not line.startswith(NOTE))
    packed = zlib.compress(kept.encode("utf-8"), 9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def text_of_payload(payload) -> str:
    """A payload's record text; ``RecordError`` (line 0) when it is not one we wrote."""
    if not isinstance(payload, str) or not 0 < len(payload) <= MAX_PAYLOAD or not _BASE64URL.fullmatch(payload):
        raise RecordError("This link holds no record", "records.bad_link", 0)
    try:
        packed = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        unpacker = zlib.decompressobj()
        data = unpacker.decompress(packed, 4 * MAX_TEXT + 1)  # UTF-8: at most 4 bytes a character
        if unpacker.unconsumed_tail or not unpacker.eof or unpacker.unused_data:
            raise ValueError("not one whole zlib stream within the limit")
        return data.decode("utf-8")
    except (binascii.Error, ValueError, zlib.error):  # UnicodeDecodeError is a ValueError
        raise RecordError("This link holds no record", "records.bad_link", 0) from None
