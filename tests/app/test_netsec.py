"""Issue 13's network findings on the worker's side: the room code and table id the page
sends, the 256-bit key behind a shared table's chance, names that cannot pass for someone
else's, and what the host tells a seated guest (the room code, for its way back)."""

import json

import pytest

from pyengine.core.rng import Rng, derive_key, is_key
from pyengine.protocol import Guest, Host, MemoryNetwork
from pyengine.protocol.envelope import PROTOCOL
from pyengine.protocol.host import clean_name, unique_name
from pyengine.core.table import Table
from pyengine.shell.calls import Worker
from tests.app.test_shared_table import FIELDS, ROOM, Tabs, new_table, play_turn

NO_SEED = {k: v for k, v in FIELDS.items() if k != "seed"}


def test_a_shared_table_is_keyed_by_256_bits_that_never_leave_the_host():
    """Finding 3: one 53-bit seed was the only secret behind every die. Now the key is 256
    random bits, in the host's save only: no text sent to any guest, and no screen, holds it
    (nor the generator's state), through a whole game."""
    import random

    tabs = Tabs()
    new_table(tabs, fields=NO_SEED)
    table = tabs.table()
    key = table.seed
    assert is_key(key) and len(key) == 64
    assert tabs.host_call("net_host_command", {"start": True})["ok"]
    tabs.settle()
    rng = random.Random(3)
    for _ in range(40):
        if table.is_over():
            break
        play_turn(tabs, rng)
    sent = [text for texts in tabs.delivered.values() for text in texts]
    assert sent and all(key not in text for text in sent)
    assert all('"rng"' not in text and '"counter"' not in text for text in sent)
    assert all(key not in html for html in tabs.screens.values())
    assert json.loads(tabs.host.tables["host"].saved)["table"]["seed"] == key  # kept for reloads


def test_a_key_is_a_seed_like_any_other_and_rematches_keep_a_key():
    key = "ab" * 32
    first, again = Table("perudo", {}, [{"kind": "human", "name": "A"}] * 3, key), None
    again = Table.from_dict(json.loads(json.dumps(first.to_dict())))
    assert again.state == first.state  # deterministic, and survives JSON as text
    assert Rng(key).below(1 << 40) == Rng(key).below(1 << 40) != Rng("cd" * 32).below(1 << 40)
    host = Host.create("perudo", {}, [{"kind": "bot", "name": "B", "level": "easy"}] * 2, key, "t1")
    host.start()
    while not host.table.is_over():
        host.play_bot()
    host.rematch()
    assert is_key(host.table.seed) and host.table.seed == derive_key(key, "rematch", host.base - 1)


@pytest.mark.parametrize(
    "typed, shown",
    [
        ("Ana", "Ana"),
        ("  Bea   Lu  ", "Bea Lu"),
        ("\u202eanA", "anA"),  # a right-to-left override reversing how a name reads
        ("A\u200bna", "Ana"),  # zero-width space
        ("Ca\u2066rla\u2069", "Carla"),  # isolates
        ("Dudu\u00a0Bo", "Dudu Bo"),  # a no-break space is a space
        ("\u202e\u200b", ""),
        # Issue 30: look-alike letters of another alphabet mixed in, blank-looking letters,
        # what the screens say in a seat's place, stacked accents.
        ("\u0410na", ""),  # a Cyrillic А
        ("Brun\u03bf", ""),  # a Greek ο
        ("\u3164\u3164\u3164", ""),  # Hangul fillers
        ("\u2800 \u2800", ""),  # blank Braille patterns
        ("Ana\u3164", "Ana"),
        ("On the host's device", ""),
        ("ON THE HOST'S   DEVICE", ""),
        ("No aparelho do anfitrião", ""),  # in each language
        ("0n the host\u2019s device", ""),  # a zero for the O, a curly apostrophe: same skeleton
        ("a" + "\u0301" * 23, "a\u0301\u0301"),
        ("Ng\u1ecdc", "Ng\u1ecdc"),  # Vietnamese: two marks on one letter are kept
        ("\u0410\u043d\u0430", "\u0410\u043d\u0430"),  # a Cyrillic name of Cyrillic letters
        ("山田 Taro", "山田 Taro"),  # Japanese writes Han and Latin together
    ],
)
def test_names_lose_what_would_disguise_them(typed, shown):
    assert clean_name(typed) == shown


def test_names_are_unique_at_a_table_whatever_the_case_or_width():
    assert unique_name("ana", ["Ana", "Bea"]) == "ana 2"
    assert unique_name("ＡＮＡ", ["Ana", "ana 2"]) == "ＡＮＡ 3"
    assert unique_name("Carla", ["Ana"]) == "Carla"
    assert unique_name("\u00c1na", ["Ana"]) == "\u00c1na 2"  # compared on skeletons: accents aside
    assert unique_name("A\u0301na", ["\u00e1na"]) == "A\u0301na 2"
    long = "x" * 24
    assert unique_name(long, [long]) == "x" * 22 + " 2"


def test_names_made_of_another_alphabets_look_alikes_are_the_name_they_imitate():
    """Issue 30: a name wholly in look-alike letters of another alphabet passed beside the
    name it imitates. Names are compared on UTS #39 skeletons as well now."""
    assert unique_name("\u0391\u039d\u0391", ["ANA"]) == "\u0391\u039d\u0391 2"  # Greek capitals
    assert unique_name("\u0410\u0441\u0430", ["Aca"]) == "\u0410\u0441\u0430 2"  # Cyrillic
    assert unique_name("AIex", ["Alex"]) == "AIex 2"  # a capital I for the l
    assert unique_name("IGOR", ["igor"]) == "IGOR 2"  # and case is still folded
    assert unique_name("\u0410\u043d\u0430", ["Ana"]) == "\u0410\u043d\u0430"  # Cyrillic "Ана" reads "Aha": another name
    assert unique_name("Ivan", ["Lvan"]) == "Ivan"  # the skeleton keeps case: "L" is no "I"


def test_a_guest_cannot_take_the_hosts_name_nor_hide_behind_bidi_characters():
    """Finding 7: a guest took the host's exact name, or used right-to-left overrides."""
    tabs = Tabs()
    new_table(tabs, guests=(("pa", 1, "Ana"), ("pb", 2, "\u202eanA")))
    names = [seat["name"] for seat in tabs.table().seats]
    assert names == ["Ana", "Ana 2", "anA 3"]  # "anA" reads as "Ana" once the override is gone
    html = tabs.screens["pa"]
    assert "\u202e" not in html and "Ana 2" in html
    assert "On the host&#x27;s device" in html or "On the host's device" in html  # the host is marked


def test_the_room_code_the_page_sends_is_checked_and_kept_apart_from_the_table_id():
    tabs = Tabs()
    reply = new_table(tabs, guests=())
    hosted = tabs.host.tables["host"]
    assert reply["table"] == ROOM["table"] and hosted.host.room == ROOM["code"]
    assert json.loads(hosted.saved)["room"] == ROOM["code"]
    assert ROOM["code"] not in json.dumps(hosted.host.snapshot())  # the protocol's half knows only the id
    for room in ({"code": "7K3QWX9TPM2", "table": "t"}, {"code": "7K3QWX9TPM2I", "table": "t"},
                 {"code": ROOM["code"], "table": "bad id!"}, {"code": ROOM["code"]}, "7K3QWX9TPM2D"):
        reply = json.loads(Worker().net_host_create(json.dumps({"game": "perudo", "fields": FIELDS, "room": room}), 1, "en"))
        assert not reply["ok"] and reply["error"]["code"] == "net_bad_room", room
    plain = json.loads(Worker().net_host_create(json.dumps({"game": "perudo", "fields": FIELDS}), 1, "en"))
    assert plain["ok"] and 'data-testid="room-code"' not in plain["html"]  # no Web Crypto: invites only
    damaged = json.loads(hosted.saved)
    damaged["room"] = "not a code"
    reply = json.loads(Worker().net_host_resume(json.dumps(damaged), 1, "en"))
    assert not reply["ok"] and reply["error"]["code"] == "net_save_room"


def test_only_a_seated_guest_is_told_the_room_code_to_find_the_host_again():
    host = Host.create("perudo", {}, [{"kind": "human", "name": "A"}, {"kind": "remote", "name": ""}], 5, "t1")
    host.room = ROOM["code"]
    net = MemoryNetwork(host, now=1_000)
    net.add_guest("pa", Guest("t1", "Bea", seat=1))
    net.add_guest("pw", Guest("t1", "Watcher"))
    net.run()
    assert net.guests["pa"].room == ROOM["code"] and net.guests["pa"].snapshot()["room"] == ROOM["code"]
    assert net.guests["pw"].room is None
    again = Guest.from_snapshot(net.guests["pa"].snapshot())
    assert again.room == ROOM["code"]


def test_the_host_removes_a_spectator_who_is_then_not_heard_again():
    """Finding 6: the host could not remove a spectator."""
    from tests.app.screens import buttons

    tabs = Tabs()
    new_table(tabs, guests=(("pa", 1, "Bea"), ("pw", None, "\u202eZé")))
    html = tabs.screens["host"]
    removes = [b for b in buttons(html, "data-host") if "remove" in b]
    assert removes == [{"remove": "pw"}] and 'data-testid="watcher-0"' in html and "\u202e" not in html
    reply = tabs.host_call("net_host_command", removes[0])
    assert reply["ok"] and 'data-testid="watcher-0"' not in reply["html"]
    tabs.run()
    watcher = tabs.guests["pw"].tables["guest"].guest
    assert watcher.status == "refused" and watcher.error["code"] == "sync_removed"
    assert "The host removed you from this table." in tabs.screens["pw"]
    hello = json.dumps({"v": PROTOCOL, "kind": "join", "table": ROOM["table"], "seat": None, "name": "again"})
    assert tabs.host_call("net_host_receive", "pw", hello)["outbox"] == []  # dropped unread
    refused = tabs.host_call("net_host_command", {"remove": "pa"})  # a seated guest is no spectator
    assert not refused["ok"] and refused["error"]["code"] == "sync_no_watcher"


def test_a_hosted_table_tells_its_seated_guests_the_room_code():
    tabs = Tabs()
    new_table(tabs, guests=(("pa", 1, "Bea"), ("pw", None, "Zé")))
    assert tabs.guests["pa"].tables["guest"].guest.room == ROOM["code"]
    assert json.loads(tabs.guests["pa"].tables["guest"].saved)["room"] == ROOM["code"]
    assert tabs.guests["pw"].tables["guest"].guest.room is None


@pytest.mark.parametrize("game_id", sorted(__import__("pyengine.core.registry", fromlist=["x"]).playable_games()))
def test_no_view_of_any_game_holds_the_key_or_the_generators_state(game_id):
    """Every game, every seat and the spectator, along 60 bot moves from a 256-bit key."""
    from pyengine.core.registry import get_game

    game = get_game(game_id)
    key = "5e" * 32
    seats = [{"kind": "bot", "name": f"B{i}", "level": game.bot_levels[0]} for i in range(game.min_seats)]
    table = Table(game_id, {}, seats, key)
    for _ in range(60):
        for seat in [*range(len(seats)), None]:
            text = json.dumps(table.view(seat))
            assert key not in text and '"rng"' not in text, (game_id, seat)
        movers = table.to_act()
        if not movers:
            break
        table.act(movers[0], table.bot_action(movers[0]))


def test_a_guest_who_typed_the_code_sees_the_code_not_the_derived_id():
    worker = Worker()
    request = {"table": ROOM["table"], "seat": None, "name": "Bea", "room": ROOM["code"]}
    reply = json.loads(worker.net_guest_join(json.dumps(request), 1, "en"))
    assert reply["ok"] and "7K3Q-WX9T-PM2D" in reply["html"] and ROOM["table"] not in reply["title"]


def test_the_host_page_kicks_a_flooding_guest_with_a_protocol_error_made_by_python():
    """The page only counts messages; the ``error`` telling the guest why comes from the
    worker (``net_host_kick``), and the guest's seat shows absent as after a dropped channel."""
    tabs = Tabs()
    new_table(tabs, guests=(("pa", 1, "Bea"), ("pb", 2, "Caio")))
    reply = tabs.host_call("net_host_kick", "pa", "flooded")
    assert reply["ok"]
    (peer, text), *changes = reply["outbox"]
    message = json.loads(text)
    assert peer == "pa" and message["kind"] == "error" and message["code"] == "sync_flooded"
    assert message["table"] == ROOM["table"] and message["ref"] is None
    assert changes and all(to != "pa" or json.loads(t)["kind"] != "error" for to, t in changes)
    seats = tabs.host.tables["host"].host.public_seats()
    assert not seats[1]["connected"] and seats[2]["connected"]
    tabs.run()
    bea = tabs.guests["pa"].tables["guest"].guest
    assert bea.status == "refused" and bea.error["code"] == "sync_flooded"


def test_the_host_page_can_kick_only_for_a_known_reason_and_only_a_peer():
    tabs = Tabs()
    new_table(tabs)
    wrong = tabs.host_call("net_host_kick", "pa", "rude")
    assert not wrong["ok"] and wrong["error"]["code"] == "net_bad_command" and wrong["outbox"] == []
    nobody = tabs.host_call("net_host_kick", "", "flooded")
    assert not nobody["ok"] and nobody["error"]["code"] == "net_bad_peer"
