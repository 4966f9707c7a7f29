"""The Game adapter: actions, draws, the end of the game, views and saves."""

import pytest

from pyengine.core.errors import IllegalAction
from pyengine.core.table import Table
from pyengine.games.lasca import GAME, START
from pyengine.games.lasca.rules import board_lfen, parse_board


def state_at(lfen, **options):
    state = GAME.new_state(options, 2, 7)
    state["board"], state["turn"] = parse_board(lfen)
    state["seen"] = {board_lfen(state["board"], state["turn"]): 1}
    return state


def run(state, *moves):
    for text in moves:
        state = GAME.apply(state, state["turn"], GAME.parse_action(text))
    return state


def test_new_game_white_first_with_the_six_steps_and_a_draw_offer():
    state = GAME.new_state({}, 2, 1)
    assert GAME.to_act(state) == [0]
    actions = GAME.legal_actions(state, 0)
    assert {"type": "offer_draw"} in actions
    assert sorted(a["path"] for a in actions if a["type"] == "move") == [
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4"]
    assert GAME.legal_actions(state, 1) == []


def test_the_side_that_cannot_move_loses():
    state = run(state_at("W:c3=w,d4=b"), "c3xe5")
    assert state["result"] == {"winners": [0], "reason": "no_moves"}
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, {"type": "move", "path": "e5-d6"})


def test_draw_offer_accepted_or_declined_by_moving():
    state = run(GAME.new_state({}, 2, 1), "offer-draw", "c3-d4")
    assert state["draw_offer"] == 0
    assert {"type": "accept_draw"} in GAME.legal_actions(state, 1)
    accepted = GAME.apply(state, 1, {"type": "accept_draw"})
    assert accepted["result"] == {"winners": [], "draw": True, "reason": "agreement"}
    declined = run(state, "e5xc3")
    assert declined["draw_offer"] is None and declined["result"] is None and declined["draw_declined"] == 1
    assert run(declined, "b2xd4")["draw_declined"] is None


def test_draw_actions_rejected_when_not_allowed():
    state = GAME.new_state({}, 2, 1)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, {"type": "accept_draw"})
    assert caught.value.code == "lasca.no_offer"
    offered = GAME.apply(state, 0, {"type": "offer_draw"})
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(offered, 0, {"type": "offer_draw"})
    assert caught.value.code == "lasca.offer_pending"
    strict = GAME.new_state({"draw_by_agreement": False}, 2, 1)
    assert all(a["type"] == "move" for a in GAME.legal_actions(strict, 0))
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(strict, 0, {"type": "offer_draw"})
    assert caught.value.code == "lasca.no_draw_offers"


SHUFFLE = ["a1-b2", "g7-f6", "b2-a1", "f6-g7"] * 2


def test_threefold_repetition_is_a_draw_only_with_the_option():
    drawn = run(state_at("W:a1=W,g7=B", threefold_repetition=True), *SHUFFLE)
    assert drawn["result"] == {"winners": [], "draw": True, "reason": "repetition"}
    assert run(state_at("W:a1=W,g7=B", threefold_repetition=True), *SHUFFLE[:7])["result"] is None
    assert run(state_at("W:a1=W,g7=B"), *SHUFFLE)["result"] is None


def test_irreversible_moves_clear_the_repetition_record():
    state = run(state_at("W:a1=W,g7=B,a7=b", threefold_repetition=True), "a1-b2")
    assert len(state["seen"]) == 2
    assert run(state, "a7-b6")["seen"] == {"W:g7=B,b6=b,b2=W": 1}


@pytest.mark.parametrize("action, code", [
    ({"type": "move"}, "bad_field"),
    ({"type": "move", "path": 3}, "bad_field"),
    ({"type": "move", "path": "c3"}, "lasca.bad_notation"),
    ({"type": "move", "path": "c3-d4", "extra": 1}, "bad_field"),
    ({"type": "offer_draw", "path": "c3-d4"}, "bad_field"),
    ({"type": "move", "path": "a3-a4"}, "lasca.bad_square"),
    ({"type": "resign"}, "unknown_action"),
])
def test_malformed_actions_are_rejected(action, code):
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(GAME.new_state({}, 2, 1), 0, action)
    assert caught.value.code == code


def test_view_is_the_whole_public_position():
    state = run(GAME.new_state({}, 2, 1), "c3-d4")
    view = GAME.view(state, 1)
    assert view["you"] == 1 and view["to_act"] == [1] and view["turn"] == 1
    assert view["last"] == "c3-d4" and view["history"] == ["c3-d4"]
    assert view["moves"] == ["e5xc3"] and view["capture"] is True
    assert view["lfen"].startswith("B:") and view["columns"]["d4"] == "w"
    assert GAME.view(state, None)["lfen"] == view["lfen"]


def test_notation_round_trip():
    for text in ("c3-d4", "a3xc5xe7", "offer-draw", "accept-draw"):
        assert GAME.action_text(GAME.parse_action(text)) == text
    with pytest.raises(IllegalAction):
        GAME.parse_action("c3-d9")


def test_a_saved_game_replays():
    table = Table("lasca", {}, [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}], 5)
    for text in ("c3-d4", "e5xc3", "b2xd4"):
        table.act(table.to_act()[0], GAME.parse_action(text))
    again = Table.from_dict(table.to_dict())
    assert again.state == table.state
    assert again.view(0)["lfen"] != START


LOOP = "W:b6=b,d6=b,b4=b,d4=b,c3=W"  # an officer on c3 that can jump round back to c3


def test_rule_8_the_start_square_counts_as_empty_by_default():
    state = state_at(LOOP)
    moves = sorted(a["path"] for a in GAME.legal_actions(state, 0) if a["type"] == "move")
    assert moves == ["c3xa5xc7xe5xc3", "c3xe5xc7xa5xc3"]
    after = run(state, "c3xe5xc7xa5xc3")
    assert board_lfen(after["board"], after["turn"]) == "B:c3=Wbbbb"


def test_rule_8_alternative_keeps_the_start_square_occupied():
    state = state_at(LOOP, start_square_empty=False)
    moves = sorted(a["path"] for a in GAME.legal_actions(state, 0) if a["type"] == "move")
    assert moves == ["c3xa5xc7xe5", "c3xe5xc7xa5"]
    with pytest.raises(IllegalAction):
        run(state, "c3xe5xc7xa5xc3")
    view = GAME.view(state, 0)
    assert view["moves"] == ["c3xe5xc7xa5", "c3xa5xc7xe5"]
    GAME.check_view(view, 2)


def test_black_may_move_first():
    state = GAME.new_state({"first_to_move": "black"}, 2, 1)
    assert GAME.to_act(state) == [1] and state["turn"] == 1
    assert GAME.legal_actions(state, 0) == []
    moves = sorted(a["path"] for a in GAME.legal_actions(state, 1) if a["type"] == "move")
    assert moves == ["a5-b4", "c5-b4", "c5-d4", "e5-d4", "e5-f4", "g5-f4"]
    GAME.check_view(GAME.view(state, 1), 2)
    with pytest.raises(Exception):
        GAME.new_state({"first_to_move": "red"}, 2, 1)
