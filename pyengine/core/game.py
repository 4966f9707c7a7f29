"""The contract every game implements, once for dice, boards, cards and betting.

A game is a stateless object of pure functions over plain JSON states:

* ``new_state(options, seats, seed)`` sets up a table; chance comes from an ``Rng`` whose
  state lives in ``state["rng"]``, so (options, seed, actions) replays exactly.
* ``to_act(state)`` lists the seats that may act now: several at once where the game has
  simultaneous moves (bets, antes). The game waits for them.
* ``may_act(state)`` lists further seats that *may* act now without having to, out of turn
  (Perudo's Calza by anyone but the bidder). Nobody waits for them: the runners offer them
  the chance (a bot is asked once per position and may decline, returning ``None``; a
  person sees a button) and play goes on. Most games have none (the default).
* ``apply(state, seat, action)`` returns a new state and never mutates its input; it raises
  ``IllegalAction`` with a reason, and a finished game accepts nothing. A game declares its
  actions once, in its move table ``moves`` (``type -> Move(handler, fields, phases)``, as
  boardgame.io's moves map): the base class refuses an unknown type (``unknown_action``), a
  type not allowed in the seat's phase (``not_now``, or the game's ``wrong_phase``) and
  fields that do not fit the move's shape (``bad_field``), then calls the handler. The
  refusals a game makes itself are coded ``<game id>.<reason>`` (catalog key
  ``err.<game id>.<reason>``); the ones made here and by the kits are plain (``not_now``).
* ``view(state, seat)`` is what that seat may see; ``view(state, None)`` the spectator's.
  Bots get views only, never states (they are declared by the game's package, see
  ``core.registry``: the rules never import their bots or screens). ``view_shape``
  declares what a view may hold, so a guest can refuse a host's view that no honest host
  would send, before drawing it.
* ``teams(options, seats)`` names the partnerships, if the game has any.
* ``resample(state, seat, rng)`` is a state that ``seat`` cannot tell from ``state``:
  everything it cannot see is redrawn, consistently with what it can (the contract test
  proves ``view(resample(s, seat, rng), seat) == view(s, seat)``, and that secrets do get
  redrawn). Bots of games with secrets determinise with it: sample a world, search it.
"""

from . import fair
from .errors import IllegalAction, InvalidOptions
from .options import resolve_options
from .rng import Rng
from .shape import Bool, Dict, Enum, PerSeat, Shape, ShapeError, Str
from .table import MAX_NAME, SEAT_KINDS
from .validate import action_type, copy_json

MAX_LEVEL = 16
LEVEL = Str(MAX_LEVEL, r"[a-z_]+")  # a bot level's id

# The seats as the shell hands them to a screen, as ``players`` beside the view: a table's
# seats (kind, name, a bot's level) or a shared table's public seats (with the connection
# state). Every ``view_shape`` lists it among its optional keys.
PLAYER = Dict(
    {"kind": Enum(*SEAT_KINDS), "name": Str(MAX_NAME)},
    optional={"level": LEVEL, "open": Bool(), "covered": Bool(), "connected": Bool()},
)
PLAYERS = PerSeat(PLAYER)


NO_FIELDS = Dict({})  # an action that is only its ``type``


class Move:
    """One row of a game's move table.

    ``handler(game, state, seat, action, rng)`` plays the move on the state's private copy
    (or raises ``IllegalAction`` with the game's own reason); ``fields`` is the shape
    (``core.shape``) of the action without its ``type``, checked at the seat's table size
    before the handler runs; ``phases`` lists the phases (``Game.phase``) the move may be
    played in, ``None`` any.
    """

    __slots__ = ("handler", "fields", "phases")

    def __init__(self, handler, fields: Shape = NO_FIELDS, phases: tuple | None = None):
        self.handler = handler
        self.fields = fields
        self.phases = phases


def fresh_rng_state(rng: Rng) -> dict:
    """A new generator state drawn from ``rng``: the future rolls of a resampled world."""
    return Rng(rng.below(1 << 53)).state()


class Game:
    """Base class; subclasses fill in the hooks below and register an instance."""

    id = ""
    min_seats = 2
    max_seats = 2
    options: dict = {}
    bot_levels = ("easy", "medium", "hard")
    # Taking back a move against bots is fair only where nothing hidden or random would be
    # learnt by it (Lasca yes; Perudo no: the cups would be re-rolled, the reveal known).
    undo_allowed = False
    # Whether some seat may not see part of the state (cups, hands): then ``resample`` must
    # redraw it, and the contract test checks that it does. The generator is always hidden.
    hidden_information = False
    # What ``view`` returns for any seat at any table size (``core.shape``), with
    # ``players`` (``PLAYERS``) among its optional keys.
    view_shape: Shape = None
    # The move table: every action type the game accepts, ``{type: Move(...)}``.
    moves: dict = {}
    # Whether a shared table can draw this game's chance by commit-then-reveal
    # (``core.fair``): then ``make_fair`` and the ``fair_*`` hooks below are filled in.
    fair_chance = False
    # What a guest's evidence notice calls a field of this game's own view when the host's
    # table contradicts the record there, for fields the shared list lacks
    # (``protocol.fair.FIELD_WORDS``; ``{field: words}``, catalog ``sync.fair_field.<words>``).
    fair_field_words: dict = {}

    # --- set-up -------------------------------------------------------------------
    def resolve_options(self, options, seats: int) -> dict:
        """Full, validated options; games override to add checks across options."""
        return resolve_options(self.options, options)

    def saved_options(self, options):
        """The options a save holds, as this version names them, meaning what the save was
        played with (a save keeps its options resolved; a game whose options changed
        meaning maps older ones here). Untrusted: anything odd passes through unchanged,
        for ``resolve_options`` to refuse."""
        return options

    def new_state(self, options, seats: int, seed: int, rng: Rng | None = None) -> dict:
        """The first state; ``rng``, when given, draws its chance instead of ``Rng(seed)``
        (a record's replay, ``pyengine.records``)."""
        if type(seats) is not int or not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptions(
                f"{self.id} needs {self.min_seats} to {self.max_seats} seats",
                "seat_count",
                low=self.min_seats,
                high=self.max_seats,
            )
        rng = Rng(seed) if rng is None else rng
        resolved = self.resolve_options(options, seats)
        state = self.setup(resolved, seats, rng)
        state["options"] = resolved
        state["seats"] = seats
        state["rng"] = rng.state()
        return state

    def setup(self, options: dict, seats: int, rng: Rng) -> dict:
        """The first state; ``new_state`` adds ``options``, ``seats`` and ``rng`` to it."""
        raise NotImplementedError

    # --- whose turn, and what may they do ----------------------------------------------
    def to_act(self, state: dict) -> list:
        raise NotImplementedError

    def may_act(self, state: dict) -> list:
        """Seats besides ``to_act`` that may act now if they choose to (see the module
        docstring); ``legal_actions`` gives them only their optional actions, and ``play``
        must refuse them anything else. The default: nobody."""
        return []

    def is_over(self, state: dict) -> bool:
        return state.get("result") is not None

    def result(self, state: dict):
        """``None`` while playing; afterwards a dict with at least ``winners`` (seat list)."""
        return state.get("result")

    def legal_actions(self, state: dict, seat: int) -> list:
        raise NotImplementedError

    # --- moving -------------------------------------------------------------------
    def apply(self, state: dict, seat, action, rng: Rng | None = None) -> dict:
        """The state after ``seat`` plays ``action``; the input state is never touched.
        ``rng``, when given, draws the move's chance instead of the state's generator."""
        kind = action_type(action)
        if self.is_over(state):
            raise IllegalAction("The game is over", "game_over")
        if type(seat) is not int or (seat not in self.to_act(state) and seat not in self.may_act(state)):
            raise IllegalAction(f"It is not seat {seat}'s turn", "not_your_turn", seat=seat)
        new_state = copy_json(state)
        rng = Rng.from_state(new_state["rng"]) if rng is None else rng
        self.play(new_state, seat, kind, action, rng)
        new_state["rng"] = rng.state()
        return new_state

    def play(self, state: dict, seat: int, kind: str, action: dict, rng: Rng) -> None:
        """Mutates ``state`` (a private copy) by the move table, or raises ``IllegalAction``:
        the refusals every game shares are made here, the rest by the move's handler."""
        move = self.moves.get(kind)
        if move is None:
            raise IllegalAction(f"Unknown action {kind[:20]!r}", "unknown_action", kind=kind[:20])
        if move.phases is not None and self.phase(state, seat) not in move.phases:
            raise self.wrong_phase(state, seat, kind)
        try:
            move.fields.check({key: value for key, value in action.items() if key != "type"}, state["seats"])
        except ShapeError as error:
            field = str(error.path[0])[:20] if error.path else kind[:20]
            raise IllegalAction(f"Bad field in {kind!r}: {error}", "bad_field", field=field) from None
        move.handler(self, state, seat, action, rng)

    def phase(self, state: dict, seat: int) -> str:
        """The phase ``seat`` acts in, for the move table's ``phases``; by default the
        state's ``phase``. A game whose seats may do different things at one moment (a
        bidder who may still raise, a Calza out of turn) names a phase per seat."""
        return state["phase"]

    def wrong_phase(self, state: dict, seat: int, kind: str) -> IllegalAction:
        """The refusal of a known move in a phase that does not allow it; a game may say
        why in its own words."""
        return IllegalAction(f"{kind} is not a move for now", "not_now", kind=kind)

    # --- fair chance (``core.fair``) --------------------------------------------------
    def fair_possible(self, options: dict, seats: int) -> bool:
        """Whether a shared table with these options can draw fairly (else it plays as a
        one-device table does, from the host's generator)."""
        return True

    def make_fair(self, state: dict, fair_id: str) -> dict:
        """The first state of a fair table: nothing drawn from the generator, every hidden
        roll sealed until its owner's device and the joint nonce fix it."""
        raise NotImplementedError

    def with_own_cup(self, state: dict, seat: int, held: dict) -> dict:
        """``state`` as the device holding the secrets ``held`` sees it for ``seat``: its
        sealed cup filled in. By default nothing is sealed."""
        return state

    def fair_duty(self, state: dict, seat: int, held: dict):
        """The fair step this device owes for ``seat`` (``held``: its secrets), or ``None``:
        the dice draw's (``core.fair.duty``) unless the game deals cards fairly."""
        return fair.duty(state["fair"], seat, held)

    def fair_complete(self, state: dict, seat: int, action: dict, held: dict) -> dict:
        """``action`` as this device sends it for ``seat``: a fair card table adds the key
        that proves a played card was dealt to it. By default unchanged."""
        return action

    def fair_blind(self, state: dict, seat: int, held: dict) -> bool:
        """Whether only another device can play ``seat`` now (its cards are sealed to this
        one): a bot here cannot cover it. By default nothing is sealed from play."""
        return False

    def sealed_shown(self, view: dict) -> bool:
        """Whether a host's ``view`` shows its seat's sealed part read (the host's device
        made that seat's secret); by default whether it shows a cup."""
        return view.get("dice") is not None

    def fair_nonce(self, state: dict) -> None:
        """The fair round's nonce was just set: draw the public chance it fixes."""
        raise NotImplementedError

    def fair_revealed(self, state: dict) -> None:
        """Every owed secret is public (or forfeited): settle what waited for them."""
        raise NotImplementedError

    def fair_forfeit(self, state: dict, seat: int, step: str) -> None:
        """``seat`` failed its part in ``step``: apply the game's forfeit rule."""
        raise NotImplementedError

    # --- seeing -------------------------------------------------------------------
    def view(self, state: dict, seat) -> dict:
        raise NotImplementedError

    def check_view(self, view, seats) -> None:
        """Nothing if ``view`` fits ``view_shape`` at a table of ``seats`` seats, else
        ``ShapeError`` naming the misfit."""
        if self.view_shape is None:  # nothing to check against: nothing is shown
            raise ShapeError(f"{self.id} declares no view_shape")
        if type(seats) is not int or not self.min_seats <= seats <= self.max_seats:
            raise ShapeError(f"{self.id} is played by {self.min_seats} to {self.max_seats} seats")
        self.view_shape.check(view, seats)

    def resample(self, state: dict, seat, rng: Rng) -> dict:
        """A state ``seat`` (``None``: a spectator) cannot tell from ``state``: everything
        it cannot see redrawn from ``rng``, consistently with what it can.

        Dice: the cups it cannot see re-rolled, each keeping its number of dice. Cards: the
        cards it has not seen re-dealt among the hands it cannot see and the stock, each
        hand keeping its size, and respecting what the game records that the seat knows
        (a player who did not follow suit holds none of it; a card shown, passed or
        announced stays where it is known to be). The generator is always replaced, so a
        search in the resampled world cannot foresee the real rolls or deals.

        Bots call this in their inner loop: the result shares every unchanged part with
        ``state`` (neither is ever changed in place: ``apply`` works on a copy), and
        ``rng`` advances. This default suits a game where only the generator is hidden.
        """
        resampled = dict(state)
        resampled["rng"] = fresh_rng_state(rng)
        return resampled

    def has_secrets(self, state: dict, seat) -> bool:
        """Whether ``seat`` has something left to guess in ``state``, so that ``resample``
        can redraw it (the contract test checks it does). A card game overrides this for
        the moments a viewer has seen or deduced every card (the last two players' hands)."""
        return self.hidden_information and not self.is_over(state)

    def teams(self, options: dict, seats: int) -> list:
        """The partnerships at a table of ``seats`` with these (resolved) options: a list of
        seat lists, e.g. ``[[0, 2], [1, 3]]``; ``[]`` when every seat plays for itself.
        Views keep ``options``, so a guest's shell can name partners too."""
        return []

    # --- notation -------------------------------------------------------------------------
    def action_text(self, action: dict) -> str:
        """The action in the game's notation (logs, bug reports, tests)."""
        raise NotImplementedError

    def parse_action(self, text: str) -> dict:
        raise NotImplementedError
