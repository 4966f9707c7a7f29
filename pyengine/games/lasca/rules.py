"""Lasca rules engine (official lasca.org rules, see shared/rules/lasca.md).

Internal representation, chosen for the speed of move generation in CPython and Pyodide:

* a board is a list of 25 strings, one per playable square (index 0 = a1, 1 = c1, ...,
  24 = g7, rank by rank); a column is written top first (``"Wbb"``), ``""`` is empty;
* the side to move is 0 (White, moves first) or 1 (Black);
* a move is ``(path, overs)``: the squares the column stands on and lands on in turn,
  and the squares it jumps over. ``path`` alone determines the move (``overs`` are the
  midpoints), so two jump paths are two moves and the notation is unambiguous.

Neighbour and jump tables are built once at import, per commander letter, so the inner
loops are plain tuple lookups. Strings are immutable, so copying a board is a 25-slot
list copy. The JSON position used by the text interface and the Game adapter is
``{"board": [...25 strings...], "turn": 0 | 1}``.

Rule choices (the digest's [res] defaults): White moves first; the square a capturing
column left counts as empty during its own multi-jump; a promoting soldier stops. The
move functions take ``start_empty=False`` for the alternative reading of rule 8 (the start
square stays occupied, so a multi-jump can neither pass through nor end on it).
"""

import re

from pyengine.core.errors import IllegalAction

FILES = "abcdefg"
SIDE_LETTERS = "WB"
OWN = ("wW", "bB")
#: Playable squares, rank 1 first; all four corners are playable.
SQUARES = tuple(
    (f, r) for r in range(7) for f in range(7) if (f + r) % 2 == 0
)
NAMES = tuple(f"{FILES[f]}{r + 1}" for f, r in SQUARES)
INDEX = {name: i for i, name in enumerate(NAMES)}
_AT = {sq: i for i, sq in enumerate(SQUARES)}
#: Far ranks: where a White soldier (rank 7) or a Black soldier (rank 1) promotes.
PROMOTE = {"w": frozenset(i for i, (f, r) in enumerate(SQUARES) if r == 6),
           "b": frozenset(i for i, (f, r) in enumerate(SQUARES) if r == 0)}
OFFICER = {"w": "W", "b": "B"}
FORWARD = {"w": ((1, 1), (-1, 1)), "b": ((1, -1), (-1, -1))}
ALL_DIRS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
DIRECTIONS = {"w": FORWARD["w"], "b": FORWARD["b"], "W": ALL_DIRS, "B": ALL_DIRS}
PIECES = "wWbB"
MAX_PER_SIDE = 11
MAX_LFEN = 400

START = ("W:a7=b,c7=b,e7=b,g7=b,b6=b,d6=b,f6=b,a5=b,c5=b,e5=b,g5=b,"
         "a3=w,c3=w,e3=w,g3=w,b2=w,d2=w,f2=w,a1=w,c1=w,e1=w,g1=w")


def _tables():
    """STEPS[piece][sq] = neighbour squares; JUMPS[piece][sq] = (over, land) pairs."""
    steps, jumps = {}, {}
    for piece, dirs in DIRECTIONS.items():
        steps[piece], jumps[piece] = [], []
        for f, r in SQUARES:
            step, jump = [], []
            for df, dr in dirs:
                one, two = (f + df, r + dr), (f + 2 * df, r + 2 * dr)
                if one in _AT:
                    step.append(_AT[one])
                if two in _AT:
                    jump.append((_AT[one], _AT[two]))
            steps[piece].append(tuple(step))
            jumps[piece].append(tuple(jump))
    return steps, jumps


STEPS, JUMPS = _tables()


# --- move generation -------------------------------------------------------------------
def _captures_from(board, start, col, enemy, out, start_empty):
    """Appends every complete capture sequence of the column ``col`` standing on ``start``.

    The board is changed in place while searching (start emptied unless ``start_empty`` is
    false, jumped columns reduced) and restored before returning. ``overs`` doubles as the
    "jumped once" set (rule 4).
    """
    soldier = col[0] in "wb"
    promote = PROMOTE[col[0]] if soldier else ()
    jumps = JUMPS[col[0]]
    path, overs = [start], []

    def extend(here):
        found = False
        for over, land in jumps[here]:
            jumped = board[over]
            if jumped and jumped[0] in enemy and not board[land] and over not in overs:
                found = True
                board[over] = jumped[1:]
                path.append(land)
                overs.append(over)
                if land in promote:  # promotion ends the move (rule 5)
                    out.append((tuple(path), tuple(overs)))
                else:
                    extend(land)
                path.pop()
                overs.pop()
                board[over] = jumped
        if not found and overs:
            out.append((tuple(path), tuple(overs)))

    if start_empty:
        board[start] = ""
    extend(start)
    board[start] = col


def generate(board, side, start_empty=True):
    """All legal moves ``(path, overs)``: captures if any exist, else quiet steps.
    ``start_empty``: whether a capturing column's start square counts as empty (rule 8)."""
    own, enemy = OWN[side], OWN[1 - side]
    captures = []
    for sq in range(25):
        col = board[sq]
        if col and col[0] in own:
            for over, land in JUMPS[col[0]][sq]:
                jumped = board[over]
                if jumped and jumped[0] in enemy and not board[land]:
                    _captures_from(board, sq, col, enemy, captures, start_empty)
                    break
    if captures:
        return captures
    quiet = []
    for sq in range(25):
        col = board[sq]
        if col and col[0] in own:
            for to in STEPS[col[0]][sq]:
                if not board[to]:
                    quiet.append(((sq, to), ()))
    return quiet


def status(board, side):
    """2 if the side to move must capture, 1 if it has only quiet moves, 0 if none.

    Cheaper than ``generate`` where only the kind of position matters (search leaves).
    """
    own, enemy = OWN[side], OWN[1 - side]
    quiet = 0
    for sq in range(25):
        col = board[sq]
        if col and col[0] in own:
            for over, land in JUMPS[col[0]][sq]:
                jumped = board[over]
                if jumped and jumped[0] in enemy and not board[land]:
                    return 2
            if not quiet:
                for to in STEPS[col[0]][sq]:
                    if not board[to]:
                        quiet = 1
                        break
    return quiet


def make(board, move):
    """The board after ``move`` (a new list; ``board`` is untouched)."""
    path, overs = move
    new = board[:]
    col = new[path[0]]
    new[path[0]] = ""
    for over in overs:
        jumped = new[over]
        col += jumped[0]  # prisoners go to the bottom, in the order taken
        new[over] = jumped[1:]
    end = path[-1]
    top = col[0]
    if top in "wb" and end in PROMOTE[top]:
        col = OFFICER[top] + col[1:]
    new[end] = col
    return new


def perft_board(board, side, depth):
    """Leaf count of the move tree (no transposition cache: it measures generation)."""
    moves = generate(board, side)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    other = 1 - side
    total = 0
    for move in moves:
        total += perft_board(make(board, move), other, depth - 1)
    return total


# --- notation ----------------------------------------------------------------------------
def move_text(move) -> str:
    path, overs = move
    return ("x" if overs else "-").join(NAMES[sq] for sq in path)


MOVE_PATTERN = r"[a-g][1-7](?:-[a-g][1-7]|(?:x[a-g][1-7])+)"
MAX_MOVE_TEXT = 80
_MOVE_RE = re.compile(f"^{MOVE_PATTERN}$")


def split_move(text):
    """The squares of a move string, and whether it is a capture; raises if malformed."""
    if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT or not _MOVE_RE.match(text.strip()):
        raise IllegalAction(f"Malformed move {str(text)[:40]!r}: write a3-b4 or a3xc5xe7",
                            "lasca.bad_notation", move=str(text)[:40])
    text = text.strip()
    names = re.split(r"[-x]", text)
    for name in names:
        if name not in INDEX:
            raise IllegalAction(f"{name} is not a playable square", "lasca.bad_square", square=name)
    return [INDEX[n] for n in names], "x" in text


def parse_board(lfen):
    """``(board, side)`` from a position string; ``IllegalAction`` (a ValueError) says why."""
    if not isinstance(lfen, str) or len(lfen) > MAX_LFEN:
        raise IllegalAction("A position must be a string like W:a3=w,...", "lasca.bad_position")
    head, sep, body = lfen.strip().partition(":")
    if not sep or head not in ("W", "B"):
        raise IllegalAction("A position starts with W: or B: (the side to move)",
                            "lasca.bad_position")
    board = [""] * 25
    counts = {"w": 0, "b": 0}
    for item in filter(None, (part.strip() for part in body.split(","))):
        name, eq, col = item.partition("=")
        name = name.strip()
        col = col.strip()
        if not eq or name not in INDEX:
            raise IllegalAction(f"{item!r} is not square=column on a playable square",
                                "lasca.bad_position")
        if board[INDEX[name]]:
            raise IllegalAction(f"Square {name} is given twice", "lasca.bad_position")
        if not col or any(p not in PIECES for p in col):
            raise IllegalAction(f"Column {col!r} on {name} must use only w W b B",
                                "lasca.bad_position")
        colours = [p.lower() for p in col]
        changes = sum(1 for a, b in zip(colours, colours[1:]) if a != b)
        if changes > 1:
            raise IllegalAction(f"Column {col} on {name} alternates colours, which cannot happen",
                                "lasca.bad_position")
        for c in colours:
            counts[c] += 1
        board[INDEX[name]] = col
    if max(counts.values()) > MAX_PER_SIDE:
        raise IllegalAction("Each side has only 11 pieces", "lasca.bad_position")
    return board, SIDE_LETTERS.index(head)


_LFEN_ORDER = tuple(sorted(range(25), key=lambda i: (-SQUARES[i][1], SQUARES[i][0])))


def board_lfen(board, side) -> str:
    """Canonical string: rank 7 down to rank 1, files a to g (START is canonical)."""
    return SIDE_LETTERS[side] + ":" + ",".join(
        f"{NAMES[i]}={board[i]}" for i in _LFEN_ORDER if board[i])


def find_move(board, side, text, start_empty=True):
    """The legal move written ``text``, or ``IllegalAction`` with the most useful reason."""
    squares, is_capture = split_move(text)
    moves = generate(board, side, start_empty)
    for move in moves:
        if list(move[0]) == squares:
            return move
    if not moves:
        raise IllegalAction("The side to move has no legal move: the game is over",
                            "lasca.no_moves")
    start = board[squares[0]]
    if not start or start[0] not in OWN[side]:
        raise IllegalAction(f"There is no column of yours on {NAMES[squares[0]]}",
                            "lasca.not_your_column", square=NAMES[squares[0]])
    capturing = bool(moves[0][1])
    if capturing and not is_capture:
        raise IllegalAction("A capture is compulsory", "lasca.capture_compulsory")
    if is_capture and any(m[0][:len(squares)] == tuple(squares) for m in moves):
        raise IllegalAction("The capture must go on: a further jump is compulsory",
                            "lasca.must_continue")
    return_reason = "That capture is not possible" if is_capture else "That move is not possible"
    raise IllegalAction(f"{return_reason}: {text.strip()}", "lasca.illegal_move",
                        move=text.strip())


# --- text interface on JSON positions ({"board": [...], "turn": 0 | 1}) --------------------
def parse(lfen: str) -> dict:
    """A JSON position from its string; raises ``ValueError`` (IllegalAction) with a reason."""
    board, side = parse_board(lfen)
    return {"board": board, "turn": side}


def to_lfen(state: dict) -> str:
    return board_lfen(state["board"], state["turn"])


def legal_moves(state: dict, start_empty=True) -> list:
    """Every legal move in notation; an empty list means the side to move has lost."""
    return [move_text(m) for m in generate(state["board"], state["turn"], start_empty)]


def play(state: dict, move: str, start_empty=True) -> dict:
    """A new position (a shallow copy of ``state`` with board and turn replaced)."""
    board = state["board"]
    found = find_move(board, state["turn"], move, start_empty)
    new = dict(state)
    new["board"] = make(board, found)
    new["turn"] = 1 - state["turn"]
    return new


def perft(state: dict, depth: int) -> int:
    """Distinct legal move sequences of ``depth`` complete turns from ``state``."""
    if type(depth) is not int or depth < 0:
        raise ValueError("perft depth must be a non-negative whole number")
    return perft_board(list(state["board"]), state["turn"], depth)
