"""Lasca as a Taberna game: two seats, seat 0 = White (moves first), seat 1 = Black.

The JSON state extends the text interface's position (``board``, ``turn``) with the move
list, the result, a pending draw offer and the repetition counts, so ``rules.play`` and
``rules.legal_moves`` work on a state directly and a replay costs one move generation per
ply. Everything is public, so a view is the whole position.

Options (the digest's defaults first):

* ``threefold_repetition`` (off): the third occurrence of a position with the same side
  to move is a draw. Off because the official rules know only draws by agreement.
* ``draw_by_agreement`` (on): the side to move may ``offer_draw`` (and then still moves);
  the opponent may ``accept_draw`` on its turn, and declines by moving.
"""

from pyengine.core.errors import IllegalAction
from pyengine.core.game import Game
from pyengine.core.options import Option
from pyengine.core.validate import only_fields

from . import rules


def _position_key(board, side) -> str:
    return rules.board_lfen(board, side)


class Lasca(Game):
    id = "lasca"
    min_seats = 2
    max_seats = 2
    undo_allowed = True  # perfect information, no chance: taking a move back leaks nothing
    options = {
        "threefold_repetition": Option(False),
        "draw_by_agreement": Option(True),
    }

    def setup(self, options, seats, rng):
        board, side = rules.parse_board(rules.START)
        return {
            "board": board,
            "turn": side,
            "history": [],
            "result": None,
            "draw_offer": None,
            "seen": {_position_key(board, side): 1},
        }

    def to_act(self, state):
        return [] if state["result"] else [state["turn"]]

    def legal_actions(self, state, seat):
        if state["result"] or seat != state["turn"]:
            return []
        actions = [{"type": "move", "path": m} for m in rules.legal_moves(state)]
        if state["options"]["draw_by_agreement"]:
            if state["draw_offer"] is None:
                actions.append({"type": "offer_draw"})
            elif state["draw_offer"] != seat:
                actions.append({"type": "accept_draw"})
        return actions

    def play(self, state, seat, kind, action, rng):
        if kind == "move":
            only_fields(action, "path")
            self._move(state, seat, action.get("path"))
        elif kind in ("offer_draw", "accept_draw"):
            only_fields(action)
            if not state["options"]["draw_by_agreement"]:
                raise IllegalAction("Draws by agreement are off at this table",
                                    "lasca.no_draw_offers")
            if kind == "offer_draw":
                if state["draw_offer"] is not None:
                    raise IllegalAction("A draw offer is already on the table",
                                        "lasca.offer_pending")
                state["draw_offer"] = seat
            else:
                if state["draw_offer"] != 1 - seat:
                    raise IllegalAction("Your opponent has not offered a draw",
                                        "lasca.no_offer")
                state["result"] = {"winners": [], "draw": True, "reason": "agreement"}
        else:
            raise IllegalAction(f"Unknown action {kind!r}", "unknown_action",
                                action=kind[:20])

    def _move(self, state, seat, path):
        board = state["board"]
        move = rules.find_move(board, seat, path)
        mover = board[move[0][0]][0]
        board = state["board"] = rules.make(board, move)
        state["turn"] = side = 1 - seat
        state["history"].append(rules.move_text(move))
        if state["draw_offer"] != seat:
            state["draw_offer"] = None  # moving declines the opponent's offer
        if not rules.generate(board, side):
            state["result"] = {"winners": [seat], "reason": "no_moves"}
            return
        if move[1] or mover in "wb":
            state["seen"] = {}  # captures and soldier steps can never be undone
        key = _position_key(board, side)
        count = state["seen"][key] = state["seen"].get(key, 0) + 1
        if count >= 3 and state["options"]["threefold_repetition"]:
            state["result"] = {"winners": [], "draw": True, "reason": "repetition"}

    def view(self, state, seat):
        over = state["result"] is not None
        moves = [] if over else rules.legal_moves(state)
        board = state["board"]
        return {
            "game": self.id,
            "you": seat,
            "to_act": self.to_act(state),
            "result": state["result"],
            "turn": state["turn"],
            "lfen": rules.board_lfen(board, state["turn"]),
            "columns": {rules.NAMES[i]: col for i, col in enumerate(board) if col},
            "moves": moves,
            "capture": any("x" in m for m in moves),
            "last": state["history"][-1] if state["history"] else None,
            "history": list(state["history"]),
            "draw_offer": state["draw_offer"],
            "options": dict(state["options"]),
        }

    def action_text(self, action):
        kind = action.get("type")
        if kind == "move":
            return str(action.get("path"))
        if kind in ("offer_draw", "accept_draw"):
            return kind.replace("_", "-")
        raise IllegalAction(f"Unknown action {kind!r}", "unknown_action",
                            action=str(kind)[:20])

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
