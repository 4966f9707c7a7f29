"""Lasca bots: legal, view-only, deterministic, and they see short forced wins and losses.

Wins and blunders are checked by an exhaustive search written here, not by stored answers.
"""

import pytest

from pyengine.core.rng import derive_seed
from pyengine.games.lasca import GAME
from pyengine.games.lasca.bot import choose, choose_action
from pyengine.games.lasca.rules import generate, make, move_text, parse_board


def wins_within(board, side, plies):
    """Can ``side`` (to move) leave its opponent without a move within ``plies`` plies?"""
    for move in generate(board, side):
        after = make(board, move)
        replies = generate(after, 1 - side)
        if not replies:
            return True
        if plies >= 3 and all(wins_within(make(after, r), side, plies - 2) for r in replies):
            return True
    return False


RULE_8 = {"start_square_empty": True}


def bot_move(lfen, level, seed=0):
    """(board, side, the bot's move) for a position, the bot seeing only its string."""
    path = choose({"lfen": lfen, "options": RULE_8}, level, seed)
    board, side = parse_board(lfen)
    return board, side, next(m for m in generate(board, side) if move_text(m) == path)


WINS = [  # a unique forced win within five plies, none in one
    "B:a7=b,c7=b,e7=b,g7=Wbb,b6=b,g5=b,e3=Bwww,g3=Bwww,d2=bww,c1=Bww",
    "B:f6=Wbbbb,g5=b,c3=B,d2=Bw,f2=bwW,a1=Bww,e1=Bww,g1=BWww",
    "B:a7=BwwWwW,e5=W,d4=bbw,c3=bbB,d2=BW,f2=bbWw,c1=B,e1=Bw",
]
BLUNDERS = [  # some moves let the opponent force a win within three plies
    "W:g7=b,b6=b,f6=b,a5=bb,c5=b,g5=b,b4=bw,c3=Bwwwww,e3=wb,f2=w,c1=Bwww",
    "W:g7=b,b6=b,a5=b,c5=b,e5=w,g5=b,b4=b,d4=bw,a3=w,c3=bww,e3=b,g3=Bbwww,b2=w,a1=w,g1=w",
    "W:a7=Wb,c7=W,c5=BwwW,e5=BwWww,f4=b,a1=Bww,c1=Bbbbbb",
    "W:g7=BwwWW,d4=Wb,b2=BwWww,d2=Bbbbbb,a1=Bww,g1=B",
]


@pytest.mark.parametrize("lfen", WINS)
@pytest.mark.parametrize("level", ["medium", "hard"])
def test_finds_a_forced_win(lfen, level):
    board, side, move = bot_move(lfen, level)
    after = make(board, move)
    replies = generate(after, 1 - side)
    assert not replies or all(wins_within(make(after, r), side, 3) for r in replies)


@pytest.mark.parametrize("lfen", BLUNDERS)
@pytest.mark.parametrize("level", ["medium", "hard"])
def test_avoids_a_move_that_loses_at_once(lfen, level):
    board, side, move = bot_move(lfen, level)
    losing = [m for m in generate(board, side) if wins_within(make(board, m), 1 - side, 3)]
    assert losing and move not in losing


def test_plays_only_legal_moves_through_the_game_contract():
    state = GAME.new_state({}, 2, 11)
    plies = 0
    while not GAME.is_over(state) and plies < 400:
        seat = GAME.to_act(state)[0]
        level = "easy" if plies % 2 == 0 else "medium"
        action = choose_action(GAME.view(state, seat), level, derive_seed(11, plies))
        assert action in GAME.legal_actions(state, seat)
        state = GAME.apply(state, seat, action)
        plies += 1
    assert GAME.is_over(state)


def test_decides_from_the_view_alone_and_deterministically():
    state = GAME.apply(GAME.new_state({}, 2, 4), 0, {"type": "move", "path": "c3-d4"})
    state = GAME.apply(state, 1, {"type": "move", "path": "e5xc3"})
    view = GAME.view(state, 0)
    full = choose_action(view, "hard", 9)
    assert full == choose_action({"lfen": view["lfen"], "options": view["options"]}, "hard", 9)
    assert full in GAME.legal_actions(state, 0)


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        choose({"lfen": "W:c3=w", "options": RULE_8}, "grandmaster", 0)


# --- draws by agreement: a drawn game against a bot must be able to end -----------------------
def offered(state, seat):
    """``state`` after ``seat`` offers a draw (it still has its move to make)."""
    return GAME.apply(state, seat, {"type": "offer_draw"})


def test_declines_a_draw_in_the_opening():
    # Issue 27: a medium bot accepted a draw after one move each. White offers and moves in
    # the level opening position: no bot takes it.
    state = offered(GAME.new_state({}, 2, 3), 0)
    state = GAME.apply(state, 0, {"type": "move", "path": "c3-d4"})
    for level in ("easy", "medium", "hard"):
        action = choose_action(GAME.view(state, 1), level, 5)
        assert action["type"] == "move" and action in GAME.legal_actions(state, 1)


def test_accepts_a_draw_only_when_worse_and_the_game_ends():
    # Past the opening, Black to move with two soldiers against three commanders takes the
    # offer; the same offer to the side that is ahead is declined (next test).
    state = GAME.new_state({}, 2, 3)
    state["board"], state["turn"] = parse_board("B:a7=b,c7=b,a1=W,c1=W,e1=W")
    state["history"] = ["a1-b2", "g7-f6", "b2-a1", "f6-g7"] * 3
    state["draw_offer"] = 0
    for level in ("easy", "medium", "hard"):
        action = choose_action(GAME.view(state, 1), level, 5)
        assert action == {"type": "accept_draw"}
    over = GAME.apply(state, 1, action)
    assert over["result"] == {"winners": [], "draw": True, "reason": "agreement"}
    level = dict(state, board=parse_board("B:a7=B,a1=W")[0])  # one officer each: level, plays on
    assert choose_action(GAME.view(level, 1), "medium", 5)["type"] == "move"


def test_declines_a_draw_when_clearly_ahead():
    # Black to move with two commanders against one soldier: it plays on.
    state = GAME.new_state({}, 2, 3)
    state["board"], state["turn"] = parse_board("B:a7=B,c7=B,g1=w")
    state["draw_offer"] = 0
    action = choose_action(GAME.view(state, 1), "medium", 1)
    assert action["type"] == "move" and action in GAME.legal_actions(state, 1)


def test_never_touches_draws_when_the_table_has_them_off():
    state = offered(GAME.new_state({}, 2, 3), 0)
    state = GAME.apply(state, 0, {"type": "move", "path": "c3-d4"})
    view = GAME.view(state, 1)
    view["options"] = {**view["options"], "draw_by_agreement": False}
    assert choose_action(view, "hard", 5)["type"] == "move"


def test_offers_a_draw_when_nothing_happens_in_a_level_position():
    # Two lone officers shuffling: after a quiet stretch the bot offers, then still moves.
    state = GAME.new_state({}, 2, 3)
    state["board"], state["turn"] = parse_board("W:a1=W,g7=B")
    state["history"] = ["a1-b2", "g7-f6", "b2-a1", "f6-g7"] * 5
    view = GAME.view(state, 0)
    assert choose_action(view, "medium", 2) == {"type": "offer_draw"}
    state = offered(state, 0)
    assert choose_action(GAME.view(state, 0), "medium", 2)["type"] == "move"
    state["history"] = state["history"][:-1] + ["a1xc3"]  # a capture just happened: no offer
    state["draw_offer"] = None
    assert choose_action(GAME.view(state, 0), "medium", 2)["type"] == "move"


def test_plays_the_tables_rule_8():
    """An officer whose loop back to its start square is legal only where the square counts
    as empty: the bot's move is legal at both tables."""
    lfen = "W:b6=b,d6=b,b4=b,d4=b,c3=W"
    for start_empty in (True, False):
        state = {**GAME.new_state({"start_square_empty": start_empty}, 2, 1)}
        state["board"], state["turn"] = parse_board(lfen)
        action = choose_action(GAME.view(state, 0), "hard", 3)
        assert action in GAME.legal_actions(state, 0)
        assert action["path"].endswith("c3") == start_empty
