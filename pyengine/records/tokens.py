"""Outcomes as text: whole numbers, words and bracketed lists, one line's worth.

``5``, ``10H``, ``[1o 3c 12e]``; a word that could read as something else (a number, a
space, a bracket, a quote) is written as a JSON string, ``"7"``. Read back, any other
text is refused: the text of a record is untrusted.
"""

import json
import re

from ..core.errors import TabernaError

MAX_DEPTH = 3  # lists inside lists: a deal of packets is as deep as outcomes go
MAX_TOKENS = 1000  # outcomes on one line (a shuffled deck is one list of 52)
_BARE = re.compile(r"[A-Za-z0-9_+.-]*[A-Za-z_+.][A-Za-z0-9_+.-]*")
_INT = re.compile(r"-?\d{1,18}")
_TOKEN = re.compile(r'\s*(\[|\]|"(?:[^"\\]|\\.)*"|[^\s\[\]"]+)')


def write_tokens(values: list) -> str:
    return " ".join(_write(value) for value in values)


def _write(value) -> str:
    if type(value) is int:
        return str(value)
    if isinstance(value, str):
        return value if _BARE.fullmatch(value) else json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return f"[{write_tokens(value)}]"
    raise TypeError(f"a record holds numbers, words and lists of them, not {value!r}")


def _bad(why: str) -> TabernaError:
    return TabernaError(f"Unreadable outcomes: {why}", "records.bad_chance")


def read_tokens(text: str) -> list:
    """The values of a line written by ``write_tokens``; ``TabernaError`` otherwise."""
    stack: list = [[]]
    position, count = 0, 0
    text = text.rstrip()
    while position < len(text):
        found = _TOKEN.match(text, position)
        if found is None:
            raise _bad("a stray quote")
        position = found.end()
        count += 1
        if count > MAX_TOKENS:
            raise _bad("too many")
        token = found.group(1)
        if token == "[":
            if len(stack) > MAX_DEPTH:
                raise _bad("lists too deep")
            stack.append([])
        elif token == "]":
            if len(stack) == 1:
                raise _bad("a ']' without '['")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(_read(token))
    if len(stack) != 1:
        raise _bad("a '[' without ']'")
    return stack[0]


def _read(token: str):
    if token.startswith('"'):
        try:
            value = json.loads(token)
        except ValueError:
            raise _bad("a broken quoted word") from None
        return value
    if _INT.fullmatch(token):
        return int(token)
    if _BARE.fullmatch(token):
        return token
    raise _bad(f"{token[:20]!r}")
