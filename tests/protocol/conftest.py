"""Shared set-up for the sync tests: a Perudo table hosted for guests over the memory network."""

import itertools
from types import SimpleNamespace

import pytest

from pyengine.core.rng import Rng
from pyengine.protocol import Guest, Host, MemoryNetwork
from pyengine.games.perudo import GAME as PERUDO

TABLE_ID = "room-1"


def counting_tokens():
    """Deterministic seat tokens (the host accepts any token source; tests want repeatable ones)."""
    numbers = itertools.count(1)
    return lambda: f"token{next(numbers):04d}abcdefgh"


def make_host(kinds=("human", "remote", "remote"), seed=11, token_source=None) -> Host:
    seats = []
    for index, kind in enumerate(kinds):
        seat = {"kind": kind, "name": f"P{index}"}
        if kind == "bot":
            seat["level"] = "easy"
        seats.append(seat)
    return Host.create("perudo", {}, seats, seed, TABLE_ID, token_source or counting_tokens())


def seated(host=None, guests=(("pa", 1), ("pb", 2))):
    """A started host, guests seated (peer id -> seat) and a spectator ``pw``, all settled."""
    host = host or make_host()
    net = MemoryNetwork(host, now=1_000)
    for peer, seat in guests:
        net.add_guest(peer, Guest(TABLE_ID, f"Guest {peer}", seat=seat))
    net.add_guest("pw", Guest(TABLE_ID, "Watcher"))
    net.host_says(host.start())
    net.run()
    return host, net


def play_one(host, net, seed=0):
    """Whoever must act plays a seeded random legal action: host seats locally, guests by intent.

    Choosing from the full state is the test driver's privilege; what a guest receives is
    what is under test, so the guest's intent goes through the network like any other.
    """
    seat = host.table.to_act()[0]
    actions = PERUDO.legal_actions(host.table.state, seat)
    action = actions[Rng(seed).below(len(actions))]
    kind = host.table.seats[seat]["kind"]
    if kind == "human":
        net.host_says(host.act(seat, action))
    elif kind == "bot":
        net.host_says(host.play_bot())
    else:
        peer = next(p for p, g in net.guests.items() if g.seat == seat and g.token)
        net.guest_says(peer, net.guests[peer].intend(action, net.now))
    net.run()


@pytest.fixture
def kit():
    """The helpers above (test modules cannot import a conftest under importlib mode)."""
    return SimpleNamespace(
        make_host=make_host,
        seated=seated,
        play_one=play_one,
        counting_tokens=counting_tokens,
    )
