"""Saves: a host reload resumes the table and guests rejoin; a guest reload rejoins its seat."""

import json

import pytest

from pyengine.core.errors import BadSave
from pyengine.protocol import Guest, Host
from pyengine.protocol.guest import RESEND_AFTER


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def test_the_host_snapshot_after_every_change_rebuilds_the_same_host(kit):
    host, net = kit.seated()
    saved = {}

    def save():
        if saved.get("rev") != host.rev:
            saved.update(rev=host.rev, data=json.loads(json.dumps(host.snapshot())))

    save()
    while not host.table.is_over():
        kit.play_one(host, net, seed=host.table.version)
        save()
        assert saved["rev"] == host.rev
        rebuilt = Host.from_snapshot(saved["data"])
        assert canonical(rebuilt.snapshot()) == canonical(host.snapshot())
        assert canonical(rebuilt.table.state) == canonical(host.table.state)


def test_a_host_reload_mid_game_resumes_and_every_guest_finds_its_seat_again(kit):
    host, net = kit.seated()
    for move in range(5):
        kit.play_one(host, net, seed=move)
    saved = json.dumps(host.snapshot())  # what the page stored after the last action
    state_before = canonical(host.table.state)
    reloaded = Host.from_snapshot(json.loads(saved), kit.counting_tokens())
    assert reloaded.peers == {} and canonical(reloaded.table.state) == state_before
    net.replace_host(reloaded)
    net.advance(5_000)  # heartbeats meet a host that forgot its peers; guests rejoin
    host = reloaded
    assert {p: r.seat for p, r in host.peers.items()} == {"pa": 1, "pb": 2, "pw": None}
    for peer, seat in (("pa", 1), ("pb", 2), ("pw", None)):
        assert net.guests[peer].view == host.table.view(seat)
        assert net.guests[peer].status == ("watching" if seat is None else "seated")
    while not host.table.is_over():
        kit.play_one(host, net, seed=host.table.version)
    assert all(g.view["result"] == host.table.view(None)["result"] for g in net.guests.values())


def test_a_host_that_stays_away_long_is_found_again_by_back_off(kit):
    host, net = kit.seated()
    saved = host.snapshot()
    net.replace_host(Host.from_snapshot(saved))
    net.cut.update({"pa", "pb", "pw"})  # the host's page is down for a minute
    for _ in range(60):
        net.advance(1_000)
    assert {g.status for g in net.guests.values()} == {"host_lost"}
    net.cut.clear()
    for _ in range(31):
        net.advance(1_000)
    assert {g.status for g in net.guests.values()} == {"seated", "watching"}


def test_a_guest_reload_rejoins_its_seat_from_its_own_snapshot(kit):
    host, net = kit.seated()
    kit.play_one(host, net, seed=1)
    stored = json.dumps(net.guests["pa"].snapshot())
    saved = json.loads(stored)
    assert saved.pop("witness")  # and its account of the game (a table that is not fair: ``protocol.witness``)
    assert saved == {"format": 1, "table": "room-1", "seat": 1, "token": host.tokens[1], "room": None}
    del net.guests["pa"]  # the tab reloads; the old channel is gone
    returned = Guest.from_snapshot(json.loads(stored), name="Ana")
    net.add_guest("pa-2", returned)
    net.run()
    assert returned.status == "seated" and returned.seat == 1
    assert returned.view == host.table.view(1) and returned.version == host.table.version
    assert host.peers["pa-2"].seat == 1 and "pa" not in host.peers
    while not host.table.is_over():
        kit.play_one(host, net, seed=host.table.version)


@pytest.mark.parametrize(
    "damage",
    [
        lambda s: s.update(format=2),
        lambda s: s.update(tokens=s["tokens"][:2]),
        lambda s: s.update(tokens=["tok 1", None, None]),
        lambda s: s["tokens"].__setitem__(0, "abcdefgh"),  # seat 0 is played on the host's screen
        lambda s: s.update(rev=-1),
        lambda s: s.update(rev=True),
        lambda s: s.pop("started"),
        lambda s: s.update(table_id="no spaces"),
        lambda s: s["table"]["log"].append({"seat": 0, "action": {"type": "calza"}}),
        lambda s: s["table"].update(seed="7"),
    ],
)
def test_damaged_host_saves_are_refused(kit, damage):
    host, net = kit.seated()
    kit.play_one(host, net, seed=0)
    data = json.loads(json.dumps(host.snapshot()))
    damage(data)
    with pytest.raises(BadSave):
        Host.from_snapshot(data)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"format": 1},
        {"format": 1, "table": "room-1", "seat": None, "token": "abc"},
        {"format": 1, "table": "r", "seat": 70, "token": None},
    ],
)
def test_damaged_guest_saves_are_refused(data):
    with pytest.raises(BadSave):
        Guest.from_snapshot(data)


def test_an_intent_in_flight_when_the_host_reloads_is_played_once_afterwards(kit):
    host, net = kit.seated()
    mover = host.table.to_act()[0]
    peer = {1: "pa", 2: "pb"}[mover]
    guest = net.guests[peer]
    action = host.table.game.legal_actions(host.table.state, mover)[0]
    net.guest_says(peer, guest.intend(action, net.now))
    saved = json.loads(json.dumps(host.snapshot()))
    net.replace_host(Host.from_snapshot(saved))  # the intent was still on its way: lost
    assert guest.pending is not None
    net.advance(RESEND_AFTER)  # resent; the new host does not know the peer; rejoin; resent
    assert net.host.table.log == [{"seat": mover, "action": action}] and guest.pending is None
    net.advance(RESEND_AFTER)
    assert net.host.table.version == 1
