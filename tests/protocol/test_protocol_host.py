"""The host: seats and tokens, authorisation, stale intents, per-seat views, bots."""

import json

import pytest

from pyengine.core.errors import InvalidOptions
from pyengine.core.rng import Rng
from pyengine.protocol import Guest, Host, MemoryNetwork, ProtocolError
from pyengine.protocol.envelope import PROTOCOL, encode
from pyengine.protocol.host import MAX_PEERS, MAX_WATCHERS
from pyengine.games.perudo import GAME as PERUDO


def send(host, peer, kind, now=1_000, **fields):
    """One raw message to the host; returns its outbox decoded."""
    fields.setdefault("table", "room-1")
    return [(p, json.loads(t)) for p, t in host.receive(peer, encode(kind, **fields), now)]


def only_error(outbox, peer):
    assert len(outbox) == 1, outbox
    to, message = outbox[0]
    assert to == peer and message["kind"] == "error" and message["reason"]
    return message["code"]


def test_joining_gives_a_seat_a_token_and_the_seat_view(kit):
    host = kit.make_host()
    outbox = send(host, "pa", "join", seat=1, name="Ana")
    welcome = outbox[0][1]
    assert outbox[0][0] == "pa"
    assert welcome == {
        "v": PROTOCOL,
        "kind": "welcome",
        "table": "room-1",
        "game": "perudo",
        "seat": 1,
        "token": host.tokens[1],
        "room": None,
        "phrases": True,
    }
    assert host.tokens[1] and host.tokens[2] is None
    assert host.table.seats[1]["name"] == "Ana"
    state = outbox[1][1]
    assert state["kind"] == "state" and state["version"] == 0
    assert state["view"] == host.table.view(1)
    assert state["seats"][1] == {
        "kind": "remote",
        "name": "Ana",
        "open": False,
        "covered": False,
        "connected": True,
    }
    assert state["seats"][2]["open"] is True


def test_default_tokens_are_long_random_secrets():
    host = Host.create("perudo", {}, [{"kind": "remote", "name": ""}] * 2, 3, "room-1")
    send(host, "pa", "join", seat=0, name="")
    send(host, "pb", "join", seat=1, name="")
    assert len(set(host.tokens)) == 2 and all(len(t) >= 22 for t in host.tokens)


def test_everyone_hears_about_a_join_and_spectators_see_no_dice(kit):
    host, net = kit.seated()
    assert net.guests["pw"].status == "watching"
    assert net.guests["pw"].view == host.table.view(None)
    assert net.guests["pw"].view["dice"] is None
    for peer, seat in (("pa", 1), ("pb", 2)):
        guest = net.guests[peer]
        assert guest.status == "seated" and guest.seat == seat and guest.token == host.tokens[seat]
        assert guest.view == host.table.view(seat)
        assert guest.seats == host.public_seats()


@pytest.mark.parametrize(
    "seat, code",
    [
        (0, "sync_seat_taken"),
        (1, "sync_seat_taken"),
        (3, "sync_no_such_seat"),
        (63, "sync_no_such_seat"),
    ],
)
def test_taken_local_or_missing_seats_cannot_be_joined(kit, seat, code):
    host, net = kit.seated(guests=(("pa", 1),))
    assert only_error(send(host, "new", "join", seat=seat, name="X"), "new") == code
    assert "new" not in host.peers


def test_a_seated_peer_cannot_take_a_second_seat_but_may_repeat_its_join(kit):
    host, net = kit.seated(guests=(("pa", 1),))
    assert only_error(send(host, "pa", "join", seat=2, name="X"), "pa") == "sync_already_seated"
    again = send(host, "pa", "join", seat=1, name="Ana")
    assert [m["kind"] for _, m in again] == ["welcome", "state"] and again[0][1]["token"] == host.tokens[
        1
    ]


def test_a_spectator_may_take_an_open_seat(kit):
    host, net = kit.seated(guests=(("pa", 1),))
    watcher = net.guests["pw"]
    net.guest_says("pw", watcher.take_seat(2, net.now))
    net.run()
    assert watcher.status == "seated" and watcher.seat == 2 and watcher.token == host.tokens[2]
    assert watcher.view == host.table.view(2)


def test_spectators_are_bounded_well_below_the_table_and_a_seat_can_always_be_joined(kit):
    """Issue 30: 64 spectators made every join fail with "table full", a friend's too."""
    host = kit.make_host()
    assert MAX_WATCHERS + len(host.table.seats) < MAX_PEERS
    for n in range(MAX_WATCHERS):
        send(host, f"w{n}", "join", seat=None, name="", now=n)
    assert only_error(send(host, "one-more", "join", seat=None, name=""), "one-more") == "sync_watchers_full"
    outbox = send(host, "player", "join", seat=1, name="Ana", now=10)
    assert outbox[0][1]["kind"] == "welcome" and outbox[0][1]["seat"] == 1  # no spectator had to go
    send(host, "w5", "ping", now=20_000, t=1)
    send(host, "player", "ping", now=20_000, t=1)
    host.tick(20_000)  # all but w5 fall silent: absent spectators give way to newcomers
    outbox = send(host, "late", "join", seat=None, name="", now=20_000)
    assert outbox[0][1]["kind"] == "welcome" and len(host.watchers()) == MAX_WATCHERS
    assert "w0" not in host.peers and "w5" in host.peers  # the longest silent went first


def test_the_host_can_close_the_table_to_new_spectators_for_good(kit):
    host = kit.make_host()
    send(host, "w0", "join", seat=None, name="")
    host.let_watchers_in(False)
    assert only_error(send(host, "w1", "join", seat=None, name=""), "w1") == "sync_no_watchers"
    assert "w0" in host.peers  # those watching stay
    assert send(host, "pa", "join", seat=1, name="Ana")[0][1]["kind"] == "welcome"
    again = Host.from_snapshot(json.loads(json.dumps(host.snapshot())))  # the host's reload
    assert only_error(send(again, "w2", "join", seat=None, name=""), "w2") == "sync_no_watchers"
    again.let_watchers_in(True)
    assert send(again, "w2", "join", seat=None, name="")[0][1]["kind"] == "welcome"


def test_intents_are_checked_against_seat_version_and_rules(kit):
    host, net = kit.seated()
    # Seed 11 starts with seat 1; make sure of it so the test says what it means.
    assert host.table.to_act() == [1]
    before = json.dumps(host.snapshot(), sort_keys=True)
    bid = {"type": "bid", "count": 2, "face": 3}
    cases = [
        ("pb", dict(seat=1, action=bid, version=0, seq=1), "sync_not_your_seat"),
        ("pw", dict(seat=1, action=bid, version=0, seq=1), "sync_not_your_seat"),
        ("stranger", dict(seat=1, action=bid, version=0, seq=1), "sync_not_joined"),
        ("pa", dict(seat=1, action=bid, version=1, seq=1), "sync_stale"),
        ("pb", dict(seat=2, action=bid, version=0, seq=1), "not_your_turn"),
        ("pa", dict(seat=1, action={"type": "dudo"}, version=0, seq=7), "nothing_to_call"),
        (
            "pa",
            dict(seat=1, action={"type": "bid", "count": 2, "face": 9}, version=0, seq=1),
            "bad_field",
        ),
    ]
    for peer, fields, code in cases:
        outbox = send(host, peer, "intent", **fields)
        assert only_error(outbox, peer) == code
    assert outbox[0][1]["ref"] == 1
    assert json.dumps(host.snapshot(), sort_keys=True) == before
    applied = send(host, "pa", "intent", seat=1, action=bid, version=0, seq=2)
    # At a table that is not fair, each peer is told the move, then sent its view.
    assert sorted((p, m["kind"]) for p, m in applied) == [(p, kind) for p in ("pa", "pb", "pw") for kind in ("state", "step")]
    assert host.table.log == [{"seat": 1, "action": bid}]
    for peer, message in applied:
        seat = host.peers[peer].seat
        assert message["version"] == 1
        assert message["kind"] == "step" or message["view"] == host.table.view(seat)
    assert (
        only_error(send(host, "pa", "intent", seat=1, action=bid, version=0, seq=2), "pa")
        == "sync_stale"
    )


def test_a_whole_game_over_the_network_keeps_every_guest_in_step(kit):
    host, net = kit.seated()
    for move in range(400):
        if host.table.is_over():
            break
        kit.play_one(host, net, seed=move)
        for peer, guest in net.guests.items():
            assert guest.view == host.table.view(guest.seat), peer
            assert guest.version == host.table.version and guest.pending is None
    assert host.table.is_over()
    result = host.table.view(None)["result"]
    assert all(g.view["result"] == result for g in net.guests.values())
    outbox = send(
        host, "pa", "intent", seat=1, action={"type": "dudo"}, version=host.table.version, seq=99
    )
    assert only_error(outbox, "pa") == "game_over"


def test_no_guest_ever_receives_another_seats_dice_or_token(kit):
    """Checks the raw texts as sent: each state is exactly the recipient's view, and it is
    unchanged when any other seat's secrets are redrawn (the contract test, on the wire)."""
    host = Host.create(
        "perudo",
        {},
        [{"kind": "human", "name": "H"}, {"kind": "remote", "name": ""}, {"kind": "remote", "name": ""}],
        5,
        "room-1",
    )
    sent = []  # (peer, raw text, host state when it was sent)
    for entry in ("receive", "act"):
        original = getattr(host, entry)

        def recording(*args, _original=original):
            outbox = _original(*args)
            sent.extend((peer, text, json.loads(json.dumps(host.table.state))) for peer, text in outbox)
            return outbox

        setattr(host, entry, recording)
    host, net = kit.seated(host)
    while not host.table.is_over():
        kit.play_one(host, net, seed=host.table.version)
    states = 0
    for peer, text, state in sent:
        guest_seat = net.guests[peer].seat
        for seat, token in enumerate(host.tokens):
            if seat != guest_seat and token is not None:
                assert token not in text
        message = json.loads(text)
        if message["kind"] != "state":
            continue
        states += 1
        view = message["view"]
        assert view == PERUDO.view(state, guest_seat)
        assert view["dice"] == (state["dice"][guest_seat] if guest_seat is not None else None)
        worlds = Rng(states + 17)
        for _ in range(2):
            assert PERUDO.view(PERUDO.resample(state, guest_seat, worlds), guest_seat) == view
    assert states > 50 and host.table.version > 10


def test_the_host_can_hand_an_absent_players_seat_to_a_bot_and_take_it_back(kit):
    host, net = kit.seated()
    net.cut.add("pa")
    net.advance(16_000)
    assert host.public_seats()[1]["connected"] is False
    assert net.guests["pb"].seats[1]["connected"] is False
    net.host_says(host.set_seat(1, "bot", "easy"))
    net.run()
    assert host.public_seats()[1] == {
        "kind": "bot",
        "name": "Guest pa",
        "open": False,
        "covered": True,
        "connected": True,
        "level": "easy",
    }
    assert host.table.to_act() == [1]
    expected = host.table.bot_action(1)  # what the Table's bot picks from seat 1's view
    net.host_says(host.play_bot())
    net.run()
    assert host.table.log == [{"seat": 1, "action": expected}]
    assert net.guests["pb"].view == host.table.view(2)
    assert host.table.to_act() == [2] and host.play_bot() == []  # a guest's turn: no bot moves
    net.cut.discard("pa")
    net.advance(16_000)  # the guest, back, rejoins with its token and reclaims the seat
    assert host.table.seats[1] == {"kind": "remote", "name": "Guest pa"}
    assert net.guests["pa"].status == "seated" and net.guests["pa"].view == host.table.view(1)


def test_a_player_whose_seat_a_bot_plays_cannot_act_but_may_take_it_back(kit):
    host, net = kit.seated()
    net.host_says(host.set_seat(2, "bot", "medium"))
    net.run()
    guest = net.guests["pb"]
    assert guest.seats[2]["covered"] is True and guest.view == host.table.view(2)
    outbox = send(
        host, "pb", "intent", seat=2, action={"type": "dudo"}, version=host.table.version, seq=1
    )
    assert only_error(outbox, "pb") == "sync_seat_with_bot"
    net.guest_says("pb", guest.start(net.now))  # "take my seat back": a rejoin with the token
    net.run()
    assert host.table.seats[2]["kind"] == "remote" and guest.status == "seated"
    assert guest.seats[2]["covered"] is False


def test_taking_a_seat_onto_the_host_screen_revokes_the_guests_token(kit):
    host, net = kit.seated()
    old_token = host.tokens[1]
    net.host_says(host.set_seat(1, "human"))
    net.run()
    assert host.tokens[1] is None and net.guests["pa"].status == "watching"
    assert net.guests["pa"].view["dice"] is None
    outbox = send(host, "thief", "rejoin", seat=1, token=old_token)
    assert only_error(outbox, "thief") == "sync_bad_token"


def test_seat_changes_by_the_host_are_validated(kit):
    host = kit.make_host()
    with pytest.raises(InvalidOptions):
        host.set_seat(1, "bot", "grandmaster")
    with pytest.raises(InvalidOptions):
        host.set_seat(1, "alien")
    with pytest.raises(ProtocolError):
        host.set_seat(9, "bot", "easy")
    with pytest.raises(ProtocolError):
        host.act(1, {"type": "dudo"})  # a remote seat is not played on the host's screen
    assert host.rev == 0 and host.table.seats[1]["kind"] == "remote"


def test_a_returning_token_replaces_a_stale_connection(kit):
    host, net = kit.seated()
    token = host.tokens[1]
    outbox = send(host, "pa-new", "rejoin", seat=1, token=token)
    kinds = [(peer, m["kind"], m.get("code")) for peer, m in outbox]
    assert ("pa", "error", "sync_replaced") in kinds and ("pa-new", "welcome", None) in kinds
    assert "pa" not in host.peers and host.peers["pa-new"].seat == 1
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert only_error(send(host, "x", "rejoin", seat=1, token=forged), "x") == "sync_bad_token"
    assert only_error(send(host, "x", "rejoin", seat=0, token=token), "x") == "sync_bad_token"


def test_silent_peers_turn_absent_then_are_forgotten(kit):
    host, net = kit.seated()
    rev = host.rev
    assert host.tick(net.now + 15_000) == []
    outbox = host.tick(net.now + 15_001)
    assert host.rev == rev + 1 and {p for p, _ in outbox} == {"pa", "pb", "pw"}
    assert not any(s["connected"] for s in host.public_seats()[1:])
    back = send(host, "pa", "ping", now=net.now + 20_000, t=5)
    assert back[0][1] == {"v": PROTOCOL, "kind": "pong", "table": "room-1", "t": 5, "rev": rev + 1}
    assert host.public_seats()[1]["connected"] is True and host.rev == rev + 2
    host.tick(net.now + 20_000 + 600_001)
    assert host.peers == {}
    assert only_error(send(host, "pa", "sync"), "pa") == "sync_not_joined"


def test_peer_ids_that_cannot_be_answered_are_dropped(kit):
    host = kit.make_host()
    for peer in (None, 5, "", "p" * 129, b"pa"):
        assert host.receive(peer, encode("join", table="room-1", seat=1, name=""), 0) == []
    assert host.peers == {} and host.tokens == [None, None, None]


def test_messages_for_another_table_are_refused(kit):
    host = kit.make_host()
    assert (
        only_error(send(host, "pa", "join", table="room-2", seat=1, name=""), "pa") == "sync_wrong_table"
    )
    assert host.peers == {}


def test_lasca_has_no_secrets_but_travels_the_same_way():
    host = Host.create(
        "lasca", {}, [{"kind": "remote", "name": ""}, {"kind": "remote", "name": ""}], 1, "room-9"
    )
    net = MemoryNetwork(host)
    for peer, seat in (("a", 0), ("b", 1)):
        net.add_guest(peer, Guest("room-9", peer, seat=seat))
    net.host_says(host.start())
    net.run()
    game = host.table.game
    for _ in range(6):
        seat = host.table.to_act()[0]
        peer = "ab"[seat]
        action = game.legal_actions(host.table.state, seat)[0]
        net.guest_says(peer, net.guests[peer].intend(action, net.now))
        net.run()
    assert host.table.version == 6
    assert all(net.guests[p].view == host.table.view(s) for p, s in (("a", 0), ("b", 1)))


def test_nobody_plays_before_the_host_starts(kit):
    host = kit.make_host(("human", "remote", "bot"))
    net = MemoryNetwork(host)
    guest = Guest("room-1", "Ana", seat=1)
    net.add_guest("pa", guest)
    net.run()
    assert guest.status == "seated" and guest.started is False
    with pytest.raises(ProtocolError):
        guest.intend({"type": "dudo"}, net.now)
    outbox = send(
        host, "pa", "intent", seat=1, action={"type": "bid", "count": 1, "face": 2}, version=0, seq=1
    )
    assert only_error(outbox, "pa") == "sync_not_started"
    with pytest.raises(ProtocolError):
        host.act(0, {"type": "bid", "count": 1, "face": 2})
    assert host.play_bot() == [] and host.table.version == 0
    net.host_says(host.start())
    net.run()
    assert guest.started is True and host.start() == []


def test_a_rules_bug_is_answered_not_raised_and_changes_nothing(kit, monkeypatch):
    host, net = kit.seated()
    before = json.dumps(host.snapshot(), sort_keys=True)

    def broken_apply(state, seat, action):
        raise KeyError("a bug in some game")

    monkeypatch.setattr(host.table.game, "apply", broken_apply)
    mover = host.table.to_act()[0]
    peer = {1: "pa", 2: "pb"}[mover]
    outbox = send(host, peer, "intent", seat=mover, action={"type": "dudo"}, version=0, seq=3)
    assert only_error(outbox, peer) == "sync_rules_failed"
    assert json.dumps(host.snapshot(), sort_keys=True) == before
