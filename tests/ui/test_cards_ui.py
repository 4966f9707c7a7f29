"""Card pieces: every card draws, labels come from the caller and are escaped, the fan's
buttons carry the caller's actions, the trick places seats around the viewer."""

import json
import re
from html.parser import HTMLParser

import pytest

from pyengine.kits.cards import DECKS, FRENCH_32, SPANISH_48, BadCard, sort_key
from pyengine.ui import cards as ui
from pyengine.ui.cards import card_back, card_face, card_pile, face_down_hand, hand_fan, trick_area
from tests.markup_check import HOSTILE, live_markup

ORDER = ("9", "1", "12", "11", "10", "8", "7", "6", "5", "4", "3", "2")


class _Tree(HTMLParser):
    """Start tags with their attributes, in document order."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.tags = []
        self.text = []
        self.feed(str(html))

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)

    def find(self, tag=None, **wanted):
        return [attrs for name, attrs in self.tags
                if (tag is None or name == tag) and all(attrs.get(k.replace("_", "-")) == v for k, v in wanted.items())]


def name(card):
    return f"card {card}"


@pytest.mark.parametrize("deck", DECKS.values(), ids=DECKS.keys())
def test_every_card_renders_with_its_index_and_label(deck):
    for card in deck.cards:
        tree = _Tree(card_face(card, label=f"the {card}"))
        svg = tree.tags[0]
        assert svg[0] == "svg" and svg[1]["role"] == "img" and svg[1]["aria-label"] == f"the {card}"
        assert svg[1]["viewbox"] == "0 0 60 90"
        assert f"cards-{ui.SUIT_CLASS[card[-1]]}" in svg[1]["class"]
        assert "".join(tree.text) == card[:-1]  # the corner index is the only text: the rank
        assert tree.find("g", **{"class": "cards-suit"})
    assert "cards-red" in str(card_face("AH", label="x")) and "cards-red" not in str(card_face("AS", label="x"))
    assert _Tree(card_face("AH", label="x", cls=["big", "lead"])).tags[0][1]["class"].split()[-2:] == ["big", "lead"]


def test_faces_differ_and_courts_are_figures():
    faces = {str(card_face(card, label="")) for card in SPANISH_48.cards}
    assert len(faces) == 48
    assert "cards-panel" in str(card_face("10o", label="")) and "cards-horse" in str(card_face("11c", label=""))
    assert "cards-panel" not in str(card_face("10H", label=""))  # a French 10 has pips
    assert str(card_face("10H", label="")).count('class="cards-suit"') == 1 + 10
    assert str(card_face("7e", label="")).count('class="cards-suit"') == 1 + 7


@pytest.mark.parametrize("bad", ["<b>", "9O", "13c", "", None, 7, "AH "])
def test_bad_cards_are_refused_before_drawing(bad):
    with pytest.raises(BadCard):
        card_face(bad, label="x")
    with pytest.raises(BadCard):
        hand_fan(["9o", bad], name=name, label="hand")
    if bad is not None:  # in a trick, None is a seat that has not played yet
        with pytest.raises(BadCard):
            trick_area([bad, None], viewer=0, label="t", slot_label=lambda s, c: "x")


def test_unlabelled_cards_are_decoration():
    assert 'aria-hidden="true"' in str(card_face("9o", label=None))
    assert 'aria-hidden="true"' in str(card_back(label=None))
    tree = _Tree(card_back(label="face down"))
    assert tree.tags[0][1]["aria-label"] == "face down" and "cards-back" in tree.tags[0][1]["class"]


def test_hostile_labels_and_names_stay_text():
    for payload in HOSTILE:
        pieces = [
            card_face("9o", label=payload),
            card_back(label=payload),
            hand_fan(["9o", "1c"], name=lambda c: payload + c, label=payload, act=lambda c: {"card": c, "x": payload}),
            hand_fan(["AH"], name=lambda c: payload, label=payload, legal=[], ui=lambda c: {"pick": payload}),
            trick_area(["9o", None, "1c"], viewer=0, label=payload, slot_label=lambda s, c: payload,
                       names=[payload] * 3, highlight=0),
            face_down_hand(3, label=payload),
            card_pile(5, label=payload),
        ]
        for piece in pieces:
            assert live_markup(piece) == [], (payload, str(piece)[:200])
            assert "<script" not in str(piece) and "<img" not in str(piece)


def test_fan_sorts_raises_dims_and_carries_actions():
    hand = ["2o", "12c", "9o", "1b", "7c"]
    html = hand_fan(hand, name=name, label="Your hand", key=sort_key(ORDER), legal={"12c", "7c"},
                    selected={"7c"}, act=lambda card: {"type": "play", "card": card})
    tree = _Tree(html)
    fan = tree.tags[0][1]
    assert tree.tags[0][0] == "div" and fan["role"] == "group" and fan["aria-label"] == "Your hand"
    assert fan["data-count"] == "5" and "cards-fan-raised" in fan["class"]
    buttons = tree.find("button")
    assert [b["aria-label"] for b in buttons] == ["card 9o", "card 2o", "card 12c", "card 7c", "card 1b"]
    assert [json.loads(b["data-act"]) for b in buttons][2] == {"type": "play", "card": "12c"}
    classes = {b["aria-label"]: b["class"].split() for b in buttons}
    assert "cards-legal" in classes["card 12c"] and "cards-dim" not in classes["card 12c"]
    assert "cards-dim" in classes["card 9o"] and "cards-legal" not in classes["card 9o"]
    assert "cards-selected" in classes["card 7c"]
    assert {b["aria-label"]: b.get("aria-disabled") for b in buttons} == {
        "card 9o": "true", "card 2o": "true", "card 12c": None, "card 7c": None, "card 1b": "true"}
    assert {b["aria-label"]: b["aria-pressed"] for b in buttons}["card 7c"] == "true"
    assert all(b["type"] == "button" for b in buttons)
    # The cards inside the buttons are decoration: the button carries the name.
    assert len(tree.find("svg", aria_hidden="true")) == 5


def test_fan_without_turn_or_taps():
    tree = _Tree(hand_fan(["AH", "KS"], name=name, label="hand"))
    assert not tree.find("button")
    assert [svg["aria-label"] for svg in tree.find("svg", role="img")] == ["card AH", "card KS"]
    assert not any(c in str(hand_fan(["AH"], name=name, label="h")) for c in ("cards-dim", "cards-legal", "aria-pressed"))
    # Select-then-confirm: data-ui buttons, each reporting whether it is pressed.
    tree = _Tree(hand_fan(["AH", "KS"], name=name, label="hand", selected=(), ui=lambda c: {"pick": c}))
    assert [(json.loads(b["data-ui"]), b["aria-pressed"]) for b in tree.find("button")] == [
        ({"pick": "AH"}, "false"), ({"pick": "KS"}, "false")]
    # A tap function may leave some cards untappable.
    tree = _Tree(hand_fan(["AH", "KS"], name=name, label="hand", act=lambda c: {"c": c} if c == "KS" else None))
    assert [b["aria-label"] for b in tree.find("button")] == ["card KS"]
    # Both: the selected card plays, the others select.
    tree = _Tree(hand_fan(["AH", "KS"], name=name, label="hand", selected=["KS"],
                          act=lambda c: {"play": c} if c == "KS" else None, ui=lambda c: {"pick": c}))
    assert [(b.get("data-act"), b.get("data-ui")) for b in tree.find("button")] == [
        (None, '{"pick":"AH"}'), ('{"play":"KS"}', None)]


@pytest.mark.parametrize("count,rows", [(12, [6, 6]), (11, [6, 5]), (8, [4, 4]), (7, [4, 3]), (6, []), (1, [])])
def test_a_long_fan_splits_into_balanced_rows_in_its_order(count, rows):
    cards = list(SPANISH_48.cards[:count])
    html = str(hand_fan(cards, name=name, label="hand", key=sort_key(ORDER), per_row=6, legal=cards[:2], act=lambda c: {"c": c}))
    found = [len(re.findall(r'class="cards-hold', row)) for row in html.split('class="cards-fan-row"')[1:]]
    assert found == rows
    assert ("cards-fan-rows" in html) == bool(rows)
    assert [b["aria-label"] for b in _Tree(html).find("button")] == [name(c) for c in sorted(cards, key=sort_key(ORDER))]
    assert html.count('role="group"') == 1  # one hand, whatever its rows


def _slot_positions(html):
    """{seat: (x, y)} of each trick slot's top-left corner."""
    tree = _Tree(html)
    slots = {}
    for attrs in tree.find("g"):
        if "data-seat" in attrs:
            x, y = map(float, re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", attrs["transform"]).groups())
            slots[int(attrs["data-seat"])] = (x, y)
    return slots


def test_trick_places_seats_around_the_viewer():
    labels = lambda seat, card: f"seat {seat}: {card or 'nothing yet'}"
    four = _slot_positions(trick_area(["1c", "12c", "9e", None], viewer=1, label="t", slot_label=labels))
    bottom = max(four, key=lambda s: four[s][1])
    top = min(four, key=lambda s: four[s][1])
    right = max(four, key=lambda s: four[s][0])
    left = min(four, key=lambda s: four[s][0])
    assert (bottom, right, top, left) == (1, 2, 3, 0)  # the viewer below, the next player on his right
    clockwise = _slot_positions(trick_area(["1c", "12c", "9e", None], viewer=1, label="t", slot_label=labels,
                                           clockwise=True))
    assert max(clockwise, key=lambda s: clockwise[s][0]) == 0
    html = trick_area(["1c", "12c", "9e", None], viewer=1, label="Trick", slot_label=labels, highlight=2)
    tree = _Tree(html)
    assert tree.tags[0][1]["role"] == "group" and tree.tags[0][1]["aria-label"] == "Trick"
    assert [g["aria-label"] for g in tree.find("g", role="img")] == [
        "seat 0: 1c", "seat 1: 12c", "seat 2: 9e", "seat 3: nothing yet"]
    assert "cards-win" in tree.find("g", data_seat="2")[0]["class"]
    assert "cards-slot-empty" in str(html)


@pytest.mark.parametrize("n", range(2, 11))
def test_trick_slots_never_overlap(n):
    plays = [FRENCH_32.cards[i] for i in range(n)]
    for viewer in (0, n - 1):
        slots = _slot_positions(trick_area(plays, viewer=viewer, label="t", slot_label=lambda s, c: c))
        assert len(slots) == n
        assert slots[viewer][1] == max(y for _, y in slots.values())  # the viewer sits at the bottom
        points = list(slots.values())
        for i, (x1, y1) in enumerate(points):
            for x2, y2 in points[i + 1:]:
                assert abs(x1 - x2) >= ui.CARD_W or abs(y1 - y2) >= ui.CARD_H + 14


def test_trick_sizes_are_checked():
    for plays in ([None], [None] * 11):
        with pytest.raises(ValueError):
            trick_area(plays, viewer=0, label="t", slot_label=lambda s, c: "")
    # A spectator (no seat) sees the table from seat 0.
    spectator = _slot_positions(trick_area([None] * 3, viewer=-1, label="t", slot_label=lambda s, c: ""))
    assert spectator[0][1] == max(y for _, y in spectator.values())


def test_long_names_are_shortened_in_captions_only():
    html = trick_area(["9o", None], viewer=0, label="t", slot_label=lambda s, c: "Joan-Maximilià Puig",
                      names=["Joan-Maximilià Puig", "Ana"])
    tree = _Tree(html)
    assert "Joan-Maxi…" in tree.text and "Ana" in tree.text
    assert tree.find("g", role="img")[0]["aria-label"] == "Joan-Maximilià Puig"


def test_stock_and_hidden_hands():
    pile = _Tree(card_pile(8, label="Stock: 8"))
    assert pile.tags[0][1]["aria-label"] == "Stock: 8" and "8" in pile.text
    assert len(pile.find("rect", **{"class": "cards-back-body"})) == 4
    empty = _Tree(card_pile(0, label="Stock: empty"))
    assert not empty.find("rect", **{"class": "cards-back-body"}) and empty.find("rect", **{"class": "cards-slot-empty"})
    hidden = _Tree(face_down_hand(7, label="Bernat: 7 cards"))
    assert hidden.tags[0][1]["role"] == "img" and len(hidden.find("rect", **{"class": "cards-back-body"})) == 7
    assert "9o" not in str(face_down_hand(7, label="x"))  # nothing of the hidden cards is drawn
    huge = _Tree(face_down_hand(104, label="many"))  # a hostile count cannot blow the page up
    assert len(huge.find("rect", **{"class": "cards-back-body"})) == 16
    for bad in (-1, 105, 2.5, True, "3", None):
        with pytest.raises(ValueError):
            face_down_hand(bad, label="x")
        with pytest.raises(ValueError):
            card_pile(bad, label="x")


def test_no_inline_style_anywhere():
    html = str(hand_fan(SPANISH_48.cards[:12], name=name, label="h", legal=["1o"], act=lambda c: {"c": c}))
    html += str(trick_area(list(SPANISH_48.cards[:10]), viewer=3, label="t", slot_label=lambda s, c: c, names=["x"] * 10))
    assert "style=" not in html and "<style" not in html


def test_a_played_card_comes_from_its_player_and_a_won_trick_goes_to_the_winner():
    """Motion marks (ui/motion.py): each card arrives from its player's side of the table;
    once the trick is won, the other cards go towards the winner's."""
    labels = lambda seat, card: f"seat {seat}"
    moving = {attrs["data-motion"]: attrs["class"].split() for _, attrs in
              _Tree(trick_area(["1c", "12c", "9e", "3c"], viewer=1, label="t", slot_label=labels, highlight=2)).tags
              if "data-motion" in attrs}
    # The viewer (seat 1) sits below: his card comes from below, the card across from above.
    assert moving["play-1-12c"] == ["motion-arrive", "motion-dx-0", "motion-dy-2"]
    assert moving["play-3-3c"] == ["motion-arrive", "motion-dx-0", "motion-dy--2"]
    # Seat 2, on the viewer's right, won: the card across goes down and right, his own stays.
    kind, dx, dy = moving["take-3-3c"]
    assert kind == "motion-take" and int(dx.removeprefix("motion-dx-")) > 0 and int(dy.removeprefix("motion-dy-")) > 0
    assert "take-2-9e" not in moving and len([k for k in moving if k.startswith("take-")]) == 3
