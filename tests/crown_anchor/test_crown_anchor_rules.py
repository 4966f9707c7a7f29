"""Crown and Anchor rules: settlement, bank passing, broken bank, limits, leaving, ending."""

import pytest

from pyengine.kits.chips import left_of, pay_claims
from pyengine.core.errors import IllegalAction, InvalidOptions
from pyengine.core.simulate import random_playout
from pyengine.games.crown_anchor import GAME
from pyengine.games.crown_anchor.bot import choose_action
from pyengine.games.crown_anchor.rules import PAYOUTS, SYMBOLS, settle


def new(seats=3, seed=1, **options):
    return GAME.new_state(options, seats, seed)


def with_banker(state, banker):
    """The same table with the bank in ``banker``'s hands (tests pick the banker)."""
    state = dict(state)
    state["banker"] = banker
    return state


def play(state, *moves):
    """Applies ``(seat, notation)`` moves in order."""
    for seat, text in moves:
        state = GAME.apply(state, seat, GAME.parse_action(text))
    return state


def close_betting(state):
    for seat in list(GAME.to_act(state)):
        state = GAME.apply(state, seat, {"type": "done"})
    assert state["phase"] == "roll"
    return state


def roll_where(state, wanted):
    """Rolls from ``state`` with the first generator counter whose dice satisfy ``wanted``:
    the engine's own roll, with the chance outcome chosen by the test."""
    for counter in range(state["rng"]["counter"], state["rng"]["counter"] + 20000):
        trial = dict(state, rng={"seed": state["rng"]["seed"], "counter": counter})
        after = GAME.apply(trial, state["banker"], {"type": "roll"})
        if wanted(after["dice"]):
            return after
    raise AssertionError("no such roll found")


def total_chips(state):
    return sum(state["chips"]) + sum(sum(b.values()) for b in state["stakes"])


# --- settlement ----------------------------------------------------------------------


@pytest.mark.parametrize("table", ["standard", "fair"])
@pytest.mark.parametrize("matches", [0, 1, 2, 3])
def test_settle_pays_per_the_table(table, matches):
    payouts = PAYOUTS[table]
    dice = ["crown"] * matches + ["hearts", "spades", "clubs"][: 3 - matches]
    outcome = settle([{}, {"crown": 10}], dice, 0, 1000, payouts, "seating")
    if matches == 0:
        assert outcome["lost"] == [0, 10] and outcome["won"] == [0, 0] and outcome["back"] == [0, 0]
        assert outcome["bank"] == 1010
    else:
        assert outcome["back"] == [0, 10]
        assert outcome["won"] == [0, 10 * payouts[matches - 1]]
        assert outcome["bank"] == 1000 - 10 * payouts[matches - 1]
    assert {"standard": (1, 2, 3), "fair": (1, 3, 5)}[table] == payouts


TABLES = {  # (bank, payouts option) -> what m matching dice pay per chip
    ("rotate", "by_bank"): (0, 1, 2, 3),
    ("lot", "by_bank"): (0, 1, 3, 5),
    ("fixed", "by_bank"): (0, 1, 3, 5),
    ("lot", "standard"): (0, 1, 2, 3),
    ("fixed", "standard"): (0, 1, 2, 3),
    ("rotate", "fair"): (0, 1, 3, 5),
}


@pytest.mark.parametrize("bank,payouts", list(TABLES))
@pytest.mark.parametrize("matches", [0, 1, 2, 3])
def test_engine_roll_settles_every_match_count(bank, payouts, matches):
    """Through ``apply``: a punter's stack after the roll for m = 0..3 at every table: the
    rotating bank pays 1/2/3, a bank one player keeps the fair 1/3/5, unless the table
    chose the other payouts."""
    state = with_banker(new(2, bank=bank, payouts=payouts, start_chips=500), 0)
    state = play(state, (1, "bet crown 7"), (1, "bet anchor 3"), (1, "done"))
    after = roll_where(state, lambda d: d.count("crown") == matches and "anchor" not in d)
    payout = TABLES[bank, payouts][matches]
    crown_back = 7 + 7 * payout if matches else 0
    assert after["chips"][1] == 500 - 10 + crown_back
    assert after["chips"][0] == 500 + 3 + (7 if not matches else -7 * payout)
    assert after["last"]["delta"] == [after["chips"][0] - 500, after["chips"][1] - 500]
    assert total_chips(after) == 1000


def test_several_punters_may_share_a_symbol_and_spread_stakes():
    state = with_banker(new(3, start_chips=50), 0)
    state = play(state, (1, "bet crown 5"), (2, "bet crown 4"), (2, "bet hearts 2"), (1, "done"), (2, "done"))
    after = roll_where(state, lambda d: d.count("crown") == 2 and d.count("hearts") == 1)
    assert after["chips"][1] == 50 + 10
    assert after["chips"][2] == 50 + 8 + 2
    assert after["chips"][0] == 150 - after["chips"][1] - after["chips"][2]


def test_roll_keeps_symbol_tallies_and_history():
    state = close_betting(with_banker(new(2), 0))
    after = GAME.apply(state, 0, {"type": "roll"})
    assert sum(after["tally"].values()) == 3
    assert sum(after["matches"]) == 6
    assert sum(m * c for m, c in enumerate(after["matches"])) == 3
    assert after["history"] == [after["dice"]]
    assert after["rolls"] == 1 and after["phase"] == "bet"


# --- broken bank -----------------------------------------------------------------------


def test_pay_claims_seating_and_pro_rata():
    claims = [0, 10, 10, 10]
    assert pay_claims(25, claims, left_of(0, 4), "seating") == [0, 10, 10, 5]
    assert pay_claims(25, [10, 10, 0, 10], left_of(2, 4), "seating") == [10, 5, 0, 10]
    assert pay_claims(5, claims, left_of(0, 4), "pro_rata") == [0, 2, 2, 1]
    assert pay_claims(5, [10, 10, 0, 10], left_of(2, 4), "pro_rata") == [2, 1, 0, 2]
    assert pay_claims(7, [0, 3, 12, 6], left_of(0, 4), "pro_rata") == [0, 1, 4, 2]
    assert pay_claims(99, claims, left_of(0, 4), "pro_rata") == claims
    with pytest.raises(ValueError):
        pay_claims(1, claims, left_of(0, 4), "whatever")


@pytest.mark.parametrize("mode, paid", [("seating", [0, 0, 6, 4]), ("pro_rata", [3, 0, 4, 3])])
def test_broken_bank_through_the_engine(mode, paid):
    """Banker (seat 1) has 4 chips; a losing stake of 6 joins the bank: 10 to share out."""
    state = with_banker(new(4, start_chips=20, broken_bank=mode), 1)
    state["chips"][1] = 4
    state = play(
        state,
        (2, "bet crown 6"), (3, "bet crown 6"), (0, "bet crown 6"), (0, "bet hearts 6"),
        (0, "done"), (2, "done"), (3, "done"),
    )
    after = roll_where(state, lambda d: d.count("crown") == 1 and "hearts" not in d)
    last = after["last"]
    assert last["won"] == paid
    assert last["short"] == [6 - paid[0], 0, 6 - paid[2], 6 - paid[3]]
    assert last["broken"] and after["chips"][1] == 0 and not after["active"][1]
    assert after["chips"][2] == 20 + paid[2]
    assert after["banker"] in (0, 2, 3)
    assert total_chips(after) == 3 * 20 + 4


def break_bank(state, banker):
    """Rolls until the banker, holding one chip against a large crown stake, breaks."""
    state = with_banker(state, banker)
    state["chips"][banker] = 1
    punter = next(s for s in GAME.to_act(state))
    state = GAME.apply(state, punter, {"type": "bet", "symbol": "crown", "chips": 10})
    state = close_betting(state)
    return roll_where(state, lambda d: "crown" in d)


def test_broken_bank_rotates_to_the_next_player():
    after = break_bank(new(4, bank="rotate"), 1)
    assert after["last"]["broken"] and after["banker"] == 2 and after["bank_rolls"] == 0


def test_broken_bank_by_lot_is_a_new_draw_among_those_left():
    bankers = set()
    for seed in range(40):
        after = break_bank(new(4, seed=seed, bank="lot"), 1)
        assert after["banker"] != 1 and after["active"][after["banker"]]
        bankers.add(after["banker"])
    assert bankers == {0, 2, 3}


def test_broken_bank_goes_to_a_volunteer():
    state = new(4, volunteer=True)
    assert state["phase"] == "volunteer" and state["banker"] is None
    state = play(state, (0, "volunteer no"), (1, "volunteer yes"), (2, "volunteer no"), (3, "volunteer no"))
    assert state["banker"] == 1 and state["phase"] == "bet"
    after = break_bank(state, 1)
    assert after["phase"] == "volunteer" and GAME.to_act(after) == [0, 2, 3]
    after = play(after, (0, "volunteer yes"), (2, "volunteer no"), (3, "volunteer yes"))
    assert after["banker"] in (0, 3)


def test_nobody_volunteering_is_a_draw_among_everyone():
    bankers = {
        play(new(3, seed=seed, volunteer=True), *((s, "volunteer no") for s in range(3)))["banker"]
        for seed in range(30)
    }
    assert bankers == {0, 1, 2}


# --- bank by lot and rotation ----------------------------------------------------------


def test_bank_by_lot_draws_every_seat_and_keeps_the_bank():
    assert {new(3, seed=seed, bank="lot")["banker"] for seed in range(40)} == {0, 1, 2}
    state = with_banker(new(3, bank="lot"), 2)
    for _ in range(5):
        state = GAME.apply(close_betting(state), 2, {"type": "roll"})
        assert state["banker"] == 2


def test_the_default_bank_rotates_every_five_rolls_from_a_drawn_first_banker():
    assert {new(3, seed=seed)["banker"] for seed in range(40)} == {0, 1, 2}
    state = with_banker(new(3), 1)
    bankers = []
    for _ in range(11):
        state = GAME.apply(close_betting(state), state["banker"], {"type": "roll"})
        bankers.append(state["banker"])
    assert bankers == [1] * 4 + [2] * 5 + [0] * 2


def test_a_fixed_bank_is_the_first_seat_until_it_breaks():
    assert {new(3, seed=seed, bank="fixed")["banker"] for seed in range(20)} == {0}
    state = new(3, bank="fixed")
    for _ in range(7):
        state = GAME.apply(close_betting(state), 0, {"type": "roll"})
        assert state["banker"] == 0
    after = break_bank(new(4, bank="fixed"), 0)
    assert after["banker"] != 0 and after["active"][after["banker"]]


def test_rotating_bank_passes_left_every_n_rolls_skipping_the_departed():
    state = with_banker(new(4, bank="rotate", rotate_every=2), 3)
    bankers = []
    for _ in range(6):
        state = GAME.apply(close_betting(state), state["banker"], {"type": "roll"})
        bankers.append(state["banker"])
    assert bankers == [3, 0, 0, 1, 1, 2]
    state = GAME.apply(state, 3, {"type": "leave"})
    for _ in range(2):
        state = GAME.apply(close_betting(state), state["banker"], {"type": "roll"})
    assert state["banker"] == 0


# --- limits ------------------------------------------------------------------------------


def rejected(state, seat, action, code):
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, seat, action)
    assert caught.value.code == code, caught.value.reason


def test_table_minimum_and_maximum_apply_per_symbol():
    state = with_banker(new(2, min_bet=5, max_bet=20, start_chips=100), 0)
    rejected(state, 1, {"type": "bet", "symbol": "crown", "chips": 4}, "crown_anchor.min_bet")
    state = play(state, (1, "bet crown 5"), (1, "bet crown 1"), (1, "bet crown 14"))
    assert state["stakes"][1] == {"crown": 20}
    rejected(state, 1, {"type": "bet", "symbol": "crown", "chips": 1}, "crown_anchor.max_bet")
    state = play(state, (1, "bet anchor 20"))
    assert state["chips"][1] == 60


def test_nobody_stakes_more_than_he_has():
    state = with_banker(new(2, start_chips=10), 0)
    rejected(state, 1, {"type": "bet", "symbol": "crown", "chips": 11}, "crown_anchor.short")
    state = play(state, (1, "bet crown 6"))
    rejected(state, 1, {"type": "bet", "symbol": "anchor", "chips": 5}, "crown_anchor.short")
    state = play(state, (1, "bet anchor 4"))
    assert state["chips"][1] == 0
    assert not any(a["type"] == "bet" for a in GAME.legal_actions(state, 1))


@pytest.mark.parametrize(
    "action, code",
    [
        ({"type": "bet", "symbol": "star", "chips": 1}, "crown_anchor.symbol"),
        ({"type": "bet", "symbol": ["crown"], "chips": 1}, "crown_anchor.symbol"),
        ({"type": "bet", "symbol": "crown", "chips": True}, "bad_field"),
        ({"type": "bet", "symbol": "crown", "chips": 0}, "field_range"),
        ({"type": "bet", "symbol": "crown", "chips": 1.0}, "bad_field"),
        ({"type": "bet", "symbol": "crown", "chips": 1, "seat": 0}, "bad_field"),
        ({"type": "clear"}, "crown_anchor.no_stake"),
        ({"type": "clear", "symbol": "crown"}, "crown_anchor.no_stake"),
        ({"type": "roll"}, "crown_anchor.phase"),
        ({"type": "volunteer", "yes": True}, "crown_anchor.phase"),
        ({"type": "done", "now": 1}, "bad_field"),
        ({"type": "cheat"}, "unknown_action"),
        ({"type": "_act_bet"}, "unknown_action"),
    ],
)
def test_bad_actions_are_rejected_with_a_reason(action, code):
    rejected(with_banker(new(2), 0), 1, action, code)


def test_volunteer_answer_must_be_a_boolean():
    rejected(new(2, volunteer=True), 0, {"type": "volunteer", "yes": 1}, "bad_field")


def test_the_banker_cannot_bet_and_punters_cannot_roll():
    state = with_banker(new(3), 0)
    rejected(state, 0, {"type": "bet", "symbol": "crown", "chips": 1}, "not_your_turn")
    state = close_betting(state)
    rejected(state, 1, {"type": "roll"}, "not_your_turn")


def test_clear_takes_stakes_back():
    state = with_banker(new(2, start_chips=30), 0)
    state = play(state, (1, "bet crown 5"), (1, "bet spades 7"), (1, "clear crown"))
    assert state["stakes"][1] == {"spades": 7} and state["chips"][1] == 23
    state = play(state, (1, "clear"))
    assert state["stakes"][1] == {} and state["chips"][1] == 30


@pytest.mark.parametrize(
    "options",
    [{"min_bet": 10, "max_bet": 5}, {"start_chips": 4, "min_bet": 5}, {"bank": "house"}, {"rotate_every": 0}],
)
def test_inconsistent_options_are_refused(options):
    with pytest.raises(InvalidOptions):
        new(3, **options)


# --- leaving and ending -------------------------------------------------------------------


def test_a_punter_with_no_chips_leaves_the_table():
    state = with_banker(new(3, start_chips=10), 0)
    state = play(state, (1, "bet crown 10"), (1, "done"), (2, "done"))
    after = roll_where(state, lambda d: "crown" not in d)
    assert after["chips"][1] == 0 and not after["active"][1]
    assert after["last"]["left"] == [1]
    assert GAME.to_act(after) == [2]


def test_a_punter_below_the_minimum_leaves_too():
    state = with_banker(new(3, start_chips=10, min_bet=5), 0)
    state = play(state, (1, "bet crown 6"), (1, "done"), (2, "done"))
    after = roll_where(state, lambda d: "crown" not in d)
    assert after["chips"][1] == 4 and not after["active"][1]


def test_the_game_ends_when_no_punter_remains():
    state = with_banker(new(2, start_chips=10), 0)
    state = play(state, (1, "bet crown 10"), (1, "done"))
    after = roll_where(state, lambda d: "crown" not in d)
    assert after["result"] == {"winners": [0], "net": [10, -10], "reason": "no_punters"}
    assert GAME.to_act(after) == [] and GAME.is_over(after)


def test_withdrawing_takes_stakes_back_and_the_last_withdrawal_ends_the_game():
    state = with_banker(new(3, start_chips=10), 1)
    state = play(state, (0, "bet crown 3"), (0, "leave"))
    assert not state["active"][0] and state["chips"][0] == 10
    assert GAME.to_act(state) == [2]
    state = play(state, (2, "leave"))
    assert state["result"]["reason"] == "no_punters"
    assert state["result"]["net"] == [0, 0, 0] and state["result"]["winners"] == [0, 1, 2]


def test_ending_by_agreement():
    state = with_banker(new(3, start_chips=10), 0)
    state = play(state, (1, "bet crown 3"), (1, "end"))
    assert state["votes"][1] and state["chips"][1] == 10 and not GAME.agreed(state)
    state = play(state, (2, "bet hearts 4"), (2, "done"))
    assert not GAME.agreed(state) and state["phase"] == "roll"
    state = GAME.apply(state, 0, {"type": "roll"})
    assert state["votes"] == [False, True, False], "a vote stands across the roll"
    withdrawn = play(state, (1, "bet crown 1"))
    assert withdrawn["votes"] == [False, False, False], "staking again withdraws it"
    state = play(state, (1, "end"), (2, "end"))
    assert GAME.agreed(state) and {"type": "end"} in GAME.legal_actions(state, 0)
    final = play(state, (0, "end"))
    assert final["result"]["reason"] == "agreement"
    assert final["result"]["net"] == [c - 10 for c in final["chips"]]
    # The banker may also refuse and roll on.
    assert GAME.apply(state, 0, {"type": "roll"})["result"] is None


def test_the_banker_may_propose_to_end_instead_of_rolling():
    state = with_banker(new(3, start_chips=10), 0)
    state = play(state, (1, "bet crown 3"), (1, "done"), (2, "bet anchor 5"), (2, "done"))
    assert not GAME.agreed(state) and {"type": "end"} in GAME.legal_actions(state, 0)
    proposed = GAME.apply(state, 0, {"type": "end"})
    assert proposed["result"] is None and proposed["rolls"] == 0
    assert proposed["phase"] == "bet" and proposed["votes"] == [True, False, False]
    assert proposed["chips"] == [10, 10, 10] and proposed["stakes"] == [{}, {}, {}]
    over = play(proposed, (1, "end"), (2, "end"), (0, "end"))
    assert over["result"]["reason"] == "agreement"
    rolled = play(proposed, (1, "end"), (2, "done"), (0, "roll"))
    assert rolled["votes"] == [False, True, False], "the banker's proposal lapses as he rolls"


def test_chips_are_conserved_in_random_games():
    for seed in range(30):
        seats = 2 + seed % 9
        options = [
            {},
            {"bank": "rotate", "rotate_every": 1, "start_chips": 5},
            {"broken_bank": "pro_rata", "start_chips": 7},
            {"bank": "fixed", "volunteer": True, "min_bet": 3, "max_bet": 6, "start_chips": 20},
        ][seed % 4]
        state, log = random_playout("crown_anchor", seed, seats, options)
        assert GAME.is_over(state) and log
        assert total_chips(state) == seats * state["options"]["start_chips"]
        assert all(c >= 0 for c in state["chips"])


# --- notation and views --------------------------------------------------------------------


def test_notation_round_trips_every_legal_action():
    states = [with_banker(new(3, min_bet=2), 0), new(3, volunteer=True)]
    states.append(close_betting(states[0]))
    states.append(play(states[0], (1, "bet crown 4")))
    for state in states:
        for seat in GAME.to_act(state):
            for action in GAME.legal_actions(state, seat):
                assert GAME.parse_action(GAME.action_text(action)) == action
    assert GAME.parse_action(" Bet  Anchor 12 ") == {"type": "bet", "symbol": "anchor", "chips": 12}
    for text in ("bet", "bet crown", "bet star 3", "bet crown -1", "roll now", "volunteer maybe", "", None):
        with pytest.raises(IllegalAction):
            GAME.parse_action(text)


def test_legal_bets_are_legal_and_sized_from_the_minimum():
    state = play(with_banker(new(2, min_bet=3, max_bet=10, start_chips=12), 0), (1, "bet crown 9"))
    bets = [a for a in GAME.legal_actions(state, 1) if a["type"] == "bet"]
    assert {"type": "bet", "symbol": "crown", "chips": 1} in bets
    assert {"type": "bet", "symbol": "hearts", "chips": 3} in bets
    assert not any(a["chips"] == 15 for a in bets)
    for action in bets:
        GAME.apply(state, 1, action)


def test_views_show_everything_but_the_dice_generator():
    state = with_banker(new(3), 0)
    view = GAME.view(state, 1)
    assert "rng" not in view
    assert view["you"] == 1 and view["to_act"] == [1, 2] and view["punters"] == [1, 2]
    assert view["expected"] == [-17, 216] and view["payouts"] == [1, 2, 3]
    assert GAME.view(new(3, bank="fixed"), None)["expected"] == [0, 1]
    assert all(view[k] == state[k] for k in state if k != "rng")


def test_symbols_are_the_six_of_the_layout():
    assert set(SYMBOLS) == {"hearts", "diamonds", "spades", "clubs", "crown", "anchor"}


def test_a_late_vote_to_end_reaches_bots_that_had_already_confirmed():
    """A human punter votes after the bot punter confirmed: next round the bots agree."""
    state = with_banker(new(3, start_chips=20), 0)

    def bot(state, seat):
        return GAME.apply(state, seat, choose_action(GAME.view(state, seat), "steady", seat))

    while 2 in GAME.to_act(state):
        state = bot(state, 2)
    state = play(state, (1, "end"))
    state = bot(state, 0)  # no agreement yet: the bot banker rolls
    assert state["rolls"] == 1 and state["votes"][1]
    while 2 in GAME.to_act(state):
        state = bot(state, 2)
    state = play(state, (1, "end"))
    assert GAME.agreed(state)
    assert bot(state, 0)["result"]["reason"] == "agreement"
