"""The dice-bluffing core shared by Perudo and Bozó: counting, turn order, losing dice."""

import json

import pytest

from pyengine.kits.bluffing import (
    ACES_IF_SHOWN,
    ACES_PLAIN,
    ACES_WILD,
    LEFT,
    RIGHT,
    count_bid,
    doubt_loser,
    hand_record,
    lose_die,
    next_in_play,
    next_starter,
    players_in,
    raise_refusal,
    roll_cups,
    sole_survivor,
)
from pyengine.core.rng import Rng
from pyengine.core.table import Table
from pyengine.games.bozo import GAME

CUPS = [[1, 1, 3], [1, 4, 4], [2, 5]]


@pytest.mark.parametrize(
    "face, wild, plain, if_shown",
    [
        (1, 3, 3, 3),  # a bid on aces counts aces under every rule
        (4, 5, 2, 5),
        (6, 3, 0, 0),  # no sena anywhere: only the wild rule lets aces count
        (2, 4, 1, 4),
    ],
)
def test_three_ace_rules(face, wild, plain, if_shown):
    assert count_bid(CUPS, face, ACES_WILD) == wild
    assert count_bid(CUPS, face, ACES_PLAIN) == plain
    assert count_bid(CUPS, face, ACES_IF_SHOWN) == if_shown


def test_turn_order_skips_players_out_both_ways():
    counts = [2, 0, 3, 0, 1]
    assert next_in_play(counts, 0, LEFT) == 2
    assert next_in_play(counts, 0, RIGHT) == 4
    assert next_in_play(counts, 4, LEFT) == 0
    assert next_in_play(counts, 2, RIGHT) == 0
    with pytest.raises(ValueError):
        next_in_play([0, 0], 0)


def test_losing_dice_elimination_and_the_next_starter():
    counts = [1, 2, 1]
    assert lose_die(counts, 1) is False and counts == [1, 1, 1]
    assert lose_die(counts, 2) is True and players_in(counts) == 2
    assert next_starter(counts, 2, RIGHT) == 1 and next_starter(counts, 2, LEFT) == 0
    assert next_starter(counts, 1, RIGHT) == 1
    assert sole_survivor(counts) is None
    lose_die(counts, 0)
    assert sole_survivor(counts) == 1


def test_doubt_loser_and_the_hand_record():
    bid = {"seat": 0, "count": 3, "face": 4}
    assert doubt_loser(bid, 1, 3) == 1 and doubt_loser(bid, 1, 2) == 0
    state = {"dice": [[4], [2]], "bids": [bid], "counts": [0, 1]}
    assert hand_record(state, 1, 1, 0) == {
        "dice": [[4], [2]], "bids": [bid], "caller": 1, "actual": 1, "loser": 0, "eliminated": 0,
    }


def test_growth_rule_and_strict_faces():
    assert raise_refusal((3, 4), (4, 2), False) is None
    assert raise_refusal((3, 4), (4, 2), True) == ("strict_face", {})
    assert raise_refusal((3, 4), (3, 4), False) == ("bid_too_low", {})
    assert raise_refusal((3, 4), (3, 5), True) is None


def test_rolled_cups_are_sorted_and_reproducible():
    first = roll_cups(Rng(9), [3, 0, 2])
    assert first == roll_cups(Rng(9), [3, 0, 2])
    assert [len(c) for c in first] == [3, 0, 2] and all(c == sorted(c) for c in first)


@pytest.mark.parametrize(
    "options",
    [
        {"blind_bids": True, "raise_own": True},
        {"direction": "round", "round_starter": "random", "cap_bids": True},
        {"aces_opening": False, "bidding": "strict", "game_end": "rounds", "rounds": 2},
    ],
)
def test_random_play_under_options_hides_secrets_and_replays(options):
    """What the contract test checks with default options, under the other options: no
    view depends on a cup its seat cannot see, every view fits the game's shape, and the
    save replays to the same state."""
    for seed in range(3):
        seats = 3 + seed
        table = Table("bozo", options, [{"kind": "human", "name": f"P{i}"} for i in range(seats)], seed)
        chooser = Rng(seed + 50)
        while not table.is_over():
            assert table.version < 5000
            movers = table.to_act()
            seat = movers[chooser.below(len(movers))]
            state = table.state
            if table.version % 5 == 0:
                worlds = Rng(table.version)
                for viewer in (None, *range(seats)):
                    view = GAME.view(state, viewer)
                    GAME.check_view(view, seats)
                    for _ in range(2):
                        assert GAME.view(GAME.resample(state, viewer, worlds), viewer) == view
            actions = GAME.legal_actions(state, seat)
            table.act(seat, actions[chooser.below(len(actions))])
        replayed = Table.from_dict(json.loads(json.dumps(table.to_dict())))
        assert replayed.state == table.state


def test_resample_redraws_a_closed_cup_even_its_owners():
    """Blind bids: before looking, a player's own cup is as unknown to him as the others'."""
    state = GAME.new_state({"blind_bids": True}, 3, 4)
    seat = GAME.to_act(state)[0]
    worlds = Rng(1)
    closed = [GAME.resample(state, seat, worlds) for _ in range(8)]
    assert sum(world["dice"][seat] != state["dice"][seat] for world in closed) >= 6
    looked = GAME.apply(state, seat, {"type": "look"})
    opened = [GAME.resample(looked, seat, worlds) for _ in range(8)]
    assert all(world["dice"][seat] == looked["dice"][seat] for world in opened)
    for other in range(3):
        if other != seat:
            assert sum(world["dice"][other] != looked["dice"][other] for world in opened) >= 6
