"""The game log on a table's screen: who did what, in order, as the seat on screen saw it.

The table's log is replayed through the rules and each step told by the game's notation
(``records.notation``: ``log``) from the *views* of the seat on screen before and after
it, never from the states: the log holds only what that seat saw or the rules revealed
(every cup after a call, the showdown's hands), and a spectator's view when no seat is on
screen. The fair draw's steps (commitments, reveals) are left out: they say nothing a
player reads. It grows a step at a time; an undo, another seat or another language starts
it again.
"""

from ..kits.fair import MOVES as FAIR_MOVES
from ..records.notation import notation_for
from ..ui.log import log_panel
from .screens import seat_names


class GameLog:
    """One table's log on this device: open or folded, and the lines told so far."""

    def __init__(self):
        self.open = False
        self._key = None  # (table, viewer, language) the lines were told for
        self._state = None  # the state after the last step told
        self._entries: list = []  # [(step number, seat, lines)]
        self._told = 0  # how many of the table's steps were told

    def entries(self, table, viewer, t) -> list:
        """``[(step, seat, lines)]`` of every step of ``table`` that says something, as
        ``viewer`` (a seat, or ``None``) saw it, in ``t``'s language."""
        game = table.game
        key = (table, viewer, t.lang)
        if key != self._key or len(table.log) < self._told:
            self._key, self._entries = key, []
            self._state = game.new_state(table.options, len(table.seats), table.seed)
            if table.fair is not None:
                self._state = game.make_fair(self._state, table.fair)
            self._told = 0
        notation, names = notation_for(game.id), seat_names(table.seats, t)
        for step in range(self._told, len(table.log)):
            entry = table.log[step]
            before = game.view(self._state, viewer)
            self._state = game.apply(self._state, entry["seat"], entry["action"])
            if entry["action"]["type"] in FAIR_MOVES:
                continue
            lines = notation.log(game, t, names, before, entry["seat"], entry["action"], game.view(self._state, viewer))
            if lines:
                self._entries.append((step + 1, entry["seat"], lines))
        self._told = len(table.log)
        return self._entries

    def panel(self, t, table, viewer):
        """The log's button and, when open, its list (folded: nothing is replayed)."""
        entries = self.entries(table, viewer, t) if self.open else []
        return log_panel(t("log.title"), self.open, entries, t("log.empty"), t("log.step"))
