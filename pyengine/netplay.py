"""Play with friends, the worker's side: shared-table controllers, their screens, QR codes.

A ``HostTable`` drives ``core.sync.Host`` for the table this tab hosts, a ``GuestTable``
drives ``core.sync.Guest`` for a seat at someone else's table. The page's script carries
texts between them and the transports; everything shown is HTML made here. A ``NetWorker``
holds one of each for a browser tab; the worker exports the ``net_*`` methods of ``WORKER``
and ``net_qr``: JSON text or numbers in, the language last, a JSON "net reply" out:
``{"ok", "message", "role", "table", "html", "status", "delay_ms", "outbox", "save",
"title"}``, plus ``"error"`` (code and params) when an input was refused.

Decisions where the interface contract (issue 5) is silent:

* ``html`` after the player's own input (setup, create, resume, join, act, ui, command,
  bot step) is always the whole screen, so ``ui("{}")`` redraws after a language change.
  After the network or the clock (receive, tick, dropped, connected) it is ``null`` unless
  the screen differs from the one last sent: a heartbeat never redraws a half-made choice.
* A refused input answers ``ok: false``, a translated ``message``, ``html: null``, an empty
  outbox and no save: nothing changed, so the screen stays as it was.
* Starting needs every friend seat taken or given to a bot; the arrange screen offers
  "give to a bot" for an empty friend seat, as it does for an absent friend during play.
  Covering bots play the game's middle level.
* The host's save is ``Host.snapshot()`` plus ``"friends": [seat, ...]``: the friend seats
  are remembered so a seat covered before anyone sat in it can still be given back.
* A guest's save (``Guest.snapshot()``) is handed over once it holds a seat, never for a
  watcher: reloading before the welcome repeats the page's join request instead.
* ``{"close": true}`` tells every guest (they see "the host closed this table"), forgets the
  host and answers with status ``"closed"``: the page then removes its ``taberna.host`` save.
* Guests' views come from a peer, so they are untrusted too: a game this build cannot draw,
  or a view its renderer chokes on, shows a notice instead of breaking the worker.
"""

import json
import secrets
from html import escape

from .bridge import (
    Session,
    game_view_module,
    has_view,
    over_html,
    parse_json,
    seat_html,
    table_section,
)
from .core.errors import BadSave, InvalidOptions, TabernaError
from .core.registry import get_game, playable_games
from .core.sync import Guest, Host
from .core.sync.envelope import MAX_NUMBER
from .core.table import MAX_SEED
from .core.validate import is_plain_json
from .i18n import Translator
from .ui.html import attr_json
from .ui.setup import REMOTE, config_from_fields, default_bot_level, setup_form

# Room codes are read aloud and typed on phones: no I/1, O/0; 32**8 = 2**40 of them.
ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
ROOM_CODE_LENGTH = 8
MAX_PEER = 128
MAX_UI = 1024  # characters of one screen change: a few small fields
MAX_QR_TEXT = 1000


def room_code() -> str:
    return "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


# --- checks on what the page passes ----------------------------------------------------------
def _time(now):
    if type(now) not in (int, float) or not 0 <= now <= MAX_NUMBER:
        raise TabernaError("The time must be a number of milliseconds", "net_bad_time")
    return now


def _object(text, code="bad_request") -> dict:
    value = parse_json(text)
    if not isinstance(value, dict):
        raise TabernaError("The request must be a JSON object", code)
    return value


def _ui_change(text) -> dict:
    """A ``data-ui`` change: a small plain object (it is kept and handed to the view)."""
    if not isinstance(text, str) or len(text) > MAX_UI:
        raise TabernaError("That button is not understood", "bad_ui")
    change = _object(text, "bad_ui")
    if not is_plain_json(change):
        raise TabernaError("That button is not understood", "bad_ui")
    return change


def _seat_number(value, seats: int) -> int:
    if type(value) is not int or not 0 <= value < seats:
        raise TabernaError("There is no such seat", "sync_no_such_seat", seat=str(value)[:8])
    return value


# --- the seat strip: one component for host and guest -----------------------------------------
def seat_conn(seat: dict) -> str:
    """``local`` (the host's device), ``bot``, or for a friend's seat ``open`` / ``connected``
    / ``absent``: the ``data-conn`` of the strip, for the page's tests and styles."""
    if seat["kind"] == "human":
        return "local"
    if seat["kind"] == "bot":
        return "bot"
    if seat["open"]:
        return "open"
    return "connected" if seat["connected"] else "absent"


def _conn_label(t, game_id: str, seat: dict, conn: str, host_side: bool) -> str:
    if conn == "local":
        return t("sync.conn.here") if host_side else t("sync.conn.host_device")
    if conn == "bot":
        level = t(f"level.{game_id}.{seat.get('level')}")
        return t("sync.conn.covered", level=level) if seat.get("covered") else t("setup.bot", level=level)
    return t(f"sync.conn.{conn}")


def seat_strip(t, game_id: str, seats: list, you, host_side: bool, buttons) -> str:
    """The seats with their connection state; ``buttons(index, conn)`` adds each one's buttons."""
    items = []
    for index, seat in enumerate(seats):
        conn = seat_conn(seat)
        name = escape(seat["name"])
        if index == you:
            name += f' <span class="tb-net-you">({escape(t("sync.you"))})</span>'
        items.append(
            f'<li class="tb-net-seat" data-testid="seat-{index}" data-conn="{conn}">'
            f'<span class="tb-net-name">{name}</span> '
            f'<span class="tb-net-state">{escape(_conn_label(t, game_id, seat, conn, host_side))}</span>'
            f"{buttons(index, conn)}</li>"
        )
    return f'<ol class="tb-net-seats" aria-label="{escape(t("sync.seats"))}">{"".join(items)}</ol>'


def _button(label: str, attribute: str, value, testid: str, cls="", disabled=False, aria=None) -> str:
    """A real button carrying ``data-host`` / ``data-ui`` JSON or a ``data-invite`` seat."""
    value = attr_json(value) if isinstance(value, dict) else escape(str(value))
    extra = f' aria-label="{escape(aria)}"' if aria else ""
    extra += " disabled" if disabled else ""
    return (
        f"<button type=\"button\" class=\"{cls}\" {attribute}='{value}' "
        f'data-testid="{testid}"{extra}>{escape(label)}</button>'
    )


def _net_reply(role: str, table, **fields) -> dict:
    reply = {
        "ok": True,
        "message": None,
        "role": role,
        "table": table,
        "html": None,
        "status": "",
        "delay_ms": 0,
        "outbox": [],
        "save": None,
        "title": "",
    }
    reply.update(fields)
    return reply


class _Screen:
    """What both controllers share: the last screen sent, the last save handed over."""

    role = ""

    def __init__(self):
        self.shown = None
        self.saved = None
        self.outbox: list = []

    def send(self, outbox) -> None:
        self.outbox.extend(outbox)

    def reply(self, t, force: bool) -> dict:
        html = self.html(t)
        changed = force or html != self.shown
        self.shown = html
        save = self.save_text()
        outbox = list(self.outbox)
        self.outbox.clear()
        reply = _net_reply(
            self.role,
            self.table_id(),
            html=html if changed else None,
            status=self.status(),
            outbox=[[peer, text] for peer, text in outbox],
            save=save if save != self.saved else None,  # None: nothing to keep yet
            title=self.title(t),
        )
        self.saved = save
        if reply["status"] == "bot":
            reply["delay_ms"] = self.delay_ms()
        return reply

    def refusal(self, t, error: TabernaError) -> dict:
        """``ok: false``: nothing changed, so no screen, no save, nothing to send."""
        self.outbox.clear()
        return _net_reply(
            self.role,
            self.table_id(),
            ok=False,
            message=t.error(error),
            error=error.to_json(),
            status=self.status(),
            title=self.title(t),
        )


# --- the host ----------------------------------------------------------------------------------
class _HostSession(Session):
    """bridge's screen logic (hand-off, game over, persistent UI) for the host's own seats;
    every move goes through the Host, which tells the guests. A new game means a new shared
    table (the friends join again), so the game-over screen offers only the lobby."""

    play_again = False

    def __init__(self, host: Host, outbox: list):
        super().__init__()
        self.host = host
        self.outbox = outbox
        self.open(host.table)

    def play(self, seat, action) -> None:
        self.outbox.extend(self.host.act(seat, action))

    def play_bot(self, seat) -> None:
        self.outbox.extend(self.host.play_bot())

    def can_undo(self) -> bool:
        return False  # guests have seen the move

    def version(self) -> int:
        return self.host.version  # as the guests see it: counting across games

    def status(self) -> str:
        if not self.host.started:
            return "arrange"
        status = super().status()
        return "wait" if status == "human" and self.next_human() is None else status


class HostTable(_Screen):
    """The shared table this tab hosts."""

    role = "host"

    def __init__(self, host: Host, friends):
        super().__init__()
        self.host = host
        self.friends = sorted(friends)
        self.session = _HostSession(host, self.outbox)

    @classmethod
    def create(cls, request, t) -> "HostTable":
        game = get_game(request.get("game"))
        config = config_from_fields(game, request.get("fields"), t, shared=True)
        friends = [i for i, seat in enumerate(config["seats"]) if seat["kind"] == REMOTE]
        if not friends:
            raise InvalidOptions("A shared table needs a seat for a friend", "net_no_friends")
        seed = config.get("seed", secrets.randbelow(MAX_SEED + 1))
        return cls(Host.create(game.id, config["options"], config["seats"], seed, room_code()), friends)

    @classmethod
    def resume(cls, data) -> "HostTable":
        host = Host.from_snapshot(data)
        friends = data.get("friends")
        seats = host.table.seats
        if (
            not isinstance(friends, list)
            or any(type(f) is not int or not 0 <= f < len(seats) for f in friends)
            or len(set(friends)) != len(friends)
            or any(seats[i]["kind"] == REMOTE and i not in friends for i in range(len(seats)))
            or any(seats[i]["kind"] == "human" for i in friends)
        ):
            raise BadSave("The shared table's friend seats are damaged", "net_save_friends")
        return cls(host, friends)

    # --- inputs -----------------------------------------------------------------------------
    def receive(self, peer, text, now) -> None:
        self._moves(lambda: self.host.receive(peer, text, now))

    def _moves(self, call) -> None:
        """A peer's message may move the table: then selections go, as after a bot's move."""
        version = self.host.version
        self.send(call())
        if self.host.version != version:
            self.session.keep_persistent_ui()

    def command(self, command) -> None:
        seats = self.host.table.seats
        if command == {"start": True}:
            if any(seat["open"] for seat in self.host.public_seats()):
                raise TabernaError("Some friend seats are still empty", "net_seats_open")
            self.send(self.host.start())
            return
        if command == {"close": True}:
            self.send(self.host.close())
            return
        if command == {"rematch": True}:
            self.send(self.host.rematch())
            self.session.open(self.host.table)
            return
        kind = command.get("kind")
        if set(command) - {"seat", "kind", "level"} or kind not in ("bot", REMOTE):
            raise TabernaError("That command is not understood", "net_bad_command")
        seat = _seat_number(command.get("seat"), len(seats))
        if seat not in self.friends:
            raise TabernaError("That seat is not a friend's", "net_not_friend_seat", seat=seat + 1)
        # A bot covers a friend's seat that is open or absent; "remote" gives a covered seat back.
        wanted_from = REMOTE if kind == "bot" else "bot"
        if seats[seat]["kind"] != wanted_from or (kind == REMOTE and "level" in command):
            raise TabernaError("That command is not understood", "net_bad_command")
        if kind == "bot":
            if self.host.public_seats()[seat]["connected"]:
                raise TabernaError("That friend is at the table", "net_friend_here", seat=seat + 1)
            if command.get("level") not in self.host.table.game.bot_levels:
                raise InvalidOptions("A bot has no valid level", "seat_level", seat=seat)
        self.send(self.host.set_seat(seat, kind, command.get("level")))

    def bot_step(self) -> None:
        if self.status() != "bot":
            raise TabernaError("No bot is to play now", "no_bot_turn")
        self.session.bot_step()

    # --- output -----------------------------------------------------------------------------
    def table_id(self) -> str:
        return self.host.table_id

    def status(self) -> str:
        return self.session.status()

    def delay_ms(self) -> int:
        return self.session.delay_ms()

    def title(self, t) -> str:
        return t(f"lobby.{self.host.table.game.id}.name")

    def save_text(self) -> str:
        return json.dumps({**self.host.snapshot(), "friends": self.friends}, separators=(",", ":"))

    def _seat_buttons(self, t, index: int, conn: str) -> str:
        if index not in self.friends:
            return ""
        name = self.host.table.seats[index]["name"]
        if conn in ("open", "absent"):
            level = default_bot_level(self.host.table.game)
            return (
                '<span class="tb-net-buttons">'
                + _button(t("sync.invite"), "data-invite", index, f"invite-{index}", "tb-primary",
                          aria=t("sync.invite_label", name=name))
                + _button(t("sync.cover"), "data-host", {"seat": index, "kind": "bot", "level": level},
                          f"cover-{index}", aria=t("sync.cover_label", name=name))
                + "</span>"
            )
        if conn == "bot":
            return (
                '<span class="tb-net-buttons">'
                + _button(t("sync.give_back"), "data-host", {"seat": index, "kind": REMOTE},
                          f"give-back-{index}", aria=t("sync.give_back_label", name=name))
                + "</span>"
            )
        return ""

    def _strip(self, t) -> str:
        return seat_strip(
            t,
            self.host.table.game.id,
            self.host.public_seats(),
            self.session.viewer,
            True,
            lambda index, conn: self._seat_buttons(t, index, conn),
        )

    def _close_button(self, t) -> str:
        return _button(t("sync.close"), "data-host", {"close": True}, "net-close")

    def html(self, t) -> str:
        status = self.status()
        title = escape(self.title(t), quote=True)
        if status != "arrange":
            closing = ""
            if status == "over":
                rematch = _button(t("sync.rematch"), "data-host", {"rematch": True}, "net-rematch", "tb-primary")
                closing = f'<p class="tb-net-actions">{rematch} {self._close_button(t)}</p>'
            return (
                f'<div class="tb-net" data-testid="net-host" data-status="{status}">'
                f"{self._strip(t)}{self.session.table_html(t)}{closing}</div>"
            )
        waiting = any(seat["open"] for seat in self.host.public_seats())
        code = self.host.table_id
        return (
            f'<section class="tb-net tb-net-arrange" data-testid="net-host" data-status="arrange" '
            f'aria-label="{title}"><h2>{title}</h2>'
            f'<div class="tb-room"><p class="tb-room-label">{escape(t("sync.room_code"))}</p>'
            f'<p class="tb-room-code" data-testid="room-code" '
            f'aria-label="{escape(" ".join(code), quote=True)}">{code}</p>'
            f'<p class="tb-hint tb-rooms-on">{escape(t("sync.room_hint"))}</p>'
            f'<p class="tb-hint tb-rooms-off">{escape(t("sync.room_hint_off"))}</p></div>'
            f"{self._strip(t)}"
            f'<p class="tb-hint" role="status">{escape(t("sync.need_friends" if waiting else "sync.ready"))}</p>'
            f'<p class="tb-net-actions">'
            + _button(t("sync.start"), "data-host", {"start": True}, "net-start", "tb-primary", waiting)
            + f" {self._close_button(t)}</p></section>"
        )


def closed_reply(t, outbox, table_id) -> dict:
    html = (
        '<section class="tb-net" data-testid="net-closed" data-status="closed">'
        f'<p role="status">{escape(t("sync.closed"))}</p>'
        f'<button type="button" class="tb-primary" data-nav="lobby">{escape(t("game.back"))}</button></section>'
    )
    return _net_reply(
        "host", table_id, html=html, status="closed", outbox=[[p, x] for p, x in outbox]
    )


# --- the guest ---------------------------------------------------------------------------------
_RESERVED = ("reason", "code", "key", "lang")  # would collide with the translator's arguments


def _host_reason(t, error: dict) -> str:
    """A refusal from the host, in our language when we know its code (the host's params are
    untrusted: only plain ones are used), else its own English reason."""
    params = {k: v for k, v in error["params"].items() if k not in _RESERVED}
    return t.error(TabernaError(str(error["reason"])[:200], error["code"], **params))


class GuestTable(_Screen):
    """This tab's seat (or place as a watcher) at someone else's table."""

    role = "guest"

    def __init__(self, guest: Guest):
        super().__init__()
        self.guest = guest
        self.ui: dict = {}

    @classmethod
    def join(cls, request, now) -> "GuestTable":
        if set(request) - {"table", "seat", "name"}:
            raise TabernaError("The request was not understood", "bad_request")
        table = cls(Guest(request.get("table"), request.get("name", ""), request.get("seat")))
        table.send((None, text) for text in table.guest.start(now))
        return table

    @classmethod
    def resume(cls, data, now) -> "GuestTable":
        table = cls(Guest.from_snapshot(data))
        table.send((None, text) for text in table.guest.start(now))
        return table

    # --- inputs -----------------------------------------------------------------------------
    def to_host(self, texts) -> None:
        self.send((None, text) for text in texts)

    def receive(self, text, now) -> None:
        guest = self.guest
        version = guest.version
        self.to_host(guest.receive(text, now))
        if guest.version != version:
            self.keep_persistent_ui()
            if guest.status != "refused":
                guest.error = None  # a refusal is news only until the table moves on

    def keep_persistent_ui(self) -> None:
        module = self._view_module()
        keep = getattr(module, "PERSISTENT_UI", ()) if module else ()
        self.ui = {k: v for k, v in self.ui.items() if k in keep}

    def act(self, action, now) -> None:
        if not isinstance(action, dict) or not is_plain_json(action):
            raise TabernaError("That move is not understood", "bad_action")
        self.to_host(self.guest.intend(action, now))
        self.keep_persistent_ui()

    def change_ui(self, change: dict, now) -> None:
        guest = self.guest
        if "take_seat" in change:
            if set(change) != {"take_seat"}:
                raise TabernaError("That button is not understood", "bad_ui")
            self.to_host(guest.take_seat(change["take_seat"], now))
        elif change == {"retry": True}:
            self.to_host(guest.start(now))
        elif change == {"watch": True}:
            if guest.token is not None:
                raise TabernaError("You already hold a seat", "sync_already_seated", seat=guest.seat)
            self.guest = Guest(guest.table_id, guest.name)
            self.to_host(self.guest.start(now))
        else:
            self.ui.update(change)

    # --- output -----------------------------------------------------------------------------
    def table_id(self) -> str:
        return self.guest.table_id

    def status(self) -> str:
        return self.guest.status

    def title(self, t) -> str:
        return t("sync.table", code=self.guest.table_id)

    def save_text(self):
        """Only a seat is worth keeping: a reload before the welcome asks for the seat again
        (the page's join request), rather than coming back as a mere watcher."""
        if self.guest.token is None:
            return None
        return json.dumps(self.guest.snapshot(), separators=(",", ":"))

    def _view_module(self):
        game = self.guest.game
        if game not in playable_games() or not has_view(game):
            return None
        return game_view_module(game)

    def _seat_buttons(self, t, index: int, conn: str) -> str:
        guest = self.guest
        if conn != "open" or guest.token is not None or guest.status == "host_lost":
            return ""
        return (
            '<span class="tb-net-buttons">'
            + _button(t("sync.take_seat"), "data-ui", {"take_seat": index}, f"take-seat-{index}", "tb-primary")
            + "</span>"
        )

    def _table_body(self, t) -> str:
        """The seat strip and the game as this seat sees it, from what the host sent."""
        guest = self.guest
        seated = guest.token is not None
        strip = seat_strip(
            t, guest.game, guest.seats, guest.seat if seated else None, False,
            lambda index, conn: self._seat_buttons(t, index, conn),
        )
        notes = ""
        if not seated:
            notes += f'<p class="tb-hint">{escape(t("sync.watching"))}</p>'
        if not guest.started:
            return (
                f"<h2>{escape(self.title(t))}</h2>{strip}{notes}"
                f'<p class="tb-hint" role="status">{escape(t("sync.waiting_start"))}</p>'
            )
        if guest.pending is not None:
            notes += f'<p class="tb-net-pending" role="status">{escape(t("sync.pending"))}</p>'
        if guest.error is not None and guest.error["code"] != "sync_not_joined":
            notes += f'<p class="tb-net-error" role="alert">{escape(_host_reason(t, guest.error))}</p>'
        view = guest.view
        body = seat_html(guest.game, view, guest.seats, self.ui, t)
        if view.get("result"):
            names = [seat["name"] for seat in guest.seats]
            body += over_html(t, guest.game, view["result"], names, again=False)
            body += f'<p class="tb-hint">{escape(t("sync.rematch_wait"))}</p>'
        status = "seated" if seated else "watching"
        return strip + notes + table_section(t, guest.game, status, guest.version, body)

    def html(self, t) -> str:
        guest = self.guest
        code = escape(guest.table_id)
        if guest.status == "connecting":
            body = (
                f"<h2>{escape(self.title(t))}</h2>"
                f'<p role="status">{escape(t("sync.connecting", code=guest.table_id))}</p>'
            )
        elif guest.status == "refused":
            body = self._refused(t)
        elif self._view_module() is None:
            body = f'<p role="alert">{escape(t("sync.unknown_game"))}</p>'
        else:
            try:
                body = self._table_body(t)
            except Exception:  # the view came from a peer: a broken one must not stop this tab
                body = f'<p role="alert">{escape(t("sync.bad_view"))}</p>'
        banner = ""
        if guest.status == "host_lost":
            banner = (
                f'<p class="tb-net-banner" role="alert" data-testid="host-lost">'
                f'{escape(t("sync.host_lost"))}</p>'
            )
        return (
            f'<div class="tb-net tb-net-guest" data-testid="net-guest" data-status="{guest.status}" '
            f'data-table="{code}">{banner}{body}</div>'
        )

    def _refused(self, t) -> str:
        guest = self.guest
        reason = _host_reason(t, guest.error) if guest.error else ""
        buttons = ""
        if guest.error and guest.error["code"] != "sync_closed":
            buttons = _button(t("sync.retry"), "data-ui", {"retry": True}, "net-retry", "tb-primary")
            if guest.token is None:
                buttons += " " + _button(t("sync.watch"), "data-ui", {"watch": True}, "net-watch")
        return (
            f'<h2>{escape(t("sync.refused"))}</h2>'
            f'<p role="alert" data-testid="net-refused">{escape(reason)}</p>'
            f'<p class="tb-net-actions">{buttons} '
            f'<button type="button" data-nav="lobby">{escape(t("game.back"))}</button></p>'
        )


# --- what the worker exports -------------------------------------------------------------------
def _net_call(role: str):
    """Wraps an exported call: the language is the last argument; a refused input becomes an
    ``ok: false`` reply that changed nothing; the reply goes out as JSON text."""

    def wrap(method):
        def call(self, *args):
            lang = args[-1] if args and isinstance(args[-1], str) else "en"
            t = Translator(lang)
            try:
                reply = method(self, t, *args[:-1])
            except TabernaError as error:
                current = self.host if role == "host" else self.guest
                if current is not None:
                    reply = current.refusal(t, error)
                else:
                    reply = _net_reply(role, None, ok=False, message=t.error(error), error=error.to_json())
            return json.dumps(reply)

        call.__name__ = method.__name__
        call.__doc__ = method.__doc__
        return call

    return wrap


class NetWorker:
    """The shared tables of one worker (one browser tab): at most one hosted, one joined.
    Tests make several, one per simulated tab; the worker exports the methods of ``WORKER``."""

    def __init__(self):
        self.host = None  # HostTable
        self.guest = None  # GuestTable

    def _hosting(self) -> HostTable:
        if self.host is None:
            raise TabernaError("No shared table is open", "net_no_host")
        return self.host

    def _seated(self) -> GuestTable:
        if self.guest is None:
            raise TabernaError("You are not at a shared table", "net_no_guest")
        return self.guest

    # --- host -------------------------------------------------------------------------------
    @_net_call("host")
    def net_host_setup(self, t, game_id):
        """The new-table form in shared mode (seats for friends)."""
        game = get_game(game_id)
        html = setup_form(game, t, shared=True)
        return _net_reply("host", None, html=html, status="setup", title=t(f"lobby.{game.id}.name"))

    @_net_call("host")
    def net_host_create(self, t, request, now):
        """``{"game", "fields"}`` from the shared setup form -> a new table, arranging seats."""
        _time(now)
        self.host = HostTable.create(_object(request), t)
        return self.host.reply(t, force=True)

    @_net_call("host")
    def net_host_resume(self, t, save, now):
        """The host's table after its own reload; guests are forgotten and rejoin with tokens."""
        _time(now)
        self.host = HostTable.resume(parse_json(save))
        return self.host.reply(t, force=True)

    @_net_call("host")
    def net_host_receive(self, t, peer, text, now):
        """One text from a guest's channel."""
        host = self._hosting()
        host.receive(peer, text, _time(now))
        return host.reply(t, force=False)

    @_net_call("host")
    def net_host_tick(self, t, now):
        """About once a second: absences, forgetting long-gone peers."""
        host = self._hosting()
        host.send(host.host.tick(_time(now)))
        return host.reply(t, force=False)

    @_net_call("host")
    def net_host_dropped(self, t, peer, now):
        """The page saw ``peer``'s channel close: its seat shows absent at once."""
        host = self._hosting()
        if not isinstance(peer, str) or not 0 < len(peer) <= MAX_PEER:
            raise TabernaError("That is not a peer", "net_bad_peer")
        host.send(host.host.drop(peer, _time(now)))
        return host.reply(t, force=False)

    @_net_call("host")
    def net_host_act(self, t, action, now):
        """A move of the seat on the host's screen (``data-act``)."""
        host = self._hosting()
        _time(now)
        host.session.act(parse_json(action))
        return host.reply(t, force=True)

    @_net_call("host")
    def net_host_ui(self, t, change, now):
        """A ``data-ui`` change of the host's screen (selection, hand-off); ``{}`` redraws."""
        host = self._hosting()
        _time(now)
        host.session.change_ui(_ui_change(change))
        return host.reply(t, force=True)

    @_net_call("host")
    def net_host_bot_step(self, t, now):
        """The next bot (or a bot covering for a friend) plays one action."""
        host = self._hosting()
        _time(now)
        host.bot_step()
        return host.reply(t, force=True)

    @_net_call("host")
    def net_host_command(self, t, command, now):
        """A ``data-host`` button: start, give a seat to a bot or back, close the table."""
        host = self._hosting()
        _time(now)
        command = _object(command, "net_bad_command")
        host.command(command)
        if command == {"close": True}:
            self.host = None
            return closed_reply(t, host.outbox, host.table_id())
        return host.reply(t, force=True)

    # --- guest ------------------------------------------------------------------------------
    @_net_call("guest")
    def net_guest_join(self, t, request, now):
        """``{"table", "seat", "name"}``: sit down (or watch, with seat null) at a table."""
        self.guest = GuestTable.join(_object(request), _time(now))
        return self.guest.reply(t, force=True)

    @_net_call("guest")
    def net_guest_resume(self, t, save, now):
        """Back after this tab's reload: rejoin the saved seat with its token."""
        self.guest = GuestTable.resume(parse_json(save), _time(now))
        return self.guest.reply(t, force=True)

    @_net_call("guest")
    def net_guest_receive(self, t, text, now):
        """One text from the host."""
        guest = self._seated()
        guest.receive(text, _time(now))
        return guest.reply(t, force=False)

    @_net_call("guest")
    def net_guest_tick(self, t, now):
        """About once a second: heartbeats, resends, rejoin retries, noticing a silent host."""
        guest = self._seated()
        guest.to_host(guest.guest.tick(_time(now)))
        return guest.reply(t, force=False)

    @_net_call("guest")
    def net_guest_dropped(self, t, now):
        """The channel to the host closed: the banner shows at once."""
        guest = self._seated()
        guest.to_host(guest.guest.lost(_time(now)))
        return guest.reply(t, force=False)

    @_net_call("guest")
    def net_guest_connected(self, t, now):
        """A new channel to the host is open: say hello on it now."""
        guest = self._seated()
        guest.to_host(guest.guest.connected(_time(now)))
        return guest.reply(t, force=False)

    @_net_call("guest")
    def net_guest_act(self, t, action, now):
        """A move of this guest's seat (``data-act``), sent to the host as an intent."""
        guest = self._seated()
        guest.act(parse_json(action), _time(now))
        return guest.reply(t, force=True)

    @_net_call("guest")
    def net_guest_ui(self, t, change, now):
        """A ``data-ui`` change: the view's own state, or ``take_seat`` / ``retry`` / ``watch``."""
        guest = self._seated()
        guest.change_ui(_ui_change(change), _time(now))
        return guest.reply(t, force=True)


WORKER = NetWorker()


def net_qr(text, lang="en") -> str:
    """``{"ok", "svg"}``: a QR code of ``text`` (an invite link or a reply code) as scalable
    SVG, dark on light with a quiet zone; ``ok: false`` and a ``message`` for bad input."""
    t = Translator(lang if isinstance(lang, str) else "en")
    if not isinstance(text, str) or not 0 < len(text) <= MAX_QR_TEXT:
        error = TabernaError("A QR code holds at most 1000 characters", "net_qr_text", limit=MAX_QR_TEXT)
        return json.dumps({"ok": False, "svg": None, "message": t.error(error), "error": error.to_json()})
    import segno  # optional dependency "qr": only the share panel needs it

    label = escape(t("sync.qr_label"), quote=True)
    svg = segno.make(text, error="m").svg_inline(
        omitsize=True, dark="#000", light="#fff", border=4, svgclass="tb-qr"
    )
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)
    return json.dumps({"ok": True, "svg": svg, "message": None})
