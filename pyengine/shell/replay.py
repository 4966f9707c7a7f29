"""A game replayed step by step on screen: from the table on screen, or from a record's text.

The replay is a table of its own role (``"replay"``): the game's own screen draws each
replayed state as one seat sees it (the same render as at the table), under the replay's
controls. Its save is the record's text and where the player is in it, so a reload brings
the same step back (the text is read again, and so checked again).

Whose eyes: any seat once the game is over, and then the all-seeing spectator's too (the
spectator's board, and under it what every seat holds: ``Notation.holdings``, all the
record's states hold, which at a shared table is what this device saw and the rules
revealed); while the game is still being played, only the seats played on this device (a
host must not read a friend's dice in the replay of the game they are playing). An
imported record's reader holds every draw of its text anyway: every seat is theirs to look
through.

A fair card table's record holds its hands sealed (``kits.fair_cards``): a hand is read in
the replay from the secrets every seat published when that hand was checked, later in the
record. A hand not checked yet (the one a game still being played is at) stays sealed: its
seats are seen through the spectator's eyes until it is.

**Sharing.** The replay's share panel gives its link (the record in the fragment,
``records.link``), as a QR code where it fits one, and the record's file to download (the
page makes the file: ``data-download``). The page hands in its own address, ending
``#replay=``, which is all a link needs besides the record.
"""

import re

from ..core import fair_deck
from ..core import group as groups
from ..core.errors import TabernaError
from ..core.registry import get_declaration
from ..core.fair_deck import is_sealed, position_of
from ..kits.fair_cards import FairCardGame
from ..records.link import PREFIX, link_payload, text_of_payload
from ..records.notation import notation_for
from ..records.record import record_of, replay
from ..records.text import read_record, write_text
from ..ui.markup import fragment, h
from .reply import Controller, summary_of
from .screens import seat_names, seat_view, table_section

SPECTATOR = None  # the viewer who holds no seat
MAX_PAGE = 400  # the page's address, handed in to make a link
_PAGE = re.compile(rf"https?://[^\s#]+#{PREFIX}")


class ReplayTable(Controller):
    """One record on screen at one step, seen by one seat (or the spectator)."""

    role = "replay"

    def __init__(self, text: str, own=None, step=None, viewer=SPECTATOR):
        """``own``: the seats played on this device (``None``: every seat)."""
        super().__init__()
        self.text = text
        self.record, self.states = read_record(text)
        self.game = get_declaration(self.record["game"])
        seats = range(len(self.record["seats"]))
        self.own = list(seats) if own is None else [seat for seat in own if seat in seats]
        self.ui: dict = {}
        self.share = None  # the page's address while the share panel is open
        self.secrets: dict = {}  # a fair card table's deals: {n: {seat: secret}}, as the record publishes them
        self.dealt: dict = {}  # and each deal opened: {n: [card by position]}
        for entry in self.record["steps"]:
            if entry["action"].get("type") == "reveal":
                self.secrets.setdefault(entry["action"]["n"], {})[entry["seat"]] = entry["action"]["secret"]
        self.step = self.last
        self.viewer = viewer if viewer in self.viewers() else self.viewers()[0]
        if step is not None:  # a save's step: checked as the player's own would be
            self.change_ui({"step": step})

    @classmethod
    def of_table(cls, table) -> "ReplayTable":
        """The game on a ``Table`` up to now, seen by its first seat played on this device."""
        record = record_of(table)
        own = [seat for seat, info in enumerate(table.seats) if info["kind"] == "human"]
        viewer = own[0] if own and not table.is_over() else SPECTATOR
        return cls(write_text(record, list(replay(record))), own, viewer=viewer)

    @classmethod
    def imported(cls, text) -> "ReplayTable":
        """A record's text, refused with ``RecordError`` (its line, its reason), first seen
        by the seat played on the device that kept it (a guest's own seat in its Your
        games), else by the spectator."""
        replay = cls(text)
        played = [seat for seat, info in enumerate(replay.record["seats"]) if info["kind"] == "human"]
        if played:
            replay.change_ui({"viewer": played[0]})
        return replay

    @classmethod
    def from_link(cls, payload) -> "ReplayTable":
        """A shared link's fragment (after ``replay=``), refused with ``RecordError``."""
        return cls(text_of_payload(payload))

    @classmethod
    def resume(cls, data: dict) -> "ReplayTable":
        """A replay's save (``save()``), read and checked again."""
        own = data.get("own")
        if not (isinstance(own, list) and all(type(seat) is int for seat in own)):
            raise TabernaError("The save is not a replay", "save_not_table")
        return cls(data.get("text"), own, data.get("step"), data.get("viewer"))

    @property
    def last(self) -> int:
        return len(self.states) - 1

    @property
    def over(self) -> bool:
        return self.record["result"] is not None

    def viewers(self) -> list:
        """Whose eyes the player may borrow (see the module's docstring)."""
        if self.over:
            return [*range(len(self.record["seats"])), SPECTATOR]
        return self.own or [SPECTATOR]

    # --- inputs ------------------------------------------------------------------------------
    def change_ui(self, change: dict) -> None:
        """``{"step": n}`` goes to step ``n`` (0 is the table as set up), ``{"viewer": seat}``
        (``None``: the spectator) looks through other eyes; anything else is the game
        screen's own (a history unfolded), kept as at the table."""
        if "step" in change:
            step = change["step"]
            if type(step) is not int or not 0 <= step <= self.last:
                raise TabernaError("There is no such step", "replay_no_step", last=self.last)
            self.step = step
        elif "viewer" in change:
            if change["viewer"] not in self.viewers():
                raise TabernaError("That seat cannot be seen now", "replay_no_viewer")
            self.viewer = change["viewer"]
        elif "share" in change:
            page = change["share"]
            if page is not None and not (isinstance(page, str) and len(page) <= MAX_PAGE and _PAGE.fullmatch(page)):
                raise TabernaError("That button is not understood", "bad_ui")
            self.share = page
        else:
            self.ui.update(change)

    # --- output --------------------------------------------------------------------------------
    def status(self) -> str:
        return "replay"

    def delay_ms(self) -> int:
        return 0

    def table_id(self):
        return None

    def title(self, t) -> str:
        return t("replay.title", game=t(f"lobby.{self.game.id}.name"))

    def save(self) -> dict:
        return {"text": self.text, "own": self.own, "step": self.step, "viewer": self.viewer}

    def summary(self, t) -> dict:
        return summary_of(self.game.id, self.record["seats"], self.over, t)

    def step_line(self, t, names: list) -> str:
        """What happened at this step, in the game's notation, by whom."""
        if self.step == 0:
            return t("replay.setup")
        step = self.record["steps"][self.step - 1]
        line = notation_for(self.game.id).action_line(self.game.rules, self.states[self.step - 1], step["seat"], step["action"])
        return t("replay.move", name=names[step["seat"]], move=line)

    def _readable(self, state: dict) -> dict:
        """``state`` with the sealed cards of its hands read, where the record publishes every
        secret of its deal (see the module's docstring)."""
        if not isinstance(self.game.rules, FairCardGame) or "fair" not in state:
            return state
        record = state["fair"]
        if not any(is_sealed(card) for hand in state["hands"] for card in hand):
            return state
        n, published = record["n"], self.secrets.get(record["n"], {})
        if any(seat not in published for seat in record["players"]):
            return state
        if n not in self.dealt:
            group, size = groups.current(), len(record["decks"][0])
            keys = fair_deck.every_seats_keys(group, published, record["players"], record["id"], n, size)
            self.dealt[n] = fair_deck.open_deal(group, record["decks"][-1], keys, self.game.rules.fair_cards(state))
        dealt = self.dealt[n]
        return {**state, "hands": [[(dealt[position_of(card)] or card) if is_sealed(card) else card for card in hand]
                                   for hand in state["hands"]]}

    def _view(self) -> dict:
        """The step's view through the viewer's eyes, or the spectator's while its hand is sealed."""
        state = self._readable(self.states[self.step])
        view = self.game.rules.view(state, self.viewer)
        if isinstance(self.game.rules, FairCardGame) and any(is_sealed(card) for card in view.get("hand") or ()):
            return self.game.rules.view(state, SPECTATOR)
        return view

    def html(self, t):
        seats = self.record["seats"]
        names = seat_names(seats, t)
        board = seat_view(self.game.screen(), self._view(), seats, self.ui, t)
        return table_section(t, self.game.id, "replay", self.step, fragment(
            self.controls(t, names), self.share_panel(t),
            h("div", {"class": "tb-replay-board", "data-testid": "replay-board"}, board), self.holdings(t, names)))

    def all_seeing(self) -> bool:
        """Whether every seat's holding is shown: the spectator's eyes, once the game is over."""
        return self.viewer is SPECTATOR and self.over

    def holdings(self, t, names: list):
        """What every seat holds at this step, for the all-seeing spectator (nothing when no
        seat holds anything hidden: Lasca, a round's end)."""
        lines = self.all_seeing() and notation_for(self.game.id).holdings(self.game.rules, t, names, self._readable(self.states[self.step]))
        if not lines:
            return None
        return h("section", {"class": "tb-replay-hands", "aria-label": t("replay.hands"), "data-testid": "replay-hands"},
                 h("ul", None, [h("li", None, line) for line in lines]))

    def link(self) -> str:
        return self.share + link_payload(self.text)

    def share_panel(self, t):
        """Closed: nothing (the button is among the controls). Open: the link, its QR code
        where it fits one, the file."""
        if self.share is None:
            return None
        from .qr import MAX_QR_TEXT, qr_svg  # segno, only once a replay is shared

        link = self.link()
        code = (qr_svg(link, t) if len(link) <= MAX_QR_TEXT
                else h("p", {"class": "tb-hint", "data-testid": "replay-no-qr"}, t("replay.share_too_long")))
        return h(
            "section", {"class": "tb-replay-share", "aria-label": t("replay.share_title"), "data-testid": "replay-share"},
            h("h2", None, t("replay.share_title")),
            h("p", {"class": "tb-hint"}, t("replay.share_hint")),
            h("label", {"class": "tb-replay-link"}, t("replay.share_link"),
              h("input", {"type": "text", "readonly": True, "value": link, "data-testid": "replay-link"})),
            h("div", {"class": "tb-replay-qr"}, code),
            h("p", {"class": "tb-replay-share-actions"},
              h("button", {"type": "button", "data-download": self.game.id, "data-testid": "replay-download"},
                t("replay.download")), " ",
              h("button", {"type": "button", "data-ui": {"share": None}, "data-testid": "replay-share-close"},
                t("replay.share_close"))),
        )

    def controls(self, t, names: list):
        step, last = self.step, self.last
        moves = (("first", step == 0, 0), ("back", step == 0, step - 1),
                 ("forward", step == last, step + 1), ("last", step == last, last))
        buttons = [
            h("button", {"type": "button", "class": "tb-replay-move", "data-ui": {"step": to}, "disabled": at_end,
                         "data-testid": f"replay-{name}", "aria-label": t(f"replay.{name}")}, _ICONS[name])
            for name, at_end, to in moves
        ]
        spectator = t("replay.all_seeing" if self.over else "replay.spectator")
        viewers = [h("option", {"value": "null" if seat is None else seat, "selected": seat == self.viewer},
                     spectator if seat is None else names[seat]) for seat in self.viewers()]
        return h(
            "div",
            {"class": "tb-replay", "data-testid": "replay", "data-step": step, "data-last": last},
            h("p", {"class": "tb-replay-where", "role": "status", "data-testid": "replay-step"},
              h("strong", None, t("replay.position", n=step, total=last)), " · ",
              h("span", {"class": "tb-replay-line", "data-testid": "replay-line"}, self.step_line(t, names))),
            h("div", {"class": "tb-replay-moves"}, buttons),
            h("label", {"class": "tb-replay-slider"}, h("span", {"class": "tb-visually-hidden"}, t("replay.slider")),
              h("input", {"type": "range", "min": 0, "max": last, "value": step, "data-ui-key": "step",
                          "data-testid": "replay-slider"})),
            h("label", {"class": "tb-replay-viewer"}, t("replay.viewer"), " ",
              h("select", {"data-ui-key": "viewer", "data-testid": "replay-viewer"}, viewers)),
            self.share is None and h("button", {"type": "button", "class": "tb-replay-share-open", "data-ui": {"share": True},
                                                "data-testid": "replay-share-open"}, t("replay.share")),
        )


def _icon(*shapes):
    """A button's picture, drawn (no font on a phone is sure to have the media signs)."""
    return h("svg", {"viewBox": "0 0 20 20", "width": 20, "height": 20, "aria-hidden": "true", "focusable": "false"},
             [h("path", {"d": d, "fill": "currentColor"}) for d in shapes])


_ICONS = {
    "first": _icon("M3 3 H6 V17 H3 Z", "M17 3 L17 17 L7 10 Z"),
    "back": _icon("M15 3 L15 17 L5 10 Z"),
    "forward": _icon("M5 3 L5 17 L15 10 Z"),
    "last": _icon("M3 3 L3 17 L13 10 Z", "M14 3 H17 V17 H14 Z"),
}
