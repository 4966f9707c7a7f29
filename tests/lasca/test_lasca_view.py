"""The board view: stacks drawn, buttons wired, refused taps explained, every string translated."""

import html
import json
import re

import pytest

from pyengine.games.lasca import GAME
from pyengine.games.lasca.rules import parse_board
from pyengine.games.lasca import view as lasca_view
from pyengine.i18n import LANGUAGES, Translator, catalog
from pyengine.ui.markup import Markup
from tests.markup_check import hostile_render_problems, random_play_views

EN = Translator("en")


def render(view, ui, t):
    """The screen as text: the view builds ``Markup`` (never a plain string)."""
    built = lasca_view.render(view, ui, t)
    assert isinstance(built, Markup)
    return str(built)


def view_of(lfen, seat=None, history=(), **options):
    state = GAME.new_state(options, 2, 3)
    state["board"], state["turn"] = parse_board(lfen)
    state["history"] = list(history)
    return GAME.view(state, state["turn"] if seat is None else seat)


def buttons(fragment):
    """(attributes, text) of every <button>, with data-act / data-ui decoded."""
    found = []
    for attrs, text in re.findall(r"<button([^>]*)>(.*?)</button>", fragment):
        data = {k: json.loads(html.unescape(v)) for k, v in re.findall(r'data-(act|ui)="([^"]*)"', attrs)}
        label = re.search(r'aria-label="([^"]*)"', attrs)
        found.append({"data": data, "text": text, "label": html.unescape(label.group(1)) if label else "",
                      "disabled": " disabled" in attrs})
    return found


def square_button(fragment, square):
    return next(b for b in buttons(fragment) if b["label"].startswith(square + ":"))


def test_every_column_is_drawn_piece_by_piece_and_officers_are_marked():
    fragment = render(view_of("W:c3=Wbb,e5=bbwW,a1=w"), {}, EN)
    # 3 + 4 + 1 pieces, each a face ellipse and an edge ellipse.
    assert fragment.count('rx="34"') == 2 * 8
    assert fragment.count("\u2605") == 1  # one officer commands (c3)
    assert fragment.count('stroke="#d4a017"') == 2  # both officers have a gold rim
    assert "c3: white officer, black soldier, black soldier" in html.unescape(fragment)


def test_twenty_five_square_buttons_with_labels_in_reading_order():
    fragment = render(view_of("W:a1=w"), {}, EN)
    squares = [b["label"].split(":")[0] for b in buttons(fragment) if ":" in b["label"]]
    assert len(squares) == 25
    assert squares[:4] == ["a7", "c7", "e7", "g7"] and squares[-1] == "g1"
    flipped = render(view_of("W:a1=w"), {"flip": True}, EN)
    assert [b["label"].split(":")[0] for b in buttons(flipped) if ":" in b["label"]][0] == "g1"
    black = render(view_of("W:a1=w", seat=1), {}, EN)
    assert [b["label"].split(":")[0] for b in buttons(black) if ":" in b["label"]][0] == "g1"


def test_tapping_a_column_then_a_destination_plays_the_move():
    view = view_of("W:c3=w,a1=w")
    assert square_button(render(view, {}, EN), "c3")["data"] == {"ui": {"select": "c3", "path": [], "tap": None}}
    selected = render(view, {"select": "c3", "path": [], "tap": None}, EN)
    assert square_button(selected, "d4")["data"] == {"act": {"type": "move", "path": "c3-d4"}}
    assert square_button(selected, "b4")["data"] == {"act": {"type": "move", "path": "c3-b4"}}
    paths = [b["text"] for b in buttons(selected)
             if b["data"].get("act", {}).get("type") == "move" and not b["label"]]
    assert sorted(paths) == ["c3-b4", "c3-d4"]


def test_a_multi_jump_is_entered_landing_square_by_landing_square():
    view = view_of("W:c3=W,d4=bb,d6=b,b6=b,b4=b")
    step1 = render(view, {"select": "c3"}, EN)
    assert square_button(step1, "e5")["data"] == {"ui": {"path": ["e5"], "tap": None}}
    assert square_button(step1, "a5")["data"] == {"ui": {"path": ["a5"], "tap": None}}
    step3 = render(view, {"select": "c3", "path": ["e5", "c7"]}, EN)
    assert square_button(step3, "a5")["data"] == {"ui": {"path": ["e5", "c7", "a5"], "tap": None}}
    last = render(view, {"select": "c3", "path": ["e5", "c7", "a5"]}, EN)
    assert square_button(last, "c3")["data"] == {"act": {"type": "move", "path": "c3xe5xc7xa5xc3"}}
    # Both full paths are also offered as buttons with visible text.
    texts = {b["text"] for b in buttons(step1) if "act" in b["data"]}
    assert {"c3xe5xc7xa5xc3", "c3xa5xc7xe5xc3"} <= texts


@pytest.mark.parametrize("ui, message", [
    ({"select": "a3"}, "A capture is compulsory: the columns on c3 can capture."),
    ({"select": "d4"}, "That column belongs to your opponent."),
    ({"select": "e5"}, "Choose one of your columns first."),
    ({"select": "c3", "tap": "b4"}, "b4 is not a legal destination for this column."),
])
def test_a_refused_tap_is_explained(ui, message):
    fragment = render(view_of("W:a3=w,c3=w,d4=b"), ui, EN)
    assert f'role="alert">{html.escape(message)}</p>' in fragment


def test_a_stale_path_that_already_ends_a_move_starts_the_selection_again():
    view = view_of("W:c3=W,d4=bb,a7=b")
    fragment = render(view, {"select": "c3", "path": ["e5"]}, EN)
    assert square_button(fragment, "e5")["data"] == {"act": {"type": "move", "path": "c3xe5"}}


def test_a_half_entered_capture_must_go_on():
    fragment = render(view_of("W:c3=w,b4=b,d4=b,f6=b"), {"select": "c3", "path": ["e5"], "tap": "d6"}, EN)
    assert "The capture must go on" in fragment
    assert square_button(fragment, "g7")["data"] == {"act": {"type": "move", "path": "c3xe5xg7"}}


def test_spectators_and_the_waiting_side_cannot_move_pieces():
    view = view_of("W:c3=w,a7=b", seat=1)
    squares = [b for b in buttons(render(view, {}, EN)) if ":" in b["label"]]
    assert all(b["disabled"] and not b["data"] for b in squares)
    assert any(b["text"] == "Flip board" for b in buttons(render(view, {}, EN)))


def test_side_to_move_last_move_and_move_list_are_shown():
    fragment = render(view_of("B:a7=b,d4=w", history=["c3-d4", "a5-b4", "d2-c3"]), {}, EN)
    assert "Your move (Black) · Last move: d2-c3" in fragment
    ply = '<span class="lasca-ply">{}</span>'.format
    assert f"<li>{ply('c3-d4')} {ply('a5-b4')}</li><li>{ply('d2-c3')}</li>" in fragment
    assert "White to move" in render(view_of("W:a7=b,d4=w", seat=1), {}, EN)


def test_game_over_shows_the_reason():
    state = GAME.new_state({}, 2, 3)
    state["board"], state["turn"] = parse_board("W:c3=w,d4=b")
    done = GAME.apply(state, 0, {"type": "move", "path": "c3xe5"})
    fragment = render(GAME.view(done, 1), {}, EN)
    assert "White wins — Black cannot move" in fragment
    agreed = GAME.apply(GAME.apply(GAME.new_state({}, 2, 3), 0, {"type": "offer_draw"}), 0,
                        {"type": "move", "path": "c3-d4"})
    offer = render(GAME.view(agreed, 1), {}, EN)
    assert any(b["data"] == {"act": {"type": "accept_draw"}} for b in buttons(offer))
    drawn = GAME.apply(agreed, 1, {"type": "accept_draw"})
    assert "Draw by agreement" in render(GAME.view(drawn, 0), {}, EN)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_untranslated_key_reaches_the_page(lang):
    t = Translator(lang)
    views = [(view_of("W:a3=w,c3=Wb,d4=bb", history=["a3-b4"]), {"select": "a3"}),
             (view_of("W:c3=w,d4=b"), {"select": "c3", "tap": "b4"})]
    for view, ui in views:
        assert "lasca." not in render(view, ui, t)


def test_complete_languages_have_every_key():
    english = {k for k in catalog("en") if "lasca" in k}
    for lang in ("pt", "es"):
        assert english <= set(catalog(lang))


def test_every_refusal_code_of_the_engine_has_a_message():
    import pathlib

    import pyengine.games.lasca as package

    folder = pathlib.Path(package.__file__).parent
    codes = set()
    for name in ("rules.py", "game.py"):
        codes |= set(re.findall(r'"(lasca\.[a-z_]+)"', (folder / name).read_text()))
    assert len(codes) >= 10
    for lang in ("en", "pt", "es"):
        missing = {c for c in codes if f"err.{c}" not in catalog(lang)}
        assert not missing, (lang, missing)


def test_a_half_entered_capture_shows_the_column_where_it_has_landed():
    fragment = html.unescape(render(view_of("W:c3=Wb,d4=Bw,f6=b"), {"select": "c3", "path": ["e5"]}, EN))
    assert "e5: white officer, black soldier, black officer" in fragment
    assert "d4: white soldier" in fragment and "c3: empty" in fragment
    assert "Column on e5, top first: white officer, black soldier, black officer" in fragment


def test_hostile_values_in_the_view_never_become_markup():
    """Columns, moves and the move list (every string), then each number or flag in turn,
    never become live markup; one view is half-way through a capture, with its path drawn."""
    views = [*random_play_views(GAME, {"draw_by_agreement": False}, 2, seed=5, every=17),
             *random_play_views(GAME, {"threefold_repetition": True}, 2, seed=6, every=5)]
    problems, renders = hostile_render_problems(render, views, EN, uis=({}, {"flip": True, "select": "c3"}),
                                                every_field_of=1)
    capture = [view_of("W:c3=W,d4=bb,d6=b,b6=b,b4=b")]
    more, more_renders = hostile_render_problems(render, capture, EN, uis=({"select": "c3", "path": ["e5"]},),
                                                 every_field_of=1)
    assert problems + more == []
    assert renders > 10 * len(views) and more_renders > 10


def test_a_draw_offer_says_where_it_stands_for_each_side():
    # Issue 27: after "Offer a draw" nothing said the bot was thinking about it.
    state = GAME.apply(GAME.new_state({}, 2, 3), 0, {"type": "offer_draw"})
    line = re.compile(r'data-testid="draw-offer"[^>]*>([^<]*)<')
    assert line.search(render(GAME.view(state, 0), {}, EN)).group(1) == (
        "Your draw offer stands: Black answers after your move.")
    assert line.search(render(GAME.view(state, 1), {}, EN)).group(1) == "White offers a draw"
    state = GAME.apply(state, 0, {"type": "move", "path": "c3-d4"})
    assert line.search(render(GAME.view(state, 0), {}, EN)).group(1) == "Black is considering your draw offer…"
    state = GAME.apply(state, 1, {"type": "move", "path": "e5xc3"})  # moving declines it
    assert 'data-testid="draw-offer"' not in render(GAME.view(state, 0), {}, EN)
    declined = re.compile(r'data-testid="draw-declined"[^>]*>([^<]*)<')
    assert declined.search(render(GAME.view(state, 0), {}, EN)).group(1) == "Black declined the draw"
    assert declined.search(render(GAME.view(state, 0), {}, Translator("pt"))).group(1) == "As Pretas recusaram o empate"
    state = GAME.apply(state, 0, {"type": "move", "path": "b2xd4"})  # said until the next move
    assert 'data-testid="draw-declined"' not in render(GAME.view(state, 1), {}, EN)


@pytest.mark.parametrize("height", range(1, 12))
def test_a_column_of_any_height_stays_inside_its_square(height):
    # Issue 27: a 5-piece column was clipped at the bottom of its square (centre 50, 50).
    drawn = str(lasca_view._stack_svg("w" * height, 50, 50))
    tops = [float(cy) - float(ry) for cy, ry in re.findall(r'cy="([\d.]+)" rx="34" ry="([\d.]+)"', drawn)]
    bottoms = [float(cy) + float(ry) for cy, ry in re.findall(r'cy="([\d.]+)" rx="34" ry="([\d.]+)"', drawn)]
    assert len(tops) == 2 * height and min(tops) >= 0 and max(bottoms) <= 100


def test_the_last_move_is_marked_to_move_from_where_it_started():
    """Motion (ui/motion.py): the moved column comes from its starting square, in squares as
    drawn for the viewer; a jumped column that is still standing flashes."""
    state = GAME.apply(GAME.new_state({}, 2, 3), 0, {"type": "move", "path": "c3-d4"})
    marks = lambda seat: re.findall(r'<g class="([^"]*)" data-motion="([^"]*)" data-sound="chips"',
                                    str(render(GAME.view(state, seat), {}, EN)))
    assert marks(0) == [("motion-arrive motion-dx--1 motion-dy-1", "ply-1")]  # from down-left for White
    assert marks(1) == [("motion-arrive motion-dx-1 motion-dy--1", "ply-1")]  # the board turned for Black
    jump = lasca_view._last_move_motion(lasca_view._Board(flipped=False), ["c3", "e5", "g3"], 7)
    assert jump == {"g3": ("arrive", "ply-7", -4, 0, "chips"), "d4": ("hit", "hit-7-d4", 0, 0, None),
                    "f4": ("hit", "hit-7-f4", 0, 0, None)}
