"""Perudo bots: only legal moves under every option, only the view, seeded, and sensible."""

import itertools
import json

import pytest

from pyengine.core.rng import Rng, derive_seed
from pyengine.games.perudo import GAME
from pyengine.games.perudo.bot import LEVELS, choose_action

DUDO = {"type": "dudo"}

OPTION_CHOICES = {
    "calza": (False, True),
    "bidding": ("face_free", "strict"),
    "palifico": (False, True),
    "palifico_one_die_change_face": (False, True),
    "two_player_calza": (False, True),
    "two_player_palifico": (False, True),
    "cap_bids": (False, True),
}
ALL_OPTIONS = [
    dict(zip(OPTION_CHOICES, values)) for values in itertools.product(*OPTION_CHOICES.values())
]


def table(cups, turn=0, bids=(), **options):
    """A state with the given cups; ``bids`` as ``(seat, count, face)`` tuples."""
    state = GAME.new_state(options, len(cups), seed=3)
    state["dice"] = [sorted(cup) for cup in cups]
    state["counts"] = [len(cup) for cup in cups]
    state["turn"] = turn
    state["bids"] = [{"seat": s, "count": c, "face": f} for s, c, f in bids]
    return state


def bot_move(state, level, seed=0):
    seat = GAME.to_act(state)[0]
    return choose_action(GAME.view(state, seat), level, seed)


def play_bot_game(options, levels, seed, on_move=None):
    """A whole game of bots; every move must be one the engine lists as legal."""
    state = GAME.new_state(options, len(levels), seed)
    ply = 0
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        action = choose_action(GAME.view(state, seat), levels[seat], derive_seed(seed, ply))
        assert action in GAME.legal_actions(state, seat), (options, state, action)
        if on_move:
            on_move(state, seat, action)
        state = GAME.apply(state, seat, action)
        ply += 1
    return state


# --- only legal moves -------------------------------------------------------------------------
def test_bots_play_only_legal_moves_under_every_option_combination():
    corners = ("calza", "palifico_bids", "face_change_in_palifico", "two_left", "strict")
    seen = dict.fromkeys(corners, 0)

    def on_move(state, seat, action):
        in_play = sum(state["counts"])
        if action["type"] == "bid":
            assert action["count"] <= in_play, "no bot bids more dice than are in play"
            if state["palifico"]:
                seen["palifico_bids"] += 1
                if state["bids"] and state["bids"][-1]["face"] != action["face"]:
                    seen["face_change_in_palifico"] += 1
            if state["options"]["bidding"] == "strict" and state["bids"]:
                seen["strict"] += 1
        seen["calza"] += action["type"] == "calza"
        seen["two_left"] += sum(1 for n in state["counts"] if n) == 2

    for index, options in enumerate(ALL_OPTIONS):
        seats = 2 + index % 5
        levels = [LEVELS[(index + seat) % 3] for seat in range(seats)]
        final = play_bot_game(options, levels, seed=index, on_move=on_move)
        assert len(final["result"]["winners"]) == 1
    # The run reached the corners the options are about.
    assert all(seen.values()), seen


def test_bots_play_only_legal_moves_in_six_seat_games():
    for seed in range(3):
        play_bot_game({"calza": True, "cap_bids": True}, list(LEVELS) * 2, seed=100 + seed)


@pytest.mark.parametrize("level", LEVELS)
def test_no_raise_above_the_cap_means_dudo(level):
    state = table([[2, 3], [4, 5, 6]], bids=[(1, 5, 6)], cap_bids=True)
    assert bot_move(state, level) == DUDO


def test_a_bot_refuses_a_turn_that_is_not_its_own():
    state = table([[2, 3], [4, 5]], turn=0)
    with pytest.raises(ValueError):
        choose_action(GAME.view(state, 1), "medium", 0)
    with pytest.raises(ValueError):
        choose_action(GAME.view(state, 0), "grandmaster", 0)


# --- only the view ----------------------------------------------------------------------------
def test_choice_ignores_other_seats_dice_and_leaves_the_view_untouched():
    checked = 0
    for seed in range(6):
        state = GAME.new_state({"calza": True}, 3 + seed % 3, seed)
        for ply in range(30):
            if GAME.is_over(state):
                break
            seat = GAME.to_act(state)[0]
            view = GAME.view(state, seat)
            before = json.dumps(view, sort_keys=True)
            for level in LEVELS:
                action = choose_action(view, level, ply)
                worlds = Rng(seed * 100 + ply)
                for _ in range(state["seats"] - 1):
                    world = GAME.resample(state, seat, worlds)
                    assert choose_action(GAME.view(world, seat), level, ply) == action
                checked += 1
            assert json.dumps(view, sort_keys=True) == before
            state = GAME.apply(state, seat, choose_action(view, "medium", ply))
    assert checked > 100


def test_own_dice_do_change_the_choice():
    """The counterpart of the test above: the bot does read its own cup."""
    strong = table([[6, 6, 6, 1, 1], [2, 3, 4, 5, 5]], bids=[(1, 5, 6)])
    weak = table([[2, 2, 3, 3, 4], [2, 3, 4, 5, 5]], bids=[(1, 5, 6)])
    for level in ("medium", "hard"):
        assert bot_move(strong, level)["type"] == "bid"
        assert bot_move(weak, level) == DUDO


# --- seeded -----------------------------------------------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_give_the_same_move(level):
    state = GAME.new_state({"calza": True}, 4, 11)
    for ply in range(25):
        view = GAME.view(state, GAME.to_act(state)[0])
        action = choose_action(view, level, ply)
        assert choose_action(json.loads(json.dumps(view)), level, ply) == action
        state = GAME.apply(state, view["you"], action)
        if GAME.is_over(state):
            break


def test_easy_and_hard_moves_depend_on_the_seed():
    state = table([[5, 5, 2, 3, 4], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]])
    for level in ("easy", "hard"):
        openings = {json.dumps(bot_move(state, level, seed)) for seed in range(40)}
        assert len(openings) > 1, level


# --- sensible play ----------------------------------------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
def test_impossible_bid_is_doubted(level):
    state = table([[2, 3], [4, 5]], bids=[(1, 30, 6)])
    assert bot_move(state, level) == DUDO


@pytest.mark.parametrize("level", ("medium", "hard"))
def test_a_bid_on_the_table_in_its_own_cup_is_raised_not_doubted(level):
    state = table([[4, 4, 4, 1, 2], [2, 3, 5, 5, 6]], bids=[(1, 4, 4)])
    assert bot_move(state, level)["type"] == "bid"


@pytest.mark.parametrize("level", ("medium", "hard"))
def test_openings_are_on_the_face_it_holds_most_and_likely(level):
    state = table([[5, 5, 5, 2, 3], [2, 3, 4, 6, 6], [2, 3, 4, 6, 6]])
    opening = bot_move(state, level, seed=1)
    if level == "medium":
        assert opening["face"] == 5
    assert opening["type"] == "bid" and opening["face"] != 1
    assert 3 <= opening["count"] <= 15


def test_medium_calls_calza_when_exact_is_the_likeliest_outcome():
    # Two threes in hand, one unseen die: 2x3 is certainly true and exact unless that die
    # is a three or a paco (2 in 3); every raise holds only 1 in 3.
    state = table([[3, 3], [5]], bids=[(1, 2, 3)], calza=True)
    assert bot_move(state, "medium") == {"type": "calza", "round": 1, "count": 2, "face": 3}
    assert bot_move(table([[3, 3], [5]], bids=[(1, 2, 3)]), "medium")["type"] == "bid"


def test_palifico_keeps_pacos_unwild_for_the_bots():
    # With pacos wild its own cup makes 3x3 true; in palifico it needs two more threes
    # from the two unseen dice.
    state = table([[3, 1, 1], [4, 4]], bids=[(1, 3, 3)])
    state["palifico"] = True
    assert bot_move(state, "medium") == DUDO
    state["palifico"] = False
    assert bot_move(state, "medium")["type"] == "bid"


def test_hard_reads_a_bidder_as_holding_what_he_bids():
    # Two fives in hand: 5x5 needs three fives or pacos among the five unseen dice, which the
    # binomial gives 21%, so medium doubts it. A bidder opens about two above what his own
    # cup backs (seen from his cup, two of the other five dice are an even bet), so an
    # opening of 5x5 says his cup backs fives about three times: hard finds raising safer.
    state = table([[2, 3, 4, 5, 5], [2, 3, 4, 6, 6]], bids=[(1, 5, 5)])
    assert bot_move(state, "medium") == DUDO
    for seed in range(20):
        assert bot_move(state, "hard", seed)["type"] == "bid"


def test_hard_reads_a_low_opening_as_little_backing():
    # After an opening of 3x5 the bidder's cup backs fives about once (the binomial prior
    # expects 1.7): hard, with no five of its own, doubts it like medium.
    state = table([[2, 2, 3, 3, 4], [5, 5, 5, 6, 6]], bids=[(1, 3, 5)])
    assert bot_move(state, "medium") == DUDO
    for seed in range(20):
        assert bot_move(state, "hard", seed) == DUDO


def test_no_calza_when_two_players_are_left_and_the_option_forbids_it():
    state = table([[3, 3], [5]], bids=[(1, 2, 3)], calza=True, two_player_calza=False)
    assert bot_move(state, "medium")["type"] == "bid"


def test_variant_w_lets_a_one_die_bot_change_face_in_palifico():
    # Its single die is a six: with variant W it may raise 1x3 to 1x6, which is sure;
    # without it only 2x3 is left, which needs both unseen dice, so it doubts instead.
    for variant_w, expected in ((True, {"type": "bid", "count": 1, "face": 6}), (False, DUDO)):
        state = table([[6], [2, 4]], bids=[(1, 1, 3)], palifico_one_die_change_face=variant_w)
        state["palifico"] = True
        assert bot_move(state, "medium") == expected


def test_hard_weighs_a_very_long_round_without_overflow():
    # 300 bids by one seat: the product of 300 likelihoods underflows a float unless the
    # weights are rescaled as they go.
    bids = [(1, 1 + i // 5, 2 + i % 5) for i in range(300)]
    state = table([[2, 3, 4, 5, 6], [6, 6, 6, 6, 6]], bids=bids)
    assert bot_move(state, "hard") == DUDO
