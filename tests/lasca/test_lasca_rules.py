"""Every Lasca rule, each with a position written in the digest's notation."""

import pytest

from pyengine.core.errors import IllegalAction
from pyengine.games.lasca import START, legal_moves, parse, play, to_lfen


def moves(lfen):
    return sorted(legal_moves(parse(lfen)))


def after(lfen, *played):
    position = parse(lfen)
    for move in played:
        position = play(position, move)
    return to_lfen(position)


def reason_code(lfen, move):
    with pytest.raises(IllegalAction) as caught:
        play(parse(lfen), move)
    return caught.value.code


# --- movement -------------------------------------------------------------------------
def test_start_moves_are_six_forward_steps():
    assert moves(START) == ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4"]


def test_soldier_steps_forward_only_and_officer_both_ways():
    assert moves("W:d4=w") == ["d4-c5", "d4-e5"]
    assert moves("W:d4=W") == ["d4-c3", "d4-c5", "d4-e3", "d4-e5"]
    assert moves("B:d4=b") == ["d4-c3", "d4-e3"]
    assert moves("B:d4=B") == ["d4-c3", "d4-c5", "d4-e3", "d4-e5"]


def test_a_column_moves_like_its_commander():
    assert moves("W:d4=wbb") == ["d4-c5", "d4-e5"]
    assert moves("B:d4=Bww") == ["d4-c3", "d4-c5", "d4-e3", "d4-e5"]
    assert after("W:d4=Wbb", "d4-c3") == "B:c3=Wbb"


def test_quiet_moves_go_only_to_empty_squares():
    assert moves("W:c3=w,b4=w,d4=b,e5=b") == ["b4-a5", "b4-c5"]


def test_soldier_reaching_the_far_rank_by_a_step_is_promoted():
    assert after("W:b6=w", "b6-a7") == "B:a7=W"
    assert after("B:d2=bw", "d2-c1") == "W:c1=Bw"


# --- captures -----------------------------------------------------------------------------
def test_capture_is_compulsory():
    lfen = "W:a3=w,c3=w,d4=b"
    assert moves(lfen) == ["c3xe5"]
    assert reason_code(lfen, "a3-b4") == "lasca.capture_compulsory"


def test_a_soldier_captures_forward_only_and_an_officer_backwards_too():
    assert moves("W:d4=w,c3=b") == ["d4-c5", "d4-e5"]
    assert moves("W:d4=W,c3=b") == ["d4xb2"]
    assert moves("B:d4=b,c5=w") == ["d4-c3", "d4-e3"]


def test_no_capture_onto_an_occupied_square_or_over_own_column():
    assert moves("W:c3=w,d4=b,e5=w") == ["c3-b4", "e5-d6", "e5-f6"]
    assert moves("W:c3=w,d4=wb") == ["c3-b4", "d4-c5", "d4-e5"]


def test_a_column_with_an_enemy_commander_is_captured_even_over_own_prisoners():
    assert after("W:c3=w,d4=bw", "c3xe5") == "B:e5=wb,d4=w"


def test_free_choice_of_sequence_no_majority_rule():
    lfen = "W:c3=w,b4=b,d4=b,f6=b"
    assert moves(lfen) == ["c3xa5", "c3xe5xg7"]
    assert after(lfen, "c3xa5") == "B:f6=b,a5=wb,d4=b"
    assert after(lfen, "c3xe5xg7") == "B:g7=Wbb,b4=b"


def test_two_jump_paths_are_two_moves():
    lfen = "W:c3=W,d4=bb,d6=b,b6=b,b4=b"
    assert moves(lfen) == ["c3xa5xc7xe5xc3", "c3xe5xc7xa5xc3"]


def test_multi_jump_is_compulsory():
    lfen = "W:c3=w,b4=b,d4=b,f6=b"
    assert reason_code(lfen, "c3xe5") == "lasca.must_continue"


def test_only_the_commander_is_taken_and_prisoners_go_to_the_bottom_in_order():
    # The officer takes B from d4 (freeing a white prisoner), then b from f6.
    assert moves("W:c3=Wb,d4=Bw,f6=b") == ["c3xe5xg7"]
    assert after("W:c3=Wb,d4=Bw,f6=b", "c3xe5xg7") == "B:g7=WbBb,d4=w"
    assert after("B:e5=bb,d4=wwb", "e5xc3") == "W:d4=wb,c3=bbw"


def test_a_liberated_piece_belongs_to_its_side_again_and_keeps_its_rank():
    lfen = after("B:e5=b,d4=wB", "e5xc3")
    assert lfen == "W:d4=B,c3=bw"
    assert moves(lfen) == []  # White has no column left: both are Black's now
    # The freed officer is Black's and moves backwards at once.
    assert moves("B" + lfen[1:]) == ["c3-b2", "c3-d2", "d4-c5", "d4-e3", "d4-e5"]


def test_captured_officers_keep_their_rank_in_prison():
    assert after("B:e5=b,d4=W", "e5xc3") == "W:c3=bW"


def test_the_same_column_may_not_be_jumped_twice_in_one_move():
    # After four jumps the officer is back on c3 next to the rest of d4 (still a black
    # commander) and would take it again if re-jumping were allowed.
    lfen = "W:c3=W,d4=bb,d6=b,b6=b,b4=b"
    assert after(lfen, "c3xe5xc7xa5xc3") == "B:d4=b,c3=Wbbbb"
    assert reason_code(lfen, "c3xe5xc7xa5xc3xe5") == "lasca.illegal_move"


def test_the_starting_square_counts_as_empty_during_the_capture():
    # Same loop: the officer may land on the square it started from.
    assert all(m.endswith("xc3") for m in moves("W:c3=W,d4=bb,d6=b,b6=b,b4=b"))


def test_promotion_ends_the_move():
    lfen = "W:c5=w,d6=b,f6=b"
    assert moves(lfen) == ["c5xe7"]
    assert after(lfen, "c5xe7") == "B:e7=Wb,f6=b"
    assert reason_code(lfen, "c5xe7xg5") == "lasca.illegal_move"


def test_only_the_commander_is_promoted():
    assert after("W:b6=wwb", "b6-c7") == "B:c7=Wwb"


def test_a_freed_soldier_on_its_far_rank_stays_a_soldier_and_is_stuck():
    assert after("B:f6=b,e7=bw", "f6-g5") == "W:e7=bw,g5=b"
    assert moves("W:g7=w") == []


def test_an_officer_can_capture_in_all_four_directions_in_one_move():
    lfen = "W:d4=W,e5=b,e3=b,c3=b,c5=b"
    # From d4: over e5 to f6, over e3 to f2, over c3 to b2, over c5 to b6; each continues?
    assert sorted(m.split("x")[1] for m in moves(lfen)) == ["b2", "b6", "f2", "f6"]


# --- end of the game ------------------------------------------------------------------------
def test_a_side_without_columns_or_without_moves_has_no_legal_move():
    assert moves("W:c3=bw") == []
    assert moves("B:b2=b,a1=w,c1=w") == []
    assert reason_code("B:b2=b,a1=w,c1=w", "b2-a1") == "lasca.no_moves"


# --- notation -----------------------------------------------------------------------------
def test_round_trips_and_canonical_order():
    assert to_lfen(parse(START)) == START
    assert to_lfen(parse(" B: a1=w , g7=Bww ")) == "B:g7=Bww,a1=w"
    assert to_lfen(parse("W:")) == "W:"
    for lfen in ("W:d4=W,e5=b,e3=b,c3=b,c5=b", "B:g7=WbBb,d4=w"):
        assert parse(to_lfen(parse(lfen))) == parse(lfen)


@pytest.mark.parametrize(
    "bad",
    ["", "X:a1=w", "a1=w", "W;a1=w", "W:b1=w", "W:a1=w,a1=b", "W:a1=x", "W:a1=", "W:a1",
     "W:a1=wbw", "W:h8=w", "W:" + ",".join(f"{s}=w" for s in
                                           ["a1", "c1", "e1", "g1", "b2", "d2", "f2", "a3", "c3",
                                            "e3", "g3", "b4"]), None, 42, "W:a1=w" * 100],
)
def test_bad_positions_are_rejected_with_a_reason(bad):
    with pytest.raises(ValueError) as caught:
        parse(bad)
    assert str(caught.value)


@pytest.mark.parametrize(
    "move, code",
    [("a3b4", "lasca.bad_notation"), ("a3-b4-c5", "lasca.bad_notation"),
     ("b3-c4", "lasca.bad_square"), ("a3-a4", "lasca.bad_square"), ("h1-g2", "lasca.bad_notation"),
     ("b4-c5", "lasca.not_your_column"), ("a5-b4", "lasca.not_your_column"),
     ("a1-b2", "lasca.illegal_move"), ("a3xc5", "lasca.illegal_move"), (None, "lasca.bad_notation"),
     ("", "lasca.bad_notation")],
)
def test_bad_moves_are_rejected_with_a_reason(move, code):
    assert reason_code(START, move) == code


def test_play_never_mutates_its_input():
    position = parse(START)
    snapshot = to_lfen(position), list(position["board"])
    play(position, "c3-d4")
    assert (to_lfen(position), position["board"]) == snapshot
