"""The one reply envelope every worker call answers with, and what the tables share to fill it.

``{"ok", "message", "role", "table", "html", "status", "delay_ms", "hold_ms", "outbox", "save", "title"}``
plus ``"error"`` (``{"reason", "code", "params"}``) when an input was refused:

* ``role``: ``"local"`` (a table on this device only), ``"host"`` or ``"guest"``;
  ``table``: the shared table's id (``None`` on one device).
* ``html``: the whole screen, or ``None`` when it is unchanged. After the player's own
  input it is always sent (so ``ui("{}")`` redraws after a language change); after the
  network or the clock only when the screen differs from the one last sent, so a heartbeat
  never redraws a half-made choice.
* ``status`` tells the page what comes next: ``"bot"`` (ask for a bot move after
  ``delay_ms``, of which ``hold_ms`` is the player's time to act out of turn), ``"handoff"`` (pass-and-play), ``"human"``, ``"wait"`` (a friend is to
  act), ``"over"``, ``"setup"``, and on shared tables ``"arrange"``, ``"closed"`` and the
  guest's ``"connecting"`` / ``"seated"`` / ``"watching"`` / ``"host_lost"`` / ``"refused"``.
* ``outbox``: ``[[peer, text], ...]`` for the page to deliver (``peer`` ``None``: the host).
* ``save``: the table to keep, as JSON text, or ``None`` when there is nothing new to keep.
  Every table saves as text (``save_text``), and every resume reads text (``read_save``):
  the page stores it verbatim, so no seed passes through a JavaScript number.
  ``summary`` comes with every save: ``{"game", "players": [name, ...], "over"}``, what the
  lobby's list of games in progress shows without reading the save.
* ``finished``: with the save that ends a game, what "Your games" keeps of it
  (``games.finished_entry``: its record and what the statistics read), else ``None``.
* A refused input answers ``ok: false``, a translated ``message``, ``html: None``, an empty
  outbox and no save: nothing changed, so the screen stays as it was.
"""

import json
import sys
import traceback

from ..core.errors import BadSave, TabernaError
from .screens import seat_names


def log_fault(error: BaseException) -> None:
    """A fault of ours, not a refusal: its traceback goes to the console for bug reports."""
    traceback.print_exception(error, file=sys.stderr)


def envelope(role: str, table=None, **fields) -> dict:
    reply = {
        "ok": True,
        "message": None,
        "role": role,
        "table": table,
        "html": None,
        "status": "",
        "delay_ms": 0,
        "hold_ms": 0,
        "outbox": [],
        "save": None,
        "summary": None,
        "finished": None,
        "title": "",
    }
    reply.update(fields)
    if reply["html"] is not None:
        reply["html"] = str(reply["html"])
    return reply


def _not_json(name):
    raise ValueError(f"{name} is not JSON")


def parse_json(text):
    """A request's JSON; NaN and Infinity are refused (they could not be sent on as JSON)."""
    try:
        return json.loads(text, parse_constant=_not_json) if isinstance(text, str) else text
    except (ValueError, RecursionError) as error:
        raise TabernaError("The request was not valid JSON", "bad_json") from error


def request_object(text, code="bad_request") -> dict:
    value = parse_json(text)
    if not isinstance(value, dict):
        raise TabernaError("The request must be a JSON object", code)
    return value


def save_text(data: dict) -> str:
    """Every save's one format: compact JSON text."""
    return json.dumps(data, separators=(",", ":"))


def read_save(text) -> dict:
    """A save handed back by the page (JSON text of an object)."""
    if not isinstance(text, str):
        raise BadSave("The save is not a table", "save_not_table")
    data = parse_json(text)
    if not isinstance(data, dict):
        raise BadSave("The save is not a table", "save_not_table")
    return data


def as_refusal(error: Exception) -> TabernaError:
    """Anything raised under a worker call, as a reason the player can be shown: a refused
    input keeps its own; anything else is a fault of ours, said as such (never a blank screen)."""
    if isinstance(error, TabernaError):
        return error
    return TabernaError(f"Internal error ({type(error).__name__})", "internal", kind=type(error).__name__)


def summary_of(game_id, seats, over, t) -> dict:
    """What the lobby lists about a saved table: its game, who sits there (in the language
    of the save), whether it ended."""
    return {"game": game_id, "players": seat_names(seats, t), "over": bool(over)}


class Controller:
    """A table this tab shows: a one-device table, a hosted one or a joined one.

    It keeps the last screen and save it handed over and the texts waiting for the network,
    so every kind answers through the same ``reply``. A table supplies ``role``, ``html(t)``,
    ``status()``, ``delay_ms()``, ``title(t)``, ``table_id()``, ``save()`` (a dict, or
    ``None`` while there is nothing worth keeping) and ``summary(t)`` (``summary_of``), and
    may supply ``hold_ms()``, ``revision()`` and ``finished()``.
    """

    role = ""

    def __init__(self):
        self.shown = None
        self.saved = None
        self.summarized = None
        self.mark = None  # revision() at the last reply
        self.outbox: list = []

    def send(self, outbox) -> None:
        self.outbox.extend(outbox)

    def hold_ms(self) -> int:
        """How much of ``delay_ms()`` is the player's time to act out of turn (none here)."""
        return 0

    def revision(self):
        """A cheap mark that changes whenever the screen or the save may have changed, or
        ``None`` (then every reply draws and saves). A table that can tell saves a flood of
        messages that change nothing from drawing and serialising everything for each."""
        return None

    def finished(self):
        """A game that has just ended: its entry in "Your games" (``games.finished_entry``)."""
        return None

    def newly_finished(self, fresh: bool):
        """The entry to hand the page with this reply: ``finished()`` whenever the save
        changed (a table that ends changes it)."""
        return self.finished() if fresh else None

    def reply(self, t, force: bool) -> dict:
        mark = self.revision()
        moved = force or mark is None or mark != self.mark
        self.mark = mark
        html = str(self.html(t)) if moved else self.shown
        changed = force or html != self.shown
        self.shown = html
        data = self.save() if moved else None
        save = None if data is None else save_text(data)
        summary = None if data is None else self.summary(t)
        # Handed over again when either changed (a guest's seat is saved at the welcome,
        # before the host has said who sits where).
        fresh = save is not None and (save != self.saved or summary != self.summarized)
        finished = self.newly_finished(fresh)
        if finished is not None and summary is None:
            summary = self.summary(t)
        outbox = [[peer, text] for peer, text in self.outbox]
        self.outbox.clear()
        status = self.status()
        reply = envelope(
            self.role,
            self.table_id(),
            html=html if changed else None,
            status=status,
            delay_ms=self.delay_ms() if status == "bot" else 0,
            hold_ms=self.hold_ms() if status == "bot" else 0,
            outbox=outbox,
            save=save if fresh else None,
            summary=summary if fresh or finished else None,
            finished=finished,
            title=self.title(t),
        )
        if moved:
            self.saved, self.summarized = save, summary
        return reply

    def refusal(self, t, error: TabernaError) -> dict:
        """``ok: false``: nothing changed, so no screen, no save, nothing to send."""
        self.outbox.clear()
        return envelope(
            self.role,
            self.table_id(),
            ok=False,
            message=t.error(error),
            error=error.to_json(),
            status=self.status(),
            title=self.title(t),
        )
