"""Crown and Anchor's seat screen: the layout, the dice, the stacks, history and fairness.

``render(view, ui, t)`` is pure: a seat's view (plus ``players`` added by the app) in, HTML
out. UI state: ``chip`` (the chip size a click on the layout stakes) and ``leaving`` (the
leave button asks again before withdrawing). A click on a symbol stakes the chosen chip,
topped up to the table minimum and trimmed to the maximum and to the stack, so every
enabled button is a legal bet (checked with the engine's own ``bet_error``).

Test hooks (``data-testid``): ``ca-cell-<symbol>``, ``ca-chip-<n>``, ``ca-done``,
``ca-clear``, ``ca-end``, ``ca-leave``, ``ca-leave-yes``, ``ca-roll``, ``ca-volunteer-yes``,
``ca-volunteer-no``, ``ca-dice`` (its ``data-roll`` counts the rolls, so a page can tell a
new roll), ``ca-seats``, ``ca-history``, ``ca-fairness``.
"""

from fractions import Fraction
from html import escape

from ...ui.html import act_button, ui_button
from . import GAME
from .rules import SYMBOLS

CHIP_SIZES = (1, 5, 25, 100, 500)
PERSISTENT_UI = ("chip",)  # the chip size a player picked stays picked between bets
PAUSE_AFTER_MS = {"roll": 2200}  # let the dice tumble and land before the next bot bets
SEAT_COLOURS = (
    "#c0392b", "#2471a3", "#d4ac0d", "#7d3c98", "#17a589",
    "#ca6f1e", "#5d6d7e", "#c2185b", "#1e8449", "#6e2c00",
)

# The six symbols drawn in a 40 x 40 box; suits in card colours, crown gold, anchor navy.
_GLYPHS = {
    "hearts": '<path fill="#c0392b" d="M20 35C9 26 3 20 3 13C3 7 8 4 12 4C16 4 19 7 20 10C21 7 24 4 28 4C32 4 37 7 37 13C37 20 31 26 20 35Z"/>',
    "diamonds": '<path fill="#c0392b" d="M20 3L34 20L20 37L6 20Z"/>',
    "spades": '<path fill="#222" d="M20 4C31 14 37 19 37 25C37 30 33 33 29 33C25 33 22 31 21 28L23 36H17L19 28C18 31 15 33 11 33C7 33 3 30 3 25C3 19 9 14 20 4Z"/>',
    "clubs": '<g fill="#222"><circle cx="20" cy="11" r="7"/><circle cx="11" cy="22" r="7"/>'
    '<circle cx="29" cy="22" r="7"/><circle cx="20" cy="20" r="4"/><path d="M18 22L16 36H24L22 22Z"/></g>',
    "crown": '<g fill="#b7950b"><path d="M5 30L7 12L14 20L20 6L26 20L33 12L35 30Z"/><rect x="5" y="31" width="30" height="4"/></g>',
    "anchor": '<g fill="none" stroke="#1f3a68" stroke-width="3" stroke-linecap="round"><circle cx="20" cy="7" r="4"/>'
    '<path d="M20 11V35M13 16H27M7 24C8 31 14 35 20 35C26 35 32 31 33 24"/></g>'
    '<path fill="#1f3a68" d="M3 27L7 20L11 27ZM29 27L33 20L37 27Z"/>',
}

STYLE = """
.crown_anchor{display:grid;gap:.75rem;max-width:46rem;margin:0 auto}
.crown_anchor-status{margin:0;font-weight:600}
.crown_anchor-board{display:grid;grid-template-columns:repeat(3,1fr);gap:.4rem;padding:.5rem;
 border-radius:12px;background:var(--felt,#1f4d3a)}
.crown_anchor-cell{display:flex;flex-direction:column;align-items:center;gap:.1rem;min-height:6.5rem;
 padding:.3rem;border:2px solid #d9cfa8;border-radius:10px;background:#f7f1dc;color:#2b2a28;font:inherit}
button.crown_anchor-cell{cursor:pointer}
button.crown_anchor-cell:focus-visible{outline:3px solid var(--focus,#c9a23a);outline-offset:2px}
.crown_anchor-cell[disabled]{opacity:.6;cursor:not-allowed}
.crown_anchor-hit{border-color:#f4d03f;box-shadow:0 0 0 3px #f4d03f inset}
.crown_anchor-cell svg{width:100%;height:auto;max-width:7rem}
.crown_anchor-cellname{font-size:.85rem}
.crown_anchor-add{font-size:.8rem;font-weight:700}
.crown_anchor-chiptext{font:700 7px sans-serif;fill:#fff}
.crown_anchor-row{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
.crown_anchor-row button{min-height:2.75rem;min-width:2.75rem}
.crown_anchor-chip[aria-pressed=true]{outline:3px solid var(--accent,#b5553a)}
.crown_anchor-dice{display:flex;gap:.5rem;justify-content:center}
.crown_anchor-die{width:3.5rem;height:3.5rem}
.crown_anchor-seatbox{overflow-x:auto}
.crown_anchor-seats{width:100%;border-collapse:collapse;font-size:.85rem}
.crown_anchor-seats small{display:block;font-size:.75rem}
.crown_anchor-seats td,.crown_anchor-seats th{padding:.2rem .25rem;text-align:left;border-bottom:1px solid #ddd3c2}
.crown_anchor-you{font-weight:700}
.crown_anchor-gone{opacity:.55}
.crown_anchor-up{color:#1e8449;font-weight:700}
.crown_anchor-down{color:#b03a2e;font-weight:700}
.crown_anchor-dot{display:inline-block;width:.8em;height:.8em;border-radius:50%;vertical-align:middle}
.crown_anchor-history ol{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;margin:0;padding:0}
.crown_anchor-history svg{width:1.2rem;height:1.2rem}
.crown_anchor-bar{display:inline-block;height:.6rem;background:var(--felt-light,#2f6b52);border-radius:3px}
.crown_anchor-fair table{border-collapse:collapse;font-size:.85rem}
.crown_anchor-fair svg{width:1.4rem;height:1.4rem;vertical-align:middle}
.crown_anchor-fair td,.crown_anchor-fair th{padding:.15rem .4rem;text-align:left}
@media (prefers-reduced-motion:no-preference){
 .crown_anchor-tumble .crown_anchor-die{animation:crown_anchor-tumble .9s cubic-bezier(.3,1.4,.6,1) both}
 .crown_anchor-tumble .crown_anchor-die:nth-child(2){animation-delay:.12s}
 .crown_anchor-tumble .crown_anchor-die:nth-child(3){animation-delay:.24s}
 .crown_anchor-fresh .crown_anchor-up,.crown_anchor-fresh .crown_anchor-down{animation:crown_anchor-pop .6s .9s both}
 @keyframes crown_anchor-tumble{0%{transform:translateY(-2.5rem) rotate(-300deg) scale(.6);opacity:0}
  70%{transform:translateY(.3rem) rotate(12deg)}100%{transform:none;opacity:1}}
 @keyframes crown_anchor-pop{0%{transform:scale(.4);opacity:0}60%{transform:scale(1.3)}100%{transform:none;opacity:1}}
}
"""


def glyph(symbol: str, label: str, cls: str = "crown_anchor-glyph") -> str:
    return (
        f'<svg class="{cls}" viewBox="0 0 40 40" role="img" aria-label="{escape(label, quote=True)}">'
        f"{_GLYPHS[symbol]}</svg>"
    )


def die(symbol: str, label: str) -> str:
    """One die showing ``symbol``: the glyph on a rounded white face."""
    return (
        f'<svg class="crown_anchor-die" viewBox="0 0 48 48" role="img" aria-label="{escape(label, quote=True)}">'
        f'<rect x="1.5" y="1.5" width="45" height="45" rx="8" fill="#fffdf8" stroke="#8a7f6a" stroke-width="2"/>'
        f'<g transform="translate(4 4)">{_GLYPHS[symbol]}</g></svg>'
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


def _cell_svg(view: dict, symbol: str, names: list, t) -> str:
    """The symbol with every seat's chips stacked beneath it, one coloured chip per seat."""
    stacks = [(s, bets[symbol]) for s, bets in enumerate(view["stakes"]) if symbol in bets]
    if not stacks and view["last"] and not any(view["stakes"]):
        stacks = [(s, bets[symbol]) for s, bets in enumerate(view["last"]["stakes"]) if symbol in bets]
    chips = []
    for i, (seat, amount) in enumerate(stacks):
        x, y = 12 + (i % 5) * 19, 62 + (i // 5) * 17
        label = t("crown_anchor.chip_label", name=names[seat], n=amount)
        chips.append(
            f'<g><title>{escape(label)}</title><circle cx="{x}" cy="{y}" r="8.5" '
            f'fill="{SEAT_COLOURS[seat % len(SEAT_COLOURS)]}" stroke="#fff" stroke-width="1.5" stroke-dasharray="3 2"/>'
            f'<text x="{x}" y="{y + 2.5}" text-anchor="middle" class="crown_anchor-chiptext">{amount}</text></g>'
        )
    return (
        f'<svg viewBox="0 0 100 {90 if len(stacks) > 5 else 74}" aria-hidden="true">'
        f'<g transform="translate(30 2)">{_GLYPHS[symbol]}</g>{"".join(chips)}</svg>'
    )


def _board(view: dict, ui: dict, names: list, t) -> str:
    betting = _can_bet(view)
    chip = _chosen_chip(view, ui) if betting else 0
    shown = view["last"]["dice"] if view["last"] else []
    cells = []
    for symbol in SYMBOLS:
        name = t(f"crown_anchor.sym.{symbol}")
        classes = "crown_anchor-cell" + (" crown_anchor-hit" if symbol in shown else "")
        total = sum(bets.get(symbol, 0) for bets in view["stakes"])
        inner = _cell_svg(view, symbol, names, t) + f'<span class="crown_anchor-cellname">{escape(name)}</span>'
        if symbol in shown and _fresh(view):
            inner += f'<span class="crown_anchor-add">{escape(t("crown_anchor.shown", n=shown.count(symbol)))}</span>'
        if not betting:
            cells.append(f'<div class="{classes}" role="group" aria-label="{escape(t("crown_anchor.cell_label", symbol=name, total=total), quote=True)}">{inner}</div>')
            continue
        mine = view["stakes"][view["you"]].get(symbol, 0)
        amount = stake_for(view, symbol, chip)
        label = t("crown_anchor.stake_on", symbol=name, n=amount or 0, mine=mine, total=total)
        attrs = {"aria-label": label, "data-testid": f"ca-cell-{symbol}"}
        if amount is None:
            cells.append(
                f'<button type="button" class="{classes}" disabled aria-label="{escape(label, quote=True)}" '
                f'data-testid="ca-cell-{symbol}">{inner}</button>'
            )
        else:
            inner += f'<span class="crown_anchor-add">+{amount}</span>'
            cells.append(act_button(inner, {"type": "bet", "symbol": symbol, "chips": amount}, cls=classes, **attrs))
    return f'<div class="crown_anchor-board" aria-label="{escape(t("crown_anchor.layout"), quote=True)}">{"".join(cells)}</div>'


def _dice(view: dict, t) -> str:
    if not view["dice"]:
        return f'<p class="crown_anchor-nodice">{escape(t("crown_anchor.no_roll"))}</p>'
    dice = "".join(die(d, t(f"crown_anchor.sym.{d}")) for d in view["dice"])
    tumble = " crown_anchor-tumble" if _fresh(view) else ""
    return (
        f'<div class="crown_anchor-dice{tumble}" data-testid="ca-dice" data-roll="{view["rolls"]}" '
        f'role="group" aria-label="{escape(t("crown_anchor.dice"), quote=True)}">{dice}</div>'
    )


def _status(view: dict, names: list, t) -> str:
    you, phase = view["you"], view["phase"]
    if view["result"]:
        key = "crown_anchor.ended_agreement" if view["result"]["reason"] == "agreement" else "crown_anchor.ended_no_punters"
        text = t(key)
    elif phase == "volunteer":
        text = t("crown_anchor.who_banks") if you in view["to_act"] else t("crown_anchor.waiting_volunteers")
    elif phase == "roll":
        text = t("crown_anchor.your_roll") if you == view["banker"] else t("crown_anchor.waiting_roll", name=names[view["banker"]])
    elif you in view["to_act"]:
        text = t("crown_anchor.place_stakes")
        if view["votes"][view["banker"]]:
            text += " " + t("crown_anchor.banker_proposed", name=names[view["banker"]])
    else:
        text = t("crown_anchor.waiting_stakes", n=len(view["to_act"]))
    if view["agreed"] and phase == "roll":
        text += " " + t("crown_anchor.all_agree")
    return f'<p class="crown_anchor-status" role="status" aria-live="polite">{escape(text)}</p>'


def _controls(view: dict, ui: dict, t) -> str:
    you, phase = view["you"], view["phase"]
    if view["result"] or you not in view["to_act"]:
        return ""
    buttons = []
    if phase == "volunteer":
        buttons.append(act_button(escape(t("crown_anchor.volunteer_yes")), {"type": "volunteer", "yes": True},
                                  cls="tb-primary", **{"data-testid": "ca-volunteer-yes"}))
        buttons.append(act_button(escape(t("crown_anchor.volunteer_no")), {"type": "volunteer", "yes": False},
                                  **{"data-testid": "ca-volunteer-no"}))
    elif phase == "roll":
        buttons.append(act_button(escape(t("crown_anchor.roll")), {"type": "roll"}, cls="tb-primary",
                                  **{"data-testid": "ca-roll"}))
        label = t("crown_anchor.end_game" if view["agreed"] else "crown_anchor.banker_propose")
        buttons.append(act_button(escape(label), {"type": "end"}, **{"data-testid": "ca-end"}))
    else:
        return _punter_controls(view, ui, t)
    return f'<div class="crown_anchor-row">{"".join(buttons)}</div>'


def _punter_controls(view: dict, ui: dict, t) -> str:
    chip = _chosen_chip(view, ui)
    chips = "".join(
        ui_button(str(size), {"chip": size}, cls="crown_anchor-chip",
                  **{"aria-pressed": "true" if size == chip else "false",
                     "aria-label": t("crown_anchor.chip_size", n=size), "data-testid": f"ca-chip-{size}"})
        for size in _chip_sizes(view)
    )
    mine = view["stakes"][view["you"]]
    staked = sum(mine.values())
    actions = [act_button(escape(t("crown_anchor.done", n=staked) if staked else t("crown_anchor.sit_out")),
                          {"type": "done"}, cls="tb-primary", **{"data-testid": "ca-done"})]
    if mine:
        actions.append(act_button(escape(t("crown_anchor.clear")), {"type": "clear"}, **{"data-testid": "ca-clear"}))
    others_voted = any(voted and s != view["you"] for s, voted in enumerate(view["votes"]))
    actions.append(act_button(escape(t("crown_anchor.agree_end" if others_voted else "crown_anchor.propose_end")),
                              {"type": "end"}, **{"data-testid": "ca-end"}))
    if ui.get("leaving") is True:
        actions.append(
            f'<span>{escape(t("crown_anchor.leave_sure"))}</span>'
            + act_button(escape(t("crown_anchor.leave_yes")), {"type": "leave"}, **{"data-testid": "ca-leave-yes"})
            + ui_button(escape(t("crown_anchor.leave_no")), {"leaving": False})
        )
    else:
        actions.append(ui_button(escape(t("crown_anchor.leave")), {"leaving": True}, **{"data-testid": "ca-leave"}))
    return (
        f'<div class="crown_anchor-row" role="group" aria-label="{escape(t("crown_anchor.chip_sizes"), quote=True)}">'
        f'<span>{escape(t("crown_anchor.chip"))}</span>{chips}</div>'
        f'<div class="crown_anchor-row">{"".join(actions)}</div>'
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


def _seats(view: dict, names: list, t) -> str:
    last = view["last"]
    rows = []
    for seat, name in enumerate(names):
        classes = []
        if seat == view["you"]:
            classes.append("crown_anchor-you")
        if not view["active"][seat]:
            classes.append("crown_anchor-gone")
        staked = sum(view["stakes"][seat].values())
        delta = ""
        if last:
            d = last["delta"][seat]
            cls = "crown_anchor-up" if d > 0 else "crown_anchor-down" if d < 0 else ""
            delta = f'<span class="{cls}">{escape(_signed(d))}</span>' if d else "0"
            if last["short"][seat]:
                delta += f'<small>{escape(t("crown_anchor.unpaid", n=last["short"][seat]))}</small>'
        dot = f'<span class="crown_anchor-dot" style="background:{SEAT_COLOURS[seat % len(SEAT_COLOURS)]}"></span>'
        rows.append(
            f'<tr class="{" ".join(classes)}" data-seat="{seat}"><td>{dot} {escape(name)}</td>'
            f"<td>{view['chips'][seat]}</td><td>{staked or ''}</td><td>{delta}</td>"
            f"<td>{escape(_seat_state(view, seat, t))}</td></tr>"
        )
    heads = "".join(f'<th scope="col">{escape(t(k))}</th>' for k in (
        "crown_anchor.player", "crown_anchor.chips", "crown_anchor.staked", "crown_anchor.last_roll", "crown_anchor.state"))
    notes = []
    if last and last["broken"]:
        notes.append(t("crown_anchor.bank_broke", name=names[last["banker"]]))
    if last and last["left"]:
        notes.append(t("crown_anchor.players_left", names=", ".join(names[s] for s in last["left"])))
    note = "".join(f'<p role="status">{escape(n)}</p>' for n in notes)
    fresh = " crown_anchor-fresh" if _fresh(view) else ""
    return (
        f'<div class="crown_anchor-seatbox{fresh}"><table class="crown_anchor-seats" data-testid="ca-seats">'
        f'<caption class="tb-visually-hidden">{escape(t("crown_anchor.players"))}</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>{note}</div>"
    )


def _history(view: dict, t) -> str:
    if not view["history"]:
        return ""
    items = "".join(
        "<li>" + "".join(glyph(d, t(f"crown_anchor.sym.{d}")) for d in dice) + "</li>"
        for dice in reversed(view["history"])
    )
    return (
        f'<section class="crown_anchor-history" data-testid="ca-history"><h3>{escape(t("crown_anchor.history"))}</h3>'
        f"<ol>{items}</ol></section>"
    )


def _percent(value, t) -> str:
    """A share (0..1) as a percentage to one decimal, in the language's own format."""
    whole, tenth = divmod(round(value * 1000), 10)
    return t("crown_anchor.percent", whole=whole, tenth=tenth)


def _fairness(view: dict, t) -> str:
    """House edge from the engine's exact expectation, and the dice seen so far."""
    edge = -Fraction(*view["expected"])
    payouts = " · ".join(f"{p}:1" for p in view["payouts"])
    lines = [
        t("crown_anchor.edge", pct=_percent(edge, t), frac=str(edge)) if edge else t("crown_anchor.fair"),
        t("crown_anchor.payouts", table=payouts),
        t("crown_anchor.expected_face"),
    ]
    dice = sum(view["tally"].values())
    rows = []
    for symbol in SYMBOLS:
        seen = view["tally"][symbol]
        share = Fraction(seen, dice) if dice else Fraction(0)
        rows.append(
            f'<tr><th scope="row">{glyph(symbol, t(f"crown_anchor.sym.{symbol}"))}</th><td>{seen}</td>'
            f"<td>{_percent(share, t)}</td>"
            f'<td><span class="crown_anchor-bar" style="width:{float(share) * 24:.2f}em"></span></td></tr>'
        )
    matches = view["matches"]
    checks = sum(matches)
    expected = (125, 75, 15, 1)
    match_rows = "".join(
        f"<tr><th scope=\"row\">{m}</th><td>{_percent(Fraction(matches[m], checks), t) if checks else '—'}</td>"
        f"<td>{_percent(Fraction(expected[m], 216), t)}</td></tr>"
        for m in range(4)
    )
    text = "".join(f"<p>{escape(line)}</p>" for line in lines)
    return (
        f'<details class="crown_anchor-fair" data-testid="ca-fairness"><summary>{escape(t("crown_anchor.fairness"))}</summary>'
        f"{text}<p>{escape(t('crown_anchor.rolls_seen', n=view['rolls'], dice=dice))}</p>"
        f'<table><caption>{escape(t("crown_anchor.faces"))}</caption>'
        f'<thead><tr><th scope="col">{escape(t("crown_anchor.symbol"))}</th><th scope="col">{escape(t("crown_anchor.count"))}</th>'
        f'<th scope="col">{escape(t("crown_anchor.share"))}</th><td></td></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        f'<table><caption>{escape(t("crown_anchor.matches"))}</caption>'
        f'<thead><tr><th scope="col">m</th><th scope="col">{escape(t("crown_anchor.observed"))}</th>'
        f'<th scope="col">{escape(t("crown_anchor.exact"))}</th></tr></thead><tbody>{match_rows}</tbody></table></details>'
    )


def render(view: dict, ui: dict, t) -> str:
    names = _names(view, t)
    return (
        f'<div class="crown_anchor"><style>{STYLE}</style>{_status(view, names, t)}{_dice(view, t)}'
        f"{_board(view, ui, names, t)}{_controls(view, ui, t)}{_seats(view, names, t)}"
        f"{_history(view, t)}{_fairness(view, t)}</div>"
    )
