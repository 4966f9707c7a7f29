"""A hostile host's views: ten thousand mutations of real state messages, for every game.

A guest keeps a state only if its view fits the game's ``view_shape`` and its seats fit
``PUBLIC_SEATS``; anything else is refused with ``sync_bad_view`` and changes nothing. So
no mutation crashes the guest, none that does not fit is kept, and the screen (driven here
through the worker layer, ``netplay``) never draws one. And the shapes are tight enough
that what does fit, however odd, draws without error.
"""

import json
import random
from html import unescape

import pytest

from pyengine.core.registry import get_declaration, get_game, playable_games
from pyengine.core.rng import Rng
from pyengine.core.shape import ShapeError
from pyengine.protocol import Guest, Host, MemoryNetwork
from pyengine.protocol.envelope import PUBLIC_SEATS

TABLE_ID = "room-1"
GAMES = sorted(playable_games())
GUEST_MESSAGES = 10_000
WORKER_MESSAGES = 1_200
PLIES = 120
HOSTILE_TEXTS = [
    "<img src=x onerror=alert(1)>",
    '"><svg onload=alert(1)>',
    "' onmouseover='alert(1)'",
    "</textarea><script>alert(1)</script>",
    "javascript:alert(1)",
    "{name}{0}%s\\",
    "\u202e\u200b",
    "\ud800",
    "\x00\x1b[2J",
    "",
    "x" * 25,
    "é" * 10_000,
]
WRONG_VALUES = [None, True, False, 0, -1, 7, 1.5, -0.0, 2**53, -(2**60), "1", "", [], {}, [[1]], {"a": 1}]
EXTRA_KEYS = ["__proto__", "onload", "rng", "players", "x" * 40, "constructor", ""]


def genuine_messages(game_id: str):
    """A real table of ``game_id`` played at random for a while: the welcome and every state
    the host sent to the guest in seat 1 and to a watcher."""
    game = get_game(game_id)
    kinds = ["human", "remote", "human"][: max(game.min_seats, min(3, game.max_seats))]
    seats = [{"kind": kind, "name": f"P{i}"} for i, kind in enumerate(kinds)]
    host = Host.create(game_id, {}, seats, 5, TABLE_ID, lambda: "token0001abcdefgh")
    net = MemoryNetwork(host, now=1_000)
    sent = []
    net.drop = lambda sender, receiver, text: bool(receiver and sent.append(text))
    net.add_guest("pa", Guest(TABLE_ID, "Guest pa", seat=1))
    net.add_guest("pw", Guest(TABLE_ID, "Watcher"))
    net.run()
    net.host_says(host.start())
    net.run()
    chooser = Rng(17)
    for _ in range(PLIES):
        if host.table.is_over():
            break
        movers = host.table.to_act()
        seat = movers[chooser.below(len(movers))]
        actions = game.legal_actions(host.table.state, seat)
        action = actions[chooser.below(len(actions))]
        if seat == 1:
            net.guest_says("pa", net.guests["pa"].intend(action, net.now))
        else:
            net.host_says(host.act(seat, action))
        net.run()
    messages = [json.loads(text) for text in sent]
    welcome = next(m for m in messages if m["kind"] == "welcome" and m["seat"] == 1)
    states = [m for m in messages if m["kind"] == "state" and m["started"]]
    assert len(states) > 10
    return json.dumps(welcome), states


def nodes(value, path=()):
    """Every (path, value) inside ``value``, containers included."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from nodes(item, (*path, index))


def replace(message, path, new):
    parent = message
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = new


class Mutator:
    """Seeded malformations of a real state message's view and seats, one kind at a time."""

    def __init__(self, rng):
        self.rng = rng

    def pick(self, items):
        return items[self.rng.randrange(len(items))]

    def places(self, message, test):
        found = [
            (path, value)
            for part in ("view", "seats")
            for path, value in nodes(message[part], (part,))
            if len(path) > 1 and test(value)
        ]
        return found or [(("view", "you"), message["view"]["you"])]

    def wrong_type(self, message):
        path, value = self.pick(self.places(message, lambda v: True))
        replace(message, path, self.pick([w for w in WRONG_VALUES if type(w) is not type(value)]))

    def out_of_range(self, message):
        path, value = self.pick(self.places(message, lambda v: type(v) is int))
        step = self.pick([1, -1, 6, -7, 100, 10**6, -(10**9), 2**53])
        replace(message, path, value + step if type(value) is int else step)

    def huge_list(self, message):
        path, value = self.pick(self.places(message, lambda v: isinstance(v, list)))
        filler = value[-1] if value else self.pick(WRONG_VALUES)
        replace(message, path, value + [filler] * self.pick([1, 7, 300, 5_000]))

    def missing_key(self, message):
        path, value = self.pick(self.places(message, lambda v: isinstance(v, dict) and v))
        if isinstance(value, dict) and value:
            del value[self.pick(sorted(value))]
        else:
            del message["view"]["you"]

    def extra_key(self, message):
        path, value = self.pick(self.places(message, lambda v: isinstance(v, dict)))
        target = value if isinstance(value, dict) else message["view"]
        target[self.pick(EXTRA_KEYS)] = self.pick(WRONG_VALUES + HOSTILE_TEXTS)

    def hostile_string(self, message):
        path, value = self.pick(self.places(message, lambda v: isinstance(v, str)))
        replace(message, path, self.pick(HOSTILE_TEXTS))

    def seats_changed(self, message):
        seats = message["seats"]
        choice = self.rng.randrange(3)
        if choice == 0 and seats:
            seats.pop()
        elif choice == 1:
            seats.append(dict(self.pick(seats)))
        else:
            message["seats"] = seats * self.pick([2, 10, 100])

    def kinds(self):
        return [
            self.wrong_type,
            self.out_of_range,
            self.huge_list,
            self.missing_key,
            self.extra_key,
            self.hostile_string,
            self.seats_changed,
        ]


def fits(guest) -> bool:
    game = get_game(guest.game)
    seats = len(guest.seats)
    return game.view_shape.fits(guest.view, seats) and PUBLIC_SEATS.fits(guest.seats, seats)


def kept(guest) -> str:
    """Everything a refused state must leave as it was."""
    return json.dumps(
        [guest.view, guest.version, guest.rev, guest.started, guest.seats, guest.pending, guest.status],
        sort_keys=True,
    )


def welcomed(welcome: str) -> Guest:
    guest = Guest(TABLE_ID, "Victim", seat=1)
    guest.start(1_000)
    guest.receive(welcome, 1_000)
    assert guest.status == "seated"
    return guest


@pytest.mark.parametrize("game_id", GAMES)
def test_a_guest_keeps_no_view_that_does_not_fit_among_thousands(game_id):
    welcome, states = genuine_messages(game_id)
    guest = welcomed(welcome)
    rng = random.Random(f"{game_id}-views")
    mutator = Mutator(rng)
    refused: dict = {}
    accepted = 0
    for state in states:  # every genuine state fits
        guest.receive(json.dumps({**state, "rev": guest.rev + 1}), 2_000)
        assert guest.view == state["view"] and fits(guest), guest.error
    for _ in range(GUEST_MESSAGES // len(GAMES)):
        message = json.loads(json.dumps(states[rng.randrange(len(states))]))
        mutation = mutator.pick(mutator.kinds())
        mutation(message)
        message["rev"] = guest.rev + 1
        before, misfits = kept(guest), guest.misfits
        replies = guest.receive(json.dumps(message), 2_000)
        assert replies == [] and guest.status == "seated"
        if guest.misfits > misfits:
            assert kept(guest) == before, mutation.__name__
            assert guest.error["code"] == "sync_bad_view" and guest.error["params"]["path"]
            refused.setdefault(mutation.__name__, 0)
            refused[mutation.__name__] += 1
        elif kept(guest) != before:
            accepted += 1
            assert guest.view == message["view"] and fits(guest), mutation.__name__
    assert set(refused) == {kind.__name__ for kind in mutator.kinds()}, refused
    assert sum(refused.values()) > 0.6 * (GUEST_MESSAGES // len(GAMES)), (refused, accepted)
    print(game_id, "refused", sum(refused.values()), refused, "accepted (fitting)", accepted)


def test_a_guest_refuses_a_view_of_a_game_it_cannot_show():
    welcome, states = genuine_messages("perudo")
    guest = welcomed(json.dumps({**json.loads(welcome), "game": "chess"}))
    before = kept(guest)
    guest.receive(json.dumps(states[0]), 2_000)
    assert kept(guest) == before and guest.error["code"] == "sync_unknown_game"


def test_a_welcome_to_another_game_drops_the_view_of_the_last_one():
    welcome, states = genuine_messages("perudo")
    guest = welcomed(welcome)
    guest.receive(json.dumps(states[-1]), 2_000)
    assert guest.view is not None
    guest.receive(json.dumps({**json.loads(welcome), "game": "lasca"}), 2_000)
    assert guest.view is None and guest.seats == [] and not guest.started


@pytest.mark.parametrize("game_id", GAMES)
def test_the_guest_screen_never_draws_a_view_that_does_not_fit(game_id, monkeypatch):
    """Through the worker's guest calls, the ones the page makes: every view handed to the
    game's renderer fits (and draws), and a refused state leaves the last good screen with
    the reason."""
    from pyengine.shell.calls import Worker

    welcome, states = genuine_messages(game_id)
    game = get_game(game_id)
    screen = get_declaration(game_id).screen()  # the one the shell draws with
    original = screen.render
    drawn = {"fit": 0, "misfit": 0, "failed": 0}

    def watched(view, ui, t):
        players = view.get("players")
        try:
            game.check_view(view, len(players) if isinstance(players, list) else 0)
            drawn["fit"] += 1
        except ShapeError:
            drawn["misfit"] += 1
        try:
            return original(view, ui, t)
        except Exception:
            drawn["failed"] += 1
            raise

    monkeypatch.setattr(screen, "render", watched)
    worker = Worker()
    worker.net_guest_join(json.dumps({"table": TABLE_ID, "seat": 1, "name": "Bea"}), 1_000, "en")
    worker.net_guest_receive_all(json.dumps([welcome]), 1_000, "pt")
    guest = worker.tables["guest"].guest
    rng = random.Random(f"{game_id}-worker")
    mutator = Mutator(rng)
    refusals = 0
    for index in range(WORKER_MESSAGES // len(GAMES)):
        message = json.loads(json.dumps(states[index % len(states)]))
        if index % 4:
            mutator.pick(mutator.kinds())(message)
        message["rev"] = guest.rev + 1
        misfits = guest.misfits
        lang = rng.choice(["en", "pt", "es", "ca", "it"])
        reply = json.loads(worker.net_guest_receive_all(json.dumps([json.dumps(message)]), 2_000, lang))
        assert reply["ok"] is True and drawn["misfit"] == drawn["failed"] == 0, (drawn, message["view"])
        if guest.misfits > misfits:
            refusals += 1
            assert reply["html"] is None or 'data-testid="net-guest"' in reply["html"]
            shown = worker.tables["guest"].shown
            assert "tb-net-error" in shown and guest.error["params"]["path"] in unescape(shown)
    assert drawn["fit"] >= WORKER_MESSAGES // len(GAMES) // 4, drawn
    assert refusals > WORKER_MESSAGES // len(GAMES) // 2, (drawn, refusals)
    print(game_id, "drawn", drawn, "refused", refusals)


def in_range_variant(view: dict, rng) -> None:
    """A few numbers, flags, optional values and lists of ``view`` changed to other plain
    values (small numbers, flipped flags, shorter or reordered lists): many still fit."""
    for _ in range(rng.randrange(1, 4)):
        places = [
            (path, value)
            for path, value in nodes(view)
            if path and (type(value) in (int, bool) or value is None or isinstance(value, list))
        ]
        path, value = places[rng.randrange(len(places))]
        if type(value) is bool:
            new = not value
        elif type(value) is int:
            new = rng.choice([0, 1, 2, 3, 5, 6, -1, value + 1, value - 1])
        elif value is None:
            new = rng.choice([0, 1, [], True])
        else:
            new = rng.choice([[], value[:-1], value + value[-1:] if value else [1], value[::-1], None])
        replace(view, path, new)


@pytest.mark.parametrize("game_id", GAMES)
def test_whatever_fits_draws_without_error(game_id):
    """Odd but fitting views (another player's turn, other dice, a shorter bid list...)
    draw: the shapes tie together what the screens rely on."""
    from pyengine.i18n import Translator

    welcome, states = genuine_messages(game_id)
    game = get_game(game_id)
    render = get_declaration(game_id).screen().render
    rng = random.Random(f"{game_id}-fitting")
    drawn = 0
    for index in range(3_000):
        state = states[index % len(states)]
        view = json.loads(json.dumps(state["view"]))
        in_range_variant(view, rng)
        if not game.view_shape.fits(view, len(state["seats"])):
            continue
        for ui in ({}, {"odds": True, "count": 3, "chip": 25}):
            render({**view, "players": state["seats"]}, ui, Translator(rng.choice(["en", "pt", "it"])))
        drawn += 1
    assert drawn > 300
