"""Botifarra bots: rule-following heuristics (easy) and determinised search (medium, hard).

Each bot sees one seat's view. Search draws *worlds* (``TrickTakingGame.imagined_deal``:
the unseen cards dealt consistently with the view, the obligada inferences included) and
plays each candidate out in every world with ``kits.pimc.choose``:

* easy: the heuristic below (never over-trump a winning partner, load points on a
  partner's sure trick, win as cheaply as possible, duck with the lowest card), with a
  random legal card now and then; trumps and doubling by a hand-strength formula;
* medium: 12 worlds, each candidate played out to the end of the hand by the heuristic at
  every seat (roll-outs);
* hard: 40 worlds; once 4 tricks or fewer remain, an exact alpha-beta search of each world.
  Hard also reads the table: each world is weighed by how likely what the others said was
  in it (``choice_weigh``: the suit the chooser named, each contro, recontro and pass,
  from the hands they held), and it values a hand's score towards the
  game (``hand_value``: points past what a side still needs to reach the target count for
  nothing, so it does not double what it already wins with, nor a loss that ends the game
  anyway). Its trump choice counts on the other side's contro (``contro_odds``: in each
  world, how likely the opponents were to double that suit, which doubles exactly the
  hands that go badly), and it doubles with smaller margins (``READ_CALL_MARGINS``), its
  worlds being weighed by what the other side said already.

Each decision that samples has an allowance of work counted in cards played inside its
worlds (``kits.pimc.Work``); once it is spent no further world is drawn. Roll-outs stay
under it (40 worlds of 12 candidates play fewer than 24,000 cards), but hard's exact
searches of four tricks could play 60,000 (0.8 s in CPython): those stop after fewer
worlds, so the worst decision costs about what an opening roll-out does.

(Trump choice and doubling sample 12 worlds at medium, 40 at hard: every option there is a
whole hand's roll-out.) Candidate cards that cannot play differently (``distinct_cards``)
are scored once.

Trump choice (the four suits, botifarra, delego) and the doubling questions (contro,
recontro, Sant Vicenç) are decided the same way: the mean over worlds of the hand's score
for the bot's side. A hand's score is linear in its points, ``(points - half) x
multiplier`` for whichever side wins it, so maximising expected points is exactly right in
play, and a call pays when the expected points pass half by a safety margin.

Counting cards: the rules let a player look only at each side's last trick, but a strong
player remembers the others, and the game log tells them to anyone. Hard counts cards (its
``Table.remembers``): it reads the hand's every trick (the view's ``tricks``), so its worlds
hold every card still out and no other, and it weighs what was said through the whole hand.
Easy and medium do not: they know only the trick in progress and each side's last trick,
and their worlds treat the older tricks as one more hidden place (``imagined_deal``). What
play revealed is kept by the engine, though (``cannot_hold``: a player who did not follow
is void in the suit led, one who did not beat holds nothing that beats, obligada's "lowest
card" says which lower cards he lacks), and no world breaks it. The evidence weights
apply to a player only while every card he played is known (his hand as dealt is then
known in each world): all hand long for a bot that counts cards.

Worlds and work are counted, never timed, so a decision is the same for a given view and
seed in CPython and Pyodide alike.
"""

import math

from ...core.registry import bots_by_level
from ...core.rng import Rng
from ...kits.cards import split_card, suit_of
from ...kits.pimc import Work, choose
from ...kits.trick_taking import finished_tricks, played_in_view
from .rules import FIVE_OF_ESPASES, Botifarra
from .tricks import HAND_TOTAL, RANKS, SCALES, SUITS, beats, legal_among

GAME = Botifarra()

#: Expected points above half a side wants before it says contro, recontro, Sant Vicenç:
#: the other side spoke first (it chose, or it doubled), so uniform worlds flatter us.
CALL_MARGINS = (5.0, 8.0, 10.0)
#: Hard's margins: its worlds are weighed by what the other side said (``choice_weigh``),
#: so they flatter it less.
READ_CALL_MARGINS = (2.0, 5.0, 7.0)

#: Per level: worlds sampled per decision (play, trump choice, doubling), the tricks left
#: from which the search is exact, how often (out of 1) a random legal card is played, the
#: work a decision may spend (cards played inside its worlds), whether it reads the table
#: (``choice_weigh``, ``hand_value`` towards the game), whether its trump choice counts on
#: the other side's contro (``contro_odds``), its doubling margins, and whether it counts
#: cards (remembers the hand's older tricks).
LEVELS = {
    "easy": {"worlds": 0, "choice_worlds": 0, "exact_tricks": 0, "noise": 0.2, "work": 0, "reads_table": False,
             "contro_risk": False, "call_margins": CALL_MARGINS, "counts_cards": False},
    "medium": {"worlds": 12, "choice_worlds": 12, "exact_tricks": 0, "noise": 0.0, "work": 24_000,
               "reads_table": False, "contro_risk": False, "call_margins": CALL_MARGINS, "counts_cards": False},
    "hard": {"worlds": 40, "choice_worlds": 40, "exact_tricks": 4, "noise": 0.0, "work": 24_000,
             "reads_table": True, "contro_risk": True, "call_margins": READ_CALL_MARGINS, "counts_cards": True},
}

#: How a player's hand explains the suit he named as trumps (``choice_likelihood``): each
#: suit is named with odds ``e ** (strength / CHOICE_SPREAD)``, ``strength`` the hand's
#: ``trump_strength`` with that suit as trumps. Botifarra and delego are taken as no
#: evidence: the search bots make them with hands of every kind (medium delegated 26 of 60
#: opening hands, some of the strongest among them, and called botifarra on weak ones).
CHOICE_SPREAD = 4.0
#: A doubling call on a suit contract (contro, recontro, Sant Vicenç) is taken to be made
#: with odds ``e ** ((strength - CALL_STRENGTH) / CHOICE_SPREAD)`` against passing,
#: ``strength`` the caller's ``trump_strength`` with those trumps: medium's contros came
#: with strengths 23-36, its passes mostly below 24. On botifarra a call says nothing so
#: clear (medium doubled botifarra with hands of strength 10), so it weighs nothing.
CALL_STRENGTH = 24.0


class Table:
    """What every decision at one table shares: seats, sides, trumps, the card rules
    (``ranks``, the rules' table, with its ``strength``, ``points`` and ``suit`` by card kept
    at hand for the inner loops), and whether the bot ``remembers`` the hand's older tricks."""

    __slots__ = ("n", "me", "trump", "remembers", "variant", "discard_order", "partnerships", "individual", "seating", "side_of",
                 "ranks", "strength", "points", "suit", "trick_point")

    def __init__(self, view: dict, trump, remembers: bool = False):
        self.n = len(view["hand_counts"])
        self.me = view["you"]
        self.trump = trump
        self.remembers = remembers
        options = view["options"]
        table_state = {"options": options, "seats": self.n}
        rules = GAME.card_rules(table_state)
        self.variant = rules["variant"]
        self.discard_order = rules["discard_suit_order"]
        self.partnerships = rules["partnerships"]
        self.individual = GAME.is_individual(table_state)
        self.seating = GAME.seating(table_state)
        self.side_of = self.seating.side_of
        self.ranks = RANKS[rules["three_second"]]
        self.strength, self.points, self.suit = self.ranks.strength, self.ranks.points, self.ranks.suit
        self.trick_point = 0.5 if self.n == 2 else 1.0  # two players: 1 point per two tricks

    def half(self) -> float:
        """The points a side needs for an even hand: 36, or each player's share alone."""
        return HAND_TOTAL / self.n if self.individual else HAND_TOTAL / 2

    def partners(self, a: int, b: int) -> bool:
        return self.side_of[a] == self.side_of[b]


# --- the hand being played out in a world -----------------------------------------------------
class Deal:
    """A world's hand from the current trick on, every card face up; points won from here.

    The roll-outs and the exact search spend their time here, so it keeps what they ask
    for ready: the card winning the trick so far, and each suit's unplayed cards strongest
    first (who holds a master). ``legal`` asks ``tricks.legal_among``, the kernel behind
    ``legal_cards``, without the checks of untrusted input."""

    __slots__ = ("table", "hands", "piles", "leader", "trick", "best", "points", "by_suit", "left")

    def __init__(self, table: Table, hands: list, piles, leader: int, trick: list, unplayed=None):
        self.table = table
        self.hands = hands
        self.piles = piles
        self.leader = leader
        self.trick = []
        self.best = -1
        self.points = [0.0] * table.n  # by side
        held = [card for hand in hands for card in hand]
        for seat_piles in piles or []:
            held += [card for pile in seat_piles for card in pile]
        self.left = len(held)
        strength, suit_of_card = table.strength, table.suit
        self.by_suit = {suit: sorted((card for card in (unplayed if unplayed is not None else held)
                                      if suit_of_card[card] == suit), key=strength.__getitem__, reverse=True)
                        for suit in SUITS}
        for card in trick:
            self._add_to_trick(card)

    def copy(self) -> "Deal":
        other = Deal.__new__(Deal)
        other.table = self.table
        other.hands = [list(hand) for hand in self.hands]
        other.piles = [[list(pile) for pile in seat_piles] for seat_piles in self.piles] if self.piles else None
        other.leader = self.leader
        other.trick = list(self.trick)
        other.best = self.best
        other.points = list(self.points)
        other.by_suit = {suit: list(cards) for suit, cards in self.by_suit.items()}
        other.left = self.left
        return other

    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.table.n

    def winner_so_far(self) -> int:
        return (self.leader + self.best) % self.table.n

    def playable(self, seat: int) -> list:
        if not self.piles:
            return self.hands[seat]
        return self.hands[seat] + [pile[0] for pile in self.piles[seat] if pile]

    def legal(self) -> list:
        """The cards the player to move may play (``tricks.legal_cards``' rules)."""
        table = self.table
        seat = self.to_play()
        hand = self.playable(seat)
        if not self.trick or not hand:
            return list(hand)
        partner_wins = table.partnerships and table.partners(self.winner_so_far(), seat)
        return legal_among(hand, self.trick, self.trick[self.best], partner_wins, table.trump, table.variant,
                           table.discard_order, table.ranks)

    def _add_to_trick(self, card: str) -> None:
        trick = self.trick
        trick.append(card)
        if self.best < 0:
            self.best = 0
        elif _beats(self.table, card, trick[self.best]):
            self.best = len(trick) - 1

    def play(self, card: str) -> None:
        table = self.table
        seat = self.to_play()
        hand = self.hands[seat]
        if card in hand:
            hand.remove(card)
        else:
            next(pile for pile in self.piles[seat] if pile and pile[0] == card).pop(0)
        self.by_suit[table.suit[card]].remove(card)
        self.left -= 1
        self._add_to_trick(card)
        if len(self.trick) == table.n:
            winner = self.winner_so_far()
            self.points[table.side_of[winner]] += sum(table.points[c] for c in self.trick) + table.trick_point
            self.leader, self.trick, self.best = winner, [], -1

    def tricks_left(self) -> int:
        """Tricks still to finish, the one in progress included."""
        return (self.left + len(self.trick)) // self.table.n

    def side_points(self, seat: int) -> float:
        return self.points[self.table.side_of[seat]]

    def master(self, seat: int, card: str) -> bool:
        """No unplayed card of ``card``'s suit outside ``seat``'s hand beats it."""
        strength = self.table.strength
        own = self.playable(seat)
        for other in self.by_suit[self.table.suit[card]]:
            if strength[other] <= strength[card]:
                return True
            if other not in own:
                return False
        return True

    def trumps_out(self, seat: int) -> bool:
        """Whether a trump may still be in another hand than ``seat``'s."""
        trump = self.table.trump
        if trump is None:
            return False
        own = self.playable(seat)
        return any(card not in own for card in self.by_suit[trump])


# --- the rule-following heuristic ----------------------------------------------------------
def _beats(table: Table, card: str, best: str) -> bool:
    """Whether ``card`` takes the lead from ``best``, the card winning the trick so far."""
    return beats(card, best, table.trump, table.ranks)


def _cheap(table: Table, card: str) -> tuple:
    """Order for throwing away: side suits before trumps, fewer points, lower rank."""
    return table.suit[card] == table.trump, table.points[card], table.strength[card]


def heuristic(deal: Deal, seat: int, legal: list) -> str:
    """A rule-following card for ``seat`` among ``legal``, the cards ``deal`` (a world, or
    the view's own knowledge) says may still be out deciding which cards are masters."""
    if len(legal) == 1:
        return legal[0]
    table = deal.table
    trick = deal.trick
    if not trick:
        return _lead(deal, seat, legal)
    trump, suit, points = table.trump, table.suit, table.points
    best = trick[deal.best]
    last = len(trick) == table.n - 1
    if table.partnerships and table.partners(deal.winner_so_far(), seat):
        sure = last or (deal.master(seat, best) and (suit[best] == trump or not deal.trumps_out(seat)))
        side_suits = [card for card in legal if suit[card] != trump] or legal
        if sure:  # load points on the partner's trick; never a trump over it
            return max(side_suits, key=lambda card: (points[card], -table.strength[card]))
        return min(side_suits, key=lambda card: _cheap(table, card))
    winners = [card for card in legal if _beats(table, card, best)]
    if winners:
        def cheapest(cards):
            return min(cards, key=lambda card: (suit[card] == trump, table.strength[card]))

        if last:
            return cheapest(winners)
        masters = [card for card in winners if deal.master(seat, card)]
        if masters:
            return cheapest(masters)
        if sum(points[card] for card in trick) >= 3:
            return cheapest(winners)
    return min(legal, key=lambda card: _cheap(table, card))  # duck


def _lead(deal: Deal, seat: int, legal: list) -> str:
    """Cash a counting master of a side suit; draw trumps when long in them with the top
    one; else lead low from the longest side suit."""
    table = deal.table
    trump, suit, points = table.trump, table.suit, table.points
    cashing = [card for card in legal if suit[card] != trump and points[card] and deal.master(seat, card)]
    if cashing:
        return max(cashing, key=points.__getitem__)
    trumps = [card for card in legal if suit[card] == trump]
    if len(trumps) >= 3 and deal.trumps_out(seat):
        top = max(trumps, key=table.strength.__getitem__)
        if deal.master(seat, top):
            return top
    side_suits = [card for card in legal if suit[card] != trump] or legal
    length = {s: sum(1 for card in side_suits if suit[card] == s) for s in SUITS}
    return min(side_suits, key=lambda card: (-length[suit[card]], points[card], table.strength[card]))


# --- playing worlds out ----------------------------------------------------------------------
def _after(deal: Deal, card: str) -> Deal:
    """A copy of ``deal`` with ``card`` played."""
    child = deal.copy()
    child.play(card)
    return child


def roll_out(deal: Deal, work: Work = None) -> Deal:
    """Plays ``deal`` to the end of the hand, the heuristic at every seat; the cards played
    are spent from ``work``."""
    if work is not None:
        work.spend(deal.left)
    while deal.left:
        legal = deal.legal()
        deal.play(legal[0] if len(legal) == 1 else heuristic(deal, deal.to_play(), legal))
    return deal


class ExactSearch:
    """Best play in one world with every card face up, for ``me``'s side (at individual
    tables every rival plays against ``me``). Alpha-beta within a trick; positions at the
    start of a trick are solved once (``memo``); ``cards`` counts the cards it played."""

    __slots__ = ("me", "memo", "cards")

    def __init__(self, me: int):
        self.me = me
        self.memo = {}
        self.cards = 0

    def points(self, deal: Deal) -> float:
        """The points ``me``'s side takes from ``deal`` on."""
        return self._search(deal, float("-inf"), float("inf"))

    def card_points(self, deal: Deal, cards: list) -> list:
        """For each of ``cards`` (the player to move's), the points ``me``'s side takes
        from ``deal`` on when it is played, every card after it played at best."""
        scores = []
        for card in cards:
            child = _after(deal, card)
            self.cards += 1
            scores.append(child.side_points(self.me) - deal.side_points(self.me) + self.points(child))
        return scores

    def _search(self, deal: Deal, alpha: float, beta: float) -> float:
        if not deal.left:
            return 0.0
        if deal.trick:
            return self._search_moves(deal, alpha, beta)
        key = (deal.leader, tuple(map(tuple, deal.hands)),
               tuple(tuple(map(tuple, seat_piles)) for seat_piles in deal.piles) if deal.piles else None)
        low, high = self.memo.get(key, (float("-inf"), float("inf")))  # what earlier visits proved
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        value = self._search_moves(deal, max(alpha, low), min(beta, high))
        if value <= alpha:
            self.memo[key] = (low, value)
        elif value >= beta:
            self.memo[key] = (value, high)
        else:
            self.memo[key] = (value, value)
        return value

    def _search_moves(self, deal: Deal, alpha: float, beta: float) -> float:
        me = self.me
        seat = deal.to_play()
        ours = deal.table.partners(seat, me)
        legal = deal.legal()
        if len(legal) > 1:  # the heuristic's card first (a good first guess prunes most)
            first = heuristic(deal, seat, legal)
            legal = [first] + [card for card in distinct_cards(deal, seat, legal) if card != first]
        before = deal.side_points(me)
        best = float("-inf") if ours else float("inf")
        for card in legal:
            child = _after(deal, card)
            self.cards += 1
            gained = child.side_points(me) - before
            value = gained + self._search(child, alpha - gained, beta - gained)
            if ours:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best


# --- hand strength (easy's decisions, and a partner's choice inside a world) -----------------
#: What a card is worth towards the hand's points, as trump and in a side suit (roughly
#: the points it brings home), for the formula below.
_AS_TRUMP = {"9": 9, "1": 7, "12": 5, "11": 4, "10": 3}


def trump_strength(hand: list, suit) -> float:
    """A quick estimate of the points a hand brings with ``suit`` as trumps (``None``:
    botifarra): trumps by rank and length, side manillas and guarded aces."""
    total = 0.0
    parts = [split_card(card) for card in hand]
    for s in SUITS:
        ranks = [rank for rank, card_suit in parts if card_suit == s]
        if s == suit:
            total += sum(_AS_TRUMP.get(rank, 2) for rank in ranks) + 2 * max(0, len(ranks) - 3)
            continue
        if "9" in ranks:
            total += 6 + (5 if "1" in ranks else 0) + (2 * max(0, len(ranks) - 3) if suit is None else 0)
        elif "1" in ranks and len(ranks) >= 2:
            total += 2
    return total


def strongest_choice(hand: list):
    """``(trump, strength)``: the best suit by ``trump_strength``, or botifarra (``None``),
    which doubles everything, when it is clearly better."""
    suit = max(SUITS, key=lambda s: trump_strength(hand, s))
    best = trump_strength(hand, suit)
    if trump_strength(hand, None) >= max(best, 30):
        return None, trump_strength(hand, None)
    return suit, best


# --- what the choice of trumps says (hard) ----------------------------------------------------
def choice_likelihood(hand: list, chosen: str) -> float:
    """How likely a player holding ``hand`` (his whole hand as dealt), naming a suit as
    trumps, was to name ``chosen``."""
    strengths = {suit: trump_strength(hand, suit) for suit in SUITS}
    top = max(strengths.values())
    odds = {suit: math.exp((strength - top) / CHOICE_SPREAD) for suit, strength in strengths.items()}
    return odds[chosen] / sum(odds.values())


def call_likelihood(hand: list, trump, called: bool) -> float:
    """How likely a player holding ``hand`` (as dealt) was to double (``called``) or to pass."""
    odds = math.exp((trump_strength(hand, trump) - CALL_STRENGTH) / CHOICE_SPREAD)
    return (odds if called else 1.0) / (1.0 + odds)


def seen_played_by(view: dict, n: int, remembers: bool) -> list:
    """Per seat, the cards of this hand the bot knows it played (``finished_tricks``, and
    the trick in progress)."""
    by_seat = [[] for _ in range(n)]
    for trick in [view["trick"], *finished_tricks(view, remembers)]:
        for i, card in enumerate(trick["cards"]):
            if card not in by_seat[(trick["leader"] + i) % n]:  # the latest trick may be in sight twice
                by_seat[(trick["leader"] + i) % n].append(card)
    return by_seat


def choice_weigh(view: dict, table: Table):
    """``weigh(deal)`` for ``kits.pimc.choose``: the likelihood, in a world, of what others
    said before the bot's decision on a suit contract (the suit the chooser named, every
    doubling call and pass), from the hand each held when he spoke. ``None`` when there is
    nothing to weigh: no suit named yet or botifarra, piles (their choice saw only part of
    the cards), or hands whose played cards are not all known (a bot that does not count
    cards forgets who played the older tricks)."""
    n, me, trump = table.n, table.me, view["trump"]
    if view["piles"] or view["phase"] == "choose" or view["botifarra"] or trump is None:
        return None
    dealt = len(GAME.deck(n).cards) // n
    seen = seen_played_by(view, n, table.remembers)
    said = [(view["chooser"], None)]  # (seat, whether he doubled; None: he named the trumps)
    said += [(call["seat"], True) for call in view["calls"]] + [(call["seat"], False) for call in view["passes"]]
    said = [(seat, called) for seat, called in said
            if seat != me and view["hand_counts"][seat] + len(seen[seat]) == dealt]
    if not said:
        return None

    def weigh(deal):
        likelihood = 1.0
        for seat, called in said:
            hand = deal.hands[seat] + seen[seat]
            likelihood *= choice_likelihood(hand, trump) if called is None else call_likelihood(hand, trump, called)
        return likelihood

    return weigh


def contro_odds(deal: Deal, table: Table, trump: str) -> float:
    """How likely the other side is to say contro to ``trump`` in ``deal`` (a world): each
    opponent calls as ``call_likelihood`` reads a call, from his hand there. A suit that
    leaves the opponents long and strong in it is worth less than its roll-outs say: the
    contro doubles the loss exactly when the hand goes badly."""
    staying = 1.0
    for seat in range(table.n):
        if not table.partners(seat, table.me):
            staying *= 1.0 - call_likelihood(deal.hands[seat], trump, True)
    return 1.0 - staying


def hand_value(view: dict, table: Table, points: float, multiplier: int, capped: bool) -> float:
    """What the bot's side makes of taking ``points`` of the hand: the side over half scores
    ``(points - half) x multiplier``. ``capped`` (partnerships playing to a target): a score
    past what a side still needs to win the game is worth no more, so a side near the target
    risks less by doubling and gains nothing by doubling what it already wins with."""
    edge = (points - table.half()) * multiplier
    if not (capped and table.partnerships and not view["options"]["fixed_hands"]):
        return edge
    target, scores, mine = view["options"]["target"], view["scores"], table.side_of[table.me]
    if edge > 0:
        return min(edge, target - scores[mine])
    return max(edge, -(target - scores[1 - mine]))


# --- the decisions ------------------------------------------------------------------------------
def sampler(view: dict, table: Table):
    """``sample(rng) -> Deal``: worlds consistent with ``view`` (``kits.pimc``)."""
    options = view["options"]
    pinned = {}
    if options["first_dealer"] == "five_of_espases" and view["hand_number"] == 1:
        pinned = {FIVE_OF_ESPASES: view["dealer"]}
    leader, trick = view["trick"]["leader"], view["trick"]["cards"]

    def sample(rng):
        dealt = GAME.imagined_deal(view, rng, pinned, table.remembers)
        return Deal(table, dealt["hands"], dealt["piles"], leader, list(trick))

    return sample


def view_deal(view: dict, table: Table) -> Deal:
    """What the view itself knows as a ``Deal``: the bot's own cards; every card it has not
    seen played counts as possibly out (the heuristic's masters)."""
    me, n = table.me, table.n
    hands = [list(view["hand"]) if seat == me else [] for seat in range(n)]
    piles = None
    if view["piles"]:
        piles = [[[pile["top"]] if pile["top"] and seat == me else [] for pile in seat_piles]
                 for seat, seat_piles in enumerate(view["piles"])]
    played = played_in_view(view, table.remembers)
    unplayed = [card for card in GAME.deck(n).cards if card not in played]
    return Deal(table, hands, piles, view["trick"]["leader"], list(view["trick"]["cards"]), unplayed)


def distinct_cards(deal: Deal, seat: int, legal: list) -> list:
    """``legal`` without cards that cannot play differently: two cards of the same suit and
    points, both in the hand, with no card between them that may still be out or is in the
    trick, win and lose exactly the same tricks. The first of each such run stays."""
    strength, suit, points = deal.table.strength, deal.table.suit, deal.table.points
    hand = set(deal.hands[seat])
    kept = []
    for card in sorted(legal, key=lambda c: (suit[c], strength[c])):
        if kept and card in hand and kept[-1] in hand and suit[kept[-1]] == suit[card] \
                and points[kept[-1]] == points[card]:
            low, high = strength[kept[-1]], strength[card]
            between = [c for c in deal.by_suit[suit[card]] + deal.trick
                       if suit[c] == suit[card] and low < strength[c] < high and c not in hand]
            if not between:
                continue
        kept.append(card)
    return [card for card in legal if card in kept]


def play_card(view: dict, config: dict, rng: Rng) -> str:
    """The card to play: the heuristic's (easy), or the best mean over the worlds, each
    candidate rolled out, or searched exactly near the end of the hand."""
    table = Table(view, view["trump"], config["counts_cards"])
    me = table.me
    legal = list(view["legal_cards"])
    known = view_deal(view, table)
    first = heuristic(known, me, legal)
    if not config["worlds"]:
        if config["noise"] and rng.random() < config["noise"]:
            return rng.choice(legal)
        return first
    distinct = distinct_cards(known, me, legal)
    candidates = [first] + [card for card in distinct if card != first]

    work = Work(config["work"])

    def evaluate(deal, cards):
        if deal.tricks_left() > config["exact_tricks"]:
            return [roll_out(_after(deal, card), work).side_points(me) for card in cards]
        search = ExactSearch(me)
        scores = search.card_points(deal, cards)
        work.spend(search.cards)
        return scores

    return choose(candidates, sampler(view, table), evaluate, rng, worlds=config["worlds"], work=work,
                  weigh=choice_weigh(view, table) if config["reads_table"] else None).action


def choose_trumps(view: dict, config: dict, rng: Rng, actions: list) -> dict:
    """Trumps, botifarra or delego: the best mean hand score over the worlds."""
    table = Table(view, None, config["counts_cards"])
    me = table.me
    may_delegate = any(action["type"] == "delegate" for action in actions)
    if not config["choice_worlds"]:
        suit, strength = strongest_choice(view["hand"])
        if may_delegate and strength < 16:
            return {"type": "delegate"}
        return {"type": "botifarra"} if suit is None else {"type": "trump", "suit": suit}
    tables = {trump: Table(view, trump, config["counts_cards"]) for trump in (*SUITS, None)}
    contro_factor = SCALES[view["options"]["scale"]][1]
    work = Work(config["work"])

    def evaluate(deal, candidates):
        scores = []
        for action in candidates:
            if action["type"] == "delegate":
                trump, _ = strongest_choice(deal.hands[table.seating.partner(me)])
            else:
                trump = action.get("suit")
            world = deal.copy()
            world.table = tables[trump]
            points = roll_out(world, work).side_points(me)
            multiplier = 2 if trump is None and not table.individual else 1
            value = hand_value(view, table, points, multiplier, config["reads_table"])
            if config["contro_risk"] and trump is not None and table.partnerships:
                doubled = hand_value(view, table, points, contro_factor, config["reads_table"])
                value += contro_odds(deal, table, trump) * (doubled - value)
            scores.append(value)
        return scores

    return choose(actions, sampler(view, table), evaluate, rng, worlds=config["choice_worlds"], work=work).action


def answer_call(view: dict, config: dict, rng: Rng) -> dict:
    """Contro, recontro or Sant Vicenç when the expected points pass half by a margin."""
    table = Table(view, view["trump"], config["counts_cards"])
    me, doubling = table.me, view["doubling"]
    margin = config["call_margins"][doubling]
    double, stay = {"type": "double"}, {"type": "pass"}
    if not config["choice_worlds"]:
        trump = view["trump"]
        trumps = [card for card in view["hand"] if suit_of(card) == trump]
        strong = trump is not None and len(trumps) >= 5 and f"9{trump}" in trumps
        return double if strong else stay
    scale = SCALES[view["options"]["scale"]]
    now = view["multiplier"]
    doubled = now // scale[doubling] * scale[doubling + 1]
    work = Work(config["work"])

    def evaluate(deal, candidates):
        points = roll_out(deal, work).side_points(me) - margin
        return [hand_value(view, table, points, doubled, config["reads_table"]),
                hand_value(view, table, points, now, config["reads_table"])]

    return choose([double, stay], sampler(view, table), evaluate, rng, worlds=config["choice_worlds"],
                  work=work, weigh=choice_weigh(view, table) if config["reads_table"] else None).action


def choose_action(view: dict, level: str, seed: int) -> dict:
    """The bot's action for its seat's ``view``: one of ``view["legal_actions"]``."""
    actions = view["legal_actions"]
    if not actions:
        raise ValueError("the bot has nothing to do in this view")
    if len(actions) == 1:
        return actions[0]
    config = LEVELS[level]
    rng = Rng(seed)
    phase = view["phase"]
    if phase == "choose":
        return choose_trumps(view, config, rng, actions)
    if phase == "double":
        return answer_call(view, config, rng)
    card = play_card(view, config, rng)
    return next(action for action in actions if action["card"] == card)


BOTS = bots_by_level(choose_action, GAME.bot_levels)
