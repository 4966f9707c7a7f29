"""Another game at the same shared table: same seats, tokens and peers, versions counting on."""

import json

import pytest

from pyengine.protocol import Guest, Host, MemoryNetwork, ProtocolError
from pyengine.protocol.envelope import encode


def finish(kit, host, net):
    for step in range(5_000):
        if host.table.is_over():
            return
        kit.play_one(host, net, seed=step)
    raise AssertionError("the game did not end")


def test_a_rematch_waits_for_the_end_of_the_game(kit):
    host, net = kit.seated()
    with pytest.raises(ProtocolError) as refused:
        host.rematch()
    assert refused.value.code == "sync_not_over"
    unstarted = kit.make_host()
    with pytest.raises(ProtocolError) as early:
        unstarted.rematch()
    assert early.value.code == "sync_not_started"


def test_a_rematch_deals_a_new_game_to_the_same_seats_and_everyone_follows(kit):
    host, net = kit.seated()
    finish(kit, host, net)
    old_table, old_version, tokens = host.table, host.version, list(host.tokens)
    net.host_says(host.rematch())
    net.run()
    assert host.table is not old_table and not host.table.is_over() and host.table.log == []
    assert host.table.seed != old_table.seed and host.table.options == old_table.options
    assert host.table.seats == old_table.seats and host.tokens == tokens
    assert host.version == old_version + 1  # counting on: nothing old can pass for new
    for peer, seat in (("pa", 1), ("pb", 2), ("pw", None)):
        guest = net.guests[peer]
        assert guest.version == host.version and guest.view == host.table.view(seat)
    # The new game is played through to its end like the first one.
    finish(kit, host, net)
    for peer, seat in (("pa", 1), ("pb", 2)):
        assert net.guests[peer].view == host.table.view(seat)


def test_an_intent_about_the_old_game_is_stale_in_the_new_one(kit):
    host, net = kit.seated()
    finish(kit, host, net)
    last = host.version
    net.host_says(host.rematch())
    net.run()
    seat = host.table.to_act()[0]
    # Whoever holds the seat to act replays an intent naming the last game's versions.
    peer = next((p for p, g in net.guests.items() if g.seat == seat and g.token), None)
    if peer is None:  # the host's own seat opens the game: let it, then the next seat
        kit.play_one(host, net)
        seat = host.table.to_act()[0]
        peer = next(p for p, g in net.guests.items() if g.seat == seat and g.token)
    action = {"type": "dudo"}
    for seen in (last, last - 1, 0):
        before = (host.version, json.dumps(host.table.to_dict()))
        text = encode("intent", table="room-1", seat=seat, action=action, version=seen, seq=99)
        reply = [json.loads(t) for _, t in host.receive(peer, text, net.now)]
        assert reply[0]["kind"] == "error" and reply[0]["code"] == "sync_stale", reply
        assert (host.version, json.dumps(host.table.to_dict())) == before


def test_a_host_reload_after_a_rematch_resumes_the_new_game_with_its_count(kit):
    host, net = kit.seated()
    finish(kit, host, net)
    net.host_says(host.rematch())
    net.run()
    kit.play_one(host, net)
    saved = json.loads(json.dumps(host.snapshot()))
    again = Host.from_snapshot(saved)
    assert again.version == host.version and again.base == host.base
    assert again.table.to_dict() == host.table.to_dict()
    net.replace_host(again)
    net.advance(20_000)
    net.run()
    for peer, seat in (("pa", 1), ("pb", 2)):
        assert net.guests[peer].status == "seated"
        assert net.guests[peer].version == again.version
        assert net.guests[peer].view == again.table.view(seat)


@pytest.mark.parametrize("base", [-1, "3", 1.5, 2**60])
def test_a_damaged_game_count_in_a_save_is_refused(kit, base):
    host = kit.make_host()
    saved = host.snapshot()
    saved["base"] = base
    with pytest.raises(Exception) as refused:
        Host.from_snapshot(saved)
    assert getattr(refused.value, "code", None) == "sync_save_rev"


def test_a_save_from_before_rematches_starts_counting_at_zero(kit):
    host = kit.make_host()
    saved = host.snapshot()
    del saved["base"]
    assert Host.from_snapshot(saved).version == 0


def test_a_guest_seated_after_a_rematch_plays_the_new_game(kit):
    host = kit.make_host()
    net = MemoryNetwork(host, now=1_000)
    net.add_guest("pa", Guest("room-1", "A", seat=1))
    net.add_guest("pb", Guest("room-1", "B", seat=2))
    net.host_says(host.start())
    net.run()
    finish(kit, host, net)
    net.host_says(host.rematch())
    net.run()
    for step in range(20):
        kit.play_one(host, net, seed=1_000 + step)
    assert host.table.version == 20 or host.table.is_over()
