"""Bozó through the worker's calls: setup form, bots, refusals, saves and resume."""

import json

from pyengine.shell import calls
from tests.app.screens import button_attributes, handoff_seat

bridge = calls.Worker()


def call(fn, *args):
    return json.loads(fn(*[a if isinstance(a, str) else json.dumps(a) for a in args]))


def test_bozo_is_playable_in_the_lobby_with_every_option_on_the_form():
    games = {g["id"]: g for g in json.loads(calls.lobby("pt"))["games"]}
    assert games["bozo"]["playable"] and games["bozo"]["max_seats"] == 20
    html = call(bridge.setup, "bozo", "pt")["html"]
    for name in ("aces_opening", "bidding", "cap_bids", "direction", "round_starter", "blind_bids",
                 "raise_own", "game_end", "points_target", "rounds"):
        assert f'name="opt_{name}"' in html
    assert 'name="seat9_kind"' in html and "Pedidas no escuro" in html


def test_a_game_against_bots_plays_saves_and_resumes():
    reply = call(bridge.start, {"game": "bozo", "fields": {
        "seat0_kind": "human", "seat1_kind": "bot:easy", "seat2_kind": "bot:hard",
        "opt_game_end": "rounds", "opt_rounds": "1", "seed": "21"}}, "pt")
    assert reply["ok"] and json.loads(reply["save"])["options"]["rounds"] == 1
    moves = 0
    while reply["status"] != "over":
        assert moves < 400
        if reply["status"] == "bot":
            reply = call(bridge.bot_step, "pt")
        else:
            html = reply["html"]
            assert 'data-testid="my-cup"' in html and 'data-testid="points-table"' in html
            acts = [attrs["data-act"] for attrs in button_attributes(html) if "data-act" in attrs]
            doubt = [a for a in acts if "doubt" in a]
            choice = doubt[0] if doubt else acts[-1]
            reply = call(bridge.act, json.loads(choice), "pt")
            assert reply["ok"], reply["message"]
        moves += 1
        if moves == 5:
            resumed = call(bridge.resume, reply["save"], "pt")
            assert resumed["ok"] and resumed["save"] == reply["save"] and resumed["html"] == reply["html"]
    assert json.loads(reply["save"])["game"] == "bozo" and 'data-testid="game-over"' in reply["html"]


def test_a_refused_bid_is_explained_in_portuguese_and_changes_nothing():
    reply = call(bridge.start, {"game": "bozo", "fields": {
        "seat0_kind": "human", "seat1_kind": "human", "opt_aces_opening": "", "seed": "4"}}, "pt")
    call(bridge.ui, {"handoff": handoff_seat(reply["html"])}, "pt")
    before = bridge.tables["local"].save()
    refused = call(bridge.act, {"type": "bid", "count": 2, "face": 1}, "pt")
    assert not refused["ok"] and refused["error"]["code"] == "bozo_aces_opening"
    assert refused["message"] == "Esta mesa não permite abrir em ases."
    assert refused["save"] is None and bridge.tables["local"].save() == before
