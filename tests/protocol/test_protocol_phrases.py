"""A word to your friends: premade phrases over the shared table's protocol (protocol.phrases).

An honest phrase reaches every device; a guest's page paces itself, and a guest that floods
the host anyway is held to the host's pace; an id the game does not offer, or any phrase at a
table that switched them off (Botifarra's default), is refused with a translated reason and
shown nowhere; a device's mutes survive a save and a restore."""

import json

import pytest

from pyengine.core.registry import get_declaration
from pyengine.i18n import LANGUAGES, Translator
from pyengine.protocol import Guest, Host, MemoryNetwork, ProtocolError
from pyengine.protocol.envelope import encode
from pyengine.protocol.phrases import MINUTE, PER_MINUTE, SHOW_MS, Board

TABLE_ID = "room-1"


def shown(board) -> dict:
    """``{seat: phrase}`` of what a device shows now."""
    return {seat: phrase for seat, (phrase, _) in board.shown().items()}


def test_a_guests_phrase_shows_beside_its_seat_on_every_device_then_goes(kit):
    host, net = kit.seated()
    ana, bea, watcher = net.guests["pa"], net.guests["pb"], net.guests["pw"]
    assert ana.phrases_on and watcher.phrases_on  # Perudo's default, told in the welcome
    net.guest_says("pa", ana.say("dudo", net.now))
    net.run()
    for board in (host.board, ana.board, bea.board, watcher.board):
        assert shown(board) == {1: "dudo"}
    net.host_says(host.say(0, "thumbs_up", net.now))  # the host's own player
    net.run()
    assert shown(bea.board) == {0: "thumbs_up", 1: "dudo"}
    net.advance(SHOW_MS)  # the clock's tick: gone from every screen, no page timer involved
    assert all(shown(board) == {} for board in (host.board, ana.board, bea.board, watcher.board))


def test_the_host_holds_a_flooding_guest_to_its_pace_and_an_honest_page_never_sends_faster(kit):
    host, net = kit.seated()
    flood = encode("say", table=TABLE_ID, seat=1, phrase="oops")
    kinds = []
    for _ in range(50):  # a guest's page that skips its own pace
        kinds += [(peer, json.loads(text).get("code", "said")) for peer, text in host.receive("pa", flood, net.now)]
    relayed = [peer for peer, code in kinds if code == "said"]
    assert sorted(relayed) == sorted(["pa", "pb", "pw"] * PER_MINUTE)  # every device hears the few
    assert [code for _, code in kinds if code != "said"] == ["phrase_too_fast"] * (50 - PER_MINUTE)
    assert shown(host.board) == {1: "oops"}
    other = host.receive("pb", encode("say", table=TABLE_ID, seat=2, phrase="oops"), net.now)
    assert [json.loads(text)["kind"] for _, text in other] == ["said"] * 3  # the others keep their pace
    later = host.receive("pa", flood, net.now + MINUTE)  # a minute on, the flooder may speak again
    assert [json.loads(text)["kind"] for _, text in later] == ["said"] * 3

    bea = net.guests["pb"]  # an honest page: its own pace, a little slower than the host's
    assert all(bea.say("thanks", net.now + second * 1000) for second in range(PER_MINUTE))
    with pytest.raises(ProtocolError) as refused:
        bea.say("thanks", net.now + MINUTE)
    assert refused.value.code == "phrase_too_fast"
    assert bea.say("thanks", net.now + MINUTE + 2_000)


def test_an_unknown_id_is_refused_with_a_reason_and_shown_nowhere(kit):
    host, net = kit.seated()
    ana, bea = net.guests["pa"], net.guests["pb"]
    with pytest.raises(ProtocolError) as refused:
        ana.say("visca", net.now)  # Botifarra's, not Perudo's
    assert refused.value.code == "phrase_unknown"
    outbox = host.receive("pa", encode("say", table=TABLE_ID, seat=1, phrase="free_text"), net.now)
    assert [(peer, json.loads(text)["code"]) for peer, text in outbox] == [("pa", "phrase_unknown")]
    # Another's seat is not the sender's to speak for.
    outbox = host.receive("pa", encode("say", table=TABLE_ID, seat=2, phrase="oops"), net.now)
    assert [json.loads(text)["code"] for _, text in outbox] == ["sync_not_your_seat"]
    # A host that relays an id this build does not offer: the guest shows nothing, says why.
    assert bea.receive(encode("said", table=TABLE_ID, seat=1, phrase="zzz"), net.now) == []
    assert shown(bea.board) == {} and shown(host.board) == {} and bea.error["code"] == "phrase_unknown"
    for lang in LANGUAGES:
        reason = Translator(lang).error(ProtocolError("", "phrase_unknown"))
        assert reason and reason != "err.phrase_unknown"
    # Not even text that would be markup gets past the wire's shape.
    outbox = host.receive("pa", encode("say", table=TABLE_ID, seat=1, phrase="<b>hi</b>"), net.now)
    assert [json.loads(text)["code"] for _, text in outbox] == ["sync_bad_field"]


def botifarra_host(phrases=None) -> Host:
    seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "remote", "name": ""} for _ in range(3)]
    return Host.create("botifarra", {}, seats, 5, TABLE_ID, phrases=phrases)


def test_a_botifarra_table_starts_with_phrases_off_and_refuses_them():
    assert not get_declaration("botifarra").phrases.on and get_declaration("perudo").phrases.on
    host = botifarra_host()
    net = MemoryNetwork(host, now=1_000)
    net.add_guest("pa", Guest(TABLE_ID, "Bea", seat=1))
    net.run()
    guest = net.guests["pa"]
    assert guest.status == "seated" and not guest.phrases_on
    with pytest.raises(ProtocolError) as refused:
        guest.say("good_game", net.now)
    assert refused.value.code == "phrase_off"
    outbox = host.receive("pa", encode("say", table=TABLE_ID, seat=1, phrase="good_game"), net.now)
    assert [json.loads(text)["code"] for _, text in outbox] == ["phrase_off"]
    with pytest.raises(ProtocolError):
        host.say(0, "visca", net.now)
    assert shown(host.board) == {}
    # The host may switch them on when setting the table up; the switch is in its save.
    on = botifarra_host(phrases=True)
    assert Host.from_snapshot(json.loads(json.dumps(on.snapshot()))).phrases_on
    assert not Host.from_snapshot(json.loads(json.dumps(host.snapshot()))).phrases_on


def test_mutes_are_kept_with_the_table_across_a_save_and_a_restore(kit):
    host, net = kit.seated()
    ana = net.guests["pa"]
    ana.board.mute(2)
    host.board.mute(1)
    guest_back = Guest.from_snapshot(json.loads(json.dumps(ana.snapshot())))
    host_back = Host.from_snapshot(json.loads(json.dumps(host.snapshot())))
    assert guest_back.board.muted == {2} and host_back.board.muted == {1}
    net.replace_host(host_back)  # both reloaded: each guest comes back with its token
    net.add_guest("pa", guest_back)
    net.guest_says("pb", net.guests["pb"].start(net.now))
    net.run()
    assert guest_back.status == "seated" and net.guests["pb"].status == "seated"
    net.guest_says("pb", net.guests["pb"].say("oops", net.now))
    net.host_says(host_back.say(0, "oops", net.now))
    net.run()
    assert shown(guest_back.board) == {0: "oops"}  # Bea's is muted on Ana's device
    net.guest_says("pa", guest_back.say("oops", net.now))
    net.run()
    assert shown(host_back.board) == {0: "oops", 2: "oops"}  # Ana's muted on the host's
    guest_back.board.mute(2)  # heard again
    assert shown(guest_back.board) == {0: "oops", 1: "oops", 2: "oops"}
    with pytest.raises(Exception):
        Board.from_json([7], 3)  # a mute of a seat the table has not got
