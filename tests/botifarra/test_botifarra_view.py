"""Botifarra's seat screen (pyengine/games/botifarra/view.py): every phase of every variant,
hostile values, the last-trick-only rule, taps, sheets, words and catalogs."""

import json
import re
from pathlib import Path

import pytest

from pyengine.core.rng import Rng
from pyengine.games.botifarra import GAME
from pyengine.games.botifarra import view as screen
from pyengine.i18n import Translator
from tests.markup_check import HOSTILE, hostile_render_problems, live_markup, random_play_views

EN = Translator("en")
CA = Translator("ca")
VARIANTS = {
    "partnerships": (4, {}),
    "individual": (4, {"individual": True, "discard_suit_order": True, "individual_contro": True}),
    "three": (3, {"three_second": True}),
    "two_piles": (2, {}),
    "two_hand": (2, {"two_player_layout": "four_piles_and_hand"}),
    "two_last_pile": (2, {"two_player_trump": "last_pile"}),
    "espases_fixed": (4, {"first_dealer": "five_of_espases", "fixed_hands": 8, "scale": "2-3-4",
                          "sant_vicenc": "also_on_botifarra", "play_rule": "intermedia"}),
}
NAMES = ["Anna", "Berta", "Carles", "Dolors"]
I18N = Path(__file__).resolve().parents[2] / "pyengine" / "games" / "botifarra" / "i18n"


def players(n):
    return [{"kind": "human", "name": NAMES[s]} for s in range(n)]


def view_of(state, seat):
    return {**GAME.view(state, seat), "players": players(state["seats"])}


def html(state, seat, ui=None, t=EN):
    return str(screen.render(view_of(state, seat), ui or {}, t))


def advance(state, until, seed=1, choose=None):
    """Random legal play (``choose(actions)`` may pick instead) until ``until(state)``."""
    rng = Rng(seed)
    for _ in range(5000):
        if until(state):
            return state
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        action = (choose and choose(actions)) or actions[rng.below(len(actions))]
        state = GAME.apply(state, seat, action)
    raise AssertionError("never reached")


def my_turn_to_follow(seat=0):
    """A position where ``seat`` must follow a trick and some of its cards are illegal."""
    return lambda s: (s["phase"] == "play" and GAME.to_act(s) == [seat] and s["trick"]["cards"]
                      and len(GAME.legal_cards(s, seat)) < len(GAME.playable(s, seat)))


# --- every phase of every variant draws -----------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_view_of_random_play_draws_a_table(variant):
    seats, options = VARIANTS[variant]
    phases = set()
    for number, view in enumerate(random_play_views(GAME, options, seats, seed=5, every=3, viewers=2)):
        out = str(screen.render(view, {}, EN))
        assert "bt-broken" not in out, (variant, view["phase"])
        # Parsing is 5 times the render's cost: every 10th screen of a long game's tricks is
        # parsed, every other phase's each time (the hostile test parses with hostile values).
        if number % 10 == 0 or view["phase"] != "play":
            assert live_markup(out) == []
        phases.add(view["phase"])
        if view["you"] is not None:
            assert 'data-testid="bt-hand"' in out
        if view["phase"] == "play" and view["turn"] == view["you"] is not None:
            assert out.count('data-ui="{&quot;select&quot;') == len(view["hand"]) + sum(
                1 for pile in (view["piles"] or [[]] * seats)[view["you"]] if pile["top"])
    assert {"play", "over"} <= phases


def test_hostile_names_and_values_never_become_markup():
    views = list(random_play_views(GAME, {}, 4, seed=3, every=9))[:60]
    for payload in HOSTILE:
        for view in views[:12]:
            named = {**view, "players": [{"kind": "human", "name": payload[:24]}] * 4}
            out = str(screen.render(named, {"select": payload, "peek": payload, "gloss": payload}, EN))
            assert "bt-broken" not in out and live_markup(out) == []
    problems, renders = hostile_render_problems(screen.render, views, EN, uis=({}, {"select": "9o", "peek": 0}))
    assert problems == [] and renders > 100


def test_a_view_that_does_not_fit_draws_a_notice_only():
    state = advance(GAME.new_state({}, 4, 2), my_turn_to_follow())
    view = view_of(state, 0)
    for broken in (
        {**view, "hand": view["hand"] + ["9o"]},  # more cards than its count
        {**view, "legal_cards": ["1e"] if "1e" not in view["hand"] else ["2e"]},  # not in hand
        {**view, "trick": {"leader": 9, "cards": []}},
        {**view, "sides": [[0, 1], [2, 3]]},
        {**view, "hand_counts": "12"},
        "not a view",
    ):
        out = str(screen.render(broken, {}, EN))
        assert "bt-broken" in out and "bt-hand" not in out


# --- the last-trick-only rule ----------------------------------------------------------------
def test_the_table_draws_only_the_trick_in_progress_and_each_sides_last_trick():
    state = advance(GAME.new_state({}, 4, 4), lambda s: s["phase"] == "play" and len(s["tricks"]) >= 6
                    and len(s["trick"]["cards"]) == 1)
    tricks = state["tricks"]
    visible = {card for t in [state["trick"], tricks[-1]] for card in t["cards"]}
    for side in ([0, 2], [1, 3]):
        last = next(t for t in reversed(tricks) if t["winner"] in side)
        visible.update(last["cards"])
    older = {card for t in tricks for card in t["cards"]} - visible
    assert older, "the position must have older tricks to hide"
    for seat in (None, 0, 1, 2, 3):
        view = view_of(state, seat)
        # the hand's tricks are the log's record; the turned-up card is public
        text = json.dumps({key: value for key, value in view.items() if key not in ("first_dealer", "tricks")})
        assert not any(f'"{card}"' in text for card in older), seat
        for ui in ({}, {"peek": 0}, {"peek": 1}):
            out = str(screen.render(view, ui, EN))
            assert not any(f'data-card="{card}"' in out for card in older)
            names = [screen.card_name(EN, card) for card in older]
            assert not any(f'aria-label="{name}"' in out or f"{name}<" in out for name in names), (seat, ui)


def test_a_sides_last_trick_shows_on_tap():
    state = advance(GAME.new_state({}, 4, 4), lambda s: s["phase"] == "play" and len(s["tricks"]) >= 4
                    and None not in GAME.view(s, 0)["last_tricks"])
    view = view_of(state, 0)
    for side in (0, 1):
        trick = view["last_tricks"][side]
        out = html(state, 0, {"peek": side})
        panel = out[out.index('data-testid="bt-peeked"'):]
        assert [screen.card_name(EN, c) for c in trick["cards"]] == re.findall(r'aria-label="([^"]+)"', panel)[:4]
        assert EN("botifarra.peek_winner", name=NAMES[trick["winner"]]) in panel
        assert re.search(f'data-testid="bt-peek-{side}"[^>]*aria-expanded="true"|aria-expanded="true"[^>]*data-testid="bt-peek-{side}"', out)
    assert 'data-testid="bt-peeked"' not in html(state, 0)


# --- your turn: select, play, refusals ------------------------------------------------------
def test_a_legal_card_is_selected_then_played_and_an_illegal_one_is_explained():
    state = advance(GAME.new_state({}, 4, 2), my_turn_to_follow())
    legal = GAME.legal_cards(state, 0)
    illegal = next(c for c in state["hands"][0] if c not in legal)
    out = html(state, 0)
    assert out.count("cards-legal") == len(legal) and out.count("cards-dim") == len(state["hands"][0]) - len(legal)
    assert 'data-act' not in out.split('data-testid="bt-hand"')[1]  # nothing plays on a first tap
    chosen = html(state, 0, {"select": legal[0]})
    play = json.dumps({"card": legal[0], "type": "play"}, separators=(",", ":")).replace('"', "&quot;")
    assert chosen.count(f'data-act="{play}"') == 2  # the card itself and the Play button
    assert 'data-testid="bt-play"' in chosen and 'data-testid="bt-hint"' not in chosen
    refused = html(state, 0, {"select": illegal})
    with pytest.raises(Exception) as caught:
        GAME.apply(state, 0, {"type": "play", "card": illegal})
    assert EN.error(caught.value) in refused.replace("&#x27;", "'")
    assert 'data-testid="bt-play"' not in refused and 'role="alert"' in refused
    in_catalan = html(state, 0, {"select": illegal}, CA)
    assert CA.error(caught.value).replace("'", "&#x27;") in in_catalan or CA.error(caught.value) in in_catalan


def test_the_refusal_names_the_duty_to_follow_first():
    state = advance(GAME.new_state({}, 4, 2), lambda s: my_turn_to_follow()(s) and any(
        c[-1] != s["trick"]["cards"][0][-1] for c in s["hands"][0]) and any(
        c[-1] == s["trick"]["cards"][0][-1] for c in s["hands"][0]))
    led = state["trick"]["cards"][0][-1]
    off_suit = next(c for c in state["hands"][0] if c[-1] != led)
    assert EN("err.botifarra.must_follow") in html(state, 0, {"select": off_suit})


def test_nothing_is_tappable_out_of_turn_and_a_stale_selection_is_ignored():
    state = advance(GAME.new_state({}, 4, 2), lambda s: s["phase"] == "play" and GAME.to_act(s) == [1])
    out = html(state, 0, {"select": state["hands"][0][0]})
    assert "data-act" not in out and 'data-ui="{&quot;select' not in out and "bt-hint" not in out
    assert "bt-hand" in out and "bt-play" not in out


def test_the_hand_is_sorted_by_suit_with_trumps_first():
    state = advance(GAME.new_state({}, 4, 6), lambda s: s["phase"] == "play" and s["trump"] == "b" and not s["tricks"],
                    choose=lambda actions: next((a for a in actions if a.get("suit") == "b"), None))
    out = html(state, 0)
    named = {screen.card_label(EN, card): card for card in state["hands"][0]}
    fan = out[out.index('class="cards-fan'):]
    shown = [named[label] for label in re.findall(r'aria-label="([^"]+)"', fan) if label in named]
    assert sorted(shown) == sorted(state["hands"][0])
    suits = [card[-1] for card in shown]
    order = ["b", "o", "c", "e"]
    assert suits == sorted(suits, key=order.index) and "b" in suits


# --- the decisions ---------------------------------------------------------------------------
def test_the_trump_sheet_offers_four_suits_botifarra_and_delego_once():
    state = advance(GAME.new_state({}, 4, 8), lambda s: s["phase"] == "choose")
    dealer = state["chooser"]
    out = html(state, dealer)
    assert all(f'data-testid="bt-trump-{s}"' in out for s in "oceb")
    assert 'data-testid="bt-botifarra"' in out and 'data-testid="bt-delegate"' in out
    assert 'title="coins"' in out and ">oros<" in out  # the Catalan word, translated on hover
    delegated = GAME.apply(state, dealer, {"type": "delegate"})
    partner = delegated["chooser"]
    out = html(delegated, partner)
    assert 'data-testid="bt-delegate"' not in out and 'data-testid="bt-trump-o"' in out
    assert "bt-sheet" not in html(delegated, dealer)
    individual = advance(GAME.new_state({"individual": True}, 4, 8), lambda s: s["phase"] == "choose")
    assert 'data-testid="bt-delegate"' not in html(individual, individual["chooser"])


def test_the_doubling_sheet_asks_the_question_in_turn():
    state = advance(GAME.new_state({}, 4, 8), lambda s: s["phase"] == "double",
                    choose=lambda actions: next((a for a in actions if a["type"] == "trump"), None))
    asked = GAME.to_act(state)[0]
    out = html(state, asked)
    assert ">Contro<" in out and 'data-testid="bt-double"' in out and 'data-testid="bt-pass"' in out
    assert 'title="double"' in out
    assert "bt-sheet" not in html(state, (asked + 2) % 4)
    recontro = GAME.apply(state, asked, {"type": "double"})
    out = html(recontro, GAME.to_act(recontro)[0])
    assert ">Recontro<" in out and "×2" in out  # the multiplier badge in the header


def test_the_bidding_stays_readable_during_the_hand_and_after_it():
    state = advance(GAME.new_state({}, 4, 8), lambda s: s["phase"] == "choose")
    dealer = state["chooser"]
    partner, right, left = (dealer + 2) % 4, (dealer + 1) % 4, (dealer + 3) % 4
    state = GAME.apply(state, dealer, {"type": "delegate"})
    state = GAME.apply(state, partner, {"type": "trump", "suit": "c"})
    # Contro: asked after the chooser (the partner): first ``left``, who passes, then ``right``.
    state = GAME.apply(state, left, {"type": "pass"})
    state = GAME.apply(state, right, {"type": "double"})
    while state["phase"] == "double":
        state = GAME.apply(state, GAME.to_act(state)[0], {"type": "pass"})
    said = [EN("botifarra.bid_delegated", name=NAMES[dealer]),
            EN("botifarra.bid_chose", name=NAMES[partner], choice="copes"),
            EN("botifarra.bid_passed", name=NAMES[left], call="Contro"),
            EN("botifarra.bid_called", name=NAMES[right], call="Contro"),
            EN("botifarra.bid_passed", name=NAMES[partner], call="Recontro"),
            EN("botifarra.bid_passed", name=NAMES[dealer], call="Recontro")]
    for seat in (dealer, left, None):
        out = html(state, seat)
        assert 'data-testid="bt-bidding"' in out
        line = out.split('data-testid="bt-bidding"')[1].split("</p>")[0]
        lines = re.findall(r'<span class="botifarra-said">([^<]*)</span>', line)
        assert lines == said, (seat, lines)
    over = advance(state, lambda s: s["hand_number"] == 2)
    out = html(over, dealer)
    assert 'data-testid="bt-last-bidding"' in out and said[0] in out and said[3] in out
    assert 'data-testid="bt-bidding"' not in out  # the new hand has no bidding yet


def test_catalan_words_stay_catalan_with_a_gloss_on_tap():
    state = advance(GAME.new_state({}, 4, 6), lambda s: s["phase"] == "play" and s["trump"] is not None)
    word = {"o": "oros", "c": "copes", "e": "espases", "b": "bastos"}[state["trump"]]
    for lang in ("en", "es", "pt", "it", "ca"):  # Catalan too: a short explanation for newcomers
        t = Translator(lang)
        out = html(state, 0, {}, t)
        assert f'data-ui="{{&quot;gloss&quot;:&quot;{word}&quot;}}"' in out and f">{word}<" in out
        assert "bt-gloss" not in out
        shown = html(state, 0, {"gloss": word}, t)
        assert 'data-testid="bt-gloss"' in shown and t(f"botifarra.gloss.{word}") in shown


# --- between hands, game over, 2 players -----------------------------------------------------
def test_the_hand_summary_shows_between_hands_and_at_the_end():
    state = advance(GAME.new_state({"target": 51}, 4, 9), lambda s: s["hand_number"] == 2)
    last = state["last_hand"]
    out = html(state, 0)
    assert 'data-testid="bt-summary"' in out and "bt-trick" not in out
    for number in (*last["card_points"], *last["tricks"], *last["gains"]):
        assert f"<td>{number}</td>" in out
    over = advance(state, lambda s: s["result"] is not None)
    out = html(over, 1)
    assert 'data-testid="bt-summary"' in out and EN("botifarra.status_over") in out


def test_the_won_trick_stays_on_the_felt_until_the_next_lead():
    state = advance(GAME.new_state({}, 4, 3), lambda s: s["phase"] == "play" and s["tricks"] and not s["trick"]["cards"])
    winner = state["tricks"][-1]["winner"]
    out = html(state, 0)
    assert f'data-winner="{winner}"' in out and EN("botifarra.took_trick", name=NAMES[winner]) in out
    for card in state["tricks"][-1]["cards"]:
        assert f'data-card="{card}"' in out
    assert screen.pause_ms(state, {"type": "play", "card": "9o"}) == screen.TRICK_PAUSE_MS
    mid = advance(state, lambda s: len(s["trick"]["cards"]) == 1)
    assert screen.pause_ms(mid, {"type": "play", "card": "9o"}) is None
    assert screen.pause_ms(mid, {"type": "pass"}) is None
    new_hand = advance(state, lambda s: s["hand_number"] == 2)
    assert screen.pause_ms(new_hand, {"type": "play", "card": "9o"}) == screen.HAND_PAUSE_MS


def test_two_players_see_both_rows_of_piles_and_only_their_own_tops_are_tappable():
    state = advance(GAME.new_state({}, 2, 3), lambda s: s["phase"] == "play" and GAME.to_act(s) == [0])
    out = html(state, 0)
    assert out.count('class="botifarra-piles"') == 2
    tops = [p[t] for p, t in zip(state["piles"][0], state["taken"][0]) if t < len(p)]
    for card in tops:
        assert f'data-testid="bt-card-{card}"' in out
    for pile, taken in zip(state["piles"][1], state["taken"][1]):
        assert f'data-testid="bt-card-{pile[taken]}"' not in out  # the other side's tops: shown, not buttons
        for hidden in pile[taken + 1:]:
            assert screen.card_name(EN, hidden) not in out


def test_a_spectator_sees_no_hand_and_no_controls():
    state = advance(GAME.new_state({}, 4, 2), my_turn_to_follow())
    out = html(state, None)
    assert "bt-hand" not in out and "data-act" not in out and "bt-sheet" not in out


# --- secrets with one arrangement -------------------------------------------------------------
def test_secrets_are_determined_only_when_no_other_deal_fits():
    state = GAME.new_state({}, 4, 1)
    assert GAME.has_secrets(state, 0)
    state = advance(state, lambda s: s["phase"] == "play" and len(s["tricks"]) == 11 and not s["trick"]["cards"])
    forced = json.loads(json.dumps(state))
    others = [s for s in range(4) if s != 0]
    for seat in others:  # each hidden hand is known not to hold the others' last cards
        forced["cannot_hold"][seat] = [forced["hands"][o][0] for o in others if o != seat]
    assert not GAME.has_secrets(forced, 0)
    assert GAME.has_secrets(state, 0) or all(state["cannot_hold"][s] for s in others)


# --- how-to pages ----------------------------------------------------------------------------
# Every option and choice label on the pages: tests/i18n/test_howto.py. Here what only
# Botifarra's pages must say: the individual games' scores.
MINUS = {"ca": "menys", "en": "minus", "es": "menos", "pt": "menos", "it": "meno"}


def test_howto_pages_name_the_game_and_give_the_individual_scores():
    folder = I18N.parent / "howto"
    for lang, minus in MINUS.items():
        page = (folder / f"{lang}.md").read_text(encoding="utf-8")
        assert page.startswith("# ") and "botifarra" in page.splitlines()[0].lower(), lang
        words = " ".join(page.split())
        assert f"{minus} 18" in words and f"{minus} 24" in words, lang


def test_pass_and_play_hides_every_hand_at_the_hand_off():
    from pyengine.core.table import Table
    from pyengine.shell.local import LocalTable

    local = LocalTable(Table("botifarra", {}, [{"kind": "human", "name": name} for name in NAMES], 12))
    state = local.table.state
    every_card = [screen.card_name(EN, card) for hand in state["hands"] for card in hand]
    shown = str(local.html(EN))
    assert local.status() == "handoff" and 'data-testid="handoff"' in shown
    assert "cards-fan" not in shown and not any(f'"{name}"' in shown for name in every_card)
    mover = GAME.to_act(state)[0]
    local.change_ui({"handoff": mover})
    shown = str(local.html(EN))
    assert local.status() == "human"
    for seat, hand in enumerate(state["hands"]):
        for card in hand:
            assert (f'aria-label="{screen.card_label(EN, card)}"' in shown) == (seat == mover)
