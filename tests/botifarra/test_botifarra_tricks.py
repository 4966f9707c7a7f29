"""Botifarra's trick rules (shared/rules/botifarra.md), written in card notation.

Cases quote the digest line they come from. A trick is written in the module's notation,
``"0: 4c 1c"`` (seat 0 led the 4 of copes, seat 1 played the 1); the player to move is the
next seat. Partners are seats 0+2 and 1+3.
"""

import random

import pytest

from pyengine.core.errors import TabernaError
from pyengine.games.botifarra.tricks import (
    SUITS, card_points, format_hand, format_trick, hand_result, legal_cards, parse_hand,
    parse_trick, replay_hand, trick_winner,
)

ALL_CARDS = [f"{rank}{suit}" for suit in SUITS for rank in range(1, 13)]


def deck_for(n_players):
    """48 cards, or 36 for 3 players ("the 2, 3 and 4 removed")."""
    return [card for card in ALL_CARDS if n_players != 3 or card[:-1] not in ("2", "3", "4")]


def legal(hand, trick, trump="o", variant="obligada", **options):
    """``legal_cards`` on notation: ``hand`` as ``"2c 6c"``, ``trick`` as ``"0: 4c"``; the
    answer as a string in hand order."""
    leader, cards = parse_trick(trick)
    return " ".join(legal_cards(hand.split(), cards, leader, trump, variant, **options))


# --- legal_cards: one table per situation of the digest ---------------------------------------
# (trick, hand, trump, {variant: expected legal cards})
CASES = [
    # "Partner winning, you can follow: play a counting card of the suit (10, 11, 12, 1 or 9)
    #  or the lowest card of the suit."  /  lliure: "any card of the suit led".
    ("0: 9c 5c", "2c 6c 12c 1e 3o", "o",
     {"obligada": "2c 12c", "intermedia": "2c 12c", "lliure": "2c 6c 12c"}),
    # "Partner winning, you are void: play a counting card or the lowest card of any suit."
    # [res] "any counting card of any suit (trumps included) or the lowest card of any one
    # suit (the trump suit included). You may trump your partner's trick but never have to."
    ("0: 9c 5c", "3o 7o 1o 4e 10e 2b", "o",
     {"obligada": "3o 1o 4e 10e 2b", "intermedia": "3o 1o 4e 10e 2b",
      "lliure": "3o 7o 1o 4e 10e 2b"}),
    # "When your partner is winning, you need not beat it or trump": partner (seat 1) has
    # trumped, I (seat 3) follow suit and am not asked to over-trump him.
    ("0: 5c 9o 2c", "3c 4c 11c 8o", "o",
     {"obligada": "3c 11c", "intermedia": "3c 11c", "lliure": "3c 4c 11c"}),
    # Partner winning with a card an opponent played after: still partner winning.
    ("0: 5c 9c 6c", "1c 12c 7c 2e", "o",
     {"obligada": "1c 12c 7c", "intermedia": "1c 12c 7c", "lliure": "1c 12c 7c"}),
    # Partner winning, void, holding only trumps and plain cards: never forced to trump.
    ("0: 9c 5c", "8o 5e", "o", {"obligada": "8o 5e", "intermedia": "8o 5e", "lliure": "8o 5e"}),
    # "Opponent winning, you can follow: beat if you can" — [res] "'Beat it if you can'
    # allows any card that beats, not only the smallest one."
    ("0: 4c", "2c 6c 12c 9o", "o", {"obligada": "6c 12c", "intermedia": "6c 12c", "lliure": "6c 12c"}),
    # "...otherwise play the lowest card of the suit" (obligada); intermedia "may load a
    # counting card instead of the lowest"; lliure any card of the suit. Never the trump
    # 9o: following suit comes before trumping (a public-engine bug: over-trumping instead).
    ("0: 1c", "2c 6c 12c 9o", "o", {"obligada": "2c", "intermedia": "2c 12c", "lliure": "2c 6c 12c"}),
    # [res] "Opponent has trumped and you can follow: follow suit; in obligada the lowest
    # card of that suit (intermedia: or any counting card of it)." No over-trump (8o, 1o),
    # and 9c "beats" nothing, so it is not forced.
    ("0: 4c 2o", "9c 5c 11c 8o 1o", "o",
     {"obligada": "5c", "intermedia": "9c 5c 11c", "lliure": "9c 5c 11c"}),
    # "Opponent winning, you are void and hold trumps: you must trump to win the trick"; any
    # trump wins an untrumped trick.
    ("0: 4c", "2o 9o 1e", "o", {"obligada": "2o 9o", "intermedia": "2o 9o", "lliure": "2o 9o"}),
    # "...and over-trumping if an opponent has already trumped": only the trumps that win.
    ("0: 4c 5o", "2o 7o 9o 1e", "o", {"obligada": "7o 9o", "intermedia": "7o 9o", "lliure": "7o 9o"}),
    # [res] "No duty to under-trump: void, an opponent has trumped, you cannot over-trump:
    # lliure any card; obligada the lowest card of any suit (which may be your lowest trump)."
    # (A public-engine bug: forcing the under-trump 2o.)
    ("0: 4c 9o", "2o 7o 1e 3e 5b", "o",
     {"obligada": "2o 3e 5b", "intermedia": "2o 1e 3e 5b", "lliure": "2o 7o 1e 3e 5b"}),
    # "Opponent winning, you are void with no trumps: play the lowest card of any suit."
    # [res] "You choose the suit; 'lowest' means lowest by rank within that suit."
    ("0: 4c", "3e 1e 12b 5b", "o",
     {"obligada": "3e 5b", "intermedia": "3e 1e 12b 5b", "lliure": "3e 1e 12b 5b"}),
    # "Lowest" by rank: the 2 is below the 3; 8 is below 10 but above 7.
    ("0: 4c", "8e 10e 7b 11b", "o",
     {"obligada": "8e 7b", "intermedia": "8e 10e 7b 11b", "lliure": "8e 10e 7b 11b"}),
    # Botifarra (no trumps): a void player cannot trump; the 9o is a discard like any other.
    ("0: 4c", "9o 2o 3e", None, {"obligada": "2o 3e", "intermedia": "9o 2o 3e", "lliure": "9o 2o 3e"}),
    ("0: 11c", "12c 10c 9o", None, {"obligada": "12c", "intermedia": "12c", "lliure": "12c"}),
    # Trumps led: "a higher card of the suit led" is a higher trump.
    ("0: 4o", "2o 6o 1c", "o", {"obligada": "6o", "intermedia": "6o", "lliure": "6o"}),
    ("0: 9o", "2o 6o 1o 1c", "o", {"obligada": "2o", "intermedia": "2o 1o", "lliure": "2o 6o 1o"}),
    # Trumps led, void in trumps: nothing can win; the discard rule.
    ("0: 4o", "1c 2c 3e", "o", {"obligada": "2c 3e", "intermedia": "1c 2c 3e", "lliure": "1c 2c 3e"}),
    # My partner led and an opponent beat him: opponent winning.
    ("0: 5c 9c", "1c 12c", "o", {"obligada": "12c", "intermedia": "1c 12c", "lliure": "1c 12c"}),
    ("0: 5c 9c", "1c 12c 9e", "e", {"obligada": "12c", "intermedia": "1c 12c", "lliure": "1c 12c"}),
    # Leader: "He plays any card".
    ("0:", "9o 2c 3e", "o", {"obligada": "9o 2c 3e", "intermedia": "9o 2c 3e", "lliure": "9o 2c 3e"}),
    # Trumps led, an opponent's 9o cannot be beaten: seat 2 follows with its lowest trump.
    ("0: 2o 9o", "1o 12o 4b", "o", {"obligada": "12o", "intermedia": "1o 12o", "lliure": "1o 12o"}),
    # A single card in hand is always legal.
    ("0: 4c 9o", "2b", "o", {"obligada": "2b", "intermedia": "2b", "lliure": "2b"}),
]


@pytest.mark.parametrize("trick, hand, trump, expected", CASES)
@pytest.mark.parametrize("variant", ["obligada", "intermedia", "lliure"])
def test_legal_cards_table(trick, hand, trump, expected, variant):
    assert legal(hand, trick, trump, variant) == expected[variant]


def test_the_variant_is_always_named():
    # The signature has no default play rule: the engine passes its table option.
    with pytest.raises(TypeError):
        legal_cards(["2c"], [], 0, "o")


def test_partner_winning_never_forces_a_trump():
    # The public-engine bug: forcing a trump when partner is winning (void in copes).
    for variant in ("obligada", "intermedia", "lliure"):
        # Seat 3, void in copes, partner seat 1 wins: the trump is allowed, never forced.
        assert legal("9o 5e 2b", "1: 1c 2c", "o", variant) == "9o 5e 2b"


def test_under_trump_is_never_forced():
    for variant in ("obligada", "intermedia", "lliure"):
        allowed = legal("2o 8e", "0: 4c 9o", "o", variant).split()
        assert "8e" in allowed


def test_following_suit_beats_over_trumping():
    for variant in ("obligada", "intermedia", "lliure"):
        assert "9o" not in legal("2c 9o", "0: 1c", "o", variant).split()
        assert legal("2c 9o", "0: 1c 5o", "o", variant) == "2c"


# --- the "3 second" option --------------------------------------------------------------------
def test_three_second_ranks_the_3_after_the_9():
    # "Card order variant: the 3 ranks second, after the 9."
    assert legal("3c 2c 12c", "0: 1c") == "2c"
    assert legal("3c 2c 12c", "0: 1c", three_second=True) == "3c"
    assert trick_winner(["1c", "3c"], 0, "o") == 0
    assert trick_winner(["1c", "3c"], 0, "o", three_second=True) == 1


def test_three_second_changes_the_lowest_but_not_the_points():
    # [res] "With the '3 second' option the 3 ranks high (after the 9); card points never
    # change (the 3 counts 0)."
    assert legal("3c 4c", "0: 9c") == "3c"
    assert legal("3c 4c", "0: 9c", three_second=True) == "4c"
    assert legal("3c 4c 10c", "0: 9c", variant="intermedia", three_second=True) == "4c 10c"
    assert card_points("3c") == 0


# --- individual games, three and two players --------------------------------------------------
def test_four_individual_players_have_no_partner():
    # [res] "Individual games (4 each for himself, 3 players): nobody is a partner".
    assert legal("1c 2c", "0: 9c 5c") == "1c 2c"  # seat 0 is my partner
    assert legal("1c 2c", "0: 9c 5c", partnerships=False) == "2c"  # seat 0 is a rival
    assert legal("5e 8o", "0: 9c 5c", partnerships=False) == "8o"  # must trump to win


def test_discard_in_suit_order_option():
    # "A player who can no longer win tricks must discard in the fixed suit order oros,
    # copes, espases, bastos" — an option of the individual games (off by default).
    solo = {"partnerships": False}
    assert legal("3e 1e 12b 5b", "0: 4c", **solo) == "3e 5b"
    assert legal("3e 1e 12b 5b", "0: 4c", discard_suit_order=True, **solo) == "3e"
    assert legal("3e 1e 12b 5b", "0: 4c", variant="intermedia", discard_suit_order=True, **solo) == "3e 1e"
    assert legal("3e 1e 12b 5b", "0: 4c", variant="lliure", discard_suit_order=True, **solo) == "3e 1e"
    # Cannot over-trump: the trump suit comes first in the order when it is oros.
    assert legal("2o 7o 3e", "0: 4c 9o", discard_suit_order=True, **solo) == "2o"
    assert legal("2o 7o 3e", "0: 4c 9o", trump="o", variant="lliure", discard_suit_order=True, **solo) == "2o 7o"
    # It never overrides following suit, beating or trumping to win.
    assert legal("2c 6c 3o", "0: 4c", discard_suit_order=True, **solo) == "6c"
    assert legal("5o 1c", "0: 4e", discard_suit_order=True, **solo) == "5o"
    assert legal("6e 5b", "0: 5c", trump=None, discard_suit_order=True, n_players=3) == "6e"
    with pytest.raises(TabernaError, match="individual games"):
        legal("2c", "0: 4c", discard_suit_order=True)


def test_three_players_use_36_cards_and_no_partners():
    # "3 players: the same rules as 4 individual players, with a 36-card deck (the 2, 3
    # and 4 removed)."
    assert legal("7c 8c 9o", "0: 5c 6c", n_players=3) == "7c 8c"
    assert legal("5c 12c", "1: 9c 6c", n_players=3) == "5c"  # seat 2 is nobody's partner
    assert trick_winner(["5c", "6c", "7o"], 0, "o", n_players=3) == 2
    for bad in ("2c", "3o", "4e"):
        with pytest.raises(TabernaError, match="36-card deck"):
            legal_cards([bad], ["5c"], 0, "o", "obligada", n_players=3)
    with pytest.raises(TabernaError, match="partnerships need 4 players"):
        legal_cards(["5c"], [], 0, "o", "obligada", n_players=3, partnerships=True)


def test_two_players_play_from_pile_tops_and_hand():
    # [res] "Two players: ... the playable cards are the face-up pile tops plus the hand."
    hand, tops = ["2c"], ["7c", "1o", "3e"]
    assert legal_cards(hand + tops, ["5c"], 0, "o", "obligada", n_players=2) == ["7c"]
    assert legal_cards(hand + tops, ["9c"], 0, "o", "obligada", n_players=2) == ["2c"]
    # Void among the playable cards (face-down cards do not count): trump to win.
    assert legal_cards(["1o", "3e"], ["9c"], 1, "o", "obligada", n_players=2) == ["1o"]
    assert legal_cards(["12e", "3e"], ["9c"], 1, None, "obligada", n_players=2) == ["3e"]
    assert trick_winner(["5c", "6c"], 1, "o", n_players=2) == 0


# --- trick_winner -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "trick, trump, winner",
    [
        # "A trick is won by the highest trump in it, or else by the highest card of the suit led."
        ("0: 4c 1c 12c 9c", "o", 3),
        ("0: 4c 1c 2o 9c", "o", 2),
        ("0: 4c 1c 2o 3o", "o", 3),
        ("0: 4c 9o 1o 12o", "o", 1),
        ("0: 4c 1e 9e 9b", None, 0),  # botifarra: only the suit led
        ("0: 4c 1e 9e 9b", "b", 3),
        ("2: 4c 1c 12c 9c", "o", 1),  # seat (2 + 3) % 4
        ("3: 2e 10e 11e 12e", "c", 2),
        ("1: 4c 5c", "o", 2),  # unfinished trick: winning so far
        ("1: 4c", None, 1),
        # Rank within a suit: 9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2.
        ("0: 1b 9b", None, 1),
        ("0: 12b 1b", None, 1),
        ("0: 10b 11b", None, 1),
        ("0: 8b 10b", None, 1),
        ("0: 2b 3b", None, 1),
    ],
)
def test_trick_winner_table(trick, trump, winner):
    leader, cards = parse_trick(trick)
    assert trick_winner(cards, leader, trump) == winner


# --- card points ------------------------------------------------------------------------------
@pytest.mark.parametrize("card, points", [("9o", 5), ("1c", 4), ("12e", 3), ("11b", 2), ("10o", 1),
                                          ("8c", 0), ("3e", 0), ("2b", 0)])
def test_card_points(card, points):
    # "9 = 5, ace = 4, king = 3, knight = 2, sota = 1, other cards 0."
    assert card_points(card) == points


def test_a_deck_holds_60_card_points_15_per_suit():
    assert sum(map(card_points, ALL_CARDS)) == 60
    for suit in SUITS:
        assert sum(card_points(f"{rank}{suit}") for rank in range(1, 13)) == 15


# --- hand_result ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "a, b, options, result",
    [
        # "Example: 45 points scores 9, 18 if doubled, 36 if redoubled (pagat)."
        (45, 27, {}, (0, 9)),
        (45, 27, {"doubling": 1}, (0, 18)),
        (45, 27, {"doubling": 2}, (0, 36)),
        (45, 27, {"doubling": 3}, (0, 72)),
        (30, 42, {}, (1, 6)),
        # "Combined with botifarra: contro ×4, recontro ×8."
        (45, 27, {"botifarra": True}, (0, 18)),
        (45, 27, {"botifarra": True, "doubling": 1}, (0, 36)),
        (45, 27, {"botifarra": True, "doubling": 2}, (0, 72)),
        # "some clubs allow Sant Vicenç on botifarra (×16)"
        (45, 27, {"botifarra": True, "doubling": 3, "sant_vicenc_on_botifarra": True}, (0, 144)),
        # "scale 2-4-8 (default) or 2-3-4 (option), times 2 on botifarra"
        (45, 27, {"scale": "2-3-4", "doubling": 1}, (0, 18)),
        (45, 27, {"scale": "2-3-4", "doubling": 2}, (0, 27)),
        (45, 27, {"scale": "2-3-4", "doubling": 3}, (0, 36)),
        (45, 27, {"scale": "2-3-4", "doubling": 2, "botifarra": True}, (0, 54)),
        # "36–36: nobody scores"
        (36, 36, {}, (None, 0)),
        (36, 36, {"doubling": 3}, (None, 0)),
        (37, 35, {}, (0, 1)),
        (0, 72, {}, (1, 36)),
        # Renege: "the other side scores the whole hand, 36 × the multiplier (36 normally,
        # 72 with botifarra or contro, and so on)."
        (72, 0, {}, (0, 36)),
        (72, 0, {"botifarra": True}, (0, 72)),
        (0, 72, {"doubling": 1}, (1, 72)),
        (40, 20, {"total": 60}, (0, 10)),
    ],
)
def test_hand_result_table(a, b, options, result):
    assert hand_result(a, b, **options) == result


@pytest.mark.parametrize(
    "args, options, reason",
    [
        ((40, 31), {}, "do not add up to 72"),
        ((-1, 73), {}, "≥ 0"),
        ((36.0, 36), {}, "whole number"),
        ((True, 71), {}, "whole number"),
        ((45, 27), {"scale": "2-4-6"}, "scale"),
        ((45, 27), {"doubling": 4}, "doubling"),
        ((45, 27), {"doubling": True}, "doubling"),
        ((45, 27), {"doubling": 3, "botifarra": True}, "Sant Vicenç is not allowed on botifarra"),
        ((36, 35), {"total": 71}, "even"),
    ],
)
def test_hand_result_refusals(args, options, reason):
    with pytest.raises(ValueError, match=reason):
        hand_result(*args, **options)


def test_hand_result_is_symmetric_and_adds_up_over_every_split():
    for a in range(73):
        for doubling in range(4):
            side, score = hand_result(a, 72 - a, doubling=doubling)
            mirror = hand_result(72 - a, a, doubling=doubling)
            assert mirror == (None if side is None else 1 - side, score)
            assert score == abs(a - 36) * (1, 2, 4, 8)[doubling]
            assert (side is None) == (a == 36)


# --- refusals of malformed input --------------------------------------------------------------
@pytest.mark.parametrize(
    "hand, trick, leader, trump, variant, options, reason",
    [
        (["13o"], [], 0, "o", "obligada", {}, "'13o' is not a Botifarra card"),
        (["0c"], [], 0, "o", "obligada", {}, "not a Botifarra card"),
        (["9O"], [], 0, "o", "obligada", {}, "not a Botifarra card"),
        (["AH"], [], 0, "o", "obligada", {}, "not a Botifarra card"),
        ([9], [], 0, "o", "obligada", {}, "not a Botifarra card"),
        (["09o"], [], 0, "o", "obligada", {}, "not a Botifarra card"),
        ([" 9o"], [], 0, "o", "obligada", {}, "not a Botifarra card"),
        ("9o 1o", [], 0, "o", "obligada", {}, "hand must be a list"),
        (["9o"], "4c", 0, "o", "obligada", {}, "trick must be a list"),
        (["9o", "9o"], [], 0, "o", "obligada", {}, "9o appears twice in the hand"),
        (["9o"], ["4c", "4c"], 0, "o", "obligada", {}, "4c appears twice in the trick"),
        (["9o", "4c"], ["4c"], 0, "o", "obligada", {}, "4c is both in the hand and in the trick"),
        (["9o"], ["4c", "5c", "6c", "7c"], 0, "o", "obligada", {}, "already has its 4 cards"),
        (["9o"], ["4c"] * 1 + ["5c", "6c", "7c", "8c"], 0, "o", "obligada", {}, "at most 4 cards"),
        (["9o"], ["4c"], 4, "o", "obligada", {}, "leader must be a seat 0-3"),
        (["9o"], ["4c"], -1, "o", "obligada", {}, "leader must be a seat"),
        (["9o"], ["4c"], True, "o", "obligada", {}, "leader must be a seat"),
        (["9o"], ["4c"], 0, "x", "obligada", {}, "trump must be"),
        (["9o"], ["4c"], 0, "botifarra", "obligada", {}, "trump must be"),
        (["9o"], ["4c"], 0, "o", "free", {}, "play rule must be one of"),
        (["9o"], ["4c"], 0, "o", "obligada", {"n_players": 5}, "2, 3 or 4 players"),
        (["9o"], ["4c"], 0, "o", "obligada", {"n_players": 2, "partnerships": True}, "partnerships need 4"),
        (["9o"], ["4c"], 0, "o", "obligada", {"partnerships": "yes"}, "partnerships must be True, False or None"),
    ],
)
def test_legal_cards_refusals(hand, trick, leader, trump, variant, options, reason):
    with pytest.raises(TabernaError, match=reason):
        legal_cards(hand, trick, leader, trump, variant, **options)


def test_refusals_carry_a_catalog_code():
    with pytest.raises(TabernaError) as caught:
        card_points("13o")
    assert caught.value.code == "bad_card" and caught.value.params == {"card": "13o"}
    with pytest.raises(TabernaError) as caught:
        trick_winner(["4c", "4c"], 0, "o")
    assert caught.value.code == "duplicate_card"


@pytest.mark.parametrize("trick, reason", [([], "empty trick"), (["1c"] + ["2c", "3c", "4c", "5c"], "at most 4")])
def test_trick_winner_refusals(trick, reason):
    with pytest.raises(TabernaError, match=reason):
        trick_winner(trick, 0, "o")


# --- text notation ----------------------------------------------------------------------------
def test_trick_notation_round_trip():
    assert parse_trick("3: 9o 1o 12o 2c") == (3, ["9o", "1o", "12o", "2c"])
    assert format_trick(3, ["9o", "1o", "12o", "2c"]) == "3: 9o 1o 12o 2c"
    assert parse_trick("2:") == (2, [])
    assert format_trick(2, []) == "2:"


@pytest.mark.parametrize("text, reason", [("9o 1o", "leader: cards"), ("x: 9o", "leader's seat"),
                                          ("5: 9o", "seat 0-3"), ("1: 9o 13o", "not a Botifarra card"),
                                          ("1: 9o 9o", "twice"), (None, "leader: cards")])
def test_trick_notation_refusals(text, reason):
    with pytest.raises(TabernaError, match=reason):
        parse_trick(text)


SHORT_HAND = """
# Three tricks of a hand cut short: enough to check play, leaders and counting.
players 4
variant obligada
dealer 3
trump o
hand 0: 9c 2c 5o
hand 1: 1c 3e 4b
hand 2: 4c 12c 2o
hand 3: 9e 10c 7b
trick 0: 9c 1c 4c 10c     # seat 0 leads (the dealer's right); 9c wins, 10 card points
trick 0: 5o 3e 2o 9e      # 5o wins (trump), seat 1 and seat 3 are void, seat 2 follows low
trick 0: 2c 4b 12c 7b
"""


def test_a_short_hand_record_replays_and_counts():
    record = parse_hand(SHORT_HAND)
    assert record["hands"][2] == ["4c", "12c", "2o"] and record["piles"] is None
    assert record["tricks"][1] == [0, ["5o", "3e", "2o", "9e"]]
    result = replay_hand(record)
    # Seat 0's tricks: 9c 1c 4c 10c (5+4+0+1 = 10) and 5o 3e 2o 9e (5); seat 2's: 12c (3).
    assert result["tricks"] == [2, 0, 1, 0]
    assert result["card_points"] == [15, 0, 3, 0]
    assert result["points"] == [15 + 2 + 3 + 1, 0]
    assert result["finished"] is True
    assert parse_hand(format_hand(record)) == record


@pytest.mark.parametrize(
    "change, reason",
    [
        (("trick 0: 2c 4b 12c 7b", "trick 0: 2c 4b 2o 7b"), "seat 2 cannot play 2o, it is not among its cards"),
        (("trick 0: 9c 1c 4c 10c", "trick 0: 9c 1c 2o 10c"), r"trick 1: seat 2 may not play 2o \(legal: 4c 12c\)"),
        (("trick 0: 5o 3e 2o 9e", "trick 1: 5o 3e 2o 9e"), "trick 2: seat 0 leads, not seat 1"),
        (("dealer 3", "dealer 2"), "trick 1: seat 3 leads, not seat 0"),
        (("trump o", "trump z"), "trump must be o, c, e, b or botifarra"),
        (("players 4", "players 5"), "players must be 2, 3 or 4"),
        (("hand 3: 9e 10c 7b", "hand 3: 9e 10c 7b 9c"), "9c appears twice in the deal"),
        (("hand 3: 9e 10c 7b", "hand 1: 9e 10c 7b"), "hand 1 is given twice"),
        (("hand 3: 9e 10c 7b", "deal 3: 9e"), "unknown line 'deal'"),
        (("variant obligada", "variant free"), "variant must be one of"),
        (("variant obligada", "variant obligada\noptions fast"), "unknown hand option 'fast'"),
        (("trick 0: 9c 1c 4c 10c", "trick 0: 9c 1c 4c"), "trick 1 is unfinished but is not the last"),
        (("trump o", ""), "needs players, variant, dealer and trump"),
        (("trump o", "trump o\ntrump c"), "trump is given twice"),
    ],
)
def test_hand_record_errors_name_the_trick_seat_and_card(change, reason):
    with pytest.raises(TabernaError, match=reason):
        replay_hand(SHORT_HAND.replace(*change))


def test_an_individual_record_scores_per_seat_and_has_no_partners():
    individual = SHORT_HAND.replace("variant obligada", "variant obligada\noptions individual")
    result = replay_hand(individual)
    assert result["points"] == [15 + 2, 0, 3 + 1, 0]  # per seat, 72 in a whole hand
    # Seat 0 is no longer seat 2's partner: seat 2 cannot load the 12c, it plays the lowest.
    with pytest.raises(TabernaError, match=r"seat 2 may not play 12c \(legal: 4c\)"):
        replay_hand(individual.replace("trick 0: 9c 1c 4c 10c", "trick 0: 9c 1c 12c 10c"))
    with pytest.raises(TabernaError, match="'individual' is the 4-player game"):
        replay_hand(individual.replace("players 4", "players 3"))


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"hands": "9c 2c"}, "list"),
        ({"hands": [["9c", "2c", "5o"], "1c 3e 4b", ["4c"], ["9e"]]}, "hand of seat 1 must be a list"),
        ({"tricks": [[0]]}, r"\[leader, cards\]"),
        ({"trump": "x"}, "trump must be"),
        ({"piles": [[["1o"]], [["2o"]]]}, "only the 2-player game has piles"),
    ],
)
def test_hand_records_as_dicts_are_checked_too(change, reason):
    record = parse_hand(SHORT_HAND)
    with pytest.raises(TabernaError, match=reason):
        replay_hand({**record, **change})
    with pytest.raises(TabernaError, match="no 'trump'"):
        format_hand({key: value for key, value in record.items() if key != "trump"})


def test_a_record_may_stop_mid_trick_for_a_bug_report():
    text = SHORT_HAND.replace("trick 0: 2c 4b 12c 7b", "trick 0: 2c 4b")
    result = replay_hand(text)
    assert result["finished"] is False and result["tricks"] == [2, 0, 0, 0]


# --- random deals: properties and a brute-force cross-check -----------------------------------
def reference_legal(hand, trick, leader, trump, variant, n_players, partnerships, three_second):
    """The digest's rules restated card by card, with "beats" taken from trick_winner: a card
    wins if the trick with it would be won by the player. Independent of legal_cards' branches."""
    me = (leader + len(trick)) % n_players
    if not trick:
        return set(hand)
    order = (9, 3, 1, 12, 11, 10, 8, 7, 6, 5, 4, 2) if three_second else (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)

    def rank(card):
        return int(card[:-1])

    def lowest(cards):
        return max(cards, key=lambda card: order.index(rank(card)))

    def loaded(cards, counting):  # the variant's "lowest card" of each suit (+ counting cards)
        allowed = set()
        for suit in SUITS:
            of_suit = [card for card in cards if card[-1] == suit]
            if of_suit:
                allowed.add(lowest(of_suit))
                allowed.update(card for card in of_suit if counting and card_points(card) > 0)
        return allowed

    follow = [card for card in hand if card[-1] == trick[0][-1]]
    winner = trick_winner(trick, leader, trump, n_players, three_second)
    if partnerships and winner == (me + 2) % 4:
        pool = follow or hand
        return set(pool) if variant == "lliure" else loaded(pool, True)
    wins = [card for card in hand
            if trick_winner(trick + [card], leader, trump, n_players, three_second) == me]
    if follow:
        winning_follow = [card for card in follow if card in wins]
        if winning_follow:
            return set(winning_follow)
        return set(follow) if variant == "lliure" else loaded(follow, variant == "intermedia")
    if wins:
        return set(wins)
    return set(hand) if variant == "lliure" else loaded(hand, variant == "intermedia")


def random_situations(count, seed):
    """(hand, trick, leader, trump, n_players, partnerships, three_second) from random deals."""
    rng = random.Random(seed)
    for _ in range(count):
        n_players = rng.choice((2, 3, 4, 4, 4))
        partnerships = n_players == 4 and rng.random() < 0.7
        deck = deck_for(n_players)
        rng.shuffle(deck)
        leader = rng.randrange(n_players)
        trick = deck[: rng.randrange(n_players)]
        hand = deck[len(trick): len(trick) + rng.randint(1, 12)]
        trump = rng.choice((*SUITS, None))
        yield hand, trick, leader, trump, n_players, partnerships, rng.random() < 0.2


def test_random_situations_match_the_card_by_card_reference():
    checked = 0
    for hand, trick, leader, trump, n, partners, three in random_situations(3000, seed=15):
        results = {}
        for variant in ("obligada", "intermedia", "lliure"):
            allowed = legal_cards(hand, trick, leader, trump, variant, n_players=n,
                                  partnerships=partners, three_second=three)
            assert set(allowed) == reference_legal(hand, trick, leader, trump, variant, n, partners, three), \
                (variant, format_trick(leader, trick), hand, trump)
            # Never empty for a non-empty hand; a subset of the hand, in the hand's order.
            assert allowed and allowed == [card for card in hand if card in allowed]
            results[variant] = set(allowed)
        assert results["obligada"] <= results["intermedia"] <= results["lliure"]
        checked += 1
    assert checked == 3000


def test_random_tricks_are_won_by_a_seat_holding_the_best_card():
    rng = random.Random(16)
    for _ in range(2000):
        n = rng.choice((2, 3, 4))
        deck = deck_for(n)
        trick = rng.sample(deck, rng.randint(1, n))
        leader, trump = rng.randrange(n), rng.choice((*SUITS, None))
        winner = trick_winner(trick, leader, trump, n)
        assert 0 <= winner < n
        best = trick[(winner - leader) % n]
        led = trick[0][-1]
        order = (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)
        if any(card[-1] == trump for card in trick):
            contenders = [card for card in trick if card[-1] == trump]
        else:
            contenders = [card for card in trick if card[-1] == led]
        assert best == min(contenders, key=lambda card: order.index(int(card[:-1])))


def random_hand_record(rng, n_players, form=None):
    """A whole hand played with random legal cards, as a record (2 players: piles)."""
    deck = deck_for(n_players)
    rng.shuffle(deck)
    dealer, trump = rng.randrange(n_players), rng.choice((*SUITS, None))
    variant = rng.choice(("obligada", "intermedia", "lliure"))
    individual = n_players == 4 and rng.random() < 0.3
    options = (["individual"] if individual else []) + (["three_second"] if rng.random() < 0.2 else [])
    if n_players != 4 or individual:
        options += ["discard_suit_order"] if rng.random() < 0.3 else []
    options = [name for name in ("individual", "three_second", "discard_suit_order") if name in options]
    piles = None
    if n_players == 2:
        in_hand, n_piles = (8, 4) if form == 2 else (0, 6)
        hands = [deck[:in_hand], deck[24: 24 + in_hand]]
        piles = [[deck[s * 24 + in_hand + 4 * p: s * 24 + in_hand + 4 * p + 4] for p in range(n_piles)]
                 for s in range(2)]
    else:
        each = len(deck) // n_players
        hands = [deck[s * each:(s + 1) * each] for s in range(n_players)]
    record = {"players": n_players, "variant": variant, "options": options, "dealer": dealer,
              "trump": trump, "hands": hands, "piles": piles, "tricks": []}
    flags = {"partnerships": n_players == 4 and not individual, "three_second": "three_second" in options,
             "discard_suit_order": "discard_suit_order" in options}
    held = [list(hand) for hand in hands]
    stacks = [[list(pile) for pile in seat] for seat in piles] if piles else None
    leader = (dealer + 1) % n_players
    for _ in range(len(deck) // n_players):
        trick = []
        for i in range(n_players):
            seat = (leader + i) % n_players
            tops = [pile[0] for pile in stacks[seat] if pile] if stacks else []
            card = rng.choice(legal_cards(held[seat] + tops, trick, leader, trump, variant,
                                          n_players=n_players, **flags))
            if card in held[seat]:
                held[seat].remove(card)
            else:
                next(pile for pile in stacks[seat] if pile and pile[0] == card).pop(0)
            trick.append(card)
        record["tricks"].append([leader, trick])
        leader = trick_winner(trick, leader, trump, n_players, flags["three_second"])
    return record


@pytest.mark.parametrize("n_players, form", [(4, None), (3, None), (2, 1), (2, 2)])
def test_random_whole_hands_replay_and_share_72_points(n_players, form):
    rng = random.Random(n_players * 10 + (form or 0))
    for _ in range(60):
        record = random_hand_record(rng, n_players, form)
        text = format_hand(record)
        assert parse_hand(text) == record
        result = replay_hand(text)
        assert result["finished"]
        assert sum(result["tricks"]) == len(deck_for(n_players)) // n_players
        assert sum(result["card_points"]) == 60
        # "Each side adds its card points and 1 per trick won, 72 in total" (2 players: 1
        # per two tricks, 60 + 12 = 72; 3 players: 36 cards, 60 + 12 = 72).
        assert sum(result["points"]) == 72
        if len(result["points"]) == 2 and n_players == 4:
            side, score = hand_result(*result["points"])
            assert side in (0, 1, None) and score >= 0


def test_two_players_give_the_odd_trick_point_to_the_poorer_player():
    # "When both players won an odd number of tricks, the odd 'half point' goes to the
    # player with fewer points." Two 1-card tricks here, each won by a different player.
    record = {"players": 2, "variant": "obligada", "options": [], "dealer": 1, "trump": "o",
              "hands": [["9c", "2e"], ["1c", "3e"]], "piles": None,
              "tricks": [[0, ["9c", "1c"]], [0, ["2e", "3e"]]]}
    result = replay_hand(record)
    assert result["tricks"] == [1, 1] and result["card_points"] == [9, 0]
    assert result["points"] == [9, 1]  # 0 + 0 half-tricks each, the odd point to seat 1
