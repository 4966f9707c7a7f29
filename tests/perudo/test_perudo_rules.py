"""Every rule and option of shared/rules/perudo.md, on hand-set tables."""

import pytest

from pyengine.core.errors import IllegalAction
from pyengine.core.rng import Rng
from pyengine.games.perudo import GAME, bid_allowed


def table(dice, turn=0, bids=(), **options):
    """A state with the given cups; ``bids`` as ``(seat, count, face)`` tuples."""
    state = GAME.new_state(options, len(dice), seed=7)
    state["dice"] = [sorted(cup) for cup in dice]
    state["counts"] = [len(cup) for cup in dice]
    state["turn"] = turn
    state["bids"] = [{"seat": s, "count": c, "face": f} for s, c, f in bids]
    return state


def bid(count, face):
    return {"type": "bid", "count": count, "face": face}


DUDO = {"type": "dudo"}
CALZA = {"type": "calza"}


# --- bid_allowed: the raise rules -------------------------------------------------------------
@pytest.mark.parametrize(
    "previous, new, allowed",
    [
        (None, "1x2", True),
        (None, "3x1", False),  # no paco opening outside palifico
        ("3x4", "4x4", True),
        ("3x4", "3x5", True),
        ("3x4", "3x4", False),
        ("3x4", "3x3", False),
        ("3x4", "4x2", True),  # face free once the quantity rises
        ("3x4", "2x6", False),
        ("9x4", "5x1", True),  # to pacos: half rounded up
        ("9x4", "4x1", False),
        ("8x4", "4x1", True),
        ("8x4", "3x1", False),
        ("2x1", "3x1", True),  # pacos to pacos: more
        ("2x1", "2x1", False),
        ("5x1", "11x3", True),  # from pacos: double plus one, any face
        ("5x1", "10x6", False),
        ("1x1", "3x2", True),
        ("1x1", "2x6", False),
    ],
)
def test_raise_rules(previous, new, allowed):
    assert bid_allowed(previous, new) is allowed


def test_strict_bidding_keeps_the_face_from_going_down():
    assert bid_allowed("3x4", "4x2") is True
    assert bid_allowed("3x4", "4x2", strict_faces=True) is False
    assert bid_allowed("3x4", "4x4", strict_faces=True) is True
    assert bid_allowed("3x4", "4x6", strict_faces=True) is True
    assert bid_allowed("3x4", "3x5", strict_faces=True) is True
    assert bid_allowed("5x1", "11x2", strict_faces=True) is True


def test_palifico_locks_the_face_and_allows_paco_opening():
    assert bid_allowed(None, "2x1", palifico=True) is True
    assert bid_allowed("2x1", "3x1", palifico=True) is True
    assert bid_allowed("2x1", "5x3", palifico=True) is False
    assert bid_allowed("2x4", "3x4", palifico=True) is True
    assert bid_allowed("2x4", "2x5", palifico=True) is False
    assert bid_allowed("2x4", "3x1", palifico=True) is False


@pytest.mark.parametrize("text", ["", "x5", "0x5", "3x7", "3x0", "three fives", None, 35])
def test_malformed_bids_are_refused(text):
    assert bid_allowed(None, text) is False


# --- the engine uses the same rule, with reasons -----------------------------------------------
def test_engine_refuses_what_bid_allowed_refuses_with_a_reason():
    state = table([[2, 3, 4, 5, 6], [2, 2, 2, 2, 2]], turn=1, bids=[(0, 3, 4)])
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 1, bid(2, 6))
    assert caught.value.code == "bid_too_low" and "higher face" in caught.value.reason
    after = GAME.apply(state, 1, bid(4, 2))
    assert after["bids"][-1] == {"seat": 1, "count": 4, "face": 2}
    assert after["turn"] == 0


def test_paco_opening_refused_by_engine():
    state = table([[1, 1, 1, 1, 1], [2, 2, 2, 2, 2]])
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, bid(2, 1))
    assert caught.value.code == "perudo.paco_opening"


def test_only_the_player_whose_turn_it_is_may_act():
    state = table([[2] * 5, [3] * 5, [4] * 5], turn=1)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, bid(3, 3))
    assert caught.value.code == "not_your_turn"


def test_dudo_needs_a_bid():
    state = table([[2] * 5, [3] * 5])
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, DUDO)
    assert caught.value.code == "nothing_to_call"


@pytest.mark.parametrize(
    "action",
    [
        {"type": "bid", "count": "3", "face": 4},
        {"type": "bid", "count": 3, "face": True},
        {"type": "bid", "count": 3},
        {"type": "bid", "count": 3, "face": 4, "extra": 1},
        {"type": "dudo", "face": 2},
        {"type": "shout"},
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action):
    state = table([[2] * 5, [3] * 5], bids=[(1, 1, 2)])
    snapshot = repr(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, action)
    assert repr(state) == snapshot


# --- the reveal ---------------------------------------------------------------------------------
def test_pacos_are_wild_at_dudo_so_the_doubter_loses():
    # Four 5s claimed; two natural 5s plus two pacos make four: the doubter (seat 1) loses.
    state = table([[1, 5, 5], [1, 2, 3]], turn=1, bids=[(0, 4, 5)])
    after = GAME.apply(state, 1, DUDO)
    assert after["counts"] == [3, 2]
    assert after["last_round"]["actual"] == 4
    assert after["last_round"]["loser"] == 1
    assert after["turn"] == 1  # the loser starts the next round


def test_bidder_loses_when_the_bid_is_false():
    state = table([[1, 5, 5], [1, 2, 3]], turn=1, bids=[(0, 5, 5)])
    after = GAME.apply(state, 1, DUDO)
    assert after["counts"] == [2, 3]
    assert after["last_round"]["loser"] == 0 and after["turn"] == 0


def test_a_paco_bid_counts_only_pacos():
    state = table([[1, 5, 5], [1, 2, 3]], turn=1, bids=[(0, 3, 1)])
    after = GAME.apply(state, 1, DUDO)
    assert after["last_round"]["actual"] == 2
    assert after["last_round"]["loser"] == 0


def test_reveal_shows_every_cup_and_new_round_rerolls():
    state = table([[1, 5, 5], [1, 2, 3]], turn=1, bids=[(0, 4, 5)])
    after = GAME.apply(state, 1, DUDO)
    assert after["last_round"]["dice"] == [[1, 5, 5], [1, 2, 3]]
    assert [len(c) for c in after["dice"]] == after["counts"]
    assert after["bids"] == [] and after["round"] == state["round"] + 1


def test_eliminated_loser_is_replaced_by_left_neighbour_as_starter():
    state = table([[2, 2], [3], [4, 4]], turn=1, bids=[(0, 2, 2)])
    after = GAME.apply(state, 1, DUDO)  # seat 1 doubts a true bid and loses its last die
    assert after["counts"] == [2, 0, 2]
    assert after["last_round"]["eliminated"] == 1
    assert after["turn"] == 2


def test_turn_skips_players_who_are_out():
    state = table([[2, 2], [], [4, 4]], turn=0)
    after = GAME.apply(state, 0, bid(1, 2))
    assert after["turn"] == 2


def test_last_player_with_dice_wins_and_the_game_accepts_nothing_more():
    state = table([[2, 2], [3]], turn=1, bids=[(0, 2, 2)])
    after = GAME.apply(state, 1, DUDO)
    assert after["result"] == {"winners": [0]}
    assert GAME.to_act(after) == []
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(after, 0, bid(1, 2))
    assert caught.value.code == "game_over"


# --- palifico -----------------------------------------------------------------------------------
def test_dropping_to_one_die_starts_that_players_palifico_round():
    state = table([[2, 2], [3, 4, 5]], turn=1, bids=[(0, 1, 6)])
    after = GAME.apply(state, 1, DUDO)  # bid false: seat 0 drops to one die
    assert after["counts"] == [1, 3]
    assert after["palifico"] is True and after["turn"] == 0
    assert after["palifico_done"] == [True, False]


def test_palifico_round_pacos_not_wild_and_opener_may_bid_pacos():
    state = table([[1], [1, 1, 6]], turn=0)
    state["palifico"] = True
    state = GAME.apply(state, 0, bid(1, 1))
    state = GAME.apply(state, 1, bid(2, 1))
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, bid(5, 6))
    assert caught.value.code == "perudo.palifico_face"
    # Sixes in palifico: pacos do not count, only the one natural six.
    state = table([[1], [1, 1, 6]], turn=0, bids=[(1, 2, 6)])
    state["palifico"] = True
    after = GAME.apply(state, 0, DUDO)
    assert after["last_round"]["actual"] == 1 and after["last_round"]["aces_wild"] is False
    assert after["last_round"]["loser"] == 1


def test_palifico_happens_once_per_player():
    state = table([[2, 2], [3, 4, 5]], turn=1, bids=[(0, 1, 6)])
    state["palifico_done"] = [True, False]
    after = GAME.apply(state, 1, DUDO)
    assert after["counts"][0] == 1 and after["palifico"] is False


def test_palifico_option_off():
    state = table([[2, 2], [3, 4, 5]], turn=1, bids=[(0, 1, 6)], palifico=False)
    assert GAME.apply(state, 1, DUDO)["palifico"] is False


def test_palifico_off_when_two_players_remain_option():
    dice = [[2, 2], [3, 4, 5]]
    state = table(dice, turn=1, bids=[(0, 1, 6)], two_player_palifico=False)
    assert GAME.apply(state, 1, DUDO)["palifico"] is False
    three = table([[2, 2], [3, 4, 5], [6]], turn=1, bids=[(0, 1, 2)], two_player_palifico=False)
    three["dice"][0] = [3, 3]
    assert GAME.apply(three, 1, DUDO)["palifico"] is True


def test_palifico_round_ends_after_one_round():
    state = table([[2], [3, 4, 5]], turn=1, bids=[(0, 1, 2)])
    state["palifico"] = True
    state["palifico_done"] = [True, False]
    after = GAME.apply(state, 1, DUDO)  # true bid: seat 1 loses a die, normal round follows
    assert after["palifico"] is False and after["counts"] == [1, 2]


def test_variant_w_lets_one_die_players_change_face_in_palifico():
    state = table([[2], [6]], turn=1, bids=[(0, 1, 2)], palifico_one_die_change_face=True)
    state["palifico"] = True
    assert GAME.apply(state, 1, bid(1, 3))["bids"][-1]["face"] == 3
    plain = table([[2], [6]], turn=1, bids=[(0, 1, 2)])
    plain["palifico"] = True
    with pytest.raises(IllegalAction):
        GAME.apply(plain, 1, bid(1, 3))
    many = table([[2], [6, 6]], turn=1, bids=[(0, 1, 2)], palifico_one_die_change_face=True)
    many["palifico"] = True
    with pytest.raises(IllegalAction):
        GAME.apply(many, 1, bid(2, 3))  # seat 1 holds two dice: the face stays locked


# --- calza ----------------------------------------------------------------------------------------
def test_calza_is_off_by_default():
    state = table([[2, 2], [3, 3]], turn=1, bids=[(0, 2, 2)])
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 1, CALZA)
    assert caught.value.code == "perudo.calza_off"


def test_exact_calza_regains_a_die_up_to_five():
    state = table([[2, 2], [3, 3, 4], [5]], turn=1, bids=[(0, 2, 2)], calza=True)
    after = GAME.apply(state, 1, CALZA)
    assert after["counts"] == [2, 4, 1] and after["last_round"]["gainer"] == 1
    assert after["turn"] == 1
    full = table([[2, 2], [3] * 5, [5]], turn=1, bids=[(0, 2, 2)], calza=True)
    assert GAME.apply(full, 1, CALZA)["counts"][1] == 5


def test_wrong_calza_loses_a_die():
    state = table([[2, 2], [3, 3, 4], [5]], turn=1, bids=[(0, 3, 2)], calza=True)
    after = GAME.apply(state, 1, CALZA)
    assert after["counts"] == [2, 2, 1] and after["last_round"]["loser"] == 1


def test_calza_off_when_two_players_remain_option():
    state = table([[2, 2], [3, 3]], turn=1, bids=[(0, 2, 2)], calza=True, two_player_calza=False)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, CALZA)
    three = table([[2, 2], [3, 3], [4]], turn=1, bids=[(0, 2, 2)], calza=True, two_player_calza=False)
    assert GAME.apply(three, 1, CALZA)["last_round"]["gainer"] == 1


# --- the cap and the options ---------------------------------------------------------------------
def test_bids_above_dice_in_play_are_legal_unless_capped():
    state = table([[2, 2], [3]], turn=0)
    assert GAME.apply(state, 0, bid(9, 2))["bids"][-1]["count"] == 9
    capped = table([[2, 2], [3]], turn=0, cap_bids=True)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(capped, 0, bid(4, 2))
    assert caught.value.code == "bid_over_cap"


def test_bad_options_are_refused():
    from pyengine.core.errors import InvalidOptions

    with pytest.raises(InvalidOptions):
        GAME.new_state({"calza": "yes"}, 3, 1)
    with pytest.raises(InvalidOptions):
        GAME.new_state({"bidding": "loose"}, 3, 1)
    with pytest.raises(InvalidOptions):
        GAME.new_state({"wild": True}, 3, 1)
    with pytest.raises(InvalidOptions):
        GAME.new_state({}, 7, 1)


def test_first_round_opener_is_random_but_seeded():
    openers = {GAME.new_state({}, 6, seed)["turn"] for seed in range(40)}
    assert len(openers) > 1
    assert GAME.new_state({}, 6, 3) == GAME.new_state({}, 6, 3)


# --- views ---------------------------------------------------------------------------------------
def test_view_shows_own_dice_only():
    state = table([[2, 2], [3, 3], [4]], turn=1)
    view = GAME.view(state, 1)
    assert view["dice"] == [3, 3] and view["counts"] == [2, 2, 1]
    assert "2, 2" not in repr({k: v for k, v in view.items() if k != "counts"})
    assert GAME.view(state, None)["dice"] is None


def test_resample_changes_the_secrets_so_the_contract_check_bites():
    """Seen from seat 1, seat 0's cup is a secret and is redrawn (as are seats 2 and 3);
    seat 1's own cup never is, and each cup keeps its number of dice."""
    state = GAME.new_state({}, 4, 11)
    worlds = Rng(5)
    resampled = [GAME.resample(state, 1, worlds) for _ in range(10)]
    for owner in (0, 2, 3):
        assert sum(world["dice"][owner] != state["dice"][owner] for world in resampled) >= 8
    assert all(world["dice"][1] == state["dice"][1] for world in resampled)
    assert all(list(map(len, world["dice"])) == state["counts"] for world in resampled)
    assert all(world["rng"] != state["rng"] for world in resampled)


def test_notation_round_trip():
    for action in (bid(6, 5), bid(3, 1), DUDO, CALZA):
        assert GAME.parse_action(GAME.action_text(action)) == action
    with pytest.raises(ValueError):
        GAME.parse_action("lots of fives")
