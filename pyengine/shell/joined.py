"""This tab's seat (or place as a watcher) at someone else's table: ``protocol.Guest``.

* The save (``Guest.snapshot()``) is handed over once the guest holds a seat, never for a
  watcher: reloading before the welcome repeats the page's join request instead.
* Views come from a peer, so they are untrusted too: a game this build cannot draw, or a
  view its renderer chokes on, shows a notice instead of breaking the worker.
* At a fair table whatever this device's replay of the host's record found wrong
  (``Audit.evidence``) stays on the screen, translated, above the table: a host that lied
  is shown up to this guest, never silently believed.
* Phrases (``shell.phrases``): what the host relays shows beside its seat; this device's
  mutes are in the guest's save.
* At a fair table the game log under the table, and the finished game kept in "Your games",
  come from the same replay of the host's public record (``Guest.audit``): what every
  device may know, this seat's own sealed cup or hand aside, and what the rules revealed.
  The kept record names this device's seat as the one played here (``human``) and the
  host's as a friend's (``remote``), so it replays, and counts, from this seat.
* At a table that is not fair (Lasca; Botifarra for two, or dealt by the 5 of espases) the
  log is told from the views this seat was shown and the moves the host told it
  (``protocol.witness``, kept in the seat's save: a reload loses none), and the finished
  game kept is the host's whole record, sent at the end and kept only once it replays and
  agrees with all this seat was shown; a refused one says why above the table. A spectator
  keeps the finished game too (no seat played here). The game over offers Replay of the
  kept game.
"""

import copy

from ..core.errors import TabernaError
from ..protocol.fair import FIELD_WORDS, SEAT_PARAMS
from ..core.registry import get_declaration
from ..core.table import check_seats
from ..core.validate import is_plain_json
from ..protocol import Guest
from ..ui.markup import fragment, h
from .games import finished_entry, record_entry
from .log import GameLog
from .phrases import Talk
from .reply import Controller, log_fault, summary_of
from .rooms import shown_room_code
from .screens import (
    away_from_host,
    command_button,
    connecting_screen,
    deal_line,
    dealing,
    fair_line,
    game_over,
    guest_frame,
    host_reason,
    notice,
    refused_screen,
    seat_names,
    seat_strip,
    seat_view,
    table_section,
    verdict_line,
)


def _seat_words(t, names: list, seat) -> str:
    """A seat in evidence: its name, else (a seat the host's list lacks) its number."""
    if type(seat) is not int or seat < 0:
        return "?"
    return names[seat] if seat < len(names) else t("sync.fair_seat", n=seat + 1)


def _declared(game_id):
    """The declaration of a game this build can draw, else ``None``."""
    try:
        declaration = get_declaration(game_id)
    except TabernaError:
        return None
    return declaration if declaration.playable else None


class JoinedTable(Controller):
    """A seat at a table another tab hosts."""

    role = "guest"

    def __init__(self, guest: Guest, game=None):
        super().__init__()
        self.guest = guest
        self.expected = game if _declared(game) is not None else None  # the game named before the host's welcome
        self.ui: dict = {}
        self.talk = Talk()
        self.log = GameLog()
        self.draws = 0  # the screen's mark (``revision``)
        self.record_only = False  # the last message only took more of the host's record
        self._entry = (None, None)  # (which game, its entry in "Your games"), made once
        self._handed = None  # the id of the entry last handed to the page

    @classmethod
    def join(cls, request: dict, now) -> "JoinedTable":
        """``{"table", "seat", "name", "room"?, "game"?}``: sit down (or watch, with seat null)
        at a table; ``room``, the code the player typed (or the room link's), and ``game``,
        the game the link named (anyone's word: only a game this build draws is named),
        name the table on its screens until the host's welcome says which game it plays."""
        if set(request) - {"table", "seat", "name", "room", "game"}:
            raise TabernaError("The request was not understood", "bad_request")
        guest = Guest(request.get("table"), request.get("name", ""), request.get("seat"), room=request.get("room"))
        table = cls(guest, request.get("game"))
        table.to_host(table.guest.start(now))
        return table

    @classmethod
    def resume(cls, data: dict, now) -> "JoinedTable":
        """Back after this tab's reload: rejoin the saved seat with its token (the save also
        keeps the game, to name the table while the host is being found again)."""
        table = cls(Guest.from_snapshot(data), data.get("game"))
        table.to_host(table.guest.start(now))
        return table

    # --- inputs -----------------------------------------------------------------------------
    def to_host(self, texts) -> None:
        self.send((None, text) for text in texts)

    def receive_all(self, texts, now) -> None:
        """The host's texts that waited together for this worker, each handled in order as
        alone (every check the same); the screen is drawn and saved once, for the last."""
        guest = self.guest
        version, rev, replayed = guest.version, guest.rev, self._replayed_version()
        for text in texts:
            self.to_host(guest.receive(text, now))
        self.record_only = guest.rev == rev and self._replayed_version() not in (replayed, None)
        if guest.version != version:
            self.keep_persistent_ui()
            if guest.status != "refused":
                guest.error = None  # a refusal is news only until the table moves on

    def _replayed_version(self):
        return None if self.guest.audit is None else self.guest.audit.version

    def revision(self):
        """A new mark for every reply but one to a record message that moved our replay on:
        the host sends the state it leads to right after it (``Host._state_to``), whose reply
        draws and saves both at once (a fair deal's record comes with nearly every state)."""
        if not self.record_only:
            self.draws += 1
        self.record_only = False
        return self.draws

    def keep_persistent_ui(self) -> None:
        declaration = _declared(self.guest.game)
        keep = declaration.screen().persistent_ui if declaration else ()
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
        elif "log" in change:
            self.log.toggle(change)
        elif change == {"watch": True}:
            if guest.token is not None:
                raise TabernaError("You already hold a seat", "sync_already_seated", seat=guest.seat)
            self.guest = Guest(guest.table_id, guest.name, room=guest.room)
            self.to_host(self.guest.start(now))
        else:
            self.ui.update(change)

    def phrase(self, request: dict, now) -> None:
        """A ``data-phrase`` button: say a phrase for our seat, mute a player, open or close
        the picker."""
        guest = self.guest
        guest.board.at(now)
        speaker = guest.seat if guest.status == "seated" else None

        def speak(seat, phrase):
            self.to_host(guest.say(phrase, now))

        self.talk.request(request, guest.board, len(guest.seats), speaker, speak)

    # --- output -----------------------------------------------------------------------------
    def table_id(self) -> str:
        return self.guest.table_id

    def status(self) -> str:
        return self.guest.status

    def delay_ms(self) -> int:
        return 0  # bots play on the host

    def _game(self):
        """The game this table plays, as far as this build can draw it: the host's word once
        welcomed, else the link's (or the save's)."""
        return self.guest.game if _declared(self.guest.game) is not None else self.expected

    def title(self, t) -> str:
        """The game's name; before anything names it, the room code, never the table's id."""
        game, room = self._game(), self.guest.room
        if game is not None:
            return t(f"lobby.{game}.name")
        return t("sync.table", code=shown_room_code(room)) if room else t("sync.a_table")

    def save(self):
        """Only a seat is worth keeping: a reload before the welcome asks for the seat again
        (the page's join request), rather than coming back as a mere watcher."""
        if self.guest.token is None:
            return None
        return {**self.guest.snapshot(), "game": self._game()}

    def _replayed(self):
        """The audit's replay of the host's record, caught up with the table on screen, or
        ``None`` (a table that is not fair keeps no record a guest can replay)."""
        guest = self.guest
        audit = guest.audit
        if audit is None or audit.table is None or audit.version != guest.version or audit.table.game.id != guest.game:
            return None
        return audit.table

    def _seen_here(self, seats: list) -> list:
        """``seats`` as this device keeps them: its own seat played here (``human``), a bot a
        bot, every other seat a friend's (``remote``)."""
        seat = self.guest.seat if self.guest.token is not None else None
        return [{**entry, "kind": "human" if index == seat else "bot" if entry.get("kind") == "bot" else "remote"}
                for index, entry in enumerate(seats)]

    def kept(self):
        """The game as this seat keeps it (see the module's docstring), or ``None``."""
        table = self._replayed()
        if table is None:
            return None
        kept = copy.copy(table)
        kept.seats = check_seats(table.game, self._seen_here(self.guest.seats))
        return kept

    def _kept_entry(self):
        """The finished game's entry in "Your games" (``games.record_entry``), or ``None``:
        at a fair table from the replay, else from the host's whole record as the guest
        checked it (``protocol.witness``). Made once per game."""
        witness = self.guest.witness
        if witness is not None and witness.kept is not None:
            record, states = witness.kept
            key = id(record)
            if self._entry[0] != key:
                self._entry = (key, record_entry({**record, "seats": self._seen_here(record["seats"])}, states))
            return self._entry[1]
        replayed = self._replayed()
        if replayed is None or not replayed.is_over():  # asked for every reply: no copy until the end
            return None
        kept = self.kept()
        key = (self.guest.audit.base, kept.version)
        if self._entry[0] != key:
            self._entry = (key, finished_entry(kept))
        return self._entry[1]

    def finished(self):
        return self._kept_entry()

    def newly_finished(self, fresh: bool):
        """The finished game, handed to the page once, whenever it is ready: a spectator
        has no save to change, and the host's whole record may come after the game over."""
        entry = self._kept_entry()
        if entry is None or entry["id"] == self._handed:
            return None
        self._handed = entry["id"]
        return entry

    def kept_text(self):
        """The finished game's record text, for its replay (``None``: none is kept)."""
        entry = self._kept_entry()
        return None if entry is None else entry["text"]

    def summary(self, t) -> dict:
        """From what the host sent (a game this build knows, else none named)."""
        guest = self.guest
        view = guest.view if isinstance(guest.view, dict) else {}
        game = guest.game if _declared(guest.game) is not None else None
        return summary_of(game, guest.seats, guest.started and view.get("result"), t)

    def _seat_buttons(self, t, index: int, conn: str):
        guest = self.guest
        if conn != "open" or guest.token is not None or guest.status == "host_lost":
            return None
        take = command_button(t("sync.take_seat"), "data-ui", {"take_seat": index}, f"take-seat-{index}", "tb-primary")
        return h("span", {"class": "tb-net-buttons"}, take)

    def _teams(self, declaration) -> list:
        """The partnerships, from the options in the host's view (untrusted: a bad one
        raises, and the screen shows the bad-view notice)."""
        view, seats, rules = self.guest.view, len(self.guest.seats), declaration.rules
        if not isinstance(view, dict) or "options" not in view:
            return []
        return rules.teams(rules.resolve_options(view["options"], seats), seats)

    def _field_words(self, field) -> str:
        """The words (``sync.fair_field.<words>``) for a view field the host contradicted."""
        declaration = _declared(self.guest.game)
        own = declaration.rules.fair_field_words if declaration is not None else {}
        return FIELD_WORDS.get(field) or own.get(field, "table")

    def _evidence(self, t):
        """What the replay caught the host at, each finding in words: seats by the names the
        table shows, a field of the table by what it holds."""
        audit = self.guest.audit
        if audit is None or not audit.evidence:
            return None
        names = seat_names(self.guest.seats, t)
        found = []
        for item in audit.evidence:
            seats = SEAT_PARAMS.get(item["code"], ())
            params = {k: (_seat_words(t, names, v) if k in seats else v) for k, v in item["params"].items()}
            if "field" in params:
                params["field"] = t(f"sync.fair_field.{self._field_words(params['field'])}")
            found.append(h("li", None, host_reason(t, {"code": item["code"], "params": params})))
        return h(
            "div",
            # New evidence is news: the page brings it into view (a phone's player scrolled down
            # at the table would not see a notice appear above).
            {"class": "tb-net-evidence", "role": "alert", "data-testid": "fair-evidence", "data-news": f"evidence-{len(audit.evidence)}"},
            h("p", None, h("strong", None, t("sync.fair_caught"))),
            h("ul", None, found),
        )

    def _table_body(self, t, declaration):
        """The seat strip and the game as this seat sees it, from what the host sent."""
        guest = self.guest
        seated = guest.token is not None
        teams = self._teams(declaration)
        you = guest.seat if seated else None
        names = seat_names(guest.seats, t)
        seats = away_from_host(guest.seats) if guest.status == "host_lost" else guest.seats
        strip = seat_strip(
            t, guest.game, seats, you, False,
            lambda index, conn: self._seat_buttons(t, index, conn), teams, guest.started,
            self.talk.bubbles(t, guest.game, guest.board, names),
        )
        if guest.phrases_on:
            strip = self.talk.bar(t, guest.game, guest.board, names, you, strip)
        fair = (guest.view or {}).get("fair")
        fair_cards = guest.view is None or "fair" in guest.view
        refusal = guest.witness and guest.witness.refusal
        notes = [self._evidence(t), refusal and notice(t("sync.record_refused", why=t.error(refusal)), "alert", "tb-net-error"),
                 fair_line(t, guest.game, fair_cards, guest.seats), verdict_line(t, guest.game, fair, names),
                 deal_line(t, guest.game, fair, names)]
        if not seated:
            notes.append(notice(t("sync.watching"), None, "tb-hint"))
        if guest.error is not None and guest.error["code"] != "sync_not_joined":  # even before a first view
            notes.append(notice(host_reason(t, guest.error), "alert", "tb-net-error"))
        if not guest.started:
            return fragment(strip, notes, notice(t("sync.waiting_start"), "status", "tb-hint"))  # titled by the page
        if guest.pending is not None:
            notes.append(notice(t("sync.pending"), "status", "tb-net-pending"))
        view = guest.view
        body = [] if dealing(view) else [seat_view(declaration.screen(), view, guest.seats, self.ui, t)]
        if view.get("result"):
            replay = self.role if self._kept_entry() is not None else None
            body.append(game_over(t, view["result"], names, again=False, replay=replay))
            body.append(notice(t("sync.rematch_wait"), None, "tb-hint"))
        replayed = self._replayed()
        if replayed is not None:
            body.append(self.log.panel(t, replayed, you, guest.seats))
        elif guest.witness is not None:
            body.append(self.log.panel_seen(t, declaration.rules, guest.witness.steps_seen(), guest.seats))
        status = "seated" if seated else "watching"
        return fragment(strip, notes, table_section(t, guest.game, status, guest.version, body))

    def html(self, t):
        guest = self.guest
        if guest.status == "connecting":
            body = connecting_screen(t, self.title(t))
        elif guest.status == "refused":
            error = guest.error
            reason = host_reason(t, error) if error else ""
            retry = bool(error) and error["code"] != "sync_closed"
            body = refused_screen(t, reason, retry, retry and guest.token is None)
        elif _declared(guest.game) is None:
            body = notice(t("sync.unknown_game"))
        else:
            try:
                body = self._table_body(t, _declared(guest.game))
            except Exception as error:  # the view came from a peer: a broken one must not stop this tab
                log_fault(error)
                body = notice(t("sync.bad_view"))
        lost = t("sync.host_lost") if guest.status == "host_lost" else None
        return guest_frame(guest.status, guest.table_id, lost, body)
