"""The game log on a table's screen: who did what, in order, as the seat on screen saw it.

The table's log is replayed through the rules and each step told by the game's notation
(``records.notation``: ``log``) from the *views* of the seat on screen before and after
it, never from the states: the log holds only what that seat saw or the rules revealed
(every cup after a call, the showdown's hands), and a spectator's view when no seat is on
screen. A fair draw's steps (commitments, shares, reveals) are not told, they say nothing
a player reads, but what one makes public is: at a fair table the cups are lifted by the
last reveal after a call, not by the call. It grows a step at a time; an undo, another
seat or another language starts it again.

A guest's device holds no table of its own: at a fair table its log is told from its replay
of the host's public record (``protocol.fair.Audit``), which holds what every device may
know, so a guest's log can tell no more than its seat saw or the rules revealed.
"""

from ..core.errors import TabernaError
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

    def toggle(self, change: dict) -> None:
        """The log's button: ``{"log": open}``."""
        if len(change) != 1 or not isinstance(change["log"], bool):
            raise TabernaError("Bad screen change", "bad_ui")
        self.open = change["log"]

    def entries(self, table, viewer, t, seats=None) -> list:
        """``[(step, seat, lines)]`` of every step of ``table`` that says something, as
        ``viewer`` (a seat, or ``None``) saw it, in ``t``'s language, its players named as
        ``seats`` names them (by default the table's)."""
        game = table.game
        names = seat_names(table.seats if seats is None else seats, t)
        key = (table, viewer, t.lang, tuple(names))
        if key != self._key or len(table.log) < self._told:
            self._key, self._entries = key, []
            self._state = game.new_state(table.options, len(table.seats), table.seed)
            if table.fair is not None:
                self._state = game.make_fair(self._state, table.fair)
            self._told = 0
        for step in range(self._told, len(table.log)):
            entry = table.log[step]
            before = game.view(self._state, viewer)
            self._state = game.apply(self._state, entry["seat"], entry["action"])
            self._entries += _told(game, t, names, step + 1, entry["seat"], entry["action"], before, game.view(self._state, viewer))
        self._told = len(table.log)
        return self._entries

    def panel(self, t, table, viewer, seats=None):
        """The log's button and, when open, its list (folded: nothing is replayed)."""
        entries = self.entries(table, viewer, t, seats) if self.open else []
        return self._panel(t, entries)

    def panel_seen(self, t, game, seen: list, seats: list):
        """The log of a guest at a table that is not fair, told from the views it was shown
        (``protocol.witness``: ``steps_seen``, the host's word, so a move the game's
        notation cannot tell is left out rather than break the screen)."""
        names = seat_names(seats, t)
        entries = []
        for number, seat, action, before, after in seen if self.open else ():
            try:
                entries += _told(game, t, names, number, seat, action, before, after)
            except Exception:  # the host's word: a move its views do not bear out is left out
                continue
        return self._panel(t, entries)

    def _panel(self, t, entries):
        return log_panel(t("log.title"), self.open, entries, t("log.empty"), t("log.step"))


def _told(game, t, names: list, number: int, seat: int, action: dict, before: dict, after: dict) -> list:
    """``[(number, seat, lines)]``: one step in words, if it says something (a fair draw's
    steps tell only what they make public)."""
    notation = notation_for(game.id)
    if action["type"] in FAIR_MOVES:
        lines = notation.revealed(game, t, names, before, after)
    else:
        lines = notation.log(game, t, names, before, seat, action, after)
    return [(number, seat, lines)] if lines else []
