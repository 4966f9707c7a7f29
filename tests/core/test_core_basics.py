"""The shared mechanics: RNG portability, option schemas, untrusted-data checks, Table saves."""

import json

import pytest

from pyengine.core.errors import BadSave, IllegalAction, InvalidOptions
from pyengine.core.options import Option, resolve_options
from pyengine.core.rng import Rng, derive_seed
from pyengine.core.table import Table
from pyengine.core.validate import copy_json, is_plain_json


def test_rng_is_a_pure_function_of_seed_and_counter():
    # Golden values: SHA-256 based, so any interpreter must produce exactly these.
    rng = Rng(1)
    assert [rng.randint(1, 6) for _ in range(10)] == [1, 2, 2, 4, 6, 3, 4, 4, 3, 4]
    assert rng.state() == {"seed": 1, "counter": 10}
    resumed = Rng.from_state({"seed": 1, "counter": 5})
    assert [resumed.randint(1, 6) for _ in range(5)] == [3, 4, 4, 3, 4]


def test_rng_is_uniform_enough():
    rng = Rng(42)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.below(6)] += 1
    assert all(9_500 < c < 10_500 for c in counts)
    assert sorted(rng.shuffle(list(range(20)))) == list(range(20))
    assert 0 <= rng.random() < 1
    with pytest.raises(ValueError):
        rng.below(0)


def test_derive_seed_separates_streams():
    assert derive_seed(1, 2, 3) == derive_seed(1, 2, 3)
    assert derive_seed(1, 2, 3) != derive_seed(1, 23)
    assert 0 <= derive_seed("x") < 2**63


def test_options_schema_fills_defaults_and_refuses_junk():
    schema = {"calza": Option(False), "style": Option("a", choices=("a", "b")), "n": Option(3, minimum=1, maximum=5)}
    assert resolve_options(schema, None) == {"calza": False, "style": "a", "n": 3}
    assert resolve_options(schema, {"n": 5, "style": "b"})["n"] == 5
    for bad in ({"calza": 1}, {"style": "c"}, {"n": 0}, {"n": 6}, {"n": True}, {"other": 1}, [1]):
        with pytest.raises(InvalidOptions):
            resolve_options(schema, bad)


def test_untrusted_data_checks():
    assert is_plain_json({"a": [1, 2.5, None, True, "x"]})
    assert not is_plain_json({1: "non-string key"})
    assert not is_plain_json({"a": object()})
    deep = []
    for _ in range(40):
        deep = [deep]
    assert not is_plain_json(deep)
    original = {"a": [{"b": 1}]}
    copied = copy_json(original)
    copied["a"][0]["b"] = 2
    assert original == {"a": [{"b": 1}]}


SEATS = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "easy", "name": "B"}]


def test_table_refuses_bad_set_ups():
    for seats in ([], SEATS[:1], [{"kind": "alien"}] * 2, [{"kind": "bot", "name": "x"}] * 2, [{"kind": "human", "name": "x" * 99}] * 2):
        with pytest.raises(InvalidOptions):
            Table("perudo", {}, seats, 1)
    with pytest.raises(InvalidOptions):
        Table("chess", {}, SEATS, 1)
    with pytest.raises(InvalidOptions):
        Table("perudo", {}, SEATS, -1)


def test_table_failed_action_leaves_everything_as_it_was():
    table = Table("perudo", {}, SEATS, 3)
    before = json.dumps(table.to_dict()), json.dumps(table.state)
    with pytest.raises(IllegalAction):
        table.act(table.to_act()[0], {"type": "bid", "count": 1, "face": 1})
    assert (json.dumps(table.to_dict()), json.dumps(table.state)) == before


def test_table_save_round_trip_and_tampering():
    table = Table("perudo", {"calza": True}, SEATS, 3)
    while not table.is_over():
        seat = table.to_act()[0]
        table.act(seat, table.bot_action(seat))
    saved = json.loads(json.dumps(table.to_dict()))
    assert Table.from_dict(saved).state == table.state
    broken = dict(saved, log=saved["log"][:3] + [{"seat": 9, "action": {"type": "dudo"}}])
    with pytest.raises(BadSave) as caught:
        Table.from_dict(broken)
    assert caught.value.code == "save_illegal" and "Action 4" in caught.value.reason
    with pytest.raises(BadSave):
        Table.from_dict(dict(saved, log=[["not", "an", "entry"]]))
    with pytest.raises(BadSave):
        Table.from_dict(dict(saved, options={"calza": "maybe"}))
