"""The new-table form, generated from a game's option schema and seat limits.

The form posts plain strings (``FormData``); ``config_from_fields`` turns them back into a
validated table config, so the page's script needs to know nothing about any game.

Shared mode (``shared=True``, "play with friends") adds the seat kind ``remote``: a friend
on their own device. The form then carries ``data-shared="1"``, and only then are remote
seats accepted, so a plain table can never wait for a guest who cannot come.
"""

from html import escape

from ..core.errors import InvalidOptions

NO_SEAT = "none"
MAX_FIELD = 64


REMOTE = "remote"


def default_bot_level(game) -> str:
    """The middle level: what a new seat gets, and what covers for an absent friend."""
    return game.bot_levels[len(game.bot_levels) // 2]


def _kind_choices(game, shared=False) -> list:
    friend = [REMOTE] if shared else []
    return ["human", *friend, *[f"bot:{level}" for level in game.bot_levels], NO_SEAT]


def _default_kind(game, index: int, shared=False) -> str:
    if index == 0:
        return "human"
    filled = 3 if shared else 4  # you and two friends, or you and three bots
    if index < min(filled, game.max_seats) or index < game.min_seats:
        return REMOTE if shared else f"bot:{default_bot_level(game)}"
    return NO_SEAT


def _kind_label(t, game, kind: str) -> str:
    if kind.startswith("bot:"):
        level = kind.split(":", 1)[1]
        return t("setup.bot", level=t(f"level.{game.id}.{level}"))
    if kind == REMOTE:
        return t("sync.kind.remote")
    return t(f"setup.kind.{kind}")


def _option_field(t, game, name: str, option) -> str:
    label = escape(t(f"opt.{game.id}.{name}"))
    field = f"opt_{name}"
    if isinstance(option.default, bool):
        checked = " checked" if option.default else ""
        return (
            f'<label class="tb-check"><input type="checkbox" name="{field}"{checked}> '
            f"{label}</label>"
        )
    if option.choices:
        items = "".join(
            f'<option value="{escape(str(c))}"{" selected" if c == option.default else ""}>'
            f"{escape(t(f'opt.{game.id}.{name}.{c}'))}</option>"
            for c in option.choices
        )
        return f'<label class="tb-field">{label} <select name="{field}">{items}</select></label>'
    bounds = ""
    if option.minimum is not None:
        bounds += f' min="{option.minimum}"'
    if option.maximum is not None:
        bounds += f' max="{option.maximum}"'
    return (
        f'<label class="tb-field">{label} <input type="number" name="{field}" '
        f'value="{option.default}"{bounds} inputmode="numeric"></label>'
    )


def setup_form(game, t, shared=False) -> str:
    rows = []
    kinds = _kind_choices(game, shared)
    for index in range(game.max_seats):
        default = _default_kind(game, index, shared)
        choices = kinds if index >= game.min_seats else kinds[:-1]
        options = "".join(
            f'<option value="{k}"{" selected" if k == default else ""}>'
            f"{escape(_kind_label(t, game, k))}</option>"
            for k in choices
        )
        placeholder = escape(t("setup.player", n=index + 1))
        rows.append(
            f'<li class="tb-seat-row"><label class="tb-field">{escape(t("setup.seat", n=index + 1))} '
            f'<select name="seat{index}_kind">{options}</select></label>'
            f'<label class="tb-field tb-name">{escape(t("setup.name"))} '
            f'<input name="seat{index}_name" maxlength="24" placeholder="{placeholder}" '
            f'autocomplete="off"></label></li>'
        )
    options_html = "".join(_option_field(t, game, n, o) for n, o in game.options.items())
    mark = ' data-shared="1"' if shared else ""
    return (
        f'<form class="tb-setup" data-form="setup" data-game="{game.id}"{mark}>'
        f'<h2>{escape(t(f"lobby.{game.id}.name"))}</h2>'
        f'<fieldset><legend>{escape(t("setup.players", low=game.min_seats, high=game.max_seats))}'
        f'</legend><ol class="tb-seats">{"".join(rows)}</ol></fieldset>'
        f'<fieldset><legend>{escape(t("setup.options"))}</legend>{options_html}</fieldset>'
        f'<button type="submit" class="tb-primary" data-testid="start">{escape(t("setup.start"))}'
        "</button></form>"
    )


def _text(fields: dict, name: str) -> str:
    value = fields.get(name, "")
    if not isinstance(value, str) or len(value) > MAX_FIELD:
        raise InvalidOptions(f"Field {name!r} is not valid", "bad_field_value", field=name)
    return value.strip()


def config_from_fields(game, fields, t, shared=False) -> dict:
    """``{"options", "seats", "seed"?}`` from the form's string fields; bad input raises."""
    if not isinstance(fields, dict):
        raise InvalidOptions("The form was empty", "bad_form")
    seats = []
    for index in range(game.max_seats):
        kind = _text(fields, f"seat{index}_kind") or NO_SEAT
        if kind == NO_SEAT:
            continue
        if kind not in _kind_choices(game, shared):
            raise InvalidOptions(f"Seat {index + 1} has an unknown kind", "seat_kind", seat=index)
        name = _text(fields, f"seat{index}_name")
        if kind == "human":
            seats.append({"kind": "human", "name": name or t("setup.player", n=index + 1)})
        elif kind == REMOTE:
            seats.append({"kind": REMOTE, "name": name or t("sync.friend_name", n=index + 1)})
        else:
            level = kind.split(":", 1)[1]
            bot_name = name or t("setup.bot_name", n=index + 1)
            seats.append({"kind": "bot", "level": level, "name": bot_name})
    options = {}
    for name, option in game.options.items():
        raw = fields.get(f"opt_{name}")
        if isinstance(option.default, bool):
            options[name] = raw is not None and raw != "" and raw != "off"
        elif raw is None:
            continue
        elif isinstance(option.default, int):
            text = _text(fields, f"opt_{name}")
            if not text.lstrip("-").isdigit():
                raise InvalidOptions(f"Option {name!r} must be a number", "option_type", option=name)
            options[name] = int(text)
        else:
            options[name] = _text(fields, f"opt_{name}")
    config = {"options": options, "seats": seats}
    seed = fields.get("seed")
    if seed not in (None, ""):
        text = _text(fields, "seed")
        if not text.isdigit():
            raise InvalidOptions("The seed must be a number", "bad_seed")
        config["seed"] = int(text)
    return config
