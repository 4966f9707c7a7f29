"""Lasca as a Taberna game: two seats, seat 0 = White (moves first), seat 1 = Black.

The JSON state extends the text interface's position (``board``, ``turn``) with the move
list, the result, a pending draw offer and the repetition counts, so ``rules.play`` and
``rules.legal_moves`` work on a state directly and a replay costs one move generation per
ply. Everything is public, so a view is the whole position.

Options (the digest's defaults first):

* ``threefold_repetition`` (off): the third occurrence of a position with the same side
  to move is a draw. Off because the official rules know only draws by agreement.
* ``draw_by_agreement`` (on): the side to move may ``offer_draw`` (and then still moves);
  the opponent may ``accept_draw`` on its turn, and declines by moving (``draw_declined``
  names that side until the next move, so the screen can say so).
* ``start_square_empty`` (on): rule 8 as resolved, the square a capturing column left counts
  as empty during its own multi-jump; off, it stays occupied (the column may not pass
  through or end on it).
* ``first_to_move`` (``white``): the side that moves first, ``white`` (seat 0) or ``black``
  (seat 1); sites differ, and the digest names both.
"""

from pyengine.core.errors import IllegalAction
from pyengine.core.game import PLAYERS, Game, Move
from pyengine.core.options import Option, options_shape
from pyengine.core.shape import Bool, Dict, Enum, List, Map, OneOf, Optional, Seat, Seats, Str, Where
from pyengine.core.validate import copy_json

from . import rules

MAX_PLIES = 20_000  # the move list a view may carry: far beyond any game played
MAX_MOVES = 1_000  # legal moves in one position (a few dozen in practice)
MOVE = Str(rules.MAX_MOVE_TEXT, rules.MOVE_PATTERN)
RESULT = OneOf(
    Dict({"winners": Seats(min_len=1), "reason": Enum("no_moves")}),
    Dict({"winners": Seats(), "draw": Enum(True), "reason": Enum("agreement", "repetition")}),
)


def _position_key(board, side) -> str:
    return rules.board_lfen(board, side)


def _start_empty(table: dict) -> bool:
    """Rule 8 at this table (a state or a view: both carry the options)."""
    return table["options"]["start_square_empty"]


def _draws_allowed(state: dict) -> None:
    if not state["options"]["draw_by_agreement"]:
        raise IllegalAction("Draws by agreement are off at this table", "lasca.no_draw_offers")


def _is_one_position(view: dict) -> bool:
    """The view's columns, side to move, legal moves and last move are those of its own
    position (``lfen``), so a screen may make any of its moves on its columns."""
    try:
        board, side = rules.parse_board(view["lfen"])
    except IllegalAction:
        return False
    over = view["result"] is not None
    moves = [] if over else rules.legal_moves({"board": board, "turn": side}, _start_empty(view))
    history = view["history"]
    return (
        side == view["turn"]
        and view["columns"] == {rules.NAMES[i]: column for i, column in enumerate(board) if column}
        and view["moves"] == moves
        and view["capture"] == any("x" in move for move in moves)
        and view["to_act"] == ([] if over else [side])
        and view["last"] == (history[-1] if history else None)
    )


class Lasca(Game):
    id = "lasca"
    min_seats = 2
    max_seats = 2
    undo_allowed = True  # perfect information, no chance: taking a move back leaks nothing
    options = {
        "threefold_repetition": Option(False),
        "draw_by_agreement": Option(True),
        "start_square_empty": Option(True),
        "first_to_move": Option("white", choices=("white", "black")),
    }

    def setup(self, options, seats, rng):
        board, _white = rules.parse_board(rules.START)
        side = ("white", "black").index(options["first_to_move"])
        return {
            "board": board,
            "turn": side,
            "history": [],
            "result": None,
            "draw_offer": None,
            "draw_declined": None,
            "seen": {_position_key(board, side): 1},
        }

    def to_act(self, state):
        return [] if state["result"] else [state["turn"]]

    def legal_actions(self, state, seat):
        if state["result"] or seat != state["turn"]:
            return []
        actions = [{"type": "move", "path": m}
                   for m in rules.legal_moves(state, _start_empty(state))]
        if state["options"]["draw_by_agreement"]:
            if state["draw_offer"] is None:
                actions.append({"type": "offer_draw"})
            elif state["draw_offer"] != seat:
                actions.append({"type": "accept_draw"})
        return actions

    def _offer_draw(self, state, seat, action, rng):
        _draws_allowed(state)
        if state["draw_offer"] is not None:
            raise IllegalAction("A draw offer is already on the table", "lasca.offer_pending")
        state["draw_offer"] = seat

    def _accept_draw(self, state, seat, action, rng):
        _draws_allowed(state)
        if state["draw_offer"] != 1 - seat:
            raise IllegalAction("Your opponent has not offered a draw", "lasca.no_offer")
        state["result"] = {"winners": [], "draw": True, "reason": "agreement"}

    def _move(self, state, seat, action, rng):
        board = state["board"]
        move = rules.find_move(board, seat, action["path"], _start_empty(state))
        mover = board[move[0][0]][0]
        board = state["board"] = rules.make(board, move)
        state["turn"] = side = 1 - seat
        state["history"].append(rules.move_text(move))
        declined = state["draw_offer"] == 1 - seat  # moving declines the opponent's offer
        state["draw_declined"] = seat if declined else None
        if state["draw_offer"] != seat:
            state["draw_offer"] = None
        if not rules.generate(board, side, _start_empty(state)):
            state["result"] = {"winners": [seat], "reason": "no_moves"}
            return
        if move[1] or mover in "wb":
            state["seen"] = {}  # captures and soldier steps can never be undone
        key = _position_key(board, side)
        count = state["seen"][key] = state["seen"].get(key, 0) + 1
        if count >= 3 and state["options"]["threefold_repetition"]:
            state["result"] = {"winners": [], "draw": True, "reason": "repetition"}

    moves = {
        "move": Move(_move, Dict({"path": Str(rules.MAX_MOVE_TEXT)})),
        "offer_draw": Move(_offer_draw),
        "accept_draw": Move(_accept_draw),
    }

    def view(self, state, seat):
        over = state["result"] is not None
        moves = [] if over else rules.legal_moves(state, _start_empty(state))
        board = state["board"]
        return {
            "game": self.id,
            "you": seat,
            "to_act": self.to_act(state),
            "result": copy_json(state["result"]),  # the view is the seat's own copy
            "turn": state["turn"],
            "lfen": rules.board_lfen(board, state["turn"]),
            "columns": {rules.NAMES[i]: col for i, col in enumerate(board) if col},
            "moves": moves,
            "capture": any("x" in m for m in moves),
            "last": state["history"][-1] if state["history"] else None,
            "history": list(state["history"]),
            "draw_offer": state["draw_offer"],
            "draw_declined": state["draw_declined"],
            "options": dict(state["options"]),
        }

    view_shape = Where(
        Dict(
            {
                "game": Enum(id),
                "you": Optional(Seat()),
                "to_act": Seats(),
                "result": Optional(RESULT),
                "turn": Seat(),
                "lfen": Str(rules.MAX_LFEN),
                "columns": Map(Enum(*rules.NAMES), Str(2 * rules.MAX_PER_SIDE, "[wWbB]+"), len(rules.NAMES)),
                "moves": List(MOVE, max_len=MAX_MOVES),
                "capture": Bool(),
                "last": Optional(MOVE),
                "history": List(MOVE, max_len=MAX_PLIES),
                "draw_offer": Optional(Seat()),
                "draw_declined": Optional(Seat()),
                "options": options_shape(options),
            },
            optional={"players": PLAYERS},
        ),
        _is_one_position,
        "the board, side to move and moves are not one position",
    )

    def action_text(self, action):
        kind = action.get("type")
        if kind == "move":
            return str(action.get("path"))
        if kind in ("offer_draw", "accept_draw"):
            return kind.replace("_", "-")
        raise IllegalAction(f"Unknown action {str(kind)[:20]!r}", "unknown_action", kind=str(kind)[:20])

    def parse_action(self, text):
        if not isinstance(text, str):
            raise IllegalAction("An action must be written as text", "lasca.bad_notation",
                                move="")
        text = text.strip()
        if text in ("offer-draw", "accept-draw"):
            return {"type": text.replace("-", "_")}
        rules.split_move(text)
        return {"type": "move", "path": text}


GAME = Lasca()
