"""Bozó's seat screen: cups, direction of play, bids, the picker, the reveal, points by round.

``render(view, ui, t)`` is pure: a seat's view (plus ``players`` added by the app) in, built
``Markup`` out, so no view value can become markup; its styles are in ``view.css`` (the build appends them to the site's stylesheet).
Face names are the Portuguese ones players call out (ás, duque, terno, quadra, quina,
sena) in every language; catalogs may add a gloss. The ás is a plain one-pip face: it is
no wild paco (it counts only beside a die showing the face bid). UI state: ``count`` (the
picker's quantity), ``odds`` (the odds helper shown) and ``history`` (the hands settled
earlier shown, newest first, ``ui.dice.cup_history``). Every enabled bid button is a legal bid
(``legal_bids`` on the view, the engine's own rule).

Test hooks (``data-testid``): ``bid-count``, ``count-up``, ``count-down``, ``bid-face-<f>``,
``doubt``, ``keep``, ``look``, ``direction-left``, ``direction-right``, ``my-cup``,
``reveal``, ``points-table``, ``direction``, ``odds-toggle``, ``odds``, ``dock``,
``history-toggle``, ``history``.

Phone first: players are compact strips, and everything the seat acts with (its dice, the
bid to beat, the picker and the calls) sits in one ``tb-dock``, kept by the stylesheet in
the thumb zone of a phone and beside the table on a wide screen.
"""

from ...kits.bluffing import ACE, LEFT, next_in_play
from ...ui.bid_picker import bid_picker
from ...ui.dice import cup_helpers, cup_history, cup_history_line, cup_mine_dice, cup_players, die_svg
from ...ui.html import act_button, ui_button
from ...ui.markup import EMPTY, Markup, fragment, h
from .odds import bid_chance
from .rules import legal_bids

PERSISTENT_UI = ("odds", "history")  # the helpers stay open from one bid to the next
PAUSE_AFTER_MS = {"doubt": 2600}  # time to read the reveal before the next bot speaks
# Beyond this many players the strips turn compact (three to a 360 px row, smaller words),
# so most of a 20-seat table shows above the dock on a phone.
CROWD = 10

# A circular arrow, clockwise for play to the left; view.css mirrors it for the right.
_ARROW = h(
    "svg", {"viewBox": "0 0 32 32", "aria-hidden": "true"},
    h("path", {"d": "M16 5a11 11 0 1 1-10.4 7.4"}),
    h("path", {"d": "M16 1v8l5-4z", "stroke": "none"}),
)


def face_name(t, face: int, count: int = 2) -> str:
    """The Portuguese name of a face: singular for one die, plural otherwise."""
    return t(f"bozo.face1.{face}" if count == 1 else f"bozo.face.{face}")


def bid_label(t, count: int, face: int) -> str:
    return t("bozo.bid", count=count, face=face_name(t, face, count))


def _die(t, face: int, highlight=False, size=40) -> Markup:
    return die_svg(face, label=t(f"bozo.die.{face}"), highlight=highlight, size=size)


def _names(view: dict) -> list:
    return [p["name"] for p in view["players"]]


def _next_seat(view: dict):
    """Who speaks after the seat on turn; nobody yet while the starter chooses the way."""
    if view["result"] or view["choosing"] or sum(1 for n in view["counts"] if n) < 2:
        return None
    return next_in_play(view["counts"], view["turn"], view["direction"])


def _direction(view: dict, t) -> Markup:
    way = "left" if view["direction"] == LEFT else "right"
    return h("span", {"class": "bozo-dir", "data-testid": "direction", "data-way": way},
             _ARROW, t(f"bozo.direction.{way}"))


def _header(view: dict, t) -> Markup:
    title = t("bozo.round_hand", round=view["round"], hand=view["hand"])
    return h("div", {"class": "bozo-head"}, h("span", None, title), _direction(view, t))


def _players(view: dict, t) -> Markup:
    def state(seat, count, flags):
        if count == 0:
            return t("bozo.out")
        return t("bozo.speaks_next" if flags["next"] else "bozo.dice_count", n=count)

    def points(seat):
        return h("span", {"class": "bozo-pts"}, t("bozo.points_short", n=view["points"][seat]))

    open_cups = {}
    if view["you"] is not None and view["dice"] and not view["result"]:
        open_cups[view["you"]] = [_die(t, d, size=18) for d in view["dice"]]
    return cup_players(t, "bozo", view, state, badge=points, upcoming=_next_seat(view), open_cups=open_cups)


def _my_cup(view: dict, t) -> Markup:
    seat = view["you"]
    if seat is None or view["result"]:
        return EMPTY
    if view["dice"] is not None:
        inner = cup_mine_dice(f"{view['round']}-{view['hand']}", view["dice"], (_die(t, d) for d in view["dice"]))
    elif seat == view["turn"]:
        inner = [
            h("p", None, t("bozo.cup_closed")),
            h("div", {"class": "bozo-calls"},
              act_button(t("bozo.look"), {"type": "look"}, cls="bozo-call", **{"data-testid": "look"})),
            h("p", {"class": "bozo-blind"}, t("bozo.blind_hint")),
        ]
    else:
        inner = h("p", None, t("bozo.cup_closed"))
    return h("section", {"class": "cup-mine", "data-testid": "my-cup"}, h("h2", None, t("bozo.your_dice")), inner)


def _bids(view: dict, t) -> Markup:
    names = _names(view)
    if not view["bids"]:
        return h("p", {"class": "cup-nobids"}, t("bozo.no_bids"))
    rows = []
    for b in view["bids"]:
        blind = [" ", h("span", {"class": "bozo-blind"}, t("bozo.blind_mark"))] if b.get("blind") else None
        rows.append(h("li", None, h("strong", None, names[b["seat"]]), " ", bid_label(t, b["count"], b["face"]), blind))
    # Scrolls when long: focusable, so a keyboard can scroll it too.
    return h("ol", {"class": "cup-bids", "aria-label": t("bozo.bids"), "tabindex": 0}, rows)


def counted(die: int, face: int, shown: bool) -> bool:
    """Whether a revealed die counted for a bid on ``face`` (``shown``: some die shows it)."""
    return die == face or (face != ACE and die == ACE and shown)


def _outcome(names: list, record: dict, shown, t) -> list:
    """What a settled hand came to, in sentences (``shown``: some die showed the face bid, so
    the aces counted; ``None`` leaves the aces unmentioned, as the history has no cups)."""
    bid = record["bids"][-1]
    face = bid["face"]
    lines = [
        t("bozo.doubted", caller=names[record["caller"]], bidder=names[bid["seat"]],
          bid=bid_label(t, bid["count"], face)),
        t("bozo.there_were", count=record["actual"], face=face_name(t, face, record["actual"])),
    ]
    if face != ACE and shown is not None:
        lines.append(t("bozo.aces_counted" if shown else "bozo.aces_not_counted", face1=face_name(t, face, 1)))
    lines.append(t("bozo.loses_die", name=names[record["loser"]]))
    if record["eliminated"] is not None:
        lines.append(t("bozo.eliminated", name=names[record["eliminated"]]))
    return lines


def _reveal(view: dict, t) -> Markup:
    last = view["last_hand"]
    if not last:
        return EMPTY
    names = _names(view)
    bid = last["bids"][-1]
    face = bid["face"]
    shown = any(d == face for cup in last["dice"] for d in cup)
    cups = [
        h("li", None, h("span", None, names[seat]), " ",
          (_die(t, d, highlight=counted(d, face, shown), size=26) for d in cup))
        for seat, cup in enumerate(last["dice"])
        if cup
    ]
    lines = _outcome(names, last, shown, t)
    won = None
    if last["round_winner"] is not None:
        won = h("p", {"class": "bozo-won"}, t("bozo.round_winner", name=names[last["round_winner"]], n=last["round"]))
    return h(
        "section", {"class": "cup-reveal", "data-testid": "reveal", "aria-live": "polite",
                    "data-news": f"reveal-{last['round']}-{last['hand']}"},
        h("h2", None, t("bozo.reveal", round=last["round"], hand=last["hand"])),
        h("div", {"data-announce": True}, (h("p", None, line) for line in lines), won),
        h("ul", {"class": "cup-revealed"}, cups),
    )


def _points_table(view: dict, t) -> Markup:
    names, winners = _names(view), view["round_winners"]
    rounds = len(winners) + (0 if view["result"] else 1)
    rows = []
    for seat, name in enumerate(names):
        cells = []
        for r in range(rounds):
            won = r < len(winners) and winners[r] == seat
            mark = h("span", {"role": "img", "aria-label": t("bozo.round_won", n=r + 1)}, "●") if won else None
            cells.append(h("td", None, mark))
        rows.append(h("tr", None, h("th", {"scope": "row"}, name), cells,
                      h("td", None, h("strong", None, view["points"][seat]))))
    target = view["options"]
    goal = (t("bozo.goal_points", count=target["points_target"]) if target["game_end"] == "points"
            else t("bozo.goal_rounds", count=target["rounds"]))
    head = h(
        "tr", None,
        h("th", {"scope": "col"}, t("bozo.players")),
        (h("th", {"scope": "col"}, t("bozo.round_col", n=r + 1)) for r in range(rounds)),
        h("th", {"scope": "col"}, t("bozo.total")),
    )
    return h(
        "section", {"class": "bozo-table", "data-testid": "points-table"},
        h("table", None,
          h("caption", None, t("bozo.points_table"), " · ", goal),
          h("thead", None, head),
          h("tbody", None, rows)),
    )


def _ways(view: dict, t) -> Markup:
    names, seat = _names(view), view["you"]
    buttons = [
        act_button(t(f"bozo.way.{way}", name=names[next_in_play(view["counts"], seat, step)]),
                   {"type": "direction", "way": way}, cls="bozo-way", **{"data-testid": f"direction-{way}"})
        for way, step in (("left", 1), ("right", -1))
    ]
    return fragment(
        h("p", {"class": "cup-yourturn", "data-announce": True}, t("bozo.choose_direction")),
        h("div", {"class": "bozo-ways", "role": "group", "aria-label": t("bozo.direction")}, buttons),
    )


def _picker(view: dict, ui: dict, t) -> Markup:
    return bid_picker(
        view,
        legal_bids(view, view["you"]),
        ui,
        labels={"fewer": t("bozo.fewer"), "more": t("bozo.more"), "your_bid": t("bozo.your_bid")},
        face_inner=lambda count, face: fragment(_die(t, face, size=34), h("span", None, face_name(t, face, count))),
        bid_label=lambda count, face: bid_label(t, count, face),
        chance=(lambda count, face: bid_chance(view, count, face)) if ui.get("odds") else None,
    )


def _actions(view: dict, ui: dict, t) -> Markup:
    seat = view["you"]
    if seat == view["turn"] and view["choosing"]:
        return h("section", {"class": "bozo-actions"}, _ways(view, t))
    calls = []
    current = None
    if view["bids"]:
        last = view["bids"][-1]
        current = h("p", {"class": "cup-current", "data-testid": "bid-to-beat"},
                    t("bozo.to_beat", name=_names(view)[last["seat"]], bid=bid_label(t, last["count"], last["face"])))
    if seat == view["turn"]:
        status = t("bozo.your_turn" if view["bids"] else "bozo.your_open")
        if view["bids"]:
            calls.append(act_button(t("bozo.doubt"), {"type": "doubt"}, cls="bozo-call bozo-doubt",
                                    **{"data-testid": "doubt"}))
    else:
        status = t("bozo.raise_own", name=_names(view)[view["turn"]])
        calls.append(act_button(t("bozo.keep"), {"type": "keep"}, cls="bozo-call", **{"data-testid": "keep"}))
    return h(
        "section", {"class": "bozo-actions", "aria-label": t("bozo.your_bid")},
        h("p", {"class": "cup-yourturn", "data-announce": True}, status),
        current,
        _picker(view, ui, t),
        h("div", {"class": "bozo-calls"}, calls),
    )


def _odds(view: dict, ui: dict, t) -> tuple:
    """The odds helper: a toggle and, when on, the chance of the bid to beat."""
    if view["you"] is None or view["result"]:
        return None, None
    shown = bool(ui.get("odds"))
    toggle = ui_button(t("bozo.odds_hide" if shown else "bozo.odds_show"), {"odds": not shown},
                       cls="bozo-odds-toggle",
                       **{"aria-pressed": "true" if shown else "false", "data-testid": "odds-toggle"})
    text = None
    if shown and view["bids"]:
        last = view["bids"][-1]
        pct = round(100 * bid_chance(view, last["count"], last["face"]))
        text = h("p", {"class": "cup-odds", "data-testid": "odds"},
                 t("bozo.odds_text", bid=bid_label(t, last["count"], last["face"]), pct=pct))
    return toggle, text


def _history(view: dict, ui: dict, t) -> tuple:
    """The hands settled earlier behind a toggle that says "last" once the engine has let
    the oldest go (the reveal shows the latest one with its dice)."""
    history = view["history"]
    names = _names(view)

    def line(record):
        bids = [(names[b["seat"]], bid_label(t, b["count"], b["face"])) for b in record["bids"]]
        title = t("bozo.round_hand", round=record["round"], hand=record["hand"])
        return cup_history_line(title, bids, _outcome(names, record, None, t))

    first = history[0] if history else None
    complete = first is None or (first["round"], first["hand"]) == (1, 1)
    label = t("bozo.history_toggle" if complete else "bozo.history_recent", count=len(history))
    return cup_history(t, "bozo", history, bool(ui.get("history")), label, line)


def _status(view: dict, t) -> Markup:
    if view["result"] or view["you"] in view["to_act"]:
        return EMPTY
    key = "bozo.waiting_direction" if view["choosing"] else "bozo.waiting"
    return h("p", {"class": "cup-waiting", "data-announce": True}, t(key, name=_names(view)[view["to_act"][0]]))


def render(view: dict, ui: dict, t) -> Markup:
    crowded = len(view["players"]) > CROWD
    return h(
        "div", {"class": ["bozo", "cup-table", "bozo-crowd" if crowded else None]},
        _header(view, t),
        _players(view, t),
        _reveal(view, t),
        _bids(view, t),
        _points_table(view, t),
        h("section", {"class": "bozo-dock tb-dock", "data-testid": "dock", "aria-label": t("bozo.your_dice")},
          _my_cup(view, t),
          _status(view, t),
          _actions(view, ui, t) if view["you"] in view["to_act"] else None,
          cup_helpers(_odds(view, ui, t), _history(view, ui, t))),
    )
