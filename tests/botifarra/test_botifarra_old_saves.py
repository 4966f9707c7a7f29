"""Saves from before the 5 of espases' first lead moved to the right of the seat that dealt
still restore, and replay as they were played: from the holder's right
(``Botifarra.saved_options``, option ``first_lead``).

``old_saves.json`` holds saves written by the engine of commit 700a6b2^ (a first hand given to
the holder of the 5 of espases, its first trick begun by that engine's bots) with the first
trick's leader and cards that engine reached. Read with today's default, their first card
comes from the wrong seat and the save is refused.
"""

import json
from pathlib import Path

import pytest

from pyengine.core.errors import BadSave
from pyengine.core.table import Table
from pyengine.games.botifarra.rules import Botifarra

OLD = json.loads(Path(__file__).with_name("old_saves.json").read_text(encoding="utf-8"))["saves"]


@pytest.mark.parametrize("name", sorted(OLD))
def test_an_old_first_hand_restores_with_the_lead_it_was_played_with(name):
    case = OLD[name]
    assert "first_lead" not in case["save"]["options"]  # the old shape
    table = Table.from_dict(case["save"])
    assert table.options["first_lead"] == "right_of_holder"
    assert table.state["trick"]["leader"] == case["leader"] and table.state["trick"]["cards"] == case["trick"]
    today = {**case["save"], "options": {**case["save"]["options"], "individual_contro": False}}
    with pytest.raises(BadSave):  # today's rule: the lead from the right of the seat that dealt
        Table.from_dict(today)


def test_a_table_may_lead_from_the_holders_right():
    for seed in range(6):
        state = Botifarra().new_state({"first_dealer": "five_of_espases", "first_lead": "right_of_holder"}, 4, seed)
        assert state["trick"]["leader"] == (state["dealer"] + 1) % 4
