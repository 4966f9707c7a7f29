"""What a seat cannot see in Bog, and how ``Bog.resample`` redraws it.

Hidden from a seat: the other hands and the stock under the turned-up card. What the table
has seen and every redraw keeps:

* cards in sight: the seat's own hand, the turned-up card (on the stock, or in the dealer's
  hand once he took it), the card he threw out, every card played;
* the showdown: a bogger holds the cards he showed until he plays them, and his hand held
  no better combination than the one he showed (a single pair of 8s: no other pair, no J♣;
  a trio: no four of a kind, no higher trio ...), so each rank is capped per hand;
* the run: when the next card of the suit was not played next, nobody in the run held it
  (it is dead); a player who then changed suit held none of it (``leader_void``), or, with
  ``all_void``, everyone did, or the players passed over on the way to the one who
  followed held none;
* whose turn it is now, the one fact that is not yet settled: either he holds the next
  card, or it is dead (and, with ``all_void``, he or nobody holds its suit). The redraw
  tries these explanations in a random order and keeps the first that fits.

Every fact is true of the real deal, so some redraw always fits; ``kits.redeal`` finds one
exactly (a small maximum flow), with no rejection loop.
"""

import random

from ...core.rng import Rng
from ...kits.cards import rank_of, suit_of
from ...kits.redeal import NoConsistentDeal, redeal
from .combos import DECKS, MITSI_CARD, RANK_STRENGTH, RANKS, next_in_suit


def play_step(options: dict) -> int:
    """+1 when the next player after seat ``s`` is ``s + 1`` (clockwise), else -1."""
    return 1 if options["direction"] == "clockwise" else -1


def rank_caps(kind: str, ranks: list) -> tuple:
    """``(cap, jc_barred)``: ``cap(rank)`` is the most cards of that rank a hand whose best
    combination is ``kind``/``ranks`` can hold; ``jc_barred`` when it cannot hold J♣."""
    top = ranks[-1] if ranks else None  # the rank other pairs/trios must stay below

    def above(rank):
        return top is not None and RANK_STRENGTH[rank] > RANK_STRENGTH[top]

    if kind == "nothing":
        return (lambda rank: 1), False
    if kind == "bog":
        return (lambda rank: 2 if rank == top else 1), top != "J"
    if kind == "double_bog":
        return (lambda rank: 2 if rank in ranks else (1 if above(rank) else 2)), True
    if kind == "mitsi":
        return (lambda rank: 2 if rank in ("J", top) else (1 if above(rank) else 2)), False
    if kind == "trio":
        return (lambda rank: 3 if rank == top else (2 if above(rank) else 3)), False
    return (lambda rank: 4 if rank == top else (3 if above(rank) else 4)), False  # poker


class _Picture:
    """One seat's knowledge of a deal: known holdings, unseen cards, places and facts."""

    def __init__(self, state: dict, seat):
        n = self.n = state["seats"]
        self.state = state
        run = state["run"]
        self.players = list(run["players"]) if run else list(state["active"])
        self.played = [tuple(play) for play in run["played"]] if run else []
        deck = DECKS[state["size"]].cards
        played_cards = {card for _, card in self.played}
        known = [set() for _ in range(n)]
        if seat is not None:
            known[seat] = set(state["hands"][seat])
        showdown = state["showdown"]
        for s, shown in enumerate(showdown["shown"] if showdown else []):
            if shown:
                known[s].update(set(shown["cards"]) - played_cards)
        taken = state["discard"] is not None  # the dealer took the turned-up card
        if taken and state["turned"] not in played_cards:
            known[state["dealer"]].add(state["turned"])
        in_sight = played_cards | {state["turned"], state["discard"]}
        self.known = known
        self.unknown = sorted(c for c in deck if c not in in_sight and not any(c in k for k in known))
        # places 0..n-1 are the seats, place n the stock (under the turned-up card)
        self.sizes = [len(state["hands"][s]) - len(known[s]) for s in range(n)] + [len(state["stock"])]
        self.caps = {}
        self.forbidden = {s: set() for s in range(n)}
        self._showdown_caps(seat, played_cards, taken)

    def _showdown_caps(self, seat, played_cards, taken) -> None:
        state = self.state
        showdown = state["showdown"]
        for s, shown in enumerate(showdown["shown"] if showdown else []):
            if not shown or s == seat:
                continue
            held_then = set(shown["cards"]) | {card for p, card in self.played if p == s}
            if taken and s == state["dealer"]:
                held_then.add(state["turned"])
            cap, jc_barred = rank_caps(shown["kind"], shown["ranks"])
            self.caps[s] = {rank: cap(rank) - sum(rank_of(c) == rank for c in held_then) for rank in RANKS}
            if jc_barred:
                self.forbidden[s].add(MITSI_CARD)

    # --- facts ------------------------------------------------------------------------------------
    def between(self, first: int, last: int) -> list:
        """Players in the run from ``first`` (included) to ``last`` (excluded), in order."""
        step, seats, s = play_step(self.state["options"]), [], first
        while s != last:
            if self.players[s]:
                seats.append(s)
            s = (s + step) % self.n
        return seats

    def history(self) -> list:
        """Facts settled by the run so far (each play shows what the one before it meant)."""
        facts, size = [], self.state["size"]
        all_void = self.state["options"]["change_suit"] == "all_void"
        for (q, x), (p, card) in zip(self.played, self.played[1:]):
            following = next_in_suit(x, size)
            if following is None or card == following:
                continue  # after a king the lead is free; a next card played says nothing new
            suit = suit_of(x)
            facts.append(("dead", following))
            if p != q:
                facts += [("void", r, suit) for r in self.between(q, p)]
            elif suit_of(card) != suit:
                facts += [("void", r, suit) for r in (self.all_players() if all_void else [q])]
        return facts

    def all_players(self) -> list:
        return [s for s in range(self.n) if self.players[s]]

    def explanations(self, player) -> list:
        """The ways to explain that ``player`` is to play now, each a list of facts."""
        if not self.played:
            return [[]]
        q, x = self.played[-1]
        following = next_in_suit(x, self.state["size"])
        if following is None:
            return [[]]
        suit, dead = suit_of(x), ("dead", following)
        ways = [[("holds", player, following)]]
        if self.state["options"]["change_suit"] == "leader_void":
            if player == q:
                ways.append([dead])
        elif player == q:
            ways.append([dead, ("some", q, suit)])
            ways.append([dead] + [("void", r, suit) for r in self.all_players()])
        else:
            ways.append([dead] + [("void", r, suit) for r in self.between(q, player)] + [("some", player, suit)])
        return ways

    # --- solving ----------------------------------------------------------------------------------
    def solve(self, facts: list, rng: Rng):
        """``(hands, stock)`` fitting the facts, or ``None``."""
        forbidden = {s: set(cards) for s, cards in self.forbidden.items()}
        caps = {s: dict(c) for s, c in self.caps.items()}
        sizes, unknown = list(self.sizes), list(self.unknown)
        forced = [[] for _ in range(self.n)]
        for fact in facts:
            if fact[0] == "dead":
                if any(fact[1] in self.known[s] for s in self.all_players()):
                    return None
                for s in self.all_players():
                    forbidden[s].add(fact[1])
            elif fact[0] == "in_stock":
                for s in range(self.n):
                    forbidden[s].add(fact[1])
            elif fact[0] == "void":
                _, s, suit = fact
                if any(suit_of(c) == suit for c in self.known[s]):
                    return None
                forbidden[s].update(c for c in unknown if suit_of(c) == suit)
        some = None
        for fact in facts:
            if fact[0] == "holds" and fact[2] not in self.known[fact[1]]:
                if not _force(fact[1], fact[2], unknown, sizes, caps, forbidden, forced):
                    return None
            elif fact[0] == "some" and not any(suit_of(c) == fact[2] for c in self.known[fact[1]]):
                some = fact[1:]
        if some is None:
            return self._deal(unknown, sizes, caps, forbidden, forced, rng)
        seat, suit = some
        for card in rng.shuffle([c for c in unknown if suit_of(c) == suit]):
            trial = (list(unknown), list(sizes), {s: dict(c) for s, c in caps.items()}, [list(f) for f in forced])
            if _force(seat, card, trial[0], trial[1], trial[2], forbidden, trial[3]):
                dealt = self._deal(trial[0], trial[1], trial[2], forbidden, trial[3], rng)
                if dealt is not None:
                    return dealt
        return None

    def _deal(self, unknown, sizes, caps, forbidden, forced, rng):
        if any(c < 0 for s in caps.values() for c in s.values()):
            return None
        if not caps and not any(forbidden.values()):
            dealt = _plain_deal(unknown, sizes, rng)
        else:
            try:
                dealt = redeal(unknown, sizes, rng, forbidden=forbidden, caps=caps, group=rank_of)
            except NoConsistentDeal:  # this explanation of the run is false: the caller tries another
                return None
        hands = [sorted(self.known[s]) + forced[s] + dealt[s] for s in range(self.n)]
        return hands, dealt[self.n]


def _plain_deal(cards: list, sizes: list, rng: Rng) -> list:
    """``cards`` shuffled and cut into places of ``sizes``: the uniform deal ``redeal`` would
    give when nothing is known, without building its flow graph (bots redeal in a loop)."""
    shuffled = list(cards)
    random.Random(rng.below(1 << 62)).shuffle(shuffled)
    places, start = [], 0
    for size in sizes:
        places.append(shuffled[start:start + size])
        start += size
    return places


def _force(seat, card, unknown, sizes, caps, forbidden, forced) -> bool:
    """Puts ``card`` in ``seat``'s hand ahead of the redeal, if the facts allow it."""
    if card not in unknown or card in forbidden[seat] or sizes[seat] == 0:
        return False
    if seat in caps:
        if caps[seat].get(rank_of(card), 1) <= 0:
            return False
        caps[seat][rank_of(card)] -= 1
    unknown.remove(card)
    sizes[seat] -= 1
    forced[seat].append(card)
    return True


def has_unseen(state: dict, seat, player) -> bool:
    """Whether more than one deal fits what ``seat`` has seen (``player``: who is to play in
    the run, ``None`` outside it). With two players left and a hand shown at the showdown,
    or a run that forces the last hidden card, every card may be known: then no redraw can
    change anything. Tries one fitting deal, then moving each unseen card elsewhere."""
    if state["phase"] not in ("exchange", "bog", "run"):
        return False
    picture, rng = _Picture(state, seat), Rng(0)
    history = picture.history()
    found = None
    for way in picture.explanations(player) if state["phase"] == "run" else [[]]:
        dealt = picture.solve(history + way, rng)
        if dealt is None:
            continue
        hands, stock = dealt
        places = {card: place for place, cards in enumerate([*hands, stock]) for card in cards
                  if card in picture.unknown}
        if found is not None and places != found:
            return True
        found = places
        for card, place in places.items():
            for other in range(picture.n + 1):
                fact = ("holds", other, card) if other < picture.n else ("in_stock", card)
                if other != place and picture.sizes[other] and picture.solve(history + way + [fact], rng):
                    return True
    return False


def resample_hidden(state: dict, seat, rng: Rng, player) -> tuple:
    """``(hands, stock)`` redrawn for ``seat`` (``None``: a spectator); ``player`` is who is
    to play in the run now (``None`` outside the run)."""
    picture = _Picture(state, seat)
    history = picture.history()
    ways = picture.explanations(player) if state["phase"] == "run" else [[]]
    for way in rng.shuffle(ways):
        dealt = picture.solve(history + way, rng)
        if dealt is not None:
            return dealt
    raise AssertionError("no redeal fits what the seat has seen")  # the real deal always fits
