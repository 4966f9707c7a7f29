"""The trick-taking mechanism: seats and sides, the cards a player may play (hand plus
face-up pile tops), the trick in progress, collecting it, what play reveals, the per-seat
view of all that, and ``resample``.

Botifarra is its only user today (Bog takes no tricks); it names no game's rule: a game
supplies its deck, legality, trick winner and card values through the hooks below.

**Seats** are numbered in playing order: the player after ``s`` is ``s + 1`` (on his right,
play going anticlockwise). ``Seating`` derives sides, partners and the order of speaking
once per table shape, so no code does ``1 - player`` or ``(s + 2) % 4`` arithmetic.

State keys this module relies on: ``seats``, ``options``, ``phase`` (``"play"`` while
cards are played), ``hands`` (per seat), ``piles`` (``None``, or per seat a list of piles,
each its dealt cards top first) with ``taken`` (cards gone from each pile), ``trick``
(``{"leader", "cards"}``), ``tricks`` (this hand's, ``{"leader", "cards", "winner"}``),
``won`` and ``card_points`` (per seat), ``voids`` and ``cannot_hold`` (per seat), ``result``.

**What play reveals.** A game's card rule must have *single witnesses*: whenever card
``c`` is illegal from a hand, one other card ``x`` of that hand makes it so on its own
(``c`` not legal from ``[c, x]``). Botifarra's rules are so (a card of the suit led, a card
that beats, a winning trump, a lower card of the suit, a card of an earlier suit). Then "c
was legal" says exactly which cards the hidden hand cannot hold, and ``cannot_hold`` records
it: voids, "could not beat" and "played the lowest" all at once.
"""

from functools import lru_cache

from ..core.errors import IllegalAction
from ..core.game import Game
from ..core.rng import Rng
from ..core.validate import copy_json
from .cards import suit_of
from .redeal import redeal


class Seating:
    """Seats, sides and playing order of one table, derived once."""

    __slots__ = ("players", "partnerships", "sides", "side_of")

    def __init__(self, players: int, partnerships: bool):
        self.players = players
        self.partnerships = partnerships
        self.sides = ((0, 2), (1, 3)) if partnerships else tuple((s,) for s in range(players))
        self.side_of = tuple(next(i for i, side in enumerate(self.sides) if s in side) for s in range(players))

    def right_of(self, seat: int) -> int:
        """The next player in playing order."""
        return (seat + 1) % self.players

    def partner(self, seat: int):
        return next((s for s in self.sides[self.side_of[seat]] if s != seat), None)

    def in_order_after(self, seat: int) -> list:
        """Every seat in playing order starting on ``seat``'s right, ``seat`` itself last."""
        return [(seat + step) % self.players for step in range(1, self.players + 1)]

    def teams(self) -> list:
        return [list(side) for side in self.sides] if self.partnerships else []


@lru_cache(maxsize=None)
def seating(players: int, partnerships: bool) -> Seating:
    return Seating(players, partnerships)


def finished_tricks(view: dict, remembers: bool) -> list:
    """This hand's finished tricks a player knows of: every one if he ``remembers`` them
    (the view's ``tricks``, what the game log tells), else only those the rules let him look
    at (each side's last trick, and the latest)."""
    if remembers:
        return view["tricks"]
    return [trick for trick in [view["last_trick"], *view["last_tricks"]] if trick]


def played_in_view(view: dict, remembers: bool = False) -> set:
    """The cards of this hand a player knows were played: the trick in progress and the
    finished tricks he knows of (``finished_tricks``)."""
    played = set(view["trick"]["cards"])
    for trick in finished_tricks(view, remembers):
        played.update(trick["cards"])
    return played


class TrickTakingGame(Game):
    """Hooks for a game to fill: ``partnerships``, ``deck``, ``sort_hand``, ``legal``,
    ``refusal``, ``trick_winner``, ``card_value``, ``hand_over``; optionally
    ``witness_suits`` and ``pinned_cards``."""

    def partnerships(self, options: dict, players: int) -> bool:
        return False

    def deck(self, players: int):
        raise NotImplementedError

    def sort_hand(self, state: dict, cards) -> list:
        return list(cards)

    def legal(self, state: dict, playable: list) -> list:
        """The cards of ``playable`` the player to move may play to the current trick."""
        raise NotImplementedError

    def refusal(self, state: dict, card: str, playable: list) -> IllegalAction:
        """Why ``card`` (not legal) may not be played."""
        return IllegalAction(f"{card} may not be played now", "illegal_card", card=card)

    def trick_winner(self, state: dict, trick: dict) -> int:
        raise NotImplementedError

    def card_value(self, card: str) -> int:
        return 0

    def hand_over(self, state: dict, rng: Rng) -> None:
        """Every card is played: score the hand, deal the next or end the game."""
        raise NotImplementedError

    def witness_suits(self, state: dict, card: str):
        """Suits where a witness against ``card`` may be (``None``: any); an optimisation."""
        return None

    def pinned_cards(self, state: dict) -> dict:
        """Unplayed cards everyone knows the holder of: ``{card: seat}``."""
        return {}

    # --- derived -----------------------------------------------------------------------------
    def seating(self, state: dict) -> Seating:
        return seating(state["seats"], self.partnerships(state["options"], state["seats"]))

    def teams(self, options: dict, seats: int) -> list:
        return seating(seats, self.partnerships(options, seats)).teams()

    def player_to_play(self, state: dict) -> int:
        trick = state["trick"]
        return (trick["leader"] + len(trick["cards"])) % state["seats"]

    def pile_tops(self, state: dict, seat: int) -> list:
        if not state["piles"]:
            return []
        return [pile[taken] for pile, taken in zip(state["piles"][seat], state["taken"][seat]) if taken < len(pile)]

    def playable(self, state: dict, seat: int) -> list:
        """The cards ``seat`` may choose from: his hand, plus his face-up pile tops."""
        return state["hands"][seat] + self.pile_tops(state, seat)

    def legal_cards(self, state: dict, seat) -> list:
        if state["result"] is not None or state["phase"] != "play" or seat != self.player_to_play(state):
            return []
        return self.legal(state, self.playable(state, seat))

    def publicly_located(self, state: dict) -> set:
        """Cards everyone has seen: played this hand, on the table, face up on a pile."""
        seen = {card for trick in state["tricks"] for card in trick["cards"]}
        seen.update(state["trick"]["cards"])
        for seat_piles, seat_taken in zip(state["piles"] or [], state["taken"] or []):
            for pile, taken in zip(seat_piles, seat_taken):
                seen.update(pile[:taken + 1])
        return seen

    # --- playing a card -------------------------------------------------------------------------
    def play_card(self, state: dict, seat: int, card, rng: Rng, judged: bool = True) -> None:
        """Plays ``card`` from ``seat``'s cards; ``judged=False`` leaves its legality to be
        judged later (a fair table's sealed hand: ``kits.fair_cards``)."""
        playable = self.playable(state, seat)
        if not isinstance(card, str) or card not in playable:
            shown = card[:8] if isinstance(card, str) else "?"
            raise IllegalAction(f"Seat {seat} cannot play {shown}: not among its playable cards",
                                "not_your_card", card=shown)
        if judged and card not in self.legal(state, playable):
            raise self.refusal(state, card, playable)
        self.record_inferences(state, seat, card)
        if card in state["hands"][seat]:
            state["hands"][seat].remove(card)
        else:
            tops = [pile[taken] if taken < len(pile) else None
                    for pile, taken in zip(state["piles"][seat], state["taken"][seat])]
            state["taken"][seat][tops.index(card)] += 1
        for cards in state["cannot_hold"]:
            if card in cards:
                cards.remove(card)
        trick = state["trick"]
        trick["cards"].append(card)
        if len(trick["cards"]) == state["seats"]:
            self.collect_trick(state, rng)

    def record_inferences(self, state: dict, seat: int, card: str) -> None:
        """What everyone learns about ``seat``'s hidden hand from his legal ``card``."""
        trick = state["trick"]
        if not trick["cards"] or not state["hands"][seat]:
            return  # a lead reveals nothing; nothing hidden in an empty hand
        led = suit_of(trick["cards"][0])
        if suit_of(card) != led and led not in state["voids"][seat]:
            state["voids"][seat].append(led)
        suits = self.witness_suits(state, card)
        known = set(state["cannot_hold"][seat])
        located = self.publicly_located(state)
        deck = self.deck(state["seats"]).cards
        newly = [other for other in deck
                 if (suits is None or suit_of(other) in suits) and other not in located and other not in known
                 and other != card and card not in self.legal(state, [card, other])]
        if newly:
            order = {c: i for i, c in enumerate(deck)}
            state["cannot_hold"][seat] = sorted(known | set(newly), key=order.__getitem__)

    def collect_trick(self, state: dict, rng: Rng) -> None:
        trick = state["trick"]
        winner = self.trick_winner(state, trick)
        state["won"][winner] += 1
        state["card_points"][winner] += sum(self.card_value(card) for card in trick["cards"])
        state["tricks"].append({"leader": trick["leader"], "cards": trick["cards"], "winner": winner})
        state["trick"] = {"leader": winner, "cards": []}
        if len(state["tricks"]) * state["seats"] == len(self.deck(state["seats"])):
            self.hand_over(state, rng)

    def fresh_hand_keys(self, players: int) -> dict:
        """The per-hand bookkeeping of a new deal (the trick's leader is the game's to set)."""
        return {"trick": {"leader": None, "cards": []}, "tricks": [], "won": [0] * players,
                "card_points": [0] * players, "voids": [[] for _ in range(players)],
                "cannot_hold": [[] for _ in range(players)]}

    # --- seeing ---------------------------------------------------------------------------------
    def trick_view(self, state: dict, seat) -> dict:
        """The view's card part: own hand, counts, piles, the trick, this hand's finished
        tricks (public: the game log tells every card played), each side's last trick (all
        the rules let a player look at), the latest trick (for the screen's pause), tricks
        taken, what play revealed."""
        table = self.seating(state)
        tricks = state["tricks"]
        return {
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_counts": [len(hand) for hand in state["hands"]],
            "piles": self.piles_view(state),
            "trick": copy_json(state["trick"]),
            "tricks": copy_json(tricks),
            "last_trick": copy_json(tricks[-1]) if tricks else None,
            "last_tricks": [next((copy_json(t) for t in reversed(tricks) if t["winner"] in side), None)
                            for side in table.sides],
            "tricks_won": list(state["won"]),
            "voids": copy_json(state["voids"]),
            "cannot_hold": copy_json(state["cannot_hold"]),
            "legal_cards": self.legal_cards(state, seat) if seat is not None else [],
        }

    def piles_view(self, state: dict):
        """Each pile as its face-up top (``None`` once empty) and its face-down count."""
        if not state["piles"]:
            return None
        return [[{"top": pile[taken] if taken < len(pile) else None, "down": max(0, len(pile) - taken - 1)}
                 for pile, taken in zip(seat_piles, seat_taken)]
                for seat_piles, seat_taken in zip(state["piles"], state["taken"])]

    def hidden_places(self, state: dict, seat) -> list:
        """Where ``seat`` cannot see: ``(kind, owner, cards, cards it cannot hold)`` for every
        other hand (``"hand"``) and every seat's face-down pile cards (``"down"``)."""
        n = state["seats"]
        mine = seat if type(seat) is int and 0 <= seat < n else None
        pinned = self.pinned_cards(state)
        places = []
        for owner in range(n):
            elsewhere = {card for card, holder in pinned.items() if holder != owner}
            if owner != mine:
                places.append(("hand", owner, state["hands"][owner], set(state["cannot_hold"][owner]) | elsewhere))
            if state["piles"]:
                down = [card for pile, taken in zip(state["piles"][owner], state["taken"][owner])
                        for card in pile[taken + 1:]]
                places.append(("down", owner, down, elsewhere))
        return places

    def has_secrets(self, state: dict, seat) -> bool:
        """Whether what ``seat`` cannot see has more than one arrangement, so ``resample``
        can redraw it: face-down cards whose order is unknown, or a way to move cards round
        a cycle of hidden places (a card of A allowed in B, one of B allowed in C, ..., one
        allowed back in A), which is what any other deal would do."""
        if not super().has_secrets(state, seat):
            return False
        places = [(kind, cards, excluded) for kind, _, cards, excluded in self.hidden_places(state, seat) if cards]
        if any(kind == "down" and len(cards) > 1 for kind, cards, _ in places):
            return True
        moves = {a: [b for b, (_, _, excluded) in enumerate(places) if b != a and any(c not in excluded for c in cards)]
                 for a, (_, cards, _) in enumerate(places)}
        done, active = set(), set()

        def cycle_from(a) -> bool:
            active.add(a)
            for b in moves[a]:
                if b in active or (b not in done and cycle_from(b)):
                    return True
            active.discard(a)
            done.add(a)
            return False

        return any(a not in done and cycle_from(a) for a in moves)

    def imagined_deal(self, view: dict, rng: Rng, pinned=None, remembers: bool = False) -> dict:
        """The cards ``view``'s seat cannot see, dealt at random consistently with what it
        can (the bots' worlds): ``{"hands": per seat, "piles": per seat its piles with the
        cards left, top first (None without piles)}``; the seat's own hand is its own.

        A player who does not remember the older tricks (``finished_tricks``) knows only the
        trick in progress and each side's last trick, so a card not in sight is in another
        hand, face down in a pile, or in an older trick: all three are places of the deal,
        the older tricks holding what the counts leave over (nothing, when he remembers). What
        play revealed holds: no hand gets a card of its ``cannot_hold``, and no such card
        went into an older trick (played cards leave every ``cannot_hold``). ``pinned``
        (``{card: seat}``) keeps a card announced by its holder with him, unless played.
        """
        n, mine = len(view["hand_counts"]), view["you"]
        deck = self.deck(n).cards
        piles = view["piles"]
        seen = set(view["hand"]) | played_in_view(view, remembers)
        for seat_piles in piles or []:
            seen.update(pile["top"] for pile in seat_piles if pile["top"])
        unseen = [card for card in deck if card not in seen]
        unplayed = {card for cards in view["cannot_hold"] for card in cards}
        pinned = {card: holder for card, holder in (pinned or {}).items() if card not in seen}
        others = [s for s in range(n) if s != mine]
        sizes = [view["hand_counts"][s] for s in others]
        forbidden = [set(view["cannot_hold"][s]) | {c for c, holder in pinned.items() if holder != s} for s in others]
        for seat_piles in piles or []:
            sizes += [pile["down"] for pile in seat_piles]
        if piles:
            forbidden += [{c for c, holder in pinned.items() if holder != owner}
                          for owner, seat_piles in enumerate(piles) for _ in seat_piles]
        sizes.append(len(unseen) - sum(sizes))  # the older tricks
        forbidden.append(unplayed)
        dealt = redeal(unseen, sizes, rng, forbidden=dict(enumerate(forbidden)))
        hands = [list(view["hand"]) if s == mine else None for s in range(n)]
        for s, held in zip(others, dealt):
            hands[s] = held
        dealt_piles = None
        if piles:
            down = iter(dealt[len(others):-1])
            dealt_piles = [[([pile["top"]] if pile["top"] else []) + next(down) for pile in seat_piles]
                           for seat_piles in piles]
        return {"hands": hands, "piles": dealt_piles}

    def resample(self, state: dict, seat, rng: Rng) -> dict:
        """A state ``seat`` cannot tell from ``state``: every card it cannot see redealt among
        the places it cannot see (other hands; face-down pile cards, its own included), each
        keeping its size, no hand getting a card it is known not to hold, pinned cards kept
        by their holders; then ``Game.resample`` replaces the RNG, so later deals are unknown."""
        new = copy_json(state)
        places, cards, sizes, forbidden = [], [], [], []
        for kind, owner, held, excluded in self.hidden_places(state, seat):
            places.append((kind, owner))
            cards += held
            sizes.append(len(held))
            forbidden.append(excluded)
        for (kind, owner), held in zip(places, redeal(cards, sizes, rng, forbidden=dict(enumerate(forbidden)))):
            if kind == "hand":
                new["hands"][owner] = self.sort_hand(state, held)
                continue
            fresh = iter(held)
            for pile, taken in zip(new["piles"][owner], state["taken"][owner]):
                pile[taken + 1:] = [next(fresh) for _ in pile[taken + 1:]]
        return super().resample(new, seat, rng)
