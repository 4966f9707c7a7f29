"""Seats that act at once (Crown and Anchor bets) do not refuse each other's intents,
while a duplicate or an intent from a closed round is still refused."""

import json

from pyengine.protocol import Guest, Host, MemoryNetwork
from pyengine.protocol.envelope import encode
from pyengine.protocol.guest import RESEND_AFTER


def crown_anchor_table():
    """Seed 5 draws seat 0 as banker (on the host's screen); seats 1 and 2 are punters online."""
    seats = [
        {"kind": "human", "name": "Bank"},
        {"kind": "remote", "name": ""},
        {"kind": "remote", "name": ""},
    ]
    host = Host.create("crown_anchor", {}, seats, 5, "room-2")
    net = MemoryNetwork(host)
    net.add_guest("p1", Guest("room-2", "One", seat=1))
    net.add_guest("p2", Guest("room-2", "Two", seat=2))
    net.host_says(host.start())
    net.run()
    assert host.table.state["banker"] == 0 and host.table.to_act() == [1, 2]
    return host, net


def bet(symbol, chips=1):
    return {"type": "bet", "symbol": symbol, "chips": chips}


def intent(seat, action, version, seq=1):
    return encode("intent", table="room-2", seat=seat, action=action, version=version, seq=seq)


def test_punters_betting_at_once_are_all_heard():
    host, net = crown_anchor_table()
    one, two = net.guests["p1"], net.guests["p2"]
    # Both click before either hears of the other's bet: both intents name version 0.
    net.guest_says("p1", one.intend(bet("crown"), net.now))
    net.guest_says("p2", two.intend(bet("anchor"), net.now))
    net.guest_says("p1", [intent(1, bet("hearts"), 0, seq=9)])  # seat 1 has moved since 0: stale
    net.run()
    assert [entry["seat"] for entry in host.table.log] == [1, 2]
    assert host.table.state["stakes"][1] == {"crown": 1} and host.table.state["stakes"][2] == {
        "anchor": 1
    }
    assert one.pending is None and two.pending is None and one.error["code"] == "sync_stale"
    # A guest that saw version 1 (after seat 1's bet) may still bet though seat 2 moved since.
    net.guest_says("p1", [intent(1, bet("spades"), 1, seq=10)])
    net.run()
    assert host.table.version == 3 and host.table.log[-1] == {"seat": 1, "action": bet("spades")}


def test_an_intent_from_a_closed_round_is_refused():
    host, net = crown_anchor_table()
    for seat in (1, 2):
        net.guest_says(f"p{seat}", net.guests[f"p{seat}"].intend({"type": "done"}, net.now))
        net.run()
    net.host_says(host.act(0, {"type": "roll"}))
    net.run()
    assert host.table.to_act() == [1, 2] and host.table.version == 3  # a new round of bets
    # Seen at version 2: after seat 2's own last move, but before the roll closed the round.
    outbox = host.receive("p2", intent(2, bet("clubs"), 2), net.now)
    assert json.loads(outbox[0][1])["code"] == "sync_stale"
    assert host.table.state["stakes"][2] == {}
    host.receive("p2", intent(2, bet("clubs"), 3), net.now)
    assert host.table.state["stakes"][2] == {"clubs": 1}


def test_a_lost_bet_is_resent_after_others_moved_and_applied_once():
    host, net = crown_anchor_table()
    one, two = net.guests["p1"], net.guests["p2"]
    net.drop = lambda sender, receiver, text: sender == "p1" and '"intent"' in text
    net.guest_says("p1", one.intend(bet("crown", 2), net.now))
    net.run()
    net.drop = None
    net.guest_says("p2", two.intend(bet("anchor"), net.now))
    net.run()
    assert host.table.version == 1 and one.pending is not None  # others moving settles nothing
    net.advance(RESEND_AFTER)
    assert host.table.version == 2 and host.table.state["stakes"][1] == {"crown": 2}
    assert one.pending is None
    net.advance(RESEND_AFTER)
    assert host.table.version == 2


def test_a_reloaded_host_still_refuses_duplicates_and_is_strict_about_the_past():
    host, net = crown_anchor_table()
    net.guest_says("p1", [intent(1, bet("crown"), 0)])
    net.run()
    host = Host.from_snapshot(json.loads(json.dumps(host.snapshot())))
    for peer, seat in (("p1", 1), ("p2", 2)):
        host.receive(peer, encode("rejoin", table="room-2", seat=seat, token=net.host.tokens[seat]), 0)
    duplicate = host.receive("p1", intent(1, bet("crown"), 0), 0)
    older = host.receive("p2", intent(2, bet("anchor"), 0), 0)  # fine before the reload
    assert [json.loads(o[0][1])["code"] for o in (duplicate, older)] == ["sync_stale", "sync_stale"]
    host.receive("p2", intent(2, bet("anchor"), 1), 0)
    assert host.table.version == 2 and host.table.state["stakes"][2] == {"anchor": 1}
