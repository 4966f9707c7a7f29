"""Bog's screen: every phase drawn at 3 and 10 seats (32 and 52 cards), the prompts only for
the seat to act and each button a move the engine accepts, the showdown and the summaries,
hostile views, the catalogs in five languages and the engine's refusals translated."""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pyengine.core.errors import IllegalAction
from pyengine.core.rng import Rng
from pyengine.games.bog import GAME, best_combination
from pyengine.games.bog import view as screen
from pyengine.i18n import LANGUAGES, Translator, catalog
from tests.markup_check import hostile_render_problems, live_markup, random_play_views

I18N = Path(__file__).resolve().parents[2] / "pyengine" / "games" / "bog" / "i18n"
EN = Translator("en")


class Elements(HTMLParser):
    """Every start tag with its attributes, and the page's text."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.tags, self.text = [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def with_testid(self, testid):
        return [attrs for _, attrs in self.tags if attrs.get("data-testid") == testid]

    def acts(self):
        return [json.loads(attrs["data-act"]) for _, attrs in self.tags if "data-act" in attrs]


def draw(view, ui=None, t=EN):
    html = str(screen.render(view, ui or {}, t))
    assert live_markup(html) == []
    return html, Elements(html)


def play_until(seats, seed, stop, options=None):
    """Random legal play from a new table until ``stop(state)``; the state then."""
    state = GAME.new_state(options or {}, seats, seed)
    rng = Rng(seed)
    for _ in range(5000):
        if stop(state):
            return state
        mover = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, mover)
        bogs = [a for a in actions if a["type"] == "bog"]
        action = bogs[0] if bogs and rng.below(2) else actions[rng.below(len(actions))]
        state = GAME.apply(state, mover, action)
    raise AssertionError("the state was never reached")


def mover_view(state, players=True):
    seat = GAME.to_act(state)[0] if GAME.to_act(state) else 0
    view = GAME.view(state, seat)
    if players:
        view["players"] = [{"kind": "human", "name": f"P{s}"} for s in range(state["seats"])]
    return view


def accepted(state, seat, action):
    GAME.apply(state, seat, action)  # raises IllegalAction when the engine refuses
    return True


@pytest.mark.parametrize("seats", [3, 10])
def test_each_phase_is_drawn_with_its_prompt_for_the_seat_to_act(seats):
    deck = 32 if seats == 3 else 52
    exchange = play_until(seats, 11, lambda s: s["phase"] == "exchange")
    assert exchange["size"] == deck
    view = mover_view(exchange)
    html, page = draw(view)
    assert view["you"] == exchange["dealer"]
    assert page.with_testid("bog-keep") and page.with_testid("bog-turned")
    assert {"type": "decline"} in page.acts()
    assert all(accepted(exchange, view["you"], a) for a in page.acts())
    assert {a["card"] for a in page.acts() if a["type"] == "exchange"} == set(view["hand"])
    assert EN("bog.status.you_exchange", card=screen.card_text(exchange["turned"])) in "".join(page.text)

    bogging = play_until(seats, 12, lambda s: s["phase"] == "bog")
    view = mover_view(bogging)
    html, page = draw(view)
    assert page.with_testid("bog-bog") and page.with_testid("bog-out") and page.with_testid("bog-stake")
    assert {"type": "out"} in page.acts()
    assert all(accepted(bogging, view["you"], a) for a in page.acts())
    best = best_combination(view["hand"])
    assert ("cards-selected" in html) == (best["kind"] != "nothing")  # the best combination is lifted

    run = play_until(seats, 13, lambda s: s["phase"] == "run" and len(s["run"]["played"]) >= 3)
    view = mover_view(run)
    html, page = draw(view)
    legal = {a["card"] for a in GAME.legal_actions(run, view["you"])}
    plays = [a for a in page.acts() if a["type"] == "play"]
    assert {a["card"] for a in plays} == set(view["hand"])  # every card a button: a refusal says why
    assert page.with_testid("bog-run") and page.with_testid("bog-showdown")
    raised = re.findall(r'class="cards-hold cards-legal[^"]*"[^>]*data-act="([^"]*)"', html)
    assert {json.loads(a.replace("&quot;", '"'))["card"] for a in raised} == legal


def test_other_seats_see_no_prompt_and_never_a_hand_but_their_own():
    state = play_until(4, 14, lambda s: s["phase"] == "bog")
    mover = GAME.to_act(state)[0]
    for seat in range(4):
        view = GAME.view(state, seat)
        html, page = draw(view)
        assert bool(page.acts()) == (seat == mover)
        for other in range(4):
            if other != seat:
                hidden = set(state["hands"][other]) - {state["turned"]}  # a turned-up card taken is known
                assert not any(f'aria-label="{screen.card_name(EN, card)}"' in html for card in hidden)
    spectator = GAME.view(state, None)
    html, page = draw(spectator)
    assert page.acts() == [] and not page.with_testid("bog-hand")


def test_stake_picker_stays_within_the_least_stake_and_the_stack():
    state = play_until(3, 15, lambda s: s["phase"] == "bog")
    view = mover_view(state)
    low, have = view["min_stake"], view["chips"][view["you"]]
    for asked, shown in ((None, low), (low + 2, low + 2), (10**6, have), (-5, low), ("7", low)):
        html, page = draw(view, {"stake": asked})
        (bog,) = [a for a in page.acts() if a["type"] == "bog"]
        assert bog["chips"] == shown and accepted(state, view["you"], bog)
    broke = json.loads(json.dumps(view))
    broke["chips"][view["you"]] = low - 1
    html, page = draw(broke)
    assert [a["type"] for a in page.acts()] == ["out"]
    assert EN("bog.cannot_bog", count=low) in "".join(page.text)


def test_the_next_deal_shows_the_last_deal_summary_and_the_end_the_standings():
    state = play_until(4, 16, lambda s: s["last_deal"] is not None and s["phase"] in ("exchange", "bog"))
    html, page = draw(mover_view(state))
    (summary,) = page.with_testid("bog-summary")
    assert "open" in summary
    text = "".join(page.text)
    for seat, net in enumerate(state["last_deal"]["net"]):
        if net:
            assert f"P{seat} {screen.signed(net)}" in text
    over = play_until(3, 17, GAME.is_over, {"deals": 2})
    html, page = draw(mover_view(over))
    assert page.with_testid("bog-standings") and page.acts() == []
    winner = over["result"]["winners"][0]
    assert EN("bog.chips_n", count=over["chips"][winner]) in "".join(page.text)


def test_on_our_turn_a_dead_expected_card_is_called_dead_not_next():
    from tests.bog.test_bog_rules import THREE_BOGGED, THREE_RUN, replay

    state = replay(THREE_BOGGED, *THREE_RUN[:5])  # 10♠ played; the J♠ is in the stock
    view = mover_view(state)
    assert view["you"] == 0 and view["run"]["expected"] == "JS"
    html, page = draw(view)
    (expected,) = page.with_testid("bog-expected")
    text = "".join(page.text)
    assert EN("bog.run_dead_you", card="J♠") in text and EN("bog.run_next_you", card="J♠") not in text
    assert EN("bog.status.you_play_one", card="K♠") in text
    held = replay(THREE_BOGGED, *THREE_RUN[:1])  # A♠ led: seat 2 holds the 7♠
    assert EN("bog.run_next_you", card="7♠") in "".join(draw(mover_view(held))[1].text)


def test_earlier_deals_summaries_stay_readable_after_a_player_left():
    state = play_until(3, 7, lambda s: not all(s["active"]) and s["earlier_deals"], {"start_chips": 8})
    gone = next(seat for seat in range(3) if not state["active"][seat])
    assert [d["deal"] for d in state["earlier_deals"]] == list(range(state["last_deal"]["deal"] - 1, 0, -1))
    view = GAME.view(state, gone)
    view["players"] = [{"kind": "human", "name": f"P{s}"} for s in range(3)]
    html, page = draw(view)
    assert page.with_testid("bog-earlier")
    for deal in state["earlier_deals"]:
        (folded,) = page.with_testid(f"bog-summary-{deal['deal']}")
        assert "open" not in folded
    text = "".join(page.text)
    assert EN("bog.earlier_deals", count=len(state["earlier_deals"])) in text
    assert EN("bog.ev.leave", name=f"P{gone}") in text


def test_showdown_highlights_the_winning_combination():
    state = play_until(5, 18, lambda s: s["phase"] == "run" and s["showdown"]["winner"] is not None
                       and len(s["showdown"]["boggers"]) >= 2)
    html, page = draw(mover_view(state))
    winner = state["showdown"]["winner"]
    shown = [attrs for tag, attrs in page.tags if "bog-shown" in attrs.get("class", "").split()]
    assert [int(a["data-seat"]) for a in shown] == state["showdown"]["boggers"]
    assert [int(a["data-seat"]) for a in shown if "bog-shown-win" in a["class"]] == [winner]
    assert page.with_testid("bog-showdown")[0]["data-news"] == f"showdown-{state['deal']}", "news: brought into view"


def test_anticlockwise_and_the_ace_of_diamonds_board_draw():
    state = play_until(6, 19, lambda s: s["phase"] == "run", {"direction": "anticlockwise", "board_ace": "AD"})
    html, page = draw(mover_view(state))
    assert page.with_testid("bog-box-AD") and not page.with_testid("bog-box-AH")
    seats = [int(attrs["data-seat"]) for tag, attrs in page.tags if tag == "li" and "data-seat" in attrs
             and "bog-seat" in attrs.get("class", "")]
    assert seats == GAME.following(state, state["dealer"]) + [s for s in range(6) if not state["active"][s]]
    assert GAME.following(state, 0)[0] == 5  # anticlockwise: the next player is the seat before


def test_hostile_values_never_become_markup():
    # Every 9th position at 3 seats and every 18th at 10, each seen by two viewers taking turns.
    views = [v for seats, seed, every in ((3, 1, 9), (10, 2, 18))
             for v in random_play_views(GAME, {}, seats, seed, every, viewers=2)]
    problems, renders = hostile_render_problems(screen.render, views, EN, uis=({}, {"stake": 4}), every_field_of=25)
    assert problems == [] and renders > 500


def test_pauses_after_the_showdown_and_after_a_deal():
    bogging = play_until(3, 20, lambda s: s["phase"] == "bog" and s["speaker"] == s["dealer"])
    after = GAME.apply(bogging, bogging["dealer"], {"type": "out"})
    assert screen.pause_ms(after, {"type": "out"}) == screen.SHOWDOWN_PAUSE_MS
    assert screen.pause_ms(bogging, {"type": "bog", "chips": 3}) is None
    end = play_until(3, 21, lambda s: s["phase"] == "run" and sum(map(len, s["hands"])) > 0
                     and GAME.run_turn(s)["player"] is not None and len(s["hands"][GAME.run_turn(s)["player"]]) == 1)
    mover = GAME.run_turn(end)["player"]
    action = GAME.legal_actions(end, mover)[0]
    assert screen.pause_ms(GAME.apply(end, mover, action), action) == screen.DEAL_END_PAUSE_MS


def test_the_screens_keys_exist_and_the_combination_names_stay_in_every_language():
    """(Every language having every key with the same placeholders is tests/i18n's.)"""
    used = set(re.findall(r'"(bog\.[a-z_.]+)"', (Path(screen.__file__)).read_text(encoding="utf-8")))
    english = catalog("en")
    assert used - set(english) - {"bog.ev.", "bog.kind.", "bog.rank.", "bog.suit.", "bog.tag.", "bog.status.",
                                  "bog.reason."} == set()
    for lang in LANGUAGES:
        for kind in ("bog", "mitsi", "trio", "poker"):
            assert catalog(lang)[f"bog.kind.{kind}"] == english[f"bog.kind.{kind}"], (lang, kind)
    for option, spec in GAME.options.items():
        assert f"opt.bog.{option}" in english
        for choice in spec.choices:
            assert f"opt.bog.{option}.{choice}" in english


def test_counts_of_chips_cards_and_deals_agree_with_their_number():
    state = play_until(3, 15, lambda s: s["phase"] == "bog")
    view = mover_view(state)
    view["counts"][1], view["chips"][1], view["chips"][2] = 1, 1, 2
    view["stock"], view["board"][0]["chips"], view["board"][0]["by"] = 1, 1, [1, 0, 0]
    html, page = draw(view)
    labels = [attrs.get("aria-label", "") for _, attrs in page.tags]
    assert any(label.startswith("P1: 1 card, 1 chip") for label in labels), labels
    assert any(label.startswith("P2: ") and ", 2 chips" in label for label in labels), labels
    assert "Stock: 1 card" in labels and any(label.endswith(": 1 chip: P0 1") for label in labels), labels
    assert EN("bog.status.over", count=1) == "The game is over after 1 deal."
    assert EN("bog.reason.deals", count=3) == "3 deals played, as agreed."
    assert Translator("pt")("bog.chips_n", count=0) == "0 ficha"  # Brazilian: 0 and 1 are singular
    assert Translator("ca")("bog.cards_n", count=2) == "2 cartes"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_engine_refusals_are_shown_in_the_players_language(lang):
    state = play_until(3, 22, lambda s: s["phase"] == "bog")
    seat = GAME.to_act(state)[0]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, seat, {"type": "bog", "chips": 1})
    shown = Translator(lang).error(refused.value)
    least = refused.value.params["count"]
    assert least > 1 and shown == catalog(lang)["err.bog.stake_low"][1].format(count=least)  # the plural form
    assert shown != refused.value.reason or lang == "en"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_how_to_play_names_every_combination_in_its_language(lang):
    page = (I18N.parent / "howto" / f"{lang}.md").read_text(encoding="utf-8")
    assert page.startswith("# Bog\n")
    words = catalog(lang)
    for kind in ("bog", "double_bog", "mitsi", "trio", "poker"):
        assert f"**{words[f'bog.kind.{kind}']}**" in page, (lang, kind)


def test_a_refused_card_is_named_as_printed_in_every_language():
    state = play_until(3, 23, lambda s: s["phase"] == "run" and len(GAME.run_turn(s)["legal"])
                       < len(s["hands"][GAME.run_turn(s)["player"]]))
    seat = GAME.run_turn(state)["player"]
    legal = GAME.run_turn(state)["legal"]
    wrong = next(card for card in state["hands"][seat] if card not in legal)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, seat, {"type": "play", "card": wrong})
    for lang in LANGUAGES:
        shown = Translator(lang).error(refused.value)
        assert all(screen.card_text(card) in shown for card in legal) and "{" not in shown, (lang, shown)


def test_chips_slide_onto_a_box_from_the_middle_and_a_collected_box_flashes():
    view = mover_view(GAME.new_state({}, 4, 3))  # the antes are on the board
    _, page = draw(view)
    counts = {attrs["data-motion"]: attrs for tag, attrs in page.tags if tag == "text" and "data-motion" in attrs}
    assert len(counts) == sum(1 for box in view["board"] if box["chips"]) > 0
    for index, box in enumerate(view["board"]):
        if box["chips"]:
            mark = counts[f"box-{index}-{box['chips']}"]
            assert "motion-arrive" in mark["class"] and mark["data-sound"] == "chips"
    top = counts[f"box-0-{view['board'][0]['chips']}"]["class"].split()
    assert "motion-dx-0" in top and "motion-dy-3" in top  # the top box's chips come up from the middle
    state = play_until(4, 7, lambda s: any(e["event"] == "collect" for e in s["events"]))
    view = mover_view(state)
    collected = next(e["box"] for e in reversed(view["events"]) if e["event"] == "collect")
    index = [box["box"] for box in view["board"]].index(collected)
    _, page = draw(view)
    flashes = [attrs for tag, attrs in page.tags if tag == "polygon" and "data-motion" in attrs]
    assert [(a["data-motion"], a["class"]) for a in flashes] == [(f"collect-{view['deal']}-{index}", "bog-tri motion-hit")]
