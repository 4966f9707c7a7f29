"""Checks for untrusted plain data (actions from players, peers and saves)."""

import marshal

from .errors import IllegalAction

MAX_JSON_DEPTH = 12


def copy_json(value):
    """A deep copy of plain JSON data (every move copies its state, every bot world too): a
    round trip through ``marshal``, in C, 1.5-3x faster than walking the tree in Python and
    more than that ahead of ``copy.deepcopy``. Format 2 writes every occurrence of a list or
    dict out (format 3 on would keep shared ones shared), so nothing in the copy aliases."""
    return marshal.loads(marshal.dumps(value, 2))


def is_plain_json(value, depth: int = 0) -> bool:
    """True for dict/list/str/int/float/bool/None trees with string keys and bounded depth."""
    if depth > MAX_JSON_DEPTH:
        return False
    if value is None or isinstance(value, (str, bool, int, float)):
        return True
    if isinstance(value, list):
        return all(is_plain_json(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain_json(v, depth + 1) for k, v in value.items())
    return False


def action_type(action) -> str:
    """The action's ``type``; rejects anything that is not a small typed object."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("An action must be an object with a 'type'", "bad_action")
    if not is_plain_json(action):
        raise IllegalAction("An action must be plain data", "bad_action")
    return action["type"]
