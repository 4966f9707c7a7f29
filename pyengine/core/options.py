"""Declared table options: one schema per game drives validation, defaults and the setup form."""

from dataclasses import dataclass

from .errors import InvalidOptions
from .shape import Bool, Dict, Enum, Int, Shape


@dataclass(frozen=True)
class Option:
    """One table option. ``choices`` for text options, ``minimum``/``maximum`` for numbers."""

    default: object
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, name: str, value):
        kind = type(self.default)
        if type(value) is not kind:
            raise InvalidOptions(
                f"Option {name!r} must be a {kind.__name__}", "option_type", option=name
            )
        if self.choices and value not in self.choices:
            raise InvalidOptions(
                f"Option {name!r} must be one of {', '.join(map(str, self.choices))}",
                "option_choice",
                option=name,
            )
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(
                f"Option {name!r} must be at least {self.minimum}", "option_range", option=name
            )
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(
                f"Option {name!r} must be at most {self.maximum}", "option_range", option=name
            )

    def shape(self) -> Shape:
        """The values this option may take, as a ``core.shape`` (views carry the options)."""
        if type(self.default) is bool:
            return Bool()
        if self.choices:
            return Enum(*self.choices)
        if self.minimum is None or self.maximum is None:
            raise ValueError("a number option needs a minimum and a maximum to have a shape")
        return Int(self.minimum, self.maximum)

    def to_json(self) -> dict:
        data = {"default": self.default, "type": type(self.default).__name__}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


def resolve_options(schema: dict, given) -> dict:
    """Defaults overlaid with ``given``; unknown names and wrong types are rejected."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise InvalidOptions("Options must be an object", "options_not_object")
    unknown = sorted(set(given) - set(schema))
    if unknown:
        raise InvalidOptions(f"Unknown option {unknown[0]!r}", "option_unknown", option=unknown[0])
    resolved = {}
    for name, option in schema.items():
        value = given.get(name, option.default)
        option.check(name, value)
        resolved[name] = value
    return resolved


def options_shape(schema: dict) -> Dict:
    """The shape of resolved options: every declared option, each within its bounds."""
    return Dict({name: option.shape() for name, option in schema.items()})
