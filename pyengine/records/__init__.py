"""Every game on record: a game's record, its text notation, and its replay (issue 26).

A record is plain data (``record.py``): the game, its options and seats, the chance drawn,
every action in order, the result. It is made from a ``Table`` (its log, finished or not),
written as text in the game's notation (``text.py``: a header, then the body in the
game's ``notation`` module, ``notation.py``), and read back from text as untrusted input:
parsed line by line and every step replayed through the rules, so a malformed line or an
illegal step is refused with its line number and a translated reason, never an exception.

**How a record holds chance.** It holds the outcomes, not the seed: every value the rules
drew, in the order they drew it, as the game's own terms — a die's face, a seat, a card,
a shuffled deck (``chance.py``). A replay answers the rules' draws from these outcomes,
checking each could have been drawn, so a record replays exactly without the seed, a
shared table's key never leaves the host, and a hand-written record is checked like any
other. The states of a replay are the original ones but for the generator's state
(``rng``), which a record deliberately does not hold.

The page's calls (through the worker, as ``shell/calls.py`` exports them):
``record_text(table)``, ``import_record(text, lang)`` and ``replay_states(record)``.
"""

from ..core.errors import TabernaError
from ..core.validate import is_plain_json
from ..i18n import Translator
from .record import RECORD_FORMAT, record_of, replay
from .text import RecordError, read_record, write_text


def record_text(table) -> str:
    """The text of a ``Table``'s record, finished or not."""
    record = record_of(table)
    return write_text(record, list(replay(record)))


def import_record(text, lang: str = "en") -> dict:
    """``{"ok": True, "record": ...}`` for a text that replays, else ``{"ok": False,
    "error": {...}, "message": ...}`` with the line and the reason in ``lang``."""
    try:
        record, _ = read_record(text)
    except RecordError as error:
        return {"ok": False, "error": error.to_json(), "message": error.message(Translator(lang))}
    return {"ok": True, "record": record}


def replay_states(record) -> list:
    """Every state of a record, from the set-up to its last step; ``RecordError`` when the
    record (say, a damaged stored one) does not replay."""
    if not (isinstance(record, dict) and is_plain_json(record) and record.get("format") == RECORD_FORMAT
            and {"game", "options", "seats"} <= set(record) and isinstance(record.get("setup"), list) and isinstance(record.get("steps"), list)
            and all(isinstance(step, dict) and set(step) == {"seat", "action", "chance"}
                    and isinstance(step["chance"], list) for step in record["steps"])):
        raise RecordError("This is not a record", "records.damaged", 0)
    try:
        return list(replay(record))
    except TabernaError as error:
        raise RecordError("The record does not replay", "records.damaged", 0, error) from None
