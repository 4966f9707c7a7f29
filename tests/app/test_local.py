"""A table on one device through the worker's calls: screens, pass-and-play hand-off, saves,
refusals (``pyengine.shell``)."""

import json
import re

from pyengine.shell import calls
from tests.app.screens import handoff_seat

bridge = calls.WORKER  # this tab's tables, as the browser worker holds them


def call(fn, *args):
    return json.loads(fn(*[a if isinstance(a, str) else json.dumps(a) for a in args]))


def start(fields, lang="en"):
    return call(bridge.start, {"game": "perudo", "fields": fields}, lang)


def kept():
    """The one-device table as its save would be written now."""
    return bridge.tables["local"].save()


def dice_in(html):
    return re.findall(r'data-testid="my-cup".*?</div></div>', html)


def test_lobby_lists_perudo_playable_with_its_seats_and_options():
    """(The lobby's order and every game's entry: tests/app/test_declarations.py.)"""
    games = json.loads(calls.lobby("en"))["games"]
    perudo = next(g for g in games if g["id"] == "perudo")
    assert perudo["playable"] and perudo["min_seats"] == 2 and perudo["max_seats"] == 6
    assert perudo["options"]["bidding"]["choices"] == ["face_free", "strict"]


def test_setup_form_is_translated_and_names_every_option():
    html = call(bridge.setup, "perudo", "es")["html"]
    assert 'data-form="setup"' in html and "Empezar la partida" in html
    for name in ("calza", "bidding", "palifico", "two_player_calza", "cap_bids"):
        assert f'name="opt_{name}"' in html


def test_single_human_sees_own_screen_and_bots_are_announced():
    reply = start({"seat0_kind": "human", "seat1_kind": "bot:easy", "seat2_kind": "bot:hard", "seed": "3"})
    assert reply["ok"] and reply["status"] in ("human", "bot")
    assert 'data-testid="my-cup"' in reply["html"]
    # A name nobody typed is stored empty, and shown in each viewer's language ("Bot 2").
    assert json.loads(reply["save"])["seats"][1] == {"kind": "bot", "level": "easy", "name": ""}


def test_pass_and_play_hides_dice_until_the_right_player_takes_the_phone():
    reply = start({"seat0_kind": "human", "seat0_name": "Ana", "seat1_kind": "human", "seat1_name": "Rui", "seed": "5"})
    assert reply["status"] == "handoff"
    assert 'data-testid="my-cup"' not in reply["html"] and "Pass the phone to" in reply["html"]
    first = json.loads(reply["save"])["log"] == [] and handoff_seat(reply["html"])
    wrong = call(bridge.ui, {"handoff": 1 - first}, "en")
    assert not wrong["ok"] and wrong["status"] == "handoff"
    shown = call(bridge.ui, {"handoff": first}, "en")
    assert shown["status"] == "human" and 'data-testid="my-cup"' in shown["html"]
    after = call(bridge.act, {"type": "bid", "count": 1, "face": 2}, "en")
    assert after["ok"] and after["status"] == "handoff" and 'data-testid="my-cup"' not in after["html"]


def test_refused_action_keeps_the_table_and_explains_in_the_players_language():
    reply = start({"seat0_kind": "human", "seat1_kind": "human", "seed": "5"})
    call(bridge.ui, {"handoff": handoff_seat(reply["html"])}, "pt")
    before = kept()
    refused = call(bridge.act, {"type": "bid", "count": 2, "face": 1}, "pt")
    assert not refused["ok"] and refused["error"]["code"] == "perudo.paco_opening"
    assert refused["message"] == "Ninguém pode abrir em pacos fora de uma rodada palifico."
    assert refused["save"] is None and refused["html"] is None and kept() == before
    junk = call(bridge.act, "not json", "en")
    assert not junk["ok"] and junk["save"] is None and kept() == before


def test_bad_setup_fields_are_refused_with_a_reason():
    reply = start({"seat0_kind": "human", "seat1_kind": "robot"})
    assert not reply["ok"] and reply["error"]["code"] == "seat_kind"
    reply = start({"seat0_kind": "human", "seat1_kind": "none"})
    assert not reply["ok"] and reply["error"]["code"] == "seat_count"


def bots_to_the_end(reply, saves):
    """Lets the bots play until the game is over; each step's save goes into ``saves``."""
    while reply["status"] == "bot":
        reply = call(bridge.bot_step, "en")
        assert reply["ok"], reply["message"]
        saves.append(reply["save"])
        assert len(saves) < 2000
    assert reply["status"] == "over" and 'data-testid="game-over"' in reply["html"]
    return reply


def test_all_bot_table_plays_to_the_end_and_resumes_from_its_save():
    saves = []
    bots_to_the_end(start({"seat0_kind": "bot:easy", "seat1_kind": "bot:medium", "seat2_kind": "bot:hard", "seed": "9"}), saves)
    middle = saves[len(saves) // 2]
    resumed = call(bridge.resume, middle, "en")
    assert resumed["ok"] and resumed["save"] == middle and resumed["status"] == "bot"


def test_play_again_deals_a_new_game_at_the_same_table_in_one_tap():
    fields = {"seat0_kind": "bot:hard", "seat0_name": "Ana", "seat1_kind": "bot:easy", "seat1_name": "Rui",
              "opt_calza": "on", "opt_calza_by": "anyone", "opt_bidding": "strict", "seed": "4"}
    over = bots_to_the_end(start(fields), [])
    assert 'data-testid="again"' in over["html"]
    finished = kept()
    again = call(bridge.ui, {"again": True}, "en")
    assert again["ok"] and again["status"] == "bot" and 'data-testid="game-over"' not in again["html"]
    dealt = json.loads(again["save"])
    assert dealt["log"] == [] and dealt["seed"] != finished["seed"]
    assert dealt["seats"] == finished["seats"] == [
        {"kind": "bot", "level": "hard", "name": "Ana"}, {"kind": "bot", "level": "easy", "name": "Rui"}]
    assert dealt["options"] == finished["options"] and finished["options"]["calza"] is True
    assert again["summary"] == {"game": "perudo", "players": ["Ana", "Rui"], "over": False}


def test_play_again_is_refused_before_the_game_is_over():
    start({"seat0_kind": "human", "seat1_kind": "bot:hard", "seed": "2"})
    before = kept()
    refused = call(bridge.ui, {"again": True}, "pt")
    assert not refused["ok"] and refused["error"]["code"] == "sync_not_over" and kept() == before


def test_corrupt_or_foreign_saves_are_refused_with_a_message():
    good = json.loads(start({"seat0_kind": "human", "seat1_kind": "bot:easy", "seed": "1"})["save"])
    tampered = dict(good, log=[{"seat": 0, "action": {"type": "bid", "count": 0, "face": 9}}])
    for save in (tampered, dict(good, format=99), {"hello": 1}, "{not json"):
        reply = call(bridge.resume, save, "en")
        assert not reply["ok"] and reply["message"]
        assert reply["error"]["code"].startswith(("save_", "bad_json"))


def test_selftest_digests_match_a_direct_playout():
    from pyengine.core.simulate import playout_digest

    reply = json.loads(calls.selftest(json.dumps({"games": ["perudo"], "seeds": [1, 2]})))
    assert reply["results"] == [playout_digest("perudo", 1), playout_digest("perudo", 2)]


def test_undo_is_refused_where_the_game_forbids_it():
    start({"seat0_kind": "human", "seat1_kind": "bot:easy", "seed": "4"})
    reply = call(bridge.ui, {"undo": True}, "en")
    assert not reply["ok"] and reply["error"]["code"] == "no_undo"
    assert 'data-testid="undo"' not in call(bridge.render, "en")["html"]


def test_undo_goes_back_to_before_the_humans_previous_move(monkeypatch):
    from pyengine.games.perudo import GAME

    monkeypatch.setattr(GAME, "undo_allowed", True)  # the mechanism is game-agnostic
    reply = start({"seat0_kind": "human", "seat1_kind": "bot:easy", "seed": "4"})
    while reply["status"] == "bot":
        reply = call(bridge.bot_step, "en")
    before = reply["save"]
    reply = call(bridge.act, {"type": "bid", "count": 1, "face": 6} if not json.loads(before)["log"] else {"type": "dudo"}, "en")
    while reply["status"] == "bot":
        reply = call(bridge.bot_step, "en")
    assert 'data-testid="undo"' in reply["html"]
    undone = call(bridge.ui, {"undo": True}, "en")
    assert undone["ok"] and undone["save"] == before


def test_lasca_against_a_bot_offers_take_back_to_the_humans_previous_move():
    from pyengine.core.table import Table

    reply = call(bridge.start, {"game": "lasca", "fields": {"seat0_kind": "human", "seat1_kind": "bot:easy", "seed": "2"}}, "en")
    assert reply["status"] == "human" and 'data-testid="undo"' not in reply["html"]
    before = reply["save"]
    table = Table.from_dict(json.loads(before))
    reply = call(bridge.act, table.game.legal_actions(table.state, 0)[0], "en")
    while reply["status"] == "bot":
        reply = call(bridge.bot_step, "en")
    assert len(json.loads(reply["save"])["log"]) == 2 and 'data-testid="undo"' in reply["html"]
    undone = call(bridge.ui, {"undo": True}, "en")
    assert undone["ok"] and undone["save"] == before


def test_perft_call_counts_lasca_moves_as_the_digest_does():
    rows = json.loads(calls.exports()["perft"](json.dumps({"depth": 6})))["results"]
    assert [r["nodes"] for r in rows] == [6, 6, 18, 54, 116, 324]
