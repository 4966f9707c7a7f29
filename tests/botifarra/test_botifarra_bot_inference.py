"""What the hard Botifarra bot reads from the table (pyengine/games/botifarra/bot.py): voids
revealed by play, the suit named as trumps and the doubling calls as evidence about hands, the
exact search of the last tricks, and doubling from the hand's expected points.

Constructed positions, a few worlds each: strength itself is bench/botifarra_bots.py's."""

from pyengine.core.rng import Rng
from pyengine.games.botifarra import bot
from pyengine.games.botifarra.rules import Botifarra

GAME = Botifarra()

#: Cards nobody wants as trumps: low, no manilla or ace anywhere.
WEAK = ["2o", "3o", "2c", "3c", "4c", "2e", "3e", "4e", "2b", "3b", "4b", "5b"]
#: Eight trumps from the manilla down, and the side manillas.
STRONG = ["9o", "1o", "12o", "11o", "10o", "8o", "7o", "6o", "9c", "9e", "9b", "1c"]


def deal_hands(state: dict, seat: int, cards: list) -> dict:
    """``state`` with ``cards`` in ``seat``'s hand, swapped for cards of the other hands."""
    hands = state["hands"]
    mine = [card for card in hands[seat] if card not in cards]
    for other, hand in enumerate(hands):
        if other != seat:
            for i, card in enumerate(hand):
                if card in cards:
                    hand[i] = mine.pop()
    hands[seat] = GAME.sort_hand(state, cards)
    return state


def doubling_view(cards: list) -> dict:
    """The first contro question of a fresh game (the dealer chose oros), put to the
    dealer's right-hand opponent holding ``cards``."""
    state = GAME.new_state({}, 4, 7)
    dealer = state["chooser"]
    asked = (dealer + 1) % 4
    state = GAME.apply(deal_hands(state, asked, cards), dealer, {"type": "trump", "suit": "o"})
    assert GAME.to_act(state) == [asked]
    return GAME.view(state, asked)


def test_a_player_who_does_not_follow_is_void_and_no_world_deals_him_that_suit():
    state = GAME.new_state({}, 4, 3)
    dealer = state["chooser"]
    leader, follower = (dealer + 1) % 4, (dealer + 2) % 4
    without_copes = [card for card in GAME.deck(4).cards if not card.endswith("c")][:12]
    state = deal_hands(state, follower, without_copes)
    state = GAME.apply(state, dealer, {"type": "trump", "suit": "b"})
    while state["phase"] == "double":
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, {"type": "pass"})
    lead = next(card for card in state["hands"][leader] if card.endswith("c"))
    state = GAME.apply(state, leader, {"type": "play", "card": lead})
    state = GAME.apply(state, follower, {"type": "play", "card": GAME.legal_cards(state, follower)[0]})
    me = (follower + 1) % 4
    view = GAME.view(state, me)
    assert "c" in view["voids"][follower]
    table = bot.Table(view, view["trump"])
    sample = bot.sampler(view, table)
    rng = Rng(5)
    for _ in range(30):
        world = sample(rng)
        assert not [card for card in world.hands[follower] if card.endswith("c")]
        assert any(card.endswith("c") for seat in range(4) if seat not in (me, follower)
                   for card in world.hands[seat])


def test_a_choice_of_trumps_makes_hands_long_in_them_likelier():
    long_in_oros = ["9o", "1o", "12o", "11o", "7o", "5o", "2c", "3c", "2e", "3e", "2b", "3b"]
    short_in_oros = ["2o", "9c", "1c", "12c", "11c", "7c", "3c", "2e", "3e", "4e", "2b", "3b"]
    assert bot.choice_likelihood(long_in_oros, "o") > 5 * bot.choice_likelihood(short_in_oros, "o")
    assert bot.choice_likelihood(short_in_oros, "c") > 5 * bot.choice_likelihood(long_in_oros, "c")
    assert bot.call_likelihood(STRONG, "o", True) > 0.9 > 0.1 > bot.call_likelihood(WEAK, "o", True)


def test_worlds_are_weighed_by_the_suit_the_chooser_named():
    """The contro question: the dealer chose oros, so worlds where he holds the manilla of
    oros weigh more, and the worlds' mean count of his trumps rises with the weights."""
    view = doubling_view(WEAK)
    table = bot.Table(view, view["trump"])
    weigh = bot.choice_weigh(view, table)
    sample = bot.sampler(view, table)
    dealer = view["chooser"]
    rng = Rng(11)
    worlds = [sample(rng) for _ in range(60)]
    weights = [weigh(world) for world in worlds]
    trumps = [sum(card.endswith("o") for card in world.hands[dealer]) for world in worlds]
    plain = sum(trumps) / len(trumps)
    weighed = sum(w * t for w, t in zip(weights, trumps)) / sum(weights)
    assert weighed > plain + 1


def test_hard_doubles_a_strong_hand_and_passes_a_weak_one():
    assert bot.choose_action(doubling_view(STRONG), "hard", 1) == {"type": "double"}
    assert bot.choose_action(doubling_view(WEAK), "hard", 1) == {"type": "pass"}


def test_the_exact_search_finds_the_only_winning_lead_where_the_heuristic_misses_it():
    """Two tricks left, oros trumps, seat 0 to lead: 2c gives everything away; 5e, which
    nobody beats, takes 17 points (its partner loads the ace of espases, the ace of copes
    comes down on it, then the lead stays)."""
    view = GAME.view(GAME.new_state({}, 4, 1), 0)
    table = bot.Table(view, "o")
    deal = bot.Deal(table, [["2c", "5e"], ["1c", "9c"], ["1e", "6e"], ["11c", "8c"]], None, 0, [])
    assert bot.heuristic(deal, 0, deal.legal()) == "2c"
    assert bot.ExactSearch(0).card_points(deal, ["2c", "5e"]) == [0.0, 17.0]


def test_capped_hand_value_counts_only_what_a_side_needs_to_win():
    view = doubling_view(WEAK)
    table = bot.Table(view, view["trump"])
    mine = table.side_of[table.me]
    view["scores"] = [0, 0]
    view["scores"][mine] = 95
    assert bot.hand_value(view, table, 46, 2, capped=True) == 6  # 20 scored, 6 needed
    assert bot.hand_value(view, table, 46, 2, capped=False) == 20
    assert bot.hand_value(view, table, 26, 2, capped=True) == -20  # they need 101


def test_a_suit_the_other_side_is_strong_in_draws_a_contro():
    """``contro_odds``, which hard's trump choice weighs the doubled score by: the other
    side holding the trumps' top and length is likely to double them, holding nothing not."""
    view = GAME.view(GAME.new_state({}, 4, 1), 0)
    table = bot.Table(view, None)
    rest = [card for card in GAME.deck(4).cards if card not in STRONG + WEAK]
    them_strong = bot.Deal(table, [WEAK, STRONG, rest[:12], rest[12:]], None, 0, [])
    them_weak = bot.Deal(table, [STRONG, WEAK, rest[:12], rest[12:]], None, 0, [])
    assert bot.contro_odds(them_strong, table, "o") > 0.9
    assert bot.contro_odds(them_weak, table, "o") < 0.2
