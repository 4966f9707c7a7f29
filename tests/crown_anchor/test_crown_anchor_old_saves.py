"""Saves made before the rotating-bank default and the ``payouts`` option still restore, and
replay as they were played (``CrownAnchor.saved_options``).

``old_saves.json`` holds three saves written by the engine of that time (commit eb4c8ae^: one
table per bank mode, 60 actions each, seats played by its bots) with the chips and banker
that engine reached. Read with today's meanings they go wrong: a ``lot`` bank pays 1:1, 3:1,
5:1 instead of 1:1, 2:1, 3:1 (other chips), a ``fixed`` bank is the first seat instead of one
drawn by lot (its first action is refused).
"""

import json
from pathlib import Path

import pytest

from pyengine.core.errors import BadSave
from pyengine.core.table import Table
from pyengine.games.crown_anchor.rules import CrownAnchor
from pyengine.shell.calls import Worker

OLD = json.loads((Path(__file__).with_name("old_saves.json")).read_text(encoding="utf-8"))["saves"]


@pytest.mark.parametrize("bank", ["lot", "fixed", "rotate"])
def test_an_old_save_replays_to_the_chips_it_was_played_to(bank):
    case = OLD[bank]
    assert "payouts" not in case["save"]["options"]  # the old shape
    table = Table.from_dict(case["save"])
    assert table.state["chips"] == case["chips"] and table.state["banker"] == case["banker"]
    assert table.version == len(case["save"]["log"]) == 60


def test_old_saves_keep_the_payouts_they_were_played_with():
    assert Table.from_dict(OLD["lot"]["save"]).options["payouts"] == "standard"
    assert Table.from_dict(OLD["rotate"]["save"]).options["payouts"] == "standard"
    fixed = Table.from_dict(OLD["fixed"]["save"]).options
    assert (fixed["bank"], fixed["payouts"]) == ("lot", "fair")  # its banker was drawn by lot
    # Saved again, the table is in today's shape and restores unchanged.
    again = Table.from_dict(json.loads(json.dumps(Table.from_dict(OLD["fixed"]["save"]).to_dict())))
    assert again.options == fixed and again.state["chips"] == OLD["fixed"]["chips"]


def test_read_with_todays_meanings_the_old_saves_go_wrong():
    """What the migration prevents: the same saves with today's default payouts."""
    lot = dict(OLD["lot"]["save"], options={**OLD["lot"]["save"]["options"], "payouts": "by_bank"})
    assert Table.from_dict(lot).state["chips"] != OLD["lot"]["chips"]
    fixed = dict(OLD["fixed"]["save"], options={**OLD["fixed"]["save"]["options"], "payouts": "by_bank"})
    with pytest.raises(BadSave):
        Table.from_dict(fixed)


def test_an_option_missing_from_an_old_save_means_the_old_default():
    """The bank by lot, rotating every 3 rolls, as before; today's defaults are rotate and 5."""
    options = {k: v for k, v in OLD["lot"]["save"]["options"].items() if k not in ("bank", "rotate_every")}
    table = Table.from_dict(dict(OLD["lot"]["save"], options=options))
    assert table.state["chips"] == OLD["lot"]["chips"]
    assert (table.options["bank"], table.options["rotate_every"], table.options["payouts"]) == ("lot", 3, "standard")
    new = CrownAnchor().new_state({}, 3, 1)["options"]  # a new table keeps today's defaults
    assert (new["bank"], new["rotate_every"], new["payouts"]) == ("rotate", 5, "by_bank")


@pytest.mark.parametrize("junk", [None, [], "lot", {"bank": ["lot"]}, {"bank": "sideways"}, {"rotate_every": "3"}])
def test_damaged_old_options_are_refused_with_a_reason(junk):
    with pytest.raises(BadSave) as refused:
        Table.from_dict(dict(OLD["lot"]["save"], options=junk))
    assert refused.value.code in ("save_invalid", "save_illegal")


def test_the_worker_reopens_an_old_save():
    reply = json.loads(Worker().resume(json.dumps(OLD["fixed"]["save"]), "pt-BR"))
    assert reply["ok"], reply.get("message")
    assert "Coroa" in reply["html"] or "crown_anchor" in reply["html"]
