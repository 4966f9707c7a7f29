"""A record as text, and text read back into a record (untrusted: every step replayed).

::

    Taberna record 1
    Game perudo
    Option calza "anyone"           one line per option, its value as JSON
    Seat 1 human "Ana"              the seat's kind, a bot's level, its name as JSON
    Seat 2 bot hard "Bot 2"
    Result 2                        the winners' seats; "*" while playing, "-" for none
                                    (a blank line ends the header)
    cups 12256 13346 starts 2       the body: the game's notation (``notation.py``),
    1 2x4                           each action and the chance it drew, in order;
    ; a note                        lines starting ";" are notes, skipped on reading

Reading refuses anything odd with a ``RecordError`` naming its line.
"""

import json
import re

from ..core.errors import TabernaError
from ..core.registry import get_game
from ..core.table import MAX_NAME, SEAT_KINDS
from .chance import ChanceError
from .notation import notation_for
from .record import RECORD_FORMAT, first_state, next_state

MAGIC = f"Taberna record {RECORD_FORMAT}"
MAX_TEXT = 2_000_000  # characters: a long game is some tens of kilobytes
MAX_LINE = 4_000
MAX_STEPS = 20_000  # random legal play ends sooner in every game (the contract test)
NOTE = ";"
_SEAT = re.compile(r"Seat (\d{1,3}) (\w+)(?: ([a-z_]{1,16}))? (\".*\")")
_OPTION = re.compile(r"Option ([a-z_]{1,40}) (.+)")
_RESULT = re.compile(r"Result (\*|-|\d{1,3}(?: \d{1,3})*)")


class RecordError(TabernaError):
    """A refused record: ``line`` is where (1 = the first line; 0 = the text as a whole);
    ``cause``, the rules' or the notation's own refusal, when there is one."""

    def __init__(self, reason: str, code: str, line: int, cause: TabernaError | None = None, **params):
        super().__init__(reason, code, line=line, **params)
        self.line = line
        self.cause = cause

    def to_json(self) -> dict:
        data = super().to_json()
        if self.cause is not None:
            data["cause"] = self.cause.to_json()
        return data

    def message(self, t) -> str:
        """The refusal in ``t``'s language: the line, then why."""
        why = t.error(self.cause) if self.cause is not None else ""
        text = t(f"err.{self.code}", why=why, **self.params)
        return text if text != f"err.{self.code}" else self.reason


# --- writing ---------------------------------------------------------------------------------
def winners_text(result) -> str:
    if result is None:
        return "*"
    return " ".join(str(seat + 1) for seat in result.get("winners", [])) or "-"


def write_text(record: dict, states: list) -> str:
    """``record`` as text; ``states`` are its replay (``record.replay``), which the notes read."""
    game = get_game(record["game"])
    notation = notation_for(game.id)
    lines = [MAGIC, f"Game {game.id}"]
    lines += [f"Option {name} {json.dumps(value)}" for name, value in record["options"].items()]
    for number, seat in enumerate(record["seats"], 1):
        level = f" {seat['level']}" if "level" in seat else ""
        lines.append(f"Seat {number} {seat['kind']}{level} {json.dumps(seat['name'], ensure_ascii=False)}")
    if "fair" in record:
        lines.append(f"Fair {record['fair']}")
    lines += [f"Result {winners_text(record['result'])}", ""]
    if record["setup"]:
        lines.append(notation.chance_line(game, states[0], record["setup"]))
    elif "fair" in record:
        lines.append(f"{NOTE} {notation.fair_setup}")
    lines += [f"{NOTE} {note}" for note in notation.notes(game, None, states[0])]
    for index, step in enumerate(record["steps"]):
        before, after = states[index], states[index + 1]
        lines.append(notation.action_line(game, before, step["seat"], step["action"]))
        if step["chance"]:
            lines.append(notation.chance_line(game, after, step["chance"]))
        lines += [f"{NOTE} {note}" for note in notation.notes(game, before, after)]
    return "\n".join(lines) + "\n"


# --- reading ---------------------------------------------------------------------------------
def _header(lines: list) -> tuple:
    """``(record without its body, result line, index of the body's first line)``."""
    if not lines or lines[0] != MAGIC:
        raise RecordError("This is not a Taberna record", "records.not_a_record", 1)
    record = {"format": RECORD_FORMAT, "options": {}, "seats": [], "setup": [], "steps": []}
    result = None
    index = 1
    while index < len(lines) and lines[index]:
        line, number = lines[index], index + 1
        index += 1
        if number == 2:
            if not line.startswith("Game "):
                raise RecordError("The second line names the game", "records.bad_header", number)
            record["game"] = get_game(line[5:]).id
            continue
        if (found := _OPTION.fullmatch(line)) and found.group(1) not in record["options"]:
            record["options"][found.group(1)] = _json(found.group(2), number)
        elif found := _SEAT.fullmatch(line):
            if int(found.group(1)) != len(record["seats"]) + 1:
                raise RecordError("The seats are numbered from 1 in order", "records.bad_header", number)
            name = _json(found.group(4), number)
            seat = {"kind": found.group(2), "name": name}
            if found.group(3):
                seat["level"] = found.group(3)
            if seat["kind"] not in SEAT_KINDS or not isinstance(name, str) or len(name) > MAX_NAME:
                raise RecordError("That seat is not a seat", "records.bad_header", number)
            record["seats"].append(seat)
        elif line.startswith("Fair ") and "fair" not in record:
            record["fair"] = line[5:]
        elif (found := _RESULT.fullmatch(line)) and result is None:
            result = (found.group(1), number)
        else:
            raise RecordError("This header line is not understood", "records.bad_header", number)
    if "game" not in record or result is None:
        raise RecordError("The header lacks the game or the result", "records.bad_header", index + 1)
    return record, result, index + 1


def _json(text: str, number: int):
    try:
        return json.loads(text)
    except ValueError:
        raise RecordError("A value in the header is not readable", "records.bad_header", number) from None


def read_record(text) -> tuple:
    """``(record, states)`` read from ``text`` and replayed; ``RecordError`` otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise RecordError("The record is empty", "records.empty", 0)
    if len(text) > MAX_TEXT:
        raise RecordError("The record is too long", "records.too_long", 0)
    lines = [line.rstrip() for line in text.strip("\ufeff").splitlines()]
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            raise RecordError("A line is too long", "records.line_too_long", number)
    try:
        record, (result, result_line), start = _header(lines)
    except RecordError:
        raise
    except TabernaError as error:  # an unknown game
        raise RecordError("The game is not known", "records.bad_header", 2, error) from None
    game = get_game(record["game"])
    notation = notation_for(game.id)
    states: list = []
    chance_at = None  # (line number, text) of the chance line of the step not yet replayed
    for number, line in enumerate(lines[start - 1 :], start):
        line = " ".join(line.split())
        if not line or line.startswith(NOTE):
            continue
        try:
            draws = notation.read_chance(game, line)
        except TabernaError as error:
            raise RecordError("Unreadable chance", "records.unreadable_chance", number, error) from None
        if draws is not None:
            if chance_at is not None:
                raise RecordError("Two chance lines for one step", "records.chance_twice", number)
            chance_at = (number, line)
            (record["steps"][-1]["chance"] if record["steps"] else record["setup"]).extend(draws)
            continue
        _settle(game, notation, record, states, chance_at, number)
        chance_at = None
        try:
            seat, action = notation.read_action(game, states[-1], line)
        except TabernaError as error:
            raise RecordError("Unreadable move", "records.bad_move", number, error) from None
        if len(record["steps"]) == MAX_STEPS:
            raise RecordError("The record has too many steps", "records.too_long", number)
        record["steps"].append({"seat": seat, "action": action, "chance": [], "line": number})
    _settle(game, notation, record, states, chance_at, len(lines))
    for step in record["steps"]:
        del step["line"]
    record["result"] = game.result(states[-1])
    if result != winners_text(record["result"]):
        raise RecordError("The result is not what the moves lead to", "records.wrong_result", result_line)
    return record, states


def _settle(game, notation, record: dict, states: list, chance_at, reading: int) -> None:
    """Replays what was read last, the set-up or a step, with its chance (appending the
    state it leads to), and checks that its chance line reads as what was drawn. A set-up
    that lacks its chance is refused at ``reading``, the line read when it was missed."""
    if not states:
        try:
            states.append(first_state(record))
        except TabernaError as error:
            number = (chance_at[0] if chance_at else reading) if isinstance(error, ChanceError) else 1
            raise RecordError("The table cannot be set up so", "records.bad_table", number, error) from None
        draws = record["setup"]
    else:
        step = record["steps"][-1]
        try:
            states.append(next_state(game, states[-1], step))
        except TabernaError as error:
            number = chance_at[0] if chance_at and isinstance(error, ChanceError) else step["line"]
            raise RecordError("This move is refused", "records.illegal_step", number, error) from None
        draws = step["chance"]
    if chance_at and notation.chance_line(game, states[-1], draws) != chance_at[1]:
        raise RecordError("The chance line does not read as what was drawn", "records.chance_mismatch", chance_at[0])
