"""Every rule and option of shared/rules/bozo.md (and issue 3), on hand-set tables."""

import itertools

import pytest

from pyengine.core.errors import IllegalAction, InvalidOptions
from pyengine.core.rng import Rng
from pyengine.core.simulate import random_playout
from pyengine.games.bozo import GAME, bid_allowed


def table(dice, turn=0, bids=(), direction=1, **options):
    """A state mid-hand with the given cups; ``bids`` as ``(seat, count, face)`` tuples."""
    state = GAME.new_state(options, len(dice), seed=11)
    state["dice"] = [sorted(cup) for cup in dice]
    state["counts"] = [len(cup) for cup in dice]
    state["turn"] = turn
    state["direction"] = direction
    state["choosing"] = False
    state["bids"] = [{"seat": s, "count": c, "face": f} for s, c, f in bids]
    return state


def bid(count, face):
    return {"type": "bid", "count": count, "face": face}


DOUBT = {"type": "doubt"}
LOOK = {"type": "look"}
KEEP = {"type": "keep"}


def hand_history(state):
    """The hand's bids as ``bid_allowed`` takes them."""
    return [f"{b['count']}x{b['face']}" for b in state["bids"]]


def way(name):
    return {"type": "direction", "way": name}


# --- bid_allowed: the growth rule and the ace rules ---------------------------------------------
@pytest.mark.parametrize(
    "history, new, allowed",
    [
        # the digest's example
        (["6x5", "3x1"], "6x6", True),
        (["6x5", "3x1"], "6x4", False),
        (["6x5", "3x1"], "6x5", False),
        # growth rule, face free when the count rises
        (["5x3"], "6x3", True),
        (["5x3"], "5x4", True),
        (["5x3"], "5x3", False),
        (["5x3"], "5x2", False),
        (["5x3"], "4x6", False),
        (["5x3"], "7x2", True),
        # entering aces: half rounded up, more allowed
        (["5x6"], "3x1", True),
        (["5x6"], "2x1", False),
        (["6x4"], "3x1", True),
        (["6x4"], "2x1", False),
        (["1x2"], "1x1", True),
        (["5x6"], "9x1", True),
        # aces to aces: more aces
        (["2x1"], "3x1", True),
        (["2x1"], "2x1", False),
        (["2x1"], "1x1", False),
        # leaving aces: at least double
        (["3x1"], "6x2", True),
        (["3x1"], "5x6", False),
        (["1x1"], "2x2", True),
        (["1x1"], "1x6", False),
        # ... and above every ordinary bid of the hand, not just the last
        (["4x5", "6x2", "3x1"], "6x3", True),
        (["4x5", "6x2", "3x1"], "6x2", False),
        (["4x5", "7x2", "3x1"], "6x6", False),
        (["4x5", "7x2", "3x1"], "7x3", True),
        (["8x2", "4x1"], "8x2", False),
        (["8x2", "4x1"], "8x3", True),
        # no aces bid may repeat or fall below an earlier one in the hand
        (["6x5", "3x1", "6x6"], "3x1", False),
        (["6x5", "4x1", "8x6"], "4x1", False),
        (["6x5", "4x1", "8x6"], "5x1", True),
        (["2x1", "4x3"], "2x1", False),
        (["2x1", "4x3"], "3x1", True),
        (["6x5", "5x1", "10x2"], "5x1", False),
        (["6x5", "5x1", "10x2"], "6x1", True),
        # openings
        ([], "1x2", True),
        ([], "9x6", True),
        ([], "2x1", True),
    ],
)
def test_bid_allowed_table(history, new, allowed):
    assert bid_allowed(history, new) is allowed


def test_opening_in_aces_can_be_forbidden():
    assert bid_allowed([], "2x1", aces_opening=False) is False
    assert bid_allowed([], "2x3", aces_opening=False) is True
    assert bid_allowed(["4x3"], "2x1", aces_opening=False) is True


def test_strict_bidding_keeps_the_face_from_going_down_between_ordinary_bids():
    assert bid_allowed(["5x3"], "7x2") is True
    assert bid_allowed(["5x3"], "7x2", strict_faces=True) is False
    assert bid_allowed(["5x3"], "6x3", strict_faces=True) is True
    assert bid_allowed(["5x3"], "5x4", strict_faces=True) is True
    assert bid_allowed(["6x5", "3x1"], "6x6", strict_faces=True) is True


@pytest.mark.parametrize("new", ["", "x5", "0x5", "3x7", "3x0", "tres quinas", None, 35])
def test_malformed_bids_are_never_allowed(new):
    assert bid_allowed([], new) is False
    assert bid_allowed(["2x2"], new) is False


def test_malformed_history_is_refused_not_crashed():
    assert bid_allowed(["2x9"], "3x3") is False


def test_engine_accepts_exactly_what_bid_allowed_accepts():
    """Random legal hands: at every step, every candidate bid is legal for the engine iff
    ``bid_allowed`` says so, for both opening settings and both bidding styles."""
    rng = Rng(5)
    for aces_opening, bidding in itertools.product((True, False), ("face_free", "strict")):
        for _ in range(25):
            state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], aces_opening=aces_opening, bidding=bidding)
            for _step in range(6):
                seat = state["turn"]
                history = hand_history(state)
                accepted = []
                for count, face in itertools.product(range(1, 12), range(1, 7)):
                    try:
                        GAME.apply(state, seat, bid(count, face))
                        accepted.append((count, face))
                    except IllegalAction:
                        pass
                    assert ((count, face) in accepted) == bid_allowed(
                        history, f"{count}x{face}", aces_opening=aces_opening,
                        strict_faces=bidding == "strict"), (history, count, face)
                if not accepted:
                    break
                state = GAME.apply(state, seat, bid(*accepted[rng.below(len(accepted))]))


def test_engine_gives_the_reason_for_a_refused_bid():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], turn=2, bids=[(0, 6, 5), (1, 3, 1)])
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 2, bid(6, 4))
    assert caught.value.code == "bozo.not_above_earlier" and caught.value.params == {"count": 6, "face": 5}
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 2, bid(5, 6))
    assert caught.value.code == "bozo.leave_aces_too_low" and caught.value.params == {"count": 6}
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 2, bid(3, 1))
    assert caught.value.code == "bozo.aces_not_above"
    after = GAME.apply(state, 2, bid(6, 6))
    assert after["bids"][-1] == {"seat": 2, "count": 6, "face": 6}


def test_cap_bids_refuses_more_dice_than_are_in_play():
    free = table([[2, 3, 5], [1, 4]])
    assert GAME.apply(free, 0, bid(9, 3))["bids"][-1]["count"] == 9
    capped = table([[2, 3, 5], [1, 4]], cap_bids=True)
    GAME.apply(capped, 0, bid(5, 3))
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(capped, 0, bid(6, 3))
    assert caught.value.code == "bid_over_cap" and caught.value.params == {"count": 5}


@pytest.mark.parametrize(
    "action",
    [
        {"type": "bid", "count": "3", "face": 4},
        {"type": "bid", "count": 3, "face": True},
        {"type": "bid", "count": 3, "face": 7},
        {"type": "bid", "count": 0, "face": 4},
        {"type": "bid", "count": 3},
        {"type": "bid", "count": 3, "face": 4, "blind": True},
        {"type": "doubt", "face": 2},
        {"type": "direction", "way": "up"},
        {"type": "direction"},
        {"type": "duvido"},
    ],
)
def test_malformed_actions_are_refused(action):
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], bids=[(2, 2, 3)])
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, action)


# --- counting at the reveal: aces count for a face only where the face shows -----------------------
@pytest.mark.parametrize(
    "dice, face, count, bidder_loses",
    [
        ([[1, 1, 3], [1, 4, 4]], 6, 1, True),  # no sena on the table: three aces count for nothing
        ([[1, 1, 3], [1, 4, 6]], 6, 4, False),  # one sena: the aces join it, 4 senas
        ([[1, 1, 3], [1, 4, 6]], 6, 5, True),
        ([[1, 1, 3], [1, 4, 4]], 4, 5, False),  # 2 quadras + 3 aces
        ([[1, 1, 3], [1, 4, 4]], 1, 3, False),  # an aces bid counts the aces
        ([[1, 1, 3], [1, 4, 4]], 1, 4, True),
        ([[1, 6, 6], [2, 2, 2]], 1, 2, True),  # ... and only the aces
    ],
)
def test_doubt_counts_aces_only_where_the_face_shows(dice, face, count, bidder_loses):
    state = table(dice, turn=1, bids=[(0, count, face)])
    after = GAME.apply(state, 1, DOUBT)
    last = after["last_hand"]
    assert last["loser"] == (0 if bidder_loses else 1)
    assert last["caller"] == 1 and last["dice"] == [sorted(c) for c in dice]
    assert after["counts"][last["loser"]] == 2


def test_only_the_next_player_may_doubt_and_never_without_a_bid():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], turn=1, bids=[(0, 2, 2)])
    assert GAME.to_act(state) == [1]
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 2, DOUBT)
    assert caught.value.code == "not_your_turn"
    opening = table([[2, 3, 5], [1, 4, 6]])
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(opening, 0, DOUBT)
    assert caught.value.code == "nothing_to_call"


def test_play_follows_the_chosen_direction():
    dice = [[2, 3, 5], [1, 4, 6], [2, 2, 6], [3, 3, 3]]
    left = table(dice, turn=1, direction=1)
    assert GAME.apply(left, 1, bid(2, 2))["turn"] == 2
    right = table(dice, turn=1, direction=-1)
    assert GAME.apply(right, 1, bid(2, 2))["turn"] == 0
    skip = table([[2, 3, 5], [1, 4, 6], [], [3, 3, 3]], turn=1, direction=1)
    assert GAME.apply(skip, 1, bid(2, 2))["turn"] == 3


# --- who starts, direction choice -------------------------------------------------------------
def test_loser_starts_the_next_hand_and_chooses_the_direction():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], turn=1, bids=[(0, 9, 2)])
    after = GAME.apply(state, 1, DOUBT)
    assert after["last_hand"]["loser"] == 0
    assert after["turn"] == 0 and after["choosing"] and after["bids"] == [] and after["hand"] == 2
    assert GAME.legal_actions(after, 0) == [way("left"), way("right")]
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(after, 0, bid(1, 2))
    assert caught.value.code == "bozo.direction_first"
    chose = GAME.apply(after, 0, way("right"))
    assert chose["direction"] == -1 and not chose["choosing"]
    assert GAME.apply(chose, 0, bid(1, 2))["turn"] == 2
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(chose, 0, way("left"))
    assert caught.value.code == "bozo.direction_set"


@pytest.mark.parametrize("direction", [1, -1])
def test_an_eliminated_loser_is_followed_by_the_player_on_his_right(direction):
    """Seat 2 loses his last die; the player on his right (seat 1) starts, whatever the
    direction of play was; with seat 1 out too, seat 0."""
    dice = [[2, 3, 5], [1, 4, 6], [6], [3, 3, 4]]
    state = table(dice, turn=3 if direction == 1 else 1, bids=[(2, 5, 5)], direction=direction)
    after = GAME.apply(state, state["turn"], DOUBT)
    assert after["last_hand"]["eliminated"] == 2
    assert after["turn"] == 1
    dice = [[2, 3, 5], [], [6], [3, 3, 4]]
    state = table(dice, turn=3 if direction == 1 else 0, bids=[(2, 5, 5)], direction=direction)
    assert GAME.apply(state, state["turn"], DOUBT)["turn"] == 0


def test_fixed_direction_is_chosen_once_per_round():
    state = GAME.new_state({"direction": "round"}, 4, seed=3)
    starter = state["turn"]
    assert state["choosing"]
    state = GAME.apply(state, starter, way("right"))
    state = GAME.apply(state, starter, bid(9, 6))
    state = GAME.apply(state, state["turn"], DOUBT)
    assert state["last_hand"]["loser"] == starter
    assert not state["choosing"] and state["direction"] == -1 and state["turn"] == starter


def test_each_hand_direction_is_asked_again():
    state = GAME.new_state({}, 4, seed=3)
    starter = state["turn"]
    state = GAME.apply(state, starter, way("right"))
    state = GAME.apply(state, starter, bid(9, 6))
    state = GAME.apply(state, state["turn"], DOUBT)
    assert state["choosing"] and state["turn"] == starter


def test_nobody_chooses_a_direction_with_two_players_in_the_hand():
    assert not GAME.new_state({}, 2, seed=1)["choosing"]
    state = table([[2, 3, 5], [1], [2, 2]], turn=2, bids=[(1, 5, 5)])
    after = GAME.apply(state, 2, DOUBT)
    assert after["last_hand"]["eliminated"] == 1 and not after["choosing"]


# --- rounds, points, end ------------------------------------------------------------------------
def test_the_last_player_with_dice_wins_the_round_and_everyone_gets_three_dice():
    state = table([[2], [1, 4, 6], [], [3]], turn=3, bids=[(1, 5, 5)])
    state["round"] = 1
    state = GAME.apply(state, 3, DOUBT)  # seat 1 bid 5 quinas: false, seat 1 loses one
    assert state["round"] == 1 and state["counts"] == [1, 2, 0, 1]
    state = table([[2], [], [], [3]], turn=3, bids=[(0, 2, 2)])
    after = GAME.apply(state, 3, DOUBT)
    assert after["last_hand"]["round_winner"] == 3
    assert after["points"] == [0, 0, 0, 1] and after["round_winners"] == [3]
    assert after["counts"] == [3, 3, 3, 3] and after["round"] == 2 and after["hand"] == 1
    assert after["turn"] == 3 and after["choosing"]  # the winner starts the next round
    assert all(len(cup) == 3 for cup in after["dice"])


def test_a_random_player_may_start_each_round():
    starters = set()
    for seed in range(30):
        state = GAME.new_state({"round_starter": "random"}, 4, seed=seed)
        state["dice"], state["counts"], state["bids"] = [[2], [], [], [3]], [1, 0, 0, 1], [
            {"seat": 0, "count": 2, "face": 2}]
        state["turn"], state["choosing"] = 3, False
        after = GAME.apply(state, 3, DOUBT)
        assert after["round_winners"] == [3]
        starters.add(after["turn"])
    assert starters == {0, 1, 2, 3}


def test_game_ends_at_the_points_target():
    state = table([[2], [3]], turn=1, bids=[(0, 2, 2)], points_target=2)
    state["points"] = [0, 1]
    after = GAME.apply(state, 1, DOUBT)
    assert after["result"] == {"winners": [1], "points": [0, 2]}
    assert GAME.to_act(after) == [] and after["dice"] == [[], []]
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(after, 0, bid(1, 2))
    assert caught.value.code == "game_over"


def test_game_of_a_number_of_rounds_ends_with_every_leader_winning():
    state = table([[2], [3], []], turn=1, bids=[(0, 2, 2)], game_end="rounds", rounds=3)
    state["round"], state["points"] = 3, [1, 0, 1]
    after = GAME.apply(state, 1, DOUBT)
    assert after["result"] == {"winners": [0, 1, 2], "points": [1, 1, 1]}
    state["round"] = 2
    assert GAME.apply(state, 1, DOUBT)["result"] is None


def test_options_are_checked():
    with pytest.raises(InvalidOptions):
        GAME.new_state({"direction": "up"}, 3, seed=1)
    with pytest.raises(InvalidOptions):
        GAME.new_state({"points_target": 0}, 3, seed=1)
    with pytest.raises(InvalidOptions):
        GAME.new_state({}, 21, seed=1)
    assert GAME.new_state({}, 20, seed=1)["counts"] == [3] * 20


# --- blind bids ("no escuro") --------------------------------------------------------------------
def test_blind_cups_stay_closed_until_their_owner_looks():
    state = GAME.new_state({"blind_bids": True}, 3, seed=4)
    starter = state["turn"]
    assert state["looked"] == [False] * 3
    assert all(GAME.view(state, s)["dice"] is None for s in range(3))
    assert {"type": "look"} in GAME.legal_actions(state, starter)
    looked = GAME.apply(state, starter, LOOK)
    assert GAME.view(looked, starter)["dice"] == state["dice"][starter]
    assert looked["turn"] == starter and GAME.to_act(looked) == [starter]
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(looked, starter, LOOK)
    assert caught.value.code == "bozo.already_looked"


def test_a_blind_bid_is_marked_and_then_the_bidder_sees_his_dice():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], blind_bids=True)
    state["looked"] = [False] * 3
    after = GAME.apply(state, 0, bid(3, 2))
    assert after["bids"] == [{"seat": 0, "count": 3, "face": 2, "blind": True}]
    assert GAME.view(after, 0)["dice"] == [2, 3, 5]
    assert GAME.view(after, 1)["dice"] is None
    seen = GAME.apply(after, 1, LOOK)
    assert GAME.apply(seen, 1, bid(4, 2))["bids"][-1] == {"seat": 1, "count": 4, "face": 2}


def test_a_player_may_doubt_without_looking():
    state = table([[2, 3, 5], [1, 4, 6]], turn=1, bids=[(0, 2, 6)], blind_bids=True)
    state["looked"] = [True, False]
    assert GAME.apply(state, 1, DOUBT)["last_hand"]["loser"] == 1


def test_look_is_only_offered_at_blind_tables():
    state = table([[2, 3, 5], [1, 4, 6]])
    assert LOOK not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, LOOK)


# --- raising your own bid before the next player speaks -------------------------------------------
def test_bidder_may_raise_his_own_bid_before_the_next_player_speaks():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], raise_own=True)
    state = GAME.apply(state, 0, bid(8, 2))
    assert GAME.to_act(state) == [0] and state["turn"] == 1
    assert KEEP in GAME.legal_actions(state, 0) and DOUBT not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 1, DOUBT)  # the next player waits for the bidder
    assert caught.value.code == "not_your_turn"
    up = GAME.apply(state, 0, bid(4, 1))  # 8 duques -> 4 ases counts as upwards
    assert GAME.to_act(up) == [0] and up["turn"] == 1
    assert [b["count"] for b in up["bids"]] == [8, 4]
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(up, 0, bid(8, 2))  # ... but never back to a bid already made
    assert caught.value.code == "bozo.not_above_earlier"
    down = GAME.apply(up, 0, bid(8, 3))  # 4 ases -> 8 ternos is upwards too
    assert down["bids"][-1]["count"] == 8 and down["bids"][-1]["face"] == 3
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(up, 0, DOUBT)
    assert caught.value.code == "bozo.raiser_only"
    spoke = GAME.apply(GAME.apply(up, 0, KEEP), 1, bid(5, 1))
    assert GAME.to_act(spoke) == [1] and spoke["raiser"] == 1 and spoke["turn"] == 2
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(spoke, 0, bid(6, 1))
    assert caught.value.code == "not_your_turn"


def test_keep_hands_the_turn_on_and_only_the_bidder_may_keep():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], raise_own=True)
    state = GAME.apply(state, 0, bid(2, 2))
    kept = GAME.apply(state, 0, KEEP)
    assert GAME.to_act(kept) == [1] and kept["raiser"] is None
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(kept, 1, KEEP)
    assert caught.value.code == "bozo.nothing_to_keep"
    doubted = GAME.apply(kept, 1, DOUBT)
    assert doubted["raiser"] is None and doubted["last_hand"]["caller"] == 1


def test_without_the_option_nobody_raises_his_own_bid():
    state = GAME.apply(table([[2, 3, 5], [1, 4, 6], [2, 2, 6]]), 0, bid(2, 2))
    assert GAME.to_act(state) == [1]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, bid(3, 2))


# --- notation and views -------------------------------------------------------------------------
@pytest.mark.parametrize("action", [bid(6, 5), bid(3, 1), DOUBT, LOOK, KEEP, way("left"), way("right")])
def test_notation_round_trips(action):
    assert GAME.parse_action(GAME.action_text(action)) == action


def test_views_show_own_dice_points_and_direction_but_not_other_cups():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], direction=-1)
    state["points"] = [1, 0, 2]
    view = GAME.view(state, 1)
    assert view["dice"] == [1, 4, 6] and view["counts"] == [3, 3, 3]
    assert view["direction"] == -1 and view["points"] == [1, 0, 2]
    assert "2, 2, 6" not in str(view) and GAME.view(state, None)["dice"] is None


def test_twenty_players_play_a_whole_game_and_twenty_one_are_refused():
    state, _log = random_playout("bozo", seed=11, seats=20, options={"points_target": 1})
    assert GAME.is_over(state)
    for seat in range(20):
        GAME.check_view(GAME.view(state, seat), 20)
    with pytest.raises(InvalidOptions):
        GAME.new_state({}, 21, seed=11)


def test_the_history_keeps_the_last_hands_without_their_cups():
    from pyengine.games.bozo.rules import MAX_HISTORY

    state = GAME.new_state({}, 3, seed=4)
    hands = 0
    while hands < MAX_HISTORY + 2:
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        action = next((a for a in actions if a["type"] == "doubt"), actions[0])
        state = GAME.apply(state, seat, action)
        hands += action["type"] == "doubt"
    history = GAME.view(state, 0)["history"]
    assert len(history) == MAX_HISTORY and all("dice" not in record for record in history)
    assert history[-1] == {key: value for key, value in state["last_hand"].items() if key != "dice"}
