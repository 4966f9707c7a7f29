"""Perudo's seat screen: cups, bids, the bid picker, the reveal and the odds helper.

``render(view, ui, t)`` is pure: a seat's view (plus ``players`` added by the app) in,
built ``Markup`` out, so no view value can become markup. UI state: ``count`` (the
picker's quantity), ``odds`` (helper shown), ``history`` (the earlier rounds shown) and
``skip`` (a knocked-out player lets the bots finish without pauses).

Phone first: opponents are compact strips, and everything the seat acts with (its dice,
whose turn it is, the picker and the calls) sits in one ``tb-dock`` that the stylesheet keeps
in the thumb zone at the bottom of a phone and beside the table on a wide screen.
Out of turn (``calza_by`` ``anyone``, the seat in the view's ``may_act``) the dock shows the
bid that stands and a Calza button naming it. The shell shows a seat's screen only to the
player holding the device, so nobody is offered another's Calza, or sees another's cup.

The bid history (``history``, the last rounds the engine keeps) folds behind a toggle in the
dock beside the odds helper; opened, its rounds read newest first in a short scrolling list
(one line of bids and one of the outcome each, ``ui.dice.cup_history``), so the dock grows
but keeps every control in view on a phone. Its toggle says how many rounds it holds, and
out of how many once the engine has let the oldest go.

Test hooks: ``data-testid`` on the picker (``bid-count``, ``count-up``/``count-down``,
``bid-face-<f>``), ``dudo``, ``calza``, ``my-cup``, ``reveal``, ``odds-toggle``, ``skip``, ``dock``,
``history-toggle``, ``history``.
"""

from ...ui.bid_picker import bid_picker
from ...ui.dice import cup_helpers, cup_history, cup_history_line, cup_mine_dice, cup_players, die_svg, hidden_die_svg
from ...ui.html import act_button, ui_button
from ...ui.markup import EMPTY, Markup, fragment, h
from .odds import bid_chance
from .rules import START_DICE, Perudo, legal_bids

PERSISTENT_UI = ("odds", "skip", "history")
# The reveal stays readable before the next bot speaks.
PAUSE_AFTER_MS = {"dudo": 2600, "calza": 2600}


def _face_name(t, face: int, count: int = 2) -> str:
    """A face's name, singular or plural as ``count`` dice of it need."""
    return t(f"perudo.face.{face}", count=count)


def _bid_label(t, count: int, face: int) -> str:
    return t("perudo.bid", count=count, face=_face_name(t, face, count))


def _die(t, face: int, aces_wild: bool, highlight=False, size=40) -> Markup:
    return die_svg(
        face,
        label=t(f"perudo.die.{face}"),
        wild=face == 1 and aces_wild,
        highlight=highlight,
        size=size,
    )


def _open_cups(view: dict, t) -> dict:
    """The cups this seat may see: its own while playing, every cup shown at the last call
    once the game is over (the engine has emptied the cups by then)."""
    if view["result"]:
        last = view["last_round"]
        if not last:
            return {}
        wild = last["aces_wild"]
        return {seat: [_die(t, d, wild, size=18) for d in cup] for seat, cup in enumerate(last["dice"]) if cup}
    if view["you"] is None or not view["dice"]:
        return {}
    return {view["you"]: [_die(t, d, not view["palifico"], size=18) for d in view["dice"]]}


def _players(view: dict, t) -> Markup:
    lost = view["options"]["lost_dice_visible"]

    def state(seat, count, flags):
        words = t("perudo.out") if count == 0 else t("perudo.dice_count", count=count)
        if not lost or count == START_DICE:
            return words
        gone = hidden_die_svg(label=t("perudo.lost_die"), size=14)
        return fragment(words, " ", h("span", {"class": "perudo-lost"}, [gone] * (START_DICE - count)))

    return cup_players(t, "perudo", view, state, open_cups=_open_cups(view, t))


def _my_cup(view: dict, t) -> Markup:
    if view["you"] is None or view["result"] or not view["dice"]:
        return EMPTY
    aces_wild = not view["palifico"]
    return h(
        "div", {"class": "cup-mine", "data-testid": "my-cup"},
        h("h2", None, t("perudo.your_dice")),
        cup_mine_dice(f"{view['round']}", view["dice"], (_die(t, d, aces_wild, size=36) for d in view["dice"])),
    )


def _bid_list(view: dict, bids: list, t, label: str) -> Markup:
    names = [p["name"] for p in view["players"]]
    return h(
        "ol", {"class": "cup-bids", "aria-label": label, "tabindex": 0},  # scrolls when long
        (h("li", None, h("span", {"class": "perudo-bidder"}, names[b["seat"]]), " ",
           _bid_label(t, b["count"], b["face"]))
         for b in bids),
    )


def _bids(view: dict, t) -> Markup:
    if view["result"]:
        return EMPTY
    if not view["bids"]:
        return h("p", {"class": "cup-nobids"}, t("perudo.no_bids"))
    return _bid_list(view, view["bids"], t, t("perudo.bids"))


def _reveal(view: dict, t) -> Markup:
    last = view["last_round"]
    if not last:
        return EMPTY
    names = [p["name"] for p in view["players"]]
    bid = last["bids"][-1]
    face, wild = bid["face"], last["aces_wild"]
    cups = [
        h("li", None, h("span", None, names[seat]), " ",
          (_die(t, d, wild, highlight=d == face or (wild and d == 1 and face != 1), size=26) for d in cup))
        for seat, cup in enumerate(last["dice"])
        if cup
    ]
    lines = _outcome(names, last, t)
    earlier = t("perudo.round_bids", n=last["round"])
    return h(
        "section", {"class": "cup-reveal", "data-testid": "reveal", "data-news": f"reveal-{last['round']}"},
        h("h2", None, t("perudo.reveal", n=last["round"])),
        h("div", {"data-announce": True}, (h("p", None, line) for line in lines)),
        h("ul", {"class": "cup-revealed"}, cups),
        h("details", {"class": "perudo-earlier", "data-testid": "round-bids"},
          h("summary", None, earlier), _bid_list(view, last["bids"], t, earlier)),
    )


def _prompt(view: dict, t) -> str:
    """What the seat on turn is to do: open the bidding, or raise or call the bid."""
    return t("perudo.your_turn" if view["bids"] else "perudo.your_open")


def _picker(view: dict, ui: dict, t) -> Markup:
    picker = bid_picker(
        view,
        legal_bids(view, view["you"]),
        ui,
        labels={"fewer": t("perudo.fewer"), "more": t("perudo.more"), "your_bid": t("perudo.your_bid")},
        face_inner=lambda count, face: _die(t, face, not view["palifico"], size=34),
        bid_label=lambda count, face: _bid_label(t, count, face),
        chance=(lambda count, face: bid_chance(view, count, face)) if ui.get("odds") else None,
    )
    calls = []
    if view["bids"]:
        calls.append(act_button(t("perudo.dudo"), {"type": "dudo"}, cls="perudo-call", **{"data-testid": "dudo"}))
    if view["calza_allowed"] and view["bids"]:
        calls.append(_calza_button(view, t))
    return h(
        "section", {"class": "perudo-actions", "aria-label": _prompt(view, t)},
        picker,
        h("div", {"class": "perudo-calls"}, calls) if calls else None,
    )


def _calza_button(view: dict, t) -> Markup:
    return act_button(t("perudo.calza"), Perudo.calza_action(view), cls="perudo-call", **{"data-testid": "calza"})


def _bid_to_beat(view: dict, t, key="perudo.to_beat") -> Markup:
    """The standing bid: the one to beat on the seat's turn (``key`` words it otherwise)."""
    if not view["bids"]:
        return EMPTY
    last = view["bids"][-1]
    return h("p", {"class": "cup-current", "data-testid": "bid-to-beat"},
             t(key, name=view["players"][last["seat"]]["name"], bid=_bid_label(t, last["count"], last["face"])))


def _out_of_turn(view: dict, t) -> Markup:
    """A seat that may call Calza while another is to speak: the standing bid and the call."""
    return h(
        "div", {"class": "perudo-actions"},
        h("p", {"class": "perudo-calza-hint"}, t("perudo.calza_anyone")),
        h("div", {"class": "perudo-calls"}, _calza_button(view, t)),
    )


def _outcome(names: list, record: dict, t) -> list:
    """What a settled round came to, in sentences: the call, the count, the die lost or won."""
    bid = record["bids"][-1]
    face = bid["face"]
    lines = [
        t(f"perudo.called_{record['call']}", caller=names[record["caller"]], bidder=names[bid["seat"]],
          bid=_bid_label(t, bid["count"], face)),
        t("perudo.there_were", count=record["actual"], face=_face_name(t, face, record["actual"])),
        t("perudo.loses_die", name=names[record["loser"]]) if record["loser"] is not None
        else t("perudo.gains_die", name=names[record["gainer"]]),
    ]
    if record["eliminated"] is not None:
        lines.append(t("perudo.eliminated", name=names[record["eliminated"]]))
    return lines


def _history(view: dict, ui: dict, t) -> tuple:
    """The earlier rounds behind a toggle that says how many it holds: all of them, or the
    last ones the engine keeps out of how many were played."""
    history = view.get("history") or []
    names = [p["name"] for p in view["players"]]

    def line(record):
        bids = [(names[b["seat"]], _bid_label(t, b["count"], b["face"])) for b in record["bids"]]
        return cup_history_line(t("perudo.round", n=record["round"]), bids, _outcome(names, record, t))

    played = history[-1]["round"] if history else 0
    label = (t("perudo.history_toggle", count=len(history)) if len(history) >= played
             else t("perudo.history_recent", count=len(history), total=played))
    return cup_history(t, "perudo", history, bool(ui.get("history")), label, line)


def _odds(view: dict, ui: dict, t) -> tuple:
    """The odds helper: a toggle and, when on, the chance of the bid to beat."""
    if view["you"] is None or view["result"]:
        return None, None
    shown = bool(ui.get("odds"))
    toggle = ui_button(t("perudo.odds_hide" if shown else "perudo.odds_show"),
                       {"odds": not shown}, cls="perudo-odds-toggle",
                       **{"aria-pressed": "true" if shown else "false", "data-testid": "odds-toggle"})
    text = None
    if shown and view["bids"]:
        last = view["bids"][-1]
        chance = bid_chance(view, last["count"], last["face"])
        text = h("p", {"class": "cup-odds", "data-testid": "odds"},
                 t("perudo.odds_text", bid=_bid_label(t, last["count"], last["face"]), pct=round(100 * chance)))
    return toggle, text


def _turn(view: dict, ui: dict, t) -> Markup:
    """Whose turn it is, with the picker and the calls when it is this seat's."""
    if view["result"]:
        return EMPTY
    if view["you"] in view["to_act"]:
        return fragment(h("p", {"class": "cup-yourturn", "data-announce": True}, _prompt(view, t)),
                        _bid_to_beat(view, t), _picker(view, ui, t))
    name = view["players"][view["turn"]]["name"]
    waiting = h("p", {"class": "cup-waiting", "data-announce": True}, t("perudo.waiting", name=name))
    if view["you"] in view.get("may_act", ()) and view["bids"]:
        return fragment(waiting, _bid_to_beat(view, t, "perudo.standing_bid"), _out_of_turn(view, t))
    if view["you"] is not None and view["counts"][view["you"]] == 0 and not ui.get("skip"):
        return fragment(waiting, ui_button(t("perudo.skip"), {"skip": True}, cls="perudo-skip",
                                           **{"data-testid": "skip"}))
    return waiting


def _palifico(view: dict, t):
    """Who plays the palifico round: the player who has just dropped to one die (the last
    round's loser; else the only player on one die)."""
    if not view["palifico"] or view["result"]:
        return None
    last = view["last_round"]
    on_one = [seat for seat, count in enumerate(view["counts"]) if count == 1]
    seat = last["loser"] if last and last["loser"] in on_one else (on_one[0] if len(on_one) == 1 else None)
    if seat is None:
        return None
    return h("p", {"class": "perudo-palifico"}, t("perudo.palifico", name=view["players"][seat]["name"]))


def render(view: dict, ui: dict, t) -> Markup:
    return h(
        "div", {"class": ["perudo", "cup-table"]},
        h("p", {"class": "perudo-round"}, t("perudo.round", n=view["round"])),
        _palifico(view, t),
        _players(view, t),
        _reveal(view, t),
        _bids(view, t),
        h("section", {"class": "perudo-dock tb-dock", "data-testid": "dock", "aria-label": t("perudo.your_dice")},
          _my_cup(view, t), _turn(view, ui, t), cup_helpers(_odds(view, ui, t), _history(view, ui, t))),
    )
