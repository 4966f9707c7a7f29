"""Card decks, their text notation, shuffling and dealing: shared by every card game.

**A card is a plain string in its notation**, the same in states, views, actions, saves and
tests, so JSON needs no encoding step and a log reads like a scoresheet:

* Spanish suits (lower case): ``o`` oros, ``c`` copes, ``e`` espases, ``b`` bastos; ranks
  ``1``..``12`` (1 = as, 10 = sota, 11 = cavall, 12 = rei): ``9o``, ``1c``, ``12e``, ``10b``.
* French suits (upper case): ``H`` hearts, ``D`` diamonds, ``C`` clubs, ``S`` spades; ranks
  ``A 2 .. 10 J Q K``: ``AH``, ``10H``, ``JC``, ``QS``, ``KD``.

The notation is strict: no spaces, no other case, no leading zero (``10c`` is Spanish, ``10C``
French, so case carries meaning), and a card must belong to the deck it is parsed for (``8o``
is not in the 40-card deck). Every refusal is a ``BadCard`` with a reason and a catalog code.
A hand or a trick as text is the cards separated by single spaces: ``"9o 1c 12e"``.

Rank orders are the games' business (Botifarra: 9 > 1 > 12 ...; Bog: ace low); the helpers
here take the order as a parameter, and a ``RankTable`` spreads one over a deck for lookups.
Shuffling and dealing draw only from the table's ``Rng`` integer methods, so a seed deals the
same cards in CPython and in Pyodide.
"""

from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Iterable, Sequence

from ..core.errors import TabernaError
from ..core.rng import Rng

SPANISH = "spanish"
FRENCH = "french"
SPANISH_SUITS = ("o", "c", "e", "b")
FRENCH_SUITS = ("H", "D", "C", "S")
SPANISH_RANKS = tuple(str(n) for n in range(1, 13))
FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FRENCH_DISPLAY_SUITS = ("S", "H", "C", "D")  # colours alternate in a sorted hand
RED_SUITS = frozenset({"H", "D"})
# Every card of both families' full decks with its parts: ``split_card`` answers these by a
# lookup, since rules and bots split cards in their inner loops.
_PARTS = {rank + suit: (rank, suit)
          for ranks, suits in ((SPANISH_RANKS, SPANISH_SUITS), (FRENCH_RANKS, FRENCH_SUITS))
          for suit in suits for rank in ranks}


class BadCard(TabernaError):
    """A card, hand or deal that does not fit the notation or the deck.

    ``code`` is ``bad_card`` (not a card at all), ``card_not_in_deck``, ``duplicate_card``
    or ``bad_deal``; ``params`` name the offending text.
    """


@dataclass(frozen=True)
class Deck:
    """One deck: its family, ranks and suits, in a fixed order (suit by suit, rank up)."""

    name: str
    family: str
    ranks: tuple
    suits: tuple

    @property
    def cards(self) -> tuple:
        """Every card of the deck, in the deck's fixed order (before any shuffle)."""
        return tuple(rank + suit for suit in self.suits for rank in self.ranks)

    def __len__(self) -> int:
        return len(self.ranks) * len(self.suits)

    def __contains__(self, card) -> bool:
        return isinstance(card, str) and card in self._card_set

    @cached_property
    def _card_set(self) -> frozenset:
        """The cards as a set: rules check membership in their inner loops."""
        return frozenset(self.cards)

    def parse(self, text) -> str:
        """``text`` checked as one card of this deck; returns it (cards are their notation)."""
        rank, suit = split_card(text)
        if family_of_suit(suit) != self.family:
            raise BadCard(f"{text!r} is a {family_of_suit(suit)} card, not a card of the {self.name} deck",
                          "card_not_in_deck", card=text, deck=self.name)
        if rank not in self.ranks:
            raise BadCard(f"{text!r}: the {self.name} deck has no rank {rank} (ranks: {' '.join(self.ranks)})",
                          "card_not_in_deck", card=text, deck=self.name)
        return text

    def parse_cards(self, text, *, unique: bool = True) -> list:
        """A hand or trick written as text (cards separated by single spaces; ``""`` is none)."""
        if not isinstance(text, str):
            raise BadCard(f"cards must be text, not {type(text).__name__}", "bad_card", card=repr(text)[:40])
        if text == "":
            return []
        return self.check_cards(text.split(" "), unique=unique)

    def check_cards(self, values, *, unique: bool = True) -> list:
        """A list of untrusted JSON values (a view's hand, a peer's trick) checked card by card."""
        if not isinstance(values, (list, tuple)):
            raise BadCard(f"cards must be a list, not {type(values).__name__}", "bad_card", card=repr(values)[:40])
        cards = [self.parse(value) for value in values]
        if unique:
            seen = set()
            for card in cards:
                if card in seen:
                    raise BadCard(f"{card} appears twice", "duplicate_card", card=card)
                seen.add(card)
        return cards


def _spanish(name: str, ranks) -> Deck:
    return Deck(name, SPANISH, tuple(str(r) for r in ranks), SPANISH_SUITS)


SPANISH_48 = _spanish("spanish48", range(1, 13))
SPANISH_40 = _spanish("spanish40", (1, 2, 3, 4, 5, 6, 7, 10, 11, 12))  # no 8 and 9
SPANISH_36 = _spanish("spanish36", (1, 5, 6, 7, 8, 9, 10, 11, 12))  # no 2, 3, 4 (Botifarra for three)
FRENCH_32 = Deck("french32", FRENCH, ("A", "7", "8", "9", "10", "J", "Q", "K"), FRENCH_SUITS)
FRENCH_52 = Deck("french52", FRENCH, FRENCH_RANKS, FRENCH_SUITS)
DECKS = {deck.name: deck for deck in (SPANISH_48, SPANISH_40, SPANISH_36, FRENCH_32, FRENCH_52)}


def deck_named(name) -> Deck:
    """The deck called ``name`` (``spanish48``, ``spanish40``, ``spanish36``, ``french32``, ``french52``)."""
    if name not in DECKS:
        raise BadCard(f"unknown deck {name!r} (decks: {', '.join(DECKS)})", "bad_card", card=str(name)[:40])
    return DECKS[name]


# --- one card ------------------------------------------------------------------------------------
def family_of_suit(suit: str) -> str:
    """``spanish`` or ``french`` for a suit letter (case tells them apart: ``c`` copes, ``C`` clubs)."""
    if suit in SPANISH_SUITS:
        return SPANISH
    if suit in FRENCH_SUITS:
        return FRENCH
    raise BadCard(f"unknown suit {suit!r} (Spanish: o c e b; French: H D C S)", "bad_card", card=suit)


def split_card(text) -> tuple:
    """``(rank, suit)`` of a card of either family, both as written: ``"10H"`` -> ``("10", "H")``.

    Checks the notation only (any rank of the family's full deck); ``Deck.parse`` also checks
    that the card is in a given deck.
    """
    parts = _PARTS.get(text) if isinstance(text, str) else None
    if parts is not None:
        return parts
    # Not a card: the most precise reason why.
    if not isinstance(text, str):
        raise BadCard(f"a card is text like 9o or AH, not {type(text).__name__}", "bad_card", card=repr(text)[:40])
    if not 2 <= len(text) <= 3:
        raise BadCard(f"{text[:40]!r} is not a card: a card is a rank then a suit, like 9o, 12e, AH or 10H",
                      "bad_card", card=text[:40])
    rank, suit = text[:-1], text[-1]
    if suit not in SPANISH_SUITS and suit not in FRENCH_SUITS:
        hint = " (suits are case-sensitive)" if suit.lower() in SPANISH_SUITS or suit.upper() in FRENCH_SUITS else ""
        raise BadCard(f"{text!r}: unknown suit {suit!r}{hint}; Spanish suits are o c e b, French H D C S",
                      "bad_card", card=text)
    family = family_of_suit(suit)
    ranks = SPANISH_RANKS if family == SPANISH else FRENCH_RANKS
    raise BadCard(f"{text!r}: {rank!r} is not a {family} rank ({' '.join(ranks)})", "bad_card", card=text)


def parse_card(text) -> str:
    """``text`` checked as a card of either family's full deck (what a face can be drawn for)."""
    split_card(text)
    return text


def rank_of(card: str) -> str:
    return split_card(card)[0]


def suit_of(card: str) -> str:
    return split_card(card)[1]


def make_card(rank, suit: str) -> str:
    """The card of ``rank`` (text, or an int for Spanish ranks) and ``suit``, checked."""
    return parse_card(f"{rank}{suit}")


def format_cards(cards: Iterable[str]) -> str:
    """Cards as text, separated by single spaces (``Deck.parse_cards`` reads it back)."""
    return " ".join(parse_card(card) for card in cards)


# --- orders ---------------------------------------------------------------------------------------
def rank_strength(ranks_high_to_low: Sequence[str]) -> dict:
    """``{rank: strength}`` from a game's order, highest first: a bigger strength wins."""
    ranks = list(ranks_high_to_low)
    if len(set(ranks)) != len(ranks):
        raise ValueError("a rank order lists each rank once")
    return {rank: len(ranks) - i for i, rank in enumerate(ranks)}


class RankTable:
    """A game's rank order and card points over a deck, looked up by card: ``strength[card]``
    (``rank_strength``: a bigger strength wins), ``points[card]`` (0 for a rank the game does
    not count) and ``suit[card]``. Rules and bots ask these in their inner loops, so each is a
    plain dict filled once through ``split_card``; ``ranks`` (highest first) is what
    ``sort_key`` takes."""

    __slots__ = ("ranks", "strength", "points", "suit")

    def __init__(self, deck: Deck, ranks_high_to_low: Sequence[str], points: dict | None = None):
        by_rank = rank_strength(ranks_high_to_low)
        self.ranks = tuple(ranks_high_to_low)
        self.strength, self.points, self.suit = {}, {}, {}
        for card in deck.cards:
            rank, suit = split_card(card)
            self.strength[card] = by_rank[rank]
            self.points[card] = (points or {}).get(rank, 0)
            self.suit[card] = suit


def sort_key(ranks_high_to_low: Sequence[str], suits: Sequence[str] | None = None, *,
             high_first: bool = True) -> Callable[[str], tuple]:
    """A ``key=`` for sorting a hand: grouped by suit (in ``suits`` order; default o c e b for
    Spanish, S H C D for French so colours alternate), then by the game's rank order."""
    strength = rank_strength(ranks_high_to_low)
    suit_index = {suit: i for i, suit in enumerate(suits or SPANISH_SUITS + FRENCH_DISPLAY_SUITS)}
    sign = -1 if high_first else 1

    def key(card: str) -> tuple:
        rank, suit = split_card(card)
        if rank not in strength or suit not in suit_index:
            raise BadCard(f"{card} is not ranked by this order", "card_not_in_deck", card=card, deck="order")
        return suit_index[suit], sign * strength[rank]

    return key


def sort_cards(cards: Iterable[str], ranks_high_to_low: Sequence[str], suits: Sequence[str] | None = None, *,
               high_first: bool = True) -> list:
    """``cards`` sorted for display (see ``sort_key``)."""
    return sorted(cards, key=sort_key(ranks_high_to_low, suits, high_first=high_first))


def highest(cards: Iterable[str], ranks_high_to_low: Sequence[str]) -> str:
    """The strongest card by rank alone (suits are the game's business: trumps, suit led)."""
    strength = rank_strength(ranks_high_to_low)
    return max(cards, key=lambda card: strength[rank_of(card)])


# --- shuffling and dealing ----------------------------------------------------------------------
def shuffled(deck: Deck | Iterable[str], rng: Rng) -> list:
    """A new list of the deck's cards (or of any cards) in a random order drawn from ``rng``."""
    cards = deck.cards if isinstance(deck, Deck) else list(deck)
    return rng.shuffle(list(cards))


def _packet_sizes(per_player: int, packets) -> list:
    if isinstance(packets, int):
        if packets < 1:
            raise BadCard("packets hold at least one card", "bad_deal", packets=packets)
        sizes = [packets] * (per_player // packets)
        if per_player % packets:
            sizes.append(per_player % packets)
        return sizes
    sizes = [int(size) for size in packets]
    if any(size < 1 for size in sizes) or sum(sizes) != per_player:
        raise BadCard(f"packets {sizes} do not add up to {per_player} cards each", "bad_deal", packets=sizes)
    return sizes


@dataclass(frozen=True)
class Deal:
    """``hands[seat]`` in the order the cards arrived; ``stock`` top card first."""

    hands: list
    stock: list


def deal(cards: Sequence[str], n_players: int, per_player: int | None = None, *, packets=1,
         first: int = 0) -> Deal:
    """Deals ``cards`` from the top (index 0), in packets, to ``n_players`` seats.

    Seat ``first`` gets the first packet, then ``first + 1`` and so on (seats in playing
    order), round after round. ``packets`` is a packet size (Botifarra: 4; a last short
    packet makes up the rest) or the list of sizes per round (``[3, 3, 2]``). ``per_player``
    defaults to all the cards shared evenly. What is left is the stock.
    """
    cards = list(cards)
    if not isinstance(n_players, int) or n_players < 1:
        raise BadCard(f"cannot deal to {n_players!r} players", "bad_deal", players=n_players)
    if per_player is None:
        if len(cards) % n_players:
            raise BadCard(f"{len(cards)} cards do not share evenly among {n_players}", "bad_deal", players=n_players)
        per_player = len(cards) // n_players
    if per_player < 0 or per_player * n_players > len(cards):
        raise BadCard(f"{len(cards)} cards cannot give {per_player} to each of {n_players}", "bad_deal",
                      players=n_players)
    if not 0 <= first < n_players:
        raise BadCard(f"seat {first!r} is not at a table of {n_players}", "bad_deal", players=n_players)
    hands = [[] for _ in range(n_players)]
    top = 0
    for size in _packet_sizes(per_player, packets) if per_player else []:
        for turn in range(n_players):
            hands[(first + turn) % n_players].extend(cards[top:top + size])
            top += size
    return Deal(hands, cards[top:])


def shuffle_and_deal(deck: Deck, rng: Rng, n_players: int, per_player: int | None = None, *, packets=1,
                     first: int = 0) -> Deal:
    """A fresh shuffle of ``deck`` from ``rng``, dealt as ``deal`` says."""
    return deal(shuffled(deck, rng), n_players, per_player, packets=packets, first=first)
