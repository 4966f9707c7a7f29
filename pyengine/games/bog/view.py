"""Bog's seat screen, phone first: the seats, the hexagon board, the run, the prompts, the hand.

``render(view, ui, t)`` is pure: a seat's view (plus ``players`` added by the shell) in, built
``Markup`` out (``pyengine/ui/markup.py``). From top to bottom, so that on your turn every
control fits a 360 x 740 phone without scrolling even at ten seats: whose turn and what to do;
the seats in playing order (cards left, chips, the call, the dealer); the hexagon board (each
box's chips, a dot per owner in his colour) beside the turned-up card, the stock and the
dealer's discard; in phase 2 the run per suit and the card expected next; the prompt (keep or
exchange; bog with a stake picker or go out); your hand as a fan (tap a card to throw it out
or to play it). Below the hand, what may scroll: the showdown (the winning combination
highlighted), the deal so far, the last deal's summary and the earlier ones (folded), the
final standings.

UI state: ``stake`` (the stake picker's value; clamped to what is legal now).
Test hooks (``data-testid``): ``bog-status``, ``bog-seats``, ``bog-seat-<n>``, ``bog-board``,
``bog-box-<box>``, ``bog-turned``, ``bog-run``, ``bog-expected``, ``bog-keep``, ``bog-stake``,
``bog-stake-down``, ``bog-stake-up``, ``bog-stake-<n>`` (quick picks), ``bog-bog``, ``bog-out``,
``bog-hand``, ``bog-showdown``, ``bog-this-deal``, ``bog-summary``, ``bog-earlier`` (the
earlier deals, each ``bog-summary-<deal>``), ``bog-standings``.
"""

import math

from ...kits.cards import FRENCH_52, RED_SUITS, split_card
from ...ui.cards import card_face, card_pile, hand_fan, suit_symbol
from ...ui.html import act_button, ui_button
from ...ui.markup import EMPTY, Markup, fmt, fragment, h
from ...ui.motion import moving
from .combos import RANK_STRENGTH, best_combination
from .rules import BOG, GOING_OUT, SUIT_SYMBOLS, combination_cards, printed_card

PERSISTENT_UI = ()
SEAT_COLOURS = 10  # view.css colours seats bog-c0 .. bog-c9 (the table's maximum)
SUIT_ORDER = ("S", "H", "C", "D")
FACE_RANKS = ("A", "J", "Q", "K")  # named in words; number cards read as their number
SHOWDOWN_PAUSE_MS = 2800  # the boggers' combinations stay readable before the run starts
DEAL_END_PAUSE_MS = 3200  # the deal's summary before the next deal's first bot move
# The hexagon (flat top): six triangles around the centre, radius R. A box's label sits
# above its chip count around the triangle's centroid (CENTROID from the centre), its
# owners' dots in a row along the outer edge (DOTS_AT).
R = 100
BOX_STEP = 20  # view.css's --motion-step on the board, in its SVG units: chips slide in this far
CENTROID, DOTS_AT, DOT_GAP = 58, 84, 8.6


def pause_ms(state: dict, action: dict):
    """Longer after the showdown and after a deal's last card, so both can be read."""
    kind = action.get("type")
    if kind in ("bog", "out") and state["phase"] != "bog":
        return SHOWDOWN_PAUSE_MS
    if kind == "play" and (state["run"] is None or not state["run"]["played"]):
        return DEAL_END_PAUSE_MS
    return None


# --- words --------------------------------------------------------------------------------------
def _names(view: dict, t) -> list:
    players = view.get("players") or []
    names = []
    for seat in range(view["seats"]):
        name = players[seat].get("name") if seat < len(players) else ""
        names.append(name or t("bog.seat", n=seat + 1))
    return names


def _parts(card) -> tuple:
    """``(rank, suit)`` of a card in notation; ``(text, "")`` for anything else a host sends
    (the view's shape refuses such views, but the screen never fails on one)."""
    if card in FRENCH_52:
        return split_card(card)
    return str(card), ""


def _cards(cards) -> list:
    """The cards that can be drawn (in notation)."""
    return [card for card in cards if _parts(card)[1]]


def card_text(card: str) -> str:
    """``10♥``: the card as printed in its corner (anything else as its text)."""
    return printed_card(card) if card in FRENCH_52 else str(card)


def card_name(t, card: str) -> str:
    """The card's name in the player's language (screen readers, the fan's labels)."""
    rank, suit = _parts(card)
    if not suit:
        return rank
    spoken = t(f"bog.rank.{rank}") if rank in FACE_RANKS else rank
    return t("bog.card_name", rank=spoken, suit=t(f"bog.suit.{suit}"))


def _cards_text(cards) -> str:
    return " ".join(card_text(card) for card in cards)


def _box_text(box: str) -> str:
    return "BOG" if box == BOG else card_text(box)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n).replace("-", "−")


def _seat_class(seat: int) -> str:
    return f"bog-c{seat % SEAT_COLOURS}"


def combination_text(t, combination: dict, cards) -> str:
    """``mitsi: J♣ 8♥ 8♣``; ``nothing`` when the hand holds no combination."""
    kind = t(f"bog.kind.{combination['kind']}")
    return t("bog.combination", kind=kind, cards=_cards_text(cards)) if cards else kind


def event_text(t, event: dict, names: list) -> str:
    """One line of what happened in a deal."""
    kind, name = event["event"], names[event["seat"]]
    if kind in ("collect", "penalty"):
        box = _box_text(event["box"])
        if kind == "collect":
            return t("bog.ev.collect", name=name, box=box, count=event["chips"])
        if event["to"] is None:
            return t("bog.ev.penalty_box", name=name, box=box, count=event["chips"])
        return t("bog.ev.penalty_to", name=name, box=box, count=event["chips"],
                 names=", ".join(names[s] for s in event["to"]))
    if kind == "decline":
        return t("bog.ev.decline", name=name, card=card_text(event["card"]))
    if kind == "exchange":
        return t("bog.ev.exchange", name=name, card=card_text(event["card"]), discard=card_text(event["discard"]))
    if kind == "pay":
        return t("bog.ev.pay", name=name, to=names[event["to"]], count=event["chips"], cards=event["cards"])
    if kind in ("first_out", "leave"):
        return t(f"bog.ev.{kind}", name=name)
    return t(f"bog.ev.{kind}", name=name, count=event.get("chips", 0))


# --- the top: whose turn ---------------------------------------------------------------------------
def _your_turn(view: dict) -> bool:
    return view["you"] is not None and view["you"] in view["to_act"] and view["result"] is None


def _legal_cards(view: dict, kind: str) -> list:
    return [a["card"] for a in view["legal"] if a["type"] == kind]


def _status(view: dict, names: list, t) -> Markup:
    phase, mine = view["phase"], _your_turn(view)
    mover = names[view["to_act"][0]] if view["to_act"] else ""
    if view["result"] is not None:
        text = t("bog.status.over", count=view["result"]["deals"])
    elif phase == "exchange":
        card = card_text(view["turned"]) if view["turned"] else "—"
        text = t("bog.status.you_exchange", card=card) if mine else t("bog.status.exchange", name=mover, card=card)
    elif phase == "bog":
        text = t("bog.status.you_bog") if mine else t("bog.status.bog", name=mover)
    elif phase in ("deal", "show"):  # a fair table's devices deal, or show the boggers' cards
        text = t(f"bog.status.{phase}")
    elif (view["run"] or {}).get("ask") and not _legal_cards(view, "play"):  # a fair table asks who holds it
        asked = view["run"]["ask"]
        what = t(f"bog.suit.{asked}") if len(asked) == 1 else card_text(asked)
        text = t("bog.status.asked", name=mover, what=what)
    elif mine:
        legal = _legal_cards(view, "play")
        run = view["run"] or {}
        last = run.get("last")
        if len(legal) == 1:
            text = t("bog.status.you_play_one", card=card_text(legal[0]))
        elif last is None or _parts(last[1])[0] == "K" or last[0] != view["you"] or not legal:
            text = t("bog.status.you_lead")
        elif all(_parts(card)[1] == _parts(last[1])[1] for card in legal):
            text = t("bog.status.you_follow", suit=t(f"bog.suit.{_parts(last[1])[1]}"))
        else:
            text = t("bog.status.you_change")
    else:
        text = t("bog.status.play", name=mover)
    return h("p", {"class": ["bog-status", mine and "bog-status-you"], "role": "status", "aria-live": "polite",
                   "data-testid": "bog-status"}, text)


# --- the seats --------------------------------------------------------------------------------------
def _seat_order(view: dict) -> list:
    """Playing order from the dealer's next player (the dealer last), then those who left."""
    order = [s for s in view["order"] if 0 <= s < view["seats"]]
    return order + [s for s in range(view["seats"]) if s not in order]


def _seat_tag(view: dict, seat: int, t):
    """The seat's part in this deal: its call, its shown combination, or that it left."""
    if not view["active"][seat]:
        return t("bog.tag.left"), "bog-tag-gone"
    if view["result"] is not None:  # the last deal's calls are over
        return None, None
    showdown = view["showdown"]
    if showdown is not None and showdown["winner"] == seat:
        return t("bog.tag.won"), "bog-tag-win"
    call = view["calls"][seat]
    if call == "bog":
        return t("bog.tag.bog", n=view["stakes"][seat]) if view["stakes"][seat] else t("bog.tag.bogged"), "bog-tag-bog"
    if call == "out":
        return t("bog.tag.out"), "bog-tag-out"
    return None, None


def _seats(view: dict, names: list, t) -> Markup:
    items = []
    movers = set(view["to_act"]) if view["result"] is None else set()
    for seat in _seat_order(view):
        tag, tag_class = _seat_tag(view, seat, t)
        dealer = seat == view["dealer"] and view["result"] is None
        label = t("bog.seat_label", name=names[seat], cards=t("bog.cards_n", count=view["counts"][seat]),
                  chips=t("bog.chips_n", count=view["chips"][seat]))
        label = " · ".join(x for x in (label, dealer and t("bog.dealer"), tag) if x)
        items.append(h(
            "li", {"class": ["bog-seat", seat == view["you"] and "bog-you", seat in movers and "bog-turn",
                             not view["active"][seat] and "bog-gone"],
                   "data-seat": seat, "data-testid": f"bog-seat-{seat}", "aria-label": label},
            h("span", {"class": "bog-seat-name", "aria-hidden": "true"},
              h("span", {"class": ["bog-dot", _seat_class(seat)]}), names[seat]),
            h("span", {"class": "bog-seat-meta", "aria-hidden": "true"},
              h("span", {"class": "bog-icard"}, view["counts"][seat]),
              h("span", {"class": "bog-ichip"}, view["chips"][seat])),
            (dealer or tag) and h("span", {"class": "bog-seat-foot", "aria-hidden": "true"},
                                  dealer and h("span", {"class": "bog-dealer"}, t("bog.dealer_mark")),
                                  tag and h("span", {"class": ["bog-tag", tag_class]}, tag)),
        ))
    columns = view["seats"] if view["seats"] <= 5 else (view["seats"] + 1) // 2
    return h("ol", {"class": ["bog-seats", f"bog-cols-{columns}"], "data-testid": "bog-seats",
                    "aria-label": t("bog.players")}, items)


# --- the board ------------------------------------------------------------------------------------------
def _point(angle_deg: float, distance: float) -> tuple:
    angle = math.radians(angle_deg)
    return distance * math.cos(angle), distance * math.sin(angle)


def _box_label(box: str, x: float, y: float) -> Markup:
    if box == BOG:
        return h("text", {"x": x, "y": y + 6, "text-anchor": "middle", "class": "bog-box-bog"}, "BOG")
    rank, suit = _parts(box)
    if not suit:
        return h("text", {"x": x, "y": y + 6, "text-anchor": "middle", "class": "bog-box-rank"}, rank[:4])
    width = 11 * len(rank)
    return h(
        "g", {"class": ["bog-box-label", "cards-red" if suit in RED_SUITS else None]},
        h("text", {"x": x - 1, "y": y + 7, "text-anchor": "end", "class": "bog-box-rank"}, rank),
        suit_symbol(suit, x + 8, y + 1, 15),
        h("rect", {"x": x - width - 2, "y": y - 10, "width": width + 18, "height": 20, "class": "bog-box-hitarea"}),
    )


def _board(view: dict, names: list, t) -> Markup:
    """The hexagon: a triangle per box with its label, its chips and a dot per owner."""
    boxes = view["board"]
    hit = next((e["box"] for e in reversed(view["events"]) if e["event"] == "collect"), None)
    triangles = []
    for index, box in enumerate(boxes):
        centre = 60 * index - 90  # the first box at the top, then clockwise
        corners = [_point(centre - 30, R), _point(centre + 30, R)]
        points = " ".join(f"{fmt(round(x, 2))},{fmt(round(y, 2))}" for x, y in [(0, 0), *corners])
        owners = [(seat, chips) for seat, chips in enumerate(box["by"]) if chips]
        owner_text = ", ".join(t("bog.owner", name=names[s], n=c) for s, c in owners)
        label = t("bog.box_label", box=_box_text(box["box"]), count=box["chips"])
        if owner_text:
            label = f"{label}: {owner_text}"
        cx, cy = _point(centre, CENTROID)
        if index in (0, 3):  # the top and bottom boxes: the count nearer the centre
            cy += 4 if index == 0 else -6
        lx, ly = cx, cy - 10
        along = math.radians(centre + 90)
        dots = []
        for k, (seat, chips) in enumerate(owners):
            offset = (k - (len(owners) - 1) / 2) * DOT_GAP
            dx, dy = _point(centre, DOTS_AT)
            dots.append(h("circle", {"cx": round(dx + offset * math.cos(along), 2),
                                     "cy": round(dy + offset * math.sin(along), 2), "r": 3.6,
                                     "class": ["bog-owner", _seat_class(seat)]}))
        count = {"x": round(cx, 2), "y": round(cy, 2) + 17, "text-anchor": "middle", "class": "bog-box-count"}
        triangle = {"points": points, "class": "bog-tri"}
        triangles.append(h(
            "g", {"class": ["bog-box", box["box"] == BOG and "bog-box-pot", box["box"] == hit and "bog-box-hit"],
                  "role": "img", "aria-label": label, "data-testid": f"bog-box-{box['box']}",
                  "data-chips": box["chips"]},
            h("title", None, label),
            # The box whose chips were just collected flashes as they go to its owner.
            h("polygon", moving(triangle, "hit", f"collect-{view['deal']}-{index}", sound="chips")
              if box["box"] == hit else triangle),
            _box_label(box["box"], lx, ly),
            # A box's new count slides in from the middle of the table: chips placed on it.
            h("text", moving(count, "arrive", f"box-{index}-{box['chips']}", -cx / BOX_STEP, -cy / BOX_STEP, sound="chips")
              if box["chips"] else count, box["chips"]),
            dots,
        ))
    return h("svg", {"class": "bog-board", "viewBox": "-102 -89 204 178", "role": "group",
                     "aria-label": t("bog.board"), "data-testid": "bog-board"}, triangles)


def _table_cards(view: dict, t) -> Markup:
    """The turned-up card, the stock under it and the card the dealer threw out."""
    turned, discard = (card if _parts(card)[1] else None for card in (view["turned"], view["discard"]))
    items = []
    if turned is not None:
        key = "bog.taken" if discard is not None else "bog.turned"
        items.append(h("figure", {"class": "bog-tcard", "data-testid": "bog-turned", "data-card": turned},
                       card_face(turned, label=card_name(t, turned), cls="bog-mini"),
                       h("figcaption", None, t(key))))
    if discard is not None:
        items.append(h("figure", {"class": "bog-tcard", "data-card": discard},
                       card_face(discard, label=card_name(t, discard), cls="bog-mini"),
                       h("figcaption", None, t("bog.discard"))))
    items.append(h("figure", {"class": "bog-tcard"},
                   card_pile(view["stock"], label=t("bog.stock_label", count=view["stock"])),
                   h("figcaption", None, t("bog.stock"))))
    return h("div", {"class": "bog-tcards"}, items)


# --- phase 2: the run ----------------------------------------------------------------------------------
def _run_rank(card: str) -> int:
    """A card's place in its suit's run (the ace lowest), so a suit reads as a sequence."""
    return RANK_STRENGTH.get(_parts(card)[0], 0)


def _run(view: dict, names: list, t) -> Markup:
    run = view["run"]
    if run is None or view["phase"] != "run":
        return EMPTY
    last = tuple(run["last"]) if run["last"] else None
    rows = []
    for suit in SUIT_ORDER:
        cards = sorted(run["suits"][suit], key=_run_rank)
        tokens = [h("span", {"class": ["bog-rtok", last is not None and card == last[1] and "bog-rlast"]},
                    _parts(card)[0]) for card in cards]
        rows.append(h("li", {"class": ["bog-rsuit", suit in RED_SUITS and "bog-red"],
                             "aria-label": t("bog.run_suit", suit=t(f"bog.suit.{suit}"),
                                             cards=_cards_text(cards) or t("bog.none"))},
                      h("span", {"class": "bog-rsym", "aria-hidden": "true"}, SUIT_SYMBOLS[suit]),
                      h("span", {"class": "bog-rcards", "aria-hidden": "true"}, tokens or "·")))
    mover = names[view["to_act"][0]] if view["to_act"] else ""
    if _your_turn(view):
        # The holder of the expected card would be to play: on our turn without it, it is dead.
        expected = last and run["expected"]
        dead = expected and expected not in (view["hand"] or [])
        text = expected and t("bog.run_dead_you" if dead else "bog.run_next_you", card=card_text(expected))
    elif last is None:
        text = t("bog.run_leads", name=mover)
    elif run["expected"] is None:
        text = t("bog.run_king", name=mover)
    else:
        text = t("bog.run_next", card=card_text(run["expected"]), name=mover)
    return h("section", {"class": "bog-run", "data-testid": "bog-run", "aria-label": t("bog.run")},
             h("ol", {"class": "bog-rsuits"}, rows),
             text and h("p", {"class": "bog-expected", "data-testid": "bog-expected",
                              "data-card": run["expected"] or ""}, text))


# --- the prompts --------------------------------------------------------------------------------------------
def _stake(view: dict, ui: dict) -> tuple:
    """``(least, most, chosen)`` stake for the seat on screen; most < least when it cannot bog."""
    low = view["min_stake"] or 1
    have = view["chips"][view["you"]]
    chosen = ui.get("stake")
    chosen = chosen if type(chosen) is int else low
    return low, have, max(low, min(chosen, have))


def _controls(view: dict, ui: dict, t) -> Markup:
    if not _your_turn(view):
        return EMPTY
    if view["phase"] == "exchange":
        return h("div", {"class": "bog-prompt"},
                 h("p", {"class": "bog-hint"}, t("bog.exchange_hint")),
                 act_button(t("bog.keep"), {"type": "decline"}, cls="tb-primary", **{"data-testid": "bog-keep"}))
    if view["phase"] != "bog":
        return EMPTY
    low, have, chosen = _stake(view, ui)
    out = act_button(t("bog.go_out", n=GOING_OUT), {"type": "out"}, cls="bog-out", **{"data-testid": "bog-out"})
    if have < low:
        return h("div", {"class": "bog-prompt"}, h("p", {"class": "bog-hint"}, t("bog.cannot_bog", count=low)),
                 h("div", {"class": "bog-row"}, out))
    quick = sorted({low, min(2 * low, have), have})
    picks = [ui_button(n, {"stake": n}, cls="bog-pick",
                       **{"aria-pressed": "true" if n == chosen else "false",
                          "aria-label": t("bog.stake_n", n=n), "data-testid": f"bog-stake-{n}"})
             for n in quick]
    stepper = h(
        "div", {"class": "bog-stepper", "role": "group", "aria-label": t("bog.stake")},
        ui_button("−", {"stake": chosen - 1}, cls="bog-step", disabled=chosen <= low,
                  **{"aria-label": t("bog.less"), "data-testid": "bog-stake-down"}),
        h("output", {"class": "bog-stake", "data-testid": "bog-stake", "aria-live": "polite"}, chosen),
        ui_button("+", {"stake": chosen + 1}, cls="bog-step", disabled=chosen >= have,
                  **{"aria-label": t("bog.more"), "data-testid": "bog-stake-up"}),
        picks,
    )
    return h("div", {"class": "bog-prompt"},
             stepper,
             h("div", {"class": "bog-row"},
               act_button(t("bog.bog_n", n=chosen), {"type": "bog", "chips": chosen}, cls="tb-primary bog-bogbtn",
                          **{"data-testid": "bog-bog"}),
               out))


def _hand(view: dict, t) -> Markup:
    hand = None if view["hand"] is None else _cards(view["hand"])
    if hand is None or view["result"] is not None:
        return EMPTY
    mine, phase = _your_turn(view), view["phase"]
    legal = selected = act = None
    hint = None
    if mine and phase == "exchange":
        act = lambda card: {"type": "exchange", "card": card}  # noqa: E731
    elif mine and phase == "run":
        legal = _legal_cards(view, "play")
        act = lambda card: {"type": "play", "card": card}  # noqa: E731
    elif phase in ("exchange", "bog") and hand:
        best = best_combination(hand) if len(set(hand)) == len(hand) else {"kind": "nothing", "ranks": []}
        selected = combination_cards(hand, best)
        hint = h("p", {"class": "bog-best"}, t("bog.your_best", combination=combination_text(t, best, selected)))
    if not hand:
        return h("p", {"class": "bog-empty", "data-testid": "bog-hand"}, t("bog.no_cards"))
    fan = hand_fan(hand, name=lambda card: card_name(t, card), label=t("bog.your_hand"), legal=legal,
                   selected=selected, act=act)
    return h("div", {"class": "bog-hand", "data-testid": "bog-hand"}, hint, fan)


# --- below the hand: the showdown, the deal, the summary, the end ----------------------------------------
def _showdown(view: dict, names: list, t) -> Markup:
    showdown = view["showdown"]
    if showdown is None or view["phase"] != "run":
        return EMPTY
    winner = showdown["winner"]
    rows = []
    for seat in showdown["boggers"]:
        shown = showdown["shown"][seat]
        cards = _cards(shown["cards"]) if shown else []
        what = combination_text(t, shown, cards) if shown else t("bog.lone_bogger")
        rows.append(h("li", {"class": ["bog-shown", seat == winner and "bog-shown-win"], "data-seat": seat},
                      h("span", {"class": "bog-shown-name"}, h("span", {"class": ["bog-dot", _seat_class(seat)]}),
                        names[seat]),
                      h("span", {"class": "bog-shown-cards"},
                        (card_face(card, label=card_name(t, card), cls="bog-micro") for card in cards)),
                      h("span", {"class": "bog-shown-what"}, what)))
    won = next((e["chips"] for e in view["events"] if e["event"] == "bog_win"), None)
    if winner is not None:
        verdict = t("bog.bog_won", name=names[winner], count=won or 0)
    elif showdown["boggers"]:
        verdict = t("bog.bog_nobody")
    else:
        verdict = t("bog.bog_none")
    # News (site/screen.js): the page brings a new showdown into view, below the hand on a phone.
    return h("section", {"class": "bog-showdown", "data-testid": "bog-showdown", "aria-label": t("bog.showdown"),
                         "data-news": f"showdown-{view['deal']}"},
             h("h2", None, t("bog.showdown")), h("p", None, verdict), rows and h("ul", None, rows))


def _events_list(view_events: list, names: list, t) -> Markup:
    lines = [event_text(t, e, names) for e in view_events if e["event"] != "ante"]
    return h("ul", {"class": "bog-events"}, (h("li", None, line) for line in lines))


def _this_deal(view: dict, names: list, t) -> Markup:
    if view["result"] is not None:
        return EMPTY
    antes = sum(e["chips"] for e in view["events"] if e["event"] == "ante")
    return h("details", {"class": "bog-deal", "data-testid": "bog-this-deal"},
             h("summary", None, t("bog.this_deal", n=view["deal"], dealer=names[view["dealer"]])),
             h("p", None, t("bog.antes", count=antes)),
             _events_list(view["events"], names, t))


def _summary(view: dict, names: list, t) -> Markup:
    """The last deal's summary (open until the run), then the earlier deals', folded."""
    last = view["last_deal"]
    if last is None:
        return EMPTY
    fresh = view["result"] is not None or view["phase"] in ("exchange", "bog")
    earlier = view["earlier_deals"]
    return fragment(
        _deal_summary(view, last, names, t, fresh, "bog-summary"),
        earlier and h("details", {"class": "bog-summary bog-earlier", "data-testid": "bog-earlier"},
                      h("summary", None, t("bog.earlier_deals", count=len(earlier))),
                      (_deal_summary(view, deal, names, t, False, f"bog-summary-{deal['deal']}") for deal in earlier)),
    )


def _deal_summary(view: dict, last: dict, names: list, t, fresh: bool, testid: str) -> Markup:
    """One deal: who won BOG and the run, each player's net, every event."""
    headline = []
    if last["bog_winner"] is not None:
        headline.append(t("bog.sum_bog", name=names[last["bog_winner"]]))
    if last["run_winner"] is not None:
        headline.append(t("bog.sum_run", name=names[last["run_winner"]]))
    nets = [h("li", {"class": ["bog-net", last["net"][s] > 0 and "bog-up", last["net"][s] < 0 and "bog-down"]},
              h("span", {"class": ["bog-dot", _seat_class(s)]}), names[s], " ", signed(last["net"][s]))
            for s in range(view["seats"]) if last["net"][s] or view["active"][s]]
    return h("details", {"class": "bog-summary", "open": fresh, "data-testid": testid},
             h("summary", None, t("bog.summary", n=last["deal"])),
             headline and h("p", {"class": "bog-headline"}, " · ".join(headline)),
             h("ul", {"class": "bog-nets"}, nets),
             _events_list(last["events"], names, t))


def _standings(view: dict, names: list, t) -> Markup:
    result = view["result"]
    if result is None:
        return EMPTY
    ranked = sorted(range(view["seats"]), key=lambda s: -result["chips"][s])
    return h("section", {"class": "bog-standings", "data-testid": "bog-standings"},
             h("h2", None, t("bog.standings")),
             h("p", None, t("bog.reason." + result["reason"], count=result["deals"])),
             h("ol", None, (h("li", {"class": ["bog-net", s in result["winners"] and "bog-shown-win"]},
                                h("span", {"class": ["bog-dot", _seat_class(s)]}), names[s], " ",
                                t("bog.chips_n", count=result["chips"][s]))
                              for s in ranked)))


def render(view: dict, ui: dict, t) -> Markup:
    names = _names(view, t)
    return h(
        "div", {"class": ["bog", f"bog-phase-{view['phase']}"], "data-phase": view["phase"], "data-deal": view["deal"]},
        _status(view, names, t),
        _seats(view, names, t),
        h("div", {"class": "bog-middle"}, _board(view, names, t), _table_cards(view, t)),
        _run(view, names, t),
        _controls(view, ui, t),
        _hand(view, t),
        _showdown(view, names, t),
        _standings(view, names, t),
        _summary(view, names, t),
        _this_deal(view, names, t),
    )

