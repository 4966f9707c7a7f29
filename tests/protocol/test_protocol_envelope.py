"""The wire format: exact schemas, size limits, and nothing but ProtocolError on bad text."""

import json

import pytest

from pyengine.protocol.envelope import (
    INBOUND,
    MAX_INBOUND,
    OUTBOUND,
    PROTOCOL,
    ProtocolError,
    decode,
    encode,
)
from pyengine.core.validate import is_plain_json

INTENT = {
    "v": PROTOCOL,
    "kind": "intent",
    "table": "t1",
    "seat": 1,
    "action": {"type": "dudo"},
    "version": 3,
    "seq": 1,
}


def text(message=None, **changes) -> str:
    data = dict(message or INTENT, **changes)
    return json.dumps(data)


def code_of(raw, schemas=INBOUND, limit=MAX_INBOUND) -> str:
    with pytest.raises(ProtocolError) as caught:
        decode(raw, schemas, limit)
    assert caught.value.reason
    return caught.value.code


def test_a_good_intent_decodes_to_itself():
    assert decode(text(), INBOUND, MAX_INBOUND) == INTENT


def test_encode_round_trips_and_is_ascii():
    raw = encode("join", table="t1", seat=None, name="João \u2603")
    assert raw.isascii()
    assert decode(raw, INBOUND, MAX_INBOUND)["name"] == "João \u2603"


@pytest.mark.parametrize(
    "raw, code",
    [
        (None, "sync_bad_json"),
        (b'{"v":1}', "sync_bad_json"),
        ("{", "sync_bad_json"),
        ("", "sync_bad_json"),
        ('{"v":1,"v":1}', "sync_bad_json"),  # duplicate keys could smuggle a second value
        ('{"v":NaN}', "sync_bad_json"),
        ('{"v":1e999}', "sync_bad_json"),
        ("[" * 4000 + "]" * 4000, "sync_bad_json"),
        ('{"v":' + "9" * 5000 + "}", "sync_bad_json"),
        ("[1]", "sync_not_object"),
        ('"intent"', "sync_not_object"),
        ('{"a":' * 20 + "1" + "}" * 20, "sync_not_object"),  # deeper than plain JSON allows
    ],
    ids=lambda value: repr(value)[:24] if not isinstance(value, str) or len(value) > 24 else value,
)
def test_bad_json_is_refused(raw, code):
    assert code_of(raw) == code


def test_size_is_counted_in_utf8_bytes():
    roomy = "é" * (MAX_INBOUND // 2)  # fewer characters than the limit, more bytes
    assert len(roomy) < MAX_INBOUND
    assert code_of(text(table=roomy)) == "sync_too_big"
    assert code_of(" " * (MAX_INBOUND + 1)) == "sync_too_big"


@pytest.mark.parametrize(
    "changes, code",
    [
        ({"v": PROTOCOL + 1}, "sync_protocol"),
        ({"v": True}, "sync_protocol"),
        ({"v": str(PROTOCOL)}, "sync_protocol"),
        ({"kind": "welcome"}, "sync_unknown_kind"),  # a host message is not a guest message
        ({"kind": "hack"}, "sync_unknown_kind"),
        ({"kind": 5}, "sync_unknown_kind"),
        ({"extra": 1}, "sync_extra_field"),
        ({"seat": True}, "sync_bad_field"),
        ({"seat": 64}, "sync_bad_field"),
        ({"seat": -1}, "sync_bad_field"),
        ({"seat": 1.0}, "sync_bad_field"),
        ({"version": -1}, "sync_bad_field"),
        ({"version": 1 << 60}, "sync_bad_field"),
        ({"seq": "1"}, "sync_bad_field"),
        ({"table": ""}, "sync_bad_field"),
        ({"table": "a b"}, "sync_bad_field"),
        ({"table": "x" * 65}, "sync_bad_field"),
        ({"action": "dudo"}, "sync_bad_field"),
        ({"action": {"kind": "dudo"}}, "sync_bad_field"),
        ({"action": {"type": ""}}, "sync_bad_field"),
        ({"action": {"type": "x" * 33}}, "sync_bad_field"),
    ],
)
def test_schema_is_exact(changes, code):
    assert code_of(text(**changes)) == code


def test_missing_fields_are_named():
    message = dict(INTENT)
    del message["version"]
    with pytest.raises(ProtocolError) as caught:
        decode(json.dumps(message), INBOUND, MAX_INBOUND)
    assert caught.value.code == "sync_missing_field"
    assert caught.value.params == {"field": "version"}


@pytest.mark.parametrize("name", ["a\nb", "\x00", "x" * 25, "\u2028", "\ud800", 7, None])
def test_names_must_be_short_and_printable(name):
    join = {"v": PROTOCOL, "kind": "join", "table": "t1", "seat": None, "name": name}
    assert code_of(text(join)) == "sync_bad_field"


def test_guests_check_host_messages_with_their_own_schemas():
    state = encode(
        "state", table="t1", version=0, rev=1, started=True, acted=None, seats=[], view={"you": None}
    )
    assert decode(state, OUTBOUND, 1000)["kind"] == "state"
    assert code_of(state, INBOUND) == "sync_unknown_kind"
    assert code_of(encode("pong", table="t1", t=-1, rev=0), OUTBOUND) == "sync_bad_field"


@pytest.mark.parametrize("depth", range(1, 16))
@pytest.mark.parametrize("leaf", [1, [], {}], ids=["scalar", "list", "object"])
def test_the_fast_depth_check_agrees_with_is_plain_json(depth, leaf):
    value = leaf
    for level in range(depth):
        value = [value, 2] if level % 2 else {"a": value, "b": "x"}
    message = {"v": PROTOCOL, "kind": "sync", "table": "t1", "x": value}
    raw = json.dumps(message)
    if is_plain_json(message):
        assert code_of(raw) == "sync_extra_field"  # got past the depth check to the schema
    else:
        assert code_of(raw) == "sync_not_object"
