"""Crown and Anchor through the worker's calls (CPython): setup, ten rolls with bots, resume."""

import json

from pyengine.shell.calls import Worker
from tests.app.screens import button_attributes

bridge = Worker()


def call(fn, *args):
    return json.loads(fn(*[a if isinstance(a, str) else json.dumps(a) for a in args]))


def actions_in(page):
    return [json.loads(attrs["data-act"]) for attrs in button_attributes(page) if "data-act" in attrs]


def test_setup_form_names_every_option_in_portuguese():
    page = call(bridge.setup, "crown_anchor", "pt")["html"]
    for name in ("bank", "rotate_every", "volunteer", "start_chips", "min_bet", "max_bet", "broken_bank"):
        assert f'name="opt_{name}"' in page
    assert "Temerário" in page and "Por sorteio" in page


def test_ten_rolls_against_bots_then_resume():
    fields = {
        "seat0_kind": "human", "seat0_name": "Ana",
        "seat1_kind": "bot:cautious", "seat2_kind": "bot:steady", "seat3_kind": "bot:reckless",
        "opt_bank": "rotate", "opt_rotate_every": "2", "seed": "8",
    }
    reply = call(bridge.start, {"game": "crown_anchor", "fields": fields}, "en")
    assert reply["ok"], reply["message"]
    steps = 0
    while True:
        rollers = [e["seat"] for e in json.loads(reply["save"])["log"] if e["action"]["type"] == "roll"]
        if len(rollers) >= 10 and 0 in rollers:  # the rotating bank reached the human too
            break
        steps += 1
        assert steps < 500 and reply["status"] in ("bot", "human"), reply["status"]
        if reply["status"] == "bot":
            reply = call(bridge.bot_step, "en")
            continue
        offered = actions_in(reply["html"])
        bets = [a for a in offered if a["type"] == "bet"]
        staked = 'data-testid="ca-clear"' in reply["html"]
        pick = next(a for a in offered if a["type"] == "roll") if {"type": "roll"} in offered else (
            bets[steps % len(bets)] if bets and not staked else {"type": "done"})
        reply = call(bridge.act, pick, "en")
        assert reply["ok"], reply["message"]
    assert 'data-testid="ca-history"' in reply["html"]
    resumed = call(bridge.resume, reply["save"], "en")
    assert resumed["ok"] and resumed["save"] == reply["save"]


def rolls_in(reply):
    return sum(entry["action"]["type"] == "roll" for entry in json.loads(reply["save"])["log"])


def test_every_offered_stake_is_taken_while_bots_are_still_to_stake():
    """Stakes are simultaneous: a stake the layout offers is taken at once, bots or not
    (the play-test's finding: a tap before the bots had staked was refused)."""
    fields = {
        "seat0_kind": "bot:steady", "seat1_kind": "human", "seat1_name": "Ana",
        "seat2_kind": "bot:cautious", "seat3_kind": "bot:reckless",
        "opt_bank": "fixed", "seed": "3",
    }
    reply = call(bridge.start, {"game": "crown_anchor", "fields": fields}, "en")
    taken = 0
    for roll in range(5):  # each roll by the bot banker, Ana staking before the bot punters
        for bet in [a for a in actions_in(reply["html"]) if a["type"] == "bet"]:
            assert reply["status"] == "bot"  # bots are still to stake
            reply = call(bridge.act, bet, "en")
            assert reply["ok"], reply["message"]
            taken += 1
        reply = call(bridge.act, {"type": "done"}, "en")
        assert reply["ok"], reply["message"]
        while rolls_in(reply) == roll:
            reply = call(bridge.bot_step, "en")
    assert taken == 5 * 6  # a chip on each of the six symbols, every round
