"""Junk into every worker call of a shared table: a JSON reply always comes back, and a
refusal (``ok: false``) changed nothing (table, save, screen, outbox)."""

import json
import random

from pyengine.protocol.envelope import encode
from pyengine.shell.calls import Worker as NetWorker

FIELDS = {"seat0_kind": "human", "seat1_kind": "remote", "seat2_kind": "bot:easy", "seed": "3"}
KEYS = ["type", "count", "face", "seat", "kind", "level", "start", "close", "take_seat", "retry", "watch", "handoff", "v", "table"]
ATOMS = [None, True, False, 0, 1, -1, 2, 7, 2**53, 2**64, 1.5, "", "bid", "dudo", "bot", "remote", "easy", "x" * 300]


def junk_value(rng, depth=0):
    roll = rng.random()
    if depth > 2 or roll < 0.5:
        return rng.choice(ATOMS)
    if roll < 0.75:
        return [junk_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {rng.choice(KEYS): junk_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def junk_text(rng, table_id):
    roll = rng.random()
    if roll < 0.15:
        return "".join(rng.choice('{}[]":,0aé\\\x00') for _ in range(rng.randrange(20)))
    if roll < 0.25:
        return "NaN" if rng.random() < 0.5 else '{"type": Infinity}'
    if roll < 0.5:  # shaped like a protocol message, with junk fields
        fields = {rng.choice(KEYS): junk_value(rng) for _ in range(rng.randrange(4))}
        fields.pop("kind", None)
        fields.setdefault("table", table_id)
        return encode(rng.choice(["join", "rejoin", "intent", "sync", "ping", "state", "welcome"]), **fields)
    return json.dumps(junk_value(rng))


def junk_arg(rng, table_id):
    roll = rng.random()
    if roll < 0.6:
        return junk_text(rng, table_id)
    return rng.choice(ATOMS)


def test_junk_into_every_call_is_answered_and_refusals_change_nothing():
    rng = random.Random(20)
    worker = NetWorker()
    created = json.loads(worker.net_host_create(json.dumps({"game": "perudo", "fields": FIELDS}), 1_000, "en"))
    table_id = created["table"]
    guest = NetWorker()
    guest.net_guest_join(json.dumps({"table": table_id, "seat": 1, "name": "Bea"}), 1_000, "en")
    # Seated and started, so junk meets a table in play.
    for _, hello in json.loads(guest.net_guest_connected(1_000, "en"))["outbox"]:
        for _, text in json.loads(worker.net_host_receive("pa", hello, 1_000, "en"))["outbox"]:
            guest.net_guest_receive_all(json.dumps([text]), 1_000, "en")
    for _, text in json.loads(worker.net_host_command('{"start":true}', 1_000, "en"))["outbox"]:
        guest.net_guest_receive_all(json.dumps([text]), 1_000, "en")
    assert guest.tables["guest"].guest.status == "seated" and guest.tables["guest"].guest.started
    host_calls = ["net_host_receive", "net_host_receive_all", "net_host_act", "net_host_ui", "net_host_command", "net_host_dropped", "net_host_tick", "net_host_bot_step", "net_host_phrase"]
    guest_calls = ["net_guest_receive_all", "net_guest_act", "net_guest_ui", "net_guest_tick", "net_guest_dropped", "net_guest_connected", "net_guest_phrase"]
    arities = {"net_host_receive": 2, "net_host_tick": 0, "net_host_bot_step": 0, "net_guest_tick": 0, "net_guest_dropped": 0, "net_guest_connected": 0}
    refusals = 0
    for round_ in range(3_000):
        side, name = (worker, rng.choice(host_calls)) if rng.random() < 0.6 else (guest, rng.choice(guest_calls))
        args = [junk_arg(rng, table_id) for _ in range(arities.get(name, 1))]
        now = rng.choice([1_000 + round_, 1_000 + round_, "later", -5, None, float("inf")])
        hosted = side.tables["host"]
        table = hosted.host.table if side is worker and hosted else None
        before = (
            (list(table.log), [dict(s) for s in table.seats], hosted.saved, hosted.shown)
            if table is not None
            else (side.tables["guest"].saved, side.tables["guest"].shown, side.tables["guest"].guest.status)
        )
        reply = json.loads(getattr(side, name)(*args, now, rng.choice(["en", "pt", "xx", 5])))
        assert isinstance(reply["ok"], bool) and isinstance(reply["outbox"], list)
        if not reply["ok"]:
            refusals += 1
            assert reply["message"] and reply["html"] is None and reply["outbox"] == [] and reply["save"] is None
            after = (
                (list(table.log), [dict(s) for s in table.seats], hosted.saved, hosted.shown)
                if table is not None
                else (side.tables["guest"].saved, side.tables["guest"].shown, side.tables["guest"].guest.status)
            )
            assert after == before, name
    assert refusals > 1_000
