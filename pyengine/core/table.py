"""A Table: game + options + seed + seats + append-only action log.

The UI, bots, saves and the network all talk to a Table. Its state is derived: replaying
(options, seed, log) through the rules rebuilds it exactly, which is also how a save is
checked on load — a tampered log fails to replay and is rejected with the reason.

A *fair* table (``fair``: its fair id, ``core.fair``) draws its chance by commit-then-reveal
among the devices at a shared table: its state holds only what is public, and the Table
keeps apart, in ``held``, the secrets of the seats this device plays (``{seat: {"n",
"secret"}}``), which fill in those seats' own cups in their views and nothing else.
"""

from . import fair as fair_draw
from .errors import BadSave, IllegalAction, InvalidOptions, TabernaError
from .registry import get_declaration, get_game
from .rng import derive_seed, is_key
from .validate import is_plain_json

SAVE_FORMAT = 1
SEAT_KINDS = ("human", "bot", "remote")
MAX_NAME = 24
# Seeds cross JavaScript (saves, peer messages), whose numbers are exact only to 2**53.
MAX_SEED = (1 << 53) - 1


def check_seats(game, seats) -> list:
    """Validated seat list: each ``{"kind", "name"}`` plus ``"level"`` for bots."""
    if not isinstance(seats, list) or not game.min_seats <= len(seats) <= game.max_seats:
        raise InvalidOptions(
            f"{game.id} needs {game.min_seats} to {game.max_seats} seats",
            "seat_count",
            low=game.min_seats,
            high=game.max_seats,
        )
    checked = []
    for index, seat in enumerate(seats):
        if not isinstance(seat, dict) or seat.get("kind") not in SEAT_KINDS:
            raise InvalidOptions(f"Seat {index} needs a kind", "seat_kind", seat=index)
        name = seat.get("name", "")
        if not isinstance(name, str) or len(name) > MAX_NAME:
            raise InvalidOptions(f"Seat {index} has a bad name", "seat_name", seat=index)
        entry = {"kind": seat["kind"], "name": name.strip()}
        if seat["kind"] == "bot":
            if seat.get("level") not in game.bot_levels:
                raise InvalidOptions(f"Seat {index} needs a bot level", "seat_level", seat=index)
            entry["level"] = seat["level"]
        checked.append(entry)
    return checked


class Table:
    """One table being played. ``act`` is the only way its state changes."""

    def __init__(self, game_id: str, options, seats, seed: int, fair=None):
        self.game = get_game(game_id)
        self.seats = check_seats(self.game, seats)
        if not is_key(seed) and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
            raise InvalidOptions("The seed must be a whole number from 0 to 2**53 - 1 or a 256-bit key", "bad_seed")
        self.seed = seed
        self.state = self.game.new_state(options, len(self.seats), seed)
        self.options = self.state["options"]
        # A game without a fair draw (Lasca: no chance; Botifarra for two) plays as before.
        possible = fair is not None and self.game.fair_chance and self.game.fair_possible(self.options, len(self.seats))
        self.fair = fair if possible else None
        if self.fair is not None:
            if not fair_draw.FAIR_ID.fits(fair, 0):
                raise InvalidOptions("A fair table needs a short id", "bad_fair_id")
            self.state = self.game.make_fair(self.state, fair)
        self.held: dict = {}  # this device's secrets on a fair table: {seat: {"n", "secret"}}
        self.log: list = []
        self._bot_answers: tuple = (0, {})  # (version, {(seat, level): action or None})

    @property
    def version(self) -> int:
        """How many actions have been applied; a peer's intent names the version it saw."""
        return len(self.log)

    def to_act(self) -> list:
        return [] if self.game.is_over(self.state) else self.game.to_act(self.state)

    def may_act(self) -> list:
        """Seats that may act now out of turn, if they choose to (``Game.may_act``)."""
        return [] if self.game.is_over(self.state) else self.game.may_act(self.state)

    def able_to_act(self) -> list:
        """Every seat whose action the table would take now: ``to_act`` then ``may_act``."""
        return self.to_act() + [s for s in self.may_act() if s not in self.to_act()]

    def is_over(self) -> bool:
        return self.game.is_over(self.state)

    def act(self, seat: int, action: dict) -> None:
        """Applies one action; on any error the table is left exactly as it was."""
        self.state = self.game.apply(self.state, seat, action)
        self.log.append({"seat": seat, "action": action})

    def view(self, seat):
        if seat is not None and seat in self.held:
            return self.game.view(self.game.with_own_cup(self.state, seat, self.held), seat)
        return self.game.view(self.state, seat)

    def fair_steps(self) -> bool:
        """Whether a fair draw's step (commit, share, reveal) is due: no one plays meanwhile."""
        return fair_draw.fair_phase(self.state) is not None

    def duty(self, seat: int):
        """The fair-draw action this device owes for ``seat`` now (``core.fair.duty``), or
        ``None``; a commitment draws the secret into ``held``."""
        if self.fair is None:
            return None
        return self.game.fair_duty(self.state, seat, self.held)

    def complete(self, seat: int, action: dict) -> dict:
        """``action`` as this device sends it for ``seat`` (``Game.fair_complete``)."""
        return action if self.fair is None else self.game.fair_complete(self.state, seat, action, self.held)

    def blind(self, seat: int) -> bool:
        """Whether only another device can play ``seat`` now (``Game.fair_blind``)."""
        return self.fair is not None and self.game.fair_blind(self.state, seat, self.held)

    def set_seat(self, index: int, entry: dict) -> None:
        """Changes who holds one seat (a guest's seat handed to a bot, and back)."""
        seats = [dict(s) for s in self.seats]
        seats[index] = entry
        self.seats = check_seats(self.game, seats)

    def next_bot_seat(self):
        """The bot seat to play next, or ``None``: first a bot that chooses to act out of
        turn (``may_act``), in seat order, so that it answers the position before the seat
        on turn changes it; then the first bot on turn. Never during a fair draw's step:
        that is the device's part (``duty``), not a bot's choice; nor for a seat whose cards
        are sealed to this device (``blind``)."""
        if self.fair_steps():
            return None
        for seat in self.may_act():
            if self.seats[seat]["kind"] == "bot" and self.bot_action(seat) is not None:
                return seat
        for seat in self.to_act():
            if self.seats[seat]["kind"] == "bot" and not self.blind(seat):
                return seat
        return None

    def bot_action(self, seat: int):
        """What the bot in ``seat`` plays now, decided from that seat's view only; ``None``
        when it declines an optional action out of turn. Each answer is kept until the table
        moves, so a bot is asked once per position (and a replay asks again with the same
        seed, so the answer is the same)."""
        if self._bot_answers[0] != self.version:
            self._bot_answers = (self.version, {})
        answers = self._bot_answers[1]
        level = self.seats[seat].get("level", self.game.bot_levels[0])
        if (seat, level) not in answers:
            play = get_declaration(self.game.id).bots()[level]
            answers[seat, level] = play(self.view(seat), derive_seed(self.seed, self.version, seat))
        return answers[seat, level]

    def again(self, seed, fair=None) -> "Table":
        """A new game at this table: the same game, options and seats, dealt from ``seed``
        (a shared table's rematch and a one-device "play again"); ``fair`` is the new game's
        fair id (each game has its own, so nothing of one verifies in the next)."""
        return Table(self.game.id, self.options, [dict(seat) for seat in self.seats], seed, fair)

    def teams(self) -> list:
        """The partnerships at this table (``Game.teams``)."""
        return self.game.teams(self.options, len(self.seats))

    # --- saving -------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The public table (the log is the whole public record). A fair table's ``held``
        secrets are not in it: the device saves them beside it (``protocol.host``)."""
        data = {
            "format": SAVE_FORMAT,
            "game": self.game.id,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
            "log": list(self.log),
        }
        if self.fair is not None:
            data["fair"] = self.fair
        return data

    @classmethod
    def from_dict(cls, data) -> "Table":
        """Rebuilds a saved table by replaying its log; any inconsistency raises ``BadSave``."""
        if not isinstance(data, dict) or not is_plain_json(data):
            raise BadSave("The save is not a table", "save_not_table")
        if data.get("format") != SAVE_FORMAT:
            raise BadSave("The save comes from another version of Taberna", "save_format")
        log = data.get("log")
        if not isinstance(log, list):
            raise BadSave("The save has no action log", "save_no_log")
        try:
            game = get_game(data.get("game"))
            table = cls(
                game.id, game.saved_options(data.get("options")), data.get("seats"), data.get("seed"), data.get("fair")
            )
        except TabernaError as error:
            raise BadSave(f"The save's table is invalid: {error.reason}", "save_invalid") from error
        for number, entry in enumerate(log):
            if not isinstance(entry, dict) or set(entry) != {"seat", "action"}:
                raise BadSave(f"Action {number + 1} in the save is malformed", "save_entry", n=number + 1)
            try:
                table.act(entry["seat"], entry["action"])
            except IllegalAction as error:
                raise BadSave(
                    f"Action {number + 1} in the save is illegal: {error.reason}",
                    "save_illegal",
                    n=number + 1,
                ) from error
        return table
