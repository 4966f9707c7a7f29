"""Partnerships in the shell, with a tiny four-seat game declared for the test only: the
setup form, the pass-and-play hand-off, the host's seat strip and a guest's know the teams."""

import json
import re
import sys
import textwrap
from html import unescape
from html.parser import HTMLParser

import pytest

from pyengine.core import registry
from pyengine.shell.calls import Worker
from tests.app.screens import buttons, handoff_seat

PACKAGE = {
    "__init__.py": '''
        """Pairs: four seats in two partnerships pass a token round the table; eight passes end it."""
        from pyengine.core.game import PLAYERS, Game
        from pyengine.core.options import options_shape
        from pyengine.core.registry import declare
        from pyengine.core.shape import Dict, Optional, Seat, Seats


        class Pairs(Game):
            id = "pairs"
            min_seats = 4
            max_seats = 4
            bot_levels = ("easy",)

            def setup(self, options, seats, rng):
                return {"turn": 0, "passes": 0, "result": None}

            def to_act(self, state):
                return [] if state["result"] else [state["turn"]]

            def legal_actions(self, state, seat):
                return [{"type": "pass"}]

            def play(self, state, seat, kind, action, rng):
                state["passes"] += 1
                state["turn"] = (seat + 1) % 4
                if state["passes"] == 8:
                    state["result"] = {"winners": [0, 2]}

            def view(self, state, seat):
                return {"you": seat, "turn": state["turn"], "options": state["options"], "result": state["result"]}

            view_shape = Dict(
                {"you": Optional(Seat()), "turn": Seat(), "options": options_shape({}),
                 "result": Optional(Dict({"winners": Seats(min_len=1)}))},
                optional={"players": PLAYERS},
            )

            def teams(self, options, seats):
                return [[0, 2], [1, 3]]


        GAME = Pairs()
        declare(__name__, order=99, kind="cards", rules=GAME, bots=".bot", screen=".view")
    ''',
    "bot.py": '''
        BOTS = {"easy": lambda view, seed: {"type": "pass"}}
    ''',
    "view.py": '''
        from pyengine.ui.html import act_button
        from pyengine.ui.markup import h


        def render(view, ui, t):
            mine = view["you"] is not None and view["you"] == view["turn"] and not view["result"]
            return h("div", {"data-testid": "pairs"}, mine and act_button("Pass", {"type": "pass"}))


        def pause_ms(state, action):
            """A longer look once the token has gone round the table (like a trick's last card)."""
            return 1500 if state["passes"] % 4 == 0 else None
    ''',
}


@pytest.fixture()
def pairs(tmp_path, monkeypatch):
    folder = tmp_path / "pairs"
    folder.mkdir()
    for name, text in PACKAGE.items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__("pairs")
    yield registry.get_declaration("pairs")
    registry.forget("pairs")
    for name in [m for m in sys.modules if m == "pairs" or m.startswith("pairs.")]:
        del sys.modules[name]


def call(fn, *args):
    return json.loads(fn(*[a if isinstance(a, str) else json.dumps(a) for a in args]))


def test_the_setup_form_marks_each_seat_with_its_team(pairs):
    html = call(Worker().setup, "pairs", "pt")["html"]
    rows = _tags(html, "li")
    assert [row.get("data-team") for row in rows] == ["0", "1", "0", "1"]
    assert html.count("Equipe 1") == 2 and html.count("Equipe 2") == 2


def test_the_hand_off_names_the_partner_and_partners_still_pass_the_phone(pairs):
    tab = Worker()
    fields = {"seat0_kind": "human", "seat0_name": "Ana", "seat1_kind": "bot:easy", "seat1_name": "Rui",
              "seat2_kind": "human", "seat2_name": "Carla", "seat3_kind": "bot:easy", "seat3_name": "Zé", "seed": "1"}
    reply = call(tab.start, {"game": "pairs", "fields": fields}, "en")
    assert reply["status"] == "handoff" and handoff_seat(reply["html"]) == 0
    assert 'data-testid="handoff-team"' in reply["html"] and "Team 1 partner of Carla" in _text(reply["html"])
    reply = call(tab.ui, {"handoff": 0}, "en")
    reply = call(tab.act, {"type": "pass"}, "en")
    while reply["status"] == "bot":
        reply = call(tab.bot_step, "en")
    # Carla is Ana's partner, and still gets the phone only through the hand-off screen.
    assert reply["status"] == "handoff" and handoff_seat(reply["html"]) == 2
    assert 'data-testid="pairs"' not in reply["html"] and "partner of Ana" in _text(reply["html"])
    while reply["status"] != "over":
        if reply["status"] == "handoff":
            reply = call(tab.ui, {"handoff": handoff_seat(reply["html"])}, "en")
        elif reply["status"] == "bot":
            reply = call(tab.bot_step, "en")
        else:
            reply = call(tab.act, buttons(reply["html"], "data-act")[0], "en")
    assert "Ana, Carla win!" in _text(reply["html"])


def test_the_pause_after_an_action_is_the_screens_choice_from_the_state(pairs):
    tab = Worker()
    fields = {f"seat{i}_kind": "bot:easy" for i in range(4)}
    reply = call(tab.start, {"game": "pairs", "fields": {**fields, "seed": "4"}}, "en")
    delays = [reply["delay_ms"]]
    while reply["status"] == "bot":
        reply = call(tab.bot_step, "en")
        delays.append(reply["delay_ms"])
    assert reply["status"] == "over" and delays == [900, 900, 900, 900, 1500, 900, 900, 900, 0]


def test_the_shared_table_shows_partners_to_the_host_and_to_a_guest(pairs):
    host, guest = Worker(), Worker()
    fields = {"seat0_kind": "human", "seat0_name": "Ana", "seat1_kind": "remote", "seat1_name": "Rui",
              "seat2_kind": "remote", "seat2_name": "Carla", "seat3_kind": "bot:easy", "seat3_name": "Zé", "seed": "2"}
    created = json.loads(host.net_host_create(json.dumps({"game": "pairs", "fields": fields}), 1, "en"))
    strip = {a["data-testid"]: a for a in _tags(created["html"], "li")}
    assert [strip[f"seat-{i}"].get("data-team") for i in range(4)] == ["0", "1", "0", "1"]
    assert "partner of Carla" in _text(created["html"]) and "partner of Ana" in _text(created["html"])
    guest.net_guest_join(json.dumps({"table": created["table"], "seat": 2, "name": "Carla"}), 1, "en")
    for _, hello in json.loads(guest.net_guest_connected(1, "en"))["outbox"]:
        for _, text in json.loads(host.net_host_receive("p2", hello, 1, "en"))["outbox"]:
            guest.net_guest_receive_all(json.dumps([text]), 1, "en")
    host.net_host_command(json.dumps({"seat": 1, "kind": "bot", "level": "easy"}), 1, "en")
    for _, text in json.loads(host.net_host_command('{"start":true}', 1, "en"))["outbox"]:
        shown = json.loads(guest.net_guest_receive_all(json.dumps([text]), 1, "en"))
    html = guest.tables["guest"].shown
    assert shown["status"] == "seated" and 'data-testid="pairs"' in html
    strip = {a["data-testid"]: a for a in _tags(html, "li")}
    assert [strip[f"seat-{i}"].get("data-team") for i in range(4)] == ["0", "1", "0", "1"]
    assert "Team 1 partner of Ana" in _text(html) and "Team 2 partner of Rui" in _text(html)


def _tags(html, tag):
    """The attributes of every ``<tag>`` in a screen."""
    found = []

    class Tags(HTMLParser):
        def handle_starttag(self, name, attrs):
            if name == tag:
                found.append(dict(attrs))

    Tags().feed(html)
    return found


def _text(html):
    """The screen's words, as a reader hears them (tags gone, spaces folded)."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
