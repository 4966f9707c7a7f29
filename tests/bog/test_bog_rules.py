"""The Bog engine (shared/rules/bog.md), tested in notation.

Deals are written as records (``Bog.format_deal``): the table before the antes, the cards as
dealt, then ``seat: action`` lines; a board is ``AH=0:1,1:1 10H=- ... BOG=0:2`` (owner:chips).
Expected chips are worked out by hand in the comments.
"""

import json
import re
from pathlib import Path

import pytest

from buildtools.po import read_po
from pyengine.core.errors import IllegalAction, InvalidOptions, TabernaError
from pyengine.core.rng import Rng
from pyengine.games import bog as bog_package
from pyengine.games.bog import combos
from pyengine.games.bog.combos import best_combination
from pyengine.games.bog.rules import OPTIONS, Bog, format_board, parse_board

GAME = Bog()

# Three players, dealer 0 (order 1, 2, 0). Seat 0: a pair of kings; seat 1: a trio of
# queens; seat 2: a mitsi (J♣ + 8s). The turned-up 9♦ is not a board card.
THREE = """
players 3
dealer 0
chips 30 30 30
hand 0: KS KH 9C 8D 7D AC 10S JH
hand 1: QS QH QD 7C 8S 9S 10C AS
hand 2: JC 8H 8C 7S 9H 10D KC AD
stock 9D
"""
# After the antes (rotation from A♥): seat 1 on A♥ 10♥, seat 2 on J♣ Q♠, the dealer on K♦ A♥
# plus 2 on BOG.
THREE_BOARD = "AH=0:1,1:1 10H=1:1 JC=2:1 QS=2:1 KD=0:1 BOG=0:2"
# Phase 1: 1 bogs 3, 2 bogs 4, the dealer goes out (2 more on BOG); the trio beats the mitsi:
# seat 1 takes BOG (4) and the stakes (7): 28 - 3 + 11 = 36.
THREE_BOGGED = THREE + "0: decline\n1: bog 3\n2: bog 4\n0: out\n"
# The run, led by the phase-1 winner. Comments: the card expected next and who holds it.
THREE_RUN = [
    "1: play AS",  # 7♠: seat 2 must play it
    "2: play 7S",  # 8♠: seat 1
    "1: play 8S",
    "1: play 9S",  # 10♠: seat 0
    "0: play 10S",  # J♠ is in the stock (dead): seat 0 goes on with a spade
    "0: play KS",  # a king: seat 0 leads again with any card
    "0: play 7D",
    "0: play 8D",  # 9♦ dead (turned up); seat 0 has no diamond left: he changes suit
    "0: play AC",  # 7♣: seat 1
    "1: play 7C",
    "2: play 8C",
    "0: play 9C",
    "1: play 10C",
    "2: play JC",  # a board card: seat 2 collects J♣ (1); Q♣ is in the stock
    "2: play KC",  # a king: seat 2 leads again
    "2: play 8H",
    "2: play 9H",  # 10♥ in the stock; seat 2 has no heart left: changes suit
    "2: play AD",  # 7♦ already played: seat 2 goes on with a diamond, lower or higher
    "2: play 10D",  # seat 2 is out first
]


def replay(text: str, *lines: str) -> dict:
    return GAME.replay_deal(text + "".join(line + "\n" for line in lines))


def act(state: dict, line: str) -> dict:
    seat, _, text = line.partition(":")
    return GAME.apply(state, int(seat), GAME.parse_action(text))


def with_options(record: str, options: str) -> str:
    return record.replace("players 3\n", f"players 3\noptions {options}\n", 1)


def total_chips(state: dict) -> int:
    return sum(state["chips"]) + sum(state["stakes"]) + sum(sum(pot) for pot in state["boxes"].values())


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def refused(state: dict, seat, action, code: str) -> IllegalAction:
    before = canonical(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, seat, action)
    assert caught.value.code == code, caught.value.reason
    assert canonical(state) == before
    return caught.value


# --- the deal ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "players, options, deck, each, stock",
    [
        (3, {}, 32, 8, 8), (4, {}, 32, 6, 8), (4, {"four_players": 7}, 32, 7, 4), (4, {"four_players": 8}, 32, 8, 0),
        (5, {}, 32, 6, 2), (6, {}, 32, 5, 2), (7, {}, 52, 7, 3), (8, {}, 52, 6, 4), (9, {}, 52, 5, 7), (10, {}, 52, 5, 2),
    ],
)
def test_the_deal_follows_the_digest_table(players, options, deck, each, stock):
    state = GAME.new_state(options, players, 7)
    assert state["size"] == deck
    assert [len(hand) for hand in state["hands"]] == [each] * players
    assert len(state["stock"]) + (state["turned"] is not None) == stock
    dealt = sum(state["hands"], []) + state["stock"] + ([state["turned"]] if state["turned"] else [])
    assert len(set(dealt)) == deck
    ranks = {card[:-1] for card in dealt}
    assert ranks == (set(combos.SHORT_RANKS) if deck == 32 else set(combos.RANKS))
    # with no stock there is nothing to turn up: straight to phase 1
    assert state["phase"] == ("exchange" if stock else "bog")


def test_seat_count_is_three_to_ten():
    for seats in (2, 11):
        with pytest.raises(InvalidOptions):
            GAME.new_state({}, seats, 1)


def test_options_schema_and_defaults():
    defaults = {name: option.default for name, option in OPTIONS.items()}
    assert defaults == {
        "start_chips": 30, "four_players": 6, "board_ace": "AH", "dealer_collects": "turned", "antes": "rotation",
        "stake_rule": "at_least", "leader": "bog_winner", "change_suit": "leader_void", "penalty": "box", "run_players": "all",
        "deals": 0, "survivors": 1, "direction": "clockwise",
    }
    for bad in ({"four_players": 5}, {"board_ace": "KH"}, {"survivors": 3}, {"direction": "up"}, {"deals": -1},
                {"start_chips": True}, {"nope": 1}):
        with pytest.raises(InvalidOptions):
            GAME.new_state(bad, 4, 1)


def test_antes_in_rotation_and_the_dealer_on_bog():
    state = GAME.replay_deal(THREE)
    assert format_board(state["boxes"]) == THREE_BOARD
    assert state["chips"] == [26, 28, 28]
    assert state["cursor"] == 1  # six chips from A♥ round the five boxes: the next deal starts on 10♥
    assert state["antes"]["AH"] == [1, 1, 0]
    events = [e for e in state["events"] if e["event"] == "ante"]
    assert [(e["seat"], e["chips"]) for e in events] == [(1, 2), (2, 2), (0, 4)]


def test_antes_rotation_goes_on_where_the_last_deal_stopped():
    state = GAME.replay_deal(THREE.replace("players 3\n", "players 3\ncursor 4\n"))
    # seat 1: K♦ A♥; seat 2: 10♥ J♣; the dealer: Q♠ K♦
    assert format_board(state["boxes"]) == "AH=1:1 10H=2:1 JC=2:1 QS=0:1 KD=0:1,1:1 BOG=0:2"


def test_antes_on_every_box_option():
    state = GAME.replay_deal(with_options(THREE, "antes=every_box"))
    assert format_board(state["boxes"]) == (
        "AH=0:1,1:1,2:1 10H=0:1,1:1,2:1 JC=0:1,1:1,2:1 QS=0:1,1:1,2:1 KD=0:1,1:1,2:1 BOG=0:2")
    assert state["chips"] == [23, 25, 25]


def test_a_short_stack_antes_what_it_has_and_cannot_bog():
    state = GAME.replay_deal(THREE.replace("chips 30 30 30", "chips 30 1 30"))
    assert state["boxes"]["AH"] == [1, 1, 0] and state["boxes"]["10H"] == [0, 0, 0]
    state = act(state, "0: decline")
    assert GAME.legal_actions(state, 1) == [{"type": "out"}]
    refused(state, 1, {"type": "bog", "chips": 3}, "bog.stake_short")
    state = act(state, "1: out")
    assert state["boxes"]["BOG"] == [2, 0, 0]  # he had nothing left to pay


def test_the_turned_up_board_card_gives_the_dealer_its_box():
    record = THREE.replace("stock 9D", "stock KD")
    state = GAME.replay_deal(record.replace("chips 30 30 30", "chips 30 30 30\nboard AH=- 10H=- JC=- QS=- KD=1:4 BOG=-"))
    # K♦ held 4 of seat 1's chips plus the dealer's ante: he collects 5
    assert state["turned"] == "KD" and state["boxes"]["KD"] == [0, 0, 0]
    assert state["chips"][0] == 30 - 4 + 5
    assert {"event": "collect", "seat": 0, "box": "KD", "chips": 5} in state["events"]


def test_option_the_card_the_dealer_throws_out_collects_its_box():
    # The digest's alternative reading: the thrown-out card, not the turned-up one, collects.
    record = with_options(THREE, "dealer_collects=discard").replace("stock 9D", "stock KD")
    # The dealer holds the J♣ (seat 2 the J♥); the 9♦ is dealt in place of the K♣.
    record = record.replace("hand 0: KS KH 9C 8D 7D AC 10S JH", "hand 0: KS KH 9C 8D 7D AC 10S JC")
    record = record.replace("hand 2: JC 8H 8C 7S 9H 10D KC AD", "hand 2: JH 8H 8C 7S 9H 10D 9D AD")
    state = GAME.replay_deal(record)
    assert state["turned"] == "KD" and not any(e["event"] == "collect" for e in state["events"])
    kept = act(state, "0: decline")
    assert not any(e["event"] == "collect" for e in kept["events"])
    # J♣ held the ante of seat 2 (rotation: seat 2 on J♣ Q♠): the dealer collects 1
    state = act(state, "0: exchange JC")
    assert {"event": "collect", "seat": 0, "box": "JC", "chips": 1} in state["events"]
    assert state["boxes"]["JC"] == [0, 0, 0] and state["boxes"]["KD"] == [1, 0, 0]
    assert GAME.view(state, 1)["options"]["dealer_collects"] == "discard"


def test_board_with_the_ace_of_diamonds_option():
    record = with_options(THREE, "board_ace=AD").replace("stock 9D", "stock AH")
    record = record.replace("hand 2: JC 8H 8C 7S 9H 10D KC AD", "hand 2: JC 8H 8C 7S 9H 10D KC 9D")
    state = GAME.replay_deal(record)
    assert [box for box in state["boxes"]] == ["AD", "10H", "JC", "QS", "KD", "BOG"]
    assert state["turned"] == "AH" and not any(e["event"] == "collect" for e in state["events"])
    assert format_board(state["boxes"]) == "AD=0:1,1:1 10H=1:1 JC=2:1 QS=2:1 KD=0:1 BOG=0:2"


def test_the_dealer_may_exchange_the_turned_up_card():
    state = GAME.replay_deal(THREE)
    assert GAME.to_act(state) == [0]
    assert {"type": "decline"} in GAME.legal_actions(state, 0)
    assert len(GAME.legal_actions(state, 0)) == 9
    refused(state, 1, {"type": "decline"}, "not_your_turn")
    refused(state, 0, {"type": "exchange", "card": "QS"}, "bog.not_in_hand")
    refused(state, 0, {"type": "bog", "chips": 3}, "not_now")
    state = act(state, "0: exchange 7D")
    assert "9D" in state["hands"][0] and "7D" not in state["hands"][0]
    view = GAME.view(state, 2)
    assert (view["turned"], view["discard"]) == ("9D", "7D")
    assert best_combination(state["hands"][0]) == {"kind": "double_bog", "ranks": ["K", "9"]}
    assert state["phase"] == "bog" and state["speaker"] == 1


def test_four_players_with_eight_cards_have_no_turned_up_card():
    state = GAME.new_state({"four_players": 8}, 4, 3)
    assert state["turned"] is None and state["stock"] == []
    assert GAME.to_act(state) == [(state["dealer"] + 1) % 4]


# --- phase 1 -------------------------------------------------------------------------------------------
def test_bogging_order_and_least_stake():
    state = act(GAME.replay_deal(THREE), "0: decline")
    assert GAME.to_act(state) == [1]
    assert GAME.view(state, 1)["min_stake"] == 3
    assert GAME.legal_actions(state, 1) == [
        {"type": "bog", "chips": 3}, {"type": "bog", "chips": 4}, {"type": "bog", "chips": 6},
        {"type": "bog", "chips": 28}, {"type": "out"}]
    error = refused(state, 1, {"type": "bog", "chips": 2}, "bog.stake_low")
    assert error.params == {"count": 3}
    refused(state, 1, {"type": "bog", "chips": 29}, "bog.stake_short")
    state = act(state, "1: bog 28")  # any stake up to the stack, not only the listed ones
    assert state["stakes"] == [0, 28, 0] and state["chips"][1] == 0
    state = act(state, "2: out")
    assert state["boxes"]["BOG"] == [2, 0, 2] and GAME.to_act(state) == [0]


def test_raise_option_each_bogger_beats_the_stake_before():
    state = GAME.replay_deal(with_options(THREE, "stake_rule=raise"))
    state = act(act(state, "0: decline"), "1: bog 5")
    assert GAME.view(state, 2)["min_stake"] == 6
    refused(state, 2, {"type": "bog", "chips": 5}, "bog.stake_low")
    state = act(state, "2: bog 6")
    assert GAME.legal_actions(state, 0)[0] == {"type": "bog", "chips": 7}


def test_showdown_best_combination_takes_bog_and_the_stakes():
    state = GAME.replay_deal(THREE_BOGGED)
    assert state["chips"] == [24, 36, 24]
    assert format_board(state["boxes"]) == "AH=0:1,1:1 10H=1:1 JC=2:1 QS=2:1 KD=0:1 BOG=-"
    shown = state["showdown"]["shown"]
    assert shown[0] is None  # he went out: he shows nothing
    assert shown[1] == {"kind": "trio", "ranks": ["Q"], "cards": ["QS", "QH", "QD"]}
    assert shown[2] == {"kind": "mitsi", "ranks": ["J", "8"], "cards": ["8H", "JC", "8C"]}
    assert state["showdown"]["winner"] == 1
    assert {"event": "bog_win", "seat": 1, "chips": 11} in state["events"]
    assert state["phase"] == "run" and state["run"]["leader"] == 1


def test_a_lone_bogger_wins_without_showing():
    state = replay(THREE, "0: decline", "1: out", "2: bog 3", "0: out")
    # BOG: dealer 2 + two goers 2 each = 6, plus his own stake back
    assert state["showdown"] == {"boggers": [2], "winner": 2, "shown": [None, None, None]}
    assert state["chips"][2] == 28 - 3 + 6 + 3


def test_nobody_bogs_bog_carries_over_and_everyone_runs():
    state = replay(THREE, "0: decline", "1: out", "2: out", "0: out")
    assert state["showdown"]["winner"] is None and sum(state["boxes"]["BOG"]) == 8
    assert state["run"]["players"] == [True, True, True]
    assert state["run"]["leader"] == 1  # no phase-1 winner: the player after the dealer


NO_PAIRS = """
players 3
dealer 0
chips 30 30 30
hand 0: AS 7S 8S 9S 10S JS QS KS
hand 1: AH 7H 8H 9H 10H JH QH KH
hand 2: AD 7D 8D 9D 10D JD QD KD
stock AC
"""


def test_boggers_without_combination_take_their_stakes_back():
    state = replay(NO_PAIRS, "0: decline", "1: bog 3", "2: bog 5", "0: out")
    assert state["showdown"]["winner"] is None
    assert state["showdown"]["shown"][1] == {"kind": "nothing", "ranks": [], "cards": []}
    assert state["chips"] == [24, 28, 28] and state["stakes"] == [0, 0, 0]
    assert state["boxes"]["BOG"] == [4, 0, 0]  # carries over
    assert state["run"]["leader"] == 1


def test_exact_tie_goes_to_the_first_after_the_dealer_in_either_direction():
    tie = """
players 3
dealer 0
chips 30 30 30
hand 0: AS 7S KH 9S 10S JS QS KS
hand 1: 8H 8D AH 7H 9H 10H JH QH
hand 2: 8C 8S AD 7D 9D 10D JD QD
stock AC
"""
    state = replay(tie, "0: decline", "1: bog 3", "2: bog 3", "0: out")
    assert state["showdown"]["winner"] == 1
    state = replay(with_options(tie, "direction=anticlockwise"), "0: decline", "2: bog 3", "1: bog 3", "0: out")
    assert state["showdown"]["winner"] == 2  # anticlockwise the player after the dealer is seat 2


def test_mitsi_beats_a_double_bog_at_the_table():
    record = THREE.replace("hand 1: QS QH QD 7C 8S 9S 10C AS", "hand 1: QS QH KD 7C 7S 9S 10C AS")
    record = record.replace("hand 2: JC 8H 8C 7S 9H 10D KC AD", "hand 2: JC 8H 8C QD 9H 10D KC AD")
    state = replay(record, "0: decline", "1: bog 3", "2: bog 3", "0: bog 3")
    kinds = [shown["kind"] for shown in state["showdown"]["shown"]]
    assert kinds == ["bog", "double_bog", "mitsi"] and state["showdown"]["winner"] == 2


# --- phase 2 -------------------------------------------------------------------------------------------
def test_the_run_forced_cards_dead_cards_kings_and_change_of_suit():
    state = GAME.replay_deal(THREE_BOGGED)
    assert GAME.legal_actions(state, 1) == [{"type": "play", "card": c} for c in state["hands"][1]]
    state = act(state, THREE_RUN[0])
    assert GAME.to_act(state) == [2] and GAME.view(state, 2)["legal"] == [{"type": "play", "card": "7S"}]
    assert GAME.view(state, None)["run"]["expected"] == "7S"
    refused(state, 2, {"type": "play", "card": "9H"}, "bog.must_play")
    refused(state, 2, {"type": "play", "card": "QS"}, "bog.not_in_hand")
    refused(state, 0, {"type": "play", "card": "10S"}, "not_your_turn")
    for line in THREE_RUN[1:5]:
        state = act(state, line)
    assert GAME.to_act(state) == [0] and GAME.legal_actions(state, 0) == [{"type": "play", "card": "KS"}]
    state = act(state, "0: play KS")
    assert len(GAME.legal_actions(state, 0)) == 6  # the king's player leads anything
    state = act(act(state, "0: play 7D"), "0: play 8D")
    assert [a["card"] for a in GAME.legal_actions(state, 0)] == ["KH", "JH", "9C", "AC"]
    view = GAME.view(state, 1)["run"]
    assert view["suits"] == {"S": ["AS", "7S", "8S", "9S", "10S", "KS"], "H": [], "C": [], "D": ["7D", "8D"]}
    assert view["last"] == [0, "8D"] and view["expected"] == "9D"


def test_all_void_option_passes_the_suit_to_the_next_holder():
    state = GAME.replay_deal(with_options(THREE_BOGGED, "change_suit=all_void"))
    for line in THREE_RUN[:8]:
        state = act(state, line)
    # seat 0 has no diamond left but seat 1 holds Q♦: he must play a diamond
    assert GAME.to_act(state) == [1] and GAME.legal_actions(state, 1) == [{"type": "play", "card": "QD"}]


def test_a_whole_deal_settles_the_first_out_and_unplayed_board_cards():
    state = replay(THREE_BOGGED, *THREE_RUN)
    last = state["last_deal"]
    # J♣ collected in the run (+1 for seat 2); seat 0 pays 2 (K♥ J♥ left), seat 1 pays 3
    # (Q♠ Q♥ Q♦); seat 1 kept Q♠: he pays its box as much as it holds (1), doubling it.
    assert last["run_winner"] == 2 and last["bog_winner"] == 1
    assert last["cards_left"] == [2, 3, 0]
    assert last["net"] == [-8, 2, 0]
    assert {"event": "pay", "seat": 0, "to": 2, "cards": 2, "chips": 2} in last["events"]
    assert {"event": "penalty", "seat": 1, "box": "QS", "chips": 1, "to": None} in last["events"]
    assert {"event": "collect", "seat": 2, "box": "JC", "chips": 1} in last["events"]
    # the next deal has started: dealer 1, antes from 10♥ (cursor 1)
    assert state["deal"] == 2 and state["dealer"] == 1 and state["deal_start"]["chips"] == [22, 32, 30]
    assert format_board(state["deal_start"]["boxes"]) == "AH=0:1,1:1 10H=1:1 JC=- QS=1:1,2:1 KD=0:1 BOG=-"
    assert state["deal_start"]["cursor"] == 1
    assert total_chips(state) == 90


LONG_SUIT = """
players 3
dealer 0
chips 30 30 30
board AH=- 10H=- JC=- QS=- KD=2:5 BOG=-
hand 0: JC QS 7S 8S 9S 10S JS KS
hand 1: AH 7H 8H 9H 10H JH QH KH
hand 2: KD QD JD 10D 9D 8D 7D AD
stock AS
0: decline
1: bog 3
2: out
0: out
"""
HEARTS = [f"1: play {rank}H" for rank in ("A", "7", "8", "9", "10", "J", "Q", "K")]


def test_board_cards_played_collect_their_box_and_penalties_double_boxes():
    state = replay(LONG_SUIT, *HEARTS[:1])
    assert state["boxes"]["AH"] == [0, 0, 0] and state["chips"][1] == 28 - 3 + 9 + 2
    state = replay(LONG_SUIT, *HEARTS)
    # seat 1: 28 - 3 + 9 (lone bogger) + 2 (A♥) + 1 (10♥) + 8 + 8 = 53; seat 0: 30 - 4 - 2 - 8 - 1 (J♣)
    # - 1 (Q♠) = 14; seat 2: 30 - 2 - 2 - 8 - 6 (K♦ held 6) = 12
    assert state["deal_start"]["chips"] == [14, 53, 12]
    assert format_board(state["deal_start"]["boxes"]) == "AH=- 10H=- JC=0:1,2:1 QS=0:1,2:1 KD=0:1,2:11 BOG=-"


def test_penalty_to_the_stakers_option():
    state = replay(with_options(LONG_SUIT, "penalty=stakers"), *HEARTS)
    # J♣ and Q♠ were anted by seat 2 this deal: he gets seat 0's 1 + 1; K♦ by the dealer: he
    # gets seat 2's 6. The boxes keep their chips.
    assert state["deal_start"]["chips"] == [20, 53, 14]
    assert format_board(state["deal_start"]["boxes"]) == "AH=- 10H=- JC=2:1 QS=2:1 KD=0:1,2:5 BOG=-"
    penalty = [e for e in state["last_deal"]["events"] if e["event"] == "penalty"]
    assert penalty[-1] == {"event": "penalty", "seat": 2, "box": "KD", "chips": 6, "to": [0]}


def test_first_out_collects_what_the_others_have():
    record = LONG_SUIT.replace("chips 30 30 30", "chips 30 30 9")
    state = replay(record, *HEARTS)
    # seat 2: 9 - 2 (ante) - 2 (out) = 5 < 8 cards: he pays 5 and has nothing for K♦
    assert state["last_deal"]["events"][-2:] == [
        {"event": "penalty", "seat": 2, "box": "KD", "chips": 0, "to": None}, {"event": "leave", "seat": 2}]
    assert state["active"] == [True, True, False] and state["hands"][2] == []


def test_only_boggers_play_the_run_option():
    state = replay(with_options(THREE, "run_players=boggers"), "0: decline", "1: bog 3", "2: out", "0: bog 3")
    assert state["run"]["players"] == [True, True, False]
    assert GAME.view(state, 0)["run"]["players"] == [True, True, False]
    state = act(state, "1: play AS")  # 7♠ is in seat 2's hand, but he is not in the run: dead
    assert GAME.to_act(state) == [1]
    # nobody bogs: no run, the next deal starts at once with BOG carried over
    state = replay(with_options(THREE, "run_players=boggers"), "0: decline", "1: out", "2: out", "0: out")
    assert state["deal"] == 2 and state["last_deal"]["run_winner"] is None
    assert state["deal_start"]["boxes"]["BOG"] == [4, 2, 2]


def test_boggers_only_run_spares_the_goers_payments():
    state = replay(with_options(LONG_SUIT, "run_players=boggers"), *HEARTS)
    # the lone bogger runs alone: no one pays him per card, nobody pays for unplayed board cards
    assert state["last_deal"]["cards_left"] == [None, 0, None]
    assert state["deal_start"]["chips"] == [24, 37, 26]


def test_leader_option_after_the_dealer():
    record = THREE_BOGGED.replace("dealer 0", "dealer 2").replace("0: decline\n1: bog 3\n2: bog 4\n0: out\n",
                                                                  "2: decline\n0: out\n1: bog 3\n2: bog 4\n")
    assert GAME.replay_deal(record)["run"]["leader"] == 1
    assert GAME.replay_deal(with_options(record, "leader=after_dealer"))["run"]["leader"] == 0


def test_direction_anticlockwise_turn_order():
    state = GAME.replay_deal(with_options(THREE, "direction=anticlockwise"))
    # anticlockwise from dealer 0: 2, 1, 0; antes from A♥: seat 2 A♥ 10♥, seat 1 J♣ Q♠
    assert format_board(state["boxes"]) == "AH=0:1,2:1 10H=2:1 JC=1:1 QS=1:1 KD=0:1 BOG=0:2"
    state = act(state, "0: decline")
    assert GAME.to_act(state) == [2] and GAME.view(state, None)["order"] == [2, 1, 0]


# --- leaving and the end of the game ----------------------------------------------------------------------
def test_a_player_without_chips_leaves_and_the_table_plays_on():
    record = LONG_SUIT.replace("chips 30 30 30", "chips 30 30 9")
    state = replay(record, *HEARTS)
    assert state["phase"] != "over" and state["deal"] == 2
    assert state["dealer"] == 1 and GAME.view(state, None)["order"] == [0, 1]
    assert [len(hand) for hand in state["hands"]] == [8, 8, 0] and state["size"] == 32


def test_game_ends_when_two_survive_with_that_option():
    record = with_options(LONG_SUIT, "survivors=2").replace("chips 30 30 30", "chips 30 30 9")
    state = replay(record, *HEARTS)
    # seat 2 could pay only 5 of his 8 cards: seat 1 has 53 - 3 = 50
    assert state["result"] == {"winners": [1], "chips": [14, 50, 0], "reason": "broke", "deals": 1}
    assert GAME.to_act(state) == [] and GAME.view(state, 0)["hand"] == []


def test_game_ends_after_the_agreed_number_of_deals():
    state = replay(with_options(LONG_SUIT, "deals=1"), *HEARTS)
    assert state["result"]["reason"] == "deals" and state["result"]["winners"] == [1]
    refused(state, 1, {"type": "play", "card": "AH"}, "game_over")
    refused(state, 0, {"type": "decline"}, "game_over")


def test_games_end_by_themselves():
    for seed, seats in enumerate(range(3, 11)):
        state = play_randomly(GAME.new_state({"deals": 2}, seats, seed), seed)
        assert state["result"]["deals"] == 2 or state["result"]["reason"] == "broke"


# --- notation ------------------------------------------------------------------------------------------------
def test_actions_in_notation_both_ways():
    for action in ({"type": "exchange", "card": "10H"}, {"type": "decline"}, {"type": "bog", "chips": 12},
                   {"type": "out"}, {"type": "play", "card": "QS"}):
        assert GAME.parse_action(GAME.action_text(action)) == action
    assert GAME.action_text({"type": "bog", "chips": 3}) == "bog 3"
    for text in ("", "bog", "bog three", "bog -3", "play", "play 1H", "play qs", "out now", "dudo", None, 5,
                 "bog 99999999999"):
        with pytest.raises(IllegalAction) as caught:
            GAME.parse_action(text)
        assert caught.value.code == "bog.notation"


def test_board_notation_both_ways():
    boxes = parse_board("BOG=0:2 AH=0:1,2:1 10H=- JC=1:2 QS=- KD=-", 3)
    assert list(boxes) == ["AH", "10H", "JC", "QS", "KD", "BOG"] and boxes["AH"] == [1, 0, 1]
    assert format_board(boxes) == "AH=0:1,2:1 10H=- JC=1:2 QS=- KD=- BOG=0:2"
    assert list(parse_board("AD=- 10H=- JC=- QS=- KD=- BOG=-", 3, "AD")) == ["AD", "10H", "JC", "QS", "KD", "BOG"]
    for bad in ("AH=- 10H=-", "AH=0:1 AH=- 10H=- JC=- QS=- KD=- BOG=-", "AH=5:1 10H=- JC=- QS=- KD=- BOG=-",
                "AH=0:x 10H=- JC=- QS=- KD=- BOG=-", "AH 10H=- JC=- QS=- KD=- BOG=-", "AD=- 10H=- JC=- QS=- KD=- BOG=-",
                "AH=0:1,0:2 10H=- JC=- QS=- KD=- BOG=-", None):
        with pytest.raises(TabernaError) as caught:
            parse_board(bad, 3)
        assert caught.value.code == "bog.bad_record"


def test_deal_record_rebuilds_the_state_at_any_point():
    checked = 0
    for seed in range(12):
        options = [{}, {"direction": "anticlockwise", "antes": "every_box"}, {"four_players": 7, "board_ace": "AD"},
                   {"change_suit": "all_void", "run_players": "boggers", "penalty": "stakers"}][seed % 4]
        seats = 4 if "four_players" in options else 3 + seed % 8
        state = GAME.new_state(options, seats, seed)
        chooser = Rng(seed)
        for step in range(150):
            if GAME.is_over(state):
                break
            if step % 4 == 0:
                rebuilt = GAME.replay_deal(GAME.format_deal(state))
                past = ("last_deal", "earlier_deals")  # earlier deals are not this deal's record
                assert {k: v for k, v in rebuilt.items() if k not in past} == \
                       {k: v for k, v in state.items() if k not in past}
                checked += 1
            state = random_step(state, chooser)
    assert checked > 300


def test_deal_record_refusals_name_the_line():
    cases = [
        ("players 3\ndealer 0\n", "no chips line"),
        (THREE.replace("players 3", "players 2"), "3 to 10"),
        (THREE + "frobnicate 3\n", "line 9: unknown line"),
        (THREE.replace("hand 0: KS KH 9C 8D 7D AC 10S JH", "hand 0: KS KH 9C 8D 7D AC 10S"), "must be dealt 8"),
        (THREE.replace("stock 9D", "stock KS"), "dealt twice"),
        (THREE + "1: bog three\n", "line 9: Cannot read"),
        (with_options(THREE, "colour=red"), "unknown option"),
        (THREE.replace("dealer 0", "dealer 7"), "dealer"),
        (THREE.replace("hand 2: JC 8H 8C 7S 9H 10D KC AD\n", ""), "one hand line per seat"),
    ]
    for text, reason in cases:
        with pytest.raises(TabernaError, match=reason):
            GAME.replay_deal(text)
    with pytest.raises(TabernaError) as caught:
        GAME.parse_deal(THREE + "frobnicate 3\n")
    assert caught.value.code == "bog.bad_record" and caught.value.params == {"line": 9}
    with pytest.raises(IllegalAction):  # a record's actions go through the rules
        GAME.replay_deal(THREE + "1: bog 3\n")


def test_pure_functions_are_importable_from_the_package():
    for name in ("deal_plan", "best_combination", "compare", "phase1_winner", "next_in_suit", "phase2_turn"):
        assert getattr(bog_package, name) is getattr(combos, name)


def test_every_reason_code_has_an_english_message():
    package = Path(bog_package.__file__).parent
    source = "".join((package / name).read_text() for name in ("rules.py", "unseen.py", "combos.py"))
    codes = set(re.findall(r'"(bog\.[a-z_]+)"', source))
    catalog = read_po(package / "i18n" / "bog_rules.en.po")
    assert codes and {f"err.{code}" for code in codes} <= set(catalog)
    assert all(key[4:] in codes for key in catalog)


# --- views ------------------------------------------------------------------------------------------------------
def test_view_fields():
    state = GAME.replay_deal(THREE_BOGGED + "1: play AS\n")
    view = GAME.view(state, 2)
    assert view["hand"] == state["hands"][2] and view["counts"] == [8, 7, 8]
    assert view["board"][0] == {"box": "AH", "chips": 2, "by": [1, 1, 0]}
    assert view["board"][-1] == {"box": "BOG", "chips": 0, "by": [0, 0, 0]}
    assert view["calls"] == ["out", "bog", "bog"] and view["to_act"] == [2]
    assert view["stock"] == 7 and view["turned"] == "9D" and view["discard"] is None
    assert view["run"]["played"] == [[1, "AS"]] and view["run"]["expected"] == "7S"
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None and spectator["legal"] == [] and spectator["you"] is None
    spectator["run"]["expected"] = None  # the card after the last one played: public, and held by seat 2
    text = canonical(spectator)
    assert "rng" not in text and "seed" not in text
    for seat in range(3):  # no hidden card of anyone in the spectator's view (box names aside)
        for card in state["hands"][seat]:
            shown = state["showdown"]["shown"][seat]
            if card not in combos_board() and not (shown and card in shown["cards"]):
                assert f'"{card}"' not in text
    for bad in (3, -1, True, "0"):
        with pytest.raises(IllegalAction):
            GAME.view(state, bad)


def combos_board():
    return {"AH", "10H", "JC", "QS", "KD", "AD"}


# --- resample: what a seat cannot see ---------------------------------------------------------------------------
def seen_by(state, seat):
    return canonical(GAME.view(state, seat))


def test_resample_keeps_what_the_seat_saw_in_a_known_run():
    state = replay(THREE_BOGGED, *THREE_RUN[:9])  # up to 0: play AC (after J♠ and 9♦ were dead)
    for seed in range(60):
        for seat in (None, 1, 2):
            other = GAME.resample(state, seat, Rng(seed))
            assert seen_by(other, seat) == seen_by(state, seat)
            held = [c for s in range(3) for c in other["hands"][s]]
            assert "JS" not in held and "9D" not in held  # dead: nobody held them when asked
            assert not any(c.endswith("D") for c in other["hands"][0])  # he changed suit: void
            assert {"QS", "QH", "QD"} <= set(other["hands"][1])  # shown and not played yet
            assert best_combination(other["hands"][1] + ["AS", "8S", "9S"]) == {"kind": "trio", "ranks": ["Q"]}
            assert "7C" in other["hands"][1]  # seat 1 is to play: he holds the 7♣ the run asks for


def assert_showdown_still_true(state, other):
    """Each bogger who showed held, at the showdown, exactly the best combination he showed."""
    played = other["run"]["played"] if other["run"] else []
    for seat, shown in enumerate(other["showdown"]["shown"] if other["showdown"] else []):
        if shown:
            then = other["hands"][seat] + [card for s, card in played if s == seat]
            if other["discard"] is not None and seat == other["dealer"]:
                assert other["turned"] in then
            assert best_combination(then) == {"kind": shown["kind"], "ranks": shown["ranks"]}


def test_resample_keeps_each_shown_combination_the_best():
    # seat 0 shows a pair of kings against seat 1's trio; J♣ is hidden in seat 2's hand, so
    # seat 1 cannot tell where it is, except that seat 0 cannot hold it (it would be a mitsi)
    state = replay(THREE, "0: decline", "1: bog 3", "2: out", "0: bog 3")
    places = set()
    for seed in range(80):
        other = GAME.resample(state, 1, Rng(seed))
        assert "JC" not in other["hands"][0]
        assert_showdown_still_true(state, other)
        places.add("JC" in other["stock"])
    assert places == {True, False}


def test_resample_all_void_keeps_the_passed_over_players_void():
    state = GAME.replay_deal(with_options(THREE_BOGGED, "change_suit=all_void"))
    for line in THREE_RUN[:8]:
        state = act(state, line)
    for seed in range(40):
        other = GAME.resample(state, 2, Rng(seed))
        assert seen_by(other, 2) == seen_by(state, 2)
        assert not any(c.endswith("D") for c in other["hands"][0])
        assert any(c.endswith("D") for c in other["hands"][1])


def test_resample_moves_the_hidden_cards_and_only_them():
    state = GAME.replay_deal(THREE)
    hands = set()
    for seed in range(30):
        other = GAME.resample(state, 1, Rng(seed))
        assert other["hands"][1] == state["hands"][1] and other["turned"] == "9D"
        assert sorted(other["hands"][0] + other["hands"][2] + other["stock"]) == \
               sorted(state["hands"][0] + state["hands"][2] + state["stock"])
        assert other["rng"] != state["rng"]  # the future shuffles are hidden too
        hands.add(tuple(other["hands"][0]))
    assert len(hands) > 20
    assert GAME.resample(state, 1, Rng(5)) == GAME.resample(state, 1, Rng(5))
    exchanged = act(state, "0: exchange 7D")
    for seed in range(20):
        other = GAME.resample(exchanged, 2, Rng(seed))
        assert "9D" in other["hands"][0] and "7D" not in other["hands"][0] + other["stock"]


# --- the contract, on the class directly, over random play ------------------------------------------------------
OPTION_SETS = [
    {},
    {"change_suit": "all_void", "direction": "anticlockwise"},
    {"antes": "every_box", "stake_rule": "raise", "penalty": "stakers"},
    {"run_players": "boggers", "leader": "after_dealer", "board_ace": "AD"},
    {"survivors": 2, "start_chips": 12, "four_players": 7},
    {"four_players": 8, "change_suit": "all_void", "run_players": "boggers", "penalty": "stakers"},
]


def random_step(state, chooser):
    seat = GAME.to_act(state)[0]
    actions = GAME.legal_actions(state, seat)
    return GAME.apply(state, seat, actions[chooser.below(len(actions))])


def play_randomly(state, seed):
    chooser = Rng(seed + 500)
    while not GAME.is_over(state):
        state = random_step(state, chooser)
    return state


JUNK = [None, "bog 3", {"type": "__nope__"}, {"type": "bog", "chips": True}, {"type": "bog", "chips": "3"},
        {"type": "bog", "chips": 10**12}, {"type": "play", "card": 7}, {"type": "play", "card": "ZZ" * 30},
        {"type": "play"}, {"type": "out", "extra": 1}, {"type": "exchange", "card": None}, {"type": "decline", "x": []}]


@pytest.mark.parametrize("option_set", range(len(OPTION_SETS)))
def test_random_games_keep_the_contract(option_set):
    options = OPTION_SETS[option_set]
    moved = kept = 0
    for game_number in range(3):
        seats = 4 if "four_players" in options else 3 + (option_set * 3 + game_number * 5) % 8
        seed = option_set * 100 + game_number
        state = GAME.new_state(options, seats, seed)
        start = canonical(state)
        chooser, log = Rng(seed + 1), []
        bank = seats * state["options"]["start_chips"]
        while not GAME.is_over(state):
            assert len(log) < 4000, "game did not end"
            seat = GAME.to_act(state)[0]
            actions = GAME.legal_actions(state, seat)
            assert actions and all(GAME.parse_action(GAME.action_text(a)) == a for a in actions)
            for idle in range(seats):
                if idle != seat:
                    assert GAME.legal_actions(state, idle) == []
            if len(log) % 6 == 0:
                before = canonical(state)
                for junk in JUNK + [actions[0]]:
                    with pytest.raises(IllegalAction):
                        GAME.apply(state, seat if junk is not actions[0] else (seat + 1) % seats, junk)
                with pytest.raises(IllegalAction):
                    GAME.apply(state, seats + 2, actions[0])
                assert canonical(state) == before
                for viewer in (None, *range(seats)):
                    view = GAME.view(state, viewer)
                    assert json.loads(canonical(view)) == view
                    other = GAME.resample(state, viewer, Rng(len(log)))
                    assert canonical(GAME.view(other, viewer)) == canonical(view)
                    assert_showdown_still_true(state, other)
                    for s in range(seats):
                        if s != viewer and state["hands"][s]:
                            if other["hands"][s] == state["hands"][s]:
                                kept += 1
                            else:
                                moved += 1
            action = actions[chooser.below(len(actions))]
            before = canonical(state)
            new_state = GAME.apply(state, seat, action)
            assert canonical(state) == before, "apply mutated its input"
            assert json.loads(canonical(new_state)) == new_state
            assert total_chips(new_state) == bank, "chips created or lost"
            assert all(c >= 0 for c in new_state["chips"])
            if new_state["phase"] != "over":  # everyone still in starts a deal with chips
                assert all(new_state["deal_start"]["chips"][s] > 0 for s in range(seats) if new_state["active"][s])
            state = new_state
            log.append((seat, action))
        result = GAME.result(state)
        assert result["winners"] and result["chips"] == state["chips"]
        assert sum(state["active"]) <= state["options"]["survivors"] or result["reason"] == "deals"
        for seat, action in log[-3:]:
            with pytest.raises(IllegalAction):
                GAME.apply(state, seat, action)
        replayed = GAME.new_state(options, seats, seed)
        assert canonical(replayed) == start
        for seat, action in log:
            replayed = GAME.apply(replayed, seat, json.loads(json.dumps(action)))
        assert canonical(replayed) == canonical(state), "replay diverged"
    assert moved > kept  # other hands do change


def test_chips_are_conserved_in_many_short_random_games():
    for seed in range(40):
        options = dict(OPTION_SETS[seed % len(OPTION_SETS)])
        seats = 4 if "four_players" in options else 3 + seed % 8
        options["deals"] = 4
        state = GAME.new_state(options, seats, seed)
        bank = seats * state["options"]["start_chips"]
        chooser = Rng(seed)
        while not GAME.is_over(state):
            state = random_step(state, chooser)
            assert total_chips(state) == bank
            if state["phase"] != "over":  # everyone still in holds cards until the deal ends
                assert all(state["hands"][s] for s in range(seats) if state["active"][s])
        assert state["result"]["deals"] <= 4
