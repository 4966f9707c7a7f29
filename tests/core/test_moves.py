"""The move table: the base class refuses unknown types, moves out of their phase and fields
that do not fit, before any handler runs; the handler plays what is left."""

import pytest

from pyengine.core.errors import IllegalAction
from pyengine.core.game import Game, Move
from pyengine.core.shape import Dict, Int, Seat


class Counting(Game):
    """A toy game: seat 0 adds to a counter while ``phase`` is ``add``, then anyone ends it."""

    id = "counting"

    def setup(self, options, seats, rng):
        return {"phase": "add", "total": 0, "result": None}

    def to_act(self, state):
        return [] if state["result"] else [0, 1]

    def add(self, state, seat, action, rng):
        if action["n"] == 7:
            raise IllegalAction("Seven is unlucky", "counting.unlucky")
        state["total"] += action["n"]
        state["phase"] = "end"

    def end(self, state, seat, action, rng):
        state["result"] = {"winners": [action.get("winner", seat)]}

    moves = {
        "add": Move(add, Dict({"n": Int(1, 9)}), phases=("add",)),
        "end": Move(end, Dict({}, optional={"winner": Seat()}), phases=("end",)),
    }


GAME = Counting()


def code_of(state, action, seat=0) -> str:
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, seat, action)
    return caught.value.code


def test_a_declared_move_reaches_its_handler_with_checked_fields():
    state = GAME.new_state({}, 2, 1)
    added = GAME.apply(state, 0, {"type": "add", "n": 4})
    assert added["total"] == 4 and state["total"] == 0
    assert GAME.apply(added, 1, {"type": "end", "winner": 0})["result"] == {"winners": [0]}
    assert GAME.apply(added, 1, {"type": "end"})["result"] == {"winners": [1]}


@pytest.mark.parametrize(
    "action, code",
    [
        ({"type": "subtract", "n": 1}, "unknown_action"),
        ({"type": "moves"}, "unknown_action"),
        ({"type": "end"}, "not_now"),  # declared, but not in this phase
        ({"type": "add"}, "bad_field"),  # missing
        ({"type": "add", "n": 1, "m": 2}, "bad_field"),  # extra
        ({"type": "add", "n": "1"}, "bad_field"),  # wrong type
        ({"type": "add", "n": True}, "bad_field"),
        ({"type": "add", "n": 10}, "bad_field"),  # out of range
        ({"type": "add", "n": 7}, "counting.unlucky"),  # the handler's own refusal
    ],
)
def test_the_base_class_refuses_before_the_handler(action, code):
    assert code_of(GAME.new_state({}, 2, 1), action) == code


def test_a_bad_field_is_named_and_seats_are_checked_at_the_table_size():
    added = GAME.apply(GAME.new_state({}, 2, 1), 0, {"type": "add", "n": 1})
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(added, 0, {"type": "end", "winner": 2})
    assert caught.value.code == "bad_field" and caught.value.params == {"field": "winner"}


def test_a_game_may_name_its_phases_per_seat_and_say_why_in_its_words():
    class OnlySeatZeroAdds(Counting):
        def phase(self, state, seat):
            return state["phase"] if seat == 0 else "watching"

        def wrong_phase(self, state, seat, kind):
            return IllegalAction("Only seat 0 adds", "counting.only_zero")

    game = OnlySeatZeroAdds()
    state = game.new_state({}, 2, 1)
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, 1, {"type": "add", "n": 1})
    assert caught.value.code == "counting.only_zero"
    assert game.apply(state, 0, {"type": "add", "n": 1})["total"] == 1
