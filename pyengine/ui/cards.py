"""SVG playing cards and the card-table pieces every card game's view shares.

Faces are drawn here, not loaded: one card is a 60 x 90 SVG (``CARD_W`` x ``CARD_H``)
built with ``markup.h``, coloured by ``cards.css`` classes (no inline style). A face is
read by its corner index (big rank, suit underneath) because that is all a fanned hand
shows of most cards on a 360 px phone; the rest of the face (pips, the ace, a simple
figure for the court cards) is there to be recognised at a glance.

Card names and every label come from the caller in the player's language (``name(card)``);
only the suit symbols and the ranks as printed on real cards (1..12, A 2..10 J Q K) are
drawn. Cards are the notation strings of ``kits.cards`` and are checked before drawing.
"""

import math
from functools import lru_cache
from typing import Callable, Collection, Iterable, Sequence

from ..kits.cards import FRENCH, RED_SUITS, SPANISH, family_of_suit, split_card
from .html import act_button, ui_button
from .markup import Markup, fmt, fragment, h
from .motion import moving

CARD_W, CARD_H = 60, 90
VIEWBOX = f"0 0 {CARD_W} {CARD_H}"
SUIT_CLASS = {"o": "oros", "c": "copes", "e": "espases", "b": "bastos",
              "H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}

# --- suit symbols: shapes in a 20 x 20 box centred on the origin -------------------------------
_HEART = ("M0 9.5C-3 6.5-10 2-10-3.5C-10-7.5-7-9.5-4.8-9.5C-2.6-9.5-0.9-8 0-6"
          "C0.9-8 2.6-9.5 4.8-9.5C7-9.5 10-7.5 10-3.5C10 2 3 6.5 0 9.5Z")
_DIAMOND = "M0-10Q3.2-4.6 7.6 0Q3.2 4.6 0 10Q-3.2 4.6-7.6 0Q-3.2-4.6 0-10Z"
_SPADE = ("M0-10C2-6 10-2.5 10 2.5C10 5.8 7.6 7.3 5.2 7.3C3.6 7.3 2.2 6.4 1.2 5C1.4 7.3 2.2 9 3.6 10"
          "H-3.6C-2.2 9-1.4 7.3-1.2 5C-2.2 6.4-3.6 7.3-5.2 7.3C-7.6 7.3-10 5.8-10 2.5C-10-2.5-2-6 0-10Z")
_CLUB_STEM = "M-1.2 1.5C-1.2 6-2.4 8.6-3.8 10H3.8C2.4 8.6 1.2 6 1.2 1.5Z"
_CUP_BODY = "M-8-8.3H8C8-1.2 4.4 2.4 1.7 3V6.2H4.6L6 9.6H-6L-4.6 6.2H-1.7V3C-4.4 2.4-8-1.2-8-8.3Z"
_BATON = "M-1.7 10L-4.2-7.4Q-4.4-9.8 0-9.8Q4.4-9.8 4.2-7.4L1.7 10Q0 11-1.7 10Z"
_BATON_STUBS = ((-3, -2.5, 215), (2.6, 1.5, -35), (-2.1, 5.5, 210))  # sawn-off branches


def _suit_shapes(suit: str) -> list:
    if suit == "o":
        return [h("circle", {"r": 9.3, "class": "cards-coin"}),
                h("circle", {"r": 6, "class": "cards-coin-ring"}),
                h("circle", {"r": 2.3, "class": "cards-coin-eye"})]
    if suit == "c":
        return [h("path", {"d": _CUP_BODY, "class": "cards-cup"}),
                h("ellipse", {"cy": -8.3, "rx": 8, "ry": 1.7, "class": "cards-cup-rim"}),
                h("path", {"d": "M-7.3-4H7.3", "class": "cards-cup-band"})]
    if suit == "e":
        return [h("path", {"d": "M0-10.5L2.1-7.4V3.8H-2.1V-7.4Z", "class": "cards-blade"}),
                h("rect", {"x": -6.6, "y": 3.6, "width": 13.2, "height": 2.5, "rx": 1.2, "class": "cards-hilt"}),
                h("rect", {"x": -1.3, "y": 6, "width": 2.6, "height": 3.2, "class": "cards-hilt"}),
                h("circle", {"cy": 9.8, "r": 1.6, "class": "cards-hilt"})]
    if suit == "b":
        stubs = [h("g", {"transform": f"translate({fmt(x)} {fmt(y)}) rotate({fmt(angle)})"},
                   h("rect", {"y": -1.2, "width": 3.6, "height": 2.4, "class": "cards-baton"}),
                   h("ellipse", {"cx": 3.6, "rx": 0.8, "ry": 1.2, "class": "cards-baton-cut"}))
                 for x, y, angle in _BATON_STUBS]
        return [*stubs, h("path", {"d": _BATON, "class": "cards-baton"}),
                h("ellipse", {"cy": -8.6, "rx": 2.6, "ry": 1.1, "class": "cards-baton-cut"}),
                h("path", {"d": "M-0.8-5.5L-0.3 6", "class": "cards-baton-grain"})]
    if suit == "H":
        return [h("path", {"d": _HEART, "class": "cards-pip"})]
    if suit == "D":
        return [h("path", {"d": _DIAMOND, "class": "cards-pip"})]
    if suit == "S":
        return [h("path", {"d": _SPADE, "class": "cards-pip"})]
    return [h("circle", {"cy": -4.6, "r": 4.5, "class": "cards-pip"}),
            h("circle", {"cx": -4.9, "cy": 2.2, "r": 4.5, "class": "cards-pip"}),
            h("circle", {"cx": 4.9, "cy": 2.2, "r": 4.5, "class": "cards-pip"}),
            h("circle", {"cy": 0.6, "r": 2.6, "class": "cards-pip"}),
            h("path", {"d": _CLUB_STEM, "class": "cards-pip"})]


def suit_symbol(suit: str, x: float, y: float, size: float, *, upside_down: bool = False) -> Markup:
    """The suit drawn ``size`` units tall, centred on ``(x, y)``."""
    family_of_suit(suit)
    turn = " rotate(180)" if upside_down else ""
    transform = f"translate({fmt(x)} {fmt(y)}) scale({fmt(size / 20)}){turn}"
    return h("g", {"transform": transform, "class": "cards-suit"}, _suit_shapes(suit))


# --- faces ---------------------------------------------------------------------------------
_FIELD_X, _FIELD_MID, _FIELD_Y = (31, 39.5, 48), 45, (12, 34, 56, 78)
_L, _C, _R = _FIELD_X
# Pip places by count, in the field right of the index column (x 22..57, y 4..86).
_PIPS = {
    2: ((_C, 20), (_C, 70)),
    3: ((_C, 14), (_C, 45), (_C, 76)),
    4: ((_L, 16), (_R, 16), (_L, 74), (_R, 74)),
    5: ((_L, 16), (_R, 16), (_C, 45), (_L, 74), (_R, 74)),
    6: ((_L, 16), (_R, 16), (_L, 45), (_R, 45), (_L, 74), (_R, 74)),
    7: ((_L, 16), (_R, 16), (_C, 30.5), (_L, 45), (_R, 45), (_L, 74), (_R, 74)),
    8: ((_L, 16), (_R, 16), (_C, 30.5), (_L, 45), (_R, 45), (_C, 59.5), (_L, 74), (_R, 74)),
    9: tuple((x, y) for y in _FIELD_Y for x in (_L, _R)) + ((_C, 45),),
    10: tuple((x, y) for y in _FIELD_Y for x in (_L, _R)) + ((_C, 23), (_C, 67)),
}
# The art is drawn for a field x 22..57 and shrunk towards the right edge to leave the
# jumbo corner index (x 0..25) alone: x 22 -> 26, the vertical centre y 45 stays.
_FIT = 31 / 35
_FIELD_FIT = f"translate({fmt(26 - 22 * _FIT)} {fmt(45 - 45 * _FIT)}) scale({fmt(_FIT)})"
_COURT = {SPANISH: {"10": "sota", "11": "cavall", "12": "rei"}, FRENCH: {"J": "jack", "Q": "queen", "K": "king"}}


def _index(rank: str, suit: str) -> Markup:
    """The corner index: what identifies the card when the hand is fanned."""
    attrs = {"x": 12.5, "y": 23, "font-size": 25, "text-anchor": "middle", "class": "cards-ix"}
    if len(rank) > 1:  # two digits always fit the corner, whatever font the phone has
        attrs.update({"textLength": 22, "lengthAdjust": "spacingAndGlyphs"})
    return h("g", {"class": "cards-corner"}, h("text", attrs, rank), suit_symbol(suit, 12.5, 36, 17))


def _pips(rank: str, suit: str) -> list:
    count = 1 if rank in ("1", "A") else int(rank)
    if count == 1:
        return [suit_symbol(suit, _C, _FIELD_MID, 30)]
    french = family_of_suit(suit) == FRENCH
    size = 12 if count < 7 else 10.5
    return [suit_symbol(suit, x, y, size, upside_down=french and y > _FIELD_MID) for x, y in _PIPS[count]]


def _headgear(court: str) -> Markup:
    if court in ("rei", "king"):
        return h("path", {"d": "M34 22V14.5L36.8 18L39.5 12.5L42.2 18L45 14.5V22Z", "class": "cards-crown"})
    if court == "queen":
        return h("path", {"d": "M34.5 21.5L35.5 16L37.5 18.5L39.5 15L41.5 18.5L43.5 16L44.5 21.5Z",
                          "class": "cards-crown"})
    return h("path", {"d": "M33.5 22.5Q34 15 39.5 15.5Q45 15 45.5 22.5Z", "class": "cards-cap"})


def _court(court: str, suit: str) -> list:
    """A simple figure: a standing sota/jack, queen or king, or a rider for the cavall."""
    panel = h("rect", {"x": 23, "y": 5, "width": 33, "height": 80, "rx": 3, "class": "cards-panel"})
    if court == "cavall":
        figure = [
            h("path", {"d": "M30 70V61M34 72V63M45 72V63M49 70V61", "class": "cards-legs"}),
            h("ellipse", {"cx": 39.5, "cy": 58, "rx": 11.5, "ry": 6.2, "class": "cards-horse"}),
            h("path", {"d": "M46.5 56L50 43.5L55 45.5L51.5 51.5L50.5 58Z", "class": "cards-horse"}),
            h("path", {"d": "M28.5 56Q24.5 60 26 67", "class": "cards-tail"}),
            h("path", {"d": "M34 55L35 39Q38 36.5 41 39L42 55Z", "class": "cards-robe"}),
            h("circle", {"cx": 38, "cy": 31.5, "r": 4.8, "class": "cards-skin"}),
            h("path", {"d": "M32.8 30Q33.5 24 38 24.5Q42.5 24 43.2 30Z", "class": "cards-cap"}),
        ]
        emblem = suit_symbol(suit, 39.5, 79, 9)
    else:
        robe = ("M29 72L35 33Q39.5 30 44 33L50 72Z" if court == "queen"
                else "M31.5 70L34 33Q39.5 29.5 45 33L47.5 70Z")
        figure = [
            h("path", {"d": robe, "class": "cards-robe"}),
            h("path", {"d": "M33.2 48H45.8", "class": "cards-belt"}),
            h("circle", {"cx": 39.5, "cy": 26, "r": 5.5, "class": "cards-skin"}),
            _headgear(court),
        ]
        emblem = suit_symbol(suit, 39.5, 78, 11)
    return [panel, *figure, emblem]


def _outline(cls: str, offset: float = 0) -> Markup:
    """The card's rounded rectangle (``offset`` moves it right and down)."""
    return h("rect", {"x": 0.75 + offset, "y": 0.75 + offset, "width": CARD_W - 1.5, "height": CARD_H - 1.5,
                      "rx": 5, "class": cls})


@lru_cache(maxsize=128)  # a face never changes: draw each of the 100 cards once per worker
def _face_shapes(card: str) -> Markup:
    rank, suit = split_card(card)
    court = _COURT[family_of_suit(suit)].get(rank)
    art = _court(court, suit) if court else _pips(rank, suit)
    return fragment(_outline("cards-body"), h("g", {"transform": _FIELD_FIT}, art), _index(rank, suit))


_BACK_COLUMNS = (12.5, 21.25, 30, 38.75, 47.5)
_BACK_ROWS = (12, 23, 34, 45, 56, 67, 78)


@lru_cache(maxsize=1)
def _back_shapes() -> Markup:
    diamonds = "".join(
        f"M{fmt(x)} {fmt(y - 4)}L{fmt(x + 3.2)} {fmt(y)}L{fmt(x)} {fmt(y + 4)}L{fmt(x - 3.2)} {fmt(y)}Z"
        for x in _BACK_COLUMNS for y in _BACK_ROWS
    )
    return fragment(
        _outline("cards-back-body"),
        h("rect", {"x": 5, "y": 5, "width": CARD_W - 10, "height": CARD_H - 10, "rx": 3, "class": "cards-back-frame"}),
        h("path", {"d": diamonds, "class": "cards-back-mark"}),
        h("circle", {"cx": 30, "cy": 45, "r": 9, "class": "cards-back-seal"}),
    )


def _card_classes(card: str | None, cls) -> list:
    extra = cls if isinstance(cls, (list, tuple)) else [cls]
    if card is None:
        return ["cards-card", "cards-back", *extra]
    suit = split_card(card)[1]
    return ["cards-card", f"cards-{SUIT_CLASS[suit]}", "cards-red" if suit in RED_SUITS else None, *extra]


def _svg(children, classes, label: str | None) -> Markup:
    """A standalone card SVG; unlabelled ones are decoration inside a labelled control."""
    a11y = {"role": "img", "aria-label": label} if label is not None else {"aria-hidden": "true"}
    return h("svg", {"class": classes, "viewBox": VIEWBOX, **a11y}, children)


def card_face(card: str, *, label: str | None, cls=None) -> Markup:
    """One face-up card. ``label`` is its name in the player's language (``None``: the card is
    decoration inside a control that carries the name itself)."""
    return _card_svg(card, label, tuple(cls) if isinstance(cls, (list, tuple)) else cls)


@lru_cache(maxsize=512)  # a hand redrawn after each move reuses its cards' markup
def _card_svg(card: str, label: str | None, cls) -> Markup:
    return _svg(_face_shapes(card), _card_classes(card, cls), label)


def card_back(*, label: str | None, cls=None) -> Markup:
    """One face-down card."""
    return _svg(_back_shapes(), _card_classes(None, cls), label)


# --- a hand ----------------------------------------------------------------------------------
def hand_fan(cards: Iterable[str], *, name: Callable[[str], str], label: str, key=None,
             legal: Collection[str] | None = None, selected: Collection[str] | None = None,
             act: Callable[[str], dict | None] | None = None,
             ui: Callable[[str], dict | None] | None = None, per_row: int | None = None) -> Markup:
    """The player's hand as an overlapping row (each card shows its left 60 %, the last whole).

    ``key`` sorts the cards (``kits.cards.sort_key`` with the game's order); ``legal`` raises
    those cards and dims the rest (``None``: all plain, e.g. not your turn). A card is a
    button when ``act(card)`` (a ``data-act`` move) or ``ui(card)`` (a ``data-ui`` change, for
    select-then-confirm) returns a dict; a dimmed button is ``aria-disabled`` but still
    tappable, so the game can say why it is refused. Given both, a card plays when ``act(card)``
    returns a dict and otherwise selects (select, then tap the selected card again to play).
    ``selected`` cards are lifted higher and buttons then report ``aria-pressed``.
    ``name(card)`` labels each card, ``label`` the hand. ``per_row``: a longer hand is laid
    out in balanced rows of at most that many cards, each row lower than and in front of the
    one before (which shows its cards' tops), so each card keeps a wide strip on a narrow
    phone; ``cards.css`` puts them back in one row on a wider screen.
    """
    cards = list(cards)
    for card in cards:
        split_card(card)
    if key is not None:
        cards.sort(key=key)
    legal = None if legal is None else set(legal)
    chosen = set(selected or ())
    items = []
    for card in cards:
        playable = legal is None or card in legal
        classes = ["cards-hold",
                   "cards-legal" if legal is not None and playable else None,
                   "cards-dim" if not playable else None,
                   "cards-selected" if card in chosen else None]
        change, make_button = (act(card) if act is not None else None), act_button
        if change is None:
            change, make_button = (ui(card) if ui is not None else None), ui_button
        if change is None:
            items.append(h("span", {"class": classes}, card_face(card, label=name(card))))
            continue
        attrs = {"aria-label": name(card), "aria-disabled": None if playable else "true",
                 "aria-pressed": None if selected is None else ("true" if card in chosen else "false")}
        items.append(make_button(card_face(card, label=None), change, cls=" ".join(c for c in classes if c), **attrs))
    rows = _rows(items, per_row)
    if len(rows) > 1:
        items = [h("div", {"class": "cards-fan-row"}, row) for row in rows]
    return h("div", {"class": ["cards-fan", "cards-fan-raised" if legal is not None or chosen else None,
                               "cards-fan-rows" if len(rows) > 1 else None],
                     "role": "group", "aria-label": label, "data-count": len(cards)}, items)


def _rows(items: list, per_row: int | None) -> list:
    """``items`` in as few rows of at most ``per_row`` as they need, the first rows as long
    as the later ones or one longer (12 by 6: 6 + 6; 11: 6 + 5; 7: 4 + 3)."""
    if not per_row or len(items) <= per_row:
        return [items]
    count = -(-len(items) // per_row)
    size, extra = divmod(len(items), count)
    bounds = [0]
    for row in range(count):
        bounds.append(bounds[-1] + size + (row < extra))
    return [items[start:end] for start, end in zip(bounds, bounds[1:])]


_MAX_DRAWN = 16  # a hidden hand never draws more backs than this (its label says how many)


def _count(count) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 104:
        raise ValueError(f"not a number of cards: {count!r}")
    return count


def face_down_hand(count: int, *, label: str) -> Markup:
    """Another player's hidden hand: ``count`` overlapping backs, one image."""
    shown = min(_count(count), _MAX_DRAWN)
    step = 9
    width = CARD_W + step * max(shown - 1, 0)
    backs = [h("g", {"transform": f"translate({fmt(i * step)} 0)"}, _back_shapes()) for i in range(shown)]
    return h("svg", {"class": ["cards-hidden-hand", "cards-back"], "viewBox": f"0 0 {fmt(width)} {CARD_H}",
                     "role": "img", "aria-label": label, "data-count": count}, backs)


def card_pile(count: int, *, label: str) -> Markup:
    """A face-down pile (the stock): a few stacked backs and the number of cards on top."""
    layers = min(_count(count), 4)
    shift = 2
    size = f"0 0 {fmt(CARD_W + shift * 3)} {fmt(CARD_H + shift * 3)}"
    # Lower layers peek out up and to the right; the top card always sits at the same place.
    backs = [h("g", {"transform": f"translate({fmt(depth * shift)} {fmt((3 - depth) * shift)})"}, _back_shapes())
             for depth in reversed(range(layers))]
    badge = [h("circle", {"cx": 30, "cy": 51, "r": 13, "class": "cards-pile-badge"}),
             h("text", {"x": 30, "y": 58, "font-size": 19, "text-anchor": "middle", "class": "cards-pile-count"},
               count)] if count else []
    outline = [] if count else [_outline("cards-slot-empty", offset=shift * 1.5)]
    return h("svg", {"class": "cards-pile", "viewBox": size, "role": "img", "aria-label": label,
                     "data-count": count}, backs, outline, badge)


# --- the trick ---------------------------------------------------------------------------------
_CAPTION_H = 14
_GAP = 4
_TRICK_SCALE = 1.25  # natural size in CSS px per unit; CSS shrinks it to the screen's width


def _overlaps(a, b) -> bool:
    return abs(a[0] - b[0]) < CARD_W + _GAP and abs(a[1] - b[1]) < CARD_H + _CAPTION_H + _GAP


def _slot_centres(n_seats: int) -> list:
    """Card centres for seats 0..n-1 *relative to the viewer* (0 at the bottom, 1 to the
    viewer's right, i.e. anticlockwise) on the smallest ellipse where no two slots touch.
    Small tables get a landscape oval; from 5 seats a circle, so a portrait phone still
    shows the cards large enough to read."""
    angles = [math.pi / 2 - 2 * math.pi * r / n_seats for r in range(n_seats)]
    aspect = 1.3 if n_seats <= 4 else 1.0
    radius = 40.0
    while True:
        centres = [(round(aspect * radius * math.cos(a), 1), round(radius * math.sin(a), 1)) for a in angles]
        if not any(_overlaps(p, q) for i, p in enumerate(centres) for q in centres[i + 1:]):
            return centres
        radius += 2


_SLOTS = {n: _slot_centres(n) for n in range(2, 11)}
TRICK_STEP = 40  # cards.css's --motion-step in a trick, in its SVG units


def _travel(card_drawing: Markup, seat: int, card: str, centre: tuple, winner_centre: tuple | None) -> Markup:
    """A played card that arrives from its player's side of the table and, once the trick is
    won, goes towards the winner's card (ui/motion.py): the played card travelling to the
    trick, the trick to its winner."""
    x, y = centre
    reach = max(math.hypot(x, y), 1)
    drawing = card_drawing
    if winner_centre is not None and winner_centre != centre:
        dx, dy = (winner_centre[0] - x) / TRICK_STEP, (winner_centre[1] - y) / TRICK_STEP
        drawing = h("g", moving({}, "take", f"take-{seat}-{card}", dx, dy), drawing)
    return h("g", moving({}, "arrive", f"play-{seat}-{card}", 2 * x / reach, 2 * y / reach, sound="card"), drawing)


def trick_area(plays: Sequence[str | None], *, viewer: int, label: str,
               slot_label: Callable[[int, str | None], str], names: Sequence[str] | None = None,
               highlight: int | None = None, clockwise: bool = False) -> Markup:
    """The cards on the table, one slot per seat, placed as the players sit around it.

    ``plays[seat]`` is the card that seat played (``None``: not yet); 2..10 seats. The
    ``viewer`` sits at the bottom; seat ``viewer + 1`` (next in playing order) is on the
    right, as in anticlockwise play (``clockwise=True`` puts it on the left). ``slot_label(
    seat, card)`` names each slot for screen readers, ``names`` optionally captions them,
    ``highlight`` marks a seat's card (the trick's winner). A card arrives with motion,
    and goes towards the winner's once the trick is won (``_travel``).
    """
    n = len(plays)
    if n not in _SLOTS:
        raise ValueError(f"a trick has 2 to 10 slots, not {n}")
    if not 0 <= viewer < n:
        viewer = 0  # a spectator sees the table from seat 0
    centres = _SLOTS[n]
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    left, top = min(xs) - CARD_W / 2 - _GAP, min(ys) - CARD_H / 2 - _GAP
    width = max(xs) - min(xs) + CARD_W + 2 * _GAP
    height = max(ys) - min(ys) + CARD_H + _CAPTION_H + 2 * _GAP
    def centre_of(seat):
        relative = (seat - viewer) % n
        return centres[(n - relative) % n if clockwise else relative]

    winner_centre = centre_of(highlight) if type(highlight) is int and 0 <= highlight < n else None
    slots = []
    for seat, card in enumerate(plays):
        x, y = centre_of(seat)
        if card is None:
            drawing = [h("rect", {"x": 2, "y": 2, "width": CARD_W - 4, "height": CARD_H - 4, "rx": 5,
                                  "class": "cards-slot-empty"})]
        else:
            split_card(card)
            face = h("g", {"class": _card_classes(card, None)}, _face_shapes(card))
            drawing = [_travel(face, seat, card, (x, y), winner_centre)]
        caption = []
        if names is not None:
            text = names[seat] if len(names[seat]) <= 10 else names[seat][:9] + "…"
            caption = [h("text", {"x": CARD_W / 2, "y": CARD_H + 11, "font-size": 11, "text-anchor": "middle",
                                  "class": "cards-caption", "aria-hidden": "true"}, text)]
        transform = f"translate({fmt(x - CARD_W / 2)} {fmt(y - CARD_H / 2)})"
        slots.append(h("g", {"class": ["cards-slot", "cards-win" if seat == highlight else None],
                             "transform": transform, "role": "img", "aria-label": slot_label(seat, card),
                             "data-seat": seat, "data-card": card}, drawing, caption))
    box = f"{fmt(left)} {fmt(top)} {fmt(width)} {fmt(height)}"
    return h("svg", {"class": "cards-trick", "viewBox": box, "width": fmt(width * _TRICK_SCALE),
                     "height": fmt(height * _TRICK_SCALE), "role": "group", "aria-label": label,
                     "data-slots": n}, slots)
