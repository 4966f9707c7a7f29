"""Perudo's seat screen: what each seat sees, and that the picker offers only legal bids."""

import re
from html import unescape

from pyengine.games.perudo import GAME
from pyengine.games.perudo.view import render
from pyengine.i18n import Translator
from tests.markup_check import hostile_render_problems, random_play_views

T = Translator("en")


def screen(state, seat, ui=None, lang="en"):
    view = GAME.view(state, seat)
    view["players"] = [{"kind": "human", "name": n} for n in ("Ana", "Rui", "Eva")[: state["seats"]]]
    return str(render(view, ui or {}, Translator(lang)))


def table(dice, turn=0, bids=(), **options):
    state = GAME.new_state(options, len(dice), seed=2)
    state["dice"] = [sorted(c) for c in dice]
    state["counts"] = [len(c) for c in dice]
    state["turn"] = turn
    state["bids"] = [{"seat": s, "count": c, "face": f} for s, c, f in bids]
    return state


def enabled_faces(html):
    return sorted(int(f) for f in re.findall(r'data-testid="bid-face-(\d)"', html))


def test_own_cup_drawn_with_paco_marked_wild():
    html = screen(table([[1, 4, 6], [2, 2]]), 0)
    cup = html[html.index('data-testid="my-cup"'):html.index("</div></div>", html.index('data-testid="my-cup"'))]
    assert cup.count('class="die die-wild"') == 1
    assert 'aria-label="four"' in cup and 'aria-label="six"' in cup


def test_other_cups_show_only_counts():
    html = screen(table([[1, 4, 6], [5, 5]], turn=0), 1)
    assert "3 dice" in html and "2 dice" in html
    assert 'aria-label="four"' not in html  # seat 0's four stays hidden
    assert html.count('aria-label="five"') == 4  # seat 1's two fives: its strip and its cup


def test_own_dice_never_hidden_in_the_player_strips():
    html = screen(table([[1, 4, 6], [5, 5]], turn=0), 1)
    strips = html[html.index('class="cup-players"'):html.index("</ol>")]
    own = strips[strips.index('data-seat="1"'):]
    assert "(you)" in own and "die-hidden" not in own and 'aria-label="five"' in own
    assert strips[:strips.index('data-seat="1"')].count("die-hidden") == 3


def test_game_over_shows_the_real_dice_and_no_empty_bid_line():
    # Ana bids 4 threes, Rui doubts: only three threes, Ana loses her last die, Rui wins.
    state = GAME.apply(table([[3], [3, 3]], turn=1, bids=[(0, 4, 3)]), 1, {"type": "dudo"})
    view_html = screen(state, 0)
    assert state["result"] == {"winners": [1]}
    assert "die-hidden" not in view_html and "No bid yet" not in view_html
    assert 'aria-label="three"' in view_html


def test_palifico_banner_names_the_player_with_one_die_not_whose_turn_it_is():
    # Eva bids 3 fives, Ana doubts: one five only, Eva drops to one die and plays palifico.
    state = GAME.apply(table([[2, 3], [4, 4], [5, 6]], turn=0, bids=[(2, 3, 5)]), 0, {"type": "dudo"})
    assert state["palifico"] and state["counts"][2] == 1
    state["turn"] = 1  # later in the round: Rui is to bid
    html = unescape(screen(state, 0))
    assert "Palifico round for Eva" in html and "Palifico round for Rui" not in html


def test_picker_offers_only_legal_bids():
    # After 3x4 the same quantity allows fives, sixes and pacos (at least 2 pacos).
    html = screen(table([[2, 3], [4, 4]], turn=0, bids=[(1, 3, 4)]), 0, {"count": 3})
    assert enabled_faces(html) == [1, 5, 6]
    html = screen(table([[2, 3], [4, 4]], turn=0, bids=[(1, 3, 4)]), 0, {"count": 2})
    assert enabled_faces(html) == [1]
    opening = screen(table([[2, 3], [4, 4]]), 0, {"count": 1})
    assert enabled_faces(opening) == [2, 3, 4, 5, 6]
    assert 'data-testid="dudo"' not in opening


def test_waiting_seat_has_no_picker():
    html = screen(table([[2, 3], [4, 4]], turn=1), 0)
    assert "bid-face" not in html and "Waiting for Rui" in html


def test_reveal_names_the_loser_and_highlights_counting_dice():
    state = table([[1, 5, 5], [1, 2, 3]], turn=1, bids=[(0, 4, 5)])
    after = GAME.apply(state, 1, {"type": "dudo"})
    html = screen(after, 0)
    reveal = unescape(html[html.index('data-testid="reveal"'):])
    assert "Rui called Dudo on Ana's 4 × fives." in reveal
    assert "There were 4 fives." in reveal and "Rui loses a die." in reveal
    assert reveal.count("die-hit") == 4


def test_palifico_is_announced_and_pacos_not_drawn_wild():
    state = table([[1], [2, 3]], turn=0)
    state["palifico"] = True
    html = screen(state, 0)
    assert "Palifico round for Ana" in html and "die-wild" not in html


def test_odds_helper_shows_the_chance_of_the_current_bid():
    state = table([[5, 5], [2, 3]], turn=0, bids=[(1, 2, 5)])
    html = screen(state, 0, {"odds": True})
    assert "Chance that 2 × fives is true, from your dice: 100%" in html


def test_every_language_renders_without_missing_keys():
    state = table([[1, 5, 5], [1, 2, 3]], turn=1, bids=[(0, 4, 5)])
    after = GAME.apply(state, 1, {"type": "dudo"})
    for lang in ("en", "pt", "es"):
        html = screen(after, after["turn"], {"odds": True}, lang)
        assert "perudo." not in re.sub(r'class="[^"]*"', "", html), lang


def test_hostile_values_in_the_view_never_become_markup():
    views = [*random_play_views(GAME, {}, 3, seed=5, every=13),
             *random_play_views(GAME, {"calza": True}, 5, seed=6, every=47)]
    problems, renders = hostile_render_problems(render, views, T, uis=({}, {"odds": True, "count": 3}))
    assert problems == []
    assert renders > 10 * len(views)


def test_a_knocked_out_player_can_skip_to_the_end_without_pauses():
    """Through the shell: once out, "Skip to the end" makes every bot move follow at once."""
    import json

    from pyengine.shell.calls import Worker
    from tests.app.screens import buttons

    def call(fn, *args):
        return json.loads(fn(*[a if isinstance(a, str) else json.dumps(a) for a in args]))

    tab = Worker()
    fields = {"seat0_kind": "human", "seat1_kind": "bot:easy", "seat2_kind": "bot:easy", "seed": "5"}
    fields.update({f"seat{i}_kind": "none" for i in range(3, 6)})
    reply = call(tab.start, {"game": "perudo", "fields": fields}, "en")
    for _ in range(3000):  # we always call Dudo at once or bid far too high: we are soon out
        if "skip" in reply["html"] or reply["status"] == "over":
            break
        if reply["status"] == "bot":
            reply = call(tab.bot_step, "en")
        else:
            acts = buttons(reply["html"], "data-act")
            overbid = dict(acts[0], count=99)  # more dice than any table holds: a bot doubts it
            reply = call(tab.act, next((a for a in acts if a["type"] == "dudo"), overbid), "en")
    assert 'data-testid="skip"' in reply["html"] and reply["status"] == "bot" and reply["delay_ms"] > 0
    reply = call(tab.ui, {"skip": True}, "en")
    assert 'data-testid="skip"' not in reply["html"] and reply["delay_ms"] == 0
    while reply["status"] == "bot":
        reply = call(tab.bot_step, "en")
        assert reply["delay_ms"] == 0 or reply["status"] == "over"
    assert reply["status"] == "over"


def lost_dice(html):
    """Per player strip, how many lost dice are drawn beside the cup."""
    strips = re.findall(r'<li class="cup-player.*?</li>', html)
    return [strip.count('aria-label="lost die"') for strip in strips]


def test_lost_dice_are_drawn_only_with_the_option():
    dice = [[1, 4, 6], [2, 2], [3, 3, 5, 5, 6]]
    assert lost_dice(screen(table(dice), 0)) == [0, 0, 0]
    assert lost_dice(screen(table(dice, lost_dice_visible=True), 0)) == [2, 3, 0]
    assert lost_dice(screen(table(dice, lost_dice_visible=True), None)) == [2, 3, 0]


# --- Calza out of turn and the bid history -----------------------------------------------------
def test_a_seat_not_on_turn_sees_a_calza_button_naming_the_standing_bid():
    state = table([[2, 5], [3, 3], [4]], turn=2, bids=[(1, 2, 3)], calza=True, calza_by="anyone")
    html = unescape(screen(state, 0))
    assert "Waiting for Eva" in html and "Not your turn, but you may call Calza" in html
    assert "Bid on the table: 2 × threes by Rui" in html
    assert 'data-testid="calza"' in html and '"count":2,"face":3,"round":1,"type":"calza"' in html
    assert 'data-testid="dudo"' not in html and "bid-face-" not in html
    for seat in (1, None):  # the bidder and a spectator: no Calza
        assert 'data-testid="calza"' not in screen(state, seat)
    default = table([[2, 5], [3, 3], [4]], turn=2, bids=[(1, 2, 3)], calza=True)
    assert 'data-testid="calza"' not in screen(default, 0)


def test_the_bid_history_folds_behind_one_toggle_newest_round_first():
    state = table([[2, 5], [3, 3], [4]], turn=2, bids=[(1, 2, 3)], calza=True)
    assert 'data-testid="history-toggle"' not in screen(state, 0)  # nothing to show yet
    state = GAME.apply(state, 2, {"type": "dudo"})  # two threes: Eva loses her die, and is out
    state = GAME.apply(state, 2 if state["turn"] == 2 else state["turn"], {"type": "bid", "count": 1, "face": 5})
    state = GAME.apply(state, state["turn"], {"type": "calza"})
    closed = unescape(screen(state, 0))
    assert "History: 2 rounds" in closed and 'data-testid="history"' not in closed
    opened = unescape(screen(state, 0, {"history": True}))
    history = opened[opened.index('data-testid="history"'):opened.index("</ol>", opened.index('data-testid="history"'))]
    assert history.index("Round 2") < history.index("Round 1")
    assert "called Dudo on Rui's 2 × threes" in history and "There were 2 threes." in history
    assert "Eva loses a die." in history and "Eva has no dice left and is out." in history
    assert "called Calza" in history


def test_history_and_out_of_turn_are_in_every_language():
    state = table([[2, 5], [3, 3], [4]], turn=2, bids=[(1, 2, 3)], calza=True, calza_by="anyone")
    state = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    state["bids"] = [{"seat": 1, "count": 1, "face": 3}]
    state["turn"] = 2
    for lang in ("en", "pt", "es", "ca", "it"):
        html = screen(state, 0, {"history": True}, lang=lang)
        assert "perudo." not in html, lang  # no raw key
        assert 'data-testid="calza"' in html and 'data-testid="history"' in html


def bid_count(html):
    return int(re.search(r'data-testid="bid-count"[^>]*>(\d+)<', html).group(1))


def test_an_opening_is_prompted_as_one_and_starts_at_a_third_of_the_dice():
    # Issue 27: "raise the bid" with no bid yet, and a quantity that started at 1.
    html = unescape(screen(table([[2, 3, 4, 5, 6], [1, 2, 3, 4, 5], [1, 1, 2, 2, 3]], turn=0), 0))
    assert "Your turn: open the bidding." in html and "raise the bid" not in html
    assert bid_count(html) == 5  # fifteen dice in play
    assert enabled_faces(html) == [2, 3, 4, 5, 6]


def test_a_raise_starts_at_the_smallest_count_an_ordinary_face_may_bid():
    # After 4 × threes the pacos start at 2, the other faces at 4: the picker shows 4.
    html = unescape(screen(table([[2, 5], [3, 3], [4, 6]], turn=2, bids=[(1, 4, 3)]), 2))
    assert "Your turn: raise the bid or call." in html
    assert bid_count(html) == 4 and enabled_faces(html) == [1, 4, 5, 6]


def test_odds_are_given_only_on_the_faces_that_may_be_bid():
    html = screen(table([[2, 5], [3, 3], [4, 6]], turn=2, bids=[(1, 4, 3)]), 2, {"odds": True})
    faces = re.findall(r'<button[^>]*class="bid-face"[^>]*>(.*?)</button>', html)
    assert len(faces) == 6
    for face, drawn in enumerate(faces, 1):
        assert ("%</small>" in drawn) == (face in (1, 4, 5, 6)), face


def test_the_history_toggle_says_when_it_holds_only_the_last_rounds():
    # Issue 27: "History: 8 rounds" after 18 rounds; the engine keeps the last MAX_HISTORY.
    state = table([[2, 5], [3, 3], [4]], turn=2, bids=[(1, 2, 3)])
    settled = {"bids": [{"seat": 1, "count": 2, "face": 3}], "caller": 2, "actual": 2, "loser": 2,
               "eliminated": None, "call": "dudo", "aces_wild": True, "gainer": None, "palifico": False}
    state["history"] = [dict(settled, round=n) for n in range(11, 19)]
    state["round"] = 19
    assert "History: last 8 of 18 rounds" in unescape(screen(state, 0))
