"""SVG dice faces, the players' cups and the history of earlier hands, shared by every dice
game's view."""

from functools import lru_cache

from .html import ui_button
from .markup import EMPTY, Markup, fragment, h
from .motion import moving

_PIPS = {
    1: ((50, 50),),
    2: ((28, 28), (72, 72)),
    3: ((28, 28), (50, 50), (72, 72)),
    4: ((28, 28), (72, 28), (28, 72), (72, 72)),
    5: ((28, 28), (72, 28), (50, 50), (28, 72), (72, 72)),
    6: ((28, 28), (72, 28), (28, 50), (72, 50), (28, 72), (72, 72)),
}


def _die(classes: list, label: str, size: int, *marks) -> Markup:
    """The rounded die body with ``marks`` drawn on it, named ``label`` for screen readers."""
    return h(
        "svg",
        {"class": classes, "viewBox": "0 0 100 100", "width": size, "height": size, "role": "img",
         "aria-label": label},
        h("rect", {"x": 4, "y": 4, "width": 92, "height": 92, "rx": 18, "class": "die-body"}),
        marks,
    )


# A table shows dozens of dice but only a few distinct faces (and labels): each is drawn once.
@lru_cache(maxsize=512)
def die_svg(face: int, *, label: str, wild: bool = False, highlight: bool = False, size: int = 40) -> Markup:
    """One die. ``wild`` draws the ace as the wild mark (Perudo's paco); any other ace, Bozó's
    ás among them, is a plain one-pip face."""
    if wild and face == 1:
        marks = h("path", {"d": "M30 58 L50 28 L70 58 L50 50 Z", "class": "die-mark"})
    else:
        marks = [h("circle", {"cx": x, "cy": y, "r": 8, "class": "die-pip"}) for x, y in _PIPS[face]]
    return _die(["die", wild and "die-wild", highlight and "die-hit"], label, size, marks)


@lru_cache(maxsize=64)
def hidden_die_svg(*, label: str, size: int = 28) -> Markup:
    """A die under another player's cup: only its presence is public."""
    return _die(["die", "die-hidden"], label, size,
                h("text", {"x": 50, "y": 66, "text-anchor": "middle", "class": "die-q"}, "?"))


def cup_mine_dice(roll: str, faces, dice) -> Markup:
    """The viewer's own ``dice`` (drawn), shaken and rolled (ui/motion.py) when they are new:
    another ``roll`` (the game's name for this cupful) or other ``faces``."""
    return h("div", moving({"class": "cup-mine-dice"}, "shake", f"cup-{roll}-{''.join(map(str, faces))}", sound="dice"), dice)


def cup_players(t, prefix: str, view: dict, state, *, badge=None, upcoming=None, open_cups=None) -> Markup:
    """The players of a dice-cup game as compact strips, each with its dice under the cup.

    ``view`` has ``players`` (names), ``counts``, ``to_act`` and ``you``; ``state(seat,
    count, flags)`` is the text under the cup, ``badge(seat)`` optional markup after the
    name, ``upcoming`` the seat that speaks next, ``open_cups`` ``{seat: dice markup}`` for
    the cups the viewer may see (their own, or every cup once the game is over), drawn
    instead of hidden dice (the viewer's own is hidden from screen readers: the game's own
    cup names those dice already). The viewer's own strip says so in words (``<prefix>.you``).
    Catalog keys carry the game's ``prefix``; the classes are the shared ``cup-*`` ones
    (``dice.css``): ``cup-player`` marked ``cup-turn``, ``cup-next``, ``cup-out``, ``cup-you``.
    """
    hidden = hidden_die_svg(label=t(f"{prefix}.hidden_die"), size=18)
    open_cups = open_cups or {}
    items = []
    for seat, player in enumerate(view["players"]):
        count = view["counts"][seat]
        acting = seat in view["to_act"]
        flags = {"turn": acting, "next": seat == upcoming and not acting, "out": count == 0, "you": seat == view["you"]}
        items.append(h(
            "li",
            {"class": ["cup-player"] + [f"cup-{flag}" for flag, on in flags.items() if on],
             "data-seat": seat},
            h("span", {"class": "cup-name"}, player["name"],
              flags["you"] and fragment(" ", h("span", {"class": "cup-youmark"}, "(", t(f"{prefix}.you"), ")"))),
            badge(seat) if badge else None,
            h("span", {"class": ["cup-dice", "cup-open"], "aria-hidden": "true" if flags["you"] else None},
              open_cups[seat]) if seat in open_cups else
            h("span", {"class": "cup-dice", "aria-hidden": "true"}, [hidden] * count),
            h("span", {"class": "cup-state"}, state(seat, count, flags)),
        ))
    return h("ol", {"class": "cup-players", "aria-label": t(f"{prefix}.players")}, items)


def cup_history(t, prefix: str, records: list, shown: bool, label: str, line) -> tuple:
    """The hands settled earlier, folded behind a toggle (``label``, ``<prefix>.history``
    names the list) and, when ``shown``, one ``line(record)`` (an ``li``) per hand, newest
    first, in a short scrolling list; ``(None, None)`` before the first hand is settled.
    Test hooks: ``history-toggle``, ``history``."""
    if not records:
        return None, None
    toggle = ui_button(
        label, {"history": not shown}, cls="cup-history-toggle",
        **{"aria-expanded": "true" if shown else "false", "aria-controls": "cup-history",
           "data-testid": "history-toggle"},
    )
    if not shown:
        return toggle, None
    hands = h("ol", {"class": "cup-history", "id": "cup-history", "data-testid": "history", "tabindex": 0,
                     "aria-label": t(f"{prefix}.history")},
              (line(record) for record in reversed(records)))
    return toggle, hands


def cup_history_line(title: str, bids: list, outcome: list) -> Markup:
    """One settled hand of ``cup_history``: its ``title``, its bids (``(bidder, bid)`` text
    pairs) and what the call came to (sentences)."""
    said = (fragment(" · " if i else None, h("span", {"class": "cup-history-bidder"}, name), " ", bid)
            for i, (name, bid) in enumerate(bids))
    return h(
        "li", None,
        h("span", {"class": "cup-history-title"}, title),
        h("span", {"class": "cup-history-bids"}, said),
        h("span", {"class": "cup-history-outcome"}, " ".join(outcome)),
    )


def cup_helpers(odds: tuple, history: tuple) -> Markup:
    """The dock's last row, the odds and the history toggles (each ``(toggle, shown)``),
    with what they show below it: in the dock, so that on a phone they stay in view without
    scrolling, and opening the history (a short list) only makes the dock taller, never
    pushes a control away."""
    (odds_toggle, odds_shown), (history_toggle, history_shown) = odds, history
    if odds_toggle is None and history_toggle is None:
        return EMPTY
    return fragment(h("div", {"class": "cup-oddsbox"}, odds_toggle, history_toggle), odds_shown, history_shown)
