"""Perft: the digest's figures, and deeper counts against an independent slow reference.

The reference below shares no code with the engine: a dict of (file, rank) -> column,
captures found by recursion on fresh copies of the board, rules written again from the
digest. Agreement on deep counts and on random games is evidence both follow the rules.
"""

import pytest

from pyengine.core.rng import Rng
from pyengine.games.lasca import START, legal_moves, parse, perft, play, to_lfen

DIGEST = [6, 6, 18, 54, 116, 324]


# --- the reference ---------------------------------------------------------------------------
def ref_parse(lfen):
    side, _, body = lfen.partition(":")
    board = {}
    for item in filter(None, body.split(",")):
        square, column = item.split("=")
        board[("abcdefg".index(square[0]), int(square[1]) - 1)] = column
    return board, side


def ref_name(point):
    return "abcdefg"[point[0]] + str(point[1] + 1)


def ref_moves(board, side):
    """{notation: new board} for every legal move."""
    mine = "wW" if side == "W" else "bB"
    ahead = 1 if side == "W" else -1
    far = 6 if side == "W" else 0
    captures, quiet = {}, {}

    def directions(column):
        if column[0].isupper():
            return [(1, 1), (-1, 1), (1, -1), (-1, -1)]
        return [(1, ahead), (-1, ahead)]

    def inside(point):
        return 0 <= point[0] < 7 and 0 <= point[1] < 7

    def jump(rest, here, column, path, jumped):
        went_on = False
        for df, dr in directions(column):
            middle = (here[0] + df, here[1] + dr)
            target = (here[0] + 2 * df, here[1] + 2 * dr)
            if not inside(target) or target in rest or middle in jumped:
                continue
            if middle not in rest or rest[middle][0] in mine:
                continue
            went_on = True
            after = dict(rest)
            taken = after[middle][0]
            if len(after[middle]) > 1:
                after[middle] = after[middle][1:]
            else:
                del after[middle]
            carried = column + taken
            if column[0].islower() and target[1] == far:
                done = dict(after)
                done[target] = column[0].upper() + carried[1:]
                captures["x".join(map(ref_name, path + [target]))] = done
            else:
                jump(after, target, carried, path + [target], jumped | {middle})
        if not went_on and len(path) > 1:
            done = dict(rest)
            done[here] = column
            captures["x".join(map(ref_name, path))] = done

    for point, column in board.items():
        if column[0] not in mine:
            continue
        rest = dict(board)
        del rest[point]
        jump(rest, point, column, [point], frozenset())
        for df, dr in directions(column):
            target = (point[0] + df, point[1] + dr)
            if inside(target) and target not in board:
                done = dict(rest)
                promoted = column[0].islower() and target[1] == far
                done[target] = (column[0].upper() + column[1:]) if promoted else column
                quiet[ref_name(point) + "-" + ref_name(target)] = done
    return captures or quiet


def ref_perft(board, side, depth):
    moves = ref_moves(board, side)
    if depth == 1:
        return len(moves)
    other = "B" if side == "W" else "W"
    return sum(ref_perft(after, other, depth - 1) for after in moves.values())


def ref_lfen(board, side):
    order = sorted(board, key=lambda p: (-p[1], p[0]))
    return side + ":" + ",".join(f"{ref_name(p)}={board[p]}" for p in order)


# --- tests -------------------------------------------------------------------------------------
@pytest.mark.parametrize("depth, expected", list(enumerate(DIGEST, start=1)))
def test_perft_from_start_matches_the_digest(depth, expected):
    assert perft(parse(START), depth) == expected


def test_reference_agrees_with_the_digest():
    board, side = ref_parse(START)
    assert [ref_perft(board, side, d) for d in range(1, 7)] == DIGEST


def test_deep_perft_from_start_matches_the_reference():
    board, side = ref_parse(START)
    for depth in (7, 8, 9, 10):
        assert perft(parse(START), depth) == ref_perft(board, side, depth)


MIDGAMES = [
    "W:a7=Wbb,c5=bw,g5=WbbbBbb,c3=ww,g3=bww,c1=Bww,e1=w,g1=w",
    "B:c7=b,e7=b,b6=b,d6=Bw,a5=b,e5=wb,g5=b,d4=W,c3=w,g3=w,b2=w,a1=w",
    "W:c3=W,d4=bb,d6=b,b6=b,b4=b,g7=b,f2=w",
]


@pytest.mark.parametrize("lfen", MIDGAMES)
def test_midgame_perft_matches_the_reference(lfen):
    board, side = ref_parse(lfen)
    for depth in (1, 2, 3, 4, 5, 6):
        assert perft(parse(lfen), depth) == ref_perft(board, side, depth), depth


def test_random_games_agree_move_by_move_with_the_reference():
    for seed in range(40):
        rng = Rng(seed)
        position = parse(START)
        for _ply in range(300):
            lfen = to_lfen(position)
            board, side = ref_parse(lfen)
            expected = ref_moves(board, side)
            engine = legal_moves(position)
            assert sorted(engine) == sorted(expected), lfen
            if not engine:
                break
            move = engine[rng.below(len(engine))]
            position = play(position, move)
            other = "B" if side == "W" else "W"
            assert to_lfen(position) == ref_lfen(expected[move], other), (lfen, move)


def test_perft_counts_a_side_without_moves_as_zero_and_depth_zero_as_one():
    assert perft(parse("W:g7=w"), 3) == 0
    assert perft(parse("W:g7=w"), 0) == 1
    with pytest.raises(ValueError):
        perft(parse(START), -1)
