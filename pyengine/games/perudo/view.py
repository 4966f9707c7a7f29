"""Perudo's seat screen: cups, bids, the bid picker, the reveal and the odds helper.

``render(view, ui, t)`` is pure: a seat's view (plus ``players`` added by the app) in,
HTML out. UI state: ``count`` (the picker's quantity) and ``odds`` (helper shown).
Test hooks: ``data-testid`` on the picker (``bid-count``, ``count-up``/``count-down``,
``bid-face-<f>``), ``dudo``, ``calza``, ``my-cup``, ``reveal``, ``odds-toggle``.
"""

from html import escape

from ...ui.bid_picker import bid_picker
from ...ui.dice import cup_players, die_svg
from ...ui.html import act_button, ui_button
from .odds import bid_chance
from .rules import legal_bids

PERSISTENT_UI = ("odds",)
# The reveal stays readable before the next bot speaks.
PAUSE_AFTER_MS = {"dudo": 2600, "calza": 2600}


def _face_name(t, face: int) -> str:
    return t(f"perudo.face.{face}")


def _bid_label(t, count: int, face: int) -> str:
    return t("perudo.bid", count=count, face=_face_name(t, face))


def _die(t, face: int, aces_wild: bool, highlight=False, size=40) -> str:
    return die_svg(
        face,
        label=t(f"perudo.die.{face}"),
        wild=face == 1 and aces_wild,
        highlight=highlight,
        size=size,
    )


def _players(view: dict, t) -> str:
    return cup_players(
        t, "perudo", view, lambda seat, count, flags: t("perudo.out") if count == 0 else t("perudo.dice_count", n=count)
    )


def _my_cup(view: dict, t) -> str:
    if view["you"] is None:
        return ""
    aces_wild = not view["palifico"]
    dice = "".join(_die(t, d, aces_wild) for d in view["dice"])
    return (
        f'<div class="perudo-mycup" data-testid="my-cup"><h3>{escape(t("perudo.your_dice"))}</h3>'
        f'<div class="perudo-dice">{dice}</div></div>'
    )


def _bids(view: dict, t) -> str:
    names = [p["name"] for p in view["players"]]
    if not view["bids"]:
        return f'<p class="perudo-nobids">{escape(t("perudo.no_bids"))}</p>'
    rows = "".join(
        f'<li><span class="perudo-bidder">{escape(names[b["seat"]])}</span> '
        f'{escape(_bid_label(t, b["count"], b["face"]))}</li>'
        for b in view["bids"]
    )
    return (
        f'<ol class="perudo-bids" aria-label="{escape(t("perudo.bids"))}" aria-live="polite">'
        f"{rows}</ol>"
    )


def _reveal(view: dict, t) -> str:
    last = view["last_round"]
    if not last:
        return ""
    names = [p["name"] for p in view["players"]]
    bid = last["bids"][-1]
    face, wild = bid["face"], last["aces_wild"]
    cups = []
    for seat, cup in enumerate(last["dice"]):
        if not cup:
            continue
        dice = "".join(
            _die(t, d, wild, highlight=d == face or (wild and d == 1 and face != 1), size=26)
            for d in cup
        )
        cups.append(f'<li><span>{escape(names[seat])}</span> {dice}</li>')
    call = t(
        f"perudo.called_{last['call']}",
        caller=names[last["caller"]],
        bidder=names[bid["seat"]],
        bid=_bid_label(t, bid["count"], face),
    )
    found = t("perudo.there_were", n=last["actual"], face=_face_name(t, face))
    if last["loser"] is not None:
        outcome = t("perudo.loses_die", name=names[last["loser"]])
    else:
        outcome = t("perudo.gains_die", name=names[last["gainer"]])
    lines = [call, found, outcome]
    if last["eliminated"] is not None:
        lines.append(t("perudo.eliminated", name=names[last["eliminated"]]))
    text = "".join(f"<p>{escape(line)}</p>" for line in lines)
    return (
        f'<section class="perudo-reveal" data-testid="reveal" aria-live="polite">'
        f'<h3>{escape(t("perudo.reveal", n=last["round"]))}</h3>{text}'
        f'<ul class="perudo-revealed">{"".join(cups)}</ul></section>'
    )


def _picker(view: dict, ui: dict, t) -> str:
    picker = bid_picker(
        legal_bids(view, view["you"]),
        ui,
        prefix="perudo",
        labels={"fewer": t("perudo.fewer"), "more": t("perudo.more"), "your_bid": t("perudo.your_bid")},
        face_inner=lambda count, face: _die(t, face, not view["palifico"], size=34),
        bid_label=lambda count, face: _bid_label(t, count, face),
        chance=(lambda count, face: bid_chance(view, count, face)) if ui.get("odds") else None,
    )
    parts = [picker] if picker else []
    calls = []
    if view["bids"]:
        calls.append(act_button(escape(t("perudo.dudo")), {"type": "dudo"}, cls="perudo-call",
                                **{"data-testid": "dudo"}))
    if view["calza_allowed"]:
        calls.append(act_button(escape(t("perudo.calza")), {"type": "calza"}, cls="perudo-call",
                                **{"data-testid": "calza"}))
    if calls:
        parts.append(f'<div class="perudo-calls">{"".join(calls)}</div>')
    return f'<section class="perudo-actions" aria-label="{escape(t("perudo.your_turn"))}">{"".join(parts)}</section>'


def _odds(view: dict, ui: dict, t) -> str:
    if view["you"] is None or view["result"]:
        return ""
    shown = bool(ui.get("odds"))
    toggle = ui_button(escape(t("perudo.odds_hide" if shown else "perudo.odds_show")),
                       {"odds": not shown}, cls="perudo-odds-toggle",
                       **{"aria-pressed": "true" if shown else "false", "data-testid": "odds-toggle"})
    text = ""
    if shown and view["bids"]:
        last = view["bids"][-1]
        chance = bid_chance(view, last["count"], last["face"])
        text = f'<p class="perudo-odds" data-testid="odds">{escape(t("perudo.odds_text", bid=_bid_label(t, last["count"], last["face"]), pct=round(100 * chance)))}</p>'
    return f'<div class="perudo-oddsbox">{toggle}{text}</div>'


def render(view: dict, ui: dict, t) -> str:
    names = [p["name"] for p in view["players"]]
    header = f'<p class="perudo-round">{escape(t("perudo.round", n=view["round"]))}</p>'
    if view["palifico"] and not view["result"]:
        header += f'<p class="perudo-palifico" role="status">{escape(t("perudo.palifico", name=names[view["turn"]]))}</p>'
    if view["result"]:
        turn = ""
    elif view["you"] in view["to_act"]:
        turn = f'<p class="perudo-yourturn" role="status">{escape(t("perudo.your_turn"))}</p>' + _picker(view, ui, t)
    else:
        turn = f'<p class="perudo-waiting" role="status">{escape(t("perudo.waiting", name=names[view["turn"]]))}</p>'
    return (
        f'<div class="perudo">{header}{_players(view, t)}{_reveal(view, t)}{_my_cup(view, t)}'
        f'{_bids(view, t)}{_odds(view, ui, t)}{turn}</div>'
    )
