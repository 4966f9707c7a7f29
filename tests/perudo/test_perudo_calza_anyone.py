"""Calza by anyone but the bidder (``calza_by``), the out-of-turn hook ``Game.may_act`` as the
table, the bot runner, one device and a shared table use it, and the bid history."""

import json

import pytest

from pyengine.core.errors import IllegalAction, TabernaError
from pyengine.protocol import Host
from pyengine.protocol.envelope import encode
from pyengine.core.table import Table
from pyengine.games.perudo import GAME
from pyengine.games.perudo.bot import LEVELS, choose_action
from pyengine.games.perudo.rules import MAX_HISTORY
from pyengine.shell.device import OUT_OF_TURN_MS, Device, LocalMoves
from tests.perudo.test_perudo_rules import table  # a hand-set state: cups, turn, bids

ANYONE = {"calza": True, "calza_by": "anyone"}


def calza(round_, count, face):
    return {"type": "calza", "round": round_, "count": count, "face": face}


# --- the rule ------------------------------------------------------------------------------------
def test_anyone_but_the_bidder_and_the_player_on_turn_may_act_out_of_turn():
    state = table([[2], [3, 3], [4], [5]], turn=2, bids=[(1, 2, 3)], **ANYONE)
    assert GAME.to_act(state) == [2]
    assert GAME.may_act(state) == [0, 3]  # not Rui (the bidder), not Eva (on turn: to_act)
    assert GAME.legal_actions(state, 0) == [calza(1, 2, 3)]
    assert GAME.legal_actions(state, 1) == []
    state["counts"][3], state["dice"][3] = 0, []
    assert GAME.may_act(state) == [0]  # a player who is out may not


@pytest.mark.parametrize("options", [{"calza": True}, {"calza": False, "calza_by": "anyone"}])
def test_nobody_acts_out_of_turn_by_default_or_without_calza(options):
    state = table([[2], [3, 3], [4]], turn=2, bids=[(1, 2, 3)], **options)
    assert GAME.may_act(state) == []
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, calza(1, 2, 3))
    assert caught.value.code == "not_your_turn"


def test_no_calza_out_of_turn_before_the_first_bid():
    assert GAME.may_act(table([[2], [3], [4]], **ANYONE)) == []


def test_an_exact_calza_out_of_turn_wins_a_die_and_opens_the_next_round():
    # Two threes on the table (Rui's pair), bid 2 threes by Rui; Ana calls Calza out of turn.
    state = table([[2, 5], [3, 3], [4], [6]], turn=2, bids=[(1, 2, 3)], **ANYONE)
    after = GAME.apply(state, 0, calza(1, 2, 3))
    assert after["counts"][:2] == [3, 2] and after["turn"] == 0 and after["round"] == 2
    last = after["last_round"]
    assert (last["caller"], last["call"], last["gainer"], last["loser"]) == (0, "calza", 0, None)


def test_a_wrong_calza_out_of_turn_costs_the_caller_a_die():
    state = table([[2, 5], [3, 4], [4], [6]], turn=2, bids=[(1, 2, 3)], **ANYONE)
    after = GAME.apply(state, 3, calza(1, 2, 3))
    assert after["counts"] == [2, 2, 1, 0] and after["result"] is None
    assert after["last_round"]["eliminated"] == 3 and after["turn"] == 0  # the next on his left


def test_out_of_turn_only_calza_and_it_must_name_the_standing_bid():
    state = table([[2], [3, 3], [4]], turn=2, bids=[(0, 1, 2), (1, 2, 3)], **ANYONE)
    before = json.dumps(state, sort_keys=True)
    refused = [
        ({"type": "bid", "count": 3, "face": 3}, "perudo.calza_only"),
        ({"type": "dudo"}, "perudo.calza_only"),
        ({"type": "calza"}, "perudo.calza_unnamed"),
        (calza(1, 1, 2), "perudo.calza_stale"),  # an earlier bid of this round
        (calza(2, 2, 3), "perudo.calza_stale"),  # the same bid in another round
        ({"type": "calza", "round": 1, "count": 2}, "bad_field"),
        ({"type": "calza", "round": 1, "count": 2, "face": 3, "x": 1}, "bad_field"),
        ({"type": "calza", "round": "1", "count": 2, "face": 3}, "bad_field"),
    ]
    for action, code in refused:
        with pytest.raises(IllegalAction) as caught:
            GAME.apply(state, 0, action)
        assert caught.value.code == code, action
        assert caught.value.reason
    assert json.dumps(state, sort_keys=True) == before


def test_a_calza_that_crossed_a_raise_is_refused_and_the_table_is_untouched():
    state = table([[2], [3, 3], [4]], turn=2, bids=[(1, 2, 3)], **ANYONE)
    answered = GAME.legal_actions(state, 0)[0]
    raised = GAME.apply(state, 2, {"type": "bid", "count": 3, "face": 3})
    before = json.dumps(raised, sort_keys=True)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(raised, 0, answered)
    assert caught.value.code == "perudo.calza_stale"
    assert json.dumps(raised, sort_keys=True) == before


def test_the_player_on_turn_may_still_call_an_unnamed_calza_as_old_saves_did():
    state = table([[2], [3, 3], [4]], turn=2, bids=[(1, 2, 3)], calza=True)
    assert GAME.apply(state, 2, {"type": "calza"})["last_round"]["call"] == "calza"
    assert GAME.legal_actions(state, 2)[-1] == calza(1, 2, 3)


def test_notation_names_the_round_and_the_bid():
    assert GAME.action_text(calza(5, 3, 4)) == "calza r5 3x4"
    assert GAME.parse_action("calza r5 3x4") == calza(5, 3, 4)
    assert GAME.parse_action("calza") == {"type": "calza"}
    assert GAME.action_text({"type": "calza"}) == "calza"


# --- the bid history -------------------------------------------------------------------------------
def test_history_keeps_the_last_rounds_without_their_dice():
    state = GAME.new_state({"calza": True}, 6, 4)
    rounds = 0
    while rounds < MAX_HISTORY + 3:
        seat = GAME.to_act(state)[0]
        action = {"type": "dudo"} if state["bids"] else {"type": "bid", "count": 1, "face": 2}
        state = GAME.apply(state, seat, action)
        rounds += action["type"] == "dudo"
    history = state["history"]
    assert len(history) == MAX_HISTORY
    assert [r["round"] for r in history] == list(range(rounds - MAX_HISTORY + 1, rounds + 1))
    assert all("dice" not in r for r in history)
    newest = history[-1]
    assert newest == {k: v for k, v in state["last_round"].items() if k != "dice"}
    assert newest["bids"] == [{"seat": newest["bids"][0]["seat"], "count": 1, "face": 2}]
    for seat in (None, 0, 3):
        view = GAME.view(state, seat)
        assert view["history"] == history
        GAME.check_view(view, 6)


def test_a_state_and_a_view_from_before_the_history_still_work():
    state = GAME.new_state({}, 3, 8)
    del state["history"]  # a state built by older code
    state = GAME.apply(state, state["turn"], {"type": "bid", "count": 1, "face": 3})
    assert GAME.view(state, 0)["history"] == []
    after = GAME.apply(state, GAME.to_act(state)[0], {"type": "dudo"})
    assert len(after["history"]) == 1
    old_view = GAME.view(after, 1)
    del old_view["history"], old_view["may_act"]  # what an older host sends
    GAME.check_view(old_view, 3)


def test_history_in_a_view_is_checked_like_any_peer_data():
    state = GAME.apply(table([[2], [3, 3], [4]], turn=2, bids=[(1, 2, 3)]), 2, {"type": "dudo"})
    view = GAME.view(state, 0)
    bad = json.loads(json.dumps(view))
    bad["history"][0]["gainer"] = 0  # a loser and a gainer both
    with pytest.raises(Exception):
        GAME.check_view(bad, 3)
    bad = json.loads(json.dumps(view))
    bad["history"][0]["dice"] = [[1]]  # cups never travel in the history
    with pytest.raises(Exception):
        GAME.check_view(bad, 3)


def test_a_save_from_before_the_option_replays_with_its_history_rebuilt():
    seats = [{"kind": "human", "name": n} for n in ("Ana", "Rui", "Eva")]
    old = Table("perudo", {"calza": True}, seats, 21)
    while not old.is_over() and old.version < 40:
        seat = old.to_act()[0]
        bids = old.state["bids"]
        if len(bids) < 2:  # two bids, then a Calza as old code played it (unnamed)
            action = {"type": "bid", "count": len(bids) + 1, "face": 4}
        else:
            action = {"type": "calza"}
        old.act(seat, action)
    saved = old.to_dict()
    del saved["options"]["calza_by"]  # saved before the option existed
    restored = Table.from_dict(json.loads(json.dumps(saved)))
    assert restored.state == old.state and restored.options["calza_by"] == "turn"
    assert restored.state["history"] and any(r["call"] == "calza" for r in restored.state["history"])


# --- bots out of turn ------------------------------------------------------------------------------
def test_a_bot_out_of_turn_calls_calza_on_a_bid_it_can_see_is_exact_and_else_keeps_quiet():
    # Ana holds three pacos, Rui bid three pacos, Eva is on turn: two unseen dice, neither a
    # paco more likely than not, so the bid is more likely exact than not.
    sure = table([[1, 1, 1], [6], [5]], turn=2, bids=[(1, 3, 1)], **ANYONE)
    unlikely = table([[2, 3, 6], [2, 6], [5]], turn=2, bids=[(1, 4, 4)], **ANYONE)
    for level in ("medium", "hard"):
        assert choose_action(GAME.view(sure, 0), level, 1) == calza(1, 3, 1)
        assert choose_action(GAME.view(unlikely, 0), level, 1) is None
    answers = {json.dumps(choose_action(GAME.view(unlikely, 0), "easy", seed)) for seed in range(40)}
    assert answers == {"null"}  # four fours from two unseen dice and none in its cup: never exact


def test_a_bot_not_on_turn_and_not_allowed_to_act_has_no_move():
    state = table([[4, 4, 4], [2, 6], [5]], turn=2, bids=[(1, 3, 4)], calza=True)
    with pytest.raises(ValueError):
        choose_action(GAME.view(state, 0), "medium", 1)


def bot_table(options, seats, seed, levels=LEVELS):
    entries = [{"kind": "bot", "name": f"B{i}", "level": levels[i % len(levels)]} for i in range(seats)]
    return Table("perudo", options, entries, seed)


def play_out(table_):
    while not table_.is_over():
        assert table_.version < 3000, "an all-bot game did not end"
        seat = table_.next_bot_seat()
        table_.act(seat, table_.bot_action(seat))
    return table_


def test_all_bot_tables_with_calza_by_anyone_end_and_replay_from_their_seed():
    out_of_turn = 0
    for seed in range(6):
        played = play_out(bot_table(ANYONE, 3 + seed % 4, seed))
        again = play_out(bot_table(ANYONE, 3 + seed % 4, seed))
        assert played.log == again.log  # deterministic given the seed
        state = GAME.new_state(ANYONE, len(played.seats), seed)
        for entry in played.log:
            out_of_turn += entry["seat"] not in GAME.to_act(state)
            state = GAME.apply(state, entry["seat"], entry["action"])
    assert out_of_turn > 0, "no bot ever called Calza out of turn"


def test_the_runner_asks_each_bot_once_per_position_and_a_bot_that_interjects_goes_first():
    calls = []
    state_table = bot_table(ANYONE, 4, 3, levels=("medium",))
    original = state_table.bot_action

    def counting(seat):
        calls.append((state_table.version, seat))
        return original(seat)

    # Hand-set a position where seat 0 holds the bid's pacos; seat 2 is on turn.
    state_table.state = table([[1, 1, 1], [6], [5], [6]], turn=2, bids=[(1, 3, 1)], **ANYONE)
    state_table._bot_answers = (-1, {})
    state_table.bot_action = counting
    for _ in range(3):
        assert state_table.next_bot_seat() == 0  # Ana interjects before Eva moves
    answers = state_table._bot_answers[1]
    assert answers[0, "medium"] == calza(1, 3, 1) and len(answers) == 1
    # A bot that declines is asked once, and the bot on turn then plays.
    state_table.state = table([[2, 3, 6], [2, 6], [5], [6]], turn=2, bids=[(1, 4, 4)], **ANYONE)
    state_table._bot_answers = (-1, {})
    assert state_table.next_bot_seat() == 2
    assert state_table.next_bot_seat() == 2
    assert sorted(k for k in state_table._bot_answers[1]) == [(0, "medium"), (3, "medium")]


# --- one device ----------------------------------------------------------------------------------
def device_at(state, seats):
    moves = LocalMoves(Table("perudo", state["options"], seats, 5))
    moves.table.state = state
    return Device(moves)


HUMAN_AND_BOTS = [{"kind": "human", "name": "Ana"}] + [
    {"kind": "bot", "name": f"B{i}", "level": "medium"} for i in (1, 2, 3)
]


def test_one_device_the_player_on_screen_may_call_calza_while_a_bot_is_to_move():
    # Bots 1 bid, bot 2 is to move; Ana, on screen, may call Calza out of turn.
    device = device_at(table([[2, 5], [3, 3], [4], [6]], turn=2, bids=[(1, 2, 3)], **ANYONE), HUMAN_AND_BOTS)
    assert device.status() == "bot" and device.may_act_now()
    assert device.delay_ms() >= OUT_OF_TURN_MS  # time for her to act before the bot does
    assert device.hold_ms() == OUT_OF_TURN_MS  # which the page keeps a share of at any bots' pace
    with pytest.raises(IllegalAction):
        device.act({"type": "dudo"})
    device.act(calza(1, 2, 3))
    assert device.table.state["last_round"]["caller"] == 0


def test_one_device_nobody_acts_out_of_turn_without_the_option_or_as_the_bidder():
    device = device_at(table([[2, 5], [3, 3], [4], [6]], turn=2, bids=[(1, 2, 3)], calza=True), HUMAN_AND_BOTS)
    assert not device.may_act_now() and device.hold_ms() == 0
    with pytest.raises(TabernaError):
        device.act(calza(1, 2, 3))
    bidder = device_at(table([[2, 5], [3, 3], [4], [6]], turn=2, bids=[(0, 2, 3)], **ANYONE), HUMAN_AND_BOTS)
    assert not bidder.may_act_now()


def test_pass_and_play_offers_out_of_turn_calza_only_to_the_seat_on_screen():
    seats = [{"kind": "human", "name": n} for n in ("Ana", "Rui", "Eva")]
    device = device_at(table([[2, 5], [3, 3], [4]], turn=1, bids=[(0, 2, 3)], **ANYONE), seats)
    device.viewer = 0  # Ana bid and still holds the phone; Rui is to take it
    assert device.status() == "handoff" and not device.may_act_now()
    with pytest.raises(TabernaError):
        device.act(calza(1, 2, 3))  # Eva may call it, but she is not holding the phone


def test_the_player_on_turn_may_move_before_a_bot_that_would_interject():
    # Ana is on turn, bot 1 would call Calza on bot 3's two pacos: whoever is first, moves.
    device = device_at(table([[2], [1, 1], [5], [6]], turn=0, bids=[(3, 2, 1)], **ANYONE), HUMAN_AND_BOTS)
    assert device.table.next_bot_seat() == 1
    assert device.status() == "bot" and device.may_act_now()
    device.act({"type": "dudo"})
    assert device.table.state["last_round"]["caller"] == 0


# --- a shared table ----------------------------------------------------------------------------------
def test_a_guest_calls_calza_out_of_turn_and_a_late_one_is_refused_with_the_reason():
    seats = [{"kind": "human", "name": "Host"}, {"kind": "remote", "name": "Rui"}, {"kind": "human", "name": "Eva"}]
    shared = Table("perudo", ANYONE, seats, 9)
    shared.state = table([[2, 5], [3, 3], [4]], turn=0, bids=[(2, 2, 3)], **ANYONE)
    token = "tok-" + "x" * 20
    host = Host(shared, "tbl-calza", [None, token, None], started=True)
    host.receive("p1", encode("rejoin", table="tbl-calza", seat=1, token=token), 0)
    seen = host.version
    answered = shared.game.legal_actions(shared.state, 1)[0]
    assert answered == calza(1, 2, 3)
    # The host's own player raises first; the guest's Calza, sent at the old version, arrives late.
    host.act(0, {"type": "bid", "count": 3, "face": 3})
    before = json.dumps(host.table.state, sort_keys=True)
    late = encode("intent", table="tbl-calza", seat=1, version=seen, seq=1, action=answered)
    replies = [json.loads(text) for _, text in host.receive("p1", late, 1)]
    errors = [message for message in replies if message["kind"] == "error"]
    assert errors and errors[0]["code"] == "perudo.calza_stale" and errors[0]["ref"] == 1
    assert json.dumps(host.table.state, sort_keys=True) == before
    # A Calza on the standing bid goes through.
    assert host.table.to_act() == [1]  # the raise passed the turn to Rui
    fresh = shared.game.legal_actions(host.table.state, 1)[-1]
    host.receive("p1", encode("intent", table="tbl-calza", seat=1, version=host.version, seq=2, action=fresh), 2)
    last = host.table.state["last_round"]
    assert (last["caller"], last["call"], last["bids"][-1]["count"]) == (1, "calza", 3)
