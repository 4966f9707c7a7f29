"""Crown and Anchor seat screen: buttons play legal actions, every string is translated."""

import json
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest

from buildtools.po import read_po
from pyengine.games.crown_anchor import GAME
from pyengine.games.crown_anchor.view import _percent, render
from pyengine.i18n import Translator, catalog
from tests.markup_check import hostile_render_problems, random_play_views

VOID = {"br", "img", "input", "meta", "link", "hr", "circle", "rect", "path"}
NAMES = [{"kind": "human", "name": n} for n in ("Ana", "<b>Rui</b>", "Eva", "Bo")]


class Checker(HTMLParser):
    """Collects buttons and checks that tags nest."""

    def __init__(self):
        super().__init__()
        self.stack, self.buttons, self.current = [], [], None

    def handle_starttag(self, tag, attrs):
        if tag == "button":
            self.current = {"attrs": dict(attrs), "text": ""}
            self.buttons.append(self.current)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1:]}>"
        self.stack.pop()
        if tag == "button":
            self.current = None

    def handle_data(self, data):
        if self.current is not None:
            self.current["text"] += data.strip()


class Recording(Translator):
    """A translator that fails on any key the English catalog lacks."""

    def __call__(self, key, **params):
        assert key in catalog("en"), f"missing catalog key {key}"
        return super().__call__(key, **params)


def screen(state, seat, ui=None, lang="en"):
    view = GAME.view(state, seat)
    view["players"] = NAMES[: state["seats"]]
    html = str(render(json.loads(json.dumps(view)), ui or {}, Recording(lang)))
    checker = Checker()
    checker.feed(html)
    assert checker.stack == []
    for button in checker.buttons:
        assert button["text"] or button["attrs"].get("aria-label"), button
    return html, checker.buttons


def acts(buttons):
    return [json.loads(b["attrs"]["data-act"]) for b in buttons if "data-act" in b["attrs"]]


def states():
    """One state per kind of moment: betting, rolling, after a roll, volunteering, over."""
    betting = dict(GAME.new_state({"min_bet": 2, "max_bet": 30}, 4, 2), banker=3)
    betting = GAME.apply(betting, 0, {"type": "bet", "symbol": "crown", "chips": 4})
    betting = GAME.apply(betting, 1, {"type": "end"})
    rolling = betting
    for seat in (0, 2):
        rolling = GAME.apply(rolling, seat, {"type": "done"})
    rolled = GAME.apply(rolling, 3, {"type": "roll"})
    volunteer = GAME.new_state({"volunteer": True, "bank": "fixed"}, 3, 1)
    agreed = rolled
    for seat in GAME.to_act(agreed):
        agreed = GAME.apply(agreed, seat, {"type": "end"})
    over = GAME.apply(agreed, agreed["banker"], {"type": "end"})
    return {"betting": betting, "rolling": rolling, "rolled": rolled, "volunteer": volunteer,
            "agreed": agreed, "over": over}


@pytest.mark.parametrize("moment", ["betting", "rolling", "rolled", "volunteer", "agreed", "over"])
def test_every_button_plays_a_legal_action_for_its_seat(moment):
    state = states()[moment]
    for seat in (None, *range(state["seats"])):
        for lang in ("en", "pt", "es"):
            html, buttons = screen(state, seat, lang=lang)
            for action in acts(buttons):
                assert seat in GAME.to_act(state), "only a seat that may act gets action buttons"
                GAME.apply(state, seat, action)
            for button in buttons:
                if "data-ui" in button["attrs"]:
                    assert isinstance(json.loads(button["attrs"]["data-ui"]), dict)


def test_the_punter_screen_has_the_layout_chips_and_controls():
    state = GAME.apply(states()["betting"], 0, {"type": "bet", "symbol": "crown", "chips": 6})
    html, buttons = screen(state, 0, {"chip": 25})
    cells = [a for a in acts(buttons) if a["type"] == "bet"]
    assert {a["symbol"] for a in cells} == {"hearts", "diamonds", "spades", "clubs", "crown", "anchor"}
    # 25 chips, trimmed to the table maximum of 30 where 10 already lie on the crown.
    assert {"type": "bet", "symbol": "crown", "chips": 20} in cells
    assert {"type": "bet", "symbol": "hearts", "chips": 25} in cells
    for testid in ("ca-done", "ca-clear", "ca-end", "ca-leave", "ca-chip-25", "ca-seats", "ca-fairness"):
        assert f'data-testid="{testid}"' in html
    assert re.search(r'aria-pressed="true"[^>]*data-testid="ca-chip-25"', html)
    assert "&lt;b&gt;Rui&lt;/b&gt;" in html and "<b>Rui</b>" not in html
    assert "Agree to stop" in html, "Rui proposed to stop, so Ana is asked to agree"


def test_a_banker_proposal_is_shown_to_the_punters():
    state = GAME.apply(states()["rolling"], 3, {"type": "end"})
    html, _ = screen(state, 0)
    assert "Bo (the banker) proposes to stop." in html and "Agree to stop" in html
    assert "banker, wants to stop" in html


def test_chip_sizes_top_up_to_the_minimum_and_stop_at_the_stack():
    state = dict(GAME.new_state({"min_bet": 5, "start_chips": 12}, 2, 2), banker=0)
    _, buttons = screen(state, 1, {"chip": 1})
    assert {a["chips"] for a in acts(buttons) if a["type"] == "bet"} == {5}
    state = GAME.apply(state, 1, {"type": "bet", "symbol": "crown", "chips": 10})
    _, buttons = screen(state, 1, {"chip": 1})
    bets = [a for a in acts(buttons) if a["type"] == "bet"]
    assert bets == [{"type": "bet", "symbol": "crown", "chips": 1}]
    disabled = [b for b in buttons if "disabled" in b["attrs"]]
    assert len(disabled) == 5


def test_leaving_asks_first():
    state = states()["betting"]
    html, _ = screen(state, 2)
    assert 'data-testid="ca-leave"' in html and "ca-leave-yes" not in html
    html, buttons = screen(state, 2, {"leaving": True})
    assert {"type": "leave"} in acts(buttons)


def test_banker_and_spectator_screens():
    rolling = states()["rolling"]
    html, buttons = screen(rolling, 3)
    assert acts(buttons) == [{"type": "roll"}, {"type": "end"}] and "propose to end" in html
    _, buttons = screen(states()["agreed"], states()["agreed"]["banker"])
    assert {"type": "end"} in acts(buttons) and {"type": "roll"} in acts(buttons)
    html, buttons = screen(rolling, None)
    assert acts(buttons) == [] and "Waiting for Bo to roll" in html


def test_after_a_roll_the_dice_payouts_and_history_show():
    state = states()["rolled"]
    html, _ = screen(state, 0)
    roll = f'data-news="roll-{state["rolls"]}" role="group"'
    assert 'class="crown_anchor-dice motion-shake" data-testid="ca-dice"' in html and roll in html
    assert f'data-motion="roll-{state["rolls"]}"' in html, "each roll is news and shaken once (ui/motion.py)"
    for symbol in state["dice"]:
        assert f'aria-label="{symbol.capitalize()}"' in html
    delta = state["last"]["delta"][0]
    assert (f"+{delta}" if delta > 0 else str(delta).replace("-", "−")) in html
    assert 'data-testid="ca-history"' in html
    later = GAME.apply(state, 0, {"type": "bet", "symbol": "hearts", "chips": 2})
    html = screen(later, 0)[0]
    assert f'data-motion="roll-{state["rolls"]}"' in html, "the same roll: the page does not shake it again"
    assert 'data-motion="stake-0-hearts-2"' in html, "a new stake slides onto its box"


def test_fairness_panel_uses_the_exact_edge_and_counts():
    html, _ = screen(states()["rolled"], None)
    assert "House edge: 7.9% (17/216" in html
    assert "Vantagem da banca: 7,9% (17/216" in screen(states()["rolled"], None, lang="pt")[0]
    assert "1 roll, 3 dice so far." in html
    html, _ = screen(states()["volunteer"], None)
    assert "Fair payouts" in html and "1:1 · 3:1 · 5:1" in html


def test_percentages_round_halves_to_even_as_fractions_do():
    """``_percent`` rounds in integers what the screen once rounded as a ``Fraction``."""
    tenths = lambda key, whole, tenth: (whole, tenth)  # noqa: E731
    for part, total in ((1, 2000), (3, 2000), (-17, 216), (-1, 37), (125, 216), (0, 1), (2, 3)):
        assert _percent(part, total, tenths) == divmod(round(Fraction(part, total) * 1000), 10), (part, total)


def test_volunteer_screen_and_game_over():
    html, buttons = screen(states()["volunteer"], 1)
    assert acts(buttons) == [{"type": "volunteer", "yes": True}, {"type": "volunteer", "yes": False}]
    html, buttons = screen(states()["over"], 0)
    assert acts(buttons) == [] and "ended by agreement" in html


def test_catalogs_cover_the_game_in_the_complete_languages():
    keys = set(read_po("pyengine/games/crown_anchor/i18n/crown_anchor.en.po"))
    assert len(keys) > 80
    for lang in ("pt", "es"):
        assert set(read_po(f"pyengine/games/crown_anchor/i18n/crown_anchor.{lang}.po")) == keys, lang
    for name in GAME.options:
        assert f"opt.crown_anchor.{name}" in keys
    for level in GAME.bot_levels:
        assert f"level.crown_anchor.{level}" in keys


def test_hostile_values_in_the_view_never_become_markup():
    """Names, symbols and phases (every string), then each number or flag in turn (chips,
    stakes, rolls, deltas: a hostile host may send text there), never become live markup."""
    views = [*random_play_views(GAME, {}, 4, seed=5, every=11),
             *random_play_views(GAME, {"volunteer": True, "bank": "rotate", "rotate_every": 2, "min_bet": 2,
                                       "max_bet": 20, "broken_bank": "pro_rata"}, 6, seed=6, every=23)]
    problems, renders = hostile_render_problems(render, views, Translator("en"),
                                                uis=({}, {"chip": 5, "leaving": True}))
    assert problems == []
    assert renders > 10 * len(views)
