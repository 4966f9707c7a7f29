"""The summary every save comes with: what the lobby's list of games in progress shows
(game, players, whether it ended) without reading the save itself."""

import json

from pyengine.shell.calls import Worker


def test_a_new_table_and_each_move_come_with_a_summary():
    worker = Worker()
    fields = {"seat0_kind": "human", "seat0_name": "Ana", "seat1_kind": "bot:easy", "seed": "3"}
    reply = json.loads(worker.start(json.dumps({"game": "lasca", "fields": fields}), "en"))
    assert reply["save"] and reply["summary"] == {"game": "lasca", "players": ["Ana", "Bot 2"], "over": False}
    again = json.loads(worker.render("en"))
    assert again["save"] is None and again["summary"] is None  # nothing new to keep


def test_a_finished_table_says_so():
    worker = Worker()
    fields = {"seat0_kind": "bot:easy", "seat1_kind": "bot:easy", "seed": "9"}
    reply = json.loads(worker.start(json.dumps({"game": "lasca", "fields": fields}), "en"))
    while reply["status"] == "bot":
        reply = json.loads(worker.bot_step("en"))
    assert reply["status"] == "over" and reply["summary"]["over"] is True


def test_host_and_guest_saves_name_the_game_and_players():
    host = Worker()
    fields = {"seat0_kind": "human", "seat0_name": "Ana", "seat1_kind": "remote", "seed": "3"}
    created = json.loads(host.net_host_create(json.dumps({"game": "perudo", "fields": fields}), 1_000, "en"))
    assert created["summary"] == {"game": "perudo", "players": ["Ana", "Friend 2"], "over": False}
    guest = Worker()
    joined = json.loads(guest.net_guest_join(json.dumps({"table": created["table"], "seat": 1, "name": "Bea"}), 1_000, "en"))
    pending = [text for _, text in joined["outbox"]]
    last = None
    while pending:
        for _, text in json.loads(host.net_host_receive("pa", pending.pop(0), 1_000, "en"))["outbox"]:
            reply = json.loads(guest.net_guest_receive_all(json.dumps([text]), 1_000, "en"))
            last = reply if reply["save"] else last
            pending += [t for _, t in reply["outbox"]]
    assert last is not None and last["summary"]["game"] == "perudo"
    assert last["summary"]["players"][0] == "Ana"
