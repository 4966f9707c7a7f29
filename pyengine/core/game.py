"""The contract every game implements, once for dice, boards, cards and betting.

A game is a stateless object of pure functions over plain JSON states:

* ``new_state(options, seats, seed)`` sets up a table; chance comes from an ``Rng`` whose
  state lives in ``state["rng"]``, so (options, seed, actions) replays exactly.
* ``to_act(state)`` lists the seats that may act now: several at once where the game has
  simultaneous moves (bets, antes).
* ``apply(state, seat, action)`` returns a new state and never mutates its input; it raises
  ``IllegalAction`` with a reason, and a finished game accepts nothing.
* ``view(state, seat)`` is what that seat may see; ``view(state, None)`` the spectator's.
  Bots get views only, never states (they are declared by the game's package, see
  ``core.registry``: the rules never import their bots or screens).
* ``teams(options, seats)`` names the partnerships, if the game has any.
* ``scramble_private(state, seat, seed)`` redraws what only ``seat`` knows; the contract
  test uses it to prove that no other seat's view depends on those secrets.
"""

from .errors import IllegalAction, InvalidOptions
from .options import resolve_options
from .rng import Rng
from .validate import action_type, copy_json


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

    # --- set-up -------------------------------------------------------------------
    def resolve_options(self, options, seats: int) -> dict:
        """Full, validated options; games override to add checks across options."""
        return resolve_options(self.options, options)

    def new_state(self, options, seats: int, seed: int) -> dict:
        if type(seats) is not int or not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptions(
                f"{self.id} needs {self.min_seats} to {self.max_seats} seats",
                "seat_count",
                low=self.min_seats,
                high=self.max_seats,
            )
        rng = Rng(seed)
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

    def is_over(self, state: dict) -> bool:
        return state.get("result") is not None

    def result(self, state: dict):
        """``None`` while playing; afterwards a dict with at least ``winners`` (seat list)."""
        return state.get("result")

    def legal_actions(self, state: dict, seat: int) -> list:
        raise NotImplementedError

    # --- moving -------------------------------------------------------------------
    def apply(self, state: dict, seat, action) -> dict:
        """The state after ``seat`` plays ``action``; the input state is never touched."""
        kind = action_type(action)
        if self.is_over(state):
            raise IllegalAction("The game is over", "game_over")
        if type(seat) is not int or seat not in self.to_act(state):
            raise IllegalAction(f"It is not seat {seat}'s turn", "not_your_turn", seat=seat)
        new_state = copy_json(state)
        rng = Rng.from_state(new_state["rng"])
        self.play(new_state, seat, kind, action, rng)
        new_state["rng"] = rng.state()
        return new_state

    def play(self, state: dict, seat: int, kind: str, action: dict, rng: Rng) -> None:
        """Mutates ``state`` (a private copy) or raises ``IllegalAction``."""
        raise NotImplementedError

    # --- seeing -------------------------------------------------------------------
    def view(self, state: dict, seat) -> dict:
        raise NotImplementedError

    def scramble_private(self, state: dict, seat: int, seed: int) -> dict:
        """A copy of ``state`` with ``seat``'s secrets redrawn; games without secrets keep it."""
        return copy_json(state)

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
