"""Checks for untrusted plain data (actions from players, peers and saves)."""

from .errors import IllegalAction

MAX_JSON_DEPTH = 12


def copy_json(value):
    """A deep copy of plain JSON data, several times faster than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


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


def int_field(action: dict, name: str, low: int, high: int) -> int:
    """An integer field of an action within ``[low, high]`` (booleans are not integers)."""
    value = action.get(name)
    if type(value) is not int:
        raise IllegalAction(f"'{name}' must be a whole number", "bad_field", field=name)
    if not low <= value <= high:
        raise IllegalAction(
            f"'{name}' must be between {low} and {high}", "field_range", field=name, low=low, high=high
        )
    return value


def only_fields(action: dict, *names: str) -> None:
    """Rejects fields the action type does not have, so junk never reaches the log."""
    extra = sorted(set(action) - {"type", *names})
    if extra:
        raise IllegalAction(f"Unexpected field {extra[0]!r}", "bad_field", field=extra[0])
