"""This device's side of a table: the seats played here, whose screen shows, what it keeps.

One class serves a table on one device and a table this device hosts for friends; they
differ only in where moves go, which ``Device`` is given (composition, not inheritance):

* ``LocalMoves`` — moves go straight to the ``Table``; nobody else needs telling.
* ``protocol.Host`` — moves go through the host, which tells the guests.

Both offer ``table``, ``version``, ``started``, ``act(seat, action)`` and ``play_bot()``,
the last two returning the texts to send (none on one device).

Out-of-turn actions (``Game.may_act``) are offered to the seat on screen only: whoever is
holding the phone. With several players on one device the others' secrets stay hidden, so
a player who is not holding it cannot be offered anything (Perudo's Calza by anyone is
then, in effect, for the player who has the phone). While such a seat is on screen, bots
wait ``OUT_OF_TURN_MS`` before moving, so that the player has time to act; and a bot still
to move (out of turn, or beside the player in simultaneous moves such as Crown and Anchor's
stakes) does not stop the player on screen from moving first.
"""

from ..core.errors import TabernaError
from ..core.registry import get_declaration
from .log import GameLog
from .screens import dealing, handoff, seat_names, seat_view

BOT_DELAY_MS = 900  # the pause before a bot's move unless the game's screen asks for longer
OUT_OF_TURN_MS = 2500  # the least pause while the seat on screen may act out of turn


class LocalMoves:
    """A table played on this device only."""

    started = True

    def __init__(self, table):
        self.table = table

    @property
    def version(self) -> int:
        return self.table.version

    def act(self, seat: int, action) -> list:
        self.table.act(seat, action)
        return []

    def play_bot(self) -> list:
        seat = self.table.next_bot_seat()
        self.table.act(seat, self.table.bot_action(seat))
        return []


class Device:
    """The seats played on this device and whose screen is showing (pass-and-play)."""

    def __init__(self, moves):
        self.moves = moves
        self.viewer = None
        self.ui: dict = {}
        self.log = GameLog()
        self.reset()

    @property
    def table(self):
        return self.moves.table

    @property
    def screen(self):
        return get_declaration(self.table.game.id).screen()

    def reset(self) -> None:
        """A new game on screen: one player here always sees their own seat; with several,
        nobody's until someone takes the phone."""
        self.ui = {}
        local = self.local_seats()
        self.viewer = local[0] if len(local) == 1 else None

    # --- who is looking --------------------------------------------------------------------
    def local_seats(self) -> list:
        return [i for i, seat in enumerate(self.table.seats) if seat["kind"] == "human"]

    def next_local(self):
        local = self.local_seats()
        return next((s for s in self.table.to_act() if s in local), None)

    def status(self) -> str:
        """``arrange`` (a shared table before play), ``over``, ``bot``, ``wait`` (nobody here
        is to act: a friend is), ``handoff`` (the phone goes to another player) or ``human``."""
        if not self.moves.started:
            return "arrange"
        if self.table.is_over():
            return "over"
        if self.table.next_bot_seat() is not None:
            return "bot"
        mover = self.next_local()
        if mover is None:
            return "wait"
        return "human" if mover == self.viewer else "handoff"

    # --- inputs ------------------------------------------------------------------------------
    def may_act_now(self) -> bool:
        """Whether the seat on screen may act: whenever its screen shows and the table would
        take its action (on turn, or out of turn by ``may_act``), bots still to move or not:
        a bot's pending move (out of turn, or beside it in simultaneous moves such as
        stakes) does not hold the player back; whoever moves first, moves."""
        seat = self.viewer
        if seat is None or self.status() in ("arrange", "over", "handoff"):
            return False
        return seat in self.table.able_to_act()

    def act(self, action) -> list:
        """A move of the seat on screen."""
        seat = self.viewer
        if not self.may_act_now():
            raise TabernaError("Wait for your turn", "not_your_turn", seat=seat)
        outbox = self.moves.act(seat, action)
        self.keep_persistent_ui()
        return outbox

    def bot_step(self) -> list:
        if self.status() != "bot":
            raise TabernaError("No bot is to play now", "no_bot_turn")
        outbox = self.moves.play_bot()
        self.keep_persistent_ui()
        return outbox

    def change_ui(self, change: dict) -> None:
        """A hand-off to the player whose turn it is, or a change of what the screen shows."""
        if "handoff" in change:
            if change["handoff"] != self.next_local() or self.status() != "handoff":
                raise TabernaError("It is not that player's turn", "bad_handoff")
            self.viewer = change["handoff"]
            return
        if "log" in change:
            self.log.toggle(change)
            return
        self.ui.update(change)

    def keep_persistent_ui(self) -> None:
        """After a move selections go, but toggles the player set (the screen's
        ``PERSISTENT_UI``, e.g. Perudo's odds helper) stay."""
        keep = self.screen.persistent_ui
        self.ui = {k: v for k, v in self.ui.items() if k in keep}

    # --- output --------------------------------------------------------------------------------
    def delay_ms(self) -> int:
        """The pause before the next bot: longer after what the game's screen animates or
        reveals (a Dudo, tumbling dice, the last card of a trick); none when the player here
        asked to skip to the end (``ui["skip"]``, e.g. a knocked-out Perudo player)."""
        if self.ui.get("skip"):
            return 0
        pause = None
        if self.table.log:
            pause = self.screen.pause_ms(self.table.state, self.table.log[-1]["action"])
        pause = BOT_DELAY_MS if pause is None else pause
        return max(pause, self.hold_ms())

    def hold_ms(self) -> int:
        """The part of ``delay_ms`` that is the player's time to act out of turn: the page
        shortens it with the bots' pace, but no pace takes it away."""
        if self.ui.get("skip") or self.viewer is None or self.viewer not in self.table.may_act():
            return 0
        return OUT_OF_TURN_MS

    def names(self, t) -> list:
        return seat_names(self.table.seats, t)

    def body(self, t):
        """The hand-off screen, or the table as the seat on screen sees it (nothing while a
        fair deal gives it its cards: ``screens.dealing``)."""
        table = self.table
        if self.status() == "handoff":
            return handoff(t, self.next_local(), self.names(t), table.teams())
        view = table.view(self.viewer)
        return None if dealing(view) else seat_view(self.screen, view, table.seats, self.ui, t)

    def log_panel(self, t):
        """The game log as the seat on screen saw it; none while the phone changes hands
        (the seat last on screen is not the one about to look)."""
        if self.status() in ("arrange", "handoff"):
            return None
        return self.log.panel(t, self.table, self.viewer)
