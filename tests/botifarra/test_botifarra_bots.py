"""Botifarra bots (pyengine/games/botifarra/bot.py): legal in every phase and variant, blind
to everything their view does not show, deterministic for a seed, and sane in play.

Strength and speed are figures of bench/botifarra_bots.py, never asserted here."""

import pytest

from pyengine.core.rng import Rng, derive_seed
from pyengine.games.botifarra import bot
from pyengine.games.botifarra.bot import BOTS, Deal, Table, heuristic, view_deal
from pyengine.games.botifarra.rules import Botifarra
from pyengine.games.botifarra.tricks import card_points as points
from pyengine.kits.trick_taking import played_in_view

GAME = Botifarra()

TABLES = [
    pytest.param(4, {}, id="4-partnerships"),
    pytest.param(4, {"play_rule": "lliure", "sant_vicenc": "also_on_botifarra"}, id="4-lliure"),
    pytest.param(4, {"play_rule": "intermedia", "three_second": True, "scale": "2-3-4"}, id="4-intermedia-3second"),
    pytest.param(4, {"first_dealer": "five_of_espases"}, id="4-five-of-espases"),
    pytest.param(4, {"individual": True}, id="4-individual"),
    pytest.param(4, {"individual": True, "discard_suit_order": True, "individual_contro": True},
                 id="4-individual-discard-order-contro"),
    pytest.param(3, {}, id="3-players"),
    pytest.param(3, {"play_rule": "intermedia"}, id="3-intermedia"),
    pytest.param(2, {}, id="2-six-piles"),
    pytest.param(2, {"two_player_layout": "four_piles_and_hand"}, id="2-piles-and-hand"),
    pytest.param(2, {"two_player_trump": "last_pile"}, id="2-last-pile"),
]


def play_hands(seats, options, levels, seed, hands=1, check=None):
    """Plays ``hands`` hands with bots of ``levels`` (by seat), checking that every action
    is one the engine lists for that seat; ``check(view, action)`` sees every decision."""
    state = GAME.new_state(options, seats, seed)
    move = 0
    while not GAME.is_over(state) and state["hand_number"] <= hands:
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        action = BOTS[levels[seat % len(levels)]](view, derive_seed(seed, move))
        assert action in GAME.legal_actions(state, seat), (view["phase"], action)
        if check:
            check(view, action)
        state = GAME.apply(state, seat, action)
        move += 1
    return state


@pytest.mark.parametrize("seats, options", TABLES)
def test_every_level_plays_only_listed_actions_in_every_phase(seats, options):
    phases, choices = set(), []

    def check(view, action):
        phases.add(view["phase"])
        if view["phase"] == "choose":
            choices.append((action["type"], view["partnerships"] or view["players"] == 2))

    state = play_hands(seats, options, ["hard", "easy", "medium", "easy"], seed=seats * 31 + len(options),
                       check=check)
    assert state["hand_number"] >= 2 or GAME.is_over(state)  # the whole hand was played
    expected = {"play"} | ({"choose"} if options.get("two_player_trump") != "last_pile" else set())
    if any(kind != "botifarra" or doubled for kind, doubled in choices) or not choices:
        expected.add("double")  # none at individual tables after botifarra


def test_decisions_come_from_the_view_alone():
    """Two states with the same view for the bot's seat (its unseen cards redrawn by
    ``resample``) get the same action for the same seed, at every level and phase."""
    for seed in (3, 8):
        state = GAME.new_state({}, 4, seed)
        move = 0
        while state["hand_number"] == 1:
            seat = GAME.to_act(state)[0]
            view = GAME.view(state, seat)
            if move % 5 == 0 or view["phase"] != "play":
                other = GAME.resample(state, seat, Rng(seed * 1000 + move))
                assert GAME.view(other, seat) == view
                if sum(map(len, state["hands"])) > 24:  # late in a hand the inferences may fix them
                    assert other["hands"] != state["hands"]
                for level in ("easy", "medium", "hard"):
                    chosen = BOTS[level](GAME.view(other, seat), 77 + move)
                    assert chosen == BOTS[level](view, 77 + move), (level, view["phase"], move)
            state = GAME.apply(state, seat, BOTS["easy"](view, move))
            move += 1


def test_deal_legal_agrees_with_the_engine_everywhere():
    """The search's fast ``Deal.legal`` gives exactly the engine's legal cards (same order)."""
    compared = 0
    for seats, options in [(p.values[0], p.values[1]) for p in TABLES]:
        for seed in (1, 2):
            state = GAME.new_state(options, seats, seed)
            rng = Rng(seed)
            while state["hand_number"] == 1 and not GAME.is_over(state):
                seat = GAME.to_act(state)[0]
                if state["phase"] == "play":
                    view = GAME.view(state, seat)
                    table = Table(view, state["trump"])
                    deal = Deal(table, [list(hand) for hand in state["hands"]],
                                [[pile[taken:] for pile, taken in zip(seat_piles, seat_taken)]
                                 for seat_piles, seat_taken in zip(state["piles"], state["taken"])]
                                if state["piles"] else None,
                                state["trick"]["leader"], list(state["trick"]["cards"]))
                    assert deal.to_play() == seat
                    assert deal.legal() == GAME.legal_cards(state, seat)
                    compared += 1
                state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert compared > 300


def _positions(seats=4, options=None, seeds=range(1, 7)):
    """Play-phase views met while easy bots play one hand of each seed."""
    found = []
    for seed in seeds:
        play_hands(seats, options or {}, ["easy"], seed,
                   check=lambda view, action: found.append(view) if view["phase"] == "play" else None)
    return found


def _partner_sure_trick(view):
    """Last to play, the partner winning, a legal card outside trumps: over-trumping is
    never needed."""
    trick, trump = view["trick"], view["trump"]
    if len(trick["cards"]) != 3 or trump is None or len(view["legal_cards"]) < 2:
        return False
    table = Table(view, trump)
    deal = view_deal(view, table)
    partner_wins = table.partners(deal.winner_so_far(), view["you"])
    return partner_wins and any(card[-1] != trump for card in view["legal_cards"])


def test_hard_never_trumps_its_partners_sure_trick():
    positions = [view for view in _positions(seeds=range(1, 25)) if _partner_sure_trick(view)]
    assert len(positions) >= 5
    for number, view in enumerate(positions):
        card = BOTS["hard"](view, number)["card"]
        assert card[-1] != view["trump"], (view["hand"], view["trick"], card)


def test_the_heuristic_ducks_with_its_cheapest_card_and_loads_a_sure_trick():
    """The rules easy plays by (its noise aside): unable to win, the card with fewest points
    (side suits first); last behind a winning partner, the card with most points."""
    ducked = loaded = 0
    for view in _positions(seeds=range(1, 13)):
        trick, legal = view["trick"]["cards"], view["legal_cards"]
        if not trick or len(legal) < 2:
            continue
        table = Table(view, view["trump"])
        deal = view_deal(view, table)
        card = heuristic(deal, view["you"], legal)
        best = trick[deal.best]
        can_win = any(bot._beats(table, other, best) for other in legal)
        side_suits = [c for c in legal if c[-1] != view["trump"]] or legal
        if table.partners(deal.winner_so_far(), view["you"]):
            if len(trick) == 3:
                assert points(card) == max(points(c) for c in side_suits)
                loaded += 1
        elif not can_win:
            assert card == min(legal, key=lambda c: bot._cheap(table, c))
            assert points(card) == min(points(c) for c in side_suits)
            ducked += 1
    assert ducked >= 10 and loaded >= 5


def test_easy_plays_a_random_card_only_now_and_then():
    views = [view for view in _positions(seeds=range(1, 4)) if len(view["legal_cards"]) >= 3]
    differs = 0
    for number, view in enumerate(views):
        table = Table(view, view["trump"])
        plain = heuristic(view_deal(view, table), view["you"], view["legal_cards"])
        differs += BOTS["easy"](view, number)["card"] != plain
    assert 0 < differs < len(views) / 2


def test_same_view_and_seed_give_the_same_action():
    view = _positions(seeds=[5])[3]
    for level in ("easy", "medium", "hard"):
        assert BOTS[level](view, 9) == BOTS[level](view, 9)


def test_a_view_with_nothing_to_do_is_refused():
    state = GAME.new_state({}, 4, 1)
    waiting = next(seat for seat in range(4) if seat not in GAME.to_act(state))
    with pytest.raises(ValueError):
        BOTS["hard"](GAME.view(state, waiting), 1)


def test_levels_match_the_game():
    assert set(BOTS) == set(GAME.bot_levels) == {"easy", "medium", "hard"}


@pytest.mark.parametrize("seats, options", [(4, {"first_dealer": "five_of_espases"}), (3, {}),
                                            (2, {"two_player_layout": "four_piles_and_hand"})])
def test_imagined_deals_fit_the_view(seats, options):
    """Worlds keep every size the view shows and every fact play revealed; a bot that
    counts cards puts every card not yet played in a hand or pile and no other, one that
    does not may put an older trick's card back in a hand."""
    checked = forgotten = 0
    for view in _positions(seats, options, seeds=(1, 2)):
        me = view["you"]
        pinned = {"5e": view["dealer"]} if options.get("first_dealer") == "five_of_espases" else None
        remembered = GAME.imagined_deal(view, Rng(checked), pinned, remembers=True)
        held = {card for hand in remembered["hands"] for card in hand}
        held |= {card for seat_piles in remembered["piles"] or [] for pile in seat_piles for card in pile}
        played = played_in_view(view, remembers=True)
        assert not held & played and held | played == set(GAME.deck(seats).cards)
        dealt = GAME.imagined_deal(view, Rng(checked), pinned)
        forgotten += bool(played & {card for hand in dealt["hands"] for card in hand})
        seen = played_in_view(view) | set(view["hand"])
        for seat, hand in enumerate(dealt["hands"]):
            assert len(hand) == view["hand_counts"][seat]
            if seat == me:
                assert hand == view["hand"]
                continue
            assert not set(hand) & (seen | set(view["cannot_hold"][seat]))
            if pinned and "5e" in hand:
                assert seat == view["dealer"]
        for seat_piles, shown in zip(dealt["piles"] or [], view["piles"] or []):
            for pile, face in zip(seat_piles, shown):
                assert len(pile) == (1 + face["down"] if face["top"] else 0)
                assert not pile or pile[0] == face["top"]
        checked += 1
    assert forgotten
    assert checked >= 20
