"""A record as plain data, made from a table, and its replay through the rules.

A record is ``{"format", "game", "options", "seats", "setup", "steps", "result"}`` (and
``"fair"``, a fair table's id): ``setup`` the outcomes drawn while the table was set up
(none at a fair table: its fair draw replaces them, ``chance.Unused``),
``steps`` every action in order as ``{"seat", "action", "chance"}`` with the outcomes that
action drew, ``result`` the game's result (``None`` while it is played).
"""

from ..core.errors import TabernaError
from ..core.fair import FAIR_ID
from ..core.registry import get_game
from ..core.rng import Rng
from ..core.table import check_seats
from ..core.validate import copy_json
from .chance import Recording, Tape, Unused

RECORD_FORMAT = 1


def record_of(table) -> dict:
    """The record of a ``core.table.Table``, finished or not: its log replayed from its seed
    with every draw written down."""
    game = table.game
    drawn = Recording(Rng(table.seed))
    state = game.new_state(table.options, len(table.seats), table.seed, rng=drawn)
    record = {
        "format": RECORD_FORMAT,
        "game": game.id,
        "options": copy_json(table.options),
        "seats": copy_json(table.seats),
        "setup": drawn.draws,
        "steps": [],
    }
    if table.fair is not None:  # its fair draw replaces whatever the set-up drew
        record["fair"] = table.fair
        record["setup"] = []
        state = game.make_fair(state, table.fair)
    for entry in table.log:
        drawn = Recording(Rng.from_state(state["rng"]))
        state = game.apply(state, entry["seat"], entry["action"], rng=drawn)
        record["steps"].append({"seat": entry["seat"], "action": copy_json(entry["action"]), "chance": drawn.draws})
    record["result"] = copy_json(game.result(state))
    return record


def first_state(record: dict) -> dict:
    """The table as set up, its chance read from ``record["setup"]``; raises ``TabernaError``."""
    game = get_game(record["game"])
    seats = check_seats(game, record["seats"])
    if "fair" in record and not record["setup"]:
        state = game.new_state(record["options"], len(seats), 0, rng=Unused())
    else:  # a record of an earlier version holds a fair table's set-up draws too
        tape = Tape(record["setup"])
        state = game.new_state(record["options"], len(seats), 0, rng=tape)
        tape.check_used()
    if "fair" in record:
        if not game.fair_chance or not FAIR_ID.fits(record["fair"], 0):
            raise TabernaError(f"{game.id} has no fair table {str(record['fair'])[:40]!r}", "records.no_fair")
        state = game.make_fair(state, record["fair"])
    return state


def next_state(game, state: dict, step: dict) -> dict:
    """The state after one step, its chance read from ``step["chance"]``."""
    tape = Tape(step["chance"])
    state = game.apply(state, step["seat"], step["action"], rng=tape)
    tape.check_used()
    return state


def replay(record: dict):
    """Every state of the game in order, from the set-up to the last step (a generator:
    a refusal raises at the step that makes it)."""
    game = get_game(record["game"])
    state = first_state(record)
    yield state
    for step in record["steps"]:
        state = next_state(game, state, step)
        yield state
