"""Crown and Anchor's seat screen: the layout, the dice, the stacks, history and fairness.

``render(view, ui, t)`` is pure: a seat's view (plus ``players`` added by the app) in, built
``Markup`` out (see ``pyengine/ui/markup.py``), so no view value can become markup; the
styles live in ``view.css`` (no inline style: seats are coloured by ``crown_anchor-seat-<n>``
classes, the fairness bars are SVG rectangles). UI state: ``chip`` (the chip size a click on
the layout stakes) and ``leaving`` (the leave button asks again before withdrawing). A click
on a symbol stakes the chosen chip, topped up to the table minimum and trimmed to the
maximum and to the stack, so every enabled button is a legal bet (checked with the engine's
own ``bet_error``).

Test hooks (``data-testid``): ``ca-cell-<symbol>``, ``ca-chip-<n>``, ``ca-done``,
``ca-clear``, ``ca-end``, ``ca-leave``, ``ca-leave-yes``, ``ca-roll``, ``ca-volunteer-yes``,
``ca-volunteer-no``, ``ca-dice`` (its ``data-roll`` counts the rolls, so a page can tell a
new roll; its ``data-news`` brings a new roll into view on a phone), ``ca-seats``, ``ca-history``, ``ca-fairness``.
"""

from fractions import Fraction
from functools import lru_cache

from ...ui.html import act_button, ui_button
from ...ui.markup import EMPTY, Markup, fragment, h
from ...ui.motion import moving
from . import GAME
from .rules import SYMBOLS

CHIP_SIZES = (1, 5, 25, 100, 500)
PERSISTENT_UI = ("chip",)  # the chip size a player picked stays picked between bets
PAUSE_AFTER_MS = {"roll": 2200}  # let the dice tumble and land before the next bot bets
SEAT_COLOURS = 10  # view.css colours seats crown_anchor-seat-0 .. -9 (the table's maximum)
BAR_SCALE = 100  # a fairness bar's SVG is 100 units wide for a share of 1


def _path(fill: str, d: str) -> Markup:
    return h("path", {"fill": fill, "d": d})


# The six symbols drawn in a 40 x 40 box; suits in card colours, crown gold, anchor navy.
_GLYPHS = {
    "hearts": _path("#c0392b", "M20 35C9 26 3 20 3 13C3 7 8 4 12 4C16 4 19 7 20 10C21 7 24 4 28 4C32 4 37 7 37 13C37 20 31 26 20 35Z"),
    "diamonds": _path("#c0392b", "M20 3L34 20L20 37L6 20Z"),
    "spades": _path("#222", "M20 4C31 14 37 19 37 25C37 30 33 33 29 33C25 33 22 31 21 28L23 36H17L19 28C18 31 15 33 11 33C7 33 3 30 3 25C3 19 9 14 20 4Z"),
    "clubs": h("g", {"fill": "#222"},
               (h("circle", {"cx": cx, "cy": cy, "r": r}) for cx, cy, r in ((20, 11, 7), (11, 22, 7), (29, 22, 7), (20, 20, 4))),
               h("path", {"d": "M18 22L16 36H24L22 22Z"})),
    "crown": h("g", {"fill": "#b7950b"}, h("path", {"d": "M5 30L7 12L14 20L20 6L26 20L33 12L35 30Z"}),
               h("rect", {"x": 5, "y": 31, "width": 30, "height": 4})),
    "anchor": h("g", None,
                h("g", {"fill": "none", "stroke": "#1f3a68", "stroke-width": 3, "stroke-linecap": "round"},
                  h("circle", {"cx": 20, "cy": 7, "r": 4}),
                  h("path", {"d": "M20 11V35M13 16H27M7 24C8 31 14 35 20 35C26 35 32 31 33 24"})),
                _path("#1f3a68", "M3 27L7 20L11 27ZM29 27L33 20L37 27Z")),
}


def _seat_class(seat: int) -> str:
    return f"crown_anchor-seat-{seat % SEAT_COLOURS}"


# Symbols, dice and bars are drawn once per look (a screen repeats them: cells, history, fairness).
@lru_cache(maxsize=256)
def glyph(symbol: str, label: str, cls: str = "crown_anchor-glyph") -> Markup:
    """A symbol on its own (history, fairness table); an unknown symbol draws nothing."""
    return h("svg", {"class": cls, "viewBox": "0 0 40 40", "role": "img", "aria-label": label}, _GLYPHS.get(symbol))


@lru_cache(maxsize=64)
def die(symbol: str, label: str) -> Markup:
    """One die showing ``symbol``: the glyph on a rounded white face."""
    return h(
        "svg", {"class": "crown_anchor-die", "viewBox": "0 0 48 48", "role": "img", "aria-label": label},
        h("rect", {"x": 1.5, "y": 1.5, "width": 45, "height": 45, "rx": 8, "fill": "#fffdf8", "stroke": "#8a7f6a",
                   "stroke-width": 2}),
        h("g", {"transform": "translate(4 4)"}, _GLYPHS.get(symbol)),
    )


def _names(view: dict, t) -> list:
    players = view.get("players") or []
    names = []
    for seat in range(len(view["chips"])):
        name = players[seat].get("name") if seat < len(players) else ""
        names.append(name or t("crown_anchor.seat", n=seat + 1))
    return names


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n).replace("-", "−")


def _fresh(view: dict) -> bool:
    """Just after a roll, before anyone has done anything: the moment to animate it."""
    return bool(view["last"]) and not any(view["stakes"]) and not any(view["done"])


def _can_bet(view: dict) -> bool:
    return view["phase"] == "bet" and view["you"] in view["to_act"]


def _chip_sizes(view: dict) -> list:
    you = view["you"]
    options = view["options"]
    cap = view["chips"][you] if you is not None else 0
    if options["max_bet"]:
        cap = min(cap, options["max_bet"])
    return [c for c in CHIP_SIZES if c <= cap] or [CHIP_SIZES[0]]


def _chosen_chip(view: dict, ui: dict) -> int:
    sizes = _chip_sizes(view)
    chip = ui.get("chip")
    return chip if type(chip) is int and chip in sizes else sizes[0]


def stake_for(view: dict, symbol: str, chip: int):
    """What a click on ``symbol`` stakes: ``chip`` topped up to the minimum and trimmed to the
    maximum and the stack, or ``None`` if no legal stake is left there."""
    seat = view["you"]
    options = view["options"]
    current = view["stakes"][seat].get(symbol, 0)
    amount = max(chip, options["min_bet"] - current)
    if options["max_bet"]:
        amount = min(amount, options["max_bet"] - current)
    amount = min(amount, view["chips"][seat])
    if amount < 1 or GAME.bet_error(view, seat, symbol, amount) is not None:
        return None
    return amount


def _cell_stakes(view: dict, symbol: str, names: list, t) -> list:
    """Every seat's stake on ``symbol`` as readable text pills (the seat's colour dot and the
    amount); between rounds, those of the last roll."""
    stacks = [(s, bets[symbol]) for s, bets in enumerate(view["stakes"]) if symbol in bets]
    if not stacks and view["last"] and not any(view["stakes"]):
        stacks = [(s, bets[symbol]) for s, bets in enumerate(view["last"]["stakes"]) if symbol in bets]
    # A new stake slides onto the box from below (ui/motion.py): chips placed on the layout.
    return [
        h("span", moving({"class": "crown_anchor-stake", "title": t("crown_anchor.chip_label", name=names[seat], count=amount)},
                         "arrive", f"stake-{seat}-{symbol}-{amount}", 0, 2, sound="chips"),
          h("span", {"class": ["crown_anchor-dot", _seat_class(seat)]}), amount)
        for seat, amount in stacks
    ]


@lru_cache(maxsize=None)
def _cell_glyph(symbol: str) -> Markup:
    return h("svg", {"class": "crown_anchor-cellglyph", "viewBox": "0 0 40 40", "aria-hidden": "true"},
             _GLYPHS.get(symbol))


def _board(view: dict, ui: dict, names: list, t) -> Markup:
    betting = _can_bet(view)
    chip = _chosen_chip(view, ui) if betting else 0
    shown = view["last"]["dice"] if view["last"] else []
    cells = []
    for symbol in SYMBOLS:
        name = t(f"crown_anchor.sym.{symbol}")
        classes = ["crown_anchor-cell", symbol in shown and "crown_anchor-hit"]
        total = sum(bets.get(symbol, 0) for bets in view["stakes"])
        stakes = _cell_stakes(view, symbol, names, t)
        pick = [
            _cell_glyph(symbol),
            h("span", {"class": "crown_anchor-cellname"}, name),
            symbol in shown and _fresh(view)
            and h("span", {"class": "crown_anchor-add"}, t("crown_anchor.shown", n=shown.count(symbol))),
        ]
        stakes = stakes and h("span", {"class": "crown_anchor-stakes"}, stakes)
        if not betting:
            label = t("crown_anchor.cell_label", symbol=name, count=total)
            cells.append(h("div", {"class": classes, "role": "group", "aria-label": label},
                           h("div", {"class": "crown_anchor-pick"}, pick), stakes))
            continue
        # The button's name is what it shows ("Hearts +5"); the stakes so far describe it.
        mine = view["stakes"][view["you"]].get(symbol, 0)
        amount = stake_for(view, symbol, chip)
        about = f"ca-about-{symbol}"
        attrs = {"aria-describedby": about, "data-testid": f"ca-cell-{symbol}"}
        if amount is None:
            button = h("button", {"type": "button", "class": "crown_anchor-pick", "disabled": True, **attrs}, pick)
        else:
            pick.append(h("span", {"class": "crown_anchor-add"}, f"+{amount}"))
            button = act_button(pick, {"type": "bet", "symbol": symbol, "chips": amount}, cls="crown_anchor-pick", **attrs)
        described = h("span", {"id": about, "class": "tb-visually-hidden"},
                      t("crown_anchor.stake_on", symbol=name, n=amount or 0, mine=mine, total=total))
        cells.append(h("div", {"class": classes}, button, stakes, described))
    return h("div", {"class": "crown_anchor-board", "aria-label": t("crown_anchor.layout")}, cells)


def _dice(view: dict, t) -> Markup:
    if not view["dice"]:
        return h("p", {"class": "crown_anchor-nodice"}, t("crown_anchor.no_roll"))
    attrs = {"class": "crown_anchor-dice", "data-testid": "ca-dice", "data-roll": view["rolls"],
             "data-news": f"roll-{view['rolls']}", "role": "group", "aria-label": t("crown_anchor.dice")}
    return h("div", moving(attrs, "shake", f"roll-{view['rolls']}", sound="dice"),
             (die(d, t(f"crown_anchor.sym.{d}")) for d in view["dice"]))


def _your_result(view: dict, t):
    """What the last roll did to this seat's stack, said in words (and announced)."""
    you, last = view["you"], view["last"]
    if you is None or not last or view["result"]:
        return None
    staked = sum(last["stakes"][you].values())
    if you != last["banker"] and not staked:
        return None
    delta = last["delta"][you]
    key = "crown_anchor.you_up" if delta > 0 else "crown_anchor.you_down" if delta < 0 else "crown_anchor.you_even"
    cls = "crown_anchor-up" if delta > 0 else "crown_anchor-down" if delta < 0 else None
    return h("p", {"class": ["crown_anchor-mine", cls], "data-testid": "ca-your-result", "data-announce": True},
             t(key, n=_signed(delta)))


def _status(view: dict, names: list, t) -> Markup:
    you, phase = view["you"], view["phase"]
    if view["result"]:
        key = "crown_anchor.ended_agreement" if view["result"]["reason"] == "agreement" else "crown_anchor.ended_no_punters"
        text = t(key)
    elif phase == "volunteer":
        text = t("crown_anchor.who_banks") if you in view["to_act"] else t("crown_anchor.waiting_volunteers")
    elif phase == "roll":
        text = t("crown_anchor.your_roll") if you == view["banker"] else t("crown_anchor.waiting_roll", name=names[view["banker"]])
    elif phase == "bet" and you in view["to_act"]:
        text = t("crown_anchor.place_stakes")
        if view["votes"][view["banker"]]:
            text += " " + t("crown_anchor.banker_proposed", name=names[view["banker"]])
    else:
        text = t("crown_anchor.waiting_stakes", count=len(view["to_act"]))
    if view["agreed"] and phase == "roll":
        text += " " + t("crown_anchor.all_agree")
    return h("p", {"class": "crown_anchor-status", "data-announce": True}, text)


def _controls(view: dict, ui: dict, t) -> Markup:
    you, phase = view["you"], view["phase"]
    if view["result"] or you not in view["to_act"]:
        return EMPTY
    if phase == "volunteer":
        buttons = [
            act_button(t("crown_anchor.volunteer_yes"), {"type": "volunteer", "yes": True}, cls="tb-primary",
                       **{"data-testid": "ca-volunteer-yes"}),
            act_button(t("crown_anchor.volunteer_no"), {"type": "volunteer", "yes": False},
                       **{"data-testid": "ca-volunteer-no"}),
        ]
    elif phase == "roll":
        label = t("crown_anchor.end_game" if view["agreed"] else "crown_anchor.banker_propose")
        buttons = [
            act_button(t("crown_anchor.roll"), {"type": "roll"}, cls="tb-primary", **{"data-testid": "ca-roll"}),
            act_button(label, {"type": "end"}, **{"data-testid": "ca-end"}),
        ]
    elif phase == "bet":
        return _punter_controls(view, ui, t)
    else:
        return EMPTY
    return h("div", {"class": "crown_anchor-row"}, buttons)


def _punter_controls(view: dict, ui: dict, t) -> Markup:
    chip = _chosen_chip(view, ui)
    chips = [
        ui_button(size, {"chip": size}, cls="crown_anchor-chip",
                  **{"aria-pressed": "true" if size == chip else "false",
                     "aria-label": t("crown_anchor.chip_size", n=size), "data-testid": f"ca-chip-{size}"})
        for size in _chip_sizes(view)
    ]
    mine = view["stakes"][view["you"]]
    staked = sum(mine.values())
    actions = [act_button(t("crown_anchor.done", n=staked) if staked else t("crown_anchor.sit_out"),
                          {"type": "done"}, cls="tb-primary", **{"data-testid": "ca-done"})]
    if mine:
        actions.append(act_button(t("crown_anchor.clear"), {"type": "clear"}, **{"data-testid": "ca-clear"}))
    # Ending the game and leaving are not part of every turn: they wait behind "More", which
    # stays open while the player confirms leaving (or when others want to stop).
    others_voted = any(voted and s != view["you"] for s, voted in enumerate(view["votes"]))
    rarely = [act_button(t("crown_anchor.agree_end" if others_voted else "crown_anchor.propose_end"),
                         {"type": "end"}, **{"data-testid": "ca-end"})]
    leaving = ui.get("leaving") is True
    if leaving:
        rarely += [
            h("span", None, t("crown_anchor.leave_sure")),
            act_button(t("crown_anchor.leave_yes"), {"type": "leave"}, **{"data-testid": "ca-leave-yes"}),
            ui_button(t("crown_anchor.leave_no"), {"leaving": False}),
        ]
    else:
        rarely.append(ui_button(t("crown_anchor.leave"), {"leaving": True}, **{"data-testid": "ca-leave"}))
    more = h("details", {"class": "crown_anchor-more", "open": leaving or others_voted, "data-testid": "ca-more"},
             h("summary", None, t("crown_anchor.more")), h("div", {"class": "crown_anchor-row"}, rarely))
    return fragment(
        h("div", {"class": "crown_anchor-row", "role": "group", "aria-label": t("crown_anchor.chip_sizes")},
          h("span", None, t("crown_anchor.chip")), chips),
        h("div", {"class": "crown_anchor-row"}, actions, more),
    )


def _seat_state(view: dict, seat: int, t) -> str:
    if view["result"]:
        return t("crown_anchor.net", n=_signed(view["result"]["net"][seat]))
    if not view["active"][seat]:
        return t("crown_anchor.left")
    if seat == view["banker"]:
        return t("crown_anchor.banker_wants_end" if view["votes"][seat] else "crown_anchor.banker")
    if view["phase"] == "volunteer":
        answer = view["volunteers"][seat]
        return t("crown_anchor.thinking") if answer is None else t("crown_anchor.volunteers" if answer else "crown_anchor.declines")
    if view["votes"][seat]:
        return t("crown_anchor.wants_end")
    return t("crown_anchor.ready") if view["done"][seat] else t("crown_anchor.betting")


def _delta(view: dict, seat: int, t):
    """How the last roll changed ``seat``'s stack, and what the bank could not pay it."""
    last = view["last"]
    if not last:
        return None
    d = last["delta"][seat]
    cls = "crown_anchor-up" if d > 0 else "crown_anchor-down" if d < 0 else None
    short = last["short"][seat]
    return [h("span", {"class": cls}, _signed(d)) if d else "0",
            h("small", None, t("crown_anchor.unpaid", n=short)) if short else None]


def _seats(view: dict, names: list, t) -> Markup:
    last = view["last"]
    rows = []
    for seat, name in enumerate(names):
        classes = [seat == view["you"] and "crown_anchor-you", not view["active"][seat] and "crown_anchor-gone"]
        staked = sum(view["stakes"][seat].values())
        rows.append(h(
            "tr", {"class": classes, "data-seat": seat},
            h("td", None, h("span", {"class": ["crown_anchor-dot", _seat_class(seat)]}), " ", name),
            h("td", None, view["chips"][seat]),
            h("td", None, staked or None),
            h("td", None, _delta(view, seat, t)),
            h("td", None, _seat_state(view, seat, t)),
        ))
    heads = (h("th", {"scope": "col"}, t(k)) for k in (
        "crown_anchor.player", "crown_anchor.chips", "crown_anchor.staked", "crown_anchor.last_roll", "crown_anchor.state"))
    notes = []
    if last and last["broken"]:
        notes.append(t("crown_anchor.bank_broke", name=names[last["banker"]]))
    if last and last["left"]:
        notes.append(t("crown_anchor.players_left", names=", ".join(names[s] for s in last["left"])))
    return h(
        "div", {"class": ["crown_anchor-seatbox", _fresh(view) and "crown_anchor-fresh"]},
        h("table", {"class": "crown_anchor-seats", "data-testid": "ca-seats"},
          h("caption", {"class": "tb-visually-hidden"}, t("crown_anchor.players")),
          h("thead", None, h("tr", None, heads)),
          h("tbody", None, rows)),
        (h("p", {"role": "status"}, note) for note in notes),
    )


def _history(view: dict, t) -> Markup:
    if not view["history"]:
        return EMPTY
    return h(
        "section", {"class": "crown_anchor-history", "data-testid": "ca-history"},
        h("h2", None, t("crown_anchor.history")),
        h("ol", None, (h("li", None, (glyph(d, t(f"crown_anchor.sym.{d}")) for d in dice))
                       for dice in reversed(view["history"]))),
    )


def _percent(part: int, total: int, t) -> str:
    """The share ``part / total`` (``total`` > 0) as a percentage to one decimal, in the
    language's own format; rounded half to even as ``round`` rounds a ``Fraction``, but in
    integers (a screen shows a dozen of them: Fractions cost more)."""
    per_mille, rest = divmod(part * 1000, total)
    if 2 * rest > total or (2 * rest == total and per_mille % 2):
        per_mille += 1
    whole, tenth = divmod(per_mille, 10)
    return t("crown_anchor.percent", whole=whole, tenth=tenth)


@lru_cache(maxsize=256)
def _bar(share: float) -> Markup:
    """A share of the dice as a bar: an SVG rectangle, its width the share (no inline style)."""
    return h(
        "svg", {"class": "crown_anchor-bar", "viewBox": f"0 0 {BAR_SCALE} 6", "preserveAspectRatio": "none",
                "aria-hidden": "true"},
        h("rect", {"width": share * BAR_SCALE, "height": 6, "rx": 2}),
    )


def _fairness(view: dict, t) -> Markup:
    """House edge from the engine's exact expectation, and the dice seen so far."""
    edge = -Fraction(*view["expected"])
    payouts = " · ".join(f"{p}:1" for p in view["payouts"])
    dice = sum(view["tally"].values())
    lines = [
        t("crown_anchor.edge", pct=_percent(edge.numerator, edge.denominator, t), frac=str(edge)) if edge else t("crown_anchor.fair"),
        t("crown_anchor.payouts", table=payouts),
        t("crown_anchor.expected_face"),
        t("crown_anchor.rolls_seen", count=view["rolls"], dice=dice),
    ]
    rows = []
    for symbol in SYMBOLS:
        seen = view["tally"][symbol]
        rows.append(h(
            "tr", None,
            h("th", {"scope": "row"}, glyph(symbol, t(f"crown_anchor.sym.{symbol}"))),
            h("td", None, seen), h("td", None, _percent(seen, dice or 1, t)), h("td", None, _bar(seen / dice if dice else 0.0)),
        ))
    matches = view["matches"]
    checks = sum(matches)
    expected = (125, 75, 15, 1)
    match_rows = (
        h("tr", None,
          h("th", {"scope": "row"}, m),
          h("td", None, _percent(matches[m], checks, t) if checks else "—"),
          h("td", None, _percent(expected[m], 216, t)))
        for m in range(4)
    )
    return h(
        "details", {"class": "crown_anchor-fair", "data-testid": "ca-fairness"},
        h("summary", None, t("crown_anchor.fairness")),
        (h("p", None, line) for line in lines),
        h("table", None,
          h("caption", None, t("crown_anchor.faces")),
          h("thead", None, h("tr", None,
                              h("th", {"scope": "col"}, t("crown_anchor.symbol")),
                              h("th", {"scope": "col"}, t("crown_anchor.count")),
                              h("th", {"scope": "col"}, t("crown_anchor.share")),
                              h("td"))),
          h("tbody", None, rows)),
        h("table", None,
          h("caption", None, t("crown_anchor.matches")),
          h("thead", None, h("tr", None,
                              h("th", {"scope": "col"}, "m"),
                              h("th", {"scope": "col"}, t("crown_anchor.observed")),
                              h("th", {"scope": "col"}, t("crown_anchor.exact")))),
          h("tbody", None, match_rows)),
    )


def render(view: dict, ui: dict, t) -> Markup:
    names = _names(view, t)
    return h(
        "div", {"class": "crown_anchor"},
        h("div", {"class": "crown_anchor-main"},
          _status(view, names, t), _dice(view, t), _your_result(view, t), _board(view, ui, names, t)),
        h("section", {"class": "crown_anchor-dock tb-dock", "data-testid": "dock", "aria-label": t("crown_anchor.chip_sizes")},
          _controls(view, ui, t)),
        h("div", {"class": "crown_anchor-side"},
          _seats(view, names, t), _history(view, t), _fairness(view, t)),
    )
