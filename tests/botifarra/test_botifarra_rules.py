"""The Botifarra engine (pyengine/games/botifarra/rules.py) against shared/rules/botifarra.md.

Hands and moves are written in notation: a hand ``"9o 1o 12c"``, a move as the engine's
text (``trump o``, ``botifarra``, ``delego``, ``double``, ``pass``, ``9o``), a script as
``"seat: move"`` lines. Seats are in playing order: ``s + 1`` is on ``s``'s right;
partners are 0+2 and 1+3.
"""

import json

import pytest

from pyengine.core.errors import IllegalAction, InvalidOptions
from pyengine.core.rng import Rng
from pyengine.games import botifarra as package
from pyengine.games.botifarra import rules
from pyengine.games.botifarra.rules import Botifarra
from pyengine.games.botifarra.tricks import SUITS, hand_result, replay_hand

GAME = Botifarra()
DECK48 = [f"{rank}{suit}" for suit in SUITS for rank in range(1, 13)]


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def new(seats=4, seed=1, **options):
    return GAME.new_state(options, seats, seed)


def act(state, seat, text):
    return GAME.apply(state, seat, GAME.parse_action(text))


def script(state, *lines):
    """Plays ``"seat: move"`` lines in order."""
    for line in lines:
        seat, move = line.split(":")
        state = act(state, int(seat), move.strip())
    return state


def refused(state, seat, text):
    """The code of the refusal of ``text``; the state must be left untouched."""
    before = canonical(state)
    with pytest.raises(IllegalAction) as caught:
        act(state, seat, text)
    assert canonical(state) == before
    return caught.value.code


def dealt_by(dealer, seats=4, seed=1, **options):
    """A fresh hand dealt by ``dealer`` (first dealer overridden, cards redealt from the RNG)."""
    state = new(seats, seed, **options)
    rng = Rng(seed + 77)
    state["hand_number"] = 0
    GAME.start_hand(state, dealer, rng)
    GAME.begin_choice(state)
    return state


def playing(hands, trump="o", leader=0, trick="", play_rule="obligada", **options):
    """A state in the middle of play: ``hands`` by seat in notation, the trick so far."""
    seats = len(hands)
    state = new(seats, **options, play_rule=play_rule)
    state["hands"] = [hand.split() for hand in hands]
    state.update(phase="play", trump=trump, botifarra=trump is None, asking=[],
                 trick={"leader": leader, "cards": trick.split()})
    return state


def last_trick_state(before_last, won, card_pts, trump="c", doubling=0, botifarra=False, seats=4, **options):
    """Eleven (or 23) tricks already taken: ``won``/``card_pts`` per seat; ``before_last``
    are the single cards left, seat 0 leads the last trick."""
    state = playing(before_last.split(), trump=trump, **options)
    state["tricks"] = [{"leader": 0, "cards": [], "winner": 0}] * (48 // seats - 1)
    state.update(won=list(won), card_points=list(card_pts), doubling=doubling, botifarra=botifarra)
    if botifarra:
        state["trump"] = None
    return state


def play_last(state):
    for i in range(state["seats"]):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, {"type": "play", "card": GAME.playable(state, seat)[0]})
    return state


# --- the package's named functions ---------------------------------------------------------
def test_the_digest_functions_are_importable_from_the_package():
    assert package.legal_cards is rules.legal_cards
    assert package.trick_winner is rules.trick_winner
    assert package.card_points is rules.card_points
    assert package.hand_result is rules.hand_result


# --- options -----------------------------------------------------------------------------------
def test_defaults_and_refused_options():
    state = new()
    assert state["options"] == {
        "individual": False, "play_rule": "obligada", "three_second": False, "scale": "2-4-8",
        "sant_vicenc": "not_on_botifarra", "target": 101, "fixed_hands": 0, "first_dealer": "turned_card",
        "first_lead": "right_of_dealt", "discard_suit_order": False, "individual_contro": False, "two_player_layout": "six_piles",
        "two_player_trump": "chosen"}
    for bad in ({"target": 100}, {"fixed_hands": 10}, {"play_rule": "free"}, {"scale": "2-4-6"},
                {"sant_vicenc": True}, {"nonsense": 1}):
        with pytest.raises(InvalidOptions):
            new(**bad)
    with pytest.raises(InvalidOptions):
        GAME.new_state({}, 5, 1)


def test_teams():
    assert GAME.teams(new()["options"], 4) == [[0, 2], [1, 3]]
    assert GAME.teams(new(individual=True)["options"], 4) == []
    assert GAME.teams(new(3)["options"], 3) == []


# --- deal ---------------------------------------------------------------------------------------
def test_deal_in_packets_of_four_from_the_dealers_right_dealer_last(monkeypatch):
    # "deals all 48 cards, 4 at a time, anticlockwise, starting with the player on his
    # right; he receives the last four." The deck is left unshuffled: 1o 2o ... 12b.
    monkeypatch.setattr(rules, "shuffled", lambda deck, rng: list(deck.cards))
    for dealer in range(4):
        state = dealt_by(dealer)
        packets = [DECK48[i:i + 4] for i in range(0, 48, 4)]
        for turn in range(4):
            seat = (dealer + 1 + turn) % 4
            expected = packets[turn] + packets[turn + 4] + packets[turn + 8]
            assert sorted(state["hands"][seat]) == sorted(expected)
        assert set(state["hands"][dealer]) == {"1c", "2c", "3c", "4c", "5e", "6e", "7e", "8e", "9b", "10b", "11b", "12b"}


def test_hands_are_sorted_by_suit_then_rank_high_to_low():
    state = new(seed=5)
    hand = state["hands"][0]
    order = [9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2]
    assert hand == sorted(hand, key=lambda c: (SUITS.index(c[-1]), order.index(int(c[:-1]))))
    state = new(seed=5, three_second=True)
    order3 = [9, 3, 1, 12, 11, 10, 8, 7, 6, 5, 4, 2]
    assert state["hands"][0] == sorted(state["hands"][0], key=lambda c: (SUITS.index(c[-1]), order3.index(int(c[:-1]))))


def test_first_dealer_by_the_turned_card():
    # "One player assigns a suit to each player and turns up a random card; the player whose
    # suit it is deals first." Seat i has o, c, e, b; unassigned suits are turned again.
    for seats in (4, 3, 2):
        dealers = set()
        for seed in range(40):
            state = new(seats, seed)
            turned = state["first_dealer"]["turned"]
            assert state["first_dealer"]["by"] == "turned_card"
            assert all(SUITS.index(card[-1]) >= seats for card in turned[:-1])
            assert state["dealer"] == SUITS.index(turned[-1][-1])
            assert len(turned) == 1 or seats < 4
            dealers.add(state["dealer"])
        assert dealers == set(range(seats))


def test_first_dealer_by_the_five_of_espases():
    # "the holder of the 5 of swords chooses trumps for the first hand"; he takes the
    # dealer's place for choosing and the deal moves on from him, but "the first player to
    # lay a card is the one on the right of whoever dealt".
    leaders = set()
    for seats, layout in ((4, "six_piles"), (3, "six_piles"), (2, "six_piles"), (2, "four_piles_and_hand")):
        for seed in range(10):
            state = new(seats, seed, first_dealer="five_of_espases", two_player_layout=layout)
            holder = state["dealer"]
            mine = state["hands"][holder] + [c for pile in (state["piles"] or [[]] * 4)[holder] for c in pile]
            assert "5e" in mine
            assert GAME.to_act(state) == [holder] and state["chooser"] == holder
            dealt = state["first_dealer"]["dealt"]
            assert state["trick"]["leader"] == (dealt + 1) % seats
            leaders.add((dealt + 1) % seats != (holder + 1) % seats)
    assert leaders == {True, False}, "some deals have the 5 away from the seat that dealt"


# --- choosing trumps ------------------------------------------------------------------------------
def test_dealer_chooses_trumps_botifarra_or_delegates():
    state = dealt_by(0)
    assert GAME.to_act(state) == [0]
    assert [GAME.action_text(a) for a in GAME.legal_actions(state, 0)] == [
        "trump o", "trump c", "trump e", "trump b", "botifarra", "delego"]
    chosen = act(state, 0, "trump e")
    assert (chosen["trump"], chosen["botifarra"], chosen["phase"]) == ("e", False, "double")
    nt = act(state, 0, "botifarra")
    assert (nt["trump"], nt["botifarra"]) == (None, True)
    assert GAME.view(nt, 1)["multiplier"] == 2  # "the hand scores double"
    assert refused(state, 1, "trump o") == "not_your_turn"
    assert refused(state, 0, "9o") == "not_now"
    assert refused(state, 0, "pass") == "not_now"
    assert refused_action(state, 0, {"type": "trump", "suit": "x"}) == "bad_field"
    assert refused_action(state, 0, {"type": "trump", "suit": "o", "extra": 1}) == "bad_field"


def refused_action(state, seat, action):
    before = canonical(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, seat, action)
    assert canonical(state) == before
    return caught.value.code


def test_delegation_goes_to_the_partner_who_may_not_pass_it_back():
    state = act(dealt_by(1), 1, "delego")
    assert state["delegated"] and GAME.to_act(state) == [3] and state["chooser"] == 3
    assert {"type": "delegate"} not in GAME.legal_actions(state, 3)
    assert refused(state, 3, "delego") == "botifarra.cannot_delegate"
    state = act(state, 3, "trump b")
    assert state["trump"] == "b"
    # First lead: "the player on the dealer's right, even after a delegation".
    state = script(state, "0: pass", "2: pass")
    assert GAME.to_act(state) == [2] and state["trick"]["leader"] == 2


@pytest.mark.parametrize("seats, options", [(4, {"individual": True}), (3, {}), (2, {})])
def test_no_delegation_without_a_partner(seats, options):
    state = dealt_by(0, seats, **options)
    assert {"type": "delegate"} not in GAME.legal_actions(state, 0)
    assert refused(state, 0, "delego") == "botifarra.cannot_delegate"


# --- doubling --------------------------------------------------------------------------------------
def asked(state):
    return GAME.to_act(state)[0], GAME.view(state, None)["question"]


def test_contro_recontro_sant_vicenc_asked_in_turn_of_the_right_players():
    state = act(dealt_by(0), 0, "trump o")
    # Contro: the chooser's opponents, in playing order after the chooser: 1 then 3.
    assert asked(state) == (1, "contro")
    state = act(state, 1, "pass")
    assert asked(state) == (3, "contro")
    state = act(state, 3, "double")
    # Recontro: the choosing side, in order after the caller (3): 0 then 2.
    assert asked(state) == (0, "recontro")
    assert refused(state, 1, "double") == "not_your_turn"
    state = script(state, "0: pass", "2: double")
    # Sant Vicenç: the contro side, in order after 2: 3 then 1.
    assert asked(state) == (3, "sant_vicenc")
    state = script(state, "3: pass", "1: double")
    assert state["phase"] == "play" and state["doubling"] == 3
    assert state["calls"] == [{"seat": 3, "call": "contro"}, {"seat": 2, "call": "recontro"},
                              {"seat": 1, "call": "sant_vicenc"}]
    assert GAME.view(state, 0)["multiplier"] == 8
    assert GAME.to_act(state) == [1]  # the dealer's right leads


def test_after_a_delegation_the_contro_question_starts_after_the_partner():
    state = script(dealt_by(0), "0: delego", "2: trump c")
    assert asked(state) == (3, "contro")
    state = script(state, "3: pass", "1: pass")
    assert state["phase"] == "play" and state["doubling"] == 0 and GAME.to_act(state) == [1]


def test_everyone_passing_starts_play_at_one():
    state = script(dealt_by(2), "2: trump b", "3: pass", "1: pass")
    assert state["phase"] == "play" and GAME.view(state, 0)["multiplier"] == 1 and GAME.to_act(state) == [3]


@pytest.mark.parametrize("sant_vicenc, botifarra, multipliers", [
    ("not_on_botifarra", False, [1, 2, 4, 8]),
    ("not_on_botifarra", True, [2, 4, 8]),      # no Sant Vicenç on botifarra
    ("also_on_botifarra", True, [2, 4, 8, 16]),  # butinet: ×16
    ("never", False, [1, 2, 4]),
])
def test_multipliers_on_the_2_4_8_scale(sant_vicenc, botifarra, multipliers):
    state = act(dealt_by(0, sant_vicenc=sant_vicenc), 0, "botifarra" if botifarra else "trump o")
    seen = [GAME.view(state, 0)["multiplier"]]
    while state["phase"] == "double":
        state = act(state, GAME.to_act(state)[0], "double")
        seen.append(GAME.view(state, 0)["multiplier"])
    assert seen == multipliers and state["phase"] == "play"


def test_multipliers_on_the_2_3_4_scale():
    state = act(dealt_by(0, scale="2-3-4"), 0, "trump o")
    seen = [GAME.view(state, 0)["multiplier"]]
    while state["phase"] == "double":
        state = act(state, GAME.to_act(state)[0], "double")
        seen.append(GAME.view(state, 0)["multiplier"])
    assert seen == [1, 2, 3, 4]
    nt = act(dealt_by(0, scale="2-3-4"), 0, "botifarra")
    nt = script(nt, "1: double", "2: double")
    assert nt["phase"] == "play" and GAME.view(nt, 0)["multiplier"] == 6


def test_individual_games_ask_no_contro_by_default():
    # The resolution: individual scores are "not multiplied", so no contro is asked.
    for state in (dealt_by(1, individual=True), dealt_by(0, 3)):
        for choice in ("trump e", "botifarra"):
            chosen = act(state, GAME.to_act(state)[0], choice)
            assert chosen["phase"] == "play" and GAME.view(chosen, 0)["multiplier"] == 1


def test_individual_contro_option_asks_contro_never_on_botifarra():
    state = act(dealt_by(1, individual=True, individual_contro=True), 1, "trump e")
    assert asked(state) == (2, "contro")
    state = act(state, 2, "pass")
    assert asked(state) == (3, "contro")
    state = act(state, 3, "double")
    assert state["phase"] == "play" and state["doubling"] == 1 and GAME.view(state, 0)["multiplier"] == 2
    nt = act(dealt_by(1, individual=True, individual_contro=True), 1, "botifarra")
    assert nt["phase"] == "play" and GAME.view(nt, 0)["multiplier"] == 1
    three = script(act(dealt_by(0, 3, individual_contro=True), 0, "trump o"), "1: pass", "2: pass")
    assert three["phase"] == "play"


def test_saves_from_before_the_individual_contro_option_keep_their_contro():
    assert GAME.saved_options({"individual": True})["individual_contro"] is True
    assert GAME.saved_options({"individual_contro": False}) == {"individual_contro": False}


def test_two_players_double_as_two_sides():
    state = act(dealt_by(0, 2), 0, "trump c")
    assert asked(state) == (1, "contro")
    state = act(state, 1, "double")
    assert asked(state) == (0, "recontro")
    state = act(state, 0, "double")
    assert asked(state) == (1, "sant_vicenc")
    state = act(state, 1, "double")
    assert state["phase"] == "play" and GAME.view(state, 0)["multiplier"] == 8 and GAME.to_act(state) == [1]


# --- play -------------------------------------------------------------------------------------------
def test_legal_actions_are_the_legal_cards_of_tricks_py():
    state = playing(["2c 6c 12c 1e 3o", "4c 9b", "4e", "7e"], trump="o", leader=2, trick="9c 5c")
    # Seat 0; partner seat 2 winning with the 9: a counting card or the lowest of the suit.
    assert GAME.legal_cards(state, 0) == ["2c", "12c"]
    assert GAME.legal_actions(state, 0) == [{"type": "play", "card": "2c"}, {"type": "play", "card": "12c"}]
    assert GAME.legal_cards(state, 1) == [] and GAME.legal_actions(state, 1) == []
    lliure = playing(["2c 6c 12c 1e 3o", "4c 9b", "4e", "7e"], leader=2, trick="9c 5c", play_rule="lliure")
    assert GAME.legal_cards(lliure, 0) == ["2c", "6c", "12c"]


@pytest.mark.parametrize("hands, trick, trump, card, code", [
    (["2c 9o", "4b", "5b", "6b"], "1c 5c 6c", "o", "9o", "botifarra.must_follow"),   # a trump instead of following
    (["2c 6c 12c", "4b", "5b", "6b"], "4c 1b 2b", "o", "2c", "botifarra.must_beat"),
    (["2o 1e", "4b", "5b", "6b"], "4c 1b 2b", "o", "1e", "botifarra.must_trump"),
    (["2o 7o 9o 1e", "4b", "5b", "6b"], "4c 2b 5o", "o", "2o", "botifarra.must_trump"),  # over-trump seat 3's 5o
    (["2c 6c 12e", "4b", "5b", "6b"], "1c 5b 2b", "o", "6c", "botifarra.must_play_lowest"),
])
def test_illegal_cards_are_refused_with_the_reason(hands, trick, trump, card, code):
    # Seat 0 plays last: seat 1 led; the trick's winner is an opponent (seat 1 or 3).
    state = playing(hands, trump=trump, leader=1, trick=trick)
    assert GAME.to_act(state) == [0]
    assert refused(state, 0, card) == code


def test_discard_order_refusal_in_individual_games():
    # Seat 0, void in copes and trumps, discards from the first suit held: espases.
    state = playing(["2b 3e", "4o", "5o", "6o"], trump="o", leader=1, trick="7c 8c 9c",
                    individual=True, discard_suit_order=True)
    assert GAME.legal_cards(state, 0) == ["3e"]
    assert refused(state, 0, "2b") == "botifarra.discard_order"


def test_cards_one_does_not_hold_are_refused():
    state = playing(["2c 9o", "4b", "5b", "6b"], leader=0)
    assert refused(state, 0, "4b") == "not_your_card"
    assert refused_action(state, 0, {"type": "play", "card": 7}) == "bad_field"
    assert refused_action(state, 0, {"type": "play"}) == "bad_field"
    assert refused_action(state, 0, {"type": "play", "card": "2c", "x": 1}) == "bad_field"
    assert refused_action(state, 0, {"type": "trump", "suit": "o"}) == "not_now"
    assert refused_action(state, 0, {"type": "dance"}) == "unknown_action"


def test_a_trick_is_collected_by_its_winner_who_leads_next():
    state = playing(["4c 2b", "1c 3b", "9o 4b", "12c 5b"], trump="o", leader=0)
    state = script(state, "0: 4c", "1: 1c", "2: 9o", "3: 12c")
    assert state["won"] == [0, 0, 1, 0] and state["card_points"] == [0, 0, 12, 0]
    assert state["trick"] == {"leader": 2, "cards": []} and GAME.to_act(state) == [2]


def test_three_second_changes_who_wins_not_the_points():
    for three_second, winner in ((False, 1), (True, 0)):
        state = playing(["3c 2b", "1c 3b", "2c 4b", "4c 5b"], trump="o", leader=0, three_second=three_second)
        state = script(state, "0: 3c", "1: 1c", "2: 2c", "3: 4c")
        assert state["won"][winner] == 1 and state["card_points"][winner] == 4


# --- inferences -----------------------------------------------------------------------------------
def test_showing_out_records_a_void_and_everything_it_implies():
    state = playing(["4c 2b", "3b 1b", "9o 4b", "12c 5b"], trump="o", leader=0)
    state = script(state, "0: 4c", "1: 3b")
    # Seat 1 did not follow copes: no copes; an opponent was winning, so no trump either (any
    # trump would have won it); obligada discards the lowest card of a suit: no 2b.
    assert state["voids"][1] == ["c"]
    cannot = set(state["cannot_hold"][1])
    assert {f"{r}c" for r in range(1, 13)} - {"4c"} <= cannot
    assert {f"{r}o" for r in range(1, 13)} <= cannot
    assert {card for card in cannot if card.endswith("b")} == {"2b"}
    assert not {card for card in cannot if card.endswith("e")}  # a discard says nothing of espases


def test_obligada_not_beating_means_the_lowest_and_nothing_higher():
    state = playing(["1c 2b", "6c 3b", "9o 4b", "12c 5b"], trump="e", leader=0)
    state = script(state, "0: 1c", "1: 6c")
    cannot = set(state["cannot_hold"][1])
    assert {"9c"} <= cannot                     # could not beat the 1: no 9
    assert {"5c", "4c", "3c", "2c"} <= cannot   # played the lowest: nothing lower
    assert not {"8c", "7c", "10c", "11c"} & cannot  # between: allowed
    assert state["voids"][1] == []


def test_every_refusal_of_legal_cards_has_a_single_witness():
    # What cannot_hold and the refusal reasons rest on: a card is illegal from a hand exactly
    # when one other card of the hand makes it illegal on its own.
    rng = Rng(3)
    setups = [(4, {"partnerships": True}), (4, {"partnerships": False, "discard_suit_order": True}),
              (3, {}), (2, {}), (4, {"partnerships": True, "three_second": True})]
    checked = 0
    for round_ in range(1500):
        n, flags = setups[round_ % len(setups)]
        deck = [c for c in DECK48 if n != 3 or c[:-1] not in ("2", "3", "4")]
        cards = rng.shuffle(deck)
        trick_size = rng.below(n)
        trick, hand = cards[:trick_size], cards[trick_size:trick_size + 1 + rng.below(8)]
        trump = rng.choice([None, *SUITS])
        variant = rng.choice(["obligada", "lliure", "intermedia"])
        leader = rng.below(n)
        legal = rules.legal_cards(hand, trick, leader, trump, variant, n_players=n, **flags)
        unwitnessed = [c for c in hand if all(
            c in rules.legal_cards([c, x], trick, leader, trump, variant, n_players=n, **flags)
            for x in hand if x != c)]
        assert legal == unwitnessed, (n, flags, hand, trick, leader, trump, variant)
        checked += len(hand) > len(legal)
    assert checked > 300


def test_the_inference_is_never_wrong_over_random_play():
    for seed in range(12):
        seats, options = VARIANTS[seed % len(VARIANTS)]
        for state in random_states(seats, options, seed):
            for seat in range(seats):
                assert not set(state["cannot_hold"][seat]) & set(state["hands"][seat])
                assert not {card[-1] for card in state["hands"][seat]} & set(state["voids"][seat])


# --- scoring --------------------------------------------------------------------------------------
def test_the_side_over_36_scores_the_excess_times_the_multiplier():
    # Side 0 ends with 45: "45 points scores 9, 18 if doubled, 36 if redoubled" (pagat).
    for doubling, expected in ((0, 9), (1, 18), (2, 36), (3, 72)):
        state = last_trick_state("2o 3o 4o 5o", won=[3, 3, 3, 2], card_pts=[20, 11, 19, 10], doubling=doubling)
        # The last trick (no points) goes to seat 3: side 0 = 20 + 19 + 6 tricks, side 1 = 21 + 6.
        state = play_last(state)
        hand = state["last_hand"]
        assert hand["points"] == [45, 27] and sum(hand["points"]) == 72
        assert hand["winner"] == 0 and hand["gains"] == [expected, 0] and state["scores"] == [expected, 0]
        assert hand["card_points"] == [39, 21] and hand["tricks"] == [6, 6]


def test_botifarra_doubles_the_score():
    state = play_last(last_trick_state("2o 3o 4o 5o", won=[3, 3, 3, 2], card_pts=[20, 11, 19, 10], botifarra=True))
    assert state["last_hand"]["gains"] == [18, 0] and state["last_hand"]["multiplier"] == 2


def test_36_36_scores_nothing():
    state = play_last(last_trick_state("2o 3o 4o 5o", won=[3, 3, 3, 2], card_pts=[15, 15, 15, 15], doubling=2))
    assert state["last_hand"]["points"] == [36, 36]
    assert state["last_hand"]["winner"] is None and state["scores"] == [0, 0]


def test_the_engine_scores_like_hand_result():
    for seed in range(8):
        for state in random_states(4, {}, seed, hands_only=True):
            hand = state["last_hand"]
            side, score = hand_result(*hand["points"], hand["botifarra"], hand["doubling"])
            assert hand["winner"] == side and max(hand["gains"]) == score


def test_individual_scores_are_points_minus_the_share():
    # 4 each for himself: points - 18; the last trick (2o 3o 4o 5o) goes to seat 3.
    state = play_last(last_trick_state("2o 3o 4o 5o", won=[3, 3, 3, 2], card_pts=[20, 10, 15, 15], individual=True))
    assert state["last_hand"]["points"] == [23, 13, 18, 18]
    assert state["scores"] == [5, -5, 0, 0] and state["last_hand"]["winner"] is None
    doubled = play_last(last_trick_state("2o 3o 4o 5o", won=[3, 3, 3, 2], card_pts=[20, 10, 15, 15],
                                         individual=True, individual_contro=True, doubling=1))
    assert doubled["scores"] == [10, -10, 0, 0]


def test_three_players_score_points_minus_24():
    state = playing(["5o", "6o", "7o"], trump="c")
    state["tricks"] = [{"leader": 0, "cards": [], "winner": 0}] * 11
    state.update(won=[4, 4, 3], card_points=[30, 20, 10])
    state = play_last(state)  # 7o wins: seat 2
    assert state["last_hand"]["points"] == [34, 24, 14] and state["scores"] == [10, 0, -10]


def test_two_players_one_point_per_two_tricks_odd_point_to_the_poorer():
    state = new(2)
    state["piles"] = [[["5o"]], [["6o"]]]
    state["taken"] = [[0], [0]]
    state["hands"] = [[], []]
    state.update(phase="play", trump="c", trick={"leader": 0, "cards": []},
                 tricks=[{"leader": 0, "cards": [], "winner": 0}] * 23, won=[13, 10], card_points=[40, 20])
    state = play_last(state)  # 6o wins: tricks 13 and 11, both odd
    # 40 + 6 = 46 and 20 + 5 = 25, the odd point to the player with fewer: 46 + 26 = 72.
    assert state["last_hand"]["points"] == [46, 26] and state["scores"] == [10, 0]


# --- ending and rotation ----------------------------------------------------------------------------
def test_the_game_ends_when_a_side_reaches_the_target():
    state = last_trick_state("2o 3o 4o 5o", won=[3, 3, 3, 2], card_pts=[20, 11, 19, 10])
    state["scores"] = [92, 100]
    over = play_last(state)
    assert over["scores"] == [101, 100] and over["result"]["winners"] == [0, 2] and over["phase"] == "over"
    for seat in range(4):
        assert GAME.legal_actions(over, seat) == []
        assert refused_action(over, seat, {"type": "pass"}) == "game_over"
    state["scores"] = [91, 100]
    going_on = play_last(state)
    assert going_on["result"] is None and going_on["hand_number"] == state["hand_number"] + 1


@pytest.mark.parametrize("target", [51, 73, 151, 201])
def test_other_targets(target):
    state = last_trick_state("2o 3o 4o 5o", won=[3, 3, 3, 2], card_pts=[20, 11, 19, 10], target=target)
    state["scores"] = [target - 9, 0]
    assert play_last(state)["result"]["winners"] == [0, 2]
    state["scores"] = [target - 10, 0]
    assert play_last(state)["result"] is None


def test_fixed_hands_end_after_that_many_hands_unless_tied():
    state = last_trick_state("2o 3o 4o 5o", won=[3, 3, 3, 2], card_pts=[20, 11, 19, 10], fixed_hands=8)
    state["hand_number"] = 8
    state["scores"] = [300, 0]
    # The target no longer ends the game; the eighth hand does.
    assert play_last(state)["result"] == {"winners": [0, 2], "scores": [309, 0], "hands": 8}
    state["scores"] = [0, 9]
    tied = play_last(state)
    assert tied["result"] is None and tied["scores"] == [9, 9] and tied["hand_number"] == 9
    state["hand_number"] = 7
    assert play_last(state)["result"] is None


def test_the_deal_moves_one_seat_to_the_right_each_hand():
    for seats, options in VARIANTS:
        state = new(seats, 3, **options)
        dealers = [state["dealer"]]
        for after in random_states(seats, options, 3, hands_only=True):
            if after["result"] is None:
                dealers.append(after["dealer"])
        assert dealers == [(dealers[0] + i) % seats for i in range(len(dealers))]


# --- three and two players -------------------------------------------------------------------------
def test_three_players_share_36_cards_without_2_3_4():
    state = new(3, 4)
    cards = [card for hand in state["hands"] for card in hand]
    assert [len(hand) for hand in state["hands"]] == [12, 12, 12] and len(set(cards)) == 36
    assert not [card for card in cards if card[:-1] in ("2", "3", "4")]


def test_two_players_six_piles_with_the_top_cards_face_up():
    state = new(2, 6)
    assert state["hands"] == [[], []] and [len(p) for p in state["piles"]] == [6, 6]
    view = GAME.view(state, 1)
    assert view["hand"] == [] and view["hand_counts"] == [0, 0]
    for seat in range(2):
        assert [pile["down"] for pile in view["piles"][seat]] == [3] * 6
        assert [pile["top"] for pile in view["piles"][seat]] == [pile[0] for pile in state["piles"][seat]]
    state = script(state, f"{state['dealer']}: trump o", f"{1 - state['dealer']}: pass")
    leader = GAME.to_act(state)[0]
    assert leader == (state["dealer"] + 1) % 2
    tops = [pile[0] for pile in state["piles"][leader]]
    assert GAME.legal_cards(state, leader) == tops
    played = act(state, leader, tops[2])
    pile = played["piles"][leader][2]
    assert GAME.view(played, 0)["piles"][leader][2] == {"top": pile[1], "down": 2}  # the next card turns up
    assert refused(state, leader, state["piles"][leader][0][1]) == "not_your_card"  # face down


def test_two_players_second_form_four_piles_and_eight_in_hand():
    state = new(2, 6, two_player_layout="four_piles_and_hand")
    assert [len(h) for h in state["hands"]] == [8, 8] and [len(p) for p in state["piles"]] == [4, 4]
    view = GAME.view(state, 0)
    assert view["hand"] == state["hands"][0] and view["hand_counts"] == [8, 8]
    state = script(state, f"{state['dealer']}: botifarra", f"{1 - state['dealer']}: pass")
    leader = GAME.to_act(state)[0]
    assert GAME.legal_cards(state, leader) == state["hands"][leader] + [p[0] for p in state["piles"][leader]]


def test_two_players_trumps_fixed_by_the_last_pile():
    state = new(2, 8, two_player_trump="last_pile")
    dealer = state["dealer"]
    assert state["trump"] == state["piles"][dealer][-1][0][-1] and state["phase"] == "double"
    assert GAME.to_act(state) == [1 - dealer]


# --- what each seat sees ----------------------------------------------------------------------------
def test_view_fields():
    state = new(4, 2)
    dealer = state["dealer"]
    view = GAME.view(state, dealer)
    assert view["hand"] == state["hands"][dealer] and view["hand_counts"] == [12] * 4
    assert view["legal_actions"] and view["legal_cards"] == [] and view["to_act"] == [dealer]
    assert GAME.view(state, None)["hand"] is None and GAME.view(state, None)["legal_actions"] == []
    other = GAME.view(state, (dealer + 1) % 4)
    assert other["legal_actions"] == [] and other["turn"] == dealer
    text = canonical(view)
    assert '"rng"' not in text and '"seed"' not in text


def strings_in(value) -> set:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def test_a_view_holds_each_sides_last_trick_and_the_older_ones_only_in_the_hands_tricks():
    """The rules let a player look at each side's last trick; the older ones are in the
    view only as ``tricks``, the hand's record the game log tells (the table never draws
    them: ``test_botifarra_view``)."""
    checked = 0
    for seed in range(6):
        for state in random_states(4, {}, seed):
            tricks = state["tricks"]
            if len(tricks) < 3:
                continue
            view = GAME.view(state, None)
            for side, seats in enumerate(((0, 2), (1, 3))):
                ours = [t for t in tricks if t["winner"] in seats]
                assert view["last_tricks"][side] == (ours[-1] if ours else None)
            shown = [t for t in view["last_tricks"] if t] + [view["last_trick"]]
            older = {card for t in tricks if t not in shown for card in t["cards"]}
            # (the previous hand's summary and the turned cards are other cards of the deck)
            assert view["tricks"] == tricks
            visible = strings_in({k: v for k, v in view.items() if k not in ("last_hand", "first_dealer", "tricks")})
            assert older and not older & visible
            checked += 1
    assert checked > 50


def test_the_hand_summary_after_each_hand():
    for state in random_states(4, {}, 5, hands_only=True):
        hand = GAME.view(state, 0)["last_hand"]
        assert sum(hand["points"]) == 72 and sum(hand["tricks"]) == 12 and sum(hand["card_points"]) == 60
        assert hand["multiplier"] in (1, 2, 4, 8, 16) and len(hand["last_trick"]["cards"]) == 4
        assert hand["scores"] == GAME.view(state, 0)["scores"]


# --- notation -----------------------------------------------------------------------------------------
def test_action_notation_round_trips():
    for action in ({"type": "trump", "suit": "e"}, {"type": "botifarra"}, {"type": "delegate"},
                   {"type": "double"}, {"type": "pass"}, {"type": "play", "card": "10b"}):
        assert GAME.parse_action(GAME.action_text(action)) == action
    assert GAME.parse_action("play 9o") == {"type": "play", "card": "9o"}
    assert GAME.parse_action("Contro") == GAME.parse_action("Sant Vicenç") == {"type": "double"}
    for bad in ("", "trump x", "9z", "13o", "play", "trump", None, "play 9o 1o"):
        with pytest.raises(IllegalAction) as caught:
            GAME.parse_action(bad)
        assert caught.value.code == "botifarra.notation"


def test_hand_record_replays_with_the_trick_rules():
    for seats, options in VARIANTS:
        for step, state in enumerate(random_states(seats, options, 9)):
            if step % 7 or state["phase"] != "play" or not state["tricks"]:
                continue
            replayed = replay_hand(GAME.hand_record(state))
            assert replayed["tricks"] == state["won"] and replayed["card_points"] == state["card_points"]


# --- the contract, on this class directly ----------------------------------------------------------
VARIANTS = [
    (4, {}),
    (4, {"play_rule": "lliure", "scale": "2-3-4"}),
    (4, {"play_rule": "intermedia", "three_second": True, "sant_vicenc": "also_on_botifarra"}),
    (4, {"individual": True, "discard_suit_order": True, "target": 51}),
    (3, {"first_dealer": "five_of_espases"}),
    (2, {}),
    (2, {"two_player_layout": "four_piles_and_hand", "first_dealer": "five_of_espases"}),
    (2, {"two_player_trump": "last_pile", "fixed_hands": 8}),
    (4, {"first_dealer": "five_of_espases", "fixed_hands": 8, "sant_vicenc": "never"}),
]


def random_states(seats, options, seed, hands_only=False, limit=6000):
    """Every state of one random game, or only those right after a hand was scored."""
    state = GAME.new_state(options, seats, seed)
    chooser = Rng(seed + 500)
    for _ in range(limit):
        if not hands_only:
            yield state
        if state["result"]:
            return
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        hand = state["hand_number"]
        state = GAME.apply(state, seat, actions[chooser.below(len(actions))])
        if hands_only and (state["hand_number"] != hand or state["result"]):
            yield state
    raise AssertionError("the game did not end")


def play_randomly(seats, options, seed):
    state = GAME.new_state(options, seats, seed)
    chooser, log = Rng(seed + 1000), []
    while not GAME.is_over(state):
        assert len(log) < 6000, "game did not end"
        movers = GAME.to_act(state)
        assert len(movers) == 1
        seat = movers[0]
        actions = GAME.legal_actions(state, seat)
        assert actions
        action = actions[chooser.below(len(actions))]
        yield state, seat, action, log
        log.append({"seat": seat, "action": action})
        state = GAME.apply(state, seat, action)
    yield state, None, None, log


@pytest.mark.parametrize("seats, options", VARIANTS)
def test_contract_on_random_play(seats, options):
    for seed in range(2):
        final = None
        for state, seat, action, log in play_randomly(seats, options, seed):
            if seat is None:
                final = (state, log)
                break
            before = canonical(state)
            new_state = GAME.apply(state, seat, action)
            assert canonical(state) == before, "apply mutated its input"
            assert json.loads(canonical(new_state)) == new_state
            assert canonical(json.loads(canonical(action))) == canonical(action)
            assert GAME.parse_action(GAME.action_text(action)) == action
            if len(log) % 5 == 0:
                for viewer in (None, *range(seats)):
                    view = GAME.view(state, viewer)
                    assert json.loads(canonical(view)) == view
                idle = [s for s in range(seats) if s != seat]
                for who, bad in ((seat, {"type": "__nope__"}), (seat, None), (seat, "pass"),
                                 (idle[0], action), (seats + 3, action), (seat, {"type": "play", "card": "99x"})):
                    with pytest.raises(IllegalAction) as caught:
                        GAME.apply(state, who, bad)
                    assert caught.value.reason
                    assert canonical(state) == before
        state, log = final
        assert state["result"]["winners"]
        for seat in range(seats):
            with pytest.raises(IllegalAction):
                GAME.apply(state, seat, log[-1]["action"])
        replayed = GAME.new_state(options, seats, seed)
        for entry in json.loads(json.dumps(log)):
            replayed = GAME.apply(replayed, entry["seat"], entry["action"])
        assert canonical(replayed) == canonical(state), "replay diverged"


@pytest.mark.parametrize("seats, options", VARIANTS)
def test_resample_keeps_the_seats_view_and_changes_what_it_cannot_see(seats, options):
    changed = {viewer: 0 for viewer in (None, *range(seats))}
    checked = 0
    for step, state in enumerate(random_states(seats, options, 21)):
        if step % 4:
            continue
        for viewer in changed:
            resampled = GAME.resample(state, viewer, Rng(step * 10 + (viewer or 0)))
            assert canonical(GAME.view(resampled, viewer)) == canonical(GAME.view(state, viewer))
            assert resampled["rng"] != state["rng"]
            for seat in range(seats):
                assert not set(resampled["cannot_hold"][seat]) & set(resampled["hands"][seat])
            everything = sorted(c for h in resampled["hands"] for c in h) + sorted(
                c for piles in resampled["piles"] or [] for p in piles for c in p)
            original = sorted(c for h in state["hands"] for c in h) + sorted(
                c for piles in state["piles"] or [] for p in piles for c in p)
            assert sorted(everything) == sorted(original)
            if canonical(resampled["hands"]) != canonical(state["hands"]) or (
                    canonical(resampled["piles"]) != canonical(state["piles"])):
                changed[viewer] += 1
            if resampled["result"] is None:  # a resampled state is a state: play goes on from it
                mover = GAME.to_act(resampled)[0]
                GAME.apply(resampled, mover, GAME.legal_actions(resampled, mover)[0])
        checked += 1
    assert checked > 20
    assert all(count > checked // 2 for count in changed.values()), changed


def test_resample_keeps_the_five_of_espases_with_its_announced_holder():
    state = new(4, 3, first_dealer="five_of_espases")
    holder = state["dealer"]
    for viewer in (None, *[s for s in range(4) if s != holder]):
        for seed in range(30):
            assert "5e" in GAME.resample(state, viewer, Rng(seed))["hands"][holder]


def test_resample_respects_revealed_voids():
    state = playing(["4c 2b 3b", "1b 6b 7e", "9o 4b 8e", "12c 5b 9e"], trump="o", leader=0)
    state = script(state, "0: 4c", "1: 6b")
    for seed in range(50):
        hands = GAME.resample(state, 0, Rng(seed))["hands"]
        assert not [card for card in hands[1] if card[-1] in "co"]


@pytest.mark.parametrize("seats, options", VARIANTS)
def test_random_games_never_crash_and_every_hand_adds_up_to_72(seats, options):
    for seed in range(6):
        hands = 0
        for state in random_states(seats, options, 100 + seed, hands_only=True):
            hand = state["last_hand"]
            assert sum(hand["points"]) == 72
            assert sum(hand["card_points"]) == 60
            hands += 1
        assert hands >= 1
