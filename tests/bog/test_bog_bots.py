"""Bog bots: they play only what the view lists, see only the view, and play sensibly.

Positions are deal records (``Bog.format_deal``); ``record`` fills the hands a test does
not care about from the rest of the deck, in deck order.
"""

import json

import pytest

from pyengine.core.rng import Rng, derive_seed
from pyengine.games.bog.bot import BOTS, LEVELS, PlannedRun, choose_action, greedy_card
from pyengine.games.bog.combos import SHORT_RANKS, SUITS, best_combination, next_in_suit
from pyengine.games.bog.rules import Bog

GAME = Bog()
DECK_32 = [rank + suit for suit in SUITS for rank in SHORT_RANKS]
SEEDS = range(6)

# Every option away from its default at least once, over 3 to 10 players (32 and 52 cards).
TABLES = [
    (3, {}),
    (4, {"antes": "every_box", "stake_rule": "raise", "direction": "anticlockwise"}),
    (4, {"four_players": 8, "leader": "after_dealer"}),  # no stock: no turned-up card
    (5, {"leader": "after_dealer", "change_suit": "all_void", "penalty": "stakers"}),
    (6, {"run_players": "boggers", "board_ace": "AD", "start_chips": 8}),
    (7, {"four_players": 7, "survivors": 2, "stake_rule": "raise"}),
    (8, {"change_suit": "all_void", "direction": "anticlockwise", "antes": "every_box"}),
    (9, {"penalty": "stakers", "run_players": "boggers", "start_chips": 6}),
    (10, {}),
]


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def record(hands: dict, turned: str, actions=(), players: int = 4, dealer: int = 0, each: int = 6) -> str:
    """A 32-card deal's record: the given hands, the others filled in deck order."""
    left = [card for card in DECK_32 if card != turned and not any(card in hand for hand in hands.values())]
    lines = [f"players {players}", f"dealer {dealer}", "chips " + " ".join(["30"] * players)]
    for seat in range(players):
        hand = hands.get(seat) or [left.pop(0) for _ in range(each)]
        lines.append(f"hand {seat}: {' '.join(hand)}")
    lines.append(f"stock {turned} {' '.join(left)}")
    lines += [f"{seat}: {action}" for seat, action in actions]
    return "\n".join(lines) + "\n"


def bot_move(state: dict, level: str, seed: int) -> dict:
    seat = GAME.to_act(state)[0]
    return BOTS[level](GAME.view(state, seat), seed)


def test_every_level_of_the_rules_has_a_bot():
    assert tuple(BOTS) == tuple(LEVELS) == Bog.bot_levels


@pytest.mark.parametrize(("seats", "options"), TABLES)
def test_bots_play_only_listed_actions_through_whole_deals(seats, options):
    """Bots of the three levels round the table, two deals: every action they pick is one
    the view lists, and the engine takes it."""
    state = GAME.new_state({**options, "deals": 2}, seats, derive_seed("bog bots", seats))
    phases = set()
    for ply in range(2000):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        action = BOTS[Bog.bot_levels[seat % 3]](view, ply)
        assert action in view["legal"], (view["phase"], action)
        phases.add(view["phase"])
        state = GAME.apply(state, seat, action)
    assert GAME.is_over(state)
    assert {"bog", "run"} <= phases
    assert ("exchange" in phases) == (options.get("four_players") != 8)


def test_bots_see_only_the_view():
    """A state redrawn for the bot's seat (other hands, stock, Rng) looks the same to it,
    so the bot answers the same; and it leaves the view as it found it."""
    for seats, options in TABLES[::2]:
        state = GAME.new_state(options, seats, 11)
        chooser = Rng(seats)
        for ply in range(80):
            if GAME.is_over(state):
                break
            seat = GAME.to_act(state)[0]
            view = GAME.view(state, seat)
            other = GAME.resample(state, seat, Rng(ply))
            assert canonical(GAME.view(other, seat)) == canonical(view)
            level = Bog.bot_levels[ply % 3]
            before = canonical(view)
            assert BOTS[level](view, ply) == BOTS[level](GAME.view(other, seat), ply)
            assert canonical(view) == before
            actions = GAME.legal_actions(state, seat)
            state = GAME.apply(state, seat, actions[chooser.below(len(actions))])


def test_state_from_view_gives_back_the_view():
    """The state a bot rebuilds from its view shows it exactly that view, and keeps the
    chips at the deal's start and the deck size of the real state."""
    for seats, options in TABLES:
        state = GAME.new_state(options, seats, 5)
        chooser = Rng(seats + 100)
        for ply in range(120):
            if GAME.is_over(state):
                break
            seat = GAME.to_act(state)[0]
            view = GAME.view(state, seat)
            rebuilt = GAME.state_from_view(view, Rng(ply))
            assert canonical(GAME.view(rebuilt, seat)) == canonical(view)
            assert rebuilt["deal_start"]["chips"] == state["deal_start"]["chips"]
            assert rebuilt["size"] == state["size"]
            if state["deal"] == 1:  # the rotation starts on A♥: the antes are known exactly
                assert rebuilt["antes"] == state["antes"]
            actions = GAME.legal_actions(state, seat)
            state = GAME.apply(state, seat, actions[chooser.below(len(actions))])


def test_state_from_view_refuses_a_view_without_a_deal():
    state = GAME.new_state({}, 4, 1)
    with pytest.raises(ValueError):
        GAME.state_from_view(GAME.view(state, None), Rng(1))


def test_a_bot_refuses_to_move_out_of_turn():
    state = GAME.new_state({}, 4, 1)
    idle = next(s for s in range(4) if s not in GAME.to_act(state))
    with pytest.raises(ValueError):
        BOTS["hard"](GAME.view(state, idle), 1)
    with pytest.raises(ValueError):
        choose_action(GAME.view(state, GAME.to_act(state)[0]), "nightmare", 1)


# --- phase 1 ------------------------------------------------------------------------------------
def test_hard_bogs_a_poker_of_aces_for_the_least_stake():
    """Four aces (the lowest rank, still above any trio), first to speak, 3 chips to stay."""
    text = record({1: ["AH", "AD", "AC", "AS", "7H", "8D"]}, "9C", [(0, "decline")])
    state = GAME.replay_deal(text)
    for seed in SEEDS:
        assert bot_move(state, "hard", seed) == {"type": "bog", "chips": 3}


@pytest.mark.parametrize("level", Bog.bot_levels)
def test_the_dealer_bogs_alone_when_everybody_went_out(level):
    """Nobody bogged: the dealer, last to speak, wins BOG without showing, whatever he holds."""
    text = record({0: ["7H", "8D", "9C", "10S", "JH", "QD"]}, "KC",
                  [(0, "decline"), (1, "out"), (2, "out"), (3, "out")])
    state = GAME.replay_deal(text)
    for seed in SEEDS:
        assert bot_move(state, level, seed)["type"] == "bog"


def test_hard_goes_out_with_nothing_after_two_boggers():
    text = record({3: ["7H", "8D", "9C", "10S", "JH", "QD"]}, "KC", [(0, "decline"), (1, "bog 3"), (2, "bog 3")])
    state = GAME.replay_deal(text)
    assert best_combination(state["hands"][3])["kind"] == "nothing"
    for seed in SEEDS:
        assert bot_move(state, "hard", seed) == {"type": "out"}


@pytest.mark.parametrize("level", Bog.bot_levels)
def test_the_dealer_takes_the_turned_card_that_makes_a_trio(level):
    """The others speak before the dealer, so his exchange weighs their likely calls (a
    dealer who thought he would bog alone would see no difference between the hands)."""
    text = record({0: ["KH", "KD", "7C", "8S", "9H", "10D"]}, "KS")
    state = GAME.replay_deal(text)
    for seed in SEEDS:
        action = bot_move(state, level, seed)
        assert action["type"] == "exchange" and action["card"][0] != "K"


# --- phase 2 ------------------------------------------------------------------------------------
def test_a_forced_card_is_played():
    """After 7♠ the 8♠ must come: its holder has one legal action and every level plays it."""
    text = record({1: ["7S", "AH", "AD", "QH", "QD", "9C"], 2: ["8S", "KH", "KD", "JD", "10C", "JH"]}, "7C",
                  [(0, "decline"), (1, "bog 3"), (2, "out"), (3, "out"), (0, "out"), (1, "play 7S")])
    state = GAME.replay_deal(text)
    assert GAME.to_act(state) == [2]
    for level in Bog.bot_levels:
        assert bot_move(state, level, 1) == {"type": "play", "card": "8S"}


def test_greedy_rule_takes_a_board_card_with_chips_then_the_longest_stretch():
    successors = {card: next_in_suit(card) for card in DECK_32}
    hand = ["QS", "7H", "8H", "9H", "10D"]
    assert greedy_card(["QS", "7H", "10D"], hand, {"QS": 4}, successors) == "QS"
    assert greedy_card(["QS", "7H", "10D"], hand, {"QS": 0}, successors) == "7H"


@pytest.mark.parametrize(("seats", "options"), TABLES)
def test_hard_roll_out_follows_the_rules_of_the_run(seats, options):
    """Hard's own run simulator (``PlannedRun``, no rule checks, seat order) gives the player,
    the legal cards and the winner that the engine gives, at every point of whole runs."""
    state = GAME.new_state({**options, "deals": 2}, seats, derive_seed("planned run", seats))
    checked = 0
    for ply in range(2000):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        if state["phase"] == "run":
            planned = PlannedRun(state, state["run"], state["hands"], seat)
            player, legal, winner = planned._turn()
            turn = GAME.run_turn(state)
            assert (player, sorted(legal), winner) == (turn["player"], sorted(turn["legal"]), turn["winner"])
            checked += 1
        state = GAME.apply(state, seat, BOTS["easy"](GAME.view(state, seat), ply))
    assert checked > 10
