"""Botifarra's seat screen, phone first: you at the bottom, your partner at the top, the
opponents left and right in playing order (the next player, on your right, at the right).

``render(view, ui, t)`` is pure: one seat's view (plus ``players`` from the shell) in, built
``Markup`` out. A view that does not fit the game's ``view_shape`` draws a short notice and
nothing else, so every value the renderer indexes exists and has its type.

What shows, top to bottom: a header (trumps or BOTIFARRA, the multiplier, the hand and its
dealer, both scores towards the target); the other seats around the felt; on the felt the
trick in progress, or the trick just won (the screen's pause before it is collected), or
between hands the last hand's summary; a status line; the buttons for each side's last
trick (the only tricks anyone may look back at); your piles (two players) and your hand,
sorted by suit with trumps first, legal cards raised and the rest dimmed; and a bottom
sheet for the decision in hand (trumps, the doubling question, playing the selected card).

UI state (reset after every move): ``select`` (the card tapped once: a second tap, or the
Play button, plays it; an illegal one is explained with the engine's own reason), ``peek``
(a side whose last trick is shown) and ``gloss`` (a Catalan word whose translation shows).
The game's own words stay Catalan in every language; each carries its translation as a
``title`` (hover) and, where it is a button, a tap shows it.

Test hooks (``data-testid``): ``bt-hand``, ``bt-card-<card>`` (your pile tops),
``bt-play``, ``bt-trump-<suit>``, ``bt-botifarra``, ``bt-delegate``, ``bt-double``,
``bt-pass``, ``bt-peek-<side>``, ``bt-peeked``, ``bt-hint``, ``bt-summary``, ``bt-seat-<n>``,
``bt-trick``, ``bt-status``.
"""

from ...kits.cards import rank_of, sort_key, split_card
from ...core.shape import ShapeError
from ...ui.cards import card_back, card_face, hand_fan, suit_symbol, trick_area
from ...ui.html import act_button, ui_button
from ...ui.markup import Markup, fragment, h
from . import GAME
from .tricks import RANKS, SUITS

PERSISTENT_UI = ()
# Cards per row of the hand when they are to be tapped: six strips of 60 % of a 4.75rem card
# fit a 360 px phone, each wider than a 44 px finger (twelve in one row would leave 26 px
# each). Otherwise one row, which leaves the table more room (a hand summary, a sheet).
HAND_ROW = 6
TRICK_PAUSE_MS = 1800  # the won trick stays on the felt this long before a bot leads again
HAND_PAUSE_MS = 4500  # time to read the hand's summary before the next hand is chosen
RANK_WORDS = {"9": "manilla", "10": "sota", "11": "cavall", "12": "rei"}  # Catalan in every language
SUIT_WORDS = {"o": "oros", "c": "copes", "e": "espases", "b": "bastos"}
CALL_WORDS = {"contro": "Contro", "recontro": "Recontro", "sant_vicenc": "Sant Vicenç"}
GLOSSED = frozenset({*SUIT_WORDS.values(), *RANK_WORDS.values(), *CALL_WORDS, "botifarra", "delego"})


def pause_ms(state: dict, action: dict):
    """Longer after the last card of a trick (the trick stays on the felt) and of a hand."""
    if action.get("type") != "play" or state["trick"]["cards"]:
        return None
    return TRICK_PAUSE_MS if state["tricks"] else HAND_PAUSE_MS


# --- words ------------------------------------------------------------------------------------
def _gloss(t, word: str) -> str:
    """What a Catalan game word means, in the player's language (in Catalan, a short
    explanation: newcomers from other games ask too)."""
    return t(f"botifarra.gloss.{word}")


def term(t, word: str, shown: str | None = None) -> Markup:
    """A Catalan game word with its translation on hover."""
    gloss = _gloss(t, word)
    return h("span", {"class": "botifarra-term", "title": gloss, "lang": "ca"}, shown or _display(word))


def term_button(t, word: str, shown: str | None = None, cls: str = "") -> Markup:
    """A Catalan game word that shows its translation when tapped (and on hover)."""
    gloss = _gloss(t, word)
    return ui_button(shown or _display(word), {"gloss": word}, cls=f"botifarra-term botifarra-term-button {cls}".strip(),
                     title=gloss, lang="ca")


def _display(word: str) -> str:
    return {"sant_vicenc": "Sant Vicenç", "botifarra": "botifarra", "delego": "delego"}.get(word, word)


def card_name(t, card: str) -> str:
    rank, suit = split_card(card)
    rank_text = t("botifarra.rank.1") if rank == "1" else RANK_WORDS.get(rank, rank)
    return t("botifarra.card", rank=rank_text, of_suit=t(f"botifarra.of.{suit}"))


def card_label(t, card: str) -> str:
    """A card's name on a button that shows its corner: the rank printed there first when the
    name does not start with it ("9 – manilla d'oros"), so that what a voice-control user reads
    on the card is part of its name (WCAG 2.5.3)."""
    name, rank = card_name(t, card), rank_of(card)
    return name if name.split(" ", 1)[0] == rank else f"{rank} – {name}"


def _names(view: dict, t) -> list:
    players = view.get("players")
    n = len(view["hand_counts"])
    if isinstance(players, list):
        return [player["name"] for player in players]
    return [t("botifarra.seat", n=seat + 1) for seat in range(n)]


class Table:
    """Who sits where for this viewer, and the names of sides."""

    def __init__(self, view: dict, t):
        self.view = view
        self.t = t
        self.n = len(view["hand_counts"])
        self.you = view["you"]
        self.me = self.you if self.you is not None else 0  # a spectator sees from seat 0
        self.names = _names(view, t)
        self.sides = view["sides"]
        self.side_of = {seat: index for index, side in enumerate(self.sides) for seat in side}

    def relative(self, offset: int) -> int:
        return (self.me + offset) % self.n

    def places(self) -> dict:
        """``{place: seat}`` for the other seats: top, left, right (anticlockwise play)."""
        if self.n == 2:
            return {"top": self.relative(1)}
        if self.n == 3:
            return {"right": self.relative(1), "left": self.relative(2)}
        return {"right": self.relative(1), "top": self.relative(2), "left": self.relative(3)}

    def side_name(self, side: int) -> str:
        """"Us"/"Them" in partnerships seen from a seat, else the player's (or team's) name."""
        t, view = self.t, self.view
        if view["partnerships"]:
            if self.you is not None:
                return t("botifarra.us") if self.you in self.sides[side] else t("botifarra.them")
            return " + ".join(self.names[s] for s in self.sides[side])
        seat = self.sides[side][0]
        return t("botifarra.you") if seat == self.you else self.names[seat]


# --- the header -----------------------------------------------------------------------------------
def _trump_label(view: dict, t) -> Markup:
    if view["botifarra"]:
        return h("span", {"class": "botifarra-trump botifarra-trump-none"}, term_button(t, "botifarra", "BOTIFARRA"))
    if view["trump"] is None:
        return h("span", {"class": "botifarra-trump"}, t("botifarra.trump_pending"))
    suit = view["trump"]
    return h("span", {"class": ["botifarra-trump", f"botifarra-suit-{SUIT_WORDS[suit]}"]},
             t("botifarra.trumps"), " ", _suit_icon(suit), term_button(t, SUIT_WORDS[suit]))


def _suit_icon(suit: str) -> Markup:
    """The suit's symbol, as drawn on the cards."""
    return h("svg", {"class": "botifarra-suit-icon", "viewBox": "-11 -11 22 22", "aria-hidden": "true"},
             suit_symbol(suit, 0, 0, 20))


def _target_text(view: dict, t) -> str:
    options = view["options"]
    if options["fixed_hands"]:
        return t("botifarra.hand_of", n=view["hand_number"], total=options["fixed_hands"])
    return t("botifarra.to_target", target=options["target"])


def _header(view: dict, table: Table, t) -> Markup:
    multiplier = view["multiplier"]
    calls = [CALL_WORDS[call["call"]] for call in view["calls"]]
    scores = [
        h("span", {"class": ["botifarra-score", "botifarra-score-mine" if table.you in table.sides[side] else None],
                   "data-testid": f"bt-score-{side}"},
          h("span", {"class": "botifarra-score-name"}, table.side_name(side)), " ", h("b", None, score))
        for side, score in enumerate(view["scores"])
    ]
    return h(
        "header", {"class": "botifarra-head", "data-testid": "bt-head"},
        h("div", {"class": "botifarra-head-row"},
          _trump_label(view, t),
          multiplier > 1 and h("span", {"class": "botifarra-mult", "title": " · ".join(calls) or None,
                                        "data-testid": "bt-mult"}, "×", multiplier),
          h("span", {"class": "botifarra-hand-no"},
            t("botifarra.hand_dealer", n=view["hand_number"], name=table.names[view["dealer"]]))),
        h("div", {"class": "botifarra-head-row botifarra-scores"}, scores,
          h("span", {"class": "botifarra-target"}, _target_text(view, t))),
    )


# --- the seats around the felt ---------------------------------------------------------------------
def _seat_chip(view: dict, table: Table, seat: int, place: str, t) -> Markup:
    calls = [call["call"] for call in view["calls"] if call["seat"] == seat]
    partner = view["partnerships"] and table.you is not None and seat != table.you and \
        table.side_of[seat] == table.side_of[table.you]
    count = view["hand_counts"][seat]
    return h(
        "div",
        {"class": ["botifarra-seat", f"botifarra-at-{place}", "botifarra-turn" if seat == view["turn"] else None,
                   f"botifarra-side-{table.side_of[seat] % 2}"],
         "data-testid": f"bt-seat-{seat}", "data-seat": seat},
        h("span", {"class": "botifarra-seat-name"}, table.names[seat]),
        h("span", {"class": "botifarra-seat-facts"},
          partner and h("span", {"class": "botifarra-badge"}, t("botifarra.partner")),
          seat == view["dealer"] and h("span", {"class": "botifarra-badge botifarra-dealer",
                                                "title": t("botifarra.dealer")}, t("botifarra.dealer_short")),
          [h("span", {"class": "botifarra-badge botifarra-call"}, term(t, call, CALL_WORDS[call])) for call in calls],
          h("span", {"class": "botifarra-count", "aria-label": t("botifarra.cards_in_hand", n=count)},
            card_back(label=None, cls="botifarra-mini-back"), count) if count else None,
          h("span", {"class": "botifarra-tricks"}, t("botifarra.tricks_won", n=view["tricks_won"][seat]))),
    )


# --- the felt: trick, won trick, or the last hand's summary -------------------------------------
def _trick(view: dict, table: Table, t) -> Markup:
    trick = view["trick"]
    shown, winner = trick, None
    if not trick["cards"] and view["last_trick"] is not None:
        shown, winner = view["last_trick"], view["last_trick"]["winner"]
    plays = [None] * table.n
    if shown["leader"] is not None:
        for i, card in enumerate(shown["cards"]):
            plays[(shown["leader"] + i) % table.n] = card
    names = table.names

    def slot_label(seat, card):
        return t("botifarra.slot", name=names[seat], card=card_name(t, card) if card else t("botifarra.slot_empty"))

    area = trick_area(plays, viewer=table.me, label=t("botifarra.trick"), slot_label=slot_label, highlight=winner)
    return h("div", {"class": "botifarra-felt", "data-testid": "bt-trick", "data-winner": winner}, area)


def _summary(view: dict, table: Table, t) -> Markup:
    """The last hand: card points, tricks, points, multiplier and score per side."""
    last = view["last_hand"]
    sides = range(len(table.sides))
    head = h("tr", None, h("td"), [h("th", {"scope": "col"}, table.side_name(s)) for s in sides])

    def row(key, values):
        return h("tr", None, h("th", {"scope": "row"}, t(key)), [h("td", None, v) for v in values])

    choice = t("botifarra.summary_botifarra") if last["botifarra"] else (
        t("botifarra.summary_trump", suit=SUIT_WORDS[last["trump"]]) if last["trump"] else "")
    return h(
        "div", {"class": "botifarra-summary", "data-testid": "bt-summary"},
        h("p", {"class": "botifarra-summary-title"}, t("botifarra.summary_title", n=last["number"]),
          " · ", choice, last["multiplier"] > 1 and fragment(" · ×", last["multiplier"])),
        h("table", None, h("thead", None, head), h("tbody", None,
          row("botifarra.summary_cards", last["card_points"]),
          row("botifarra.summary_tricks", last["tricks"]),
          row("botifarra.summary_points", last["points"]),
          row("botifarra.summary_gain", last["gains"]),
          row("botifarra.summary_score", last["scores"]))),
    )


def _felt(view: dict, table: Table, t):
    """The trick; between hands and at the end the last hand's summary instead."""
    between = view["phase"] == "over" or (not view["trick"]["cards"] and view["last_trick"] is None)
    if view["phase"] == "play" or not between:
        return _trick(view, table, t)
    if view["last_hand"] is not None:
        return h("div", {"class": "botifarra-felt botifarra-felt-summary"}, _summary(view, table, t))
    return None


# --- status, glosses, last tricks ------------------------------------------------------------------
def _status(view: dict, table: Table, t) -> str:
    """Whose turn it is and what they decide; after a trick first who took it."""
    turn = _turn_status(view, table, t)
    won = view["last_trick"]
    if view["phase"] == "play" and not view["trick"]["cards"] and won is not None:
        return t("botifarra.took_trick", name=table.names[won["winner"]]) + " " + turn
    return turn


def _turn_status(view: dict, table: Table, t) -> str:
    phase, turn, names = view["phase"], view["turn"], table.names
    if phase == "over" or turn is None:
        return t("botifarra.status_over")
    mine = turn == table.you
    if phase == "choose":
        if mine:
            return t("botifarra.status_choose_you_delegated" if view["delegated"] else "botifarra.status_choose_you")
        return t("botifarra.status_choose", name=names[turn])
    if phase == "double":
        call = CALL_WORDS[view["question"]]
        return t("botifarra.status_double_you", call=call) if mine else \
            t("botifarra.status_double", name=names[turn], call=call)
    return t("botifarra.status_play_you") if mine else t("botifarra.status_play", name=names[turn])


def _peek(view: dict, table: Table, ui: dict, t) -> Markup:
    """One button per side for its last trick (nothing older can be seen), and the trick
    asked for."""
    buttons, shown = [], None
    for side, trick in enumerate(view["last_tricks"]):
        if trick is None:
            continue
        label = t("botifarra.last_trick_of", side=table.side_name(side))
        open_ = ui.get("peek") == side
        buttons.append(ui_button(label, {"peek": None if open_ else side}, cls="botifarra-peek-button",
                                 **{"data-testid": f"bt-peek-{side}", "aria-expanded": "true" if open_ else "false"}))
        if open_:
            shown = trick
    if not buttons:
        return None
    panel = None
    if shown is not None:
        cards = [h("figure", {"class": "botifarra-peek-card"},
                   card_face(card, label=card_name(t, card), cls="botifarra-peek-face"),
                   h("figcaption", None, table.names[(shown["leader"] + i) % table.n]))
                 for i, card in enumerate(shown["cards"])]
        panel = h("div", {"class": "botifarra-peeked", "data-testid": "bt-peeked", "data-news": f"peek-{ui['peek']}"},
                  h("p", None, t("botifarra.peek_winner", name=table.names[shown["winner"]])), cards)
    return h("div", {"class": "botifarra-peek"}, buttons, panel)


# --- your cards -------------------------------------------------------------------------------------
def _refusal_text(view: dict, card: str, playable: list, t) -> str:
    """Why ``card`` may not be played now, in the engine's own words (the same rule code)."""
    state = {"trick": view["trick"], "trump": view["trump"], "options": view["options"], "seats": len(view["hand_counts"])}
    return t.error(GAME.refusal(state, card, playable))


def _hand_order(view: dict):
    """Suits with trumps first, then the others in the usual order; ranks high to low."""
    trump = view["trump"]
    suits = ([trump] if trump else []) + [s for s in SUITS if s != trump]
    return sort_key(RANKS[view["options"]["three_second"]].ranks, suits)


def _selection(view: dict, ui: dict, playable: list, t):
    """The selected card if it is still in reach, and the reason when it is not legal."""
    chosen = ui.get("select")
    if not isinstance(chosen, str) or chosen not in playable or view["phase"] != "play" or view["turn"] != view["you"]:
        return None, None
    if chosen in view["legal_cards"]:
        return chosen, None
    return chosen, _refusal_text(view, chosen, playable, t)


def _card_taps(view: dict, chosen):
    """Tapping a card selects it; tapping the selected legal card plays it."""
    my_turn = view["phase"] == "play" and view["turn"] == view["you"]

    def act(card):
        return {"type": "play", "card": card} if my_turn and card == chosen and card in view["legal_cards"] else None

    def select(card):
        return {"select": card} if my_turn else None

    return act, select


def _piles(view: dict, table: Table, seat: int, t, taps=None, chosen=None) -> Markup:
    """A seat's piles (two players): face-up top cards over their face-down ones."""
    items = []
    legal = set(view["legal_cards"])
    for index, pile in enumerate(view["piles"][seat]):
        top, down = pile["top"], pile["down"]
        under = [card_back(label=None, cls="botifarra-pile-under")] if down else []
        count = h("span", {"class": "botifarra-pile-count", "aria-hidden": "true"}, "+", down) if down else None
        label = top and t("botifarra.pile_card", card=card_label(t, top), n=down)
        if top is None:
            face = h("span", {"class": "botifarra-pile-empty", "aria-label": t("botifarra.pile_empty")})
        elif taps is None:
            face = h("span", {"class": "botifarra-pile-top"}, card_face(top, label=label))
        else:  # your turn: the same taps as the hand's cards (select, then play)
            act, select = taps
            action = act(top)
            make, change = (act_button, action) if action is not None else (ui_button, select(top))
            classes = ["botifarra-pile-top", "cards-legal" if top in legal else "cards-dim",
                       "cards-selected" if top == chosen else None]
            face = make(card_face(top, label=None), change, cls=" ".join(c for c in classes if c), **{
                "aria-label": label, "aria-disabled": None if top in legal else "true", "data-testid": f"bt-card-{top}"})
        items.append(h("li", {"class": "botifarra-pile", "data-pile": index}, under, face, count))
    return h("ul", {"class": "botifarra-piles", "aria-label": t("botifarra.piles_of", name=table.names[seat]),
                    "data-seat": seat}, items)


def _hand(view: dict, table: Table, ui: dict, t):
    """Your piles (two players) and hand; the sheet's Play button; the hint for a bad tap."""
    if table.you is None:
        return None, None, None
    playable = list(view["hand"])
    if view["piles"] is not None:
        playable += [pile["top"] for pile in view["piles"][table.you] if pile["top"]]
    chosen, refusal = _selection(view, ui, playable, t)
    taps = _card_taps(view, chosen)
    my_turn = view["phase"] == "play" and view["turn"] == table.you
    piles = view["piles"] is not None and _piles(view, table, table.you, t, taps if my_turn else None, chosen)
    fan = view["hand"] and hand_fan(
        view["hand"], name=lambda card: card_label(t, card), label=t("botifarra.your_hand"), key=_hand_order(view),
        legal=view["legal_cards"] if my_turn else None, selected=[chosen] if chosen else (() if my_turn else None),
        act=taps[0] if my_turn else None, ui=taps[1] if my_turn else None, per_row=HAND_ROW if my_turn else None)
    play = None
    if chosen and refusal is None:
        play = act_button(t("botifarra.play_card", card=card_name(t, chosen)), {"type": "play", "card": chosen},
                          cls="tb-primary botifarra-play", **{"data-testid": "bt-play"})
    hint = None
    if refusal:
        hint = h("p", {"class": "botifarra-hint", "role": "alert", "data-testid": "bt-hint"}, refusal)
    elif my_turn and not chosen and view["hand_number"] == 1 and not any(view["tricks_won"]):
        hint = h("p", {"class": "botifarra-hint botifarra-hint-quiet"}, t("botifarra.tap_hint"))  # first tricks only
    mine = h("div", {"class": "botifarra-mine", "data-testid": "bt-hand"}, piles or None,
             fan and h("div", {"class": "botifarra-fan"}, fan))
    return mine, play, hint


# --- the decisions -----------------------------------------------------------------------------------
def _choose_sheet(view: dict, t) -> Markup:
    allowed = {(a["type"], a.get("suit")) for a in view["legal_actions"]}
    suits = []
    for suit in SUITS:
        word = SUIT_WORDS[suit]
        gloss = _gloss(t, word)
        suits.append(act_button(
            fragment(_suit_icon(suit), h("span", {"class": "botifarra-choice-word", "lang": "ca"}, word),
                     gloss and h("span", {"class": "botifarra-choice-gloss"}, gloss)),
            {"type": "trump", "suit": suit}, cls=f"botifarra-choice botifarra-suit-{word}", title=gloss or None,
            **{"data-testid": f"bt-trump-{suit}"}))
    extra = [_word_button(t, "botifarra", {"type": "botifarra"}, "bt-botifarra", "BOTIFARRA")]
    if ("delegate", None) in allowed:
        extra.append(_word_button(t, "delego", {"type": "delegate"}, "bt-delegate", "Delego"))
    return h("div", {"class": "botifarra-sheet", "role": "group", "aria-label": t("botifarra.choose_title"),
                     "data-testid": "bt-sheet"},
             h("p", {"class": "botifarra-sheet-title"}, t("botifarra.choose_title")),
             h("div", {"class": "botifarra-choices"}, suits),
             h("div", {"class": "botifarra-choices botifarra-choices-2"}, extra))


def _word_button(t, word: str, action: dict, testid: str, shown: str) -> Markup:
    gloss = _gloss(t, word)
    return act_button(fragment(h("span", {"class": "botifarra-choice-word", "lang": "ca"}, shown),
                               gloss and h("span", {"class": "botifarra-choice-gloss"}, gloss)),
                      action, cls="botifarra-choice botifarra-choice-wide", title=gloss or None,
                      **{"data-testid": testid})


def _double_sheet(view: dict, t) -> Markup:
    word = view["question"]
    return h("div", {"class": "botifarra-sheet", "role": "group", "aria-label": t("botifarra.double_title"),
                     "data-testid": "bt-sheet"},
             h("p", {"class": "botifarra-sheet-title"}, t(f"botifarra.double_question.{word}")),
             h("div", {"class": "botifarra-choices botifarra-choices-2"},
               _word_button(t, word, {"type": "double"}, "bt-double", CALL_WORDS[word]),
               act_button(t("botifarra.pass"), {"type": "pass"}, cls="botifarra-choice botifarra-choice-wide",
                          **{"data-testid": "bt-pass"})))


# --- the screen ---------------------------------------------------------------------------------------
def _fits(view) -> bool:
    try:
        GAME.check_view(view, len(view["hand_counts"]))
    except (ShapeError, TypeError, KeyError):
        return False
    return True


def render(view: dict, ui: dict, t) -> Markup:
    if not isinstance(view, dict) or not _fits(view):
        return h("div", {"class": "botifarra botifarra-broken", "role": "alert", "data-testid": "bt-broken"}, t("botifarra.bad_view"))
    ui = ui if isinstance(ui, dict) else {}
    table = Table(view, t)
    places = table.places()
    chips = [_seat_chip(view, table, seat, place, t) for place, seat in places.items()]
    opposite = table.n == 2 and view["piles"] is not None and _piles(view, table, places["top"], t)
    mine, play, hint = _hand(view, table, ui, t)
    mine_chip = table.you is not None and _seat_chip(view, table, table.you, "bottom", t)
    sheet = None
    if view["turn"] == table.you and table.you is not None:
        if view["phase"] == "choose":
            sheet = _choose_sheet(view, t)
        elif view["phase"] == "double":
            sheet = _double_sheet(view, t)
    gloss = ui.get("gloss")
    gloss_line = isinstance(gloss, str) and gloss in GLOSSED and _gloss(t, gloss) and h(
        "p", {"class": "botifarra-gloss", "role": "status", "data-testid": "bt-gloss"},
        h("b", {"lang": "ca"}, _display(gloss)), ": ", _gloss(t, gloss))
    dock = h("div", {"class": "botifarra-dock"}, hint, mine,
             sheet or (play and h("div", {"class": "botifarra-sheet botifarra-sheet-play"}, play)))
    return h(
        "div",
        {"class": ["botifarra", f"botifarra-n{table.n}"], "data-phase": view["phase"], "data-you": table.you,
         "data-turn": view["turn"]},
        _header(view, table, t),
        h("div", {"class": "botifarra-table"}, chips, opposite or None, _felt(view, table, t)),
        h("p", {"class": "botifarra-status", "role": "status", "data-testid": "bt-status"}, _status(view, table, t)),
        gloss_line or None,
        h("div", {"class": "botifarra-row"}, mine_chip or None, _peek(view, table, ui, t)),
        dock,
    )

