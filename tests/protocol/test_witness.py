"""A guest at a table that is not fair (``protocol.witness``): the host tells it each move and,
once the game is over, its whole record, which the guest keeps only if it replays through the
rules and agrees with everything the guest was shown; a forged or illegal one is refused with
a reason and changes nothing else."""

import base64
import json
import random
import zlib

import pytest

from pyengine.core.errors import BadSave

from pyengine.core.registry import get_game
from pyengine.protocol import Guest, Host
from tests.protocol.fair_table import TABLE_ID, TamperNetwork

SEATS = [{"kind": "human", "name": "Host"}, {"kind": "remote", "name": "A"}]
# A short game of two-player Botifarra: one hand, hands to 51 points at most.
BOTIFARRA = {"target": 51}


def table(game, options=None, tamper=None, seed=3):
    """A started table that is not fair: the host's seat, a guest's, and a spectator."""
    host = Host.create(game, options or {}, SEATS, seed, TABLE_ID)
    assert host.table.fair is None
    net = TamperNetwork(host, now=1_000)
    net.tamper = tamper
    net.add_guest("pa", Guest(TABLE_ID, "A", seat=1))
    net.add_guest("pw", Guest(TABLE_ID, "Watcher"))
    net.host_says(host.start())
    net.run()
    return host, net


def play(host, net, seed=1, until=None):
    """Random legal moves, each through its own device, until the game is over (or ``until``)."""
    rng = random.Random(seed)
    game = host.table.game
    while not host.table.is_over() and not (until and until(host.table)):
        seat = host.table.to_act()[0]
        action = rng.choice(game.legal_actions(host.table.state, seat))
        if seat == 0:
            net.host_says(host.act(0, action))
        else:
            net.guest_says("pa", net.guests["pa"].intend(action, net.now))
        net.run()


def test_an_honest_lasca_host_is_believed_and_its_game_kept_by_the_guest_and_the_spectator():
    sizes = []
    host, net = table("lasca", tamper=lambda peer, message: sizes.append((message["kind"], len(json.dumps(message)))))
    play(host, net)
    log = [(entry["seat"], entry["action"]) for entry in host.table.log]
    for peer in ("pa", "pw"):
        witness = net.guests[peer].witness
        assert witness.refusal is None
        record, states = witness.kept
        assert [(step["seat"], step["action"]) for step in record["steps"]] == log
        assert states[-1]["result"] == host.table.state["result"]
        # Every move told, each between the views before and after it, numbered in its game.
        assert [(number, seat, action) for number, seat, action, _, _ in witness.steps_seen()] == [
            (number, seat, action) for number, (seat, action) in enumerate(log, 1)]
    # One small message per move and peer; the whole record once per peer, at the end.
    steps = [size for kind, size in sizes if kind == "step"]
    assert len(steps) == 2 * len(log) and max(steps) < 200
    assert [kind for kind, _ in sizes].count("game_record") == 2


def test_a_two_player_botifarra_guest_is_told_the_moves_during_play_and_the_deal_only_at_the_end():
    sent = []

    def tamper(peer, message):
        sent.append(message)
        return peer == "pw" and forged(swap_two_dealt_cards)(peer, message)  # lies to the spectator only

    host, net = table("botifarra", BOTIFARRA, tamper=tamper)
    play(host, net, until=lambda table: table.state["hand_number"] > 1 or table.is_over())
    guest = net.guests["pa"]
    assert guest.witness.kept is None and not any(message["kind"] == "game_record" for message in sent)
    seen = guest.witness.steps_seen()
    assert len(seen) == host.table.version and all(after["you"] == 1 for *_, after in seen)
    play(host, net)
    record, states = guest.witness.kept
    assert get_game("botifarra").view(states[-1], 1) == guest.view
    assert record["setup"] and record["seats"] == host.table.seats
    # The spectator was sent a deal that is not the one played: it does not replay.
    watcher = net.guests["pw"]
    assert watcher.witness.kept is None and watcher.witness.refusal.code == "records.illegal_step"
    assert watcher.view == host.table.view(None) and watcher.error is None


def forged(change):
    """A host that rewrites its whole record with ``change(lines)`` before sending it."""
    def tamper(peer, message):
        if message["kind"] != "game_record":
            return False
        lines = message["text"].split("\n")
        change(lines)
        message["text"] = "\n".join(lines)
        return True
    return tamper


def swap_two_dealt_cards(lines):
    """The first deal written with a card of each player's first packet swapped: a legal
    deal, not the one played."""
    at = next(index for index, line in enumerate(lines) if line.startswith("~ "))
    cards = lines[at].split()
    deck = next(index for index, card in enumerate(cards) if card.startswith("["))  # after the turned cards
    cards[deck + 1], cards[deck + 5] = cards[deck + 5], cards[deck + 1]
    lines[at] = " ".join(cards)


def a_first_move_told_otherwise(peer, message):
    """A host that tells its guests another first move than the one it plays and records."""
    if message["kind"] == "step" and message["version"] == 1:
        message["action"] = {"type": "offer_draw"}
        return True
    return False


def test_a_host_that_shows_other_moves_than_it_records_is_refused_with_a_reason_and_nothing_else_changes():
    host, net = table("lasca", tamper=a_first_move_told_otherwise)
    play(host, net)
    guest = net.guests["pa"]
    assert guest.witness.kept is None and guest.witness.refusal.code == "sync_record_contradicts"
    assert guest.witness.refusal.params == {"step": 1}
    # The table itself goes on as the host showed it: the game over, this seat's view.
    assert guest.view == host.table.view(1) and guest.version == host.version and guest.error is None


def test_a_move_that_is_not_one_of_the_games_is_left_out_of_the_guests_account():
    def tamper(peer, message):
        if message["kind"] == "step" and message["version"] == 1:
            message["action"] = {"type": "fly", "to": 9}
            return True
        return False
    host, net = table("lasca", tamper=tamper)
    play(host, net, until=lambda table: table.version >= 3)
    assert [number for number, *_ in net.guests["pa"].witness.steps_seen()] == [2, 3]


def reload_guest(net, save=None, peer="pa"):
    """The guest's tab reloads: a new guest from its save (by default as it stored it), back in its seat."""
    back = Guest.from_snapshot(json.loads(json.dumps(save or net.guests[peer].snapshot())), "A")
    net.guests[peer] = back
    net.guest_says(peer, back.start(net.now))
    net.run()
    return back


def test_a_guest_reloaded_mid_game_still_tells_the_whole_game_and_keeps_it():
    host, net = table("lasca")
    play(host, net, seed=7, until=lambda table: table.version >= 20)
    back = reload_guest(net)
    assert [number for number, *_ in back.witness.steps_seen()] == list(range(1, 21))
    play(host, net, seed=7, until=lambda table: table.version >= 30)
    back = reload_guest(net)  # a second reload: the account saved after the first one is whole too
    assert [number for number, *_ in back.witness.steps_seen()] == list(range(1, 31))
    play(host, net, seed=7)
    assert len(host.table.log) > 40
    log = [(entry["seat"], entry["action"]) for entry in host.table.log]
    seen = back.witness.steps_seen()
    assert [(seat, action) for _, seat, action, _, _ in seen] == log
    assert [after for *_, after in seen] == [get_game("lasca").view(state, 1) for state in back.witness.kept[1][1:]]


def test_a_botifarra_guests_save_gives_back_every_view_it_was_shown():
    host, net = table("botifarra", BOTIFARRA)
    play(host, net, until=lambda table: table.state["hand_number"] > 1)
    seen = net.guests["pa"].witness.steps_seen()
    assert reload_guest(net).witness.steps_seen() == seen and len(seen) == host.table.version


def test_a_guest_told_another_move_before_its_reload_still_refuses_the_record():
    host, net = table("lasca", tamper=a_first_move_told_otherwise)
    play(host, net, until=lambda table: table.version >= 6)
    back = reload_guest(net)
    play(host, net)
    assert back.witness.kept is None and back.witness.refusal.params == {"step": 1}


def rewritten(save, change):
    """``save`` with its witness's account rewritten by ``change(account)``, as a tampered save would be."""
    account = json.loads(zlib.decompress(base64.b64decode(save["witness"])))
    change(account)
    return {**save, "witness": base64.b64encode(zlib.compress(json.dumps(account).encode())).decode()}


def test_a_tampered_account_in_a_guests_save_is_refused_with_a_reason_or_caught_at_the_end():
    host, net = table("lasca", tamper=None)
    play(host, net, until=lambda table: table.version >= 6)
    save = net.guests["pa"].snapshot()
    refused = {
        "not base64": {**save, "witness": "%%%"},
        "not a number": {**save, "witness": 7},
        "another game": rewritten(save, lambda account: account.update(game="chess")),
        "a view that does not fit": rewritten(save, lambda account: account["views"][2][1].update(turn="x")),
        "a view told twice": rewritten(save, lambda account: account["views"][1].__setitem__(0, account["views"][0][0])),
        "not a move": rewritten(save, lambda account: account["steps"][0].__setitem__(2, {"type": "fly"})),
        "a seat that is not one": rewritten(save, lambda account: account["steps"][0].__setitem__(1, -1)),
        "too long": {**save, "witness": base64.b64encode(zlib.compress(b" " * 5_000_000)).decode()},
    }
    for why, data in refused.items():
        with pytest.raises(BadSave) as caught:
            Guest.from_snapshot(data)
        assert caught.value.code == "sync_save_seat", why
    # A move that fits but is not the one shown: believed until the host's record contradicts it.
    told = rewritten(save, lambda account: account["steps"][1].__setitem__(2, {"type": "offer_draw"}))
    back = reload_guest(net, told)
    play(host, net)
    assert back.witness.kept is None and back.witness.refusal.params == {"step": 2}
