"""The guest: drops, gaps, resends, a silent host, back-off, and a hostile host."""

import json

import pytest

from pyengine.protocol import Guest, ProtocolError
from pyengine.protocol.envelope import PROTOCOL, encode
from pyengine.protocol.guest import HOST_LOST_AFTER, PING_EVERY, RESEND_AFTER, RETRY_MAX


def kinds(texts):
    return [json.loads(t)["kind"] for t in texts]


def test_a_guest_that_missed_states_notices_on_its_heartbeat_and_resyncs(kit):
    host, net = kit.seated()
    guest = net.guests["pb"]
    net.drop = lambda sender, receiver, text: receiver == "pb" and json.loads(text)["kind"] == "state"
    for move in range(3):
        kit.play_one(host, net, seed=move)
    assert guest.version == 0 < host.table.version
    net.drop = None
    net.advance(PING_EVERY)  # its ping's answer carries a newer revision than it saw
    assert guest.version == host.table.version and guest.rev == host.rev
    assert guest.view == host.table.view(2) and guest.seats == host.public_seats()


def test_states_arriving_out_of_order_never_roll_a_guest_back(kit):
    host, net = kit.seated()
    held = []
    net.drop = lambda sender, receiver, text: receiver == "pa" and not held.append(text)
    kit.play_one(host, net, seed=1)
    kit.play_one(host, net, seed=2)
    net.drop = None
    guest = net.guests["pa"]
    for text in reversed(held):
        guest.receive(text, net.now)
    assert guest.version == host.table.version and guest.view == host.table.view(1)


def test_a_lost_intent_is_resent_and_applied_exactly_once(kit):
    host, net = kit.seated()
    mover = host.table.to_act()[0]
    peer = "pa" if mover == 1 else "pb"
    guest = net.guests[peer]
    lose = {"left": 1}

    def drop_first_intent(sender, receiver, text):
        if sender == peer and json.loads(text)["kind"] == "intent" and lose["left"]:
            lose["left"] -= 1
            return True
        return False

    net.drop = drop_first_intent
    kit.play_one(host, net, seed=3)
    assert host.table.version == 0 and guest.pending is not None
    intent = guest.pending["text"]
    with pytest.raises(ProtocolError):
        guest.intend({"type": "dudo"}, net.now)  # one action at a time
    net.advance(RESEND_AFTER)
    assert host.table.version == 1 and guest.pending is None
    # A duplicate of the same intent (a transport echo) is stale and changes nothing.
    net.guest_says(peer, [intent])
    net.run()
    assert host.table.version == 1 and guest.error["code"] == "sync_stale"


def test_an_illegal_intent_is_answered_and_settled(kit):
    host, net = kit.seated()
    mover = host.table.to_act()[0]
    peer = "pa" if mover == 1 else "pb"
    guest = net.guests[peer]
    net.guest_says(peer, guest.intend({"type": "dudo"}, net.now))
    net.run()
    assert guest.pending is None
    assert guest.error == {
        "code": "nothing_to_call",
        "reason": "There is no bid to challenge yet",
        "params": {},
    }


def test_only_a_seated_guest_may_act():
    guest = Guest("room-1", "W")
    with pytest.raises(ProtocolError) as caught:
        guest.intend({"type": "dudo"}, 0)
    assert caught.value.code == "sync_not_seated"


def test_a_silent_host_raises_the_banner_and_the_guest_retries_with_back_off(kit):
    host, net = kit.seated()
    guest = net.guests["pa"]
    net.cut.add("pa")
    start = net.now
    hellos = []
    for step in range(1, 121):  # two minutes, a second at a time, the guest alone
        now = start + step * 1_000
        sent = guest.tick(now)
        hellos += [now - start for kind in kinds(sent) if kind == "rejoin"]
    assert guest.status == "host_lost"
    lost_at = hellos[0]
    assert lost_at == HOST_LOST_AFTER + 1_000
    gaps = [b - a for a, b in zip(hellos, hellos[1:])]
    assert gaps[:5] == [1_000, 2_000, 4_000, 8_000, 16_000]
    assert set(gaps[5:]) == {RETRY_MAX}
    net.cut.discard("pa")
    net.now = start + 121_000
    net.advance(RETRY_MAX)
    assert guest.status == "seated" and guest.view == host.table.view(1)
    assert host.public_seats()[1]["connected"] is True


def test_a_watcher_refused_a_seat_keeps_watching(kit):
    host, net = kit.seated()
    guest = net.guests["pa"]
    net.host_says(host.set_seat(1, "human"))
    net.run()
    assert guest.status == "watching" and guest.token is None
    net.guest_says("pa", guest.take_seat(1, net.now))
    net.run()
    assert guest.status == "watching" and guest.error["code"] == "sync_seat_taken" and guest.seat is None
    kit.play_one(host, net, seed=4)
    assert guest.view == host.table.view(None)
    assert guest.snapshot() == {"format": 1, "table": "room-1", "seat": None, "token": None, "room": None}


def test_a_guest_whose_token_is_refused_stops_retrying(kit):
    host, net = kit.seated()
    net.host_says(host.set_seat(1, "human"))
    net.run()
    stale = Guest("room-1", "Ana", seat=1, token="token0001abcdefgh")  # a save from before
    net.add_guest("pa-2", stale)
    net.run()
    assert stale.status == "refused" and stale.error["code"] == "sync_bad_token" and stale.token is None
    assert stale.tick(net.now + 100_000) == []


def test_a_connection_replaced_by_a_newer_one_stands_down_but_keeps_its_token(kit):
    host, net = kit.seated()
    old = net.guests["pa"]
    newer = Guest.from_snapshot(old.snapshot(), "Ana")
    net.add_guest("pa-tab-2", newer)
    net.run()
    assert newer.status == "seated" and old.status == "refused"
    assert old.error["code"] == "sync_replaced" and old.token == newer.token
    assert old.tick(net.now + 100_000) == []


def test_a_guest_back_on_a_new_connection_is_recognised_by_its_token(kit):
    host, net = kit.seated()
    guest = net.guests["pa"]
    assert host.table.to_act() == [1]
    net.rename("pa", "pa-2")  # a fresh data channel, a fresh peer id
    kit.play_one(host, net, seed=8)  # from an unknown id: refused, rejoined, then sent again
    assert "pa" not in host.peers and host.peers["pa-2"].seat == 1 and guest.status == "seated"
    assert host.table.version == 1 and host.table.log[0]["seat"] == 1 and guest.pending is None
    kit.play_one(host, net, seed=9)
    assert guest.version == host.table.version and guest.view == host.table.view(1)
    assert net.lost > 0  # the host's error to the replaced old id went nowhere


def test_a_hostile_or_broken_host_cannot_crash_a_guest(kit):
    host, net = kit.seated()
    guest = net.guests["pa"]
    before = (guest.view, guest.version, guest.rev, guest.seat, guest.token)
    junk = [
        None,
        "",
        "{",
        "[]",
        "x" * 300_000,
        json.dumps({"v": PROTOCOL, "kind": "state", "table": "room-1"}),
        json.dumps(
            {
                "v": PROTOCOL,
                "kind": "intent",
                "table": "room-1",
                "seat": 1,
                "action": {"type": "x"},
                "version": 0,
                "seq": 1,
            }
        ),
        encode("state", table="other", version=99, rev=99, started=True, acted=None, seats=[], view={}),
        encode("state", table="room-1", version=-1, rev=99, started=True, acted=None, seats=[], view={}),
        encode(
            "state", table="room-1", version=99, rev=99, started="yes", acted=None, seats=[], view={}
        ),
        encode("welcome", table="room-1", game="perudo", seat=99, token="t"),
        encode("pong", table="room-1", t="now", rev=1),
        encode("error", table="room-1", code=5, reason="r", params={}, ref=None),
    ]
    for text in junk:
        assert guest.receive(text, net.now) == []
    assert guest.ignored == len(junk)
    assert (guest.view, guest.version, guest.rev, guest.seat, guest.token) == before


def test_guest_input_is_checked_locally():
    for args in (("bad id", ""), ("room-1", "\n"), ("room-1", "", 99), ("room-1", "", None, "tok")):
        with pytest.raises(ProtocolError):
            Guest(*args)


def test_a_guest_that_is_only_ticked_says_hello_and_backs_off():
    guest = Guest("room-1", "Ana", seat=1)
    sent = [kinds(guest.tick(now)) for now in range(0, 8_000, 500)]
    assert [i * 500 for i, out in enumerate(sent) if out] == [0, 1_000, 3_000, 7_000]
    assert all(out in ([], ["join"]) for out in sent)
