"""Bog, the Sicilian stake-board card game for 3 to 10 players (digest: shared/rules/bog.md).

A deal: antes on the hexagon board, the deal and the turned-up card (the dealer may take it
for one of his; if it is a board card he collects its box), phase 1 (each player bogs with a
stake or goes out; the best combination takes BOG and the boggers' stakes), phase 2 (the run,
like Newmarket: board cards collect their box, the first out collects a chip per card left,
an unplayed board card doubles its box). The combination and run rules are the pure
functions of ``combos.py``; this module keeps the chips, the turns and the record.

**Chips identify their owner**: every box and the boggers' stakes are pots (``kits.chips``),
``boxes[box][s]`` the chips seat ``s`` put on ``box``; the views show them by owner.

Choices where the digest is silent, and why (the table options are listed in ``OPTIONS``):

* The first dealer is drawn by lot (the cut for the highest card); the deal then passes to
  the next player still in, in the direction of play. Seats are numbered so that with
  ``direction="clockwise"`` the next player after ``s`` is ``s + 1``; ``anticlockwise``
  makes it ``s - 1`` (the pure functions are called in playing-order positions).
* Antes (``antes="rotation"``): from the dealer's next player round to the dealer, each puts
  one chip on each of the next two card boxes in board order (A♥ 10♥ J♣ Q♠ K♦, wrapping),
  and the next deal goes on where this one stopped, so the boxes fill evenly. The dealer
  adds 2 on BOG. ``every_box``: one chip on each card box. A player short of chips pays what
  he has (box by box, in that order); so does anyone paying anything below.
* The dealer's collection (``dealer_collects="turned"``): the seed's "if this card is one of
  the board cards" is read, as the digest resolves it, as the turned-up card, collected
  when it is turned. The digest's alternative reading is option ``"discard"``: the card he
  throws out in the exchange collects its box (when he keeps his hand nothing does), so a
  dealer may turn a board card he would otherwise be left holding into that box's chips.
* "The initial stake" is the seed's 2-chip ante, so a bog stake is at least 3 chips in both
  ante modes; no upper limit but the stack. ``stake_rule="raise"``: each bogger must stake more
  than the highest stake before him. A player who cannot afford the least stake goes out.
* Going out costs 2 chips into BOG; the goer's antes stay on the board.
* Showdown (two boggers or more): each shows the cards of his best combination only (a
  bogger with none shows nothing); the cards stay known until played. The winner takes BOG
  and every bogger's stake. When several boggers hold no combination nobody wins: BOG
  carries over and the stakes go back to their owners. A lone bogger wins without showing.
* The run: every player still in plays (``run_players="all"``) or only the boggers
  (``"boggers"``; those who went out take no part in the run nor its settlement; with no
  bogger there is no run). The leader is the phase-1 winner (``leader="bog_winner"``; if
  there is none, or he does not play) or the first player taking part after the dealer.
* Settlement, in this order: every other player in the run pays the first out 1 chip per
  card left; then, in board order, whoever holds an unplayed board card pays that box as
  many chips as it holds. With ``penalty="stakers"`` those chips go instead to the players
  who anted that box this deal, in proportion to their antes (if nobody did, to the owners
  of the chips on it), odd chips one each from the dealer's next player.
* After the deal, a player with no chips leaves. The game ends after ``deals`` deals (0: no
  limit) or when no more than ``survivors`` (1, or 2) players are left; the winners have the
  most chips (if everyone went broke in the last deal, everyone who played it). With two
  players left the 32-card deck is dealt 8 each, as for three. Besides the last deal's
  summary the state keeps the ``KEPT_DEALS`` deals before it (newest first), so that a
  player who left can read how his chips went.
* Everything dealt is sorted (hands, and the stock under its turned-up card), so a deal's
  record (``format_deal``) rebuilds the state exactly.

**A fair table** (a shared table: ``kits.fair_cards``, as Botifarra's) is dealt by the devices,
none of which sees another's cards. After the antes (phase ``deal``) every device locks and
shuffles the deck in turn; the positions go where ``shuffle_deal`` deals cards (``fair_holders``):
each hand to its holder alone, the stock's top card (the turned-up card) to everyone, the rest
of the stock to nobody (it stays locked until the deal's check). Whatever the rules show
comes with its holder's key and every device opens it: the card the dealer throws out in the
exchange (the turned-up card he takes is known to all), each bogger's combination at the
showdown (phase ``show``, shown by his device at once; which cards is checked at the end) and
every card of the run. Who holds the run's next card is known only to his device, so the run
asks for it (``_fair_turn``): the players taking part, the last player first, in playing
order, each play it or say "not I" (``{"type": "pass"}``, sent by the device at once) until one
plays it or all have said so, and then it is dead; ``change_suit="all_void"`` asks for the
suit the same way. The settlement of the run waits for the deal's check: every device
publishes its secret, every device replays the deal with these rules against the hands as
dealt (``fair_offence``), and the first offence is named: a "not I" from the holder
(``bog.false_pass``, with the card and the number of the run's card asked for), a card against
the run's rule (``bog.must_play``), a combination shown other than the hand's best
(``bog.false_show``), besides the deal's own (a secret withheld, a deck not locked or shuffled
as committed, a wrong key, a false challenge). **The penalty**: nothing of the deal stands
(stacks, board and the antes' rotation go back to before its antes) and the offender pays
every other player in it a hand's worth of chips, one per card dealt to a hand (as a first
out is paid by someone who played no card), as far as his stack goes; then the deal passes
on as usual. Why: a cheat may have changed who won BOG, a box or the run, and no re-settlement
from the true hands could say what the honest play would have been; the payment is the
most a first out wins from each player. A device gone before
the check voids the deal instead (undone, the same dealer deals again: nothing else lost).

**Notation.** Cards ``AH 10H JC QS KD``; a hand is its cards separated by spaces. Actions:
``exchange 9H`` / ``decline`` (the dealer, about the turned-up card), ``bog 3`` / ``out``,
``play 9H``. A board: ``AH=0:1,2:1 10H=- JC=1:2 QS=- KD=- BOG=0:2`` (``owner:chips``). A
deal's record is described in ``format_deal``.
"""

import hashlib

from ...kits import fair_cards
from ...kits.cards import (
    FRENCH_52, FRENCH_DISPLAY_SUITS, deal, format_cards, rank_of, shuffled, sort_cards, split_card, suit_of,
)
from ...kits.chips import collect, new_pot, pay, share_out, stake
from ...core.fair_deck import is_sealed, sealed
from ...kits.fair_cards import UP, FairCardGame
from ...core import fair
from ...core.errors import IllegalAction, TabernaError
from ...core.game import PLAYERS, Game, Move, fresh_rng_state
from ...core.options import Option, options_shape, resolve_options
from ...core.rng import Rng
from ...core.shape import Bool, Dict, Enum, Int, List, OneOf, Optional, PerSeat, Seat, Seats, Str, Tuple, Where
from ...core.validate import copy_json
from .combos import (
    CHANGE_SUIT, DECKS, KINDS, MITSI_CARD, RANKS, best_combination, deal_plan, next_in_suit, phase1_winner, phase2_turn,
)
from .unseen import has_unseen, play_step, resample_hidden

BOARDS = {"AH": ("AH", "10H", "JC", "QS", "KD"), "AD": ("AD", "10H", "JC", "QS", "KD")}
BOG = "BOG"
ANTE = 2  # the seed's initial stake per player
DEALER_ANTE = 2
GOING_OUT = 2
MIN_STAKE = ANTE + 1
MAX_STAKE = 10**9
DISPLAY_RANKS = RANKS[::-1]  # high to low, the ace lowest
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}

OPTIONS = {
    "start_chips": Option(30, minimum=5, maximum=10_000),
    "four_players": Option(6, choices=(6, 7, 8)),
    "board_ace": Option("AH", choices=("AH", "AD")),
    "dealer_collects": Option("turned", choices=("turned", "discard")),
    "antes": Option("rotation", choices=("rotation", "every_box")),
    "stake_rule": Option("at_least", choices=("at_least", "raise")),
    "leader": Option("bog_winner", choices=("bog_winner", "after_dealer")),
    "change_suit": Option("leader_void", choices=CHANGE_SUIT),
    "penalty": Option("box", choices=("box", "stakers")),
    "run_players": Option("all", choices=("all", "boggers")),
    "deals": Option(0, minimum=0, maximum=1000),
    "survivors": Option(1, choices=(1, 2)),
    "direction": Option("clockwise", choices=("clockwise", "anticlockwise")),
}


# --- what a view may hold (a guest refuses anything else before drawing it) -------------------
MAX_CHIPS = 10 * OPTIONS["start_chips"].maximum  # chips are never created: a whole table's worth
MAX_COUNT = 10**9  # deals played, when there is no limit
MAX_HAND = 8  # the most cards dealt to anyone (3 players, or 4 with four_players=8)
KEPT_DEALS = 20  # earlier deals' summaries kept besides the last one (a player out sees why)
CHIPS = Int(0, MAX_CHIPS)
NET = Int(-MAX_CHIPS, MAX_CHIPS)
CARD = Str(3, r"(?:[A2-9JQK]|10)[HDCS]")
BOX = Enum(*BOARDS["AH"], "AD", BOG)
HAND = List(CARD, MAX_HAND)
HELD = List(OneOf(CARD, Str(3, fair_cards.SEALED)), MAX_HAND)  # a fair table's unread card is its position
SHOWN_CARD = Dict({"card": CARD}, optional=fair_cards.PLAY_FIELDS)  # a card shown, with its key at a fair table


def _event(name: str, **fields) -> Dict:
    return Dict({"event": Enum(name), "seat": Seat(), **fields})


EVENT = OneOf(
    _event("ante", chips=CHIPS),
    _event("collect", box=BOX, chips=CHIPS),
    _event("decline", card=CARD),
    _event("exchange", card=CARD, discard=CARD),
    _event("bog", chips=CHIPS),
    _event("out", chips=CHIPS),
    _event("bog_win", chips=CHIPS),
    _event("stake_back", chips=CHIPS),
    _event("first_out"),
    _event("pay", to=Seat(), cards=Int(0, MAX_HAND), chips=CHIPS),
    _event("penalty", box=BOX, chips=CHIPS, to=Optional(Seats())),
    _event("leave"),
)
EVENTS = List(EVENT, 100)
ACTION = OneOf(
    Dict({"type": Enum("decline", "out", "pass")}),
    Dict({"type": Enum("exchange", "play"), "card": CARD}),
    Dict({"type": Enum("bog"), "chips": Int(1, MAX_CHIPS)}),
    Dict({"type": Enum("show"), "cards": List(SHOWN_CARD, MAX_HAND)}),
)
DEAL_SUMMARY = Dict({
    "deal": Int(1, MAX_COUNT),
    "dealer": Seat(),
    "events": EVENTS,
    "net": PerSeat(NET),
    "bog_winner": Optional(Seat()),
    "run_winner": Optional(Seat()),
    "cards_left": PerSeat(Optional(Int(0, MAX_HAND))),
})
SHOWN = Dict({"kind": Enum(*KINDS), "ranks": List(Enum(*RANKS), 2), "cards": HAND})
VIEW_SHAPE = Where(
    Dict(
        {
            "game": Enum("bog"),
            "you": Optional(Seat()),
            "seats": Int(3, 10),
            "options": options_shape(OPTIONS),
            "deal": Int(0, MAX_COUNT),
            "dealer": Seat(),
            "phase": Enum("deal", "exchange", "bog", "show", "run", "over"),
            "order": Seats(),
            "active": PerSeat(Bool()),
            "chips": PerSeat(CHIPS),
            "board": List(Where(Dict({"box": BOX, "chips": CHIPS, "by": PerSeat(CHIPS)}),
                                lambda box: sum(box["by"]) == box["chips"], "a box's owners do not add up"), 6, 6),
            "hand": Optional(HELD),
            "counts": PerSeat(Int(0, MAX_HAND)),
            "stock": Int(0, 52),
            "turned": Optional(CARD),
            "discard": Optional(CARD),
            "calls": PerSeat(Optional(Enum("bog", "out"))),
            "stakes": PerSeat(CHIPS),
            "speaker": Optional(Seat()),
            "min_stake": Optional(Int(1, MAX_CHIPS)),
            "showdown": Optional(Dict({"boggers": Seats(), "winner": Optional(Seat()), "shown": PerSeat(Optional(SHOWN))})),
            "run": Optional(Dict({
                "players": PerSeat(Bool()),
                "leader": Seat(),
                "played": List(Tuple(Seat(), CARD), 52),
                "suits": Dict({suit: List(CARD, 13) for suit in ("S", "H", "C", "D")}),
                "last": Optional(Tuple(Seat(), CARD)),
                "expected": Optional(CARD),
            }, optional={"ask": OneOf(CARD, Enum(*SUIT_SYMBOLS))})),  # a fair table's question
            "to_act": Seats(),
            "legal": List(ACTION, MAX_HAND + 1),
            "events": EVENTS,
            "last_deal": Optional(DEAL_SUMMARY),
            "earlier_deals": List(DEAL_SUMMARY, KEPT_DEALS),
            "result": Optional(Dict({
                "winners": Seats(min_len=1),
                "chips": PerSeat(CHIPS),
                "reason": Enum("deals", "broke"),
                "deals": Int(0, MAX_COUNT),
            })),
        },
        optional={"players": PLAYERS, "fair": fair_cards.VIEW_SHAPE},
    ),
    lambda view: view["seats"] == len(view["chips"]),
    "the seat count does not match the seats",
)

def printed_card(card: str) -> str:
    """``10♥``: a card as its corner prints it, for the messages players read (anything that
    is not a card is cut short and left as it is)."""
    if card not in FRENCH_52:
        return card[:4]
    rank, suit = split_card(card)
    return rank + SUIT_SYMBOLS[suit]


def sort_hand(cards) -> list:
    """A hand in display order: by suit (♠ ♥ ♣ ♦), high to low, the ace lowest; a fair
    table's sealed cards (unread on this device) after them, as they were."""
    cards = list(cards)
    return sort_cards([c for c in cards if not is_sealed(c)], DISPLAY_RANKS) + [c for c in cards if is_sealed(c)]


def combination_cards(hand: list, combination: dict) -> list:
    """The cards a player shows for his best combination (none for "nothing")."""
    if combination["kind"] == "mitsi":
        pair = combination["ranks"][1]
        return sort_hand([MITSI_CARD] + [c for c in hand if rank_of(c) == pair])
    return sort_hand([c for c in hand if rank_of(c) in combination["ranks"]])


# --- board notation -----------------------------------------------------------------------------
def format_pot(pot: list) -> str:
    """``0:1,2:2`` (owner:chips), ``-`` for an empty pot."""
    return ",".join(f"{seat}:{chips}" for seat, chips in enumerate(pot) if chips) or "-"


def format_board(boxes: dict) -> str:
    """Every box with its chips by owner: ``AH=0:1,2:1 10H=- ... BOG=0:2``."""
    return " ".join(f"{box}={format_pot(pot)}" for box, pot in boxes.items())


def parse_board(text: str, seats: int, board_ace: str = "AH") -> dict:
    """``format_board``'s text back into pots; every box of the board once, in any order."""
    names = (*BOARDS[board_ace], BOG)
    boxes = {}
    for item in text.split() if isinstance(text, str) else [None]:
        box, _, owners = (item or "").partition("=")
        if box not in names or box in boxes or not owners:
            _bad_record(f"cannot read the box {str(item)[:20]!r} (boxes: {' '.join(names)})")
        pot = new_pot(seats)
        for entry in [] if owners == "-" else owners.split(","):
            seat, _, chips = entry.partition(":")
            if not (seat.isdigit() and chips.isdigit()) or int(seat) >= seats or pot[int(seat)]:
                _bad_record(f"cannot read {entry!r} on {box} (owner:chips, seats 0-{seats - 1})")
            pot[int(seat)] = int(chips)
        boxes[box] = pot
    if set(boxes) != set(names):
        _bad_record(f"the board needs every box: {' '.join(names)}")
    return {box: boxes[box] for box in names}


def _bad_record(reason: str, line: int = 0):
    raise TabernaError(f"line {line}: {reason}" if line else reason, "bog.bad_record", line=line)


class Bog(FairCardGame, Game):
    id = "bog"
    min_seats = 3
    max_seats = 10
    options = OPTIONS
    hidden_information = True  # the other hands and the stock
    view_shape = VIEW_SHAPE
    keyed_moves = ("play", "exchange")  # a card from a sealed hand shown with its key (``kits.fair_cards``)
    fair_field_words = {
        **dict.fromkeys(("board", "stakes", "events", "last_deal", "earlier_deals"), "chips"),
        **dict.fromkeys(("order", "speaker", "legal", "min_stake"), "turn"),
        **dict.fromkeys(("deal", "showdown"), "round"),
        **dict.fromkeys(("stock", "turned", "discard", "run"), "cards"),
    }
    offence_words = {code: f"{code}.offence" for code in ("bog.false_pass", "bog.must_play", "bog.false_show")}
    penalty_words = "bog.penalty.fair"

    # --- seats in playing order ---------------------------------------------------------------
    @staticmethod
    def following(state: dict, seat: int, among=None) -> list:
        """Seats after ``seat`` in playing order, ``seat`` last, keeping those in ``among``
        (default: the players still in)."""
        n, step = state["seats"], play_step(state["options"])
        among = state["active"] if among is None else among
        return [s for s in ((seat + step * k) % n for k in range(1, n + 1)) if among[s]]

    @staticmethod
    def position(state: dict, seat: int) -> int:
        """``seat``'s place in playing order (the pure functions count ``s + 1`` as next);
        the same formula maps a position back to its seat."""
        return (seat * play_step(state["options"])) % state["seats"]

    def board(self, state: dict) -> tuple:
        return BOARDS[state["options"]["board_ace"]]

    # --- set-up --------------------------------------------------------------------------------
    def setup(self, options: dict, seats: int, rng: Rng) -> dict:
        state = self.blank_state(options, seats, options["start_chips"], rng.below(seats))
        self.begin_deal(state, *self.shuffle_deal(state, rng))
        return state

    def blank_state(self, options: dict, seats: int, chips, dealer: int) -> dict:
        """The table between deals: stacks, an empty board, nobody holding cards."""
        chips = [chips] * seats if isinstance(chips, int) else list(chips)
        return {
            "options": options,
            "seats": seats,
            "deal": 0,
            "dealer": dealer,
            "chips": chips,
            "active": [c > 0 for c in chips],
            "boxes": {box: new_pot(seats) for box in (*BOARDS[options["board_ace"]], BOG)},
            "cursor": 0,
            "deal_start": None,
            "antes": None,
            "size": 32,
            "hands": [[] for _ in range(seats)],
            "stock": [],
            "turned": None,
            "discard": None,
            "phase": "deal",
            "calls": [None] * seats,
            "stakes": new_pot(seats),
            "speaker": None,
            "showdown": None,
            "run": None,
            "events": [],
            "log": [],
            "last_deal": None,
            "earlier_deals": [],
            "result": None,
        }

    def shuffle_deal(self, state: dict, rng: Rng) -> tuple:
        """``(hands by seat, stock top first)`` for the next deal, from the table's Rng."""
        players = self.following(state, state["dealer"])
        size, each, _ = deal_plan(max(3, len(players)), state["options"]["four_players"])
        dealt = deal(shuffled(DECKS[size], rng), len(players), each, packets=2)
        hands = [[] for _ in range(state["seats"])]
        for seat, hand in zip(players, dealt.hands, strict=True):
            hands[seat] = hand
        return hands, dealt.stock

    def begin_deal(self, state: dict, hands: list, stock: list) -> None:
        """Antes, the cards (as given), the turned-up card and the dealer's collection."""
        self._pay_antes(state)
        self._lay_cards(state, [sort_hand(hand) for hand in hands], stock[0] if stock else None, sort_hand(stock[1:]))

    def _pay_antes(self, state: dict) -> None:
        """A deal begins: the antes, and nothing dealt yet."""
        options, chips, boxes = state["options"], state["chips"], state["boxes"]
        dealer, players = state["dealer"], self.following(state, state["dealer"])
        state["deal"] += 1
        state["deal_start"] = {"chips": list(chips), "boxes": copy_json(boxes), "cursor": state["cursor"]}
        state["events"] = []
        state["log"] = []
        card_boxes = self.board(state)
        antes = {box: new_pot(state["seats"]) for box in card_boxes}
        for seat in players:
            if options["antes"] == "rotation":
                targets = [card_boxes[(state["cursor"] + k) % len(card_boxes)] for k in range(ANTE)]
                state["cursor"] = (state["cursor"] + ANTE) % len(card_boxes)
            else:
                targets = card_boxes
            paid = sum(stake(chips, antes[box], seat, 1) for box in targets)
            if seat == dealer:
                paid += stake(chips, boxes[BOG], seat, DEALER_ANTE)
            state["events"].append({"event": "ante", "seat": seat, "chips": paid})
        for box, pot in antes.items():
            boxes[box] = [a + b for a, b in zip(boxes[box], pot, strict=True)]
        state["antes"] = antes
        state["size"] = deal_plan(max(3, len(players)), options["four_players"])[0]
        state["hands"] = [[] for _ in range(state["seats"])]
        state["turned"] = state["discard"] = None
        state["stock"] = []
        state["calls"] = [None] * state["seats"]
        state["stakes"] = new_pot(state["seats"])
        state["showdown"] = state["run"] = None

    def _lay_cards(self, state: dict, hands: list, turned, stock: list) -> None:
        """The cards dealt: the hands, the turned-up card, the stock; the dealer's collection."""
        state["hands"], state["turned"], state["stock"] = hands, turned, stock
        if state["options"]["dealer_collects"] == "turned":
            self._dealer_collects(state, state["turned"])
        if state["turned"]:
            state["phase"], state["speaker"] = "exchange", None
        else:
            self.open_bogging(state)

    def open_bogging(self, state: dict) -> None:
        state["phase"] = "bog"
        state["speaker"] = self.following(state, state["dealer"])[0]

    # --- queries -------------------------------------------------------------------------------
    def to_act(self, state: dict) -> list:
        phase = state["phase"]
        dealing = self.deal_to_act(state)
        if dealing is not None:
            return dealing
        if phase == "exchange":
            return [state["dealer"]]
        if phase == "bog":
            return [state["speaker"]]
        if phase == "show":
            return [self._shower(state)]
        if phase == "run":
            return [self.run_turn(state)["player"]]
        return []

    def min_stake(self, state: dict) -> int:
        """The least a bogger may stake now."""
        if state["options"]["stake_rule"] == "raise":
            return max(MIN_STAKE, max(state["stakes"]) + 1)
        return MIN_STAKE

    def stake_choices(self, state: dict, seat: int) -> list:
        """A representative set of legal stakes (any amount from the least to the stack is
        legal): the least, one more, double, and everything."""
        low, have = self.min_stake(state), state["chips"][seat]
        return sorted({c for c in (low, low + 1, 2 * low, have) if low <= c <= have})

    def legal_actions(self, state: dict, seat) -> list:
        if self.is_over(state) or seat not in self.to_act(state) or fair.fair_phase(state):
            return []
        phase = state["phase"]
        if phase == "bog":
            return [{"type": "bog", "chips": c} for c in self.stake_choices(state, seat)] + [{"type": "out"}]
        hand = state["hands"][seat]
        if any(is_sealed(card) for card in hand):  # read only on its holder's device
            return []
        if phase == "exchange":
            return [{"type": "decline"}] + [{"type": "exchange", "card": card} for card in hand]
        if phase == "show":
            return [{"type": "show", "cards": [{"card": card} for card in _best_cards(hand)]}]
        turn = self.run_turn(state)
        if turn.get("ask") is not None and not turn["legal"]:
            return [{"type": "pass"}]
        return [{"type": "play", "card": card} for card in turn["legal"]]

    def run_turn(self, state: dict) -> dict:
        """Who plays, which cards, the winner: ``combos.phase2_turn`` for this table, or at
        a fair table what the public record tells (``_fair_turn``)."""
        if "fair" in state:
            return self._fair_turn(state)
        return self._rules_turn(state)

    def _rules_turn(self, state: dict) -> dict:
        """``combos.phase2_turn`` for this table, from every hand."""
        run, n = state["run"], state["seats"]
        by_position = [None] * n
        for seat in range(n):
            if run["players"][seat]:
                by_position[self.position(state, seat)] = state["hands"][seat]
        last = run["played"][-1] if run["played"] else None
        if last is not None:
            last = (self.position(state, last[0]), last[1])
        turn = phase2_turn(by_position, last, self.position(state, run["leader"]), state["size"],
                           state["options"]["change_suit"])
        for key in ("player", "winner"):
            if turn[key] is not None:
                turn[key] = self.position(state, turn[key])
        return turn

    # --- moves ---------------------------------------------------------------------------------
    def play(self, state: dict, seat: int, kind: str, action: dict, rng: Rng) -> None:
        """The move table's move, then the deal's log (unless it started the next deal)."""
        deal = state["deal"]
        super().play(state, seat, kind, action, rng)
        if state["deal"] == deal and kind not in fair_cards.MOVES:  # the deal's last card starts the next deal
            state["log"].append([seat, self.action_text(action)])

    def _act_decline(self, state, seat, action, rng):
        state["events"].append({"event": "decline", "seat": seat, "card": state["turned"]})
        self.open_bogging(state)

    def _act_exchange(self, state, seat, action, rng):
        self._unseal(state, seat, action)
        card = _held_card(state, seat, action)
        hand = state["hands"][seat]
        hand.remove(card)
        state["hands"][seat] = sort_hand(hand + [state["turned"]])
        state["discard"] = card
        state["events"].append({"event": "exchange", "seat": seat, "card": state["turned"], "discard": card})
        if state["options"]["dealer_collects"] == "discard":
            self._dealer_collects(state, card)
        self.open_bogging(state)

    def _dealer_collects(self, state: dict, card) -> None:
        """The dealer takes the box of ``card`` when it is a board card (see the docstring)."""
        if card in self.board(state):
            won = collect(state["chips"], state["boxes"][card], state["dealer"])
            state["events"].append({"event": "collect", "seat": state["dealer"], "box": card, "chips": won})

    def _act_bog(self, state, seat, action, rng):
        chips = action["chips"]
        low, have = self.min_stake(state), state["chips"][seat]
        if chips < low:
            raise IllegalAction(f"Bog with at least {low} chips", "bog.stake_low", count=low)
        if chips > have:
            raise IllegalAction(f"You have only {have} chips", "bog.stake_short", count=have)
        stake(state["chips"], state["stakes"], seat, chips)
        state["calls"][seat] = "bog"
        state["events"].append({"event": "bog", "seat": seat, "chips": chips})
        self._next_speaker(state, seat, rng)

    def _act_out(self, state, seat, action, rng):
        paid = stake(state["chips"], state["boxes"][BOG], seat, GOING_OUT)
        state["calls"][seat] = "out"
        state["events"].append({"event": "out", "seat": seat, "chips": paid})
        self._next_speaker(state, seat, rng)

    def _act_play(self, state, seat, action, rng):
        turn = self.run_turn(state)
        self._unseal(state, seat, action)
        card = _held_card(state, seat, action)
        legal, asked = turn["legal"], turn.get("ask")
        if asked is not None and card != asked and suit_of(card) != asked:
            raise IllegalAction(f"Play {printed_card(asked)} or pass", "bog.must_play",
                                card=printed_card(card), cards=printed_card(asked))
        if legal is not None and card not in legal:
            raise IllegalAction(f"You must play {' or '.join(legal)}", "bog.must_play",
                                card=printed_card(card), cards=" ".join(map(printed_card, legal)))
        state["hands"][seat].remove(card)
        state["run"]["played"].append([seat, card])
        if card in self.board(state):
            won = collect(state["chips"], state["boxes"][card], seat)
            state["events"].append({"event": "collect", "seat": seat, "box": card, "chips": won})
        winner = self.run_turn(state)["winner"]
        if winner is None:
            return
        if "fair" in state:  # who pays for a board card left in hand waits for the hands' check
            state["fair"]["step"] = "reveal"
            return
        self._settle_run(state, winner)
        self._end_deal(state, rng)

    def _act_pass(self, state, seat, action, rng):
        asked = self.run_turn(state).get("ask")
        if asked is None:
            raise IllegalAction("Nobody is asked for a card now", "bog.cannot_pass")
        state["run"]["asked"].append([seat, asked, len(state["run"]["played"])])

    def _act_show(self, state, seat, action, rng):
        shown = action["cards"]
        for item in shown:
            self._unseal(state, seat, item)
        cards = [_held_card(state, seat, item) for item in shown]
        if len(set(cards)) != len(cards) or _best_cards(cards) != sort_hand(cards):
            raise IllegalAction("Show the cards of one combination", "bog.not_a_combination")
        state["showdown"]["shown"][seat] = {**best_combination(cards), "cards": sort_hand(cards)}
        if self._shower(state) is None:
            self._close_bogging(state, [shown["cards"] if shown else [] for shown in state["showdown"]["shown"]], rng)

    def _unseal(self, state: dict, seat: int, action: dict) -> None:
        """At a fair table, a sealed card shown comes with its key (``kits.fair_cards.play_sealed``)."""
        if "fair" in state and action["card"] not in state["hands"][seat]:
            fair_cards.play_sealed(state["fair"], seat, state["hands"][seat], action, self.fair_cards(state))

    moves = {
        "decline": Move(_act_decline, phases=("exchange",)),
        "exchange": Move(_act_exchange, Dict({"card": CARD}, optional=fair_cards.PLAY_FIELDS), phases=("exchange",)),
        "bog": Move(_act_bog, Dict({"chips": Int(1, MAX_STAKE)}), phases=("bog",)),
        "out": Move(_act_out, phases=("bog",)),
        "play": Move(_act_play, Dict({"card": CARD}, optional=fair_cards.PLAY_FIELDS), phases=("run",)),
        "pass": Move(_act_pass, phases=("run",)),
        "show": Move(_act_show, Dict({"cards": List(SHOWN_CARD, MAX_HAND)}), phases=("show",)),
        **fair_cards.MOVES,
    }

    # --- phase 1 -------------------------------------------------------------------------------
    def _next_speaker(self, state: dict, seat: int, rng: Rng) -> None:
        if seat != state["dealer"]:
            state["speaker"] = self.following(state, seat)[0]
            return
        state["speaker"] = None
        boggers = [s for s in range(state["seats"]) if state["calls"][s] == "bog"]
        if "fair" in state and len(boggers) >= 2:  # each shows his combination, with its keys
            state["phase"] = "show"
            state["showdown"] = {"boggers": boggers, "winner": None, "shown": [None] * state["seats"]}
            return
        unseen = [[] for _ in state["hands"]]  # at a fair table nobody shows: no one or a lone bogger
        self._close_bogging(state, unseen if "fair" in state else state["hands"], rng)

    def _shower(self, state: dict):
        """The next bogger to show his combination at a fair table (``None``: all have)."""
        showdown = state["showdown"]
        return next((s for s in showdown["boggers"] if showdown["shown"][s] is None), None)

    def _close_bogging(self, state: dict, hands: list, rng: Rng) -> None:
        """Phase 1 closes on ``hands`` (every hand, or at a fair table the cards shown)."""
        self._showdown(state, hands)
        if state["run"] is None:
            self._deal_over(state, rng)

    def _deal_over(self, state: dict, rng: Rng) -> None:
        """At a fair table the hands are checked first (``fair_settle`` ends the deal)."""
        if "fair" in state:
            state["fair"]["step"] = "reveal"
        else:
            self._end_deal(state, rng)

    def _showdown(self, state: dict, held: list) -> None:
        """Phase 1 closes: the best combination in ``held`` takes BOG and the stakes; the run opens."""
        n, options = state["seats"], state["options"]
        boggers = [s for s in range(n) if state["calls"][s] == "bog"]
        hands = [[] for _ in range(n)]
        for seat in boggers:
            hands[self.position(state, seat)] = held[seat]
        winner = phase1_winner(hands, [self.position(state, s) for s in boggers],
                               self.position(state, state["dealer"]))
        winner = None if winner is None else self.position(state, winner)
        shown = [None] * n
        if len(boggers) >= 2:
            for seat in boggers:
                combination = best_combination(held[seat])
                shown[seat] = {**combination, "cards": combination_cards(held[seat], combination)}
        if winner is not None:
            won = collect(state["chips"], state["boxes"][BOG], winner) + collect(state["chips"], state["stakes"], winner)
            state["events"].append({"event": "bog_win", "seat": winner, "chips": won})
        else:
            for seat in boggers:
                back, state["stakes"][seat] = state["stakes"][seat], 0
                state["chips"][seat] += back
                state["events"].append({"event": "stake_back", "seat": seat, "chips": back})
        state["showdown"] = {"boggers": boggers, "winner": winner, "shown": shown}
        players = [state["active"][s] and (options["run_players"] == "all" or s in boggers) for s in range(n)]
        if not any(players):
            return
        if options["leader"] == "bog_winner" and winner is not None and players[winner]:
            leader = winner
        else:
            leader = self.following(state, state["dealer"], players)[0]
        state["run"] = {"players": players, "leader": leader, "played": []}
        if "fair" in state:
            state["run"]["asked"] = []  # [seat, card or suit, cards played before]: who said "not I"
        state["phase"] = "run"

    # --- phase 2 settlement, end of a deal ----------------------------------------------------------
    def _settle_run(self, state: dict, winner: int) -> None:
        chips, hands, run = state["chips"], state["hands"], state["run"]
        state["events"].append({"event": "first_out", "seat": winner})
        losers = self.following(state, winner, run["players"])[:-1]
        for seat in losers:
            paid = pay(chips, seat, winner, len(hands[seat]))
            state["events"].append({"event": "pay", "seat": seat, "to": winner, "cards": len(hands[seat]), "chips": paid})
        order = self.following(state, state["dealer"], [True] * state["seats"])
        for box in self.board(state):
            holder = next((s for s in losers if box in hands[s]), None)
            if holder is None:
                continue
            pot = state["boxes"][box]
            owed = sum(pot)
            if state["options"]["penalty"] == "box":
                paid = stake(chips, pot, holder, owed)
                to = None
            else:
                weights = state["antes"][box] if any(state["antes"][box]) else list(pot)
                paid = min(owed, chips[holder])
                chips[holder] -= paid
                shares = share_out(paid, weights, order)
                for seat, share in enumerate(shares):
                    chips[seat] += share
                to = [s for s in order if shares[s]]
            state["events"].append({"event": "penalty", "seat": holder, "box": box, "chips": paid, "to": to})

    def _end_deal(self, state: dict, rng: Rng) -> None:
        """The summary, departures, then the next deal or the end of the game."""
        n = state["seats"]
        start = state["deal_start"]["chips"]
        run = state["run"]
        if state["last_deal"] is not None:
            state["earlier_deals"] = ([state["last_deal"]] + state["earlier_deals"])[:KEPT_DEALS]
        state["last_deal"] = {
            "deal": state["deal"],
            "dealer": state["dealer"],
            "events": state["events"],
            "net": [state["chips"][s] - start[s] for s in range(n)],
            "bog_winner": state["showdown"]["winner"] if state["showdown"] else None,
            "run_winner": next((e["seat"] for e in state["events"] if e["event"] == "first_out"), None),
            "cards_left": [len(state["hands"][s]) if run and run["players"][s] else None for s in range(n)],
        }
        for seat in range(n):
            if state["active"][seat] and state["chips"][seat] == 0:
                state["active"][seat] = False
                state["last_deal"]["events"].append({"event": "leave", "seat": seat})
        players_left = sum(state["active"])
        limit = state["options"]["deals"]
        if (limit and state["deal"] >= limit) or players_left <= state["options"]["survivors"]:
            self._finish(state, "deals" if limit and state["deal"] >= limit else "broke")
            return
        state["dealer"] = self.following(state, state["dealer"])[0]
        if "fair" in state:
            self._deal_fairly(state)
        else:
            self.begin_deal(state, *self.shuffle_deal(state, rng))

    def _finish(self, state: dict, reason: str) -> None:
        chips = state["chips"]
        best = max(chips)
        if best > 0:
            winners = [s for s in range(state["seats"]) if chips[s] == best]
        else:
            winners = [s for s in range(state["seats"]) if state["deal_start"]["chips"][s] > 0]
        state.update(phase="over", hands=[[] for _ in chips], stock=[], turned=None, discard=None,
                     speaker=None, run=None, showdown=None, events=[])
        state["result"] = {"winners": winners, "chips": list(chips), "reason": reason, "deals": state["deal"]}

    # --- a fair table's deal (``kits.fair_cards``) ----------------------------------------------------
    def fair_possible(self, options: dict, seats: int) -> bool:
        return fair_cards.group_ready()

    def make_fair(self, state: dict, fair_id: str) -> dict:
        """No card from the generator: the first dealer is drawn from a generator seeded by
        the table's fair id (the same on every device), the first deal dealt fairly."""
        n, options = state["seats"], state["options"]
        dealer = Rng(int(hashlib.sha256(fair_id.encode()).hexdigest(), 16) % (1 << 53)).below(n)
        fresh = {**self.blank_state(options, n, options["start_chips"], dealer), "rng": copy_json(state["rng"])}
        fresh["fair"] = fair_cards.start(fair_id, self.fair_players(fresh), (), (), n=0)
        self._deal_fairly(fresh)
        return fresh

    def _deal_fairly(self, state: dict) -> None:
        """The antes, then the devices deal (``kits.fair_cards``); ``fair_dealt`` lays the cards."""
        self._pay_antes(state)
        state["phase"] = "deal"
        self.start_deal(state)

    def fair_players(self, state: dict) -> list:
        return [seat for seat in range(state["seats"]) if state["active"][seat]]

    def fair_cards(self, state: dict) -> tuple:
        return DECKS[state["size"]].cards

    def fair_holders(self, state: dict) -> list:
        """Position ``j`` of the shuffled deck goes where ``shuffle_deal`` deals the card at
        ``j``: the hands in twos, then the stock, whose top card is turned up (``UP``)."""
        players = self.following(state, state["dealer"])
        size, each, _ = deal_plan(max(3, len(players)), state["options"]["four_players"])
        dealt = deal(list(range(size)), len(players), each, packets=2)
        holders = [None] * size
        for seat, hand in zip(players, dealt.hands, strict=True):
            for j in hand:
                holders[j] = seat
        if dealt.stock:
            holders[dealt.stock[0]] = UP
        return holders

    def fair_dealt(self, state: dict) -> None:
        """The keys are out: each hand sealed, the turned-up card read by every device."""
        record = state["fair"]
        holders = record["holders"]
        hands = [[sealed(j) for j, holder in enumerate(holders) if holder == seat] for seat in range(state["seats"])]
        stock = [sealed(j) for j, holder in enumerate(holders) if holder is None]
        up = [j for j, holder in enumerate(holders) if holder == UP]
        turned = fair_cards.open_public(record, up, self.fair_cards(state))[0] if up else None
        if up and turned is None:  # a released key is wrong: the check names whose
            record["step"] = "reveal"
            return
        self._lay_cards(state, hands, turned, stock)

    def sort_hand(self, state: dict, cards) -> list:
        return sort_hand(cards)

    def with_own_cup(self, state: dict, seat: int, held: dict) -> dict:
        """The seat's hand read, the public hands kept for whose turn it is (``_fair_turn``)."""
        filled = super().with_own_cup(state, seat, held)
        return filled if filled is state else {**filled, "public_hands": state["hands"]}

    def fair_duty(self, state: dict, seat: int, held: dict):
        """Besides the deal's steps, the device does the forced moves at once: a bogger's
        showing of his best combination, a "not I" when asked for a card it does not hold."""
        due = super().fair_duty(state, seat, held)
        if due is not None or state["fair"]["step"] != "play" or state["phase"] not in ("show", "run"):
            return due
        if seat not in self.to_act(state):
            return None
        legal = self.legal_actions(self.with_own_cup(state, seat, held), seat)
        if len(legal) == 1 and legal[0]["type"] in ("show", "pass"):
            return self.fair_complete(state, seat, legal[0], held)
        return None

    def fair_complete(self, state: dict, seat: int, action: dict, held: dict) -> dict:
        if "fair" in state and action.get("type") == "show":
            return {**action, "cards": [self.with_key(state, seat, item, held) for item in action["cards"]]}
        return super().fair_complete(state, seat, action, held)

    def _fair_turn(self, state: dict) -> dict:
        """``run_turn`` from what the public record tells. The holder of the next card of
        the run is known only to his own device, so the players taking part are asked in
        turn, the last player first, until one plays it or all say "not I" (``ask``: the card;
        a "not I" is checked at the end). Likewise with ``change_suit="all_void"`` for the
        suit. ``legal`` is ``None`` where it depends on a hand this state holds sealed. Who
        plays is read from the public hands only (``with_own_cup`` keeps them), so that a
        device that reads its own hand sees the same turn as every other."""
        run, hands = state["run"], state["hands"]
        public = state.get("public_hands", hands)
        played = run["played"]
        if not played:
            return _turn(run["leader"], _readable(hands[run["leader"]]))
        seat, card = played[-1]
        if not hands[seat]:
            return {"player": None, "legal": [], "winner": seat, "ask": None}
        if rank_of(card) == "K":
            return _turn(seat, _readable(hands[seat]))
        following, suit = next_in_suit(card, state["size"]), suit_of(card)
        order = [seat] + self.following(state, seat, run["players"])[:-1]
        said = [[s, asked] for s, asked, before in run["asked"] if before == len(played)]
        holder = next((s for s in order if following in public[s]), None)
        if holder is not None:
            return _turn(holder, [following])
        dead = {c for _, c in played} | {state["discard"] or state["turned"]}
        if following not in dead:
            for s in order:
                if any(map(is_sealed, public[s])) and [s, following] not in said:
                    return _turn(s, _readable(hands[s], lambda c: c == following), following)
        if state["options"]["change_suit"] == "all_void":
            for s in order:
                known = any(suit_of(c) == suit for c in public[s] if not is_sealed(c))
                if [s, suit] not in said and (known or any(map(is_sealed, public[s]))):
                    return _turn(s, _readable(hands[s], lambda c: suit_of(c) == suit), None if known else suit)
            return _turn(seat, _readable(hands[seat]))
        of_suit = _readable(hands[seat], lambda c: suit_of(c) == suit)
        return _turn(seat, of_suit or _readable(hands[seat]))

    def fair_offence(self, state: dict, hands: dict, dealt: list):
        """The deal replayed against the dealt ``hands``: a bogger who did not show his best
        combination (``bog.false_show``), a "not I" from a seat that held the card or suit
        asked for (``bog.false_pass``, with the card held and the number of the run's card
        it was asked for), a card played against the run's rule (``bog.must_play``, with its
        number). With none, ``state["hands"]`` become the hands as they are, for the settlement."""
        held = [list(hands.get(seat, [])) for seat in range(state["seats"])]
        if state["discard"] is not None:
            held[state["dealer"]].remove(state["discard"])
            held[state["dealer"]].append(state["turned"])
        for seat, shown in enumerate((state["showdown"] or {}).get("shown") or []):
            if shown is not None and shown["cards"] != _best_cards(held[seat]):
                return {"code": "bog.false_show", "seat": seat}
        run = state["run"]
        for number, (seat, card) in enumerate(run["played"] if run else [], start=1):
            offence = self._false_pass(run, held, number)
            if offence is not None:
                return offence
            turn = self._rules_turn({**state, "hands": held, "run": {**run, "played": run["played"][:number - 1]}})
            if turn["player"] != seat or card not in turn["legal"]:
                return {"code": "bog.must_play", "seat": seat, "trick": number, "card": card}
            held[seat].remove(card)
        state["hands"] = [sort_hand(hand) for hand in held]
        return None

    @staticmethod
    def _false_pass(run: dict, held: list, number: int):
        """The first "not I" said before the run's card ``number`` by a seat holding what it was asked for."""
        for seat, asked, before in run["asked"]:
            hiding = [c for c in held[seat] if c == asked or suit_of(c) == asked]
            if before == number - 1 and hiding:
                return {"code": "bog.false_pass", "seat": seat, "trick": number, "card": hiding[0]}
        return None

    def fair_settle(self, state: dict, verdict, rng: Rng) -> None:
        """The deal stands as played (the run's settlement waited for the hands), or, on an
        offence, nothing of it stands and the offender pays (see the module docstring)."""
        if verdict is not None:
            self._annul(state)
            self._offender_pays(state, verdict["seat"])
        elif state["run"] is not None:
            self._settle_run(state, state["run"]["played"][-1][0])
        self._end_deal(state, rng)

    def _annul(self, state: dict) -> None:
        """Stacks, board and antes' rotation back to how they were before this deal."""
        start = state["deal_start"]
        state.update(chips=list(start["chips"]), boxes=copy_json(start["boxes"]), cursor=start["cursor"], events=[],
                     showdown=None, run=None)

    def _offender_pays(self, state: dict, offender: int) -> None:
        """Every other player in the deal is paid a hand's worth of cards, as a first out is
        by someone who has played none."""
        players = self.following(state, state["dealer"])
        each = deal_plan(max(3, len(players)), state["options"]["four_players"])[1]
        for seat in self.following(state, offender)[:-1]:
            paid = pay(state["chips"], offender, seat, each)
            state["events"].append({"event": "pay", "seat": offender, "to": seat, "cards": each, "chips": paid})

    def fair_void(self, state: dict, rng: Rng) -> None:
        """A device left before the end: the deal is undone and the same dealer deals again."""
        self._annul(state)
        state["deal"] -= 1
        self._deal_fairly(state)

    # --- seeing -------------------------------------------------------------------------------------
    def view(self, state: dict, seat) -> dict:
        """The table as ``seat`` sees it (``None``: a spectator): his own hand only, the
        others' card counts; never the stock's cards, nor the Rng. A fair table's deal as every
        view shows it (``kits.fair_cards.public``): the shell's deal screen and verdict read it."""
        n = state["seats"]
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise IllegalAction(f"No seat {seat!r} at this table", "bog.bad_seat")
        run = state["run"]
        return {
            "game": self.id,
            "you": seat,
            "seats": n,
            "options": copy_json(state["options"]),
            "deal": state["deal"],
            "dealer": state["dealer"],
            "phase": state["phase"],
            "order": self.following(state, state["dealer"]),
            "active": list(state["active"]),
            "chips": list(state["chips"]),
            "board": [{"box": box, "chips": sum(pot), "by": list(pot)} for box, pot in state["boxes"].items()],
            "hand": None if seat is None else list(state["hands"][seat]),
            "counts": [len(hand) for hand in state["hands"]],
            "stock": len(state["stock"]),
            "turned": state["turned"],
            "discard": state["discard"],
            "calls": list(state["calls"]),
            "stakes": list(state["stakes"]),
            "speaker": state["speaker"],
            "min_stake": self.min_stake(state) if state["phase"] == "bog" else None,
            "showdown": copy_json(state["showdown"]),
            "run": None if run is None else self._run_view(state),
            "to_act": self.to_act(state),
            "legal": self.legal_actions(state, seat) if seat is not None else [],
            "events": copy_json(state["events"]),
            "last_deal": copy_json(state["last_deal"]),
            "earlier_deals": copy_json(state["earlier_deals"]),
            "result": copy_json(state["result"]),
            **({"fair": fair_cards.public(state["fair"])} if "fair" in state else {}),
        }

    def _run_view(self, state: dict) -> dict:
        run = state["run"]
        suits = {suit: [] for suit in FRENCH_DISPLAY_SUITS}
        for _, card in run["played"]:
            suits[suit_of(card)].append(card)
        last = run["played"][-1] if run["played"] else None
        expected = next_in_suit(last[1], state["size"]) if last else None
        asked = self.run_turn(state).get("ask") if "fair" in state else None
        return {
            "players": list(run["players"]),
            "leader": run["leader"],
            "played": copy_json(run["played"]),
            "suits": suits,
            "last": list(last) if last else None,
            "expected": expected,
            **({"ask": asked} if asked is not None else {}),
        }

    def resample(self, state: dict, seat, rng) -> dict:
        """A copy of ``state`` with everything ``seat`` cannot see (other hands, the stock,
        the Rng's seed) redrawn consistently with what it can see (see ``unseen.py``)."""
        rng = rng if isinstance(rng, Rng) else Rng(rng)
        result = copy_json(state)
        if state["phase"] in ("exchange", "bog", "run"):
            player = self.run_turn(state)["player"] if state["phase"] == "run" else None
            self._redraw_hidden(result, seat, rng, player)
        return super().resample(result, seat, rng)

    @staticmethod
    def _redraw_hidden(state: dict, seat, rng: Rng, player) -> None:
        """Redraws in ``state`` the hands and stock ``seat`` cannot see (``unseen.py``; ``player``
        plays next in the run), sorted as a deal is: what ``resample`` and ``state_from_view`` share."""
        hands, stock = resample_hidden(state, seat, rng, player)
        state["hands"] = [sort_hand(hand) for hand in hands]
        state["stock"] = sort_hand(stock)

    def has_secrets(self, state: dict, seat) -> bool:
        player = self.run_turn(state)["player"] if state["phase"] == "run" else None
        return has_unseen(state, seat, player)

    def state_from_view(self, view: dict, rng: Rng) -> dict:
        """A full state that ``view`` (a seat's, during a deal) may have come from: all it
        shows kept, every hidden card drawn as ``resample`` draws them. Bots search such
        states (they get views only). A view leaves out three things, rebuilt here: the deck
        size (from the players), each stack at the deal's start (its events, undone), and
        which boxes each player anted (the first rotation start that fits the board; this
        matters only to ``penalty="stakers"``). The log is empty, the board at the deal's
        start (read only by ``format_deal``) is the board now, and the Rng is drawn anew."""
        if view.get("phase") not in ("exchange", "bog", "run") or view.get("you") is None:
            raise ValueError("a seat's view during a deal is needed")
        n, seat, options = view["seats"], view["you"], copy_json(view["options"])
        players = list(view["order"])
        start = list(view["chips"])
        for event in view["events"]:
            moved = event.get("chips", 0)
            if event["event"] in ("ante", "bog", "out"):
                start[event["seat"]] += moved
            elif event["event"] in ("collect", "bog_win", "stake_back"):
                start[event["seat"]] -= moved
        state = self.blank_state(options, n, start, view["dealer"])
        state["deal"] = view["deal"]
        boxes = {item["box"]: list(item["by"]) for item in view["board"]}
        antes, cursor = self._antes_fitting(state, start, players, boxes, view["events"])
        run = view["run"]
        state.update(
            chips=list(view["chips"]), active=list(view["active"]), boxes=boxes,
            cursor=cursor, antes=antes, phase=view["phase"], turned=view["turned"], discard=view["discard"],
            calls=list(view["calls"]), stakes=list(view["stakes"]), speaker=view["speaker"],
            showdown=copy_json(view["showdown"]), events=copy_json(view["events"]),
            last_deal=copy_json(view["last_deal"]), earlier_deals=copy_json(view["earlier_deals"]),
            size=deal_plan(max(3, len(players)), options["four_players"])[0],
            run=None if run is None else {"players": list(run["players"]), "leader": run["leader"],
                                          "played": copy_json(run["played"])},
            deal_start={"chips": start, "boxes": copy_json(boxes), "cursor": state["cursor"]},
        )
        state["hands"] = [list(view["hand"]) if s == seat else [None] * view["counts"][s] for s in range(n)]
        state["stock"] = [None] * view["stock"]
        self._redraw_hidden(state, seat, rng, view["to_act"][0] if view["phase"] == "run" else None)
        state["rng"] = fresh_rng_state(rng)
        return state

    def _antes_fitting(self, state: dict, chips: list, players: list, boxes: dict, events: list) -> tuple:
        """``(antes by box, cursor after them)`` for this deal, replaying ``begin_deal``'s
        antes (from the stacks ``chips`` at the deal's start) from each possible rotation
        start until every ante fits the chips on the board by owner (boxes collected this
        deal excepted); the last start tried if none does. The first start tried is where
        the rotation stands if every deal so far had as many players as this one."""
        card_boxes = self.board(state)
        emptied = {event["box"] for event in events if event["event"] == "collect"}
        guess = ANTE * len(players) * (state["deal"] - 1)
        starts = [(guess + k) % len(card_boxes) for k in range(len(card_boxes))]
        if state["options"]["antes"] != "rotation":
            starts = [0]
        for first in starts:
            left, cursor = list(chips), first
            antes = {box: new_pot(state["seats"]) for box in card_boxes}
            for seat in players:
                if state["options"]["antes"] == "rotation":
                    targets = [card_boxes[(cursor + k) % len(card_boxes)] for k in range(ANTE)]
                    cursor = (cursor + ANTE) % len(card_boxes)
                else:
                    targets = card_boxes
                for box in targets:
                    stake(left, antes[box], seat, 1)
            if all(antes[box][s] <= boxes[box][s] for box in card_boxes if box not in emptied for s in players):
                return antes, cursor
        return antes, cursor

    # --- notation -------------------------------------------------------------------------------
    def action_text(self, action: dict) -> str:
        """``exchange 9H``, ``decline``, ``bog 3``, ``out``, ``play 9H``."""
        kind = action["type"]
        if kind in ("exchange", "play"):
            return f"{kind} {action['card']}"
        if kind == "bog":
            return f"bog {action['chips']}"
        return kind

    def parse_action(self, text: str) -> dict:
        words = text.split() if isinstance(text, str) else []
        kind, args = (words[0].lower(), words[1:]) if words else ("", [])
        if kind in ("exchange", "play") and len(args) == 1 and args[0] in FRENCH_52:
            return {"type": kind, "card": args[0]}
        if kind == "bog" and len(args) == 1 and args[0].isdigit() and len(args[0]) < 10:
            return {"type": "bog", "chips": int(args[0])}
        if kind in ("decline", "out") and not args:
            return {"type": kind}
        raise IllegalAction(f"Cannot read the action {str(text)[:40]!r}", "bog.notation")

    def format_deal(self, state: dict) -> str:
        """The current deal's record: the table before the antes, the cards as dealt, and
        the actions so far. ``replay_deal`` reads it back into the same state::

            players 4
            options antes=every_box         (the options that differ from the defaults)
            deal 3
            dealer 0
            chips 30 28 0 41                (stacks before the antes; 0: has left the table)
            board AH=0:1 10H=- JC=- QS=1:2 KD=- BOG=0:2
            cursor 2                        (the card box the rotating antes start on)
            hand 1: KS 9S AH 8C             (one line per player in the deal)
            stock 10H 7C ...                (top first: the first card is turned up)
            rng 12345 7                     (optional: the table's generator, for later deals)
            1: bog 3                        (the actions, one per line: seat, action)
        """
        start, n = state["deal_start"], state["seats"]
        if start is None or state["phase"] == "over":
            raise TabernaError("There is no deal in progress", "bog.bad_record", line=0)
        dealt = [list(hand) for hand in state["hands"]]
        for seat, card in state["run"]["played"] if state["run"] else []:
            dealt[seat].append(card)
        if state["discard"] is not None:
            dealer_hand = dealt[state["dealer"]]
            dealer_hand.remove(state["turned"])
            dealer_hand.append(state["discard"])
        changed = {k: v for k, v in state["options"].items() if v != OPTIONS[k].default}
        lines = [f"players {n}"]
        if changed:
            lines.append("options " + " ".join(f"{k}={v}" for k, v in changed.items()))
        lines += [
            f"deal {state['deal']}",
            f"dealer {state['dealer']}",
            "chips " + " ".join(str(c) for c in start["chips"]),
            "board " + format_board(start["boxes"]),
            f"cursor {start['cursor']}",
        ]
        lines += [f"hand {s}: {format_cards(sort_hand(dealt[s]))}" for s in range(n) if start["chips"][s] > 0]
        stock = ([state["turned"]] if state["turned"] else []) + state["stock"]
        lines.append(f"stock {format_cards(stock)}")
        lines.append(f"rng {state['rng']['seed']} {state['rng']['counter']}")
        lines += [f"{seat}: {text}" for seat, text in state["log"]]
        return "\n".join(lines) + "\n"

    def parse_deal(self, text: str) -> dict:
        """A deal's record (``format_deal``) as a plain dict; ``#`` starts a comment. Cards
        must be the deal's deck exactly; deck cards the stock line leaves out are added
        below the cards it lists (their order never matters)."""
        if not isinstance(text, str):
            _bad_record("a deal record is text")
        record = {"options": {}, "deal": 1, "cursor": 0, "board": None, "hands": {}, "stock": None,
                  "rng": [0, 0], "actions": []}
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            key, _, rest = line.partition(" ")
            try:
                self._record_line(record, key, rest.strip())
            except (TabernaError, ValueError) as error:
                reason = getattr(error, "reason", str(error))
                _bad_record(reason.removeprefix("line 0: "), number)
        for key in ("players", "dealer", "chips"):
            if key not in record:
                _bad_record(f"the record has no {key} line")
        return self._checked_record(record)

    def _record_line(self, record: dict, key: str, rest: str) -> None:
        if key.endswith(":") and key[:-1].isdigit():
            record["actions"].append([int(key[:-1]), self.parse_action(rest)])
        elif key == "hand":
            seat, _, cards = rest.partition(":")
            if not seat.strip().isdigit() or int(seat) in record["hands"]:
                _bad_record(f"bad or repeated hand line {rest[:20]!r}")
            record["hands"][int(seat)] = cards.split()
        elif key == "stock":
            record["stock"] = rest.split()
        elif key == "options":
            for item in rest.split():
                name, _, value = item.partition("=")
                if name not in OPTIONS:
                    _bad_record(f"unknown option {name!r}")
                record["options"][name] = int(value) if isinstance(OPTIONS[name].default, int) else value
        elif key == "board":
            record["board"] = rest
        elif key in ("players", "deal", "dealer", "cursor"):
            record[key] = int(rest)
        elif key == "chips":
            record["chips"] = [int(c) for c in rest.split()]
        elif key == "rng":
            record["rng"] = [int(v) for v in rest.split()]
            if len(record["rng"]) != 2:
                _bad_record("rng needs a seed and a counter")
        else:
            _bad_record(f"unknown line {key!r}")

    def _checked_record(self, record: dict) -> dict:
        n = record["players"]
        if not self.min_seats <= n <= self.max_seats:
            _bad_record(f"Bog is played by 3 to 10 players, not {n}")
        options = resolve_options(OPTIONS, record["options"])
        chips = record["chips"]
        if len(chips) != n or any(c < 0 for c in chips) or sum(c > 0 for c in chips) < 2:
            _bad_record(f"chips needs {n} stacks, two of them at least above 0")
        if not 0 <= record["dealer"] < n or chips[record["dealer"]] == 0:
            _bad_record("the dealer must be a seat still in")
        if not 0 <= record["cursor"] < len(BOARDS[options["board_ace"]]):
            _bad_record("cursor is a card box 0-4")
        players = [s for s in range(n) if chips[s] > 0]
        size, each, _ = deal_plan(max(3, len(players)), options["four_players"])
        deck = DECKS[size]
        if sorted(record["hands"]) != players:
            _bad_record(f"one hand line per seat still in: {players}")
        seen = set()
        for seat, hand in record["hands"].items():
            deck.check_cards(hand)
            if len(hand) != each:
                _bad_record(f"seat {seat} must be dealt {each} cards, not {len(hand)}")
            seen.update(hand)
        listed = deck.check_cards(record["stock"] or [])
        if len(seen) != each * len(players) or seen & set(listed):
            _bad_record("a card is dealt twice")
        stock = listed + sort_hand(set(deck.cards) - seen - set(listed))
        board = parse_board(record["board"], n, options["board_ace"]) if record["board"] else None
        return {**record, "options": options, "board": board, "stock": stock}

    def start_from_record(self, record: dict) -> dict:
        """The state at the start of a recorded deal (antes paid, the card turned up)."""
        n = record["players"]
        state = self.blank_state(record["options"], n, record["chips"], record["dealer"])
        if record["board"]:
            state["boxes"] = copy_json(record["board"])
        state["deal"] = record["deal"] - 1
        state["cursor"] = record["cursor"]
        state["rng"] = {"seed": record["rng"][0], "counter": record["rng"][1]}
        hands = [record["hands"].get(s, []) for s in range(n)]
        self.begin_deal(state, hands, record["stock"])
        return state

    def replay_deal(self, text: str) -> dict:
        """The state after a deal's record: its start, then every action through ``apply``."""
        record = self.parse_deal(text)
        state = self.start_from_record(record)
        for seat, action in record["actions"]:
            state = self.apply(state, seat, action)
        return state


def _readable(hand: list, keep=lambda card: True):
    """The cards of ``hand`` that ``keep`` allows, or ``None`` if part of it is sealed."""
    if any(map(is_sealed, hand)):
        return None
    return [card for card in hand if keep(card)]


def _turn(player: int, legal, ask=None) -> dict:
    return {"player": player, "legal": legal, "winner": None, "ask": ask}


def _best_cards(hand: list) -> list:
    """The cards of ``hand``'s best combination (what a bogger shows)."""
    return combination_cards(hand, best_combination(hand))


def _held_card(state: dict, seat: int, action: dict) -> str:
    card = action["card"]
    if card not in state["hands"][seat]:
        raise IllegalAction(f"You do not hold {card[:4]}", "bog.not_in_hand", card=printed_card(card))
    return card
