"""Crown and Anchor / Coroa e Âncora (digest: shared/rules/crown_anchor.md).

One banker, the others punters. Every round all punters stake at once (each confirms with
``done``), then the banker throws three dice. A stake on a symbol shown ``m`` times is
returned with ``m``:1 (standard) or 1:1, 3:1, 5:1 (fair); otherwise the bank takes it.

Choices where the digest leaves room, each a table option unless said otherwise:

* ``bank`` (the digest's resolution: the bank has the edge, so by default everyone gets
  it in turn): ``rotate`` (default): the bank passes to the player on the banker's left
  every ``rotate_every`` rolls (default 5); ``lot``: a banker drawn by lot keeps the bank
  until it breaks; ``fixed``: the first seat holds the bank all game (the table chooses
  the banker by seating), until it breaks.
* ``payouts``: ``by_bank`` (default) pays 1:1, 2:1, 3:1 when the bank rotates and the fair
  1:1, 3:1, 5:1 when one player keeps it (``lot``, ``fixed``), since a bank that does not
  rotate must not keep the edge; ``standard`` or ``fair`` force either table.
* ``volunteer`` (off): the bank goes to a volunteer (a draw among several, among everyone
  if nobody volunteers), at the start and whenever the bank breaks.
* A broken bank passes to the next player (``rotate``), by a new draw (``lot``, ``fixed``),
  or to a volunteer (``volunteer`` on). The banker is broken when his stack reaches zero.
* The banker first collects the losing stakes, then pays the winners from his stack plus
  those. If that cannot cover every win, ``broken_bank``: ``seating`` (default) pays punters
  in full from the banker's left until the bank is exhausted; ``pro_rata`` pays everyone
  the same fraction. Winning stakes always come back: they were never the bank's.
* Table limits apply to one punter's total stake on one symbol in one round: at least
  ``min_bet``, at most ``max_bet`` (0 = no limit). A punter who cannot cover the minimum
  after a roll leaves the table, as one with no chips does.
* The game ends by agreement: every punter votes ``end`` in a round (taking back his stakes)
  and the banker then ends instead of rolling. A vote stands across rolls until its punter
  stakes again (the banker's, until he rolls), so a punter who votes after the others have
  confirmed is heard next round. A banker who wants to stop first may end
  instead of rolling at any time: the stakes go back, no roll is made, and his proposal
  stands for the next round. Or it ends when punters have withdrawn (``leave``) or gone
  broke until no punter remains. The result is net chips; winners have the best net.
* Fair tables (shared tables, ``core.fair``): no banker or table draws a roll or a lot.
  Every draw (the roll once the banker calls it, so after the stakes are locked; the first
  banker by lot; the choice among volunteers once all have answered; a new banker by lot)
  waits (phase ``draw`` for a bank, ``roll`` for a roll; ``drawing`` says which) for a fair
  round among the seated players and is read from its joint nonce. Forfeit rule: a player
  whose device fails its part leaves the table: a punter's stakes go to the bank; a
  banker's stakes go back to the punters and the bank passes on as when it breaks; the
  draw then starts over among those still seated.
"""

from fractions import Fraction
from functools import lru_cache
from itertools import product

from ...kits import fair as fair_moves
from ...kits.chips import left_of, pay_claims
from ...core import fair
from ...core.errors import IllegalAction, InvalidOptions
from ...core.game import PLAYERS, Game, Move
from ...core.options import Option, options_shape, resolve_options
from ...core.rng import Rng
from ...core.shape import Bool, Dict, Enum, Int, List, Map, Optional, PerSeat, Seat, Seats, Tuple, Where
from ...core.validate import copy_json

SYMBOLS = ("hearts", "diamonds", "spades", "clubs", "crown", "anchor")
PAYOUTS = {"standard": (1, 2, 3), "fair": (1, 3, 5)}
DICE = 3
HISTORY = 12  # latest rolls kept for the table's history; the tally counts every roll
MAX_STAKE = 10**9
MAX_COUNT = (1 << 53) - 1  # rolls and faces seen: exact in JavaScript, never reached

SYMBOL_SHAPE = Enum(*SYMBOLS)
ROLL_SHAPE = List(SYMBOL_SHAPE, max_len=DICE, min_len=DICE)
STAKES_SHAPE = Map(SYMBOL_SHAPE, Int(1, MAX_STAKE), max_len=len(SYMBOLS))

OPTIONS = {
    "bank": Option("rotate", choices=("rotate", "lot", "fixed")),
    "rotate_every": Option(5, minimum=1, maximum=100),
    "payouts": Option("by_bank", choices=("by_bank", "standard", "fair")),
    "volunteer": Option(False),
    "start_chips": Option(100, minimum=1, maximum=100_000),
    "min_bet": Option(1, minimum=1, maximum=10_000),
    "max_bet": Option(0, minimum=0, maximum=100_000),
    "broken_bank": Option("seating", choices=("seating", "pro_rata")),
}

# What a save made before the rotating-bank default (no ``payouts`` option yet) was played
# with when it named no value: ``CrownAnchor.saved_options``.
LEGACY_DEFAULTS = {"bank": "lot", "rotate_every": 3}


def check_options(options) -> dict:
    """Resolved options, with the checks that involve more than one option."""
    resolved = resolve_options(OPTIONS, options)
    if resolved["max_bet"] and resolved["max_bet"] < resolved["min_bet"]:
        raise InvalidOptions("The table maximum is below the minimum", "crown_anchor.limits")
    if resolved["start_chips"] < resolved["min_bet"]:
        raise InvalidOptions(
            "Starting chips do not cover the table minimum", "crown_anchor.start_chips"
        )
    return resolved


def payout_table(options: dict) -> tuple:
    """What a symbol shown once, twice, three times pays per chip staked."""
    if options["payouts"] != "by_bank":
        return PAYOUTS[options["payouts"]]
    return PAYOUTS["standard" if options["bank"] == "rotate" else "fair"]


def settle(stakes: list, dice: list, banker: int, bank: int, payouts: tuple, mode: str) -> dict:
    """Settles one roll: ``stakes[seat]`` maps symbols to chips, ``bank`` is the banker's
    stack before the roll. Per seat: ``back`` (winning stakes returned), ``won`` (winnings
    paid), ``lost`` (stakes taken), ``short`` (winnings the bank could not pay); ``bank`` is
    the banker's stack afterwards."""
    seats = len(stakes)
    shown = {symbol: dice.count(symbol) for symbol in SYMBOLS}
    back, owed, lost = [0] * seats, [0] * seats, [0] * seats
    for seat, bets in enumerate(stakes):
        for symbol, chips in bets.items():
            matches = shown[symbol]
            if matches:
                back[seat] += chips
                owed[seat] += chips * payouts[matches - 1]
            else:
                lost[seat] += chips
    fund = bank + sum(lost)
    won = pay_claims(fund, owed, left_of(banker, seats), mode)
    return {
        "back": back,
        "won": won,
        "lost": lost,
        "short": [o - w for o, w in zip(owed, won, strict=True)],
        "bank": fund - sum(won),
    }


@lru_cache(maxsize=None)
def _expected_for(payouts: tuple) -> Fraction:
    total = count = 0
    for symbol in SYMBOLS:
        for dice in product(SYMBOLS, repeat=DICE):
            outcome = settle([{}, {symbol: 1}], list(dice), 0, max(payouts), payouts, "seating")
            total += outcome["won"][1] - outcome["lost"][1]
            count += 1
    return Fraction(total, count)


def expected_return(options=None) -> Fraction:
    """A punter's exact expected gain per chip staked on one symbol at a table with these
    options: every one of the 216 rolls, for each symbol, through ``settle`` itself."""
    return _expected_for(payout_table(check_options(options)))


class CrownAnchor(Game):
    id = "crown_anchor"
    min_seats = 2
    max_seats = 10
    options = OPTIONS
    bot_levels = ("cautious", "steady", "reckless")
    fair_chance = True

    def resolve_options(self, options, seats: int) -> dict:
        return check_options(options)

    def saved_options(self, options):
        """A save from before ``payouts`` existed was played with the old meanings: the bank
        by lot unless named (rotating every 3 rolls), 1:1, 2:1, 3:1 everywhere but at a
        ``fixed`` bank, which paid the fair table and whose banker was drawn by lot (today's
        ``lot`` with ``fair`` payouts: its first seat did not always hold the bank)."""
        if not isinstance(options, dict) or "payouts" in options:
            return options
        migrated = {**LEGACY_DEFAULTS, **options}
        if migrated["bank"] == "fixed":
            migrated.update(bank="lot", payouts="fair")
        else:
            migrated["payouts"] = "standard"
        return migrated

    # --- set-up ---------------------------------------------------------------------
    def setup(self, options: dict, seats: int, rng: Rng) -> dict:
        state = {
            "phase": "bet",
            "banker": None,
            "chips": [options["start_chips"]] * seats,
            "active": [True] * seats,
            "stakes": [{} for _ in range(seats)],
            "done": [False] * seats,
            "votes": [False] * seats,
            "volunteers": [None] * seats,
            "bank_rolls": 0,
            "rolls": 0,
            "tally": {symbol: 0 for symbol in SYMBOLS},
            "matches": [0] * (DICE + 1),
            "dice": None,
            "history": [],
            "last": None,
            "result": None,
        }
        if options["volunteer"]:
            state["phase"] = "volunteer"
        elif options["bank"] == "fixed":
            state["banker"] = 0
        else:
            state["banker"] = rng.below(seats)
        return state

    # --- queries ----------------------------------------------------------------------
    def punters(self, state: dict) -> list:
        return [s for s, here in enumerate(state["active"]) if here and s != state["banker"]]

    def agreed(self, state: dict) -> bool:
        """Every punter still at the table has voted to end the game."""
        return all(state["votes"][s] for s in self.punters(state))

    def to_act(self, state: dict) -> list:
        if state["result"]:
            return []
        if fair.fair_phase(state):
            return fair.owed(state["fair"])
        phase = state["phase"]
        if phase == "volunteer":
            return [s for s, here in enumerate(state["active"]) if here and state["volunteers"][s] is None]
        if phase == "roll":
            return [state["banker"]]
        return [s for s in self.punters(state) if not state["done"][s]]

    def legal_actions(self, state: dict, seat: int) -> list:
        """All actions but bets, and a representative subset of bets: on each symbol the
        smallest legal stake and five times it (any amount up to the stack is legal). None
        during a fair draw's step (the devices' part, not a player's choice)."""
        if seat not in self.to_act(state) or fair.fair_phase(state):
            return []
        phase = state["phase"]
        if phase == "volunteer":
            return [{"type": "volunteer", "yes": True}, {"type": "volunteer", "yes": False}]
        if phase == "roll":
            return [{"type": "roll"}, {"type": "end"}]
        actions = []
        for symbol in SYMBOLS:
            for chips in self.bet_sizes(state, seat, symbol):
                actions.append({"type": "bet", "symbol": symbol, "chips": chips})
        if state["stakes"][seat]:
            actions.append({"type": "clear"})
        actions += [{"type": "done"}, {"type": "end"}, {"type": "leave"}]
        return actions

    def bet_sizes(self, state: dict, seat: int, symbol: str) -> list:
        smallest = max(1, state["options"]["min_bet"] - state["stakes"][seat].get(symbol, 0))
        return [c for c in (smallest, 5 * smallest) if self.bet_error(state, seat, symbol, c) is None]

    def bet_error(self, state: dict, seat: int, symbol: str, chips: int):
        """Why ``seat`` may not add ``chips`` on ``symbol`` now (``None`` if it may)."""
        options = state["options"]
        have = state["chips"][seat]
        if chips > have:
            return IllegalAction(f"You have only {have} chips", "crown_anchor.short", count=have)
        total = state["stakes"][seat].get(symbol, 0) + chips
        if total < options["min_bet"]:
            low = options["min_bet"]
            return IllegalAction(f"The table minimum is {low} chips", "crown_anchor.min_bet", low=low)
        if options["max_bet"] and total > options["max_bet"]:
            high = options["max_bet"]
            return IllegalAction(
                f"The table maximum is {high} chips on one symbol", "crown_anchor.max_bet", high=high
            )
        return None

    # --- moves --------------------------------------------------------------------------
    def _act_bet(self, state, seat, action, rng):
        symbol, chips = action["symbol"], action["chips"]
        error = self.bet_error(state, seat, symbol, chips)
        if error:
            raise error
        stakes = state["stakes"][seat]
        stakes[symbol] = stakes.get(symbol, 0) + chips
        state["chips"][seat] -= chips
        state["votes"][seat] = False  # staking again withdraws a vote to end

    def _act_clear(self, state, seat, action, rng):
        stakes = state["stakes"][seat]
        symbols = [action["symbol"]] if "symbol" in action else list(stakes)
        if not symbols or any(s not in stakes for s in symbols):
            raise IllegalAction("There is no stake of yours to take back", "crown_anchor.no_stake")
        for symbol in symbols:
            state["chips"][seat] += stakes.pop(symbol)

    def _act_done(self, state, seat, action, rng):
        state["done"][seat] = True
        self._close_betting(state)

    def _act_end(self, state, seat, action, rng):
        if state["phase"] == "roll":
            if self.agreed(state):
                self._finish(state, "agreement")
                return
            for punter in self.punters(state):
                self._take_back(state, punter)
            state["done"] = [False] * state["seats"]
            state["votes"] = [s == seat for s in range(state["seats"])]
            state["phase"] = "bet"
            return
        self._take_back(state, seat)
        state["votes"][seat] = True
        state["done"][seat] = True
        self._close_betting(state)

    def _act_leave(self, state, seat, action, rng):
        self._take_back(state, seat)
        state["active"][seat] = False
        state["done"][seat] = False
        if not self.punters(state):
            self._finish(state, "no_punters")
        else:
            self._close_betting(state)

    def _act_volunteer(self, state, seat, action, rng):
        state["volunteers"][seat] = action["yes"]
        if None in (state["volunteers"][s] for s, here in enumerate(state["active"]) if here):
            return
        seated = [s for s, here in enumerate(state["active"]) if here]
        willing = [s for s in seated if state["volunteers"][s]] or seated
        self._by_lot(state, willing, "volunteer", rng)

    def _act_roll(self, state, seat, action, rng):
        if "fair" in state:
            self._draw_later(state, "roll")
            return
        self._roll(state, [SYMBOLS[rng.below(len(SYMBOLS))] for _ in range(DICE)], rng)

    def _roll(self, state, dice, rng):
        """Settles the roll ``dice`` (from the generator, or a fair table's nonce)."""
        banker = state["banker"]
        state["votes"][banker] = False  # rolling on withdraws the banker's own proposal
        before = list(state["chips"])
        outcome = settle(
            state["stakes"], dice, banker, state["chips"][banker],
            payout_table(state["options"]), state["options"]["broken_bank"],
        )
        for s in range(state["seats"]):
            state["chips"][s] += outcome["back"][s] + outcome["won"][s]
        state["chips"][banker] = outcome["bank"]
        staked = [sum(bets.values()) for bets in state["stakes"]]
        delta = [state["chips"][s] - before[s] - staked[s] for s in range(state["seats"])]
        for symbol in SYMBOLS:
            state["tally"][symbol] += dice.count(symbol)
            state["matches"][dice.count(symbol)] += 1
        state["rolls"] += 1
        state["bank_rolls"] += 1
        state["dice"] = dice
        state["history"] = (state["history"] + [dice])[-HISTORY:]
        state["last"] = {
            "dice": dice,
            "banker": banker,
            "stakes": state["stakes"],
            "delta": delta,
            "won": outcome["won"],
            "short": outcome["short"],
            "broken": outcome["bank"] == 0,
            "left": [],
        }
        state["stakes"] = [{} for _ in range(state["seats"])]
        state["done"] = [False] * state["seats"]
        state["phase"] = "bet"
        self._after_roll(state, rng)

    moves = {
        "bet": Move(_act_bet, Dict({"symbol": SYMBOL_SHAPE, "chips": Int(1, MAX_STAKE)}), phases=("bet",)),
        "clear": Move(_act_clear, Dict({}, optional={"symbol": SYMBOL_SHAPE}), phases=("bet",)),
        "done": Move(_act_done, phases=("bet",)),
        "end": Move(_act_end, phases=("bet", "roll")),
        "leave": Move(_act_leave, phases=("bet",)),
        "volunteer": Move(_act_volunteer, Dict({"yes": Bool()}), phases=("volunteer",)),
        "roll": Move(_act_roll, phases=("roll",)),
        **fair_moves.MOVES,
    }

    def phase(self, state: dict, seat: int) -> str:
        return fair.fair_phase(state) or state["phase"]

    def wrong_phase(self, state: dict, seat: int, kind: str) -> IllegalAction:
        if fair.fair_phase(state) or kind in fair_moves.MOVES:
            return fair.out_of_step(state, kind)
        return super().wrong_phase(state, seat, kind)

    # --- fair tables ------------------------------------------------------------------------
    def make_fair(self, state: dict, fair_id: str) -> dict:
        """No draw from the generator: a first banker by lot waits for the first fair round."""
        state = copy_json(state)
        seats = state["seats"]
        state["fair"] = fair.start(fair_id, [], seats, n=0)
        state["fair"]["step"] = "play"
        state["drawing"] = None
        state["lot"] = []
        if state["phase"] == "bet" and state["options"]["bank"] != "fixed":
            state["banker"] = None
            self._by_lot(state, list(range(seats)), "banker", None)
        return state

    def _by_lot(self, state: dict, seats: list, what: str, rng) -> None:
        """The bank to one of ``seats`` by lot: from the generator, or at a fair table from
        the next fair round's nonce (``what`` names the draw)."""
        if "fair" not in state:
            self._give_bank(state, seats[rng.below(len(seats))])
            return
        state["lot"] = list(seats)
        state["phase"] = "draw"
        self._draw_later(state, what)

    def _draw_later(self, state: dict, what: str) -> None:
        state["drawing"] = what
        seated = [s for s, here in enumerate(state["active"]) if here]
        state["fair"] = fair.next_round(state["fair"], seated)

    def fair_nonce(self, state: dict) -> None:
        """The pending draw, read from the nonce: a roll (three faces) or a bank by lot."""
        what, nonce = state["drawing"], state["fair"]["nonce"]
        state["drawing"] = None
        if what == "roll":
            self._roll(state, [SYMBOLS[face - 1] for face in fair.roll(nonce, "roll", DICE)], None)
            return
        lot, state["lot"] = state["lot"], []
        self._give_bank(state, lot[fair.draw(nonce, what, len(lot))])

    def fair_forfeit(self, state: dict, seat: int, step: str) -> None:
        """The forfeit rule (module docstring), then the same draw among those still seated."""
        banker = state["banker"]
        if seat == banker:
            for punter in self.punters(state):
                self._take_back(state, punter)
        elif banker is not None:
            state["chips"][banker] += sum(state["stakes"][seat].values())
            state["stakes"][seat] = {}
        state["active"][seat] = False
        state["done"][seat] = False
        seated = [s for s, here in enumerate(state["active"]) if here]
        if len(seated) < 2:
            self._finish(state, "no_punters")
            return
        what = state["drawing"]
        if seat == banker:
            state["done"] = [False] * state["seats"]
            if state["options"]["bank"] == "rotate":
                self._give_bank(state, self._next_seated(state, banker))
                state["drawing"] = None
                state["fair"]["step"] = "play"
                return
            what = "broken"
            state["lot"] = seated
            state["phase"] = "draw"
        state["lot"] = [s for s in state["lot"] if s != seat]
        self._draw_later(state, what)

    def fair_revealed(self, state: dict) -> None:
        raise NotImplementedError("Crown and Anchor reveals no secret: its draws are public")

    # --- between rounds -----------------------------------------------------------------
    def _after_roll(self, state: dict, rng: Rng) -> None:
        """Departures, then the bank passing on (broken, or its turn to rotate)."""
        options = state["options"]
        banker = state["banker"]
        self._send_off_short(state)
        if state["last"]["broken"]:
            state["active"][banker] = False
            state["last"]["left"].append(banker)
        seated = [s for s, here in enumerate(state["active"]) if here]
        if len(seated) < 2:
            self._finish(state, "no_punters")
            return
        if state["last"]["broken"]:
            if options["volunteer"]:
                state["banker"] = None
                state["volunteers"] = [None] * state["seats"]
                state["phase"] = "volunteer"
            elif options["bank"] == "rotate":
                self._give_bank(state, self._next_seated(state, banker))
            else:
                self._by_lot(state, seated, "broken", rng)
        elif options["bank"] == "rotate" and state["bank_rolls"] >= options["rotate_every"]:
            self._give_bank(state, self._next_seated(state, banker))
            self._send_off_short(state)
            if not self.punters(state):
                self._finish(state, "no_punters")

    def _send_off_short(self, state: dict) -> None:
        low = state["options"]["min_bet"]
        for s in self.punters(state):
            if state["chips"][s] < low:
                state["active"][s] = False
                state["last"]["left"].append(s)

    def _next_seated(self, state: dict, seat: int) -> int:
        return next(s for s in left_of(seat, state["seats"]) if state["active"][s])

    def _give_bank(self, state: dict, seat: int) -> None:
        state["banker"] = seat
        state["bank_rolls"] = 0
        state["volunteers"] = [None] * state["seats"]
        state["phase"] = "bet"

    def _close_betting(self, state: dict) -> None:
        if all(state["done"][s] for s in self.punters(state)):
            state["phase"] = "roll"

    def _take_back(self, state: dict, seat: int) -> None:
        state["chips"][seat] += sum(state["stakes"][seat].values())
        state["stakes"][seat] = {}

    def _finish(self, state: dict, reason: str) -> None:
        for seat in range(state["seats"]):
            self._take_back(state, seat)
        start = state["options"]["start_chips"]
        net = [chips - start for chips in state["chips"]]
        best = max(net)
        state["result"] = {
            "winners": [s for s, n in enumerate(net) if n == best],
            "net": net,
            "reason": reason,
        }
        state["phase"] = "over"

    # --- seeing --------------------------------------------------------------------------
    # Nothing is hidden but the generator: stakes lie on the layout for all to see (as on a
    # real table), and so the default ``resample`` (a new generator) is this game's.
    def view(self, state: dict, seat) -> dict:
        """Everything is public except the dice generator, which would predict the rolls."""
        view = {key: copy_json(value) for key, value in state.items() if key != "rng"}
        if "fair" in state:
            view["fair"] = fair.public(state["fair"])
        edge = _expected_for(payout_table(state["options"]))
        view.update(
            game=self.id,
            you=seat,
            to_act=self.to_act(state),
            punters=self.punters(state),
            agreed=self.agreed(state),
            payouts=list(payout_table(state["options"])),
            expected=[edge.numerator, edge.denominator],
        )
        return view

    view_shape = Where(
        Where(
            Dict(
                {
                    "game": Enum(id),
                    "you": Optional(Seat()),
                    "to_act": Seats(),
                    "punters": Seats(),
                    "agreed": Bool(),
                    "payouts": Enum(*(list(p) for p in PAYOUTS.values())),
                    "expected": Tuple(Int(-MAX_COUNT, MAX_COUNT), Int(1, MAX_COUNT)),
                    "phase": Enum("volunteer", "bet", "roll", "over", "draw"),
                    "banker": Optional(Seat()),
                    "chips": PerSeat(Int(0, MAX_STAKE)),
                    "active": PerSeat(Bool()),
                    "stakes": PerSeat(STAKES_SHAPE),
                    "done": PerSeat(Bool()),
                    "votes": PerSeat(Bool()),
                    "volunteers": PerSeat(Optional(Bool())),
                    "bank_rolls": Int(0, MAX_COUNT),
                    "rolls": Int(0, MAX_COUNT),
                    "tally": Dict({symbol: Int(0, MAX_COUNT) for symbol in SYMBOLS}),
                    "matches": List(Int(0, MAX_COUNT), max_len=DICE + 1, min_len=DICE + 1),
                    "dice": Optional(ROLL_SHAPE),
                    "history": List(ROLL_SHAPE, max_len=HISTORY),
                    "last": Optional(Dict({
                        "dice": ROLL_SHAPE,
                        "banker": Seat(),
                        "stakes": PerSeat(STAKES_SHAPE),
                        "delta": PerSeat(Int(-MAX_STAKE, MAX_STAKE)),
                        "won": PerSeat(Int(0, MAX_STAKE)),
                        "short": PerSeat(Int(0, MAX_STAKE)),
                        "broken": Bool(),
                        "left": Seats(),
                    })),
                    "result": Optional(Dict({
                        "winners": Seats(min_len=1),
                        "net": PerSeat(Int(-MAX_STAKE, MAX_STAKE)),
                        "reason": Enum("agreement", "no_punters"),
                    })),
                    "options": options_shape(OPTIONS),
                    "seats": Int(min_seats, max_seats),
                },
                optional={  # fair tables: the draw under way, and among whom a bank is drawn
                    "players": PLAYERS,
                    "fair": fair.VIEW_SHAPE,
                    "drawing": Optional(Enum("roll", "banker", "volunteer", "broken")),
                    "lot": Seats(),
                },
            ),
            lambda view: view["seats"] == len(view["chips"]),
            "the seat count does not match the seats",
        ),
        lambda view: view["banker"] is not None or view["phase"] in ("volunteer", "over", "draw"),
        "nobody holds the bank",
    )

    # --- notation and bots -----------------------------------------------------------------
    def action_text(self, action: dict) -> str:
        """``bet crown 5``, ``clear``, ``clear crown``, ``volunteer yes``, ``done`` ..."""
        kind = action["type"]
        if kind == "bet":
            return f"bet {action['symbol']} {action['chips']}"
        if kind == "clear" and "symbol" in action:
            return f"clear {action['symbol']}"
        if kind == "volunteer":
            return "volunteer yes" if action["yes"] else "volunteer no"
        return kind

    def parse_action(self, text: str) -> dict:
        words = text.strip().lower().split() if isinstance(text, str) else []
        kind, args = (words[0], words[1:]) if words else ("", [])
        if kind == "bet" and len(args) == 2 and args[0] in SYMBOLS and args[1].isdigit():
            return {"type": "bet", "symbol": args[0], "chips": int(args[1])}
        if kind == "clear" and len(args) == 1 and args[0] in SYMBOLS:
            return {"type": "clear", "symbol": args[0]}
        if kind == "volunteer" and len(args) == 1 and args[0] in ("yes", "no"):
            return {"type": "volunteer", "yes": args[0] == "yes"}
        if kind in ("clear", "done", "end", "leave", "roll") and not args:
            return {"type": kind}
        raise IllegalAction(f"Cannot read the action {text!r}", "crown_anchor.notation")
