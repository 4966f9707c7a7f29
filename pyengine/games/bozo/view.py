"""Bozó's seat screen: cups, direction of play, bids, the picker, the reveal, points by round.

``render(view, ui, t)`` is pure: a seat's view (plus ``players`` added by the app) in, HTML
out; its styles are in ``view.css`` (the build appends them to the site's stylesheet).
Face names are the Portuguese ones players call out (ás, duque, terno, quadra, quina,
sena) in every language; catalogs may add a gloss. UI state: ``count`` (the picker's
quantity) and ``odds`` (the odds helper shown). Every enabled bid button is a legal bid
(``legal_bids`` on the view, the engine's own rule).

Test hooks (``data-testid``): ``bid-count``, ``count-up``, ``count-down``, ``bid-face-<f>``,
``doubt``, ``keep``, ``look``, ``direction-left``, ``direction-right``, ``my-cup``,
``reveal``, ``points-table``, ``direction``, ``odds-toggle``, ``odds``.
"""

from html import escape

from ...core.bluffing import ACE, LEFT, next_in_play
from ...ui.bid_picker import bid_picker
from ...ui.dice import cup_players, die_svg
from ...ui.html import act_button, ui_button
from .odds import bid_chance
from .rules import legal_bids

PERSISTENT_UI = ("odds",)  # the odds helper stays open from one bid to the next
PAUSE_AFTER_MS = {"doubt": 2600}  # time to read the reveal before the next bot speaks

# A circular arrow, clockwise for play to the left; view.css mirrors it for the right.
_ARROW = (
    '<svg viewBox="0 0 32 32" aria-hidden="true"><path d="M16 5a11 11 0 1 1-10.4 7.4"/>'
    '<path d="M16 1v8l5-4z" stroke="none"/></svg>'
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
    return (
        f'<span class="bozo-dir" data-testid="direction" data-way="{way}">'
        f'{_ARROW}{escape(t(f"bozo.direction.{way}"))}</span>'
    )


def _header(view: dict, t) -> str:
    title = t("bozo.round_hand", round=view["round"], hand=view["hand"])
    return f'<div class="bozo-head"><span>{escape(title)}</span>{_direction(view, t)}</div>'


def _players(view: dict, t) -> str:
    def state(seat, count, flags):
        if count == 0:
            return t("bozo.out")
        return t("bozo.speaks_next" if flags["next"] else "bozo.dice_count", n=count)

    def points(seat):
        return f'<span class="bozo-pts">{escape(t("bozo.points_short", n=view["points"][seat]))}</span>'

    return cup_players(t, "bozo", view, state, badge=points, upcoming=_next_seat(view))


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
            mark = f'<span role="img" aria-label="{escape(t("bozo.round_won", n=r + 1), quote=True)}">●</span>' if won else ""
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
    return bid_picker(
        legal_bids(view, view["you"]),
        ui,
        prefix="bozo",
        labels={"fewer": t("bozo.fewer"), "more": t("bozo.more"), "your_bid": t("bozo.your_bid")},
        face_inner=lambda count, face: _die(t, face, size=34)
        + f"<span>{escape(face_name(t, face, count))}</span>",
        bid_label=lambda count, face: bid_label(t, count, face),
        chance=(lambda count, face: bid_chance(view, count, face)) if ui.get("odds") else None,
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
    return f'<p class="bozo-waiting" role="status">{escape(t(key, name=names[view["to_act"][0]]))}</p>'


def render(view: dict, ui: dict, t) -> str:
    mine = _actions(view, ui, t) if view["you"] in view["to_act"] else ""
    return (
        f'<div class="bozo">{_header(view, t)}{_players(view, t)}'
        f'{_reveal(view, t)}{_my_cup(view, t)}{_bids(view, t)}{_status(view, t)}{mine}'
        f'{_odds(view, ui, t)}{_points_table(view, t)}</div>'
    )
