"""Play with friends through the worker's calls: a host tab and guest tabs, each its own
``Worker`` (``pyengine.shell.calls``), linked as the page's driver links them (every reply's
outbox delivered)."""

import json
import random
import re
from collections import defaultdict, deque

import pytest

from pyengine.core.validate import copy_json
from pyengine.core.registry import get_declaration, playable_games
from pyengine.i18n import LANGUAGES, Translator
from pyengine.protocol.envelope import PROTOCOL
from pyengine.shell.calls import Worker as NetWorker
from tests.app.screens import buttons

FIELDS = {
    "seat0_kind": "human",
    "seat0_name": "Ana",
    "seat1_kind": "remote",
    "seat2_kind": "remote",
    "seed": "7",
}
FACES = {"paco (wild)": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _arg(value):
    return value if isinstance(value, str) else json.dumps(value)


class Tabs:
    """One host tab and guest tabs; time in ms owned by the test, channels that can close."""

    def __init__(self, lang="en"):
        self.lang = lang
        self.host = NetWorker()
        self.guests: dict = {}  # peer id -> NetWorker
        self.links: set = set()  # peer ids whose channel is open
        self.now = 1_000
        self.queue: deque = deque()  # (peer, to_host, text)
        self.host_status = None
        self.screens: dict = {}  # "host" or peer id -> last html shown
        self.history: dict = {}  # table version -> (each seat's view, the cups the host holds, counts)
        self.delivered = defaultdict(list)  # peer id -> raw texts it received
        self.kept = defaultdict(list)  # peer id -> the finished games its tab handed the page

    # --- calls, as the driver makes them ---------------------------------------------------
    def host_call(self, name, *args) -> dict:
        reply = json.loads(getattr(self.host, name)(*[_arg(a) for a in args], self.now, self.lang))
        self.host_status = reply["status"] if reply["ok"] else self.host_status
        if reply["html"] is not None:
            self.screens["host"] = reply["html"]
        self.queue.extend((peer, False, text) for peer, text in reply["outbox"])
        table = self.table()
        if table is not None:
            self.history[self.host.tables["host"].host.version] = (
                [table.view(s) for s in range(len(table.seats))] + [table.view(None)],
                copy_json(table.state["dice"]) if table.game.id == "perudo" else [],
                list(table.state["counts"]) if table.game.id == "perudo" else [],
                set(table.held),
            )
        return reply

    def guest_call(self, peer, name, *args) -> dict:
        worker = self.guests[peer]
        reply = json.loads(getattr(worker, name)(*[_arg(a) for a in args], self.now, self.lang))
        if reply["html"] is not None:
            self.screens[peer] = reply["html"]
        if reply.get("finished"):
            self.kept[peer].append(reply["finished"])
        assert all(to is None for to, _ in reply["outbox"])
        self.queue.extend((peer, True, text) for _, text in reply["outbox"])
        return reply

    def table(self):
        hosted = self.host.tables["host"]
        return hosted.host.table if hosted else None

    # --- the network ------------------------------------------------------------------------
    def join(self, peer, seat, name="", worker=None):
        """A guest tab: join (its hello is lost, no channel yet), then the channel opens."""
        self.guests[peer] = worker or NetWorker()
        code = self.host.tables["host"].table_id()
        reply = self.guest_call(peer, "net_guest_join", {"table": code, "seat": seat, "name": name})
        self.queue.clear()
        self.open(peer)
        return reply

    def open(self, peer):
        self.links.add(peer)
        return self.guest_call(peer, "net_guest_connected")

    def close_link(self, peer):
        """Both ends see the channel close."""
        self.links.discard(peer)
        self.host_call("net_host_dropped", peer)
        return self.guest_call(peer, "net_guest_dropped")

    def run(self):
        while self.queue:
            self.deliver_next()

    def deliver_next(self):
        peer, to_host, text = self.queue.popleft()
        if peer not in self.links:
            return
        if to_host:
            self.host_call("net_host_receive", peer, text)
        else:
            self.delivered[peer].append(text)
            self.check_private(peer, text)
            self.guest_call(peer, "net_guest_receive_all", [text])

    def run_until_sent(self, wanted) -> bool:
        """Delivers messages one at a time until one to the host that ``wanted`` picks (a
        decoded message) is on its way, and leaves it in the queue; False if none came."""
        while self.queue:
            if any(to_host and wanted(json.loads(text)) for _, to_host, text in self.queue):
                return True
            self.deliver_next()
        return False

    def settle(self):
        """Delivers everything and lets bots play, as the page does after ``delay_ms``."""
        self.run()
        while self.host_status == "bot":
            self.host_call("net_host_bot_step")
            self.run()

    def advance(self, ms):
        self.now += ms
        self.host_call("net_host_tick")
        for peer in self.guests:
            self.guest_call(peer, "net_guest_tick")
        self.run()

    # --- what a guest may know ---------------------------------------------------------------
    def check_private(self, peer, text):
        """A state sent to a guest is exactly its own seat's view at that version (a watcher's:
        the spectator view); in Perudo others' cups only as counts, and its own cup only
        once revealed: at a fair table the host never holds a guest's dice before the reveal
        (the guest's device fills them in from its own secret)."""
        message = json.loads(text)
        if message["kind"] != "state":
            return
        guest = self.guests[peer].tables["guest"].guest
        seat = guest.seat if guest.token else None
        views, cups, counts, held = self.history[message["version"]]
        assert message["view"] == views[-1 if seat is None else seat]
        if not cups:
            return
        if seat is None:
            assert message["view"]["dice"] is None
            return
        # The host's state holds a guest's cup only once revealed; its device also knows the
        # cup of a round whose secret it made (a bot covered the seat at the commitment).
        assert message["view"]["dice"] == cups[seat] or seat in held
        if message["view"]["result"] is None:
            assert cups[seat] is None or message["view"]["fair"]["secrets"][seat] is not None
            assert message["view"]["counts"] == counts


FAIR_STEPS = ("commit", "share", "reveal", "lock", "relock", "release")  # dice draws and card deals
# The moves a fair table's device makes by itself besides those (``fair_duty``): Bog's forced
# showing of the best combination and its "not I" when asked for a card it does not hold.
DUTIES = {"bog": ("show", "pass")}


def told_versions(table) -> set:
    """The versions every guest must have seen: all but those the host's own fair steps (and
    duties) passed through at once (its seats' and bots' part of a draw follows any change in the
    same breath, so the guests hear only where it ended), and a guest's reveal that came
    with its next commitment (``intent_then``: the host plays both in one go)."""
    log = table.log

    def passed_through(version) -> bool:
        done, then = log[version - 1], log[version]
        by_itself = FAIR_STEPS + DUTIES.get(table.game.id, ())
        if then["action"]["type"] in by_itself and table.seats[then["seat"]]["kind"] != "remote":
            return True
        return done["seat"] == then["seat"] and (done["action"]["type"], then["action"]["type"]) in (
            ("reveal", "commit"), ("reveal", "lock"))

    return {version for version in range(1, table.version + 1) if version == table.version or not passed_through(version)}


def cup_of(tabs, seat):
    """A seat's dice as its own device knows them: at a fair table the host's state holds a
    guest's only after the reveal, its guest computes them from its own secret."""
    table = tabs.table()
    if table.state["dice"][seat] is not None:
        return table.state["dice"][seat]
    holder = next(
        worker.tables["guest"].guest for worker in tabs.guests.values()
        if worker.tables["guest"] and worker.tables["guest"].guest.seat == seat and worker.tables["guest"].guest.token
    )
    return table.game.with_own_cup(table.state, seat, holder.held)["dice"][seat]


def shown_cup(html):
    """The faces of the dice in the "my cup" block of a screen (None if there is none)."""
    blocks = re.findall(r'data-testid="my-cup".*?</div></div>', html)
    if not blocks:
        return None
    assert len(blocks) == 1
    return [FACES[label] for label in re.findall(r'aria-label="([^"]+)"', blocks[0])]


# What the page sends with a new table: its room code and the table id derived from it.
ROOM = {"code": "7K3QWX9TPM2D", "table": "t-derived-from-the-code"}


def new_table(tabs, fields=FIELDS, guests=(("pa", 1, "Bea"), ("pb", 2, "Caio"))):
    reply = tabs.host_call("net_host_create", {"game": "perudo", "fields": fields, "room": ROOM})
    assert reply["ok"] and reply["status"] == "arrange"
    for peer, seat, name in guests:
        tabs.join(peer, seat, name)
        tabs.run()
    return reply


def started(lang="en"):
    tabs = Tabs(lang)
    new_table(tabs)
    reply = tabs.host_call("net_host_command", {"start": True})
    assert reply["ok"], reply["message"]
    tabs.settle()
    return tabs


def whose_screen(tabs, seat):
    if seat == 0:
        return "host", "net_host_act", "net_host_ui"
    peer = next(p for p, w in tabs.guests.items() if w.tables["guest"] and w.tables["guest"].guest.seat == seat and p in tabs.links)
    return peer, "net_guest_act", "net_guest_ui"


def play_turn(tabs, rng):
    """Whoever must act picks from the buttons on their own screen: Dudo now and then,
    else the lowest bid offered, else one more die on the picker."""
    move(tabs, rng)
    tabs.settle()


def move(tabs, rng):
    """``play_turn``'s choice and click, its messages left on their way."""
    seat = tabs.table().to_act()[0]
    screen, act, ui = whose_screen(tabs, seat)
    html = tabs.screens[screen]
    actions = buttons(html, "data-act")
    dudo = [a for a in actions if a["type"] == "dudo"]
    bids = [a for a in actions if a["type"] == "bid"]
    if dudo and (not bids or rng.random() < 0.35):
        choice = (act, dudo[0])
    elif bids:
        choice = (act, bids[0])
    else:
        more = [c for c in buttons(html, "data-ui") if "count" in c]
        choice = (ui, max(more, key=lambda c: c["count"]))
    if screen == "host":
        reply = tabs.host_call(*choice)
    else:
        reply = tabs.guest_call(screen, *choice)
    assert reply["ok"], reply["message"]


def test_three_friends_play_perudo_to_the_end_and_nobody_sees_another_cup():
    tabs = started()
    for peer in ("pa", "pb"):
        assert 'data-conn="connected"' in tabs.screens["host"]
        assert 'data-testid="my-cup"' in tabs.screens[peer]
    rng = random.Random(5)
    turns = 0
    shown = defaultdict(list)
    while tabs.host_status != "over":
        play_turn(tabs, rng)
        turns += 1
        assert turns < 2_000
        table = tabs.table()
        for peer, seat in (("pa", 1), ("pb", 2)):
            html = tabs.screens[peer]
            shown[peer].append(html)
            if not table.is_over():
                assert f'data-version="{table.version}"' in html  # every guest is up to date
                assert shown_cup(html) == (cup_of(tabs, seat) or None)  # a player who is out has no cup
    winner = tabs.table().state["result"]["winners"][0]
    name = ["Ana", "Bea", "Caio"][winner]
    for screen in ("host", "pa", "pb"):
        assert 'data-testid="game-over"' in tabs.screens[screen]
        assert f"{name} wins!" in tabs.screens[screen]
        assert 'data-testid="again"' not in tabs.screens[screen]  # no one-device "play again"
        assert 'data-nav="lobby"' in tabs.screens[screen]
    assert len(tabs.table().log) > 20
    # Dudo and its reveal happened: both guests received states at every version.
    for peer in ("pa", "pb"):
        versions = {json.loads(t)["version"] for t in tabs.delivered[peer] if '"kind":"state"' in t}
        assert versions >= told_versions(tabs.table())


def test_the_same_friends_play_again_without_a_new_invite():
    tabs = started()
    refused = tabs.host_call("net_host_command", {"rematch": True})
    assert not refused["ok"] and refused["message"] == "The game is not over yet."
    rng = random.Random(8)
    while tabs.host_status != "over":
        play_turn(tabs, rng)
    assert 'data-testid="net-rematch"' in tabs.screens["host"]
    for peer in ("pa", "pb"):
        assert "start another game with the same players" in tabs.screens[peer]
    first = tabs.table()
    reply = tabs.host_call("net_host_command", {"rematch": True})
    assert reply["ok"], reply["message"]
    tabs.settle()
    assert tabs.table() is not first and not tabs.table().is_over()
    version = tabs.host.tables["host"].host.version
    for screen in ("host", "pa", "pb"):
        assert 'data-testid="game-over"' not in tabs.screens[screen]
        assert f'data-version="{version}"' in tabs.screens[screen]
    for _ in range(6):  # the new game is played as the first was, guests' views checked
        play_turn(tabs, rng)


@pytest.mark.parametrize("game", sorted(playable_games()))
def test_every_game_travels_the_same_way(game):
    """Nothing in the shared table is Perudo's: each game is played by a host and guests,
    each guest deciding from the view it received (as its player would), every state it
    received being exactly its own seat's view."""
    tabs = Tabs()
    rules = playable_games()[game]
    seats = min(3, rules.max_seats)
    fields = {"seat0_kind": "human", "seat0_name": "Ana", "seed": "11"}
    fields.update({f"seat{i}_kind": "remote" for i in range(1, seats)})
    guests = [(f"p{i}", i, f"Guest {i}") for i in range(1, seats)]
    reply = tabs.host_call("net_host_create", {"game": game, "fields": fields})
    assert reply["ok"], reply["message"]
    for peer, seat, name in guests:
        tabs.join(peer, seat, name)
        tabs.run()
    assert tabs.host_call("net_host_command", {"start": True})["ok"]
    tabs.settle()
    level = rules.bot_levels[0]
    bots = get_declaration(game).bots()
    for step in range(160):  # a game, or two hands or deals of the long ones: the paths repeat after
        table = tabs.table()
        if table.is_over():
            break
        seat = table.to_act()[0]
        if seat == 0:
            reply = tabs.host_call("net_host_act", table.bot_action(0))
        else:
            peer = f"p{seat}"
            guest = tabs.guests[peer].tables["guest"].guest
            assert guest.version == table.version  # up to date before it decides
            reply = tabs.guest_call(peer, "net_guest_act", bots[level](guest.view, step))
        assert reply["ok"], reply["message"]
        tabs.settle()
    assert tabs.table().is_over() or tabs.table().version > 20  # a whole game, or a long while of one
    for peer, _, _ in guests:
        versions = {json.loads(t)["version"] for t in tabs.delivered[peer] if '"kind":"state"' in t}
        assert versions >= told_versions(tabs.table())
        assert f'data-version="{tabs.table().version}"' in tabs.screens[peer]


def test_heartbeats_do_not_redraw_any_screen():
    tabs = started()
    tabs.now += 5_000
    tick = tabs.guest_call("pa", "net_guest_tick")
    assert tick["html"] is None and tick["save"] is None
    assert [json.loads(text)["kind"] for _, text in tick["outbox"]] == ["ping"]
    _, _, ping = tabs.queue.popleft()
    pong = tabs.host_call("net_host_receive", "pa", ping)
    assert pong["html"] is None and pong["save"] is None
    assert json.loads(pong["outbox"][0][1])["kind"] == "pong"
    _, _, text = tabs.queue.popleft()
    heard = tabs.guest_call("pa", "net_guest_receive_all", [text])
    assert heard["html"] is None and heard["outbox"] == []
    assert tabs.host_call("net_host_tick")["html"] is None
    # A language change is a redraw on purpose: ui "{}" always answers with the screen.
    assert tabs.guest_call("pa", "net_guest_ui", {})["html"] == tabs.screens["pa"]


def test_messages_that_change_nothing_are_neither_drawn_nor_saved(monkeypatch):
    """Issue 30: every message, a ping too, drew the host's whole screen and wrote its whole
    save (3-27 ms of the host's time each). Now a ping, a resync, a repeated join or a bad
    message costs neither; a move is drawn and saved once."""
    from pyengine.shell.hosted import HostedTable

    tabs = started()
    work = defaultdict(int)

    def counted(name):
        real = getattr(HostedTable, name)

        def call(self, *args):
            work[name] += 1
            return real(self, *args)

        return call

    for name in ("html", "save"):
        monkeypatch.setattr(HostedTable, name, counted(name))
    table = tabs.host.tables["host"].table_id()
    for text in (
        json.dumps({"v": PROTOCOL, "kind": "ping", "table": table, "t": 1}),
        json.dumps({"v": PROTOCOL, "kind": "sync", "table": table}),
        json.dumps({"v": PROTOCOL, "kind": "join", "table": table, "seat": 1, "name": "Bea"}),
        "not even JSON",
    ):
        reply = tabs.host_call("net_host_receive", "pa", text)
        assert reply["ok"] and reply["html"] is None and reply["save"] is None and reply["outbox"]
    assert tabs.host_call("net_host_tick")["save"] is None
    assert work == {}
    tabs.queue.clear()
    seat = tabs.table().to_act()[0]
    screen, act, _ = whose_screen(tabs, seat)
    bid = next(a for a in buttons(tabs.screens[screen], "data-act") if a["type"] == "bid")
    if screen == "host":
        moved = tabs.host_call(act, bid)
    else:
        tabs.guest_call(screen, act, bid)
        _, _, intent = tabs.queue.popleft()
        moved = tabs.host_call("net_host_receive", screen, intent)
    assert moved["html"] is not None and moved["save"] is not None
    assert work == {"html": 1, "save": 1}
    assert sorted(moved["seated"]) == ["pa", "pb"]  # the page serves them first


def test_a_guest_reloads_mid_game_and_continues_in_its_seat():
    tabs = started()
    rng = random.Random(2)
    for _ in range(6):
        play_turn(tabs, rng)
    stored = tabs.guests["pa"].tables["guest"].saved
    assert json.loads(stored)["seat"] == 1 and json.loads(stored)["token"]
    # The tab reloads: a new worker, a new channel under a new peer id.
    tabs.links.discard("pa")
    tabs.host_call("net_host_dropped", "pa")
    assert re.search(r'data-testid="seat-1" data-conn="absent"', tabs.screens["host"])
    tabs.guests["pa2"] = NetWorker()
    resumed = tabs.guest_call("pa2", "net_guest_resume", stored)
    assert resumed["ok"] and resumed["status"] == "connecting"
    tabs.queue.clear()
    tabs.open("pa2")
    tabs.settle()
    assert re.search(r'data-testid="seat-1" data-conn="connected"', tabs.screens["host"])
    assert shown_cup(tabs.screens["pa2"]) == cup_of(tabs, 1)
    del tabs.guests["pa"]
    before = tabs.table().version
    for _ in range(6):
        play_turn(tabs, rng)
    assert tabs.table().version >= before + 6


def reload_host(tabs):
    """The host tab reloads: every channel closes, each guest sees the banner at once, and
    what was on its way is lost. Returns the reply of the host resumed from its save."""
    stored = tabs.host.tables["host"].saved
    for peer in sorted(tabs.links):
        tabs.links.discard(peer)
        dropped = tabs.guest_call(peer, "net_guest_dropped")
        assert dropped["status"] == "host_lost" and 'data-testid="host-lost"' in dropped["html"]
    tabs.queue.clear()
    tabs.host = NetWorker()
    return tabs.host_call("net_host_resume", stored)


def test_the_host_reloads_mid_game_and_the_guests_rejoin():
    tabs = started()
    rng = random.Random(3)
    for _ in range(7):
        play_turn(tabs, rng)
    log = list(tabs.table().log)
    resumed = reload_host(tabs)
    assert resumed["ok"] and tabs.table().log == log
    assert resumed["status"] in ("human", "wait", "bot")
    assert 'data-conn="absent"' in resumed["html"]
    for peer in ("pa", "pb"):
        tabs.open(peer)
    tabs.settle()
    for peer in ("pa", "pb"):
        assert 'data-testid="host-lost"' not in tabs.screens[peer]
        assert tabs.guests[peer].tables["guest"].status() == "seated"
    assert tabs.screens["host"].count('data-conn="connected"') == 2
    for _ in range(5):
        play_turn(tabs, rng)
    assert tabs.table().log[: len(log)] == log and len(tabs.table().log) >= len(log) + 5


def test_the_host_reloads_while_a_guests_part_of_a_fair_draw_is_on_its_way():
    """A new round's draw: one guest's reveal reached the host, the other's is still on its
    way (sent at the version before) when the host's tab reloads, so it is lost. The resumed
    host dates every turn from its reload and refuses the resent reveal as stale; the guest,
    up to date already, must send it again at the current version, or the table waits
    for ever."""
    tabs = started()
    rng = random.Random(4)

    def reveal_overtaken(message):
        version = tabs.host.tables["host"].host.version
        return message["kind"] == "intent" and message["action"]["type"] == "reveal" and message["version"] < version

    move(tabs, rng)
    while not tabs.run_until_sent(reveal_overtaken):
        tabs.settle()
        move(tabs, rng)
    seat = next(json.loads(text)["seat"] for _, to_host, text in tabs.queue if to_host and reveal_overtaken(json.loads(text)))
    assert reload_host(tabs)["ok"]
    assert tabs.table().fair_steps() and seat in tabs.table().to_act()  # its reveal was lost
    for peer in ("pa", "pb"):
        tabs.open(peer)
    tabs.settle()
    assert not tabs.table().fair_steps()  # the draw is done: a player may bid
    before = tabs.table().version
    for _ in range(3):
        play_turn(tabs, rng)
    assert tabs.table().version > before


def test_an_absent_friend_is_covered_by_a_bot_and_given_back():
    tabs = started()
    rng = random.Random(4)
    tabs.close_link("pb")
    host_html = tabs.screens["host"]
    assert 'data-testid="seat-2" data-conn="absent"' in host_html
    cover = [c for c in buttons(host_html, "data-host") if c.get("seat") == 2]
    assert cover == [{"seat": 2, "kind": "bot", "level": "medium"}]
    assert {"seat": 1, "kind": "bot", "level": "medium"} not in buttons(host_html, "data-host")
    godlike = tabs.host_call("net_host_command", {"seat": 2, "kind": "bot", "level": "godlike"})
    refused_unchanged(tabs, godlike, "seat_level")
    reply = tabs.host_call("net_host_command", cover[0])
    assert reply["ok"] and 'data-testid="seat-2" data-conn="bot"' in reply["html"]
    tabs.settle()
    covered_from = len(tabs.table().log)
    forfeited = False
    while 2 not in [entry["seat"] for entry in tabs.table().log[covered_from:] if entry["action"]["type"] != "forfeit"]:
        if tabs.table().to_act() == [2]:
            # The bot never leaves the table waiting, except for a fair draw's step only
            # the friend's device can take (its reveal): then the host may forfeit the seat.
            assert tabs.table().fair_steps() and not forfeited
            assert 'data-testid="forfeit-note-2"' in tabs.screens["host"]
            assert {"forfeit": 2} in buttons(tabs.screens["host"], "data-host")
            here = tabs.host_call("net_host_command", {"forfeit": 1})  # a friend at the table
            assert not here["ok"] and here["error"]["code"] == "net_friend_here"
            counts = list(tabs.table().state["counts"])
            reply = tabs.host_call("net_host_command", {"forfeit": 2})
            assert reply["ok"], reply["message"]
            tabs.settle()
            assert tabs.table().state["counts"][2] == counts[2] - 1  # the forfeit rule: a die
            forfeited = True
            continue
        play_turn(tabs, rng)
    back = [c for c in buttons(tabs.screens["host"], "data-host") if c.get("seat") == 2]
    assert back == [{"seat": 2, "kind": "remote"}]
    reply = tabs.host_call("net_host_command", back[0])
    assert reply["ok"] and 'data-testid="seat-2" data-conn="absent"' in reply["html"]
    tabs.open("pb")
    tabs.settle()
    assert 'data-testid="seat-2" data-conn="connected"' in tabs.screens["host"]
    assert shown_cup(tabs.screens["pb"]) == cup_of(tabs, 2)
    # Covering a friend who is at the table is refused.
    refused = tabs.host_call("net_host_command", {"seat": 1, "kind": "bot", "level": "easy"})
    assert not refused["ok"] and refused["error"]["code"] == "net_friend_here"


def refused_unchanged(tabs, reply, code, message=None):
    assert not reply["ok"] and reply["error"]["code"] == code
    assert reply["html"] is None and reply["save"] is None and reply["outbox"] == []
    if message:
        assert reply["message"] == message


def test_refused_inputs_are_explained_and_change_nothing():
    tabs = started("pt")
    table = tabs.table()
    before = (list(table.log), tabs.host.tables["host"].saved, dict(tabs.screens))
    mover = table.to_act()[0]
    # The host acting out of turn, junk, wrong types, a bad clock.
    if mover != 0:
        refused_unchanged(tabs, tabs.host_call("net_host_act", {"type": "dudo"}), "not_your_turn",
                          "Não é sua vez.")
    refused_unchanged(tabs, tabs.host_call("net_host_act", "{not json"), "bad_json")
    refused_unchanged(tabs, tabs.host_call("net_host_ui", "[1, 2]"), "bad_ui")
    refused_unchanged(tabs, tabs.host_call("net_host_command", {"start": "yes"}), "net_bad_command")
    refused_unchanged(tabs, tabs.host_call("net_host_command", {"seat": 9, "kind": "bot"}), "sync_no_such_seat")
    refused_unchanged(tabs, tabs.host_call("net_host_command", {"seat": 0, "kind": "bot", "level": "easy"}),
                      "net_not_friend_seat", "O lugar 1 não é de um amigo.")
    refused_unchanged(tabs, tabs.host_call("net_host_command", {"seat": 1, "kind": "remote"}), "net_bad_command")
    refused_unchanged(tabs, tabs.host_call("net_host_command", {"seat": 1, "kind": "human"}), "net_bad_command")
    refused_unchanged(tabs, tabs.host_call("net_host_command", {"seat": True, "kind": "bot"}), "sync_no_such_seat")
    refused_unchanged(tabs, tabs.host_call("net_host_command", "[]"), "net_bad_command")
    refused_unchanged(tabs, tabs.host_call("net_host_bot_step"), "no_bot_turn")
    for peer in (42, "", "p" * 129):
        refused_unchanged(tabs, json.loads(tabs.host.net_host_dropped(peer, tabs.now, "pt")), "net_bad_peer")
    reply = json.loads(tabs.host.net_host_tick("soon", "pt"))
    refused_unchanged(tabs, reply, "net_bad_time", "A página passou uma hora inválida.")
    reply = json.loads(tabs.host.net_host_tick(float("nan"), "pt"))
    refused_unchanged(tabs, reply, "net_bad_time")
    # A guest: malformed moves never leave the tab.
    peer = next(p for p, seat in (("pa", 1), ("pb", 2)) if seat != mover)
    refused_unchanged(tabs, tabs.guest_call(peer, "net_guest_act", "5"), "bad_action")
    refused_unchanged(tabs, tabs.guest_call(peer, "net_guest_act", {"type": 5}), "sync_bad_field")
    refused_unchanged(tabs, tabs.guest_call(peer, "net_guest_act", {"type": "bid", "x": "y" * 9000}), "sync_too_big")
    refused_unchanged(tabs, tabs.guest_call(peer, "net_guest_act", '{"type": NaN}'), "bad_json")
    refused_unchanged(tabs, tabs.guest_call(peer, "net_guest_ui", {"take_seat": 1}), "sync_already_seated")
    # Out of turn: the intent goes, the host refuses it, the guest's screen says why.
    assert buttons(tabs.screens[peer], "data-act") == []
    sent = tabs.guest_call(peer, "net_guest_act", {"type": "dudo"})
    assert sent["ok"] and "Enviando sua jogada" in sent["html"]
    refused_unchanged(tabs, tabs.guest_call(peer, "net_guest_act", {"type": "dudo"}), "sync_pending")
    tabs.run()
    assert "Não é sua vez." in tabs.screens[peer] and "Enviando" not in tabs.screens[peer]
    assert list(table.log) == before[0] and tabs.host.tables["host"].saved == before[1]
    assert tabs.screens["host"] == before[2]["host"]


def test_start_waits_for_every_friend_seat_or_a_bot_in_it():
    tabs = Tabs()
    new_table(tabs, guests=(("pa", 1, "Bea"),))
    html = tabs.screens["host"]
    assert re.search(r'data-testid="room-code"[^>]*>7K3Q-WX9T-PM2D<', html)
    assert re.search(r"data-testid=\"net-start\" disabled", html)
    assert 'data-invite="2"' in html and 'data-invite="1"' not in html
    refused_unchanged(tabs, tabs.host_call("net_host_command", {"start": True}), "net_seats_open")
    reply = tabs.host_call("net_host_command", {"seat": 2, "kind": "bot", "level": "easy"})
    assert reply["ok"] and 'data-testid="seat-2" data-conn="bot"' in reply["html"]
    assert 'data-testid="net-start" disabled' not in reply["html"]
    reply = tabs.host_call("net_host_command", {"start": True})
    assert reply["ok"] and reply["status"] in ("human", "wait", "bot")
    tabs.settle()
    assert 'data-testid="my-cup"' in tabs.screens["pa"]


def test_a_watcher_takes_an_open_seat_and_a_late_joiner_is_refused_with_the_reason():
    tabs = Tabs()
    new_table(tabs, guests=(("pa", 1, "Bea"),))
    tabs.join("pw", None, "Dani")
    tabs.run()
    watching = tabs.screens["pw"]
    assert tabs.guests["pw"].tables["guest"].status() == "watching"
    assert tabs.guests["pw"].tables["guest"].saved is None  # a watcher has no seat to come back to
    assert buttons(watching, "data-ui") == [{"take_seat": 2}]
    tabs.guest_call("pw", "net_guest_ui", {"take_seat": 2})
    tabs.run()
    assert tabs.guests["pw"].tables["guest"].status() == "seated"
    assert json.loads(tabs.guests["pw"].tables["guest"].saved)["seat"] == 2
    assert "Dani" in tabs.screens["host"] and 'data-testid="seat-2" data-conn="connected"' in tabs.screens["host"]
    tabs.join("px", 1, "Eva")
    tabs.run()
    refused = tabs.screens["px"]
    assert 'data-status="refused"' in refused and "That seat is taken." in refused


def test_the_host_lets_no_more_spectators_in_from_its_screen():
    tabs = Tabs()
    new_table(tabs, guests=(("pa", 1, "Bea"),))
    assert {"watchers": False} in buttons(tabs.screens["host"], "data-host")
    tabs.host_call("net_host_command", {"watchers": False})
    assert {"watchers": True} in buttons(tabs.screens["host"], "data-host")
    assert "Let spectators in" in tabs.screens["host"]
    tabs.join("pw", None, "Dani")
    tabs.run()
    assert 'data-status="refused"' in tabs.screens["pw"] and "not letting spectators in" in tabs.screens["pw"]
    tabs.join("pb", 2, "Caio")  # a friend still takes an open seat
    tabs.run()
    assert tabs.guests["pb"].tables["guest"].status() == "seated"


def test_closing_the_table_tells_every_guest():
    tabs = started()
    reply = tabs.host_call("net_host_command", {"close": True})
    assert reply["ok"] and reply["status"] == "closed" and tabs.host.tables["host"] is None
    tabs.run()
    for peer in ("pa", "pb"):
        assert tabs.guests[peer].tables["guest"].status() == "refused"
        assert "The host closed this table." in tabs.screens[peer]
    after = json.loads(tabs.host.net_host_tick(tabs.now, "en"))
    assert not after["ok"] and after["error"]["code"] == "net_no_host"


def test_damaged_saves_are_refused():
    tabs = started()
    save = json.loads(tabs.host.tables["host"].saved)
    save["friends"] = [0, 1, 2]
    other = NetWorker()
    reply = json.loads(other.net_host_resume(json.dumps(save), 1, "en"))
    assert not reply["ok"] and reply["error"]["code"] == "net_save_friends" and other.tables["host"] is None
    reply = json.loads(other.net_host_resume("{}", 1, "es"))
    assert not reply["ok"] and reply["message"] == "La mesa compartida guardada es de otra versión de Taberna."
    reply = json.loads(other.net_guest_resume('{"format": 1, "table": "A B"}', 1, "en"))
    assert not reply["ok"] and reply["error"]["code"] == "sync_save_seat"


def test_the_shared_setup_form_offers_friend_seats_and_needs_one():
    worker = NetWorker()
    reply = json.loads(worker.net_host_setup("perudo", "es"))
    assert reply["ok"] and 'data-shared="1"' in reply["html"] and 'value="remote"' in reply["html"]
    assert "Un amigo (en su propio dispositivo)" in reply["html"]
    no_friend = {"seat0_kind": "human", "seat1_kind": "bot:easy"}
    reply = json.loads(worker.net_host_create(json.dumps({"game": "perudo", "fields": no_friend}), 5, "en"))
    assert not reply["ok"] and reply["error"]["code"] == "net_no_friends"


def test_a_table_on_one_device_never_waits_for_a_friend():
    tab = NetWorker()
    reply = json.loads(tab.start(json.dumps({"game": "perudo", "fields": FIELDS}), "en"))
    assert not reply["ok"] and reply["error"]["code"] == "seat_kind"
    assert 'value="remote"' not in json.loads(tab.setup("perudo", "en"))["html"]


def test_a_hostile_host_cannot_break_a_guest_tab():
    from pyengine.protocol.envelope import encode

    tabs = Tabs()
    tabs.guests["pa"] = NetWorker()
    tabs.guest_call("pa", "net_guest_join", {"table": "ROOM2345", "seat": 1, "name": "Bea"})
    say = lambda kind, **fields: tabs.guest_call("pa", "net_guest_receive_all", [encode(kind, table="ROOM2345", **fields)])
    state = {"version": 0, "rev": 1, "started": True, "acted": None}
    seats = [{"kind": "human", "name": "Ana", "open": False, "covered": False, "connected": True}] * 2
    say("welcome", game="perudo", seat=1, token="tok", room=None, phrases=True)
    shown = say("state", **state, seats=seats, view={"you": 1})  # refused before it is kept
    assert shown["ok"] and "The host sent a table this screen cannot show (view); it was not shown." in shown["html"]
    assert tabs.guests["pa"].tables["guest"].guest.view is None
    shown = say("state", **{**state, "rev": 2}, seats=[{"name": 5}], view={})
    assert shown["ok"] and shown["html"] is None  # the same notice: nothing to redraw
    shown = say("welcome", game="no_such_game", seat=1, token="tok", room=None, phrases=True)
    assert "a game this version of Taberna cannot show" in shown["html"]
    assert say("state", **{**state, "rev": 3}, seats=seats, view={})["html"] is None
    refused = say("error", code="sync_seat_taken", reason="x", params={"reason": 1, "key": 2, "lang": 3}, ref=None)
    assert refused["status"] == "refused" and "That seat is taken." in refused["html"]
    junk = tabs.guest_call("pa", "net_guest_receive_all", ["}{"])
    assert junk["ok"] and junk["html"] is None and junk["outbox"] == []


def test_a_screen_that_fails_on_a_hosts_view_says_so_and_logs_why(monkeypatch, capsys):
    """A view that fits its shape but trips the renderer is our fault, not the host's: the
    guest's tab shows the notice and the console gets the traceback for the bug report."""
    tabs = started()
    screen = get_declaration("perudo").screen()
    render = screen.render

    def trips_on_seat_one(view, ui, t):
        if view.get("you") == 1:
            raise RuntimeError("the renderer tripped")
        return render(view, ui, t)

    monkeypatch.setattr(screen, "render", trips_on_seat_one)
    capsys.readouterr()
    play_turn(tabs, random.Random(1))
    assert "The host sent a table this screen cannot show" in tabs.screens["pa"]
    assert "RuntimeError: the renderer tripped" in capsys.readouterr().err


def test_the_worker_exports_every_shared_table_call():
    from pathlib import Path

    from pyengine.shell.calls import exports

    source = (Path(__file__).resolve().parents[2] / "site" / "worker.py").read_text(encoding="utf-8")
    assert "for _name, _call in exports().items():" in source  # every exported call, as it is
    methods = {name for name in vars(NetWorker) if name.startswith("net_")}
    exported = exports()
    assert methods <= set(exported) and len(methods) == 22
    assert exported["net_qr"] and exported["net_host_create"].__self__ is exported["net_guest_join"].__self__


def test_a_guest_is_shown_the_evidence_when_the_hosts_table_does_not_follow_from_its_record():
    """The host says what a fair table means; then it lies about a die count in a state it
    sends one guest: that guest's replay catches it, and its screen says so in its words."""
    tabs = started()
    for screen in ("host", "pa", "pb"):
        assert "Nobody, the host included, can see your dice." in tabs.screens[screen]
    assert 'data-testid="fair-evidence"' not in tabs.screens["pa"]
    last = json.loads([t for t in tabs.delivered["pa"] if '"kind":"state"' in t][-1])
    counts = last["view"]["counts"]
    last["view"]["counts"] = [counts[0], counts[1], counts[2] - 1]
    last["rev"] += 1
    tabs.guest_call("pa", "net_guest_receive_all", [json.dumps(last)])
    assert 'data-testid="fair-evidence"' in tabs.screens["pa"]
    assert f"The host says Caio has {counts[2] - 1} dice; by the record, {counts[2]}." in tabs.screens["pa"]
    assert 'data-testid="fair-evidence"' not in tabs.screens["pb"]  # told the truth


# --- invites that explain themselves (issue 25) -------------------------------------------------
def shown_text(html) -> str:
    """What a screen says (its text, not its attributes)."""
    return re.sub(r"<[^>]+>", " ", html)


def test_a_guest_names_the_table_by_its_game_in_every_language_never_by_its_id():
    tabs = Tabs()
    new_table(tabs, guests=())
    table_id = tabs.host.tables["host"].table_id()
    asked = {"table": table_id, "seat": 1, "name": "Bea"}
    named_by_link = NetWorker()
    for lang in LANGUAGES:
        reply = json.loads(named_by_link.net_guest_join(json.dumps({**asked, "game": "perudo"}), tabs.now, lang))
        assert reply["title"] == Translator(lang)("lobby.perudo.name")
        assert reply["status"] == "connecting" and table_id not in shown_text(reply["html"]) + reply["title"]
        assert Translator(lang)("sync.connecting") in reply["html"]
    # A link that names no game this build draws (or none): the table is a friend's, by no id.
    for game in (None, "<img src=x>", ["perudo"], "nope"):
        request = asked if game is None else {**asked, "game": game}
        reply = json.loads(NetWorker().net_guest_join(json.dumps(request), tabs.now, "en"))
        assert reply["ok"] and reply["title"] == "A friend's table" and table_id not in shown_text(reply["html"])
    # Once the host has welcomed the guest, the host's word names the game; the save keeps it.
    tabs.join("pa", 1, "Bea")
    tabs.run()
    assert tabs.guest_call("pa", "net_guest_ui", {})["title"] == "Perudo"
    saved = tabs.guests["pa"].tables["guest"].saved
    assert json.loads(saved)["game"] == "perudo"
    resumed = json.loads(NetWorker().net_guest_resume(saved, tabs.now, "ca"))
    assert resumed["status"] == "connecting" and resumed["title"] == "Perudo"
    assert "Connectant amb l'amfitrió…" in resumed["html"]


def test_every_player_reads_away_under_the_host_lost_banner_until_the_host_is_back():
    tabs = started()
    tabs.links.discard("pa")
    lost = tabs.guest_call("pa", "net_guest_dropped")
    assert lost["status"] == "host_lost" and 'data-testid="host-lost"' in lost["html"]
    for seat in (0, 1, 2):  # the host's, this guest's own, the other friend's
        assert f'data-testid="seat-{seat}" data-conn="absent"' in lost["html"]
    assert "Away" in lost["html"] and "Connected" not in lost["html"]
    tabs.open("pa")
    tabs.settle()
    back = tabs.screens["pa"]
    assert 'data-testid="host-lost"' not in back
    assert 'data-testid="seat-0" data-conn="local"' in back and 'data-testid="seat-1" data-conn="connected"' in back


def test_the_hosts_replies_say_what_its_links_tell_a_friend():
    tabs = Tabs()
    assert new_table(tabs, guests=())["about"] == {"game": "perudo", "host": "Ana"}
    unnamed = Tabs()
    assert new_table(unnamed, fields={**FIELDS, "seat0_name": ""}, guests=())["about"] == {"game": "perudo", "host": None}


def test_a_fair_card_deal_says_its_step_and_whose_device_it_waits_for():
    """Botifarra with a friend and two bots: while the friend's device owes its lock the
    host's screen names the step and the friend; every screen says the host's device runs
    the bots and sees their hands; until the cards are dealt no screen shows the game (an
    empty table would say who chooses trumps), through the last step; once they are, the
    progress line is gone and the hands show."""
    tabs = Tabs()
    bot = f"bot:{playable_games()['botifarra'].bot_levels[0]}"
    fields = {"seat0_kind": "human", "seat0_name": "Ana", "seat1_kind": "remote", "seat2_kind": bot, "seat3_kind": bot, "seed": "5"}
    assert tabs.host_call("net_host_create", {"game": "botifarra", "fields": fields})["ok"]
    tabs.join("pa", 1, "Bea")
    tabs.run()
    assert tabs.host_call("net_host_command", {"start": True})["ok"]
    assert tabs.run_until_sent(lambda message: message.get("kind") == "intent" and message["action"]["type"] == "lock")
    assert 'data-testid="fair-deal" data-step="lock"' in tabs.screens["host"]
    assert "Dealing, step 1 of 3: Bea shuffles the deck and locks it." in tabs.screens["host"]
    for screen in ("host", "pa"):
        assert "The bots run on the host's device, which sees their hands." in tabs.screens[screen]
        assert 'data-testid="bt-status"' not in tabs.screens[screen]
    assert tabs.run_until_sent(lambda message: message.get("kind") == "intent" and message["action"]["type"] == "release")
    assert 'data-testid="fair-deal" data-step="release"' in tabs.screens["host"]
    assert all('data-testid="bt-status"' not in tabs.screens[screen] for screen in ("host", "pa"))
    tabs.settle()
    assert tabs.table().state["fair"]["step"] == "play"
    for screen in ("host", "pa"):
        assert 'data-testid="fair-deal"' not in tabs.screens[screen]
        assert 'data-testid="bt-status"' in tabs.screens[screen] and 'data-count="12"' in tabs.screens[screen]


@pytest.mark.parametrize("game, status", [("botifarra", "bt-status"), ("bog", "bog-status")])
def test_a_watcher_sees_the_fair_deal_as_the_players_do_then_the_table(game, status):
    """A friend and a watcher at a fair card table (a bot in the other seats): on every screen,
    after every message, the deal's progress and the game's screen never show together (a
    watcher holds no hand, so an empty hand could not tell it that the deal was on, and Bog's
    views once said nothing of the deal); every screen showed the deal, then the table."""
    tabs = Tabs()
    bot = f"bot:{playable_games()[game].bot_levels[0]}"
    fields = {"seat0_kind": "human", "seat0_name": "Ana", "seat1_kind": "remote", "seat2_kind": bot, "seat3_kind": bot,
              "seed": "5", **{f"seat{seat}_kind": "none" for seat in range(4, 10) if game == "bog"}}
    assert tabs.host_call("net_host_create", {"game": game, "fields": fields})["ok"]
    for peer, seat, name in (("pa", 1, "Bea"), ("pw", None, "Dani")):
        tabs.join(peer, seat, name)
        tabs.run()
    assert tabs.host_call("net_host_command", {"start": True})["ok"]
    screens, dealt = ("host", "pa", "pw"), set()
    while tabs.queue:
        tabs.deliver_next()
        for screen in screens:
            html = tabs.screens[screen]
            deal = re.search(r'data-testid="fair-deal" data-step="(\w+)"', html)
            if deal:
                dealt.add((screen, deal.group(1)))
                assert f'data-testid="{status}"' not in html, (screen, deal.group(1))
    assert tabs.table().state["fair"]["step"] == "play"
    assert {(screen, step) for screen in screens for step in ("lock", "relock", "release")} <= dealt
    for screen in screens:
        assert f'data-testid="{status}"' in tabs.screens[screen] and 'data-testid="fair-deal"' not in tabs.screens[screen]
        assert "Nobody, the host included, can see your cards" in tabs.screens[screen]


def test_a_guest_takes_the_host_messages_that_waited_together_each_as_alone():
    """A friend's page hands its worker the host's messages that came while it was busy in
    one call (``net_guest_receive_all``): a fair Bog deal taken in such batches (a broken
    text among them ignored, as alone) ends as one message at a time does, the hand shown
    and nothing held against the host; a batch that is not a list of texts is refused."""
    tabs = Tabs()
    bot = f"bot:{playable_games()['bog'].bot_levels[0]}"
    fields = {"seat0_kind": "human", "seat0_name": "Ana", "seat1_kind": "remote", "seat2_kind": bot, "seat3_kind": "remote",
              "seed": "5", **{f"seat{seat}_kind": "none" for seat in range(4, 10)}}
    assert tabs.host_call("net_host_create", {"game": "bog", "fields": fields})["ok"]
    for peer, seat, name in (("pa", 1, "Bea"), ("pc", 3, "Caio")):
        tabs.join(peer, seat, name)
        tabs.run()
    assert tabs.host_call("net_host_command", {"start": True})["ok"]
    batches = 0
    while tabs.queue:
        waiting = [text for peer, to_host, text in tabs.queue if peer == "pa" and not to_host]
        if len(waiting) < 2:
            tabs.deliver_next()
            continue
        tabs.queue = deque(item for item in tabs.queue if item[0] != "pa" or item[1])
        reply = tabs.guest_call("pa", "net_guest_receive_all", json.dumps(["}{"] + waiting))
        assert reply["ok"]
        batches += 1
    assert batches and tabs.table().state["fair"]["step"] == "play"
    for peer in ("pa", "pc"):
        guest = tabs.guests[peer].tables["guest"].guest
        assert guest.audit.evidence == [] and guest.version == tabs.host.tables["host"].host.version
        assert guest.view["hand"] and not any(card.startswith("#") for card in guest.view["hand"])  # read, not sealed
        assert 'data-testid="bog-hand"' in tabs.screens[peer] and 'data-testid="fair-deal"' not in tabs.screens[peer]
    for batch in ("{}", json.dumps([1]), json.dumps(["x"] * 257)):
        refused = tabs.guest_call("pa", "net_guest_receive_all", batch)
        assert not refused["ok"] and refused["error"]["code"] == "net_bad_texts"
