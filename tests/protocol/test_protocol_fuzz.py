"""Ten thousand hostile messages: each gets one error reply to its sender and changes nothing."""

import json
import random

from pyengine.protocol.envelope import MAX_INBOUND, PROTOCOL
from pyengine.games.perudo import GAME as PERUDO

SEEDED_MESSAGES = 10_000
FINISHED_MESSAGES = 1_000
NOW = 50_000
PEERS = {1: "pa", 2: "pb"}


def fingerprint(host) -> str:
    """Everything a hostile message must not change: table, log, seats, tokens, peers, revision."""
    peers = {p: (r.seat, r.seen, r.live) for p, r in host.peers.items()}
    return json.dumps([host.snapshot(), peers, host.rev], sort_keys=True)


def raw(kind, **fields) -> str:
    fields.setdefault("table", "room-1")
    return json.dumps({"v": PROTOCOL, "kind": kind, **fields}, separators=(",", ":"))


def ready_host(kit):
    """A game in progress, a guest to act, a bid on the table, and a few intents to replay."""
    host, net = kit.seated()
    replayable = []
    move = 0
    while not (host.table.state["bids"] and host.table.to_act()[0] in PEERS) or len(replayable) < 3:
        mover = host.table.to_act()[0]
        kit.play_one(host, net, seed=move)
        if mover in PEERS:
            replayable.append((PEERS[mover], host.table.log[-1], host.table.version - 1))
        move += 1
    net.now = NOW
    for peer in ("pa", "pb", "pw"):
        host.peers[peer].seen = NOW
    return host, [
        (peer, raw("intent", seat=e["seat"], action=e["action"], version=v, seq=1))
        for peer, e, v in replayable
    ]


class Hostile:
    """Seeded generator of messages that must all be refused by ``host`` as it stands."""

    def __init__(self, host, replays, rng):
        self.host = host
        self.replays = replays
        self.rng = rng
        self.version = host.table.version
        self.mover = host.table.to_act()[0] if not host.table.is_over() else 1
        self.mover_peer = PEERS[self.mover]
        self.other_peer = PEERS[3 - self.mover]
        self.legal = (
            PERUDO.legal_actions(host.table.state, self.mover)
            if not host.table.is_over()
            else [{"type": "dudo"}]
        )
        last = host.table.state["bids"][-1] if host.table.state["bids"] else {"count": 1, "face": 2}
        self.illegal = [
            {"type": "bid", "count": 0, "face": 3},
            {"type": "bid", "count": 1000, "face": 3},
            {"type": "bid", "count": 3, "face": 0},
            {"type": "bid", "count": 3, "face": 7},
            {"type": "bid", "count": "3", "face": 3},
            {"type": "bid", "count": True, "face": 3},
            {"type": "bid", "count": 3},
            {"type": "bid", "count": last["count"], "face": last["face"]},
            {"type": "bid", "count": 3, "face": 3, "extra": 1},
            {"type": "dudo", "x": 1},
            {"type": "calza"},
            {"type": "fly"},
            {"type": "Dudo"},
        ]

    def pick(self, values):
        return values[self.rng.randrange(len(values))]

    def valid_intent(self, **changes):
        fields = dict(seat=self.mover, action=self.pick(self.legal), version=self.version, seq=5)
        fields.update(changes)
        return raw("intent", **fields)

    # Each generator returns (peer, text): one kind of attack.
    def garbage(self):
        valid = self.valid_intent()
        choice = self.rng.randrange(6)
        if choice == 0:
            return self.mover_peer, valid[: self.rng.randrange(len(valid))]
        if choice == 1:
            return self.mover_peer, "".join(
                chr(self.rng.randrange(0, 0x3000)) for _ in range(self.rng.randrange(1, 60))
            )
        if choice == 2:
            return self.mover_peer, self.pick([None, 5, b"{}", ["x"], {"v": 1}, 1.5])
        if choice == 3:
            return self.mover_peer, self.pick(
                ["null", "[]", "7", '"intent"', "{}", "true", '{"v":1,"v":1}', "NaN"]
            )
        if choice == 4:
            return self.mover_peer, "[" * self.rng.randrange(13, 4000)
        version = f'"v":{PROTOCOL}'
        assert valid.startswith("{" + version + ",")
        others = ["0", str(PROTOCOL + 1), "true", f'"{PROTOCOL}"', f"{PROTOCOL}.0", "null"]
        return self.mover_peer, valid.replace(version, '"v":' + self.pick(others), 1)

    def oversized(self):
        padding = "x" * (MAX_INBOUND + self.rng.randrange(1, 5000))
        return self.mover_peer, self.valid_intent(action={"type": "bid", "pad": padding})

    def wrong_types(self):
        field, values = self.pick(
            [
                ("table", ["", "room 1", 5, None, "room-2", "r" * 65]),
                ("seat", [True, -1, 64, "1", 1.5, [], {}]),
                ("action", ["dudo", None, {}, {"type": 5}, {"type": ""}, [1], {"type": "x" * 40}]),
                ("version", [-1, "0", 1.5, True, None, 1 << 60, []]),
                ("seq", [-1, "1", None, 1.5, False, 1 << 54]),
            ]
        )
        return self.mover_peer, self.valid_intent(**{field: self.pick(values)})

    def shape(self):
        message = json.loads(self.valid_intent())
        choice = self.rng.randrange(4)
        if choice == 0:
            del message[self.pick(sorted(message))]
        elif choice == 1:
            message[self.pick(["extra", "Seat", "token", "__proto__", "vv"])] = 1
        elif choice == 2:
            message["kind"] = self.pick(
                ["welcome", "state", "pong", "error", "Intent", "act", "", "leave"]
            )
        else:
            message["kind"] = self.pick([None, 1, [], {}, True])
        return self.mover_peer, json.dumps(message)

    def wrong_sender(self):
        peer = self.pick([self.other_peer, "pw", "stranger", "p" * 128])
        return peer, self.valid_intent(seat=self.pick([self.mover, 0, 1, 2, 3, 63]))

    def stale(self):
        version = self.pick(
            [v for v in (0, self.version - 1, self.version + 1, self.version + 50) if v >= 0]
        )
        return self.mover_peer, self.valid_intent(version=version)

    def replayed(self):
        return self.pick(self.replays)

    def illegal_action(self):
        return self.mover_peer, self.valid_intent(action=self.pick(self.illegal))

    def forged_token(self):
        tokens = [t for t in self.host.tokens if t]
        real = self.pick(tokens)
        forged = self.pick(
            [
                real[:-1] + ("Q" if real[-1] != "Q" else "R"),
                real.upper() if real.upper() != real else real.lower() + "x",
                "".join(self.pick("abcdefghijklmnopqrstuvwxyz0123456789_-") for _ in range(22)),
                real + "x",
            ]
        )
        peer = self.pick(["stranger", "pw", self.mover_peer, "pa", "pb"])
        return peer, raw("rejoin", seat=self.pick([0, 1, 2, 3]), token=forged)

    def stolen_token(self):
        """A seated peer shows another seat's real token: it may not hold two seats."""
        return self.mover_peer, raw(
            "rejoin", seat=3 - self.mover, token=self.host.tokens[3 - self.mover]
        )

    def bad_join(self):
        choice = self.rng.randrange(3)
        if choice == 0:
            return self.pick(["stranger", "x1", "pw"]), raw(
                "join", seat=self.pick([0, 1, 2, 3, 40]), name="Eve"
            )
        if choice == 1:
            peer = self.pick(["pa", "pb"])
            elsewhere = 3 - (1 if peer == "pa" else 2)
            return peer, raw("join", seat=self.pick([None, 0, elsewhere]), name="Eve")
        return "stranger", raw(
            "join", seat=None, name=self.pick(["\n", "x" * 25, 7, None, "\u0000", "a\u2028"])
        )

    def not_joined(self):
        return self.pick(["stranger", "ghost"]), self.pick(
            [raw("sync"), raw("ping", t=5), self.valid_intent()]
        )

    def bad_peer(self):
        return self.pick([None, 7, "", "p" * 129, ("pa",)]), self.valid_intent()

    def all(self):
        return [
            self.garbage,
            self.oversized,
            self.wrong_types,
            self.shape,
            self.wrong_sender,
            self.stale,
            self.replayed,
            self.illegal_action,
            self.forged_token,
            self.stolen_token,
            self.bad_join,
            self.not_joined,
            self.bad_peer,
        ]


def bombard(host, hostile, count, rng):
    generators = hostile.all()
    codes = {}
    before = fingerprint(host)
    for _ in range(count):
        attack = generators[rng.randrange(len(generators))]
        peer, text = attack()
        outbox = host.receive(peer, text, NOW)
        if attack == hostile.bad_peer:
            assert outbox == []
        else:
            assert len(outbox) == 1, (attack.__name__, text, outbox)
            to, reply = outbox[0]
            message = json.loads(reply)
            assert to == peer and message["kind"] == "error", (attack.__name__, text, message)
            assert message["reason"] and isinstance(message["code"], str)
            codes.setdefault(attack.__name__, set()).add(message["code"])
        assert fingerprint(host) == before, (attack.__name__, text)
    return codes


def test_a_live_table_refuses_ten_thousand_hostile_messages_and_stays_unchanged(kit):
    host, replays = ready_host(kit)
    rng = random.Random(20261122)
    codes = bombard(host, Hostile(host, replays, rng), SEEDED_MESSAGES, rng)
    seen = set().union(*codes.values())
    assert {
        "sync_bad_json",
        "sync_too_big",
        "sync_protocol",
        "sync_not_object",
        "sync_unknown_kind",
        "sync_missing_field",
        "sync_extra_field",
        "sync_bad_field",
        "sync_wrong_table",
        "sync_not_joined",
        "sync_not_your_seat",
        "sync_stale",
        "sync_bad_token",
        "sync_already_seated",
        "sync_seat_taken",
        "sync_no_such_seat",
    } <= seen
    assert codes["replayed"] == {"sync_stale"}
    assert codes["stolen_token"] == {"sync_already_seated"}
    assert len(codes["illegal_action"] - {"sync_bad_field"}) >= 4  # the rules' own refusals


def test_a_finished_table_refuses_everything_too(kit):
    host, net = kit.seated()
    while not host.table.is_over():
        kit.play_one(host, net, seed=host.table.version)
    for peer in ("pa", "pb", "pw"):
        host.peers[peer].seen = NOW
    rng = random.Random(7)
    hostile = Hostile(
        host, [("pa", raw("intent", seat=1, action={"type": "dudo"}, version=0, seq=1))], rng
    )
    codes = bombard(host, hostile, FINISHED_MESSAGES, rng)
    assert "game_over" in set().union(*codes.values())
    outbox = host.receive(
        "pa", raw("intent", seat=1, action={"type": "dudo"}, version=host.table.version, seq=9), NOW
    )
    assert json.loads(outbox[0][1])["code"] == "game_over"


def test_a_guest_survives_thousands_of_broken_host_messages(kit):
    """A broken or hostile host may mislead a guest, but never crash it."""
    host, net = kit.seated()
    genuine = []
    original = host.receive

    def recording(peer, text, now):
        outbox = original(peer, text, now)
        genuine.extend(t for p, t in outbox if p == "pa")
        return outbox

    host.receive = recording
    while not host.table.is_over():
        kit.play_one(host, net, seed=host.table.version)
    net.advance(5_000)
    assert {json.loads(t)["kind"] for t in genuine} >= {"state", "pong"}
    guest = net.guests["pa"]
    rng = random.Random(99)
    wrong = [None, True, -3, 1.5, "x", [], {}, 1 << 60, "\ud800"]
    for _ in range(3_000):
        text = genuine[rng.randrange(len(genuine))]
        choice = rng.randrange(4)
        if choice == 0:
            text = text[: rng.randrange(len(text))]
        elif choice == 1:
            at = rng.randrange(len(text))
            text = text[:at] + chr(rng.randrange(32, 127)) + text[at + 1 :]
        else:
            message = json.loads(text)
            field = rng.choice(sorted(message))
            message[field] = rng.choice(wrong) if choice == 2 else {"deep": [[[[[[[[[[[[[1]]]]]]]]]]]]]}
            text = json.dumps(message)
        replies = guest.receive(text, net.now)
        assert isinstance(replies, list) and all(isinstance(r, str) for r in replies)
        assert guest.status in ("seated", "watching", "connecting", "host_lost", "refused")
    assert guest.ignored > 1_000
