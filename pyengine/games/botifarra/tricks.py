"""Botifarra's pure trick rules: which cards may be played, who wins a trick, card points,
the score of a hand; plus a text notation for tricks and whole hands.

Everything here follows ``shared/rules/botifarra.md``, including its "Resolutions for the
software". Functions are pure and deterministic; every malformed input raises a
``TabernaError`` (a ``ValueError``) whose reason names the offending card, seat or option.

**Cards** are their notation: ``<rank><suit>``, rank 1-12 (1 as, 9 manilla, 10 sota,
11 cavall, 12 rei), suit ``o`` oros, ``c`` copes, ``e`` espases, ``b`` bastos: ``9o``, ``1c``,
``12e``, ``10b``. Trump is ``"o" | "c" | "e" | "b"``, or ``None`` for botifarra.

**Seats** are numbered in playing order: the player after seat ``s`` is ``(s + 1) % n``
(play is anticlockwise, so ``s + 1`` sits on ``s``'s right). Partners are ``s`` and
``s + 2``. A trick is the list of its cards in the order played: ``trick[i]`` was played by
``(leader + i) % n``. ``trick_winner`` and ``legal_cards`` accept an unfinished trick (the
winner so far is the seat whose card currently wins it).

**Text notation** (for tests, logs and bug reports):

* a trick is its leader, a colon, then its cards in the order played: ``"3: 9o 1o 12o 2c"``
  (seat 3 led the 9 of oros, seat 0 played the 1, ...). ``parse_trick`` / ``format_trick``.
* a whole hand is one line per fact, ``#`` starts a comment, blank lines are ignored::

      players 4
      variant obligada
      options individual three_second           (optional flags: individual (4 players each
                                                for himself), three_second, discard_suit_order)
      dealer 0
      trump o                                   (or: trump botifarra)
      hand 0: 9o 1o ...                         (one line per seat, the cards dealt)
      piles 0: 3c 5o 12b 1e / 2c 8o 7e 6b / ... (2 players only: each pile top card first)
      trick 1: 4o 9o 1o 2o                      (the tricks in order; the last may be unfinished)

  ``parse_hand`` returns a plain dict (JSON-ready), ``format_hand`` writes it back, and
  ``replay_hand`` checks every play against ``legal_cards`` (and every leader against the
  previous trick's winner) and counts the points.

**Two players ("rector i vicari")**: the cards a player may play are his face-up pile tops
plus the cards in his hand (the second form has a hand of 8; the first has none). Callers
pass exactly those playable cards as ``hand``: ``legal_cards(hand + tops, trick, ...)``.
Face-down cards never count, not even for the duty to follow suit (nobody can see them).

Choices where the digest is silent, and why:

* ``legal_cards`` keeps the order of ``hand`` (screens sort for display; bots iterate).
  An empty hand has no legal card (``[]``); a leader (empty trick) may play anything.
* ``intermedia`` differs from ``obligada`` only where obligada says "the lowest card". When a
  partner wins, obligada already allows every counting card, so the two agree there; they
  differ when you cannot beat an opponent: following suit (lowest or any counting card of
  the suit) and discarding (the lowest card of any suit or any counting card).
* A "counting card" is one with card points (9, 1, 12, 11, 10); with the "3 second" option
  the 3 ranks high but still counts nothing, so it is not a counting card.
* "Beating" a trick that an opponent has trumped with a card of the suit led is impossible,
  so such a player just follows (the digest's resolution); the duty to beat applies to the
  suit led only while the trick is untrumped.
* ``discard_suit_order`` (the individual games' option): when a player cannot win the trick
  and must discard (void in the suit led and unable to win it by trumping), he discards from
  the first suit he holds in the order oros, copes, espases, bastos, the trump suit included
  (the rule exists to take away the choice of which rival to feed, so no suit is exempt).
  Within that suit the variant's rule still applies (lowest; intermedia also any counting
  card; lliure any card). It is refused in partnership games, where the digest never uses it.
* With 3 players the deck has no 2, 3 or 4: such cards are refused as not in the deck.
* ``hand_result``: Sant Vicenç (doubling 3) on botifarra is refused unless
  ``sant_vicenc_on_botifarra`` (then ×8 ×2 = ×16 on the 2-4-8 scale, ×4 ×2 = ×8 on 2-3-4).
  A renege gives the other side the whole hand: ``hand_result(72, 0, ...)`` for the innocent
  side gives the digest's 36 × the multiplier. ``total`` must be even (36 is its half).
* ``replay_hand`` points: partnerships score per side (seats 0+2, 1+3), individual games per
  seat; 1 point per trick, except 2 players: 1 per two tricks, and when both took an odd
  number of tricks the odd point goes to the player with fewer points (the two halves
  always add up to 71 then, so there is never a tie to break).

**One place for each rule.** The rank order and the card points are ``RANKS`` (a
``kits.cards.RankTable`` per "3 second" setting), which the engine, the bots and the screen
all read; ``legal_among`` is the legality kernel that ``legal_cards`` (after checking its
input) and the bots' fast search (on their own trusted worlds) both call; ``beats`` is the
one "who takes the trick" comparison.
"""

from pyengine.core.errors import TabernaError
from pyengine.kits.cards import SPANISH_36, SPANISH_48, SPANISH_SUITS, RankTable
from pyengine.kits.trick_taking import seating

SUITS = SPANISH_SUITS
VARIANTS = ("obligada", "lliure", "intermedia")
#: Rank order within a suit, high to low, without and with the "3 second" option.
RANK_ORDER = ("9", "1", "12", "11", "10", "8", "7", "6", "5", "4", "3", "2")
RANK_ORDER_THREE_SECOND = ("9", "3", "1", "12", "11", "10", "8", "7", "6", "5", "4", "2")
POINTS = {"9": 5, "1": 4, "12": 3, "11": 2, "10": 1}
#: Strength, points and suit by card, keyed by the "3 second" option.
RANKS = {three_second: RankTable(SPANISH_48, order, POINTS)
         for three_second, order in ((False, RANK_ORDER), (True, RANK_ORDER_THREE_SECOND))}
#: Multiplier of contro (1), recontro (2), Sant Vicenç (3) on each scale; no doubling is 1.
SCALES = {"2-4-8": (1, 2, 4, 8), "2-3-4": (1, 2, 3, 4)}
#: The doubling calls: doubling ``d`` (1-3) is ``CALLS[d - 1]``.
CALLS = ("contro", "recontro", "sant_vicenc")
#: A hand's points: 60 in the cards and 1 for each of the 12 tricks.
HAND_TOTAL = 72


def _fail(reason: str, code: str, **params):
    raise TabernaError(reason, code, **params)


def deck_for(n_players: int):
    """The deck of a table of ``n_players``: 48 cards, or 36 for three (no 2, 3 or 4)."""
    return SPANISH_36 if n_players == 3 else SPANISH_48


def _card(card, n_players: int = 4) -> None:
    """Nothing if ``card`` is a card of the table's deck, else a precise refusal."""
    if card not in SPANISH_48:
        shown = card if isinstance(card, str) else repr(card)
        _fail(f"{shown[:40]!r} is not a Botifarra card: a card is a rank 1-12 then a suit "
              f"o, c, e or b (9o, 1c, 12e, 10b)", "bad_card", card=shown[:40])
    if card not in deck_for(n_players):
        _fail(f"{card} is not in the 36-card deck of the 3-player game (no 2, 3 or 4)",
              "card_not_in_deck", card=card)


def _checked_list(values, what: str):
    if isinstance(values, str) or not isinstance(values, (list, tuple)):
        _fail(f"the {what} must be a list of cards, not {type(values).__name__}", "bad_card",
              card=repr(values)[:40])
    return values


def _cards(cards, what: str, n_players: int = 4) -> None:
    """Nothing if ``cards`` is a list of distinct cards of the table's deck, else a refusal."""
    _checked_list(cards, what)
    for card in cards:
        _card(card, n_players)
    if len(set(cards)) != len(cards):
        twice = next(card for card in cards if cards.count(card) > 1)
        _fail(f"{twice} appears twice in the {what}", "duplicate_card", card=twice)


def _seat(value, n_players: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n_players:
        _fail(f"the {what} must be a seat 0-{n_players - 1}, not {value!r}", "bad_seat", seat=repr(value)[:20])
    return value


def _check_table(n_players, trump) -> None:
    if isinstance(n_players, bool) or n_players not in (2, 3, 4):
        _fail(f"Botifarra is played by 2, 3 or 4 players, not {n_players!r}", "bad_players")
    if trump is not None and trump not in SUITS:
        _fail(f"trump must be o, c, e, b or None (botifarra), not {trump!r}", "bad_trump")


def beats(card: str, best: str, trump, ranks: RankTable) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far: a higher
    card of its suit, or a trump on a card that is not one."""
    suit = ranks.suit
    if suit[card] == suit[best]:
        return ranks.strength[card] > ranks.strength[best]
    return suit[card] == trump


def winning_index(trick: list, trump, ranks: RankTable) -> int:
    """Index in the (non-empty) trick of the card that wins it so far."""
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], trump, ranks):
            best = i
    return best


def _check_trick(trick, leader, n_players) -> None:
    _cards(trick, "trick", n_players)
    _seat(leader, n_players, "leader")
    if len(trick) > n_players:
        _fail(f"a trick of {n_players} players has at most {n_players} cards, not {len(trick)}",
              "bad_trick", cards=len(trick))


def trick_winner(trick, leader, trump, n_players=4, three_second=False) -> int:
    """The seat whose card wins ``trick`` (so far, if it is unfinished): the highest trump,
    else the highest card of the suit led."""
    _check_table(n_players, trump)
    _check_trick(trick, leader, n_players)
    if not trick:
        _fail("an empty trick has no winner", "bad_trick", cards=0)
    return (leader + winning_index(trick, trump, RANKS[bool(three_second)])) % n_players


def card_points(card) -> int:
    """Points of one card: manilla (9) 5, as (1) 4, rei (12) 3, cavall (11) 2, sota (10) 1."""
    _card(card)
    return RANKS[False].points[card]


def legal_cards(hand, trick, leader, trump, variant, *, n_players=4, partnerships=None,
                three_second=False, discard_suit_order=False) -> list:
    """The cards of ``hand`` the next player of ``trick`` may play, in ``hand``'s order.

    ``variant`` is ``"obligada"`` (default rule of the game), ``"lliure"`` or ``"intermedia"``;
    ``partnerships`` defaults to True with 4 players (False: each for himself). With 2 players
    ``hand`` is the playable cards: the face-up pile tops plus the hand.
    """
    _check_table(n_players, trump)
    if variant not in VARIANTS:
        _fail(f"the play rule must be one of {', '.join(VARIANTS)}, not {variant!r}", "bad_variant")
    if partnerships is None:
        partnerships = n_players == 4
    if not isinstance(partnerships, bool):
        _fail(f"partnerships must be True, False or None, not {partnerships!r}", "bad_option",
              option="partnerships")
    if partnerships and n_players != 4:
        _fail(f"partnerships need 4 players, not {n_players}", "bad_players")
    if discard_suit_order and partnerships:
        _fail("discarding in suit order is a rule of the individual games, not of partnerships",
              "bad_option", option="discard_suit_order")
    _check_trick(trick, leader, n_players)
    if len(trick) == n_players:
        _fail(f"the trick already has its {n_players} cards", "bad_trick", cards=len(trick))
    _cards(hand, "hand", n_players)
    shared = set(hand) & set(trick)
    if shared:
        card = sorted(shared)[0]
        _fail(f"{card} is both in the hand and in the trick", "duplicate_card", card=card)
    if not trick or not hand:
        return list(hand)
    ranks = RANKS[bool(three_second)]
    winning = winning_index(trick, trump, ranks)
    me = (leader + len(trick)) % n_players
    partner_wins = seating(n_players, partnerships).partner(me) == (leader + winning) % n_players
    return legal_among(hand, trick, trick[winning], partner_wins, trump, variant, discard_suit_order, ranks)


def legal_among(hand: list, trick: list, best: str, partner_wins: bool, trump, variant: str,
                discard_suit_order: bool, ranks: RankTable) -> list:
    """The legality kernel: the cards of ``hand`` (not empty) that may go on ``trick`` (not
    empty), ``best`` winning it so far (by the partner when ``partner_wins``), in
    ``hand``'s order. It trusts its input: ``legal_cards`` checks it first, and the bots'
    worlds hold only cards that play made legal."""
    suit, strength = ranks.suit, ranks.strength
    led = suit[trick[0]]
    following = [card for card in hand if suit[card] == led]
    if partner_wins:
        # No duty to beat or to trump. Obligada (and intermedia, identical here): a counting
        # card or the lowest card, of the suit led if you have it, else of any suit.
        if variant == "lliure":
            return following or list(hand)
        allowed = _lowest_or_counting(following or hand, True, ranks)
    elif following:
        if suit[best] == led:  # untrumped (or trumps were led): beat it if you can
            beaters = [card for card in following if strength[card] > strength[best]]
            if beaters:
                return beaters
        if variant == "lliure":
            return following
        allowed = _lowest_or_counting(following, variant == "intermedia", ranks)
    else:
        if trump is not None:  # trump to win, over-trumping if need be
            winning = [card for card in hand if suit[card] == trump
                       and (suit[best] != trump or strength[card] > strength[best])]
            if winning:
                return winning
        # No duty to under-trump: the discard rule of the variant.
        pool = hand
        if discard_suit_order:
            first = min(SUITS.index(suit[card]) for card in hand)
            pool = [card for card in hand if suit[card] == SUITS[first]]
        if variant == "lliure":
            return list(pool)
        allowed = _lowest_or_counting(pool, variant == "intermedia", ranks)
    return [card for card in hand if card in allowed]


def _lowest_or_counting(cards: list, with_counting: bool, ranks: RankTable) -> set:
    """Obligada's "lowest card" of each suit among ``cards``, plus (``with_counting``)
    every counting card among them."""
    suit, strength = ranks.suit, ranks.strength
    lowest = {}
    for card in cards:
        if suit[card] not in lowest or strength[card] < strength[lowest[suit[card]]]:
            lowest[suit[card]] = card
    allowed = set(lowest.values())
    if with_counting:
        allowed.update(card for card in cards if ranks.points[card])
    return allowed


def hand_result(points_a, points_b, botifarra=False, doubling=0, scale="2-4-8",
                sant_vicenc_on_botifarra=False, total=HAND_TOTAL) -> tuple:
    """``(side, score)`` of a partnership hand: side 0 (``points_a``) or 1 (``points_b``)
    scores (its points - total/2) × multiplier; ``(None, 0)`` on an even split.

    ``doubling``: 0 none, 1 contro, 2 recontro, 3 Sant Vicenç; ``scale`` ``"2-4-8"`` or
    ``"2-3-4"``; botifarra doubles. Raises ValueError when the points do not add up to
    ``total``, or for Sant Vicenç on botifarra unless ``sant_vicenc_on_botifarra``.
    """
    for name, value in (("points_a", points_a), ("points_b", points_b), ("total", total)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            _fail(f"{name} must be a whole number ≥ 0, not {value!r}", "bad_points")
    if total % 2:
        _fail(f"the total of a hand must be even, not {total}", "bad_points")
    if points_a + points_b != total:
        _fail(f"the points {points_a} + {points_b} = {points_a + points_b} do not add up to {total}",
              "bad_points", total=total)
    if scale not in SCALES:
        _fail(f"the scale must be {' or '.join(SCALES)}, not {scale!r}", "bad_option", option="scale")
    if isinstance(doubling, bool) or doubling not in (0, 1, 2, 3):
        _fail(f"doubling must be 0 (none), 1 (contro), 2 (recontro) or 3 (Sant Vicenç), not {doubling!r}",
              "bad_option", option="doubling")
    if doubling == 3 and botifarra and not sant_vicenc_on_botifarra:
        _fail("Sant Vicenç is not allowed on botifarra at this table", "bad_option", option="doubling")
    multiplier = SCALES[scale][doubling] * (2 if botifarra else 1)
    half = total // 2
    if points_a == points_b:
        return None, 0
    side = 0 if points_a > half else 1
    return side, (max(points_a, points_b) - half) * multiplier


# --- text notation ----------------------------------------------------------------------------
def format_trick(leader, trick) -> str:
    """``"3: 9o 1o 12o 2c"``: the leader, a colon, the cards in the order played."""
    _cards(trick, "trick")
    _seat(leader, 4, "leader")
    return f"{leader}: {' '.join(trick)}".rstrip()


def parse_trick(text) -> tuple:
    """``(leader, cards)`` from ``format_trick``'s notation; cards are checked, not the rules."""
    if not isinstance(text, str) or ":" not in text:
        _fail(f"a trick is written 'leader: cards', like '3: 9o 1o 12o 2c', not {str(text)[:40]!r}",
              "bad_trick")
    seat_text, cards_text = text.split(":", 1)
    if not seat_text.strip().isdigit():
        _fail(f"a trick starts with its leader's seat number, not {seat_text.strip()[:10]!r}", "bad_trick")
    leader = _seat(int(seat_text), 4, "leader")
    cards = cards_text.split()
    _cards(cards, "trick")
    return leader, cards


#: The flags an ``options`` line may hold.
RECORD_OPTIONS = ("individual", "three_second", "discard_suit_order")


def _flags(record) -> dict:
    """The record's options as ``legal_cards`` keywords."""
    options = record.get("options", [])
    unknown = sorted(set(options) - set(RECORD_OPTIONS))
    if unknown:
        _fail(f"unknown hand option {unknown[0][:20]!r} (options: {', '.join(RECORD_OPTIONS)})",
              "bad_option", option=unknown[0][:20])
    if "individual" in options and record.get("players") != 4:
        _fail("'individual' is the 4-player game each for himself; 2 and 3 players always are",
              "bad_option", option="individual")
    return {"partnerships": record.get("players") == 4 and "individual" not in options,
            "three_second": "three_second" in options,
            "discard_suit_order": "discard_suit_order" in options}


def parse_hand(text) -> dict:
    """The record of a hand written in the module's notation, as a plain dict:
    ``players, variant, options, dealer, trump, hands, piles, tricks`` (``piles`` is None
    except with 2 players; ``tricks`` is a list of ``[leader, cards]``). Cards and seats are
    checked here; the play itself is checked by ``replay_hand``."""
    if not isinstance(text, str):
        _fail("a hand record is text", "bad_record")
    record = {"players": None, "variant": None, "options": [], "dealer": None,
              "hands": {}, "piles": {}, "tricks": []}  # no "trump" until its line: None is botifarra
    seen = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(" ")
        rest = rest.strip()
        where = f"line {number}"
        if key in ("players", "variant", "options", "dealer", "trump") and key in seen:
            _fail(f"{where}: {key} is given twice", "bad_record", line=number)
        seen.add(key)
        if key == "players":
            if rest not in ("2", "3", "4"):
                _fail(f"{where}: players must be 2, 3 or 4, not {rest[:10]!r}", "bad_record", line=number)
            record["players"] = int(rest)
        elif key == "variant":
            if rest not in VARIANTS:
                _fail(f"{where}: the variant must be one of {', '.join(VARIANTS)}", "bad_record", line=number)
            record["variant"] = rest
        elif key == "options":
            record["options"] = rest.split()
            _flags(record)
        elif key == "dealer":
            record["dealer"] = rest
        elif key == "trump":
            if rest not in (*SUITS, "botifarra"):
                _fail(f"{where}: trump must be o, c, e, b or botifarra, not {rest[:12]!r}", "bad_record", line=number)
            record["trump"] = None if rest == "botifarra" else rest
        elif key in ("hand", "piles"):
            seat_text, colon, cards_text = rest.partition(":")
            if not colon or not seat_text.strip().isdigit():
                _fail(f"{where}: write '{key} <seat>: <cards>'", "bad_record", line=number)
            seat = int(seat_text)
            by_seat = record["hands"] if key == "hand" else record["piles"]
            if seat in by_seat:
                _fail(f"{where}: {key} {seat} is given twice", "bad_record", line=number)
            by_seat[seat] = (cards_text.split() if key == "hand"
                             else [pile.split() for pile in cards_text.split("/")])
        elif key == "trick":
            leader, cards = parse_trick(rest)
            record["tricks"].append([leader, cards])
        else:
            _fail(f"{where}: unknown line {key[:20]!r}", "bad_record", line=number)
    return _checked_record(record)


def _checked_record(record) -> dict:
    """The record with seats and cards checked and ``hands``/``piles`` as lists by seat."""
    n = record["players"]
    if n is None or record["variant"] is None or record["dealer"] is None or "trump" not in record:
        _fail("a hand record needs players, variant, dealer and trump lines", "bad_record")
    if isinstance(record["dealer"], str):
        if not record["dealer"].isdigit():
            _fail(f"the dealer must be a seat number, not {record['dealer'][:10]!r}", "bad_record")
        record["dealer"] = int(record["dealer"])
    _seat(record["dealer"], n, "dealer")
    _check_table(n, record["trump"])
    for key in ("hands", "piles"):
        extra = [seat for seat in record[key] if not 0 <= seat < n]
        if extra:
            _fail(f"{key[:-1]} {extra[0]} is not a seat of a {n}-player hand", "bad_record")
    if len(record["hands"]) != n and not (n == 2 and record["piles"]):
        _fail(f"a hand record needs one hand line per seat (0-{n - 1})", "bad_record")
    if record["piles"] and n != 2:
        _fail("only the 2-player game has piles", "bad_record")
    if n == 2 and record["piles"] and len(record["piles"]) != 2:
        _fail("both players need a piles line", "bad_record")
    hands = [record["hands"].get(seat, []) for seat in range(n)]
    piles = [record["piles"][seat] for seat in range(n)] if record["piles"] else None
    for seat, hand in enumerate(hands):
        _cards(hand, f"hand of seat {seat}", n)
    for seat, seat_piles in enumerate(piles or []):
        for pile in _checked_list(seat_piles, f"piles of seat {seat}"):
            _cards(pile, f"pile of seat {seat}", n)
    everything = [card for hand in hands for card in hand]
    if piles:
        everything += [card for seat_piles in piles for pile in seat_piles for card in pile]
    _cards(everything, "deal", n)
    for leader, trick in record["tricks"]:
        _check_trick(trick, leader, n)
    _flags(record)
    return {"players": n, "variant": record["variant"],
            "options": [name for name in RECORD_OPTIONS if name in record["options"]],
            "dealer": record["dealer"], "trump": record["trump"], "hands": hands, "piles": piles,
            "tricks": [[leader, list(trick)] for leader, trick in record["tricks"]]}


def _record_from_dict(record) -> dict:
    """A record given as ``parse_hand``'s dict, checked the same way as the text."""
    if not isinstance(record, dict):
        _fail("a hand record is a dict or its text", "bad_record")
    keys = ("players", "variant", "options", "dealer", "trump", "hands", "piles", "tricks")
    missing = [key for key in keys if key not in record]
    if missing:
        _fail(f"the hand record has no {missing[0]!r}", "bad_record")
    for key in ("hands", "piles", "options", "tricks"):
        if not isinstance(record[key] or [], list):
            _fail(f"the record's {key} must be a list", "bad_record")
    for item in record["tricks"]:
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            _fail("each trick of the record is [leader, cards]", "bad_record")
    return _checked_record({**record, "hands": dict(enumerate(record["hands"])),
                            "piles": dict(enumerate(record["piles"] or []))})


def format_hand(record) -> str:
    """The text of a record as ``parse_hand`` returns it (round trip)."""
    record = _record_from_dict(record)
    lines = [f"players {record['players']}", f"variant {record['variant']}"]
    if record["options"]:
        lines.append("options " + " ".join(record["options"]))
    lines += [f"dealer {record['dealer']}", f"trump {record['trump'] or 'botifarra'}"]
    for seat, hand in enumerate(record["hands"]):
        if hand or not record["piles"]:
            lines.append(f"hand {seat}: {' '.join(hand)}".rstrip())
    for seat, seat_piles in enumerate(record["piles"] or []):
        lines.append(f"piles {seat}: " + " / ".join(" ".join(pile) for pile in seat_piles))
    lines += ["trick " + format_trick(leader, trick) for leader, trick in record["tricks"]]
    return "\n".join(lines) + "\n"


def replay_hand(record) -> dict:
    """Check a hand's play card by card and count it.

    Each trick must be led by the player on the dealer's right (first trick) or by the
    previous trick's winner, and each card must be in its player's hand (or on a face-up
    pile top, 2 players) and among ``legal_cards``. Returns ``tricks`` (won per seat),
    ``card_points`` (per seat), ``points`` (per side with partnerships, else per seat; trick
    points included) and ``finished`` (every card played). Points count finished tricks only.
    """
    record = parse_hand(record) if isinstance(record, str) else _record_from_dict(record)
    n, trump = record["players"], record["trump"]
    flags = _flags(record)
    hands = [list(hand) for hand in record["hands"]]
    piles = [[list(pile) for pile in seat_piles] for seat_piles in record["piles"]] if record["piles"] else None
    tricks_won, card_pts = [0] * n, [0] * n
    next_leader = (record["dealer"] + 1) % n
    for number, (leader, trick) in enumerate(record["tricks"], 1):
        if leader != next_leader:
            _fail(f"trick {number}: seat {next_leader} leads, not seat {leader}", "bad_record", trick=number)
        if len(trick) < n and number < len(record["tricks"]):
            _fail(f"trick {number} is unfinished but is not the last", "bad_record", trick=number)
        for i, card in enumerate(trick):
            seat = (leader + i) % n
            playable = hands[seat] + ([pile[0] for pile in piles[seat] if pile] if piles else [])
            if card not in playable:
                _fail(f"trick {number}: seat {seat} cannot play {card}, it is not among its cards "
                      f"({' '.join(playable) or 'none'})", "bad_record", trick=number)
            allowed = legal_cards(playable, trick[:i], leader, trump, record["variant"], n_players=n, **flags)
            if card not in allowed:
                _fail(f"trick {number}: seat {seat} may not play {card} (legal: {' '.join(allowed)})",
                      "illegal_card", trick=number, seat=seat, card=card)
            if card in hands[seat]:
                hands[seat].remove(card)
            else:
                next(pile for pile in piles[seat] if pile and pile[0] == card).pop(0)
        if len(trick) == n:
            next_leader = trick_winner(trick, leader, trump, n, flags["three_second"])
            tricks_won[next_leader] += 1
            card_pts[next_leader] += sum(card_points(card) for card in trick)
    finished = not any(hands) and not (piles and any(any(seat_piles) for seat_piles in piles))
    return {"tricks": tricks_won, "card_points": card_pts,
            "points": hand_points(tricks_won, card_pts, n, flags["partnerships"]), "finished": finished}


def hand_points(tricks_won, card_pts, n, partnerships) -> list:
    """Card points plus trick points, per side (4 players in partnership) or per seat."""
    if partnerships or n != 2:
        return [sum(card_pts[s] + tricks_won[s] for s in side) for side in seating(n, partnerships).sides]
    points = [card_pts[s] + tricks_won[s] // 2 for s in range(2)]
    if tricks_won[0] % 2 and tricks_won[1] % 2:
        points[points.index(min(points))] += 1  # the odd point to the player with fewer points
    return points
