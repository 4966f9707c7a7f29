"""Bozó's seat screen: what each seat sees, legal-only buttons, the reveal, points, languages."""

import json
import re
from html import unescape

import pytest

from pyengine.games.bozo import GAME, legal_bids
from pyengine.games.bozo.view import render
from pyengine.i18n import Translator, catalog
from tests.markup_check import hostile_render_problems, random_play_views

T = Translator("en")
NAMES = (
    "Ana", "Rui", "Eva", "Iva", "Leo", "Mia", "Noé", "Olga", "Paulo", "Quim",
    "Rita", "Sara", "Tiago", "Ugo", "Vera", "Wagner", "Xana", "Yara", "Zé", "Bia",
)


def screen(state, seat, ui=None, lang="en"):
    view = GAME.view(state, seat)
    view["players"] = [{"kind": "human", "name": n} for n in NAMES[: state["seats"]]]
    return str(render(view, ui or {}, Translator(lang)))


def table(dice, turn=0, bids=(), direction=1, **options):
    state = GAME.new_state(options, len(dice), seed=2)
    state["dice"] = [sorted(c) for c in dice]
    state["counts"] = [len(c) for c in dice]
    state["turn"], state["direction"], state["choosing"] = turn, direction, False
    state["bids"] = [{"seat": s, "count": c, "face": f} for s, c, f in bids]
    return state


def acts(html):
    return [json.loads(unescape(a)) for a in re.findall(r'data-act="([^"]*)"', html)]


def enabled_faces(html):
    return sorted(int(f) for f in re.findall(r'data-testid="bid-face-(\d)"', html))


def text(html):
    return unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", "", html, flags=re.S)))


def test_own_cup_shown_others_hidden():
    state = table([[1, 4, 6], [2, 5, 5]])
    html = screen(state, 1)
    cup = html[html.index('data-testid="my-cup"'):]
    assert 'aria-label="quina (5)"' in cup and 'aria-label="duque (2)"' in cup
    assert 'aria-label="quadra (4)"' not in html
    assert "data-testid=\"my-cup\"" not in screen(state, None)


def test_face_names_are_portuguese_in_every_language():
    state = table([[1, 4, 6], [2, 5, 5]], turn=1, bids=[(0, 3, 5)])
    for lang in ("en", "pt", "es", "ca", "it"):
        words = text(screen(state, 1, {"count": 4}, lang))
        assert "3 quinas" in words, lang
        for name in ("ases", "duques", "ternos", "quadras", "quinas", "senas"):
            assert name in words, (lang, name)


def test_every_enabled_button_is_a_legal_action():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], turn=2, bids=[(0, 6, 5), (1, 3, 1)])
    legal = GAME.legal_actions(state, 2)
    for count in range(1, 10):
        html = screen(state, 2, {"count": count})
        for action in acts(html):
            assert action in legal
    # after 6 quinas and 3 ases: 6 senas (not 6 quadras or quinas) or 6 ases; below 6, aces only
    assert enabled_faces(screen(state, 2, {"count": 6})) == [1, 6]
    assert enabled_faces(screen(state, 2, {"count": 5})) == [1]
    assert enabled_faces(screen(state, 2, {"count": 7})) == [1, 2, 3, 4, 5, 6]
    assert {"type": "doubt"} in acts(screen(state, 2))


def test_picker_starts_at_the_smallest_raise_on_an_ordinary_face_and_clamps():
    state = table([[2, 3, 5], [1, 4, 6]], turn=1, bids=[(0, 3, 1)])
    low = min(c for c, f in legal_bids(GAME.view(state, 1), 1) if f != 1)
    html = screen(state, 1)
    assert re.search(r'data-testid="bid-count"[^>]*>(\d+)<', html).group(1) == str(low)
    html = screen(state, 1, {"count": 999})
    assert re.search(r'data-testid="bid-count"[^>]*>(\d+)<', html).group(1) == "6"


def test_direction_is_shown_and_chosen_with_named_neighbours():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], turn=0, direction=-1)
    assert 'data-way="right"' in screen(state, 1)
    state["choosing"] = True
    html = screen(state, 0)
    assert acts(html) == [{"type": "direction", "way": "left"}, {"type": "direction", "way": "right"}]
    words = text(html)
    assert "Left: Rui speaks after you" in words and "Right: Eva speaks after you" in words
    assert "Ana is choosing the direction of play" in text(screen(state, 1))


def test_next_speaker_is_marked_in_the_direction_of_play():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6], [3, 3, 3]], turn=1, direction=-1)
    html = screen(state, 3)
    assert re.search(r'class="[^"]*cup-next[^"]*" data-seat="0"', html)
    state["direction"] = 1
    assert re.search(r'class="[^"]*cup-next[^"]*" data-seat="2"', screen(state, 3))
    state["choosing"] = True  # nobody speaks next until the starter picks the way
    html = screen(state, 3)
    assert "cup-next" not in html and "speaks next" not in text(html)


def test_reveal_explains_the_conditional_aces():
    state = table([[1, 1, 3], [1, 4, 4]], turn=1, bids=[(0, 2, 6)])
    after = GAME.apply(state, 1, {"type": "doubt"})
    words = text(screen(after, 0))
    assert "Rui doubted Ana's 2 senas." in words
    assert "There were 0 senas." in words and "no sena on the table" in words
    assert "Ana loses a die." in words
    reveal = screen(after, 0)[screen(after, 0).index('data-testid="reveal"'):]
    assert reveal.count("die-hit") == 0
    state = table([[1, 1, 3], [1, 4, 6]], turn=1, bids=[(0, 4, 6)])
    after = GAME.apply(state, 1, {"type": "doubt"})
    html = screen(after, 1)
    assert "There were 4 senas." in text(html) and "there is a sena on the table" in text(html)
    assert html[html.index('data-testid="reveal"'):].count("die-hit") == 4


def test_points_table_marks_round_winners_and_the_round_winner_is_announced():
    state = table([[2], [3], []], turn=1, bids=[(0, 2, 2)])
    state["round_winners"], state["points"], state["round"] = [2], [0, 0, 1], 2
    after = GAME.apply(state, 1, {"type": "doubt"})
    html = screen(after, 0)
    assert "Rui wins round 2 and scores a point." in text(html)
    points = html[html.index('data-testid="points-table"'):]
    assert 'aria-label="won round 1"' in points and 'aria-label="won round 2"' in points
    rows = re.findall(r"<tr><th scope=\"row\">(\w+)</th>(.*?)</tr>", points)
    totals = {name: re.findall(r"<strong>(\d+)</strong>", cells)[0] for name, cells in rows}
    assert totals == {"Ana": "0", "Rui": "1", "Eva": "1"}


def test_blind_table_offers_look_and_blind_bids():
    state = table([[2, 3, 5], [1, 4, 6]], blind_bids=True)
    state["looked"] = [False, False]
    html = screen(state, 0)
    assert {"type": "look"} in acts(html) and enabled_faces(html)
    assert "Your cup is still closed." in text(html) and "quina (5)" not in text(html)
    after = GAME.apply(state, 0, {"type": "bid", "count": 2, "face": 3})
    assert "in the dark" in text(screen(after, 1))


def test_raise_window_offers_raises_and_keep_to_the_bidder():
    state = table([[2, 3, 5], [1, 4, 6], [2, 2, 6]], raise_own=True)
    state = GAME.apply(state, 0, {"type": "bid", "count": 2, "face": 2})
    html = screen(state, 0)
    assert {"type": "keep"} in acts(html) and {"type": "doubt"} not in acts(html)
    assert enabled_faces(html) and "Before Rui speaks you may raise your own bid again" in text(html)
    waiting = screen(state, 1)
    assert acts(waiting) == [] and "Waiting for Ana" in text(waiting)
    assert {"type": "doubt"} in acts(screen(GAME.apply(state, 0, {"type": "keep"}), 1))


def test_waiting_seat_has_no_buttons_to_play():
    html = screen(table([[2, 3], [4, 4]], turn=1), 0)
    assert acts(html) == [] and "Waiting for Rui" in text(html)


def test_odds_helper_gives_the_exact_conditional_chance():
    state = table([[1, 1], [2, 3]], turn=0, bids=[(1, 2, 6)])
    words = text(screen(state, 0, {"odds": True}))
    assert "Chance that 2 senas is true, from your dice: 31%" in words  # 1 - (5/6)**2


@pytest.mark.parametrize("seats", [10, 20])
def test_every_seat_is_rendered_up_to_the_maximum(seats):
    state = GAME.new_state({}, seats, seed=4)
    html = screen(state, 3)
    assert len(re.findall(r'class="cup-player[^"]*" data-seat=', html)) == seats
    assert all(name in html for name in NAMES[:seats])


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_complete_languages_have_every_key(lang):
    english = {k for k in catalog("en") if k.startswith(("bozo.", "opt.bozo.", "level.bozo.", "err.bozo."))}
    assert english <= set(catalog(lang))
    state = table([[1, 5, 5], [1, 2, 3]], turn=1, bids=[(0, 4, 5)])
    after = GAME.apply(state, 1, {"type": "doubt"})
    html = screen(after, after["turn"], {"odds": True}, lang)
    assert "bozo." not in re.sub(r'(class|data-testid)="[^"]*"', "", re.sub(r"<style>.*?</style>", "", html, flags=re.S))


def test_every_option_and_error_code_has_a_message():
    english = catalog("en")
    for name, option in GAME.options.items():
        assert f"opt.bozo.{name}" in english
        for choice in option.choices:
            assert f"opt.bozo.{name}.{choice}" in english
    for code in GAME.reasons:
        assert f"err.{code}" in english, code


def test_hostile_values_in_the_view_never_become_markup():
    views = [*random_play_views(GAME, {}, 3, seed=5, every=61),
             *random_play_views(GAME, {"blind_bids": True, "raise_own": True, "game_end": "rounds"}, 4,
                                seed=6, every=97)]
    problems, renders = hostile_render_problems(render, views, T, uis=({}, {"odds": True, "count": 3}))
    assert problems == []
    assert renders > 10 * len(views)


def test_the_as_is_a_plain_one_pip_ace_not_perudos_paco():
    html = screen(table([[1, 4, 6], [2, 5, 5]]), 0)
    cup = html[html.index('data-testid="my-cup"'):]
    label = f'aria-label="{T("bozo.die.1")}"'
    ace = cup[cup.index(label):cup.index("</svg>", cup.index(label))]
    assert "die-wild" not in html and "<path" not in ace and ace.count("<circle") == 1


def test_the_hands_before_unfold_newest_first_and_say_when_only_the_last_are_kept():
    state = table([[2, 3, 5], [2, 4, 6], [2, 2, 6]], turn=0, bids=[(2, 5, 2)])
    assert 'data-testid="history-toggle"' not in screen(state, 0)  # nothing settled yet
    state = GAME.apply(state, 0, {"type": "doubt"})  # four duques: Eva loses a die
    state = GAME.apply(state, state["turn"], {"type": "direction", "way": "left"}) if state["choosing"] else state
    state = GAME.apply(state, state["turn"], {"type": "bid", "count": 1, "face": 6})
    state = GAME.apply(state, state["turn"], {"type": "doubt"})
    closed = text(screen(state, 0))
    assert "History: 2 hands" in closed and 'data-testid="history"' not in screen(state, 0)
    opened = screen(state, 0, {"history": True})
    listed = text(opened[opened.index('data-testid="history"'):opened.index("</ol>", opened.index('data-testid="history"'))])
    assert listed.index("Round 1 · hand 2") < listed.index("Round 1 · hand 1")
    assert "Ana doubted Eva's 5 duques." in listed and "Eva loses a die." in listed
    state["history"] = [dict(record, hand=record["hand"] + 8) for record in state["history"]]
    assert "History: last 2 hands" in text(screen(state, 0))
