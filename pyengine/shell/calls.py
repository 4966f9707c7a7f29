"""Every call the browser worker exports: JSON text (or numbers) in, JSON text out.

The page's table sessions (``site/session.js``) call these through
``xworker.sync``; ``site/worker.py`` exports ``exports()`` as they are.

* Table calls take the player's language last and answer with the one reply envelope
  (``reply.py``). One error path: whatever a call raises is caught here, at the boundary,
  and answered ``ok: false`` with a translated reason by the table the call was aimed at;
  nothing changed, and the page keeps the screen it had (never a blank one).
* One device: ``setup``, ``start``, ``resume``, ``act``, ``ui``, ``bot_step``, ``render``.
* A table this tab hosts: ``net_host_*``; a seat at another tab's table: ``net_guest_*``.
  The network and clock calls (``receive``, ``tick``, ``dropped``, ``connected``) take the
  time in milliseconds before the language. Shared-table code (``protocol``, ``hosted``,
  ``joined``) is imported when a shared table is first opened, and segno when a QR code is
  first drawn, so that a one-device game never pays for them.
* A game replayed step by step (``replay.py``): ``replay_table`` (the game at the table
  of a role, up to now), ``replay_import`` (a record's text), ``replay_link`` (a shared
  link's fragment), ``replay_resume``, ``replay_ui``, ``replay_render``.
* Your games (``games.py``): ``games_open`` (the page's finished games, and which screen:
  the list or the statistics), ``games_ui``, ``games_render``.
* Data calls: ``lobby``, ``selftest``, ``bench``, ``group_selftest``, ``group_bench``
  (the card group, see ``cardgroup.py``), ``net_qr``, and each game's own tools
  (``Declaration.tools``, e.g. Lasca's ``perft``), exported under their names.
"""

import json
import time
from functools import wraps

from ..core.errors import TabernaError
from ..core.registry import declarations, get_game
from ..core.validate import is_plain_json
from ..i18n import Translator
from .games import GamesScreen
from .local import LocalTable
from .replay import ReplayTable
from .reply import as_refusal, envelope, log_fault, parse_json, read_save, request_object
from .setup import setup_form

MAX_PEER = 128
MAX_TIME = 1 << 53  # the page's clock in ms: a JavaScript number, exact up to here
MAX_INBOUND_BATCH = 256  # peers' messages in one call: more than a page's seated guests send at once
MAX_UI = 1024  # characters of one screen change: a few small fields
# Why the host's page may cut a peer off: reason -> (English reason, catalog code).
KICKS = {"flooded": ("Too many messages: the host disconnected you.", "sync_flooded")}


# --- checks on what the page passes ----------------------------------------------------------
def _time(now):
    if type(now) not in (int, float) or not 0 <= now <= MAX_TIME:
        raise TabernaError("The time must be a number of milliseconds", "net_bad_time")
    return now


def _peer(peer) -> str:
    if not isinstance(peer, str) or not 0 < len(peer) <= MAX_PEER:
        raise TabernaError("That is not a peer", "net_bad_peer")
    return peer


def _inbound(text) -> list:
    """``[[peer, text], ...]``: at most ``MAX_INBOUND_BATCH`` messages."""
    messages = parse_json(text)
    if not isinstance(messages, list) or len(messages) > MAX_INBOUND_BATCH or not all(
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair) for pair in messages):
        raise TabernaError("Those are not peers' messages", "net_bad_peer")
    return [(_peer(peer), text) for peer, text in messages]


def _texts(text) -> list:
    """``[text, ...]``: at most ``MAX_INBOUND_BATCH`` texts."""
    texts = parse_json(text)
    if not isinstance(texts, list) or len(texts) > MAX_INBOUND_BATCH or not all(isinstance(item, str) for item in texts):
        raise TabernaError("Those are not the host's messages", "net_bad_texts")
    return texts


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
    if refusal is not error:
        log_fault(error)
    return refusal


def _table_call(role: str, opens=False, force=True):
    """A table call of ``role``: the language last, the reply envelope out.

    ``opens``: the call makes the table of its role (the form calls return their envelope
    themselves); otherwise the call works on the open table, which answers with its screen
    (always the whole screen when ``force``: the player's own input). A refusal comes from
    the table the call was aimed at (or a bare envelope when there is none)."""

    def wrap(method):
        @wraps(method)
        def call(self, *args):
            t = _translator(args)
            try:
                if opens:
                    result = method(self, t, *args[:-1])
                    if isinstance(result, dict):  # a form: no table yet
                        reply = result
                    else:  # kept only once its first screen is drawn
                        reply = result.reply(t, force=True)
                        self.tables[role] = result
                else:
                    table = self._table(role)
                    reply = method(self, t, table, *args[:-1]) or table.reply(t, force)
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


_MISSING = {
    "local": ("No table is open", "no_table"),
    "host": ("No shared table is open", "net_no_host"),
    "guest": ("You are not at a shared table", "net_no_guest"),
    "replay": ("No replay is open", "no_replay"),
    "games": ("Your games are not open", "no_games"),
}
REPLAYABLE = ("local", "host")  # the roles whose tables this tab holds whole


class Worker:
    """The tables of one worker (one browser tab): at most one of each role. Tests make
    several, one per simulated tab; the worker exports the methods of ``WORKER``."""

    def __init__(self):
        self.tables = {"local": None, "host": None, "guest": None, "replay": None, "games": None}

    def _table(self, role: str):
        if self.tables[role] is None:
            raise TabernaError(*_MISSING[role])
        return self.tables[role]

    # --- one device ---------------------------------------------------------------------------
    @_table_call("local", opens=True)
    def setup(self, t, game_id):
        """The new-table form for ``game_id``."""
        game = get_game(game_id)
        return envelope("local", html=setup_form(game, t), status="setup", title=t(f"lobby.{game.id}.name"))

    @_table_call("local", opens=True)
    def start(self, t, request):
        """``{"game", "fields"}`` from the setup form -> the first screen of a new table."""
        return LocalTable.start(request_object(request), t)

    @_table_call("local", opens=True)
    def resume(self, t, save):
        """Reopens a saved table (its log is replayed and so checked)."""
        return LocalTable.resume(read_save(save))

    @_table_call("local")
    def act(self, t, table, action):
        """Plays ``action`` for the seat on screen."""
        table.act(parse_json(action))

    @_table_call("local")
    def ui(self, t, table, change):
        """Changes only what the screen shows (selection, toggles, hand-off, take back)."""
        table.change_ui(_ui_change(change))

    @_table_call("local")
    def bot_step(self, t, table):
        """Lets the next bot play one action."""
        table.bot_step()

    @_table_call("local")
    def render(self, t, table):
        """The current screen again (e.g. after a language change)."""

    # --- a table this tab hosts ---------------------------------------------------------------
    @_table_call("host", opens=True)
    def net_host_setup(self, t, game_id):
        """The new-table form in shared mode (seats for friends)."""
        game = get_game(game_id)
        return envelope("host", html=setup_form(game, t, shared=True), status="setup", title=t(f"lobby.{game.id}.name"))

    @_table_call("host", opens=True)
    def net_host_create(self, t, request, now):
        """``{"game", "fields"}`` from the shared setup form -> a new table, arranging seats."""
        from .hosted import HostedTable

        _time(now)
        return HostedTable.create(request_object(request), t)

    @_table_call("host", opens=True)
    def net_host_resume(self, t, save, now):
        """The host's table after its own reload; guests are forgotten and rejoin with tokens."""
        from .hosted import HostedTable

        _time(now)
        return HostedTable.resume(read_save(save))

    @_table_call("host", force=False)
    def net_host_receive(self, t, host, peer, text, now):
        """One text from a guest's channel."""
        host.receive(peer, text, _time(now))

    @_table_call("host", force=False)
    def net_host_receive_all(self, t, host, messages, now):
        """The texts from seated guests' channels that waited together for this worker, as
        JSON ``[[peer, text], ...]``: the states they change go out once (``Host.receive_all``)."""
        host.receive_all(_inbound(messages), _time(now))

    @_table_call("host", force=False)
    def net_host_tick(self, t, host, now):
        """About once a second: absences, forgetting long-gone peers."""
        host.send(host.host.tick(_time(now)))

    @_table_call("host", force=False)
    def net_host_dropped(self, t, host, peer, now):
        """The page saw ``peer``'s channel close: its seat shows absent at once."""
        host.send(host.host.drop(_peer(peer), _time(now)))

    @_table_call("host", force=False)
    def net_host_kick(self, t, host, peer, reason, now):
        """The page cuts ``peer`` off for ``reason`` (``"flooded"``); the outbox tells it
        why (the protocol's ``error``, made here and never on the page), then the page
        closes its channel."""
        if not isinstance(reason, str) or reason not in KICKS:
            raise TabernaError("That command is not understood", "net_bad_command")
        host.send(host.host.kick(_peer(peer), TabernaError(*KICKS[reason]), _time(now)))

    @_table_call("host")
    def net_host_act(self, t, host, action, now):
        """A move of the seat on the host's screen (``data-act``)."""
        _time(now)
        host.act(parse_json(action))

    @_table_call("host")
    def net_host_ui(self, t, host, change, now):
        """A ``data-ui`` change of the host's screen (selection, hand-off); ``{}`` redraws."""
        _time(now)
        host.change_ui(_ui_change(change))

    @_table_call("host")
    def net_host_phrase(self, t, host, request, now):
        """A ``data-phrase`` button: say a phrase, mute a player, open or close the picker."""
        host.phrase(_ui_change(request), _time(now))

    @_table_call("host")
    def net_host_bot_step(self, t, host, now):
        """The next bot (or a bot covering for a friend) plays one action."""
        _time(now)
        host.bot_step()

    @_table_call("host")
    def net_host_command(self, t, host, command, now):
        """A ``data-host`` button: start, give a seat to a bot or back, rematch, close."""
        _time(now)
        command = request_object(command, "net_bad_command")
        host.command(command)
        if command != {"close": True}:
            return None
        from .screens import closed_screen

        self.tables["host"] = None
        outbox = [[peer, text] for peer, text in host.outbox]
        return envelope("host", host.table_id(), html=closed_screen(t), status="closed", outbox=outbox)

    # --- a seat at another tab's table --------------------------------------------------------
    @_table_call("guest", opens=True)
    def net_guest_join(self, t, request, now):
        """``{"table", "seat", "name"}``: sit down (or watch, with seat null) at a table."""
        from .joined import JoinedTable

        return JoinedTable.join(request_object(request), _time(now))

    @_table_call("guest", opens=True)
    def net_guest_resume(self, t, save, now):
        """Back after this tab's reload: rejoin the saved seat with its token."""
        from .joined import JoinedTable

        return JoinedTable.resume(read_save(save), _time(now))

    @_table_call("guest", force=False)
    def net_guest_receive_all(self, t, guest, texts, now):
        """The host's texts that came while this worker was busy, as JSON ``[text, ...]``
        (the page's session): handled in order, the screen drawn and saved once."""
        guest.receive_all(_texts(texts), _time(now))

    @_table_call("guest", force=False)
    def net_guest_tick(self, t, guest, now):
        """About once a second: heartbeats, resends, rejoin retries, noticing a silent host."""
        guest.to_host(guest.guest.tick(_time(now)))

    @_table_call("guest", force=False)
    def net_guest_dropped(self, t, guest, now):
        """The channel to the host closed: the banner shows at once."""
        guest.to_host(guest.guest.lost(_time(now)))

    @_table_call("guest", force=False)
    def net_guest_connected(self, t, guest, now):
        """A new channel to the host is open: say hello on it now."""
        guest.to_host(guest.guest.connected(_time(now)))

    @_table_call("guest")
    def net_guest_act(self, t, guest, action, now):
        """A move of this guest's seat (``data-act``), sent to the host as an intent."""
        guest.act(parse_json(action), _time(now))

    @_table_call("guest")
    def net_guest_ui(self, t, guest, change, now):
        """A ``data-ui`` change: the view's own state, or ``take_seat`` / ``retry`` / ``watch``."""
        guest.change_ui(_ui_change(change), _time(now))

    @_table_call("guest")
    def net_guest_phrase(self, t, guest, request, now):
        """A ``data-phrase`` button: say a phrase (sent to the host), mute a player, open or
        close the picker."""
        guest.phrase(_ui_change(request), _time(now))


    # --- a game replayed ------------------------------------------------------------------------
    @_table_call("replay", opens=True)
    def replay_table(self, t, role):
        """The game at this tab's table of ``role`` (one device, or hosted), up to now; at a
        friend's table (``guest``), the finished game as this device keeps it."""
        if role == "guest" and (text := self._table(role).kept_text()) is not None:
            return ReplayTable.imported(text)
        if role not in REPLAYABLE:
            raise TabernaError("No table is open", "no_table")
        return ReplayTable.of_table(self._table(role).device.table)

    @_table_call("replay", opens=True)
    def replay_import(self, t, text):
        """A record's text; refused with its line and why (the replay on screen stays)."""
        return ReplayTable.imported(text)

    @_table_call("replay", opens=True)
    def replay_link(self, t, payload):
        """A shared link's record (its fragment after ``replay=``); refused with why."""
        return ReplayTable.from_link(payload)

    @_table_call("replay", opens=True)
    def replay_resume(self, t, save):
        """The replay on screen before a reload, at the same step."""
        return ReplayTable.resume(read_save(save))

    @_table_call("replay")
    def replay_ui(self, t, replay, change):
        """``{"step": n}``, ``{"viewer": seat}``, ``{"share": page}`` or the game screen's own change."""
        replay.change_ui(_ui_change(change))

    @_table_call("replay")
    def replay_render(self, t, replay):
        """The replay's screen again (e.g. after a language change)."""

    # --- your games -----------------------------------------------------------------------------
    @_table_call("games", opens=True)
    def games_open(self, t, entries, view):
        """The finished games this device keeps (oldest first, without their records' texts),
        listed (``view`` ``"games"``) or counted (``"stats"``)."""
        return GamesScreen(parse_json(entries), view)

    @_table_call("games")
    def games_ui(self, t, games, change):
        """``{"view": "games" | "stats"}``."""
        games.change_ui(_ui_change(change))

    @_table_call("games")
    def games_render(self, t, games):
        """The screen again (e.g. after a language change)."""


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
    from ..core.simulate import playout_digest

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
    from ..core.simulate import random_playout

    request = request_object(request)
    count = int(request.get("games", 50))
    began = time.perf_counter()
    for seed in range(count):
        random_playout(request["game"], seed, request.get("seats", 4))
    elapsed = time.perf_counter() - began
    return {"games": count, "seconds": elapsed, "games_per_second": count / elapsed}


@_data_call
def group_selftest(request):
    """The card group's every operation on the request's inputs (``cardgroup.exercise``), in
    the group the worker installed (``card_group``), to compare with CPython's (rbcl)."""
    from ..core.group import current
    from .cardgroup import exercise

    return exercise(current(), request_object(request))


@_data_call
def group_bench(request):
    """One deal's crypto timed in the installed card group (``cardgroup.deal_workload``)."""
    from ..core.group import current
    from .cardgroup import deal_workload

    request = request_object(request)
    return deal_workload(current(), *(int(request[name]) for name in ("seats", "cards", "passes")))


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
    calls.update(group_selftest=group_selftest, group_bench=group_bench)
    for declaration in declarations():
        for name, play in declaration.tools().items():
            if name in calls:
                raise ValueError(f"{declaration.id} declares a tool {name!r} that already exists")
            calls[name] = _tool(play)
    return calls
