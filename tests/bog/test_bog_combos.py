"""Bog's pure rules (shared/rules/bog.md), written in French card notation.

Hands are written as one string, ``"JC 8H 8D"``; cases quote the digest line they come from.
"""

import itertools
import random

import pytest

from pyengine.core.errors import TabernaError
from pyengine.games.bog.combos import (
    KINDS, RANKS, SHORT_RANKS, SUITS, best_combination, compare, deal_plan, next_in_suit,
    phase1_winner, phase2_turn,
)


def cards(text):
    return text.split()


def deck(size):
    return [rank + suit for suit in SUITS for rank in (SHORT_RANKS if size == 32 else RANKS)]


# --- deal_plan --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "players, plan",
    [
        # The digest's table; 4 players: "[res] Deal 6 cards each with 4 players, leaving 8."
        (3, (32, 8, 8)), (4, (32, 6, 8)), (5, (32, 6, 2)), (6, (32, 5, 2)),
        (7, (52, 7, 3)), (8, (52, 6, 4)), (9, (52, 5, 7)), (10, (52, 5, 2)),
    ],
)
def test_deal_plan_table(players, plan):
    assert deal_plan(players) == plan
    size, each, stock = plan
    assert each * players + stock == size


def test_four_players_option():
    # "Deal: 4 players get 6 cards each (stock 8); option 7 or 8."
    assert deal_plan(4, four_players=7) == (32, 7, 4)
    assert deal_plan(4, four_players=8) == (32, 8, 0)
    assert deal_plan(5, four_players=8) == (32, 6, 2)  # the option concerns 4 players only


@pytest.mark.parametrize("args, reason", [((2,), "3 to 10 players"), ((11,), "3 to 10 players"),
                                          ((True,), "3 to 10"), (("4",), "3 to 10"),
                                          ((4, 5), "6, 7 or 8"), ((4, 9), "6, 7 or 8")])
def test_deal_plan_refusals(args, reason):
    with pytest.raises(TabernaError, match=reason):
        deal_plan(*args)


# --- best_combination -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand, kind, ranks",
    [
        ("AH 7C 8D 9S KH", "nothing", []),
        ("JC KH", "nothing", []),  # J♣ alone is nothing
        ("8H 8D KC", "bog", ["8"]),  # "bog: a pair"
        ("AH AD 7C", "bog", ["A"]),
        ("8H 8D KC KS", "double_bog", ["K", "8"]),  # "double bog [higher, lower]"
        ("8H 8D KC KS QH QD", "double_bog", ["K", "Q"]),  # three pairs: the two highest
        ("10H 10D 9S 9C", "double_bog", ["10", "9"]),
        ("JH JD 8S 8D", "double_bog", ["J", "8"]),  # jacks without J♣
        # "Mitsi is J♣ plus a pair of two other cards"
        ("JC 8H 8D", "mitsi", ["J", "8"]),
        ("JC 8H 8D KC KS", "mitsi", ["J", "K"]),  # "a mitsi even when the hand also has a second pair"
        ("JC JH 8S 8D", "mitsi", ["J", "8"]),  # J♣ + the 8s beats the double bog J-8
        ("JC JH 9S", "bog", ["J"]),  # "J♣ in a pair (J♣ J♥) is a plain bog"
        ("JC JH JD", "trio", ["J"]),  # "J♣ with two other jacks is a trio (beats any mitsi)"
        ("JC 8H 8D 8S", "trio", ["8"]),
        ("7H 7D 7S", "trio", ["7"]),  # "trío: three of a kind"
        ("QH QD QS 8H 8D", "trio", ["Q"]),  # a full house shows its trio
        ("7H 7D 7S KH KD KS", "trio", ["K"]),
        ("7H 7D 7S 7C", "poker", ["7"]),  # "cuadrado/poker: four of a kind"
        ("JC JH JD JS", "poker", ["J"]),
        ("QH QD QS QC 8H 8D 8S 8C", "poker", ["Q"]),
        ("2H 2D", "bog", ["2"]),  # 52 cards
        ("AH AD 2C 2S", "double_bog", ["2", "A"]),  # "The ace is the lowest card"
        ("", "nothing", []),
    ],
)
def test_best_combination_table(hand, kind, ranks):
    assert best_combination(cards(hand)) == {"kind": kind, "ranks": ranks}


@pytest.mark.parametrize(
    "hand, reason",
    [(["1H"], "not a Bog card"), (["AX"], "not a Bog card"), (["ah"], "not a Bog card"),
     (["9o"], "not a Bog card"), ([None], "not a Bog card"), (["10H", "10H"], "10H appears twice"),
     ("AH AD", "must be a list"), (["T H"], "not a Bog card")],
)
def test_best_combination_refusals(hand, reason):
    with pytest.raises(TabernaError, match=reason):
        best_combination(hand)


# --- compare ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "a, b, result",
    [
        # "Combinations, from lowest to highest: bog, double bog, mitsi, trío, poker."
        ("KH KD", "AH 7C 9D", 1),
        ("8H 8D 7C 7S", "KH KD", 1),
        ("JC 8H 8D", "KH KD QS QC", 1),
        ("7H 7D 7S", "JC KH KD", 1),
        ("7H 7D 7S 7C", "KH KD KS", 1),
        # "Between equal combinations, the one made of higher cards wins"; ace low.
        ("KH KD", "QH QD", 1),
        ("AH AD", "7H 7D", -1),
        ("KH KD 7C 7S", "QH QD JH JS", 1),  # "compare the higher pair, then the lower pair"
        ("KH KD 8C 8S", "KC KS 7H 7D", 1),
        ("9H 9D 8C 8S", "10H 10D 7H 7D", -1),
        ("QH QD QS", "KH KD KS", -1),
        # "only the cards of the combination count, no kickers"
        ("8H 8D KC", "8C 8S QH", 0),
        ("KH KD 8C 8S QH", "KC KS 8H 8D 7C", 0),
        ("AH 7C", "8D 9S", 0),
        ("", "AH", 0),
    ],
)
def test_compare_table(a, b, result):
    assert compare(cards(a), cards(b)) == result
    assert compare(cards(b), cards(a)) == -result


def test_compare_refuses_a_card_in_both_hands():
    with pytest.raises(TabernaError, match="KH cannot be in both hands"):
        compare(cards("KH KD"), cards("KH QD"))


def brute_force_key(hand):
    """The best combination found by trying every 2-, 3- and 4-card subset of the hand."""
    order = RANKS.index
    best = (0, [])
    for size in (2, 3, 4):
        for subset in itertools.combinations(hand, size):
            ranks = [card[:-1] for card in subset]
            found = None
            if len(set(ranks)) == 1:
                found = {2: "bog", 3: "trio", 4: "poker"}[size], [ranks[0]]
            elif size == 4 and all(ranks.count(r) == 2 for r in ranks):
                found = "double_bog", sorted(set(ranks), key=order, reverse=True)
            elif size == 3 and "JC" in subset:
                others = [card[:-1] for card in subset if card != "JC"]
                if others[0] == others[1]:
                    found = "mitsi", ["J", others[0]]
            if found:
                best = max(best, (KINDS.index(found[0]), [order(r) for r in found[1]]))
    return best


def test_best_combination_matches_a_brute_force_search_on_random_hands():
    rng = random.Random(16)
    for _ in range(3000):
        size = rng.choice((32, 52))
        hand = rng.sample(deck(size), rng.randint(0, 8))
        combination = best_combination(hand)
        key = (KINDS.index(combination["kind"]), [RANKS.index(r) for r in combination["ranks"]])
        assert key == brute_force_key(hand), hand


def test_compare_is_antisymmetric_and_transitive_on_random_hands():
    rng = random.Random(17)
    for _ in range(1000):
        shuffled = rng.sample(deck(52), 15)
        a, b, c = shuffled[:5], shuffled[5:10], shuffled[10:]
        assert compare(a, b) == -compare(b, a)
        if compare(a, b) >= 0 and compare(b, c) >= 0:
            assert compare(a, c) >= 0


# --- phase1_winner ----------------------------------------------------------------------------
HANDS = [cards("KH KD 7C"), cards("QH QD 8C"), cards("JC 9H 9D"), cards("AH 7D 8S")]


@pytest.mark.parametrize(
    "boggers, dealer, winner",
    [
        ([], 0, None),  # "If nobody bogs, BOG carries over."
        ([3], 0, 3),  # "If only one player bogs, he wins without showing" (even with nothing)
        ([0, 1], 3, 0),
        ([0, 1, 2], 3, 2),  # mitsi beats a bog
        ([1, 3], 0, 1),  # the boggers' hands only: seat 2's mitsi does not count
        ((0, 1), 2, 0),
        ({0, 3}, 1, 0),
    ],
)
def test_phase1_winner_table(boggers, dealer, winner):
    assert phase1_winner(HANDS, boggers, dealer) == winner


def test_boggers_without_a_combination_leave_bog_to_carry_over():
    # "several boggers and none holds a combination → nobody wins (BOG carries over)."
    hands = [cards("KH QD 7C"), cards("AH 9D 8C"), cards("JC 10H 9S")]
    assert phase1_winner(hands, [0, 1, 2], 0) is None
    assert phase1_winner(hands, [1], 0) == 1


TIED = [cards("KH KD 7C"), cards("KC KS 8C"), cards("QH QD 9C"), cards("QC QS 10C")]


@pytest.mark.parametrize(
    "dealer, boggers, winner",
    [
        # "an exact tie goes to the tied player first in playing order after the dealer"
        # (seats 0 and 1 hold equal bogs of kings, seats 2 and 3 equal bogs of queens).
        (0, [0, 1], 1), (1, [0, 1], 0), (3, [0, 1], 0),
        (0, [2, 3], 2), (2, [2, 3], 3), (3, [2, 3], 2),
        (0, [0, 1, 2, 3], 1), (1, [0, 1, 2], 0), (0, [0, 2, 3], 0),
    ],
)
def test_exact_ties_go_to_the_first_after_the_dealer(dealer, boggers, winner):
    assert phase1_winner(TIED, boggers, dealer) == winner


@pytest.mark.parametrize(
    "hands, boggers, dealer, reason",
    [
        (HANDS, [0, 0], 1, "listed twice"),
        (HANDS, [4], 1, "bogger must be a seat 0-3"),
        (HANDS, [0], 4, "dealer must be a seat 0-3"),
        (HANDS, "01", 0, "list of seats"),
        (HANDS[:2], [0], 0, "3 to 10 hands"),
        ([cards("KH KD"), cards("KH QD"), cards("7C")], [0, 1], 0, "KH is in the hands of seats 0 and 1"),
    ],
)
def test_phase1_winner_refusals(hands, boggers, dealer, reason):
    with pytest.raises(TabernaError, match=reason):
        phase1_winner(hands, boggers, dealer)


# --- next_in_suit -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "card, size, following",
    [
        # "Order: A, 2…10, J, Q, K, with 7 following the ace in the 32-card deck."
        ("AH", 32, "7H"), ("7H", 32, "8H"), ("8S", 32, "9S"), ("9D", 32, "10D"), ("10C", 32, "JC"),
        ("JC", 32, "QC"), ("QS", 32, "KS"), ("KD", 32, None),
        ("AH", 52, "2H"), ("2H", 52, "3H"), ("6S", 52, "7S"), ("10D", 52, "JD"), ("KC", 52, None),
    ],
)
def test_next_in_suit_table(card, size, following):
    assert next_in_suit(card, size) == following


def test_next_in_suit_defaults_to_32_cards_and_refuses_strangers():
    assert next_in_suit("AH") == "7H"
    with pytest.raises(TabernaError, match="not in the 32-card deck"):
        next_in_suit("2H")
    with pytest.raises(TabernaError, match="32 or 52"):
        next_in_suit("AH", 36)
    with pytest.raises(TabernaError, match="not a Bog card"):
        next_in_suit("1H", 52)


# --- phase2_turn ------------------------------------------------------------------------------
def turn(hands, last=None, leader=0, **options):
    """phase2_turn on notation: hands as strings ('-' for a seat not taking part), last as
    'seat:card'; the answer as (player, 'legal cards', winner)."""
    parsed = [None if hand == "-" else cards(hand) for hand in hands]
    if last is not None:
        seat, card = last.split(":")
        last = (int(seat), card)
    result = phase2_turn(parsed, last, leader, **options)
    return result["player"], " ".join(result["legal"]), result["winner"]


def test_the_leader_plays_any_card():
    # "The leader ... plays any card"
    assert turn(["AH 9S KD", "7H", "8C"], None, 0) == (0, "AH 9S KD", None)
    assert turn(["AH 9S KD", "7H", "8C"], None, 2) == (2, "8C", None)


def test_whoever_holds_the_next_card_must_play_it():
    # "He ... keeps playing the next higher cards of the same suit while he has them"
    assert turn(["7H 9H QS", "8H", "KC"], "0:AH") == (0, "7H", None)
    # "When he cannot continue, whoever holds the next card plays it and continues the run."
    assert turn(["9H QS", "8H", "KC"], "0:7H") == (1, "8H", None)
    assert turn(["QS", "8H 10H", "KC"], "2:9H") == (1, "10H", None)
    assert turn(["AH", "7S", "8S"], "1:AS", size=32) == (1, "7S", None)
    assert turn(["AH", "2S", "8S"], "1:AS", size=52) == (1, "2S", None)


def test_a_dead_next_card_lets_the_same_player_go_on_in_the_suit():
    # "When the next card is dead (in the stock, the discard, stripped or already played)
    # the same player continues with any other card of the suit, lower ones included."
    assert turn(["9H KH QS", "7D", "8C"], "0:7H") == (0, "9H KH", None)
    assert turn(["AH 10H QS", "7D", "8C"], "0:8H") == (0, "AH 10H", None)
    assert turn(["AH QS", "7D 10H", "8C"], "1:8H") == (1, "10H", None)  # the player of the last card


def test_change_suit_leader_void_default():
    # "When he has none of the suit left he may change suit (change_suit="leader_void")"
    assert turn(["QS 8C", "7D", "9H 10H"], "0:7H") == (0, "QS 8C", None)
    assert turn(["QS 8C", "7D", "9H 10H"], "0:7H", change_suit="leader_void") == (0, "QS 8C", None)


def test_change_suit_all_void_option():
    # "option "all_void": he may change suit only when nobody holds that suit, otherwise the
    # first player after him who holds it plays any card of it."
    assert turn(["QS 8C", "7D", "9H 10H"], "0:7H", change_suit="all_void") == (2, "9H 10H", None)
    assert turn(["QS 8C", "10H", "9H AH"], "0:7H", change_suit="all_void") == (1, "10H", None)
    assert turn(["QS 8C", "AH", "9C"], "2:7H", change_suit="all_void") == (1, "AH", None)  # wraps round
    assert turn(["QS 8C", "7D", "9C"], "0:7H", change_suit="all_void") == (0, "QS 8C", None)
    # With the suit still in the player's own hand, nothing changes.
    assert turn(["QH 8C", "7D", "9H"], "0:7H", change_suit="all_void") == (0, "QH", None)


def test_a_king_gives_the_lead():
    # "Whoever plays a K leads again with any card."
    assert turn(["9S 8C", "AH", "7D"], "0:KH") == (0, "9S 8C", None)
    assert turn(["9S 8C", "AH", "7D"], "1:KC") == (1, "AH", None)


def test_the_first_out_wins():
    # "The first player to empty his hand wins phase 2"
    assert turn(["9S 8C", "", "7D"], "1:8H") == (None, "", 1)
    assert turn(["9S 8C", "", "7D"], "1:KH") == (None, "", 1)  # a last king too


def test_seats_out_of_phase2_are_skipped():
    # Option: "only the boggers play" — hands[s] is None for the others.
    assert turn(["QS", "-", "8H"], "0:7H") == (2, "8H", None)
    assert turn(["QS", "-", "9H"], "0:7H", change_suit="all_void") == (2, "9H", None)
    assert turn(["QS", "-", "9H"], None, 2) == (2, "9H", None)
    with pytest.raises(TabernaError, match="does not take part"):
        turn(["QS", "-", "9H"], None, 1)
    with pytest.raises(TabernaError, match="does not take part"):
        turn(["QS", "-", "9H"], "1:7H")


@pytest.mark.parametrize(
    "hands, last, options, reason",
    [
        (["7H QS", "8H", "9C"], "0:7H", {}, "7H was played but is still in the hand of seat 0"),
        (["7H QS", "", "9C"], "0:AH", {}, "seat 1 had already emptied his hand"),
        (["7H QS", "", "9C"], None, {}, "seat 1 has no cards at the start"),
        (["2H QS", "8H", "9C"], "0:AH", {}, "not in the 32-card deck"),
        (["7H QS", "8H", "9C"], "0:AH", {"size": 40}, "32 or 52"),
        (["7H QS", "8H", "9C"], "0:AH", {"change_suit": "never"}, "change_suit must be"),
        (["7H QS", "8H", "8H"], "0:AH", {}, "8H is in the hands of seats 1 and 2"),
        (["7H QS", "8H", "9C"], "3:AH", {}, "seat of the last play must be a seat 0-2"),
    ],
)
def test_phase2_turn_refusals(hands, last, options, reason):
    with pytest.raises(TabernaError, match=reason):
        turn(hands, last, **options)


def test_phase2_turn_refuses_a_malformed_last_play():
    with pytest.raises(TabernaError, match=r"\(seat, card\)"):
        phase2_turn([["7H"], ["8H"], ["9H"]], "0:AH", 0)


@pytest.mark.parametrize("change_suit", ["leader_void", "all_void"])
@pytest.mark.parametrize("players", range(3, 11))
def test_random_phase2_runs_follow_the_rules_and_end_with_a_winner(players, change_suit):
    rng = random.Random(players * 7 + len(change_suit))
    size, each, _ = deal_plan(players)
    for _ in range(40):
        shuffled = rng.sample(deck(size), size)
        hands = [shuffled[s * each:(s + 1) * each] for s in range(players)]
        if rng.random() < 0.25:  # "only the boggers play" for some deals
            for seat in rng.sample(range(players), rng.randint(0, players - 3)):
                hands[seat] = None
        leader = rng.choice([s for s, hand in enumerate(hands) if hand is not None])
        played, last = set(), None
        while True:
            result = phase2_turn(hands, last, leader, size, change_suit)
            if result["winner"] is not None:
                assert result["player"] is None and result["legal"] == []
                assert hands[result["winner"]] == [] and result["winner"] == last[0]
                assert all(hand for s, hand in enumerate(hands) if hand is not None and s != last[0])
                break
            player, allowed = result["player"], result["legal"]
            assert allowed and set(allowed) <= set(hands[player])
            if last is not None and last[1][:-1] != "K":
                following = next_in_suit(last[1], size)
                holder = next((s for s, hand in enumerate(hands) if hand and following in hand), None)
                if holder is not None:  # forced: exactly the next card, by its holder
                    assert (player, allowed) == (holder, [following])
                elif player == last[0]:  # dead card: the suit, else any card
                    suit_cards = [card for card in hands[player] if card[-1] == last[1][-1]]
                    assert allowed == (suit_cards or hands[player])
                else:  # all_void: the first player after him holding the suit
                    assert change_suit == "all_void" and all(c[-1] == last[1][-1] for c in allowed)
            card = rng.choice(allowed)
            hands[player] = [c for c in hands[player] if c != card]
            played.add(card)
            last = (player, card)
