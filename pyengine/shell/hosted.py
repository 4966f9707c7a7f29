"""The shared table this tab hosts: ``protocol.Host`` plus this device's seats and screen.

The host's own players use the same ``Device`` as a one-device table (hand-off, persistent
UI, bot pacing); their moves go through the ``Host``, which tells the guests. A new game
with the same friends is a rematch at the same table, so the game-over screen offers no
one-device "play again", and nothing is taken back (the guests have seen the move).

* Starting needs every friend seat taken or given to a bot; the arrange screen offers
  "give to a bot" for an empty friend seat, as it does for an absent friend during play.
  Covering bots play the game's middle level.
* The save is ``Host.snapshot()`` plus ``"friends": [seat, ...]``: the friend seats are
  remembered so a seat covered before anyone sat in it can still be given back.
* The room code is the page's: it makes the code (``crypto.getRandomValues``) and derives
  the table id from it with the slow key derivation that also gives the relay room
  (``site/net/roomkey.js``), and sends both with the setup; the code is kept in the save
  (``"room"``) so a reloaded host opens the same room. A page without Web Crypto (a plain
  http LAN address) sends none: the table gets a random id and no room code.
* Chance comes from a 256-bit key (``core.rng.new_key``) kept only in the host's save, and
  in the games with ``fair_chance`` (Perudo, Bozó, Crown and Anchor) from the fair draw
  instead (``Host.create(..., fair=True)``, ``core.fair``): every shared table is a fair
  one, so the host's device never holds a guest's dice. Botifarra at 3 or 4 seats is dealt
  by the devices (``kits.fair_cards``): the host's device never holds a guest's card before
  it is played.
* A friend whose device left while it owed its part of a fair draw (an absent seat, or one
  a bot now covers: only the friend's device holds the secret) gets the grace any absent
  player gets; then the host's screen says so and offers ``{"forfeit": seat}``, which ends
  the step by the game's forfeit rule (``Host.forfeit``).
* Players may say premade phrases (``shell.phrases``); the setup form says whether the table
  allows them (``config["phrases"]``, the game's default first), kept in the host's save.
* ``{"close": true}`` tells every guest (they see "the host closed this table"); the
  worker then forgets the table and answers with status ``"closed"``.
"""

import secrets

from ..core.errors import BadSave, InvalidOptions, TabernaError
from ..core.registry import get_game
from ..core.rng import new_key
from ..protocol import Host
from ..protocol.envelope import ProtocolError, check_id
from ..ui.markup import fragment, h
from .device import Device
from .games import finished_entry
from .phrases import Talk
from .reply import Controller, summary_of
from .rooms import check_room_code, shown_room_code
from .screens import (
    arrange_screen,
    command_button,
    deal_line,
    fair_line,
    game_over,
    hosted_screen,
    seat_names,
    seat_strip,
    table_section,
    verdict_line,
)
from .setup import REMOTE, config_from_fields, default_bot_level

def _room(request: dict):
    """``(room code or None, table id)`` from the setup request's ``room``."""
    room = request.get("room")
    if room is None:
        return None, secrets.token_urlsafe(12)
    if not isinstance(room, dict) or set(room) != {"code", "table"}:
        raise TabernaError("The room code is malformed", "net_bad_room")
    try:
        check_id("table", room["table"])
    except ProtocolError:
        raise TabernaError("The room code is malformed", "net_bad_room") from None
    return check_room_code(room["code"]), room["table"]


def _seat_number(value, seats: int) -> int:
    if type(value) is not int or not 0 <= value < seats:
        raise TabernaError("There is no such seat", "sync_no_such_seat", seat=str(value)[:8])
    return value


class HostedTable(Controller):
    """The shared table this tab hosts."""

    role = "host"

    def __init__(self, host: Host, friends, room=None):
        super().__init__()
        self.host = host
        self.friends = sorted(friends)
        host.room = room  # told to seated guests, so an invited friend can come back by the room
        self.device = Device(host)
        self.talk = Talk()

    @classmethod
    def create(cls, request: dict, t) -> "HostedTable":
        """``{"game", "fields", "room"?, ...}`` from the shared setup form: a new table, arranging
        seats. A ``seed`` in the fields (tests) replaces the 256-bit key."""
        room, table_id = _room(request)
        game = get_game(request.get("game"))
        config = config_from_fields(game, request.get("fields"), t, shared=True)
        friends = [i for i, seat in enumerate(config["seats"]) if seat["kind"] == REMOTE]
        if not friends:
            raise InvalidOptions("A shared table needs a seat for a friend", "net_no_friends")
        seed = config.get("seed", new_key())
        phrases = config["phrases"]
        host = Host.create(game.id, config["options"], config["seats"], seed, table_id, fair=True, phrases=phrases)
        return cls(host, friends, room)

    @classmethod
    def resume(cls, data: dict) -> "HostedTable":
        """The host's table after its own reload; guests are forgotten and rejoin with tokens."""
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
        room = data.get("room")
        if room is not None:
            try:
                check_room_code(room)
            except TabernaError:
                raise BadSave("The shared table's room code is damaged", "net_save_room") from None
        return cls(host, friends, room)

    # --- inputs -----------------------------------------------------------------------------
    def receive(self, peer, text, now) -> None:
        """A peer's message; if it moved the table, selections go, as after a bot's move."""
        self.receive_all([(peer, text)], now)

    def receive_all(self, messages, now) -> None:
        """Peers' messages that came in together (``Host.receive_all``)."""
        version = self.host.version
        self.send(self.host.receive_all(messages, now))
        if self.host.version != version:
            self.device.keep_persistent_ui()

    def act(self, action) -> None:
        self.send(self.device.act(action))

    def bot_step(self) -> None:
        self.send(self.device.bot_step())

    def change_ui(self, change: dict) -> None:
        self.device.change_ui(change)

    def phrase(self, request: dict, now) -> None:
        """A ``data-phrase`` button: the player on this screen says a phrase, or this device
        mutes a player, or the picker opens or closes."""
        host = self.host
        host.board.at(now)

        def speak(seat, phrase):
            self.send(host.say(seat, phrase, now))

        self.talk.request(request, host.board, len(host.table.seats), self.device.viewer, speak)

    def command(self, command: dict) -> None:
        """A ``data-host`` button: start, rematch, close, forfeit, or give a seat to a bot and back."""
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
            self.device.reset()
            return
        if set(command) == {"watchers"} and isinstance(command["watchers"], bool):
            self.host.let_watchers_in(command["watchers"])
            return
        if set(command) == {"forfeit"}:
            seat = _seat_number(command["forfeit"], len(seats))
            if seat in self.friends and seat not in self._stalled() and self.host.public_seats()[seat]["connected"]:
                raise TabernaError("That friend is at the table", "net_friend_here", seat=seat + 1)
            self.send(self.host.forfeit(seat))
            return
        if set(command) == {"remove"}:
            if not isinstance(command["remove"], str):
                raise TabernaError("That command is not understood", "net_bad_command")
            self.send(self.host.remove(command["remove"]))
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

    # --- output -----------------------------------------------------------------------------
    def reply(self, t, force: bool) -> dict:
        """The envelope, plus ``seated``: the peers holding a seat, whom the page serves
        before everyone else (site/session.js), and ``about``: what the table's links tell a
        friend before joining (``{"game", "host"}``: the game, and the name of the first
        seat of this device that has one, else ``None``)."""
        table = self.host.table
        host = next((seat["name"] for seat in table.seats if seat["kind"] == "human" and seat["name"]), None)
        about = {"game": table.game.id, "host": host}
        return {**super().reply(t, force), "seated": self.host.seated_peers(), "about": about}

    def revision(self):
        """The host's ``rev`` grows with every change its guests see; the spectators listed
        on this screen and the table's own version cover the rest."""
        host = self.host
        return host.rev, host.version, tuple(host.watchers()), host.watchers_open, host.board.mark(), self.talk.open

    def table_id(self) -> str:
        return self.host.table_id

    def status(self) -> str:
        return self.device.status()

    def delay_ms(self) -> int:
        return self.device.delay_ms()

    def hold_ms(self) -> int:
        return self.device.hold_ms()

    def title(self, t) -> str:
        return t(f"lobby.{self.host.table.game.id}.name")

    def save(self) -> dict:
        return {**self.host.snapshot(), "friends": self.friends, "room": self.host.room}

    def summary(self, t) -> dict:
        table = self.host.table
        return summary_of(table.game.id, table.seats, self.host.started and table.is_over(), t)

    def finished(self):
        table = self.host.table
        return finished_entry(table) if self.host.started and table.is_over() else None

    def _seat_buttons(self, t, index: int, conn: str):
        if index not in self.friends:
            return None
        name = seat_names(self.host.table.seats, t)[index]
        if conn in ("open", "absent"):
            level = default_bot_level(self.host.table.game)
            cover = {"seat": index, "kind": "bot", "level": level}
            return h(
                "span",
                {"class": "tb-net-buttons"},
                command_button(t("sync.invite"), "data-invite", index, f"invite-{index}", "tb-primary", aria=t("sync.invite_label", name=name)),
                command_button(t("sync.cover"), "data-host", cover, f"cover-{index}", aria=t("sync.cover_label", name=name)),
            )
        if conn == "bot":
            back = {"seat": index, "kind": REMOTE}
            return h(
                "span",
                {"class": "tb-net-buttons"},
                command_button(t("sync.give_back"), "data-host", back, f"give-back-{index}", aria=t("sync.give_back_label", name=name)),
            )
        return None

    def _strip(self, t, playing=False):
        """The seats, each with its phrase if one shows, and the phrase picker."""
        host, game_id = self.host, self.host.table.game.id
        names = seat_names(host.table.seats, t)
        strip = seat_strip(
            t, game_id, host.public_seats(), self.device.viewer, True,
            lambda index, conn: self._seat_buttons(t, index, conn), host.table.teams(), playing,
            self.talk.bubbles(t, game_id, host.board, names),
        )
        return self.talk.bar(t, game_id, host.board, names, self.device.viewer, strip) if host.phrases_on else strip

    def _watchers(self, t, playing=False):
        """The spectators, each with a button to send it away (finding 6: a spectator could
        flood the table and the host could not remove it). During play, with nobody
        watching, the switch waits until someone does: a phone's table keeps its room."""
        watchers = self.host.watchers()
        if playing and not watchers:
            return None
        now_open = self.host.watchers_open
        toggle = command_button(
            t("sync.watchers_close" if now_open else "sync.watchers_open"),
            "data-host", {"watchers": not now_open}, "net-watchers-toggle",
        )
        if not watchers:
            return h("div", {"class": "tb-net-watchers"}, toggle)
        items = [
            h(
                "li",
                {"class": "tb-net-watcher", "data-testid": f"watcher-{index}"},
                name or t("sync.a_watcher"),
                " ",
                command_button(
                    t("sync.remove"), "data-host", {"remove": peer}, f"remove-watcher-{index}",
                    aria=t("sync.remove_label", name=name or t("sync.a_watcher")),
                ),
            )
            for index, (peer, name) in enumerate(watchers)
        ]
        return h(
            "div",
            {"class": "tb-net-watchers"},
            h("span", {"class": "tb-hint", "id": "net-watchers"}, t("sync.watchers")),
            h("ul", {"aria-labelledby": "net-watchers"}, items),
            toggle,
        )

    def _stalled(self) -> list:
        """The seats a fair draw waits for whose device is gone: absent, or covered by a bot
        (this device plays its own seats' and bots' part at once, so one still owing needs a
        secret only its friend's device holds), or whose sealed cards only it can play."""
        table = self.host.table
        if table.fair is None or not self.host.started:
            return []
        seats = self.host.public_seats()
        return [seat for seat in table.to_act() if seat in self.friends and (table.fair_steps() or table.blind(seat))
                and not (seats[seat]["kind"] == REMOTE and seats[seat]["connected"])]

    def _forfeits(self, t):
        """For each stalled seat: why the table waits, what the forfeit rule costs, the button."""
        names = seat_names(self.host.table.seats, t)
        game = self.host.table.game.id
        return [
            h(
                "div",
                {"class": "tb-net-forfeit", "role": "status", "data-testid": f"forfeit-note-{seat}"},
                h("p", None, t("sync.forfeit_wait", name=names[seat]), " ", t(f"lobby.{game}.forfeit", name=names[seat])),
                command_button(
                    t("sync.forfeit"), "data-host", {"forfeit": seat}, f"forfeit-{seat}",
                    aria=t("sync.forfeit_label", name=names[seat]),
                ),
            )
            for seat in self._stalled()
        ]

    def _close_button(self, t):
        return command_button(t("sync.close"), "data-host", {"close": True}, "net-close")

    def html(self, t):
        status = self.status()
        if status == "arrange":
            waiting = any(seat["open"] for seat in self.host.public_seats())
            code = shown_room_code(self.host.room) if self.host.room else None
            strip = fragment(self._strip(t), self._watchers(t))
            fair = fair_line(t, self.host.table.game.id, self.host.table.fair is not None, self.host.public_seats())
            return arrange_screen(t, self.title(t), code, strip, waiting, self._close_button(t), fair)
        table = self.host.table
        body = [self._forfeits(t), self.device.body(t)]
        closing = None
        if status == "over":
            body.append(game_over(t, table.game.result(table.state), self.device.names(t), again=False, replay=self.role))
            rematch = command_button(t("sync.rematch"), "data-host", {"rematch": True}, "net-rematch", "tb-primary")
            closing = h("p", {"class": "tb-net-actions"}, rematch, " ", self._close_button(t))
        body.append(self.device.log_panel(t))
        # Marked with the host's version, as the guests see it: counting across games.
        section = table_section(t, table.game.id, status, self.host.version, body)
        names = self.device.names(t)
        verdict = verdict_line(t, table.game.id, table.state.get("fair"), names)
        deal = deal_line(t, table.game.id, table.view(None).get("fair"), names) if table.fair is not None else None
        fair = fair_line(t, table.game.id, table.fair is not None, self.host.public_seats())
        top = fragment(self._strip(t, playing=True), self._watchers(t, playing=True), fair, verdict, deal)
        return hosted_screen(status, top, section, closing)
