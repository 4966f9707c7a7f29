"""Setup values from the form and from code: every malformed value is refused with
``InvalidOptions`` and a translated reason, never a ``ValueError``/``TypeError`` out of
``start`` or ``net_host_create`` (issue 13, finding 7)."""

import json
import random

import pytest

from pyengine.core.errors import InvalidOptions
from pyengine.core.registry import playable_games
from pyengine.core.table import Table
from pyengine.i18n import LANGUAGES, catalog
from pyengine.shell.calls import Worker
from pyengine.shell.setup import config_from_fields
from pyengine.i18n import Translator

GAMES = playable_games()
BAD_NUMBERS = ["--5", "²", "5²", "٣", "1e3", "NaN", "nan", "Infinity", "-", "", " ", "0x10", "1_000", "+-1", "9" * 19, "9" * 64, "1.5", "½"]
JUNK = [None, True, False, 0, -1, 2**64, 1.5, [], ["5"], {}, {"a": 1}, "x" * 65, "--5", "²", "NaN"]


def _fields(game, rng, shared):
    """A plausible form (every seat filled the way the form would) with junk sprinkled in."""
    fields = {"seat0_kind": "human"}
    for index in range(1, game.min_seats):
        fields[f"seat{index}_kind"] = "remote" if shared and index == 1 else f"bot:{game.bot_levels[0]}"
    for name, option in game.options.items():
        if isinstance(option.default, bool):
            fields[f"opt_{name}"] = "on" if option.default else ""
        else:
            fields[f"opt_{name}"] = str(option.default)
    names = list(fields) + ["seed", "seat_count", f"seat{game.max_seats - 1}_kind", "seat1_name"]
    for _ in range(rng.randrange(1, 4)):
        name = rng.choice(names)
        fields[name] = rng.choice(JUNK + BAD_NUMBERS) if rng.random() < 0.7 else rng.choice(BAD_NUMBERS)
    return fields


def _refused_cleanly(reply: dict) -> None:
    if reply["ok"]:
        assert reply["html"], "a table that started shows a screen"
        return
    assert reply["error"]["code"] != "internal", reply["error"]
    assert reply["message"] and reply["html"] is None


@pytest.mark.parametrize("game_id", list(GAMES))
def test_malformed_form_values_are_refused_with_a_reason(game_id):
    game = GAMES[game_id]
    rng = random.Random(game_id)
    for round_ in range(300):
        shared = round_ % 2 == 1
        fields = _fields(game, rng, shared)
        request = json.dumps({"game": game_id, "fields": fields})
        worker = Worker()
        if shared:
            reply = json.loads(worker.net_host_create(request, 1_000, rng.choice(LANGUAGES)))
        else:
            reply = json.loads(worker.start(request, rng.choice(LANGUAGES)))
        _refused_cleanly(reply)


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_each_bad_number_is_an_invalid_option(value):
    """The values of the finding, one by one, in a number option and in the seed."""
    game = next(g for g in GAMES.values() if any(type(o.default) is int and not o.choices for o in g.options.values()))
    number = next(n for n, o in game.options.items() if type(o.default) is int and not o.choices)
    t = Translator("pt")
    base = {"seat0_kind": "human", "seat1_kind": f"bot:{game.bot_levels[0]}"}
    for fields in ({**base, f"opt_{number}": value}, {**base, "seed": value}):
        if value.strip() == "" and "seed" in fields:
            continue  # an empty seed means "pick one"
        try:
            config = config_from_fields(game, fields, t)
            Table(game.id, config["options"], config["seats"], config.get("seed", 1))
        except InvalidOptions as error:
            assert f"err.{error.code}" in catalog("pt"), error.code
        else:
            pytest.fail(f"{value!r} was accepted in {sorted(fields)}")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_malformed_options_and_seat_lists_are_invalid_options(game_id):
    """What a save or a peer could hand ``Table`` directly: wrong shapes everywhere."""
    game = GAMES[game_id]
    rng = random.Random(f"seats-{game_id}")
    good_seats = [{"kind": "human", "name": "A"}] + [
        {"kind": "bot", "name": f"B{i}", "level": game.bot_levels[0]} for i in range(1, game.min_seats)
    ]
    names = list(game.options) + ["zzz"]
    for _ in range(400):
        options = {rng.choice(names): rng.choice(JUNK) for _ in range(rng.randrange(3))}
        if rng.random() < 0.1:
            options = rng.choice(JUNK)
        seats = [dict(s) for s in good_seats]
        roll = rng.random()
        if roll < 0.3:
            seat = rng.choice(seats)
            seat[rng.choice(["kind", "name", "level", "extra"])] = rng.choice(JUNK)
        elif roll < 0.4:
            seats = rng.choice(JUNK)
        elif roll < 0.5:
            seats = seats * (game.max_seats + 1)
        try:
            Table(game_id, options, seats, rng.choice([1, 2**60, -1, 1.5, None, "7"]))
        except InvalidOptions:
            pass


def test_setup_reasons_exist_in_every_language():
    for code in ("option_type", "option_range", "option_choice", "option_unknown", "bad_seed", "bad_field_value", "seat_kind", "seat_count", "seat_name", "seat_level"):
        for lang in LANGUAGES:
            assert f"err.{code}" in catalog(lang), (lang, code)


def test_a_seat_count_keeps_its_rows_only():
    """Bozó's form asks how many play (20 rows would bury Start on a phone): rows past the
    count are hidden on the page and ignored here, whatever they hold; without the field
    (an older page) every row counts."""
    from pyengine.core.registry import get_game
    from pyengine.shell.setup import setup_form

    game, t = get_game("bozo"), Translator("en")
    html = str(setup_form(game, t))
    assert '<option value="4" selected>4</option>' in html and html.count("<li class=\"tb-seat-row\" hidden") == 16
    fields = {f"seat{index}_kind": f"bot:{game.bot_levels[0]}" for index in range(20)}
    assert len(config_from_fields(game, {**fields, "seat_count": "3"}, t)["seats"]) == 3
    assert len(config_from_fields(game, fields, t)["seats"]) == 20
    for count in ("1", "21", "three"):
        with pytest.raises(InvalidOptions) as refused:
            config_from_fields(game, {**fields, "seat_count": count}, t)
        assert refused.value.code == "seat_count"
