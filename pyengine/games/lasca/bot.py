"""Lasca bots: iterative-deepening alpha-beta with a transposition table.

Why a node budget and not a clock: a time bound makes the reached depth, and so the move,
depend on the machine; a node budget keeps the bot deterministic for a given (view, level,
seed) in CPython and Pyodide alike. The budgets are sized so that the hardest level takes
about 0.1-0.3 s per move in CPython; Pyodide (measured under Node on this machine) is
about 3.5x slower, which keeps it under the 1.5 s goal;
a wall-clock cap (``SAFETY_SECONDS``) only stops the search on a machine far slower than
that, and is the one case where the choice may differ between machines.

Search: negamax alpha-beta, transposition table keyed by the exact position (no hash
collisions), move ordering (table move, then captures by prisoners taken and officers hit,
then promotions and advances), forced-capture extension instead of a stand-pat quiescence
(captures are compulsory in Lasca, so a position with a capture pending is never quiet),
and single-reply extension. The evaluation reads columns: commanders, reserves of the same
colour beneath them, prisoners held (and the chance of their liberation), officers,
soldier advancement, mobility and threats against the side to move.
"""

import time

from pyengine.core.registry import bots_by_level
from pyengine.core.rng import Rng

from .rules import (
    JUMPS,
    OWN,
    SQUARES,
    STEPS,
    generate,
    make,
    move_text,
    parse_board,
    status,
)

MATE = 100000
INF = 10 ** 9
MAX_PLY = 60
SAFETY_SECONDS = 1.2

#: Per level: node budget, maximum depth, and the score margin within which root moves
#: count as equal (a seeded pick among them gives variety; a wide margin makes "easy"
#: fallible on purpose).
LEVELS = {
    "easy": {"nodes": 400, "depth": 2, "margin": 90},
    "medium": {"nodes": 3000, "depth": 64, "margin": 0},
    "hard": {"nodes": 10000, "depth": 64, "margin": 0},
}

SOLDIER, OFFICER = 100, 260
RESERVE = 0.85  # a piece under its own commander: safe, but idle until freed
CAPTIVE = 0.2  # a prisoner still counts a little for its owner: it may be liberated
ADVANCE = 6  # per rank a soldier has advanced
MOBILITY = 3
THREAT = 0.35  # share of the best column the opponent is threatening to hit


def _piece_value(piece):
    return OFFICER if piece in "WB" else SOLDIER


_COLUMN_VALUES = {}


def column_value(col):
    """Value of one column for White (negative when Black commands it), cached per string."""
    got = _COLUMN_VALUES.get(col)
    if got is None:
        sign = 1 if col[0] in "wW" else -1
        top_colour = col[0].lower()
        total = 0.0
        for depth, piece in enumerate(col):
            worth = _piece_value(piece)
            if piece.lower() == top_colour:
                total += sign * worth * (1.0 if depth == 0 else RESERVE)
            else:  # a prisoner: lost to its owner, except for the hope of liberation
                total -= sign * worth * CAPTIVE
        got = _COLUMN_VALUES[col] = total
    return got


_SWINGS = {}


def hit_loss(col):
    """What the commander's side loses if ``col``'s top piece is taken: the piece (kept as
    a prisoner of the enemy) and, when an enemy group lies right beneath it, the
    liberation of that group."""
    got = _SWINGS.get(col)
    if got is None:
        sign = 1 if col[0] in "wW" else -1
        rest = column_value(col[1:]) if len(col) > 1 else 0.0
        got = _SWINGS[col] = sign * (column_value(col) - rest) - CAPTIVE * _piece_value(col[0])
    return got


#: Square bonus per commander letter, for White: soldier advancement, mobility sign.
_ADVANCE = {
    "w": [ADVANCE * r for f, r in SQUARES],
    "b": [-ADVANCE * (6 - r) for f, r in SQUARES],
    "W": [0] * 25,
    "B": [0] * 25,
}
_MOBILITY = {"w": MOBILITY, "W": MOBILITY, "b": -MOBILITY, "B": -MOBILITY}


def evaluate(board, side):
    """Static score of a quiet position for the side to move (positive = good for it).

    Quiet means the side to move has no capture; the opponent may threaten one, so the
    worst hit it could make next (``hit_loss``: commander plus any liberation) is partly
    discounted: the side to move has one tempo to parry it.
    """
    score = 0.0
    own, enemy = OWN[side], OWN[1 - side]
    worst = 0.0
    values = _COLUMN_VALUES
    for sq in range(25):
        col = board[sq]
        if not col:
            continue
        top = col[0]
        value = values.get(col)
        score += (column_value(col) if value is None else value) + _ADVANCE[top][sq]
        free = 0
        for to in STEPS[top][sq]:
            if not board[to]:
                free += 1
        score += _MOBILITY[top] * free
        if top in enemy:
            for over, land in JUMPS[top][sq]:
                target = board[over]
                if target and target[0] in own and not board[land]:
                    loss = hit_loss(target)
                    if loss > worst:
                        worst = loss
    if side == 1:
        score = -score
    return int(score - THREAT * worst)


def _order_key(board, move):
    """Higher first: many prisoners, officers hit, promotions, soldier advances."""
    path, overs = move
    key = 0
    for over in overs:
        key += 1000 + (400 if board[over][0] in "WB" else 0)
    mover = board[path[0]][0]
    if mover in "wb":
        key += 50 + (SQUARES[path[-1]][1] if mover == "w" else 6 - SQUARES[path[-1]][1])
    return key


class _Abort(Exception):
    pass


class Searcher:
    """One search: a node budget, a transposition table and a safety clock."""

    def __init__(self, nodes, deadline=None, start_empty=True):
        self.start_empty = start_empty  # rule 8 at this table (see ``rules.generate``)
        self.budget = nodes
        self.nodes = 0
        self.deadline = deadline
        self.table = {}

    def negamax(self, board, side, depth, alpha, beta, ply):
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Abort
        if self.deadline is not None and self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            raise _Abort
        if depth <= 0:
            kind = status(board, side)
            if kind == 0:
                return -MATE + ply
            if kind == 1 or ply >= MAX_PLY:
                return evaluate(board, side)
        key = "|".join(board) + str(side)
        entry = self.table.get(key)
        best_path = None
        if entry is not None:
            e_depth, flag, e_score, best_path = entry
            if e_depth >= depth:
                if e_score > MATE - 1000:
                    e_score -= ply
                elif e_score < -MATE + 1000:
                    e_score += ply
                if flag == 0 or (flag == 1 and e_score >= beta) or (flag == -1 and e_score <= alpha):
                    return e_score
        moves = generate(board, side, self.start_empty)
        if not moves:
            return -MATE + ply
        if len(moves) > 1:
            moves.sort(key=lambda m: (m[0] == best_path, _order_key(board, m)), reverse=True)
        next_depth = depth if len(moves) == 1 and ply < MAX_PLY else depth - 1
        start_alpha = alpha
        best = -INF
        best_move = None
        other = 1 - side
        for move in moves:
            score = -self.negamax(make(board, move), other, next_depth, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, move[0]
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        stored = best
        if stored > MATE - 1000:
            stored += ply
        elif stored < -MATE + 1000:
            stored -= ply
        flag = 1 if best >= beta else (-1 if best <= start_alpha else 0)
        self.table[key] = (depth, flag, stored, best_move)
        return best

    def root(self, board, side, max_depth):
        """[(score, move)] of the deepest completed (or usefully partial) iteration."""
        moves = generate(board, side, self.start_empty)
        scored = [(0, m) for m in moves]
        if len(moves) <= 1:
            return scored
        moves.sort(key=lambda m: _order_key(board, m), reverse=True)
        for depth in range(1, max_depth + 1):
            current = []
            try:
                for move in moves:
                    score = -self.negamax(make(board, move), 1 - side, depth - 1, -INF, INF, 1)
                    current.append((score, move))
            except _Abort:
                if current and max(s for s, _ in current) > current[0][0]:
                    # A move searched after the previous best has proven better.
                    top = max(current, key=lambda c: c[0])
                    scored = [top] + [c for c in scored if c[1] is not top[1]]
                break
            scored = current
            moves = [m for _, m in sorted(current, key=lambda c: -c[0])]
            if abs(max(s for s, _ in current)) > MATE - 1000:
                break  # a forced result is known; deeper search cannot change it
        return scored


#: Draws by agreement, so that a drawn game against a bot ends: a bot offers one in a level
#: position (within half a soldier) once nothing has been captured for ``QUIET_PLIES``
#: half-moves, at most once every ``OFFER_EVERY`` of its own moves. It accepts an offer only
#: when it judges itself worse (by more than that half soldier), and never in the opening
#: (the first ``OPENING_PLIES`` half-moves), where nobody stands worse yet: a draw offered
#: after one move each is a player trying the button, not a position to settle.
DRAW_OFFER_WITHIN = SOLDIER // 2
OPENING_PLIES = 12
QUIET_PLIES = 20
OFFER_EVERY = 10


def search(board, side, level="hard", seed=0, safety=SAFETY_SECONDS, start_empty=True):
    """The bot's ``(score, move)`` for a position: its move ``(path, overs)`` and how good
    the position is for ``side`` in evaluation points."""
    params = LEVELS[level]
    deadline = None if safety is None else time.perf_counter() + safety
    searcher = Searcher(params["nodes"], deadline, start_empty)
    scored = searcher.root(list(board), side, params["depth"])
    if not scored:
        raise ValueError("The side to move has no legal move")
    best = max(s for s, _ in scored)
    near = [m for s, m in scored if s >= best - params["margin"]]
    near.sort(key=lambda m: m[0])  # a fixed order, so the seed alone picks
    return best, near[Rng(seed).below(len(near))]


def choose_move(board, side, level="hard", seed=0, safety=SAFETY_SECONDS, start_empty=True):
    """The bot's move ``(path, overs)`` for a position."""
    return search(board, side, level, seed, safety, start_empty)[1]


def choose(view, level, seed):
    """The bot's move in notation, from a seat's view only (its ``lfen`` string)."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}")
    board, side = parse_board(view["lfen"])
    start_empty = view["options"]["start_square_empty"]
    return move_text(choose_move(board, side, level, seed, start_empty=start_empty))


def _quiet(history: list) -> bool:
    """Long enough without a capture that neither side is making progress."""
    recent = history[-QUIET_PLIES:]
    return len(recent) == QUIET_PLIES and not any("x" in move for move in recent)


def draw_action(view, side: int, score: int):
    """``accept_draw`` / ``offer_draw`` when the table allows them and the position calls
    for one (``side``: the side to move, ``score``: its position), else ``None``."""
    if not view.get("options", {}).get("draw_by_agreement"):
        return None
    offer = view.get("draw_offer")
    history = view.get("history", [])
    if offer == 1 - side and score < -DRAW_OFFER_WITHIN and len(history) >= OPENING_PLIES:
        return {"type": "accept_draw"}
    own_moves = len(history) // 2
    if offer is None and abs(score) <= DRAW_OFFER_WITHIN and _quiet(history) and own_moves % OFFER_EVERY == 0:
        return {"type": "offer_draw"}
    return None


def choose_action(view, level, seed):
    """The bot's action, from a seat's view only: a draw when it should offer or accept
    one, else its move (moving declines an offer)."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}")
    board, side = parse_board(view["lfen"])
    score, move = search(board, side, level, seed, start_empty=view["options"]["start_square_empty"])
    return draw_action(view, side, score) or {"type": "move", "path": move_text(move)}


BOTS = bots_by_level(choose_action, LEVELS)
