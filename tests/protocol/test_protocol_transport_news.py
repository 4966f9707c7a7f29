"""What the transport tells the protocol: a channel closed (host side, guest side), a new
channel opened, the host closed the table; and a guest that never sends what the host's gate
would drop unread."""

import json

import pytest

from pyengine.protocol import Guest, ProtocolError
from pyengine.protocol.guest import HOST_LOST_AFTER, RETRY_FIRST
from pyengine.protocol.host import ABSENT_AFTER


def kinds(texts):
    return [json.loads(t)["kind"] for t in texts]


def test_a_dropped_peer_shows_absent_at_once_and_is_back_with_its_next_message(kit):
    host, net = kit.seated()
    rev = host.rev
    outbox = host.drop("pa", net.now)
    assert host.rev == rev + 1 and {peer for peer, _ in outbox} == {"pa", "pb", "pw"}
    assert host.public_seats()[1]["connected"] is False
    assert host.drop("pa", net.now) == []  # already absent: nothing new to tell
    assert host.drop("nobody", net.now) == []
    net.host_says(outbox)
    net.advance(1)  # well before ABSENT_AFTER: only the drop made it absent
    assert net.guests["pb"].seats[1]["connected"] is False
    net.guest_says("pa", net.guests["pa"].connected(net.now))
    net.run()
    assert host.public_seats()[1]["connected"] is True and host.rev == rev + 2


def test_a_dropped_spectator_changes_nothing_anyone_sees(kit):
    host, net = kit.seated()
    rev = host.rev
    assert host.drop("pw", net.now) == [] and host.rev == rev


def test_a_guest_whose_channel_closed_shows_host_lost_at_once_and_retries_with_back_off(kit):
    _, net = kit.seated()
    guest = net.guests["pa"]
    assert guest.lost(net.now) == [] and guest.status == "host_lost"
    assert guest.tick(net.now + RETRY_FIRST - 1) == []
    assert kinds(guest.tick(net.now + RETRY_FIRST)) == ["rejoin"]
    assert guest.tick(net.now + RETRY_FIRST + 1) == []  # the next retry waits twice as long
    # A new channel: hello at once, no waiting for the back-off.
    assert kinds(guest.connected(net.now + RETRY_FIRST + 2)) == ["rejoin"]


def test_lost_before_any_welcome_keeps_connecting_and_a_refused_guest_stays_quiet(kit):
    guest = Guest("room-1", "Late", seat=1)
    guest.start(0)
    guest.lost(10)
    assert guest.status == "connecting"
    _, net = kit.seated()
    net.add_guest("px", Guest("room-1", "Late", seat=1))  # seat 1 is taken
    net.run()
    refused = net.guests["px"]
    assert refused.status == "refused"
    assert refused.connected(net.now) == [] and refused.lost(net.now) == [] and refused.status == "refused"


def test_a_new_channel_seats_the_guest_again_without_waiting_for_a_retry(kit):
    host, net = kit.seated()
    guest = net.guests["pa"]
    net.host_says(host.drop("pa", net.now))
    guest.lost(net.now)
    net.run()
    net.now += 10  # far less than RETRY_FIRST, HOST_LOST_AFTER or ABSENT_AFTER
    net.guest_says("pa", guest.connected(net.now))
    net.run()
    assert guest.status == "seated" and host.public_seats()[1]["connected"] is True
    assert 10 < min(RETRY_FIRST, HOST_LOST_AFTER, ABSENT_AFTER)


def test_closing_the_table_tells_every_peer_and_forgets_them(kit):
    host, net = kit.seated()
    log = list(host.table.log)
    net.host_says(host.close())
    assert host.peers == {}
    net.run()
    for peer in ("pa", "pb", "pw"):
        guest = net.guests[peer]
        assert guest.error["code"] == "sync_closed"
    assert net.guests["pa"].status == "refused" and net.guests["pb"].status == "refused"
    assert net.guests["pw"].status == "watching"  # a spectator had no seat to be refused
    assert host.table.log == log


@pytest.mark.parametrize(
    "action, code",
    [({"type": 5}, "sync_bad_field"), ([], "sync_bad_field"), ({"type": "bid", "pad": "x" * 9000}, "sync_too_big")],
)
def test_a_guest_refuses_to_send_an_intent_the_host_would_drop_unread(kit, action, code):
    _, net = kit.seated()
    guest = net.guests["pa"]
    with pytest.raises(ProtocolError) as caught:
        guest.intend(action, net.now)
    assert caught.value.code == code and guest.pending is None
    assert "intent" not in kinds(guest.tick(net.now + 10_000))
