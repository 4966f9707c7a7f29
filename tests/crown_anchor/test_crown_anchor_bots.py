"""Crown and Anchor bots: legal, solvent, temperamental, and deciding from views only."""

import json

import pytest

from pyengine.core.table import Table
from pyengine.games.crown_anchor import GAME
from pyengine.games.crown_anchor.bot import choose_action

LEVELS = GAME.bot_levels


def bot_table(levels, seed, **options):
    seats = [{"kind": "bot", "name": f"B{i}", "level": level} for i, level in enumerate(levels)]
    return Table("crown_anchor", options, seats, seed)


def run(table, rolls):
    """Lets the bots play ``rolls`` rolls (or to the end); checks every bet is covered."""
    staked = dict.fromkeys(range(len(table.seats)), 0)
    while not table.is_over() and table.state["rolls"] < rolls:
        seat = table.next_bot_seat()
        view = table.view(seat)
        action = table.bot_action(seat)
        if action["type"] == "bet":
            assert action["chips"] <= view["chips"][seat], "bot bet chips it does not have"
            staked[seat] += action["chips"]
        table.act(seat, action)  # raises if the bot's action is illegal
    return staked


@pytest.mark.parametrize(
    "options",
    [{}, {"bank": "rotate", "rotate_every": 2}, {"min_bet": 5, "max_bet": 8, "start_chips": 40},
     {"volunteer": True, "broken_bank": "pro_rata", "start_chips": 15}, {"bank": "fixed"}],
)
def test_bot_tables_play_legally(options):
    for seed in range(3):
        levels = [LEVELS[(seed + i) % 3] for i in range(2 + 3 * seed)]
        table = bot_table(levels, seed, **options)
        run(table, 40)
        state = table.state
        assert all(c >= 0 for c in state["chips"])
        if not table.is_over():
            assert state["rolls"] == 40


def test_temperaments_stake_differently():
    table = bot_table(["cautious", "steady", "reckless", "cautious"], 11, start_chips=1000, bank="rotate", rotate_every=1)
    staked = run(table, 60)
    assert staked[0] < staked[1] < staked[2]


def test_bots_keep_to_the_table_limits():
    table = bot_table(["reckless"] * 4, 5, min_bet=3, max_bet=7, start_chips=200)
    run(table, 30)
    for entry in table.log:
        action = entry["action"]
        if action["type"] == "bet":
            assert action["chips"] <= 7


def view_for(state, seat):
    return json.loads(json.dumps(GAME.view(state, seat)))


def test_bots_decide_from_the_view_alone():
    state = GAME.new_state({}, 3, 4)
    other = dict(state, rng={"seed": 999, "counter": 77})
    for seat in GAME.to_act(state):
        assert view_for(state, seat) == view_for(other, seat)
        for level in LEVELS:
            assert choose_action(view_for(state, seat), level, 1) == choose_action(view_for(other, seat), level, 1)


def test_bots_follow_a_proposal_to_stop_and_the_banker_ends():
    state = dict(GAME.new_state({}, 3, 4), banker=0)
    state = GAME.apply(state, 1, {"type": "end"})
    assert choose_action(view_for(state, 2), "reckless", 3) == {"type": "end"}
    state = GAME.apply(state, 2, {"type": "end"})
    assert choose_action(view_for(state, 0), "steady", 3) == {"type": "end"}


def test_bots_agree_when_the_banker_proposes_to_stop():
    state = dict(GAME.new_state({}, 3, 4), banker=0)
    state = GAME.apply(state, 1, {"type": "done"})
    state = GAME.apply(GAME.apply(state, 2, {"type": "done"}), 0, {"type": "end"})
    for seat in (1, 2):
        assert choose_action(view_for(state, seat), "cautious", 5) == {"type": "end"}


def test_banker_bot_rolls_and_bots_answer_for_the_bank():
    state = dict(GAME.new_state({}, 2, 4), banker=0)
    state = GAME.apply(state, 1, {"type": "done"})
    assert choose_action(view_for(state, 0), "cautious", 1) == {"type": "roll"}
    state = GAME.new_state({"volunteer": True}, 2, 4)
    assert choose_action(view_for(state, 0), "cautious", 1) == {"type": "volunteer", "yes": False}
    assert choose_action(view_for(state, 1), "reckless", 1) == {"type": "volunteer", "yes": True}


def test_a_bot_short_of_chips_confirms_instead_of_overbetting():
    state = dict(GAME.new_state({"start_chips": 50}, 2, 4), banker=0)
    state["chips"][1] = 1
    action = choose_action(view_for(state, 1), "reckless", 2)
    assert action["type"] == "bet" and action["chips"] == 1
    state = GAME.apply(state, 1, action)
    assert choose_action(view_for(state, 1), "reckless", 2) == {"type": "done"}


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        choose_action(view_for(GAME.new_state({}, 2, 1), 1), "genius", 1)
