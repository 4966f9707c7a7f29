"""Bog's pure rules: the deal table, phase-1 combinations and their comparison, the phase-1
winner, and whose turn it is (with which cards) in the phase-2 run.

Everything here follows ``shared/rules/bog.md``, including its "Resolutions for the
software". Functions are pure; malformed input raises a ``TabernaError`` (a ``ValueError``)
whose reason names the offending card, seat or option.

**Cards** are French notation ``<rank><suit>``: rank ``A 2 .. 10 J Q K``, suit ``H D C S``:
``AH``, ``10H``, ``JC``, ``QS``, ``KD``. A hand is a list of such strings. The ace is the
lowest card; the 32-card deck (3-6 players) has A 7 8 9 10 J Q K, so the card after the
ace is the 7; the 52-card deck (7-10 players) has every rank.

**Seats** are numbered in playing order: the player after seat ``s`` is ``(s + 1) % n``.

Choices where the digest is silent, and why:

* ``best_combination`` returns the *best* reading of a hand: J♣ J♥ 8♠ 8♦ is a mitsi
  (J♣ + the pair of 8s), which beats the double bog it also is; the digest says J♣ with a
  pair is a mitsi "even when the hand also has a second pair", and a player always shows
  his best. Of several pairs, trios or pokers (possible with 7 or 8 cards) the highest is
  shown; a double bog shows its two highest pairs; a mitsi the highest pair other than
  jacks.
* Exact ties are not only a 52-card matter: in the 32-card deck two players may hold a
  pair (or two pairs) of the same ranks. ``compare`` says 0; ``phase1_winner`` gives the
  tie to the tied player first in playing order after the dealer (the dealer last).
* ``phase1_winner`` looks only at the boggers' hands; a lone bogger wins whatever he holds.
* ``phase2_turn``: ``hands[s]`` is seat ``s``'s cards still in hand, or ``None`` for a seat
  that does not take part (the "only boggers play" option). When the player who just
  played has emptied his hand, phase 2 is over: ``{"player": None, "legal": [],
  "winner": seat}``. A king gives its player the lead with any card. ``legal`` keeps the
  order of the player's hand.
* ``change_suit="all_void"``: when the player on the run holds none of its suit, "the first
  player after him who holds it" is searched in playing order among the players taking
  part; he may play any card of the suit (the run then continues from that card).
* ``deal_plan(4, four_players=8)`` is allowed because the resolutions list it as an option,
  although it leaves no stock (so no turned-up card): the seed's "at least 2 in the stock"
  is then not met, and the engine must skip the turn-up.

The decks, their ranks and suits are ``kits.cards``' French decks, and cards are split by
its ``split_card``; ``RANK_STRENGTH`` is Bog's one rank order (the ace lowest).
"""

from pyengine.core.errors import TabernaError
from pyengine.kits.cards import FRENCH_32, FRENCH_52, FRENCH_RANKS, FRENCH_SUITS, rank_strength, split_card, suit_of

SUITS = FRENCH_SUITS
RANKS = FRENCH_RANKS  # low to high
SHORT_RANKS = FRENCH_32.ranks  # the 32-card deck, low to high
DECKS = {32: FRENCH_32, 52: FRENCH_52}
RANK_STRENGTH = rank_strength(RANKS[::-1])  # a bigger strength is a higher rank
KINDS = ("nothing", "bog", "double_bog", "mitsi", "trio", "poker")  # low to high
MITSI_CARD = "JC"
CHANGE_SUIT = ("leader_void", "all_void")
#: players -> (deck size, cards each); 4 players is set by ``four_players``.
DEALS = {3: (32, 8), 5: (32, 6), 6: (32, 5), 7: (52, 7), 8: (52, 6), 9: (52, 5), 10: (52, 5)}
FOUR_PLAYER_HANDS = (6, 7, 8)

_NEXT = {size: {ranks[i]: ranks[i + 1] for i in range(len(ranks) - 1)}
         for size, ranks in ((32, SHORT_RANKS), (52, RANKS))}


def _fail(reason: str, code: str, **params):
    raise TabernaError(reason, code, **params)


def _card(card, size=None) -> tuple:
    """``(rank, suit)`` of a card in notation (of the ``size``-card deck if given)."""
    if card not in FRENCH_52:
        shown = card if isinstance(card, str) else repr(card)
        _fail(f"{shown[:40]!r} is not a Bog card: a card is a rank A, 2-10, J, Q or K then a suit "
              f"H, D, C or S (AH, 10H, JC, QS, KD)", "bad_card", card=shown[:40])
    if size == 32 and card not in FRENCH_32:
        _fail(f"{card} is not in the 32-card deck (A 7 8 9 10 J Q K)", "card_not_in_deck", card=card)
    return split_card(card)


def _size(size) -> int:
    if isinstance(size, bool) or size not in (32, 52):
        _fail(f"the deck has 32 or 52 cards, not {size!r}", "bad_option", option="size")
    return size


def _hand(hand, what="hand", size=None) -> list:
    if isinstance(hand, str) or not isinstance(hand, (list, tuple)):
        _fail(f"the {what} must be a list of cards, not {type(hand).__name__}", "bad_card",
              card=repr(hand)[:40])
    parsed = [_card(card, size) for card in hand]
    if len(set(hand)) != len(hand):
        twice = next(card for card in hand if hand.count(card) > 1)
        _fail(f"{twice} appears twice in the {what}", "duplicate_card", card=twice)
    return parsed


def _hands(hands, size=None, allow_absent=False) -> list:
    """Every seat's hand checked, and no card in two hands."""
    if not isinstance(hands, (list, tuple)) or not 3 <= len(hands) <= 10:
        _fail("hands must be a list of 3 to 10 hands, one per seat", "bad_players")
    seen = {}
    for seat, hand in enumerate(hands):
        if hand is None and allow_absent:
            continue
        _hand(hand, f"hand of seat {seat}", size)
        for card in hand:
            if card in seen:
                _fail(f"{card} is in the hands of seats {seen[card]} and {seat}", "duplicate_card", card=card)
            seen[card] = seat
    return hands


def _seat(value, n, what) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        _fail(f"the {what} must be a seat 0-{n - 1}, not {value!r}", "bad_seat", seat=repr(value)[:20])
    return value


def deal_plan(n_players, four_players=6) -> tuple:
    """``(deck size, cards each, stock)`` for ``n_players`` (3-10); with 4 players each gets
    ``four_players`` cards (6 by default, option 7 or 8)."""
    if isinstance(n_players, bool) or n_players not in range(3, 11):
        _fail(f"Bog is played by 3 to 10 players, not {n_players!r}", "bad_players")
    if isinstance(four_players, bool) or four_players not in FOUR_PLAYER_HANDS:
        _fail(f"with 4 players each gets 6, 7 or 8 cards, not {four_players!r}", "bad_option",
              option="four_players")
    size, each = (32, four_players) if n_players == 4 else DEALS[n_players]
    return size, each, size - each * n_players


def best_combination(hand) -> dict:
    """The best phase-1 combination of a hand: ``{"kind", "ranks"}``; ``ranks`` has one rank
    per group (poker, trio, bog ``[r]``; double bog ``[higher, lower]``; mitsi ``["J", pair]``;
    nothing ``[]``), ranks as in the notation (``"A"``, ``"10"``, ``"K"``)."""
    counts = {}
    for rank, _ in _hand(hand):
        counts[rank] = counts.get(rank, 0) + 1

    def highest(ranks):
        return sorted(ranks, key=RANK_STRENGTH.__getitem__, reverse=True)

    by_count = {k: highest(rank for rank, c in counts.items() if c == k) for k in (2, 3, 4)}
    if by_count[4]:
        return {"kind": "poker", "ranks": by_count[4][:1]}
    if by_count[3]:
        return {"kind": "trio", "ranks": by_count[3][:1]}
    pairs = by_count[2]
    other_pairs = [rank for rank in pairs if rank != "J"]
    if MITSI_CARD in hand and other_pairs:
        return {"kind": "mitsi", "ranks": ["J", other_pairs[0]]}
    if len(pairs) >= 2:
        return {"kind": "double_bog", "ranks": pairs[:2]}
    if pairs:
        return {"kind": "bog", "ranks": pairs[:1]}
    return {"kind": "nothing", "ranks": []}


def _combination_key(hand) -> tuple:
    combination = best_combination(hand)
    return KINDS.index(combination["kind"]), [RANK_STRENGTH[rank] for rank in combination["ranks"]]


def compare(hand_a, hand_b) -> int:
    """1 if ``hand_a``'s best combination beats ``hand_b``'s, -1 if it loses, 0 on an exact
    tie (only the combination's cards count, no kickers)."""
    _hands_disjoint(hand_a, hand_b)
    a, b = _combination_key(hand_a), _combination_key(hand_b)
    return (a > b) - (a < b)


def _hands_disjoint(hand_a, hand_b) -> None:
    _hand(hand_a, "first hand")
    _hand(hand_b, "second hand")
    shared = sorted(set(hand_a) & set(hand_b))
    if shared:
        _fail(f"{shared[0]} cannot be in both hands", "duplicate_card", card=shared[0])


def phase1_winner(hands, boggers, dealer):
    """The seat that wins BOG, or None (nobody bogged, or no bogger holds a combination: BOG
    carries over). A lone bogger wins without showing; ties go to the tied player first in
    playing order after the dealer."""
    _hands(hands)
    n = len(hands)
    _seat(dealer, n, "dealer")
    if isinstance(boggers, str) or not isinstance(boggers, (list, tuple, set, frozenset)):
        _fail("the boggers must be a list of seats", "bad_seat", seat=repr(boggers)[:20])
    boggers = [_seat(seat, n, "bogger") for seat in boggers]
    if len(set(boggers)) != len(boggers):
        _fail("a seat is listed twice among the boggers", "bad_seat")
    if len(boggers) <= 1:
        return boggers[0] if boggers else None
    in_order = sorted(boggers, key=lambda seat: (seat - dealer - 1) % n)
    keys = {seat: _combination_key(hands[seat]) for seat in in_order}
    best = max(in_order, key=keys.__getitem__)  # max keeps the first of equal keys
    return best if KINDS[keys[best][0]] != "nothing" else None


def next_in_suit(card, size=32):
    """The card after ``card`` in its suit's run (A→7 with 32 cards, A→2 with 52; None
    after the K)."""
    rank, suit = _card(card, _size(size))
    following = _NEXT[size].get(rank)
    return following + suit if following else None


def phase2_turn(hands, last, leader, size=32, change_suit="leader_void") -> dict:
    """Who plays next in phase 2 and which cards he may play.

    ``hands`` are the cards still in hand per seat (``None``: not taking part); ``last`` is
    ``(seat, card)`` of the last card played, or None at the start (then ``leader`` leads
    any card). Returns ``{"player": seat, "legal": [cards], "winner": seat|None}``; once a
    player has emptied his hand, ``{"player": None, "legal": [], "winner": that seat}``.
    """
    _size(size)
    if change_suit not in CHANGE_SUIT:
        _fail(f"change_suit must be {' or '.join(CHANGE_SUIT)}, not {change_suit!r}", "bad_option",
              option="change_suit")
    _hands(hands, size, allow_absent=True)
    n = len(hands)
    _seat(leader, n, "leader")
    if hands[leader] is None:
        _fail(f"seat {leader} does not take part in phase 2 and cannot lead", "bad_seat", seat=leader)
    emptied = [s for s, hand in enumerate(hands) if hand == [] or hand == ()]
    if last is None:
        if emptied:
            _fail(f"seat {emptied[0]} has no cards at the start of phase 2", "bad_seat", seat=emptied[0])
        return {"player": leader, "legal": list(hands[leader]), "winner": None}
    if not isinstance(last, (list, tuple)) or len(last) != 2:
        _fail("the last play must be (seat, card) or None", "bad_play")
    seat, card = last
    _seat(seat, n, "seat of the last play")
    rank, suit = _card(card, size)
    if hands[seat] is None:
        _fail(f"seat {seat} does not take part in phase 2", "bad_seat", seat=seat)
    holder = {c: s for s, hand in enumerate(hands) if hand for c in hand}
    if card in holder:
        _fail(f"{card} was played but is still in the hand of seat {holder[card]}", "bad_play", card=card)
    if emptied and emptied != [seat]:
        other = next(s for s in emptied if s != seat)
        _fail(f"seat {other} had already emptied his hand: phase 2 was over", "bad_play", seat=other)
    if not hands[seat]:
        return {"player": None, "legal": [], "winner": seat}
    if rank == "K":
        return {"player": seat, "legal": list(hands[seat]), "winner": None}
    following = next_in_suit(card, size)
    if following in holder:
        return {"player": holder[following], "legal": [following], "winner": None}
    # The next card is dead: the same player goes on with any card of the suit ...
    for offset in range(n if change_suit == "all_void" else 1):
        player = (seat + offset) % n
        of_suit = [c for c in hands[player] or () if suit_of(c) == suit]
        if of_suit:
            return {"player": player, "legal": of_suit, "winner": None}
    # ... and when he (or, with "all_void", everybody) has none of it, he changes suit.
    return {"player": seat, "legal": list(hands[seat]), "winner": None}
