"""Bog bots: three levels that see only their seat's view and play only what it lists.

Every decision with a choice is taken on *worlds*: full states rebuilt from the view
(``Bog.state_from_view``) and redrawn by ``Bog.resample`` (the unseen cards dealt again,
consistently with every card shown, played or known dead), each candidate scored in the
same worlds and the best mean taken (``kits.pimc.choose``). Scores are chips won or lost in
this deal. The levels differ in how many worlds they look at, whether they read the calls
already made, and how often they bluff (``LEVELS``).

* **Phase 1** (bog or go out). In a world the players still to speak bog with a chance that
  grows with their best combination (``bog_chance``, a model of a sensible player), the
  pot is settled by the engine's own ``phase1_winner``: bogging scores the pot and the
  other stakes won, or the stake lost (nothing when nobody holds a combination: the stakes
  go back); going out scores the 2 chips it costs. Hard also weighs each world by how
  likely the calls already made are with the hands it deals (someone who bogged seldom
  holds nothing). A lone bogger wins without showing, so when nobody has bogged the last
  speakers can take BOG with nothing: the worlds see that; on top of it, while nobody has
  bogged, each level bluffs at its own rate when bogging costs little more than going
  out. The stake is always the least allowed: the winner takes his own stake back, so a
  bigger one only risks more.
* **The dealer's exchange** of the turned-up card: each hand he could keep is scored in
  the same worlds by phase 1 (the others' calls drawn as above, he speaks last, seeing
  them) plus the run: medium rolls it out greedily in ``EXCHANGE_RUN_WORLDS`` of its worlds
  (so the run weighs lightly in its mean), hard with ``PlannedRun`` in every world.
* **Phase 2** (the run) is mostly forced. Where there is a choice (leading, after a king,
  after a dead card) each card is played in each world and the run rolled out to its end
  with the greedy rule for every player (``greedy_card``: a board card with chips on it
  first, then the card that starts the longest stretch of one's own cards, a stretch up
  to a king best, as the king gives the lead back); the score is the boxes collected, the
  chips won or paid for the cards left, and the penalty for a board card left in hand.
  Easy plays the greedy rule itself. Hard rolls out with ``PlannedRun`` instead: in a
  world every hand is known, so at each free choice the player (hard and the others alike)
  plays the card that keeps the lead longest (a stretch of his own cards ending on a king
  or on a card whose successor nobody holds); it is fast enough for 40 worlds a card. Hard
  also adds the run to its bog-or-out scores: with ``leader="bog_winner"`` winning BOG
  wins the lead of the run (and with ``run_players="boggers"`` going out leaves it).
"""

from dataclasses import dataclass

from ...kits.pimc import choose, world_sampler
from ...core.registry import bots_by_level
from ...core.rng import Rng
from ...kits.cards import suit_of
from .combos import DECKS, RANKS, best_combination, deal_plan, next_in_suit, phase1_winner, phase2_turn
from .rules import BOG, GOING_OUT, MIN_STAKE, Bog
from .unseen import play_step

GAME = Bog()


@dataclass(frozen=True)
class Level:
    bog_worlds: int  # worlds for a phase-1 call or the dealer's exchange
    run_worlds: int  # worlds for a choice in the run (0: the greedy rule alone)
    read_calls: bool  # weigh worlds by the calls already made
    bluff: float  # chance to bog anyway when it costs at most BLUFF_SLACK more than going out
    plans: bool = False  # roll the run out with ``PlannedRun`` (else ``_Rollout``), in every exchange world
    exchange_worlds: int = 0  # worlds for the dealer's exchange (0: ``bog_worlds``)

    def rollout(self, world: dict, run: dict, hands: list, me: int):
        return (PlannedRun if self.plans else _Rollout)(world, run, hands, me)


LEVELS = {
    "easy": Level(bog_worlds=4, run_worlds=0, read_calls=False, bluff=0.30),
    "medium": Level(bog_worlds=16, run_worlds=6, read_calls=False, bluff=0.10),
    "hard": Level(bog_worlds=60, run_worlds=40, read_calls=True, bluff=0.08, plans=True, exchange_worlds=30),
}
BLUFF_SLACK = 2.0  # chips
EXCHANGE_RUN_WORLDS = 4  # of medium's exchange worlds, how many also roll out the run

# A sensible player's chance to bog with his best combination (a pair by its rank).
BOG_CHANCE = {"nothing": 0.1, "double_bog": 0.8, "mitsi": 0.85, "trio": 0.95, "poker": 1.0}
PAIR_CHANCE_LOW, PAIR_CHANCE_HIGH = 0.3, 0.7  # a pair of aces .. a pair of kings


def bog_chance(hand: list) -> float:
    combination = best_combination(hand)
    if combination["kind"] != "bog":
        return BOG_CHANCE[combination["kind"]]
    strength = RANKS.index(combination["ranks"][0]) / (len(RANKS) - 1)
    return PAIR_CHANCE_LOW + (PAIR_CHANCE_HIGH - PAIR_CHANCE_LOW) * strength


def choose_action(view: dict, level: str, seed: int) -> dict:
    """The action of the seat ``view["you"]``, whose turn it must be: one of ``view["legal"]``."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    legal = view.get("legal") or []
    if view.get("result") is not None or view.get("you") not in view.get("to_act", ()) or not legal:
        raise ValueError("the bot has no move: it is not this seat's turn")
    if len(legal) == 1:
        return legal[0]
    params, rng = LEVELS[level], Rng(seed)
    if view["phase"] == "bog":
        return _bog_or_out(view, params, rng)
    if view["phase"] == "exchange":
        return _exchange(view, params, rng)
    return _run_card(view, params, rng)


def _sampler(view: dict, rng: Rng):
    return world_sampler(GAME, GAME.state_from_view(view, rng), view["you"])


# --- phase 1 -----------------------------------------------------------------------------------
class _Calls:
    """Phase 1 in one world: the calls not yet made by the others drawn from
    ``bog_chance`` (the dealer's exchange comes before anyone speaks), and the pot settled
    by ``phase1_winner`` for a given hand of the seat ``me``, who bogs with the least stake."""

    def __init__(self, view: dict, hands: list, rng: Rng, me: int):
        self.view, self.hands, self.me = view, hands, me
        calls = view["calls"]
        self.n, self.dealer = view["seats"], view["dealer"]
        self.step = play_step(view["options"])
        raise_rule = view["options"]["stake_rule"] == "raise"
        stakes = list(view["stakes"])
        self.pot = next(item["chips"] for item in view["board"] if item["box"] == BOG)
        self.boggers = [s for s in view["order"] if calls[s] == "bog"]
        self.likelihood = 1.0  # of the calls made so far, with these hands
        top = max(stakes)
        for seat in view["order"]:
            least = max(MIN_STAKE, top + 1) if raise_rule else MIN_STAKE
            if seat == me:
                self.my_stake = least
            elif calls[seat] is not None:
                chance = bog_chance(hands[seat])
                self.likelihood *= chance if calls[seat] == "bog" else 1 - chance
                continue
            elif view["chips"][seat] >= least and rng.random() < bog_chance(hands[seat]):
                self.boggers.append(seat)
                stakes[seat] = least
            else:
                self.pot += min(GOING_OUT, view["chips"][seat])
                continue
            top = max(top, least)
        self.others_stakes = sum(stakes) - stakes[me]

    def position(self, seat: int) -> int:
        return (seat * self.step) % self.n

    def bog_score(self, hand: list) -> float:
        """Chips won (or lost) by bogging with ``hand``."""
        boggers = sorted(set(self.boggers) | {self.me})
        by_position = [[] for _ in range(self.n)]
        for seat in boggers:
            by_position[self.position(seat)] = hand if seat == self.me else self.hands[seat]
        winner = phase1_winner(by_position, [self.position(s) for s in boggers], self.position(self.dealer))
        if winner is None:
            return 0.0
        if self.position(winner) == self.me:
            return float(self.pot + self.others_stakes)
        return -float(self.my_stake)

    def out_score(self) -> float:
        return -float(min(GOING_OUT, self.view["chips"][self.me]))


def _bog_or_out(view: dict, params: Level, rng: Rng) -> dict:
    legal = view["legal"]
    out = next(a for a in legal if a["type"] == "out")
    bog = min((a for a in legal if a["type"] == "bog"), key=lambda a: a["chips"])
    me, hand = view["you"], view["hand"]
    draws = Rng(rng.below(1 << 53))
    weights = []

    def evaluate(world, candidates):
        calls = _Calls(view, world["hands"], draws, me)
        weight = calls.likelihood if params.read_calls else 1.0
        weights.append(weight)
        scores = [calls.bog_score(hand), calls.out_score()]
        if params.plans:  # bogging may win the lead of the run (or, with only boggers in it, a place)
            scores = [scores[0] + _run_value(world, me, hand, calls, params),
                      scores[1] + _run_value(world, me, hand, calls, params, bogs=False)]
        return [weight * score for score in scores]

    choice = choose([bog, out], _sampler(view, rng), evaluate, rng, worlds=params.bog_worlds)
    if choice.action is bog:
        return bog
    if any(call == "bog" for call in view["calls"]):
        return out  # a bluff works only on a lone bogger, who wins without showing
    total = sum(weights) or 1.0
    shortfall = (choice.means[1] - choice.means[0]) * len(weights) / total
    return bog if shortfall <= BLUFF_SLACK and rng.random() < params.bluff else out


# --- the dealer's exchange ---------------------------------------------------------------------
def _exchange(view: dict, params: Level, rng: Rng) -> dict:
    me, hand, turned = view["you"], view["hand"], view["turned"]
    candidates = view["legal"]
    kept = [hand if a["type"] == "decline" else sorted(set(hand) - {a["card"]} | {turned}) for a in candidates]
    draws = Rng(rng.below(1 << 53))
    rolled = [0]

    def evaluate(world, _candidates):
        calls = _Calls(view, world["hands"], draws, me)
        scores = []
        roll = params.plans or (params.run_worlds > 0 and rolled[0] < EXCHANGE_RUN_WORLDS)
        rolled[0] += 1
        for cards in kept:
            # The dealer speaks last and sees the calls: he bogs only when it pays.
            score = max(calls.bog_score(cards), calls.out_score())
            if roll:
                score += _run_value(world, me, cards, calls, params)
            scores.append(score)
        return scores

    worlds = params.exchange_worlds or params.bog_worlds
    return choose(candidates, _sampler(view, rng), evaluate, rng, worlds=worlds).action


def _run_value(world: dict, me: int, cards: list, calls: _Calls, params: Level, bogs: bool = True) -> float:
    """The run rolled out in ``world`` with ``me`` holding ``cards``, having bogged or not
    (which decides who leads, and with ``run_players="boggers"`` whether he plays)."""
    options = world["options"]
    hands = list(world["hands"])
    hands[me] = cards
    boggers = set(calls.boggers) | {me} if bogs else set(calls.boggers)
    players = [world["active"][s] and (options["run_players"] == "all" or s in boggers) for s in range(world["seats"])]
    if not players[me]:
        return 0.0
    order = [s for s in calls.view["order"] if players[s]]
    leader = order[0]
    if options["leader"] == "bog_winner":
        by_position = [[] for _ in range(calls.n)]
        for seat in boggers:
            by_position[calls.position(seat)] = hands[seat]
        winner = phase1_winner(by_position, [calls.position(s) for s in boggers], calls.position(calls.dealer))
        if winner is not None and players[calls.position(winner)]:
            leader = calls.position(winner)
    run = {"players": players, "leader": leader, "played": []}
    return params.rollout(world, run, hands, me).play(None)


# --- phase 2 -----------------------------------------------------------------------------------
def _run_card(view: dict, params: Level, rng: Rng) -> dict:
    legal = view["legal"]
    cards = [a["card"] for a in legal]
    if params.run_worlds == 0:
        boxes = {item["box"]: item["chips"] for item in view["board"]}
        size = deal_plan(max(3, len(view["order"])), view["options"]["four_players"])[0]
        return legal[cards.index(greedy_card(cards, view["hand"], boxes, _successor_table(size)))]
    me = view["you"]

    def evaluate(world, candidates):
        return [params.rollout(world, world["run"], world["hands"], me).play(a["card"]) for a in candidates]

    return choose(legal, _sampler(view, rng), evaluate, rng, worlds=params.run_worlds).action


_SUCCESSORS = {}


def _successor_table(size: int) -> dict:
    """card -> the next card of its run (``None`` after a king), for a deck of ``size``."""
    if size not in _SUCCESSORS:
        _SUCCESSORS[size] = {card: next_in_suit(card, size) for card in DECKS[size].cards}
    return _SUCCESSORS[size]


def greedy_card(legal: list, hand: list, boxes: dict, successors: dict) -> str:
    """The greedy rule of the run: a board card with chips on it first, then the card that
    starts the longest stretch of the player's own cards (to a king best: it gives the lead
    back); the first such card of ``legal`` on a tie."""
    held = set(hand)

    def value(card):
        length, last = 0, card
        while successors.get(last) in held:
            last = successors[last]
            length += 1
        return (boxes.get(card, 0) > 0, length + (3 if successors.get(last) is None else 0))

    return max(legal, key=value)


class PlannedRun:
    """Hard's roll-out of one world's run: the cards of every hand are known in the world,
    so at each free choice the player (``me`` and the others alike) plays the card that keeps
    the lead longest (``_control_run``): a stretch of his own cards that ends on a king or on
    a card whose successor nobody holds (dead, or played) gives him the next choice too.
    Runs in seat order without the rule checks of ``phase2_turn`` (the world is legal), so a
    decision affords several times the worlds of ``_Rollout``."""

    def __init__(self, world: dict, run: dict, hands: list, me: int):
        self.me, self.n = me, world["seats"]
        options = world["options"]
        self.step = play_step(options)
        self.all_void = options["change_suit"] == "all_void"
        self.hands = [set(hands[s]) if run["players"][s] else None for s in range(self.n)]
        self.holder = {card: s for s, hand in enumerate(self.hands) if hand for card in hand}
        self.last = tuple(run["played"][-1]) if run["played"] else None
        self.leader = run["leader"]
        self.boxes = {item: sum(pot) for item, pot in world["boxes"].items() if item != BOG}
        self.chips = world["chips"]
        self.successors = _successor_table(world["size"])

    def _turn(self):
        """``(player, legal cards, winner)`` as ``phase2_turn`` gives them, in seats."""
        if self.last is None:
            return self.leader, sorted(self.hands[self.leader]), None
        seat, card = self.last
        hand = self.hands[seat]
        if not hand:
            return None, [], seat
        following = self.successors[card]
        if following is None:
            return seat, sorted(hand), None
        if following in self.holder:
            return self.holder[following], [following], None
        suit = suit_of(card)
        for offset in range(self.n if self.all_void else 1):
            player = (seat + offset * self.step) % self.n
            of_suit = sorted(c for c in self.hands[player] or () if suit_of(c) == suit)
            if of_suit:
                return player, of_suit, None
        return seat, sorted(hand), None

    def _control_run(self, card: str, hand: set) -> tuple:
        """How good leading ``card`` is for its holder: a board card with chips first, then
        the lead kept after the stretch it starts, then the stretch's length."""
        length, last = 1, card
        while self.successors[last] in hand:
            last = self.successors[last]
            length += 1
        following = self.successors[last]
        kept = following is None or following not in self.holder
        return (self.boxes.get(card, 0) > 0, kept, length)

    def play(self, first) -> float:
        """Plays ``first`` (a card of ``me``'s, or ``None``), then the planned rule to the end;
        chips won or lost by ``me``."""
        if self.hands[self.me] is None:
            return 0.0
        gain = 0.0
        while True:
            player, legal, winner = self._turn()
            if winner is not None:
                break
            hand = self.hands[player]
            if first is not None and player == self.me:
                card, first = first, None
            elif len(legal) == 1:
                card = legal[0]
            else:
                card = max(legal, key=lambda c: self._control_run(c, hand))
            hand.discard(card)
            del self.holder[card]
            self.last = (player, card)
            if card in self.boxes:
                if player == self.me:
                    gain += self.boxes[card]
                self.boxes[card] = 0
        return gain + self._settlement(winner)

    def _settlement(self, winner: int) -> float:
        mine = self.hands[self.me]
        if winner == self.me:
            return float(sum(min(len(hand), self.chips[s])
                             for s, hand in enumerate(self.hands) if hand is not None and s != self.me))
        owed = min(len(mine), self.chips[self.me])
        return -float(owed + sum(self.boxes[card] for card in mine if card in self.boxes))


class _Rollout:
    """One world's run played to its end with the greedy rule, scored for the seat ``me``
    (on copies of ``hands``: a world serves every candidate)."""

    def __init__(self, world: dict, run: dict, hands: list, me: int):
        self.me, self.n = me, world["seats"]
        self.options, self.size = world["options"], world["size"]
        self.step = play_step(self.options)
        self.players = run["players"]
        self.by_position = [None] * self.n
        for seat in range(self.n):
            if self.players[seat]:
                self.by_position[self.pos(seat)] = list(hands[seat])
        self.last = None
        if run["played"]:
            seat, card = run["played"][-1]
            self.last = (self.pos(seat), card)
        self.leader = self.pos(run["leader"])
        self.boxes = {item: sum(pot) for item, pot in world["boxes"].items() if item != BOG}
        self.chips = world["chips"]
        self.successors = _successor_table(self.size)

    def pos(self, seat: int) -> int:
        return (seat * self.step) % self.n  # its own inverse: maps positions back to seats too

    def play(self, first) -> float:
        """Plays ``first`` (a card of ``me``'s, or ``None``), then greedily to the end."""
        mine, gain = self.pos(self.me), 0.0
        if not self.players[self.me]:
            return 0.0
        while True:
            turn = phase2_turn(self.by_position, self.last, self.leader, self.size, self.options["change_suit"])
            if turn["winner"] is not None:
                break
            player, legal = turn["player"], turn["legal"]
            hand = self.by_position[player]
            if first is not None and player == mine:
                card, first = first, None
            else:
                card = legal[0] if len(legal) == 1 else greedy_card(legal, hand, self.boxes, self.successors)
            hand.remove(card)
            self.last = (player, card)
            if card in self.boxes:
                if player == mine:
                    gain += self.boxes[card]
                self.boxes[card] = 0
        return gain + self._settlement(turn["winner"], mine)

    def _settlement(self, winner: int, mine: int) -> float:
        my_hand = self.by_position[mine]
        if winner == mine:
            return float(sum(min(len(hand), self.chips[self.pos(p)])
                             for p, hand in enumerate(self.by_position) if hand is not None and p != mine))
        owed = min(len(my_hand), self.chips[self.me])
        return -float(owed + sum(self.boxes[card] for card in my_hand if card in self.boxes))


BOTS = bots_by_level(choose_action, Bog.bot_levels)
