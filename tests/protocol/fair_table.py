"""A fair shared table for the fair-table tests: a host (its own seat and a bot), two guests
and a spectator over the memory network, a driver that plays seeded random moves, and a
network that lets a test play a dishonest host by rewriting what the host sends."""

import json

import pytest

from pyengine.core.registry import get_game
from pyengine.kits.fair_cards import keys_for
from pyengine.protocol import Guest, Host, MemoryNetwork

TABLE_ID = "room-1"
GUESTS = {"pa": 1, "pc": 3}
SEATS = [
    {"kind": "human", "name": "Host"},
    {"kind": "remote", "name": "A"},
    {"kind": "bot", "name": "Bot"},  # at its game's first level
    {"kind": "remote", "name": "C"},
]


class TamperNetwork(MemoryNetwork):
    """The memory network with a dishonest host: ``tamper(peer, message)`` may rewrite each
    message (parsed) the host sends, in place, and returns whether it changed it."""

    tamper = None
    tampered = 0

    def host_says(self, outbox) -> None:
        rewritten = []
        for peer, text in outbox:
            if self.tamper is not None:
                message = json.loads(text)
                if self.tamper(peer, message):
                    self.tampered += 1
                    text = json.dumps(message)
            rewritten.append((peer, text))
        super().host_says(rewritten)


def fair_table(game="perudo", seed=1, options=None, seats=SEATS, tamper=None):
    """A started fair table with its guests and spectator seated and settled; ``tamper``
    rewrites what the host sends from the first message on (``TamperNetwork``)."""
    seats = [dict(seat, level=get_game(game).bot_levels[0]) if seat["kind"] == "bot" else seat for seat in seats]
    host = Host.create(game, options or {}, seats, f"{seed:064x}", TABLE_ID, fair=True)
    net = TamperNetwork(host, now=1_000)
    net.tamper = tamper
    for peer, seat in GUESTS.items():
        if seats[seat]["kind"] == "remote":
            net.add_guest(peer, Guest(TABLE_ID, f"Guest {peer}", seat=seat))
    net.add_guest("pw", Guest(TABLE_ID, "Watcher"))
    net.host_says(host.start())
    net.run()
    return host, net


def guest_of(net, seat):
    return next(g for g in net.guests.values() if g.seat == seat and g.token)


def play_move(host, net, rng, call_often=True):
    """The seat on turn plays a seeded random legal move: the host's through ``act``, the
    bot's through ``play_bot``, a guest's as an intent from its own device. Returns False
    when nobody can move (a fair step waits for a device)."""
    table = host.table
    if table.is_over() or table.fair_steps():
        return False
    seat = table.to_act()[0]
    if table.seats[seat]["kind"] == "bot":
        net.host_says(host.play_bot())
    else:
        actions = table.game.legal_actions(table.state, seat)
        calls = [a for a in actions if a["type"] != "bid"]
        pick = calls if calls and call_often and rng.below(3) == 0 else actions
        send_move(host, net, seat, pick[rng.below(len(pick))])
    net.run()
    return True


def send_move(host, net, seat, action):
    """``seat``'s ``action`` from the device that plays it: the host's, or a guest's intent."""
    if host.table.seats[seat]["kind"] == "human":
        net.host_says(host.act(seat, action))
    else:
        guest = guest_of(net, seat)
        net.guest_says(next(p for p, g in net.guests.items() if g is guest), guest.intend(action, net.now))


def play_until(host, net, rng, done, limit=2_000):
    """Plays until ``done()`` or nobody can move; returns how many moves were made."""
    moves = 0
    while not done() and moves < limit and play_move(host, net, rng):
        moves += 1
    return moves


@pytest.fixture(autouse=True)
def repeatable_secrets(monkeypatch):
    """The devices' secrets from a counter: the same deals on every run (autouse where imported)."""
    numbers = iter(range(1, 1 << 30))
    monkeypatch.setattr("pyengine.core.fair.new_secret", lambda: f"{next(numbers):064x}")


def do_duties(table, skip=(), step=None):
    """Every deal step this device owes, until none is, or the deal reaches ``step``
    (``skip``: seats that do not act)."""
    while table.fair_steps() and not table.is_over():
        owing = [seat for seat in table.to_act() if seat not in skip]
        if not owing or table.state["fair"]["step"] == step:
            return
        for seat in owing:
            table.act(seat, table.duty(seat))


def release_a_wrong_key(table, seat, victim_of):
    """The deal up to ``seat``'s release, which gives for the position ``victim_of(record,
    keys)`` picks the key of the next position instead; returns that position."""
    do_duties(table, step="release")
    do_duties(table, skip=(seat,))
    record = table.state["fair"]
    action = table.duty(seat)
    victim = victim_of(record, action["keys"])
    size = len(record["decks"][0])
    action["keys"][victim] = keys_for(record, seat, table.held[seat]["secret"]).card_text((victim + 1) % size)
    table.act(seat, action)
    return victim


def challenged_verdict(table, holder):
    """``holder``'s device challenges its card that does not open; the deal's check follows.
    Returns the challenge and the verdict."""
    challenge = table.duty(holder)
    table.act(holder, challenge)
    do_duties(table)
    return challenge, table.state["fair"]["verdict"]


def move_by_its_device(host, net, rng, legal="legal_actions"):
    """The seat on turn makes a seeded random move from its own device's view (``legal``: the
    view's key of the legal actions), its bot's move if a bot; then the network settles."""
    table = host.table
    assert not table.fair_steps(), table.state["fair"]
    seat = table.to_act()[0]
    kind = table.seats[seat]["kind"]
    if kind == "bot":
        net.host_says(host.play_bot())
    else:
        actions = (table.view(seat) if kind == "human" else guest_of(net, seat).view)[legal]
        send_move(host, net, seat, actions[rng.below(len(actions))])
    net.run()
