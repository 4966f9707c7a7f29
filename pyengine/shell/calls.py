"""Every call the browser worker exports: JSON text (or numbers) in, JSON text out.

The page's script (``site/app.js``, ``site/net/driver.js``) calls these through
``xworker.sync``; ``site/worker.py`` exports ``exports()`` as they are.

* Table calls take the player's language last and answer with the one reply envelope
  (``reply.py``). One error path: whatever a call raises is caught here, at the boundary,
  and answered ``ok: false`` with a translated reason by the table the call was aimed at;
  nothing changed, and the page keeps the screen it had (never a blank one).
* One device: ``setup``, ``start``, ``resume``, ``act``, ``ui``, ``bot_step``, ``render``.
* A table this tab hosts: ``net_host_*``; a seat at another tab's table: ``net_guest_*``.
  The network and clock calls (``receive``, ``tick``, ``dropped``, ``connected``) take the
  time in milliseconds before the language. Shared-table code (``core.sync``, ``hosted``,
  ``joined``) is imported when a shared table is first opened, and segno when a QR code is
  first drawn, so that a one-device game never pays for them.
* Data calls: ``lobby``, ``selftest``, ``bench``, ``net_qr``, and each game's own tools
  (``Declaration.tools``, e.g. Lasca's ``perft``), exported under their names.
"""

import json
import sys
import time
import traceback
from functools import wraps

from ..core.errors import TabernaError
from ..core.registry import declarations, get_game
from ..core.simulate import playout_digest, random_playout
from ..core.validate import is_plain_json
from ..i18n import Translator
from .local import LocalTable
from .reply import as_refusal, envelope, parse_json, read_save, request_object
from .setup import setup_form

MAX_PEER = 128
MAX_TIME = 1 << 53  # the page's clock in ms: a JavaScript number, exact up to here
MAX_UI = 1024  # characters of one screen change: a few small fields


# --- checks on what the page passes ----------------------------------------------------------
def _time(now):
    if type(now) not in (int, float) or not 0 <= now <= MAX_TIME:
        raise TabernaError("The time must be a number of milliseconds", "net_bad_time")
    return now


def _ui_change(text) -> dict:
    """A ``data-ui`` change: a small plain object (it is kept and handed to the view)."""
    if not isinstance(text, str) or len(text) > MAX_UI:
        raise TabernaError("That button is not understood", "bad_ui")
    change = request_object(text, "bad_ui")
    if not is_plain_json(change):
        raise TabernaError("That button is not understood", "bad_ui")
    return change


def _translator(args) -> Translator:
    lang = args[-1] if args else "en"
    return Translator(lang if isinstance(lang, str) else "en")


def _refused(error: Exception) -> TabernaError:
    refusal = as_refusal(error)
    if refusal is not error:  # a fault of ours: keep the traceback for the console
        traceback.print_exception(error, file=sys.stderr)
    return refusal


def _table_call(role: str):
    """A table call: the language last; the answer is the reply envelope, a refusal comes
    from the table of ``role`` on screen (or a bare envelope when there is none)."""

    def wrap(method):
        @wraps(method)
        def call(self, *args):
            t = _translator(args)
            try:
                reply = method(self, t, *args[:-1])
            except Exception as error:
                refusal = _refused(error)
                table = self.tables[role]
                if table is not None:
                    reply = table.refusal(t, refusal)
                else:
                    reply = envelope(role, ok=False, message=t.error(refusal), error=refusal.to_json())
            return json.dumps(reply)

        return call

    return wrap


def _data_call(method):
    """A data call: plain JSON out, or ``{"ok": false, "message", "error"}``."""

    @wraps(method)
    def call(*args):
        try:
            return json.dumps(method(*args))
        except Exception as error:
            refusal = _refused(error)
            t = _translator(args)
            return json.dumps({"ok": False, "message": t.error(refusal), "error": refusal.to_json()})

    return call


class Worker:
    """The tables of one worker (one browser tab): at most one of each role. Tests make
    several, one per simulated tab; the worker exports the methods of ``WORKER``."""

    def __init__(self):
        self.tables = {"local": None, "host": None, "guest": None}

    def _table(self, role: str):
        table = self.tables[role]
        if table is None:
            codes = {
                "local": ("No table is open", "no_table"),
                "host": ("No shared table is open", "net_no_host"),
                "guest": ("You are not at a shared table", "net_no_guest"),
            }
            raise TabernaError(*codes[role])
        return table

    def _open(self, role: str, table, t) -> dict:
        self.tables[role] = table
        return table.reply(t, force=True)

    # --- one device ---------------------------------------------------------------------------
    @_table_call("local")
    def setup(self, t, game_id):
        """The new-table form for ``game_id``."""
        game = get_game(game_id)
        return envelope("local", html=setup_form(game, t), status="setup", title=t(f"lobby.{game.id}.name"))

    @_table_call("local")
    def start(self, t, request):
        """``{"game", "fields"}`` from the setup form -> the first screen of a new table."""
        return self._open("local", LocalTable.start(request_object(request), t), t)

    @_table_call("local")
    def resume(self, t, save):
        """Reopens a saved table (its log is replayed and so checked)."""
        return self._open("local", LocalTable.resume(read_save(save)), t)

    @_table_call("local")
    def act(self, t, action):
        """Plays ``action`` for the seat on screen."""
        table = self._table("local")
        table.act(parse_json(action))
        return table.reply(t, force=True)

    @_table_call("local")
    def ui(self, t, change):
        """Changes only what the screen shows (selection, toggles, hand-off, take back)."""
        table = self._table("local")
        table.change_ui(_ui_change(change))
        return table.reply(t, force=True)

    @_table_call("local")
    def bot_step(self, t):
        """Lets the next bot play one action."""
        table = self._table("local")
        table.bot_step()
        return table.reply(t, force=True)

    @_table_call("local")
    def render(self, t):
        """The current screen again (e.g. after a language change)."""
        return self._table("local").reply(t, force=True)

    # --- a table this tab hosts ---------------------------------------------------------------
    @_table_call("host")
    def net_host_setup(self, t, game_id):
        """The new-table form in shared mode (seats for friends)."""
        game = get_game(game_id)
        return envelope("host", html=setup_form(game, t, shared=True), status="setup", title=t(f"lobby.{game.id}.name"))

    @_table_call("host")
    def net_host_create(self, t, request, now):
        """``{"game", "fields"}`` from the shared setup form -> a new table, arranging seats."""
        from .hosted import HostedTable

        _time(now)
        return self._open("host", HostedTable.create(request_object(request), t), t)

    @_table_call("host")
    def net_host_resume(self, t, save, now):
        """The host's table after its own reload; guests are forgotten and rejoin with tokens."""
        from .hosted import HostedTable

        _time(now)
        return self._open("host", HostedTable.resume(read_save(save)), t)

    @_table_call("host")
    def net_host_receive(self, t, peer, text, now):
        """One text from a guest's channel."""
        host = self._table("host")
        host.receive(peer, text, _time(now))
        return host.reply(t, force=False)

    @_table_call("host")
    def net_host_tick(self, t, now):
        """About once a second: absences, forgetting long-gone peers."""
        host = self._table("host")
        host.send(host.host.tick(_time(now)))
        return host.reply(t, force=False)

    @_table_call("host")
    def net_host_dropped(self, t, peer, now):
        """The page saw ``peer``'s channel close: its seat shows absent at once."""
        host = self._table("host")
        if not isinstance(peer, str) or not 0 < len(peer) <= MAX_PEER:
            raise TabernaError("That is not a peer", "net_bad_peer")
        host.send(host.host.drop(peer, _time(now)))
        return host.reply(t, force=False)

    @_table_call("host")
    def net_host_act(self, t, action, now):
        """A move of the seat on the host's screen (``data-act``)."""
        host = self._table("host")
        _time(now)
        host.act(parse_json(action))
        return host.reply(t, force=True)

    @_table_call("host")
    def net_host_ui(self, t, change, now):
        """A ``data-ui`` change of the host's screen (selection, hand-off); ``{}`` redraws."""
        host = self._table("host")
        _time(now)
        host.change_ui(_ui_change(change))
        return host.reply(t, force=True)

    @_table_call("host")
    def net_host_bot_step(self, t, now):
        """The next bot (or a bot covering for a friend) plays one action."""
        host = self._table("host")
        _time(now)
        host.bot_step()
        return host.reply(t, force=True)

    @_table_call("host")
    def net_host_command(self, t, command, now):
        """A ``data-host`` button: start, give a seat to a bot or back, rematch, close."""
        from .screens import closed_screen

        host = self._table("host")
        _time(now)
        command = request_object(command, "net_bad_command")
        host.command(command)
        if command == {"close": True}:
            self.tables["host"] = None
            outbox = [[peer, text] for peer, text in host.outbox]
            return envelope("host", host.table_id(), html=closed_screen(t), status="closed", outbox=outbox)
        return host.reply(t, force=True)

    # --- a seat at another tab's table --------------------------------------------------------
    @_table_call("guest")
    def net_guest_join(self, t, request, now):
        """``{"table", "seat", "name"}``: sit down (or watch, with seat null) at a table."""
        from .joined import JoinedTable

        return self._open("guest", JoinedTable.join(request_object(request), _time(now)), t)

    @_table_call("guest")
    def net_guest_resume(self, t, save, now):
        """Back after this tab's reload: rejoin the saved seat with its token."""
        from .joined import JoinedTable

        return self._open("guest", JoinedTable.resume(read_save(save), _time(now)), t)

    @_table_call("guest")
    def net_guest_receive(self, t, text, now):
        """One text from the host."""
        guest = self._table("guest")
        guest.receive(text, _time(now))
        return guest.reply(t, force=False)

    @_table_call("guest")
    def net_guest_tick(self, t, now):
        """About once a second: heartbeats, resends, rejoin retries, noticing a silent host."""
        guest = self._table("guest")
        guest.to_host(guest.guest.tick(_time(now)))
        return guest.reply(t, force=False)

    @_table_call("guest")
    def net_guest_dropped(self, t, now):
        """The channel to the host closed: the banner shows at once."""
        guest = self._table("guest")
        guest.to_host(guest.guest.lost(_time(now)))
        return guest.reply(t, force=False)

    @_table_call("guest")
    def net_guest_connected(self, t, now):
        """A new channel to the host is open: say hello on it now."""
        guest = self._table("guest")
        guest.to_host(guest.guest.connected(_time(now)))
        return guest.reply(t, force=False)

    @_table_call("guest")
    def net_guest_act(self, t, action, now):
        """A move of this guest's seat (``data-act``), sent to the host as an intent."""
        guest = self._table("guest")
        guest.act(parse_json(action), _time(now))
        return guest.reply(t, force=True)

    @_table_call("guest")
    def net_guest_ui(self, t, change, now):
        """A ``data-ui`` change: the view's own state, or ``take_seat`` / ``retry`` / ``watch``."""
        guest = self._table("guest")
        guest.change_ui(_ui_change(change), _time(now))
        return guest.reply(t, force=True)


TABLE_CALLS = tuple(name for name in vars(Worker) if not name.startswith("_"))


# --- data calls -------------------------------------------------------------------------------
@_data_call
def lobby(lang="en"):
    """Every declared game in lobby order: playable or coming soon, seats, bot levels,
    option schemas."""
    entries = []
    for declaration in declarations():
        entry = {
            "id": declaration.id,
            "playable": declaration.playable,
            "kind": declaration.kind,
            "min_seats": declaration.min_seats,
            "max_seats": declaration.max_seats,
        }
        game = declaration.rules
        if game is not None:
            entry.update(
                bot_levels=list(game.bot_levels),
                options={name: option.to_json() for name, option in game.options.items()},
            )
        entries.append(entry)
    return {"games": entries}


@_data_call
def selftest(request):
    """Digests of seeded random games, to compare Pyodide with CPython."""
    request = request_object(request)
    results = [
        playout_digest(game_id, seed, request.get("seats"))
        for game_id in request["games"]
        for seed in request["seeds"]
    ]
    return {"results": results}


@_data_call
def bench(request):
    """Random games per second for one game in this interpreter."""
    request = request_object(request)
    count = int(request.get("games", 50))
    began = time.perf_counter()
    for seed in range(count):
        random_playout(request["game"], seed, request.get("seats", 4))
    elapsed = time.perf_counter() - began
    return {"games": count, "seconds": elapsed, "games_per_second": count / elapsed}


@_data_call
def net_qr(text, lang="en"):
    """``{"ok", "svg"}``: a QR code of ``text`` (an invite link or a reply code) as scalable
    SVG markup; refused with a reason (and ``svg: null``) for text a phone could not scan."""
    from .qr import qr_svg

    try:
        svg = qr_svg(text, _translator([lang]))
    except TabernaError as error:
        t = _translator([lang])
        return {"ok": False, "svg": None, "message": t.error(error), "error": error.to_json()}
    return {"ok": True, "svg": str(svg), "message": None}


def _tool(play):
    """A game's tool as a data call: ``{...}`` JSON in, its reply out."""
    return _data_call(lambda request, lang="en": play(request_object(request)))


WORKER = Worker()


def exports() -> dict:
    """Every exported call by name (the worker sets each on ``xworker.sync``)."""
    calls = {name: getattr(WORKER, name) for name in TABLE_CALLS}
    calls.update(lobby=lobby, selftest=selftest, bench=bench, net_qr=net_qr)
    for declaration in declarations():
        for name, play in declaration.tools().items():
            if name in calls:
                raise ValueError(f"{declaration.id} declares a tool {name!r} that already exists")
            calls[name] = _tool(play)
    return calls
