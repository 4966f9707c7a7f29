"""Bozó's seat screen: cups, direction of play, bids, the picker, the reveal, points by round.

``render(view, ui, t)`` is pure: a seat's view (plus ``players`` added by the app) in, HTML
out. Face names are the Portuguese ones players call out (ás, duque, terno, quadra, quina,
sena) in every language; catalogs may add a gloss. UI state: ``count`` (the picker's
quantity) and ``odds`` (the odds helper shown). Every enabled bid button is a legal bid
(``legal_bids`` on the view, the engine's own rule).

Test hooks (``data-testid``): ``bid-count``, ``count-up``, ``count-down``, ``bid-face-<f>``,
``doubt``, ``keep``, ``look``, ``direction-left``, ``direction-right``, ``my-cup``,
``reveal``, ``points-table``, ``direction``, ``odds-toggle``, ``odds``.
"""

from html import escape

from ...core.bluffing import ACE, LEFT, next_in_play
from ...ui.dice import die_svg, hidden_die_svg
from ...ui.html import act_button, ui_button
from .odds import bid_chance
from .rules import legal_bids

STYLE = """
.bozo{display:grid;gap:.75rem;max-width:46rem;margin:0 auto}
.bozo p{margin:0}
.bozo .die-body{fill:#fffdf8;stroke:#8a7f6a;stroke-width:4}
.bozo .die-pip{fill:#2b2a28}
.bozo .die-wild .die-mark{fill:#b5553a}
.bozo .die-hit .die-body{fill:#f7dc6f;stroke:#b7950b}
.bozo .die-hidden .die-body{fill:#6e4b32;stroke:#4a3020}
.bozo .die-q{fill:#f7f1dc;font:700 56px sans-serif}
.bozo-head{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center;font-weight:600}
.bozo-dir{display:inline-flex;align-items:center;gap:.3rem;font-weight:400}
.bozo-dir svg{width:1.6rem;height:1.6rem;fill:none;stroke:currentColor;stroke-width:3}
.bozo-players{list-style:none;margin:0;padding:0;display:grid;gap:.35rem;
 grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr))}
.bozo-player{display:grid;grid-template-columns:1fr auto;align-content:start;gap:.1rem .4rem;padding:.35rem .5rem;
 border:1px solid #ddd3c2;border-radius:10px;background:#fbf7ee;font-size:.9rem}
.bozo-name{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.bozo-pts{font-weight:700;color:#7d5a10}
.bozo-cup{grid-column:1/-1;display:flex;gap:2px;align-items:center;min-height:18px}
.bozo-state{font-size:.8rem;color:#6b6458}
.bozo-turn{border-color:#b5553a;box-shadow:0 0 0 2px #b5553a inset}
.bozo-next .bozo-state{color:#1f4d3a;font-weight:600}
.bozo-out{opacity:.55}
.bozo-you .bozo-name::after{content:" ★"}
.bozo-mycup{padding:.5rem;border-radius:12px;background:var(--felt,#1f4d3a);color:#f7f1dc}
.bozo-mycup h3{margin:0 0 .3rem;font-size:1rem}
.bozo-dice{display:flex;gap:.4rem;flex-wrap:wrap;align-items:center}
.bozo-bids{margin:0;padding-left:1.4rem;max-height:12rem;overflow-y:auto}
.bozo-blind{font-size:.8rem;font-style:italic;color:#6b6458}
.bozo-actions{display:grid;gap:.5rem}
.bozo-stepper{display:flex;align-items:center;gap:.5rem}
.bozo-stepper output{min-width:2.5rem;text-align:center;font-size:1.4rem;font-weight:700}
.bozo-faces{display:grid;grid-template-columns:repeat(6,1fr);gap:.25rem}
.bozo button{font:inherit;min-height:2.75rem;min-width:2.75rem;border-radius:10px;
 border:1px solid #ddd3c2;background:#fffdf8;color:#2b2a28;cursor:pointer;touch-action:manipulation}
.bozo button:focus-visible{outline:3px solid var(--focus,#c9a23a);outline-offset:2px}
.bozo button[disabled]{opacity:.4;cursor:not-allowed}
.bozo-face{display:flex;flex-direction:column;align-items:center;padding:.2rem 0;font-size:.7rem}
.bozo-face svg{width:100%;max-width:2.4rem;height:auto}
.bozo-calls{display:flex;flex-wrap:wrap;gap:.5rem}
.bozo-call{font-weight:700;padding:0 1.2rem}
.bozo-doubt{background:#b5553a !important;color:#fff !important;border-color:#b5553a !important}
.bozo-ways{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}
.bozo-ways button{padding:.4rem;font-weight:600}
.bozo-reveal{padding:.5rem;border:1px solid #ddd3c2;border-radius:12px;background:#fbf7ee}
.bozo-reveal h3{margin:0 0 .3rem;font-size:1rem}
.bozo-revealed{list-style:none;margin:.4rem 0 0;padding:0;display:grid;gap:.2rem;
 grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr))}
.bozo-revealed li{display:flex;align-items:center;gap:.3rem;flex-wrap:wrap}
.bozo-won{font-weight:700;color:#1f4d3a}
.bozo-table{overflow-x:auto}
.bozo-table table{border-collapse:collapse;font-size:.85rem}
.bozo-table th,.bozo-table td{padding:.15rem .4rem;text-align:center;border-bottom:1px solid #ddd3c2}
.bozo-table th:first-child,.bozo-table td:first-child{text-align:left;white-space:nowrap}
.bozo-oddsbox{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
"""

# A circular arrow, drawn clockwise for play to the left and mirrored for the right.
_ARROW = (
    '<svg viewBox="0 0 32 32" aria-hidden="true"{flip}><path d="M16 5a11 11 0 1 1-10.4 7.4"/>'
    '<path d="M16 1v8l5-4z" fill="currentColor" stroke="none"/></svg>'
)


def face_name(t, face: int, count: int = 2) -> str:
    """The Portuguese name of a face: singular for one die, plural otherwise."""
    return t(f"bozo.face1.{face}" if count == 1 else f"bozo.face.{face}")


def bid_label(t, count: int, face: int) -> str:
    return t("bozo.bid", count=count, face=face_name(t, face, count))


def _die(t, face: int, highlight=False, size=40) -> str:
    return die_svg(face, label=t(f"bozo.die.{face}"), wild=face == ACE, highlight=highlight, size=size)


def _names(view: dict) -> list:
    return [p["name"] for p in view["players"]]


def _next_seat(view: dict):
    if view["result"] or sum(1 for n in view["counts"] if n) < 2:
        return None
    return next_in_play(view["counts"], view["turn"], view["direction"])


def _direction(view: dict, t) -> str:
    way = "left" if view["direction"] == LEFT else "right"
    flip = "" if way == "left" else ' style="transform:scaleX(-1)"'
    return (
        f'<span class="bozo-dir" data-testid="direction" data-way="{way}">'
        f'{_ARROW.format(flip=flip)}{escape(t(f"bozo.direction.{way}"))}</span>'
    )


def _header(view: dict, t) -> str:
    title = t("bozo.round_hand", round=view["round"], hand=view["hand"])
    return f'<div class="bozo-head"><span>{escape(title)}</span>{_direction(view, t)}</div>'


def _players(view: dict, t) -> str:
    names, items = _names(view), []
    upcoming = _next_seat(view)
    for seat, name in enumerate(names):
        count = view["counts"][seat]
        classes = ["bozo-player"]
        if seat in view["to_act"]:
            classes.append("bozo-turn")
        if seat == upcoming and seat not in view["to_act"]:
            classes.append("bozo-next")
        if count == 0:
            classes.append("bozo-out")
        if seat == view["you"]:
            classes.append("bozo-you")
        cup = "".join(hidden_die_svg(label=t("bozo.hidden_die"), size=18) for _ in range(count))
        if count == 0:
            state = t("bozo.out")
        elif seat == upcoming and seat not in view["to_act"]:
            state = t("bozo.speaks_next", n=count)
        else:
            state = t("bozo.dice_count", n=count)
        points = t("bozo.points_short", n=view["points"][seat])
        items.append(
            f'<li class="{" ".join(classes)}" data-seat="{seat}">'
            f'<span class="bozo-name">{escape(name)}</span><span class="bozo-pts">{escape(points)}</span>'
            f'<span class="bozo-cup" aria-hidden="true">{cup}</span>'
            f'<span class="bozo-state">{escape(state)}</span></li>'
        )
    return f'<ol class="bozo-players" aria-label="{escape(t("bozo.players"))}">{"".join(items)}</ol>'


def _my_cup(view: dict, t) -> str:
    seat = view["you"]
    if seat is None or view["result"]:
        return ""
    if view["dice"] is None:
        inner = f'<p>{escape(t("bozo.cup_closed"))}</p>'
        if seat == view["turn"]:
            inner += (
                '<div class="bozo-calls">'
                + act_button(escape(t("bozo.look")), {"type": "look"}, cls="bozo-call",
                             **{"data-testid": "look"})
                + f'</div><p class="bozo-blind">{escape(t("bozo.blind_hint"))}</p>'
            )
    else:
        inner = f'<div class="bozo-dice">{"".join(_die(t, d) for d in view["dice"])}</div>'
    return (
        f'<section class="bozo-mycup" data-testid="my-cup"><h3>{escape(t("bozo.your_dice"))}</h3>'
        f"{inner}</section>"
    )


def _bids(view: dict, t) -> str:
    names = _names(view)
    if not view["bids"]:
        return f'<p class="bozo-nobids">{escape(t("bozo.no_bids"))}</p>'
    rows = []
    for b in view["bids"]:
        blind = f' <span class="bozo-blind">{escape(t("bozo.blind_mark"))}</span>' if b.get("blind") else ""
        rows.append(f'<li><strong>{escape(names[b["seat"]])}</strong> '
                    f'{escape(bid_label(t, b["count"], b["face"]))}{blind}</li>')
    return (
        f'<ol class="bozo-bids" aria-label="{escape(t("bozo.bids"))}" aria-live="polite">'
        f'{"".join(rows)}</ol>'
    )


def counted(die: int, face: int, shown: bool) -> bool:
    """Whether a revealed die counted for a bid on ``face`` (``shown``: some die shows it)."""
    return die == face or (face != ACE and die == ACE and shown)


def _reveal(view: dict, t) -> str:
    last = view["last_hand"]
    if not last:
        return ""
    names = _names(view)
    bid = last["bids"][-1]
    face = bid["face"]
    shown = any(d == face for cup in last["dice"] for d in cup)
    cups = []
    for seat, cup in enumerate(last["dice"]):
        if cup:
            dice = "".join(_die(t, d, highlight=counted(d, face, shown), size=26) for d in cup)
            cups.append(f"<li><span>{escape(names[seat])}</span> {dice}</li>")
    lines = [
        t("bozo.doubted", caller=names[last["caller"]], bidder=names[bid["seat"]],
          bid=bid_label(t, bid["count"], face)),
        t("bozo.there_were", n=last["actual"], face=face_name(t, face, last["actual"])),
    ]
    if face != ACE:
        lines.append(t("bozo.aces_counted" if shown else "bozo.aces_not_counted", face1=face_name(t, face, 1)))
    lines.append(t("bozo.loses_die", name=names[last["loser"]]))
    if last["eliminated"] is not None:
        lines.append(t("bozo.eliminated", name=names[last["eliminated"]]))
    text = "".join(f"<p>{escape(line)}</p>" for line in lines)
    if last["round_winner"] is not None:
        won = t("bozo.round_winner", name=names[last["round_winner"]], n=last["round"])
        text += f'<p class="bozo-won">{escape(won)}</p>'
    title = t("bozo.reveal", round=last["round"], hand=last["hand"])
    return (
        f'<section class="bozo-reveal" data-testid="reveal" aria-live="polite">'
        f'<h3>{escape(title)}</h3>{text}<ul class="bozo-revealed">{"".join(cups)}</ul></section>'
    )


def _points_table(view: dict, t) -> str:
    names, winners = _names(view), view["round_winners"]
    rounds = len(winners) + (0 if view["result"] else 1)
    head = "".join(f'<th scope="col">{escape(t("bozo.round_col", n=r + 1))}</th>' for r in range(rounds))
    rows = []
    for seat, name in enumerate(names):
        cells = []
        for r in range(rounds):
            won = r < len(winners) and winners[r] == seat
            mark = f'<span aria-label="{escape(t("bozo.round_won", n=r + 1), quote=True)}">●</span>' if won else ""
            cells.append(f"<td>{mark}</td>")
        rows.append(f'<tr><th scope="row">{escape(name)}</th>{"".join(cells)}'
                    f'<td><strong>{view["points"][seat]}</strong></td></tr>')
    target = view["options"]
    goal = (t("bozo.goal_points", n=target["points_target"]) if target["game_end"] == "points"
            else t("bozo.goal_rounds", n=target["rounds"]))
    return (
        f'<section class="bozo-table" data-testid="points-table"><table>'
        f'<caption>{escape(t("bozo.points_table"))} · {escape(goal)}</caption>'
        f'<thead><tr><th scope="col">{escape(t("bozo.players"))}</th>{head}'
        f'<th scope="col">{escape(t("bozo.total"))}</th></tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table></section>'
    )


def _ways(view: dict, t) -> str:
    names, seat = _names(view), view["you"]
    buttons = []
    for way, step in (("left", 1), ("right", -1)):
        after = names[next_in_play(view["counts"], seat, step)]
        buttons.append(act_button(
            escape(t(f"bozo.way.{way}", name=after)), {"type": "direction", "way": way},
            cls="bozo-way", **{"data-testid": f"direction-{way}"}))
    return (
        f'<p role="status">{escape(t("bozo.choose_direction"))}</p>'
        f'<div class="bozo-ways" role="group" aria-label="{escape(t("bozo.direction"))}">{"".join(buttons)}</div>'
    )


def _picker(view: dict, ui: dict, t) -> str:
    legal = legal_bids(view, view["you"])
    if not legal:
        return ""
    counts = sorted({c for c, _ in legal})
    low, high = counts[0], counts[-1]
    count = ui.get("count", low)
    count = min(max(count if type(count) is int else low, low), high)
    stepper = (
        ui_button("−", {"count": count - 1}, cls="bozo-step", disabled=count <= low,
                  **{"aria-label": t("bozo.fewer"), "data-testid": "count-down"})
        + f'<output data-testid="bid-count" aria-live="polite">{count}</output>'
        + ui_button("+", {"count": count + 1}, cls="bozo-step", disabled=count >= high,
                    **{"aria-label": t("bozo.more"), "data-testid": "count-up"})
    )
    faces = []
    for face in range(1, 7):
        label = bid_label(t, count, face)
        inner = _die(t, face, size=34) + f"<span>{escape(face_name(t, face, count))}</span>"
        if ui.get("odds"):
            inner += f"<small>{round(100 * bid_chance(view, count, face))}%</small>"
        if (count, face) in legal:
            faces.append(act_button(inner, {"type": "bid", "count": count, "face": face}, cls="bozo-face",
                                    **{"aria-label": label, "data-testid": f"bid-face-{face}"}))
        else:
            faces.append(f'<button type="button" class="bozo-face" disabled '
                         f'aria-label="{escape(label, quote=True)}">{inner}</button>')
    return (
        f'<div class="bozo-picker" role="group" aria-label="{escape(t("bozo.your_bid"))}">'
        f'<div class="bozo-stepper">{stepper}</div><div class="bozo-faces">{"".join(faces)}</div></div>'
    )


def _actions(view: dict, ui: dict, t) -> str:
    seat, names = view["you"], _names(view)
    if seat == view["turn"] and view["choosing"]:
        return f'<section class="bozo-actions">{_ways(view, t)}</section>'
    calls = []
    if seat == view["turn"]:
        key = "bozo.your_turn" if view["bids"] else "bozo.your_open"
        parts = [f'<p role="status">{escape(t(key))}</p>', _picker(view, ui, t)]
        if view["bids"]:
            calls.append(act_button(escape(t("bozo.doubt")), {"type": "doubt"}, cls="bozo-call bozo-doubt",
                                    **{"data-testid": "doubt"}))
    else:
        parts = [f'<p role="status">{escape(t("bozo.raise_own", name=names[view["turn"]]))}</p>',
                 _picker(view, ui, t)]
        calls.append(act_button(escape(t("bozo.keep")), {"type": "keep"}, cls="bozo-call",
                                **{"data-testid": "keep"}))
    parts.append(f'<div class="bozo-calls">{"".join(calls)}</div>')
    return f'<section class="bozo-actions" aria-label="{escape(t("bozo.your_bid"))}">{"".join(parts)}</section>'


def _odds(view: dict, ui: dict, t) -> str:
    if view["you"] is None or view["result"]:
        return ""
    shown = bool(ui.get("odds"))
    toggle = ui_button(escape(t("bozo.odds_hide" if shown else "bozo.odds_show")), {"odds": not shown},
                       cls="bozo-odds-toggle",
                       **{"aria-pressed": "true" if shown else "false", "data-testid": "odds-toggle"})
    text = ""
    if shown and view["bids"]:
        last = view["bids"][-1]
        pct = round(100 * bid_chance(view, last["count"], last["face"]))
        text = (f'<p data-testid="odds">'
                f'{escape(t("bozo.odds_text", bid=bid_label(t, last["count"], last["face"]), pct=pct))}</p>')
    return f'<div class="bozo-oddsbox">{toggle}{text}</div>'


def _status(view: dict, t) -> str:
    if view["result"] or view["you"] in view["to_act"]:
        return ""
    names = _names(view)
    key = "bozo.waiting_direction" if view["choosing"] else "bozo.waiting"
    return f'<p class="bozo-waiting" role="status">{escape(t(key, name=names[view["turn"]]))}</p>'


def render(view: dict, ui: dict, t) -> str:
    mine = _actions(view, ui, t) if view["you"] in view["to_act"] else ""
    return (
        f'<div class="bozo"><style>{STYLE}</style>{_header(view, t)}{_players(view, t)}'
        f'{_reveal(view, t)}{_my_cup(view, t)}{_bids(view, t)}{_status(view, t)}{mine}'
        f'{_odds(view, ui, t)}{_points_table(view, t)}</div>'
    )
