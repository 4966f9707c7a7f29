"""The new-table form, generated from a game's option schema, seat limits and partnerships.

The form posts plain strings (``FormData``); ``config_from_fields`` turns them back into a
validated table config, so the page's script needs to know nothing about any game.

Shared mode (``shared=True``, "play with friends") adds the seat kind ``remote``: a friend
on their own device. The form then carries ``data-shared="1"``, and only then are remote
seats accepted, so a plain table can never wait for a guest who cannot come. It also asks
whether players may say premade phrases to each other (``PHRASES``; ticked as the game
declares: off for Botifarra, whose partners must not signal).

A game for many players (more than ``FEW_SEATS``: Bozó's 20) asks first how many play (the
``seat_count`` field) and shows only that many seat rows (the page's script shows more as
the count grows): a phone then reaches Start without scrolling past twenty seats. Rows past
the count are ignored, whatever they hold.

A game with partnerships (``Game.teams``) shows each seat's team as a coloured badge. The
form is static, so the badges are those of a full table with the default options; a game
whose teams depend on the seat count or options should have fixed seats where it matters.
"""

import re

from ..core.errors import InvalidOptions
from ..core.registry import get_declaration
from ..ui.markup import fragment, h
from .screens import fair_line, team_badge, team_of

NO_SEAT = "none"
MAX_FIELD = 64
# A whole number as a form posts it: ASCII digits only (``str.isdigit`` also accepts "²",
# which ``int`` refuses), at most 18 of them, so it is never a huge number to convert.
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,18}")
REMOTE = "remote"
FEW_SEATS = 10  # up to this many seats, every seat's row shows at once
SEAT_COUNT = "seat_count"
PHRASES = "phrases"


def default_bot_level(game) -> str:
    """The middle level: what a new seat gets, and what covers for an absent friend."""
    return game.bot_levels[len(game.bot_levels) // 2]


def _kind_choices(game, shared=False) -> list:
    friend = [REMOTE] if shared else []
    return ["human", *friend, *[f"bot:{level}" for level in game.bot_levels], NO_SEAT]


def _filled(game, shared=False) -> int:
    """How many seats a new table has: you and two friends, or you and three bots."""
    return max(min(3 if shared else 4, game.max_seats), game.min_seats)


def _counted(game) -> bool:
    """Whether the form asks for the number of players first (see the module's docstring)."""
    return game.max_seats > FEW_SEATS


def _default_kind(game, index: int, shared=False) -> str:
    if index == 0:
        return "human"
    # With a seat count a row past it shows only once counted in, so it comes filled.
    if index < _filled(game, shared) or _counted(game):
        return REMOTE if shared else f"bot:{default_bot_level(game)}"
    return NO_SEAT


def _kind_label(t, game, kind: str) -> str:
    if kind.startswith("bot:"):
        level = kind.split(":", 1)[1]
        return t("setup.bot", level=t(f"level.{game.id}.{level}"))
    if kind == REMOTE:
        return t("sync.kind.remote")
    return t(f"setup.kind.{kind}")


def _option_field(t, game, name: str, option):
    """One option's control, its label marked ``data-option`` so that a game's stylesheet
    may hide an option that matters only with another (Perudo: who may call Calza)."""
    label = t(f"opt.{game.id}.{name}")
    field = f"opt_{name}"
    if isinstance(option.default, bool):
        return h("label", {"class": "tb-check", "data-option": name}, h("input", {"type": "checkbox", "name": field, "checked": option.default}), " ", label)
    if option.choices:
        choices = [
            h("option", {"value": str(choice), "selected": choice == option.default}, t(f"opt.{game.id}.{name}.{choice}"))
            for choice in option.choices
        ]
        return h("label", {"class": "tb-field", "data-option": name}, label, " ", h("select", {"name": field}, choices))
    number = {
        "type": "number",
        "name": field,
        "value": option.default,
        "min": option.minimum,
        "max": option.maximum,
        "inputmode": "numeric",
    }
    return h("label", {"class": "tb-field", "data-option": name}, label, " ", h("input", number))


def _seat_row(t, game, index: int, kinds: list, shared: bool, teams: list):
    default = _default_kind(game, index, shared)
    choices = kinds if index >= game.min_seats else kinds[:-1]
    options = [h("option", {"value": kind, "selected": kind == default}, _kind_label(t, game, kind)) for kind in choices]
    team = team_of(teams, index)
    name = {
        "name": f"seat{index}_name",
        "maxlength": 24,
        "placeholder": t("setup.player", n=index + 1),
        "autocomplete": "off",
    }
    seat = h("span", {"class": "tb-caption"}, t("setup.seat", n=index + 1), team is not None and fragment(" ", team_badge(t, team)))
    hidden = _counted(game) and index >= _filled(game, shared)
    return h(
        "li",
        {"class": "tb-seat-row", "data-team": team, "hidden": hidden},
        h("label", {"class": "tb-field"}, seat, " ", h("select", {"name": f"seat{index}_kind"}, options)),
        h("label", {"class": "tb-field tb-name"}, h("span", {"class": "tb-caption"}, t("setup.name")), " ", h("input", name)),
    )


def _seat_count_field(t, game, shared: bool):
    """How many play: the page shows that many seat rows (``data-seat-count``)."""
    filled = _filled(game, shared)
    choices = [h("option", {"value": str(n), "selected": n == filled}, str(n)) for n in range(game.min_seats, game.max_seats + 1)]
    return h("label", {"class": "tb-field tb-seat-count"}, t("setup.seat_count"), " ",
             h("select", {"name": SEAT_COUNT, "data-seat-count": True}, choices))


def _phrases_field(t, game):
    """Whether the shared table's players may say premade phrases (``shell.phrases``)."""
    on = get_declaration(game.id).phrases.on
    box = h("input", {"type": "checkbox", "name": PHRASES, "checked": on, "data-testid": "setup-phrases"})
    return h("label", {"class": "tb-check"}, box, " ", t("sync.phrases_setup"))


def setup_form(game, t, shared=False):
    """The form as markup (``Markup``)."""
    kinds = _kind_choices(game, shared)
    teams = game.teams(game.resolve_options({}, game.max_seats), game.max_seats)
    rows = [_seat_row(t, game, index, kinds, shared, teams) for index in range(game.max_seats)]
    count = _seat_count_field(t, game, shared) if _counted(game) else None
    return h(
        "form",
        {"class": "tb-setup", "data-form": "setup", "data-game": game.id, "data-shared": "1" if shared else None},
        h(
            "fieldset",
            None,
            h("legend", None, t("setup.players", low=game.min_seats, high=game.max_seats) if game.min_seats != game.max_seats
              else t("setup.players_exact", count=game.min_seats)),
            count,
            h("ol", {"class": "tb-seats"}, rows),
        ),
        h(
            "fieldset",
            None,
            h("legend", None, t("setup.options")),
            [_option_field(t, game, name, option) for name, option in game.options.items()],
        )
        if game.options
        else None,
        shared and _phrases_field(t, game),
        shared and fair_line(t, game.id),
        h("button", {"type": "submit", "class": "tb-primary", "data-testid": "start"}, t("setup.start")),
    )


def _text(fields: dict, name: str) -> str:
    value = fields.get(name, "")
    if not isinstance(value, str) or len(value) > MAX_FIELD:
        raise InvalidOptions(f"Field {name!r} is not valid", "bad_field_value", field=name)
    return value.strip()


def _number(fields: dict, name: str, error: InvalidOptions) -> int:
    """A form field holding a whole number; anything else raises ``error``."""
    text = _text(fields, name)
    if not WHOLE_NUMBER.fullmatch(text):
        raise error
    return int(text)


def _checkbox(fields: dict, name: str) -> bool:
    """A checkbox posts "on" when ticked and nothing otherwise."""
    raw = fields.get(name)
    if raw is not None and not isinstance(raw, str):
        raise InvalidOptions(f"Field {name!r} is not valid", "bad_field_value", field=name)
    return raw not in (None, "", "off")


def _seat_rows(game, fields: dict) -> int:
    """How many seat rows count: the form's seat count, when it sent one, else all."""
    if fields.get(SEAT_COUNT) is None:
        return game.max_seats
    wrong = InvalidOptions(f"{game.id} needs {game.min_seats} to {game.max_seats} seats", "seat_count",
                           low=game.min_seats, high=game.max_seats)
    count = _number(fields, SEAT_COUNT, wrong)
    if not game.min_seats <= count <= game.max_seats:
        raise wrong
    return count


def config_from_fields(game, fields, t, shared=False) -> dict:
    """``{"options", "seats", "seed"?}`` from the form's string fields; bad input raises."""
    if not isinstance(fields, dict):
        raise InvalidOptions("The form was empty", "bad_form")
    seats = []
    for index in range(_seat_rows(game, fields)):
        kind = _text(fields, f"seat{index}_kind") or NO_SEAT
        if kind == NO_SEAT:
            continue
        if kind not in _kind_choices(game, shared):
            raise InvalidOptions(f"Seat {index + 1} has an unknown kind", "seat_kind", seat=index)
        name = _text(fields, f"seat{index}_name")  # empty: its default, shown in each viewer's language
        if kind in ("human", REMOTE):
            seats.append({"kind": kind, "name": name})
        else:
            seats.append({"kind": "bot", "level": kind.split(":", 1)[1], "name": name})
    options = {}
    for name, option in game.options.items():
        field = f"opt_{name}"
        if isinstance(option.default, bool):
            options[name] = _checkbox(fields, field)
        elif fields.get(field) is None:
            continue
        elif isinstance(option.default, int):
            wrong = InvalidOptions(f"Option {name!r} must be a number", "option_type", option=name)
            options[name] = _number(fields, field, wrong)
        else:
            options[name] = _text(fields, field)
    config = {"options": options, "seats": seats}
    if shared:
        config[PHRASES] = _checkbox(fields, PHRASES)
    seed = fields.get("seed")
    if seed not in (None, ""):
        config["seed"] = _number(fields, "seed", InvalidOptions("The seed must be a number", "bad_seed"))
    return config
