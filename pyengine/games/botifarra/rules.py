"""Botifarra, the Catalan trick-taking game (digest: shared/rules/botifarra.md, with its
"Resolutions for the software"). The trick rules themselves (``legal_cards``,
``trick_winner``, ``card_points``, ``hand_result``, ``hand_points``) live in ``tricks.py``;
this engine calls exactly those, so the screen, the bots and the tests agree with it.

A hand: the dealer deals packets of 4 from his right (dealer last); he names trumps, says
botifarra, or delegates to his partner (who must choose); the doubling questions go round;
the player on the dealer's right leads; after the last trick the hand is scored, the deal
moves one seat to the right and the next hand is dealt in the same ``apply``.

The trick mechanics (seats and sides derived once, playable cards, collecting tricks, what
play reveals, the view's card part, ``resample``) are ``kits.trick_taking``'s; this
module holds Botifarra's own rules. **Seats** are in playing order (``s + 1`` is on ``s``'s
right); sides are ``[[0, 2], [1, 3]]`` in partnerships, else one seat each. Scores, last
tricks and hand summaries are kept per side.

**Actions**: ``{"type": "trump", "suit": "o"}``, ``{"type": "botifarra"}``,
``{"type": "delegate"}``, ``{"type": "double"}`` (the call now asked: contro, recontro or
Sant Vicenç), ``{"type": "pass"}``, ``{"type": "play", "card": "9o"}``. Text notation:
``trump o``, ``botifarra``, ``delego``, ``double``, ``pass``, ``9o``.

**What play reveals** is kept as it happens, for ``resample`` and the bots: ``voids[s]``
(suits ``s`` showed out of) and ``cannot_hold[s]`` (every unplayed card ``s``'s hidden hand
cannot hold since the card he played was legal: voids, "could not beat" and obligada's
"played the lowest"). It is exact because each refusal of ``legal_cards`` has a single
witness card (see ``kits.trick_taking``).

Choices where the digest is silent (each documented here and tested):

* **Doubling order**: each question goes round the table in playing order, starting after
  the player who spoke last (the trump chooser, then the caller), asking only the players
  entitled to the call (contro: the chooser's opponents; recontro: the chooser's side; Sant
  Vicenç: the contro side). The first "double" ends the question; when all entitled
  players pass, play starts.
* **Individual games** (4 each for himself, 3 players): no delegation; scores are points
  - 18 (or - 24) and botifarra does not double them. The resolution says these scores are
  "not multiplied", the default here; a contro that changed nothing would only cost taps,
  so by default nobody is asked. The seed still lets players say contro when the hand is
  not botifarra, so option ``individual_contro`` (off) asks it of every other player in
  turn, never on botifarra, and a contro multiplies every player's score by the scale's
  contro factor. Saves from before the option was played that way (``saved_options``).
* **Two players** play as two sides of one: the dealer chooses (no delegation), the
  other may contro, the dealer recontro, the other Sant Vicenç; botifarra doubles; the
  side over 36 scores as in partnerships. Each player's packets of 4 are his piles (top
  card first): six piles, or (second form) four piles and the last two packets in hand.
  Option ``two_player_trump="last_pile"``: trumps are the suit of the face-up card of the
  dealer's last pile (no choice, no botifarra).
* **First dealer** by the turned card: seat ``i`` is given suit ``o c e b``[i]; cards are
  turned from the deck until one of an assigned suit shows (3 players: bastos is turned
  again; 2 players: espases and bastos). By the 5 of espases: a random seat deals the first
  hand (``first_dealer["dealt"]``), and the holder of the 5 of espases (in hand or in a
  pile) takes the dealer's place for choosing: he chooses and the deal then moves to his
  right, but the player on the right of the seat that dealt leads (the seed: "the first
  player to lay a card is the one on the right of whoever dealt"). Everybody knows he holds
  it until it is played; ``resample`` keeps it with him. Option ``first_lead=
  "right_of_holder"``: the player on the holder's right leads instead, as this engine played
  it before the seed was read that way (its saves restore with it, ``saved_options``).
* **Ending**: with a target, the game ends after a hand in which some side reaches it and
  one side is strictly ahead (individual games: several may pass it; the highest wins);
  with fixed hands (8 or 12) it ends after that many hands if one side is ahead, else
  hands go on one at a time until someone is. Winners are the seats of that side.
* A renege cannot happen: illegal cards are refused with the reason (``botifarra.`` and
  ``must_follow``, ``must_beat``, ``must_trump``, ``must_play_lowest``, ``discard_order``).
* ``discard_suit_order`` applies only to individual games; partnerships ignore it.
  ``individual`` applies only to four seats (3 and 2 players always play each for himself).
* The view shows the trick in progress, each side's last trick, the latest trick (the
  screen's pause) and the number of tricks each seat has taken; never older tricks, nor
  the running card points (a player only sees his side's last trick on the table). The
  bidding is said aloud, so the view (and the last hand) keeps all of it: who chose,
  whether he was delegated to, every call and every pass (``passes``: who declined which).
"""

import hashlib

from ...kits.cards import SPANISH_48, BadCard, deal, shuffled, sort_cards, suit_of
from ...kits import fair_cards
from ...core.fair_deck import is_sealed, sealed
from ...kits.fair_cards import FairCardGame
from ...core import fair
from ...core.errors import IllegalAction
from ...core.game import PLAYERS, Move
from ...core.options import Option, options_shape
from ...core.rng import Rng
from ...core.shape import Bool, Dict, Enum, Int, List, OneOf, Optional, PerSeat, Seat, Seats, Str, Where
from ...core.validate import copy_json
from ...kits.trick_taking import TrickTakingGame, seating
from .tricks import (
    CALLS,
    HAND_TOTAL,
    RANKS,
    SCALES,
    SUITS,
    card_points,
    deck_for,
    format_hand,
    hand_points,
    hand_result,
    legal_cards,
    trick_winner,
)

PACKET = 4
FIVE_OF_ESPASES = "5e"


def partnerships_at(options: dict, players: int) -> bool:
    return players == 4 and not options["individual"]


# --- what a view may hold (a guest refuses a host's view that does not fit) -------------------
MAX_SCORE = 99_999  # far beyond any game: a hand moves a score by at most 36 x 16
CARD = Where(Str(3), SPANISH_48.__contains__, "not a card of the Spanish deck")
HAND_CARD = OneOf(CARD, Str(3, fair_cards.SEALED))  # a fair table's unread card is its position
SUIT = Enum(*SUITS)


def _trick_shape(done: bool) -> Dict:
    """A trick: its leader and cards (a done one also its winner)."""
    if done:
        return Dict({"leader": Seat(), "cards": List(CARD, 4, 2), "winner": Seat()})
    return Dict({"leader": Optional(Seat()), "cards": List(CARD, 3)})


_DONE_TRICK = _trick_shape(True)
_CALL = Dict({"seat": Seat(), "call": Enum(*CALLS)})
MAX_PASSES = 6  # two players asked per question, three questions (individual: three, one)
_LAST_HAND = Dict({
    "number": Int(1, MAX_SCORE), "dealer": Seat(), "chooser": Seat(), "delegated": Bool(), "trump": Optional(SUIT),
    "botifarra": Bool(), "doubling": Int(0, 3), "calls": List(_CALL, 3), "passes": List(_CALL, MAX_PASSES),
    "multiplier": Int(1, 16),
    "tricks": List(Int(0, 24), 4, 2), "card_points": List(Int(0, HAND_TOTAL), 4, 2),
    "points": List(Int(0, HAND_TOTAL), 4, 2), "winner": Optional(Int(0, 1)),
    "gains": List(Int(-MAX_SCORE, MAX_SCORE), 4, 2), "scores": List(Int(-MAX_SCORE, MAX_SCORE), 4, 2),
    "last_trick": Optional(_DONE_TRICK),  # none when a fair deal's challenge ended the hand at once
})
_ACTION = OneOf(
    Dict({"type": Enum("trump"), "suit": SUIT}),
    Dict({"type": Enum("botifarra", "delegate", "double", "pass")}),
    Dict({"type": Enum("play"), "card": CARD}, optional=fair_cards.PLAY_FIELDS),
)
_PILE = Dict({"top": Optional(CARD), "down": Int(0, PACKET - 1)})


def _seat_count(view: dict) -> int:
    return len(view["hand_counts"])


def _consistent(view: dict) -> bool:
    """What ties the view's fields together, so that whatever fits draws without error."""
    n = _seat_count(view)
    table = seating(n, view["partnerships"])
    sides = [list(side) for side in table.sides]
    mine = view["you"]
    players = view.get("players")
    done = view["tricks"]
    if not (view["sides"] == sides and (not view["partnerships"] or n == 4)
            and len(view["scores"]) == len(sides) == len(view["last_tricks"])
            and (type(players) is not int or players == n)
            and all(len(t["cards"]) == n for t in done)
            and view["last_trick"] == (done[-1] if done else None)
            and all(t is None or t in done for t in view["last_tricks"])):
        return False
    if (mine is None) != (view["hand"] is None) or (mine is not None and len(view["hand"]) != view["hand_counts"][mine]):
        return False
    if (view["piles"] is None) != (n != 2) or len(view["trick"]["cards"]) >= n:
        return False
    playable = set(view["hand"] or ())
    if mine is not None and view["piles"] is not None:
        playable.update(pile["top"] for pile in view["piles"][mine] if pile["top"])
    return (set(view["legal_cards"]) <= playable and view["turn"] == (view["to_act"][0] if view["to_act"] else None)
            and (view["phase"] == "double") == (view["question"] is not None))


def _view_shape(options: dict):
    view = Dict(
        {
            "game": Enum("botifarra"),
            "you": Optional(Seat()),
            "sides": List(List(Seat(), 2, 1), 4, 2),
            "partnerships": Bool(),
            "options": options_shape(options),
            "first_dealer": Dict({"by": Enum("turned_card", "five_of_espases"), "turned": List(CARD, 48)},
                                 optional={"dealt": Seat()}),
            "hand_number": Int(1, MAX_SCORE),
            "dealer": Seat(),
            "chooser": Seat(),
            "delegated": Bool(),
            "phase": Enum("choose", "double", "play", "over"),
            "trump": Optional(SUIT),
            "botifarra": Bool(),
            "doubling": Int(0, 3),
            "calls": List(_CALL, 3),
            "passes": List(_CALL, MAX_PASSES),
            "question": Optional(Enum(*CALLS)),
            "multiplier": Int(1, 16),
            "to_act": Seats(),
            "turn": Optional(Seat()),
            "hand": Optional(List(HAND_CARD, 12)),
            "hand_counts": PerSeat(Int(0, 12)),
            "piles": Optional(PerSeat(List(_PILE, 6, 4))),
            "trick": _trick_shape(False),
            "tricks": List(_DONE_TRICK, 24),
            "last_trick": Optional(_DONE_TRICK),
            "last_tricks": List(Optional(_DONE_TRICK), 4, 2),
            "tricks_won": PerSeat(Int(0, 24)),
            "voids": PerSeat(List(SUIT, 4)),
            "cannot_hold": PerSeat(List(CARD, 48)),
            "legal_cards": List(CARD, 12),
            "legal_actions": List(_ACTION, 12),
            "scores": List(Int(-MAX_SCORE, MAX_SCORE), 4, 2),
            "last_hand": Optional(_LAST_HAND),
            "result": Optional(Dict({"winners": Seats(1), "scores": List(Int(-MAX_SCORE, MAX_SCORE), 4, 2),
                                     "hands": Int(1, MAX_SCORE)})),
        },
        optional={"players": OneOf(Int(2, 4), PLAYERS), "fair": fair_cards.VIEW_SHAPE},
    )
    return Where(view, _consistent, "the view's fields do not agree")


# --- the game --------------------------------------------------------------------------------
class Botifarra(FairCardGame, TrickTakingGame):
    id = "botifarra"
    min_seats = 2
    max_seats = 4
    options = {
        "individual": Option(False),  # four players each for himself
        "play_rule": Option("obligada", choices=("obligada", "lliure", "intermedia")),
        "three_second": Option(False),
        "scale": Option("2-4-8", choices=tuple(SCALES)),
        "sant_vicenc": Option("not_on_botifarra", choices=("not_on_botifarra", "also_on_botifarra", "never")),
        "target": Option(101, choices=(51, 73, 101, 151, 201)),
        "fixed_hands": Option(0, choices=(0, 8, 12)),  # 0: play to the target
        "first_dealer": Option("turned_card", choices=("turned_card", "five_of_espases")),
        "first_lead": Option("right_of_dealt", choices=("right_of_dealt", "right_of_holder")),  # 5 of espases only
        "discard_suit_order": Option(False),  # individual games only
        "individual_contro": Option(False),  # individual games only: contro asked, and multiplies
        "two_player_layout": Option("six_piles", choices=("six_piles", "four_piles_and_hand")),
        "two_player_trump": Option("chosen", choices=("chosen", "last_pile")),
    }
    hidden_information = True  # the hands and the face-down pile cards
    view_shape = _view_shape(options)
    fair_field_words = {"botifarra": "bidding"}  # whether the trump chosen was botifarra

    def saved_options(self, options):
        """A save from before ``individual_contro`` and ``first_lead`` existed (one change)
        asked contro at individual tables and, in a first hand given to the holder of the 5 of
        espases, led from the holder's right."""
        if not isinstance(options, dict) or "individual_contro" in options:
            return options
        return {**options, "individual_contro": True, "first_lead": "right_of_holder"}

    # --- the hooks of TrickTakingGame ----------------------------------------------------------
    def partnerships(self, options: dict, players: int) -> bool:
        return partnerships_at(options, players)

    def deck(self, players: int):
        return deck_for(players)

    def sort_hand(self, state: dict, cards) -> list:
        return sort_cards(cards, RANKS[state["options"]["three_second"]].ranks, SUITS)

    def legal(self, state: dict, playable: list) -> list:
        trick = state["trick"]
        return legal_cards(playable, trick["cards"], trick["leader"], state["trump"], **self.card_rules(state))

    def trick_winner(self, state: dict, trick: dict) -> int:
        return trick_winner(trick["cards"], trick["leader"], state["trump"], state["seats"],
                            state["options"]["three_second"])

    def card_value(self, card: str) -> int:
        return card_points(card)

    def witness_suits(self, state: dict, card: str):
        """Only the suit led, trumps and the card's own suit can witness against it, except
        under the discard order, where any earlier suit can."""
        if self.card_rules(state)["discard_suit_order"]:
            return None
        return {suit_of(state["trick"]["cards"][0]), state["trump"], suit_of(card)}

    def pinned_cards(self, state: dict) -> dict:
        """The 5 of espases, announced by its holder choosing first, until it is played."""
        if (state["options"]["first_dealer"] == "five_of_espases" and state["hand_number"] == 1
                and FIVE_OF_ESPASES not in self.publicly_located(state)):
            return {FIVE_OF_ESPASES: state["dealer"]}
        return {}

    def card_rules(self, state: dict) -> dict:
        """The keywords ``legal_cards`` takes at this table (besides hand, trick and trump)."""
        options = state["options"]
        partnerships = partnerships_at(options, state["seats"])
        return {
            "variant": options["play_rule"],
            "n_players": state["seats"],
            "partnerships": partnerships,
            "three_second": options["three_second"],
            "discard_suit_order": options["discard_suit_order"] and not partnerships,
        }

    def is_individual(self, state: dict) -> bool:
        """Each player scores his own points minus his share (4 individual, 3 players)."""
        return not self.seating(state).partnerships and state["seats"] != 2

    def hand_multiplier(self, state: dict) -> int:
        factor = SCALES[state["options"]["scale"]][state["doubling"]]
        if self.is_individual(state):
            return factor  # see the module docstring: only an optional contro multiplies
        return factor * (2 if state["botifarra"] else 1)

    def max_doubling(self, state: dict) -> int:
        if self.is_individual(state):
            return 1 if state["options"]["individual_contro"] and not state["botifarra"] else 0
        sant_vicenc = state["options"]["sant_vicenc"]
        if sant_vicenc == "never" or (state["botifarra"] and sant_vicenc == "not_on_botifarra"):
            return 2
        return 3

    # --- set-up ---------------------------------------------------------------------------
    def setup(self, options: dict, seats: int, rng: Rng) -> dict:
        state = {
            "seats": seats,
            "options": options,
            "hand_number": 0,
            "scores": [0] * len(seating(seats, partnerships_at(options, seats)).sides),
            "last_hand": None,
            "result": None,
        }
        if options["first_dealer"] == "turned_card":
            turned = self.turn_for_dealer(seats, rng)
            state["first_dealer"] = {"by": "turned_card", "turned": turned}
            self.start_hand(state, SUITS.index(suit_of(turned[-1])), rng)
        else:
            dealt = rng.below(seats)
            state["first_dealer"] = {"by": "five_of_espases", "turned": [], "dealt": dealt}
            self.start_hand(state, dealt, rng)
            state["dealer"] = self.holder_of(state, FIVE_OF_ESPASES)
        self.begin_choice(state)
        state["trick"]["leader"] = self.seating(state).right_of(self.seat_before_lead(state))
        return state

    def seat_before_lead(self, state: dict) -> int:
        """Who dealt this hand as far as the lead goes (the player on its right leads): the
        dealer, except for a first hand given to the holder of the 5 of espases, which the seat
        drawn by lot dealt (unless the table leads from the holder's right, ``first_lead``)."""
        if (state["hand_number"] == 1 and "dealt" in state["first_dealer"]
                and state["options"]["first_lead"] == "right_of_dealt"):
            return state["first_dealer"]["dealt"]
        return state["dealer"]

    def turn_for_dealer(self, seats: int, rng: Rng) -> list:
        """Cards turned until one shows a suit given to a seat (seat i has SUITS[i])."""
        deck = self.deck(seats).cards
        turned = [rng.choice(deck)]
        while SUITS.index(suit_of(turned[-1])) >= seats:
            turned.append(rng.choice(deck))
        return turned

    def holder_of(self, state: dict, card: str) -> int:
        """The seat holding ``card`` in hand or in its piles (right after a deal)."""
        for seat in range(state["seats"]):
            piles = state["piles"][seat] if state["piles"] else []
            if card in state["hands"][seat] or any(card in pile for pile in piles):
                return seat
        raise ValueError(f"nobody holds {card}")

    def start_hand(self, state: dict, dealer: int, rng: Rng) -> None:
        """Shuffle and deal packets of 4 from the dealer's right, the dealer last (at a fair
        table the devices shuffle and deal: ``kits.fair_cards``)."""
        n = state["seats"]
        table = self.seating(state)
        state["hand_number"] += 1
        state["dealer"] = dealer
        if "fair" in state:
            state["piles"] = state["taken"] = None
            state["hands"] = [[] for _ in range(n)]
            self.start_deal(state)
        else:
            self.deal_hands(state, rng)
        state.update(self.fresh_hand_keys(n), phase="choose", chooser=dealer, delegated=False, trump=None,
                     botifarra=False, doubling=0, calls=[], passes=[], asking=[])

    def deal_hands(self, state: dict, rng: Rng) -> None:
        n, dealer = state["seats"], state["dealer"]
        dealt = deal(shuffled(self.deck(n), rng), n, packets=PACKET, first=self.seating(state).right_of(dealer)).hands
        if n == 2:
            packets = [[cards[i:i + PACKET] for i in range(0, len(cards), PACKET)] for cards in dealt]
            in_piles = 6 if state["options"]["two_player_layout"] == "six_piles" else 4
            state["piles"] = [seat_packets[:in_piles] for seat_packets in packets]
            state["taken"] = [[0] * in_piles for _ in range(n)]
            hands = [[card for packet in seat_packets[in_piles:] for card in packet] for seat_packets in packets]
        else:
            state["piles"] = state["taken"] = None
            hands = dealt
        state["hands"] = [self.sort_hand(state, hand) for hand in hands]

    def begin_choice(self, state: dict) -> None:
        """The dealer (now settled) chooses; the player on his right will lead."""
        state["phase"] = "choose"
        state["chooser"] = state["dealer"]
        state["trick"]["leader"] = self.seating(state).right_of(state["dealer"])
        if state["seats"] == 2 and state["options"]["two_player_trump"] == "last_pile":
            state["trump"] = suit_of(self.pile_tops(state, state["dealer"])[-1])
            self.begin_doubling(state)

    # --- whose turn, what may they do ---------------------------------------------------------
    def to_act(self, state: dict) -> list:
        phase = state["phase"]
        if state["result"] is not None:
            return []
        dealing = self.deal_to_act(state)
        if dealing is not None:
            return dealing
        if phase == "choose":
            return [state["chooser"]]
        if phase == "double":
            return [state["asking"][0]]
        return [self.player_to_play(state)]

    def legal_actions(self, state: dict, seat) -> list:
        if seat not in self.to_act(state) or fair.fair_phase(state):
            return []
        phase = state["phase"]
        if phase == "choose":
            actions = [{"type": "trump", "suit": suit} for suit in SUITS] + [{"type": "botifarra"}]
            if self.may_delegate(state):
                actions.append({"type": "delegate"})
            return actions
        if phase == "double":
            return [{"type": "double"}, {"type": "pass"}]
        return [{"type": "play", "card": card} for card in self.legal_cards(state, seat)]

    def may_delegate(self, state: dict) -> bool:
        return self.seating(state).partnerships and not state["delegated"]

    # --- moves --------------------------------------------------------------------------------
    def _act_play(self, state, seat, action, rng):
        if "fair" in state:  # the card is opened with its key; its legality waits for the verdict
            fair_cards.play_sealed(state["fair"], seat, state["hands"][seat], action, self.fair_cards(state))
            self.play_card(state, seat, action["card"], rng, judged=False)
            return
        self.play_card(state, seat, action["card"], rng)

    def _act_trump(self, state, seat, action, rng):
        state["trump"] = action["suit"]
        self.begin_doubling(state)

    def _act_botifarra(self, state, seat, action, rng):
        state["botifarra"] = True
        self.begin_doubling(state)

    def _act_delegate(self, state, seat, action, rng):
        if not self.may_delegate(state):
            raise IllegalAction("Only the dealer may pass the choice to his partner", "botifarra.cannot_delegate")
        state["delegated"] = True
        state["chooser"] = self.seating(state).partner(seat)

    def _act_double(self, state, seat, action, rng):
        state["doubling"] += 1
        state["calls"].append({"seat": seat, "call": CALLS[state["doubling"] - 1]})
        self.ask(state, after=seat)

    def _act_pass(self, state, seat, action, rng):
        state["passes"].append({"seat": seat, "call": CALLS[state["doubling"]]})
        state["asking"].pop(0)
        if not state["asking"]:
            self.start_play(state)

    moves = {
        "trump": Move(_act_trump, Dict({"suit": Enum(*SUITS)}), phases=("choose",)),
        "botifarra": Move(_act_botifarra, phases=("choose",)),
        "delegate": Move(_act_delegate, phases=("choose",)),
        "double": Move(_act_double, phases=("double",)),
        "pass": Move(_act_pass, phases=("double",)),
        "play": Move(_act_play, Dict({"card": CARD}, optional=fair_cards.PLAY_FIELDS), phases=("play",)),
        **fair_cards.MOVES,
    }

    def begin_doubling(self, state: dict) -> None:
        state["phase"] = "double"
        self.ask(state, after=state["chooser"])

    def ask(self, state: dict, after: int) -> None:
        """Puts the next doubling question to the entitled players, in order after ``after``."""
        if state["doubling"] >= self.max_doubling(state):
            self.start_play(state)
            return
        table = self.seating(state)
        choosing_side = table.side_of[state["chooser"]]
        if state["doubling"] == 0:
            entitled = [s for s in range(state["seats"]) if table.side_of[s] != choosing_side]
        elif state["doubling"] == 1:
            entitled = list(table.sides[choosing_side])
        else:
            entitled = list(table.sides[table.side_of[state["calls"][0]["seat"]]])
        state["asking"] = [s for s in table.in_order_after(after) if s in entitled]

    def start_play(self, state: dict) -> None:
        state["phase"] = "play"
        state["asking"] = []

    def refusal(self, state: dict, card: str, playable: list) -> IllegalAction:
        """Why ``card`` is illegal, named by a card that witnesses it (see the docstring)."""
        trick = state["trick"]
        led, trump = suit_of(trick["cards"][0]), state["trump"]
        strength = RANKS[state["options"]["three_second"]].strength
        # The suit led first, then trumps: "you must follow" explains more than "play lower".
        for other in sorted(playable, key=lambda c: (suit_of(c) != led, suit_of(c) != trump)):
            if other == card or card in self.legal(state, [card, other]):
                continue
            if suit_of(other) == suit_of(card):
                higher = strength[other] > strength[card]
                code = ("botifarra.must_play_lowest" if not higher else
                        "botifarra.must_beat" if suit_of(card) == led else "botifarra.must_trump")
            elif suit_of(other) == led:
                code = "botifarra.must_follow"
            elif suit_of(other) == trump:
                code = "botifarra.must_trump"
            else:
                code = "botifarra.discard_order"
            why = code.partition(".")[2].replace("_", " ")
            return IllegalAction(f"{card} may not be played now ({why})", code, card=card)
        return IllegalAction(f"{card} may not be played now", "botifarra.illegal_card", card=card)

    # --- scoring -----------------------------------------------------------------------------
    def hand_over(self, state: dict, rng: Rng) -> None:
        """Score the hand; then the game is over, or the deal moves one seat to the right.
        At a fair table the devices first publish their secrets (``fair_settle`` scores)."""
        if "fair" in state:
            state["fair"]["step"] = "reveal"
            return
        self.score_hand(state, self.hand_gains(state), rng)

    def hand_gains(self, state: dict) -> tuple:
        """``(winning side or None, points per side, gains per side)`` of a hand played out."""
        table = self.seating(state)
        n, options = state["seats"], state["options"]
        points = hand_points(state["won"], state["card_points"], n, table.partnerships)
        multiplier = self.hand_multiplier(state)
        if self.is_individual(state):
            share = HAND_TOTAL // n
            return None, points, [(p - share) * multiplier for p in points]
        winner, score = hand_result(points[0], points[1], state["botifarra"], state["doubling"], options["scale"],
                                    options["sant_vicenc"] == "also_on_botifarra", total=HAND_TOTAL)
        return winner, points, [score if side == winner else 0 for side in range(2)]

    def penalty_gains(self, state: dict, offender: int) -> tuple:
        """A fair table's offence (a renege, a cheat named by the deal's verdict): the other
        side scores the whole hand, 36 × the multiplier (the digest's renege); in a game
        each for himself the offender loses it instead."""
        table = self.seating(state)
        whole = HAND_TOTAL // 2 * self.hand_multiplier(state)
        side = table.side_of[offender]
        points = [0] * len(table.sides)
        if self.is_individual(state):
            return None, points, [-whole if s == side else 0 for s in range(len(table.sides))]
        return 1 - side, points, [whole if s != side else 0 for s in range(2)]

    def score_hand(self, state: dict, outcome: tuple, rng: Rng) -> None:
        winner, points, gains = outcome
        table = self.seating(state)
        multiplier = self.hand_multiplier(state)
        state["scores"] = [total + gain for total, gain in zip(state["scores"], gains)]
        state["last_hand"] = {
            "number": state["hand_number"], "dealer": state["dealer"], "chooser": state["chooser"],
            "delegated": state["delegated"], "trump": state["trump"], "botifarra": state["botifarra"],
            "doubling": state["doubling"], "calls": state["calls"], "passes": state["passes"], "multiplier": multiplier,
            "tricks": [sum(state["won"][s] for s in side) for side in table.sides],
            "card_points": [sum(state["card_points"][s] for s in side) for side in table.sides],
            "points": points, "winner": winner, "gains": gains, "scores": list(state["scores"]),
            "last_trick": state["tricks"][-1] if state["tricks"] else None,
        }
        winners = self.winners(state)
        if winners is not None:
            state["phase"] = "over"
            state["result"] = {"winners": winners, "scores": list(state["scores"]), "hands": state["hand_number"]}
            return
        self.start_hand(state, table.right_of(state["dealer"]), rng)
        self.begin_choice(state)

    # --- a fair table's deal (``kits.fair_cards``) ------------------------------------------
    def fair_possible(self, options: dict, seats: int) -> bool:
        """Three or four players, the first dealer by the turned card: two players' face-up
        piles and the holder of the 5 of espases would need cards shown during the deal; and
        the group (``kits.fair_cards.group_ready``)."""
        return seats >= 3 and options["first_dealer"] == "turned_card" and fair_cards.group_ready()

    def make_fair(self, state: dict, fair_id: str) -> dict:
        """No card from the generator: the first dealer is turned from a generator seeded
        by the table's fair id (the same on every device), the first hand dealt fairly."""
        state = copy_json(state)
        n = state["seats"]
        turned = self.turn_for_dealer(n, Rng(int(hashlib.sha256(fair_id.encode()).hexdigest(), 16) % (1 << 53)))
        state.update(first_dealer={"by": "turned_card", "turned": turned}, hand_number=0)
        state["fair"] = fair_cards.start(fair_id, list(range(n)), (), (), n=0)
        self.start_hand(state, SUITS.index(suit_of(turned[-1])), None)
        self.begin_choice(state)
        return state

    def fair_cards(self, state: dict) -> tuple:
        return self.deck(state["seats"]).cards

    def fair_holders(self, state: dict) -> list:
        """Position ``j`` of the shuffled deck goes where the deal from the top puts it."""
        n = state["seats"]
        positions = range(len(self.deck(n)))
        hands = deal(list(positions), n, packets=PACKET, first=self.seating(state).right_of(state["dealer"])).hands
        holders = [None] * len(positions)
        for seat, hand in enumerate(hands):
            for j in hand:
                holders[j] = seat
        return holders

    def fair_dealt(self, state: dict) -> None:
        holders = state["fair"]["holders"]
        state["hands"] = [[sealed(j) for j, holder in enumerate(holders) if holder == seat]
                          for seat in range(state["seats"])]

    def fair_offence(self, state: dict, hands: dict, dealt: list):
        """Every play of the hand replayed with the dealt hands: the first card that was not
        legal then is a renege, named with its trick."""
        hands = {seat: list(hand) for seat, hand in hands.items()}
        for number, trick in enumerate(state["tricks"], start=1):
            for i, card in enumerate(trick["cards"]):
                seat = (trick["leader"] + i) % state["seats"]
                moment = {**state, "trick": {"leader": trick["leader"], "cards": trick["cards"][:i]}}
                if card not in hands[seat]:
                    return {"code": "fair_not_dealt", "seat": seat, "trick": number, "card": card}
                if card not in self.legal(moment, hands[seat]):
                    code = self.refusal(moment, card, hands[seat]).code
                    return {"code": code, "seat": seat, "trick": number, "card": card}
                hands[seat].remove(card)
        return None

    def fair_settle(self, state: dict, verdict, rng: Rng) -> None:
        outcome = self.hand_gains(state) if verdict is None else self.penalty_gains(state, verdict["seat"])
        self.score_hand(state, outcome, rng)

    def fair_void(self, state: dict, rng: Rng) -> None:
        """A deal a device left before the end: dealt again by the same dealer, as if never begun."""
        state["hand_number"] -= 1
        self.start_hand(state, state["dealer"], rng)
        self.begin_choice(state)

    def legal_cards(self, state: dict, seat) -> list:
        """None while the seat's hand is sealed (read only on its own device)."""
        if seat is not None and any(is_sealed(card) for card in state["hands"][seat]):
            return []
        return super().legal_cards(state, seat)

    def winners(self, state: dict):
        """The seats of the winning side once the game is over, else ``None``."""
        scores, options = state["scores"], state["options"]
        top = max(scores)
        if scores.count(top) > 1:
            return None
        if options["fixed_hands"]:
            over = state["hand_number"] >= options["fixed_hands"]
        else:
            over = top >= options["target"]
        return list(self.seating(state).sides[scores.index(top)]) if over else None

    # --- seeing ------------------------------------------------------------------------------
    def view(self, state: dict, seat) -> dict:
        table = self.seating(state)
        phase = state["phase"]
        mine = seat if type(seat) is int and 0 <= seat < state["seats"] else None
        to_act = self.to_act(state)
        return {
            "game": self.id,
            "you": mine,
            "players": state["seats"],
            "sides": [list(side) for side in table.sides],
            "partnerships": table.partnerships,
            "options": dict(state["options"]),
            "first_dealer": copy_json(state["first_dealer"]),
            "hand_number": state["hand_number"],
            "dealer": state["dealer"],
            "chooser": state["chooser"],
            "delegated": state["delegated"],
            "phase": phase,
            "trump": state["trump"],
            "botifarra": state["botifarra"],
            "doubling": state["doubling"],
            "calls": copy_json(state["calls"]),
            "passes": copy_json(state["passes"]),
            "question": CALLS[state["doubling"]] if phase == "double" else None,
            "multiplier": self.hand_multiplier(state),
            "to_act": to_act,
            "turn": to_act[0] if to_act else None,
            **self.trick_view(state, mine),
            "legal_actions": self.legal_actions(state, mine) if mine is not None else [],
            "scores": list(state["scores"]),
            "last_hand": copy_json(state["last_hand"]),
            "result": copy_json(state["result"]),
            **({"fair": fair_cards.public(state["fair"])} if "fair" in state else {}),
        }

    # --- notation ---------------------------------------------------------------------------
    def action_text(self, action: dict) -> str:
        kind = action["type"]
        if kind == "play":
            return action["card"]
        if kind == "trump":
            return f"trump {action['suit']}"
        return {"delegate": "delego"}.get(kind, kind)

    def parse_action(self, text: str) -> dict:
        words = text.strip().lower().replace("ç", "c").split() if isinstance(text, str) else []
        joined = "_".join(words)
        if joined in ("botifarra", "pass"):
            return {"type": joined}
        if joined in ("delego", "delegate"):
            return {"type": "delegate"}
        if joined in ("double", *CALLS):
            return {"type": "double"}
        if len(words) == 2 and words[0] == "trump" and words[1] in SUITS:
            return {"type": "trump", "suit": words[1]}
        card = text.strip().split()[-1] if isinstance(text, str) and text.strip() else ""
        if len(words) in (1, 2) and (len(words) == 1 or words[0] == "play"):
            try:
                return {"type": "play", "card": SPANISH_48.parse(card)}
            except BadCard:
                pass
        raise IllegalAction(f"{str(text)[:30]!r} is not a Botifarra move", "botifarra.notation")

    def hand_record(self, state: dict) -> str:
        """The hand so far in ``tricks.py``'s notation (for bug reports): the deal as it was,
        then every trick, the unfinished one last."""
        n = state["seats"]
        rules = self.card_rules(state)
        played = [[] for _ in range(n)]
        tricks = state["tricks"] + ([state["trick"]] if state["trick"]["cards"] else [])
        for trick in tricks:
            for i, card in enumerate(trick["cards"]):
                played[(trick["leader"] + i) % n].append(card)
        from_piles = set()
        for seat_piles in state["piles"] or []:
            for pile in seat_piles:
                from_piles.update(pile)
        flags = [name for name in ("three_second", "discard_suit_order") if rules[name]]
        if n == 4 and not rules["partnerships"]:
            flags.insert(0, "individual")
        return format_hand({
            "players": n, "variant": rules["variant"], "options": flags, "dealer": self.seat_before_lead(state),
            "trump": None if state["botifarra"] else state["trump"],
            "hands": [self.sort_hand(state, [c for c in played[s] if c not in from_piles] + state["hands"][s])
                      for s in range(n)],
            "piles": copy_json(state["piles"]),
            "tricks": [[trick["leader"], list(trick["cards"])] for trick in tricks],
        })
