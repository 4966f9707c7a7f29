"""A table played on this device only: players passing the phone, and bots."""

import secrets

from ..core.errors import BadSave, TabernaError
from ..core.registry import get_game
from ..core.table import MAX_SEED, Table
from ..ui.markup import fragment
from .device import Device, LocalMoves
from .games import finished_entry
from .reply import Controller, summary_of
from .screens import game_over, table_section, undo_button
from .setup import REMOTE, config_from_fields


def new_seed() -> int:
    """A fresh deal: nobody at the table can know or choose it."""
    return secrets.randbelow(MAX_SEED + 1)


class LocalTable(Controller):
    """The one-device table on screen; its save is the ``Table``'s own."""

    role = "local"

    def __init__(self, table: Table):
        super().__init__()
        self.device = Device(LocalMoves(table))

    @classmethod
    def start(cls, request: dict, t) -> "LocalTable":
        """``{"game", "fields"}`` from the setup form."""
        game = get_game(request.get("game"))
        config = config_from_fields(game, request.get("fields"), t)
        seed = config.get("seed", new_seed())
        return cls(Table(game.id, config["options"], config["seats"], seed))

    @classmethod
    def resume(cls, data: dict) -> "LocalTable":
        """A saved table (its log is replayed, and so checked). A friend's seat has no place
        on one device: nobody could ever play it, and the table would wait forever."""
        table = Table.from_dict(data)
        if any(seat["kind"] == REMOTE for seat in table.seats):
            raise BadSave("A table on this device cannot have a friend's seat", "save_remote_seat")
        return cls(table)

    @property
    def table(self) -> Table:
        return self.device.table

    # --- inputs ------------------------------------------------------------------------------
    def act(self, action) -> None:
        self.device.act(action)

    def bot_step(self) -> None:
        self.device.bot_step()

    def change_ui(self, change) -> None:
        if not isinstance(change, dict):
            raise TabernaError("Bad screen change", "bad_ui")
        if change.get("undo") is True:
            self.undo()
        elif change.get("again") is True:
            self.again()
        else:
            self.device.change_ui(change)

    def again(self) -> None:
        """"Play again": the finished game's table (seats, bot levels, options) deals a new
        game at once, with a new seed. It takes the finished game's place, under the same save:
        the lobby lists no finished one-device game (``saves.js``), so keeping it beside the
        new one would only leave a record nobody can open."""
        if not self.table.is_over():
            raise TabernaError("The game is not over yet", "sync_not_over")
        self.device = Device(LocalMoves(self.table.again(new_seed())))

    def can_undo(self) -> bool:
        """Against bots, where the game allows it: one player here who has moved."""
        humans = self.device.local_seats()
        return (
            self.table.game.undo_allowed
            and len(humans) == 1
            and any(entry["seat"] == humans[0] for entry in self.table.log)
        )

    def undo(self) -> None:
        """Back to just before the player's previous action (the bots' replies too)."""
        if not self.can_undo():
            raise TabernaError("There is no move to take back", "no_undo")
        human = self.device.local_seats()[0]
        log = self.table.log
        cut = max(i for i, entry in enumerate(log) if entry["seat"] == human)
        saved = self.table.to_dict()
        saved["log"] = log[:cut]
        self.device.moves = LocalMoves(Table.from_dict(saved))
        self.device.keep_persistent_ui()

    # --- output --------------------------------------------------------------------------------
    def status(self) -> str:
        return self.device.status()

    def delay_ms(self) -> int:
        return self.device.delay_ms()

    def hold_ms(self) -> int:
        return self.device.hold_ms()

    def table_id(self):
        return None

    def title(self, t) -> str:
        return t(f"lobby.{self.table.game.id}.name")

    def save(self) -> dict:
        return self.table.to_dict()

    def summary(self, t) -> dict:
        return summary_of(self.table.game.id, self.table.seats, self.table.is_over(), t)

    def finished(self):
        return finished_entry(self.table) if self.table.is_over() else None

    def html(self, t):
        table = self.table
        status = self.status()
        body = self.device.body(t)
        if status == "over":
            end = game_over(t, table.game.result(table.state), self.device.names(t), again=True, replay=self.role)
        else:
            end = self.can_undo() and undo_button(t)
        return table_section(t, table.game.id, status, table.version, fragment(body, end, self.device.log_panel(t)))
