"""Bozó bots: always legal, over seeds, seat counts and option combinations; views only."""

import itertools
import json

import pytest

from pyengine.core.rng import Rng, derive_seed
from pyengine.core.table import Table
from pyengine.games.bozo import GAME
from pyengine.games.bozo.bot import LEVELS, choose_action

OPTION_SETS = [
    {},
    {"aces_opening": False, "bidding": "strict", "cap_bids": True},
    {"blind_bids": True, "raise_own": True, "direction": "round"},
    {"round_starter": "random", "game_end": "rounds", "rounds": 2, "blind_bids": True},
    {"raise_own": True, "cap_bids": True, "points_target": 2},
]


def table(dice, turn=0, bids=(), **options):
    state = GAME.new_state(options, len(dice), seed=3)
    state["dice"] = [sorted(c) for c in dice]
    state["counts"] = [len(c) for c in dice]
    state["turn"], state["choosing"] = turn, False
    state["bids"] = [{"seat": s, "count": c, "face": f} for s, c, f in bids]
    return state


@pytest.mark.parametrize("options", OPTION_SETS)
def test_bots_play_whole_games_legally(options):
    """Mixed-level tables of 2, 4 and 7 seats play to the end; every bot action is among the
    engine's legal actions for that seat."""
    for seats, seed in ((2, 1), (4, 2), (7, 3)):
        players = [{"kind": "bot", "level": LEVELS[i % 3], "name": f"B{i}"} for i in range(seats)]
        tab = Table("bozo", options, players, seed)
        while not tab.is_over():
            assert tab.version < 4000
            seat = tab.next_bot_seat()
            action = tab.bot_action(seat)
            assert action in GAME.legal_actions(tab.state, seat), (action, tab.state)
            tab.act(seat, action)
        assert tab.state["result"]["winners"]


def test_every_level_acts_legally_for_every_seat_that_may_act():
    """Including the bidder in a raise window and a player who has not looked yet."""
    checked = 0
    for seed in range(6):
        state = GAME.new_state(OPTION_SETS[2], 5, seed)
        for ply in range(60):
            if GAME.is_over(state):
                break
            for seat, level in itertools.product(GAME.to_act(state), LEVELS):
                view = GAME.view(state, seat)
                before = json.dumps(view, sort_keys=True)
                action = choose_action(view, level, derive_seed(seed, ply, seat))
                assert action in GAME.legal_actions(state, seat)
                assert json.dumps(view, sort_keys=True) == before, "the bot changed its view"
                checked += 1
            seat = GAME.to_act(state)[-1]
            state = GAME.apply(state, seat, choose_action(GAME.view(state, seat), "medium", ply))
    assert checked > 300


def test_bots_read_nothing_but_their_own_cup():
    """Other cups redrawn, same view, same choice: the view is all a bot gets."""
    for seed in range(4):
        state = GAME.new_state({}, 4, seed)
        for ply in range(40):
            if GAME.is_over(state):
                break
            seat = GAME.to_act(state)[0]
            for level in LEVELS:
                action = choose_action(GAME.view(state, seat), level, ply)
                worlds = Rng(seed * 100 + ply)
                for _ in range(3):
                    world = GAME.resample(state, seat, worlds)
                    assert choose_action(GAME.view(world, seat), level, ply) == action
            state = GAME.apply(state, seat, choose_action(GAME.view(state, seat), "hard", ply))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_doubts_an_impossible_bid_and_believes_a_certain_one(level):
    # Six dice in play: 7 of anything cannot hold.
    impossible = table([[2, 3, 4], [5, 5, 6]], turn=0, bids=[(1, 6, 5)])
    assert choose_action(GAME.view(impossible, 0), level, 1) == {"type": "doubt"}
    # Seat 0 holds three quinas: 2 quinas is certain, so raise rather than doubt.
    certain = table([[5, 5, 5], [2, 3, 4]], turn=0, bids=[(1, 2, 5)])
    assert choose_action(GAME.view(certain, 0), level, 1)["type"] == "bid"


def test_a_bid_above_the_dice_in_play_is_doubted():
    state = table([[2, 3, 4], [5, 5, 6]], turn=0, bids=[(1, 40, 2)])
    for level in LEVELS:
        assert choose_action(GAME.view(state, 0), level, 2) == {"type": "doubt"}


def test_bots_look_choose_a_direction_and_keep_their_bid():
    blind = GAME.new_state({"blind_bids": True}, 4, seed=6)
    starter = blind["turn"]
    for level in ("medium", "hard"):
        assert choose_action(GAME.view(blind, starter), level, 0) == {"type": "look"}
    fresh = GAME.new_state({}, 4, seed=6)
    assert choose_action(GAME.view(fresh, fresh["turn"]), "medium", 0)["type"] == "direction"
    lean = GAME.new_state({}, 4, seed=6)
    seat = lean["turn"]
    lean["counts"][(seat + 1) % 4], lean["counts"][(seat - 1) % 4] = 3, 1
    assert choose_action(GAME.view(lean, seat), "hard", 0) == {"type": "direction", "way": "right"}
    window = table([[2, 3, 4], [5, 5, 6], [1, 1, 2]], raise_own=True)
    window = GAME.apply(window, 0, {"type": "bid", "count": 2, "face": 2})
    for level in LEVELS:
        assert choose_action(GAME.view(window, 0), level, 0) == {"type": "keep"}


def test_bots_refuse_to_move_out_of_turn():
    state = table([[2, 3, 4], [5, 5, 6]], turn=0)
    with pytest.raises(ValueError):
        choose_action(GAME.view(state, 1), "easy", 0)
    with pytest.raises(ValueError):
        choose_action(GAME.view(state, 0), "genius", 0)


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_bluffs_at_about_its_set_rate(level, monkeypatch):
    """Over 400 seeds at one opening, the share of bids the bluff changed is near the
    level's rate (the seeds are fixed, so this is exact, not a sample that may flake), and
    every bluff is a legal bid nearly as likely as the honest one, on a face the bot holds
    no more of."""
    from pyengine.games.bozo import bot

    state = table([[2, 2, 5], [3, 4, 6], [1, 3, 6], [4, 5, 6]], turn=0)
    view = GAME.view(state, 0)
    seeds = range(400)
    chosen = [choose_action(view, level, seed) for seed in seeds]
    monkeypatch.setitem(bot.BLUFF_RATE, level, 0.0)
    honest = [choose_action(view, level, seed) for seed in seeds]
    bluffs = [(c, h) for c, h in zip(chosen, honest, strict=True) if c != h]
    assert all(c["type"] == h["type"] == "bid" for c, h in zip(chosen, honest, strict=True))
    monkeypatch.undo()
    assert abs(len(bluffs) / len(seeds) - bot.BLUFF_RATE[level]) < 0.06
    legal = GAME.legal_actions(state, 0)
    own = state["dice"][0]
    for bluff, fair in bluffs:
        assert bluff in legal
        support = [own.count(1) + (own.count(b["face"]) if b["face"] != 1 else 0) for b in (bluff, fair)]
        assert support[0] <= support[1]


def test_hard_reads_an_opening_as_what_the_bidder_backs():
    # Holding two quinas, 5x5 needs three quinas or aces among the five unseen dice: medium
    # doubts it. A bidder opens about where his own cup makes a bid an even bet, so 5x5 says
    # his cup backs quinas about three times and hard raises; after 3x5, holding none, it
    # reads little backing and doubts like medium.
    high = table([[2, 3, 4, 5, 5], [2, 3, 4, 6, 6]], turn=0, bids=[(1, 5, 5)])
    low = table([[2, 2, 3, 3, 4], [2, 3, 4, 6, 6]], turn=0, bids=[(1, 3, 5)])
    assert choose_action(GAME.view(high, 0), "medium", 1) == {"type": "doubt"}
    for seed in range(10):
        assert choose_action(GAME.view(high, 0), "hard", seed)["type"] == "bid"
        assert choose_action(GAME.view(low, 0), "hard", seed) == {"type": "doubt"}
