"""What the record tests and ``bench/records.py`` share: the option sets played, random
tables, the round trip every record must survive and the mutations it must refuse."""

import json

from pyengine.core.registry import get_game
from pyengine.core.rng import Rng
from pyengine.core.table import Table
from pyengine.records import import_record, replay_states
from pyengine.records.record import record_of
from pyengine.records.text import MAX_LINE, read_record, write_text

# (game, options, seats): each game's defaults at its smallest table and a bigger one, and
# the options that change what is drawn or who may act.
OPTION_SETS = [
    ("perudo", {}, 2),
    ("perudo", {}, 4),
    ("perudo", {"calza": True, "calza_by": "anyone", "bidding": "strict"}, 3),
    ("bozo", {}, 3),
    ("bozo", {"round_starter": "random", "direction": "round", "blind_bids": True, "game_end": "rounds", "rounds": 2}, 4),
    ("lasca", {}, 2),
    ("lasca", {"first_to_move": "black", "threefold_repetition": True, "draw_by_agreement": False}, 2),
    ("crown_anchor", {}, 3),
    ("crown_anchor", {"bank": "lot", "volunteer": True, "payouts": "standard"}, 4),
    ("crown_anchor", {"bank": "fixed", "max_bet": 10}, 2),
    ("botifarra", {}, 4),
    ("botifarra", {"target": 51, "play_rule": "lliure"}, 2),
    ("botifarra", {"target": 51, "first_dealer": "five_of_espases"}, 3),
    ("bog", {}, 4),
    ("bog", {"antes": "every_box", "stake_rule": "raise", "deals": 3}, 6),
    ("bog", {"deals": 2, "direction": "anticlockwise", "run_players": "boggers"}, 3),
]
MAX_PLIES = 3000  # a longer random game is recorded as it stands: a table still playing


def random_table(game_id: str, options: dict, seats: int, seed: int, plies: int = MAX_PLIES, fair=None) -> tuple:
    """A table played by uniformly random legal moves (up to ``plies``) and its states; a
    fair table (``fair``: its id) with every seat's fair steps made on this device."""
    game = get_game(game_id)
    table = Table(game_id, options, [{"kind": "human", "name": f"P{n}"} for n in range(seats)], seed, fair)
    states = [table.state]
    chooser = Rng(seed ^ 0x5EED)
    while not table.is_over() and len(table.log) < plies:
        if table.fair_steps():
            seat = next(seat for seat in table.to_act() if table.duty(seat) is not None)
            table.act(seat, table.duty(seat))
        else:
            movers = table.able_to_act()
            seat = movers[chooser.below(len(movers))]
            # A fair card table's hands are sealed in the state: the seat's device reads its own.
            seen = game.with_own_cup(table.state, seat, table.held) if table.held else table.state
            actions = game.legal_actions(seen, seat)
            table.act(seat, table.complete(seat, actions[chooser.below(len(actions))]))
        states.append(table.state)
    return table, states


def without_generator(state: dict) -> dict:
    """A state but its generator's, which a record does not hold (``pyengine.records``)."""
    return {key: value for key, value in state.items() if key != "rng"}


def round_trip(table, states) -> str:
    """The record of ``table`` as text; asserts that the text reads back into a record whose
    replay passes through every state of ``states`` and that writes the same text."""
    record = record_of(table)
    replayed = replay_states(record)
    assert [without_generator(s) for s in replayed] == [without_generator(s) for s in states]
    text = write_text(record, replayed)
    read, read_states = read_record(text)
    assert [without_generator(s) for s in read_states] == [without_generator(s) for s in states]
    assert write_text(read, read_states) == text
    assert read["result"] == record["result"] and len(read["steps"]) == len(record["steps"])
    return text


def mutants(text: str, rng: Rng):
    """Damaged copies of a record's text: truncated, lines swapped, dropped or doubled,
    numbers changed, moves unknown, junk and huge inputs."""
    lines = text.splitlines()
    body = lines.index("") + 1
    pick = lambda low=0: low + rng.below(len(lines) - low)  # noqa: E731
    yield text[: rng.below(len(text))]
    yield "\n".join(lines[: pick(1)])
    a, b = pick(body), pick(body)
    swapped = list(lines)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    yield "\n".join(swapped)
    at = pick()
    yield "\n".join(lines[:at] + lines[at + 1 :])
    yield "\n".join(lines[: at + 1] + lines[at:])
    at = pick()
    digits = [i for i, c in enumerate(lines[at]) if c.isdigit()]
    if digits:
        i = digits[rng.below(len(digits))]
        changed = lines[at][:i] + rng.choice(["0", "9", "77", "-1", "99999999999999999999", "x"]) + lines[at][i + 1 :]
        yield "\n".join(lines[:at] + [changed] + lines[at + 1 :])
    at = pick(body)
    junk = rng.choice(["1 fly away", "~ [[[[", "~ 1 2 3 4 5 6 7", "cups 7777", "roll crown crown", "\x00\x01",
                       '~ "unterminated', "3... a1-g7", "Seat 9 bot hard \"x\"", "; note", "~ ]", json.dumps({"a": 1})])
    yield "\n".join(lines[:at] + [junk] + lines[at:])
    yield text.replace("\n", "\n" + "x" * rng.below(MAX_LINE * 2), 1)
    yield text + "\n1 " + "1x2 " * rng.below(3000)
    yield "".join(chr(rng.below(0x3000)) for _ in range(rng.below(400)))


def refused_cleanly(text: str) -> bool:
    """Whether the import of ``text`` refused it with a line and a translated reason (rather
    than taking it); anything it raises fails the caller. A text it takes must replay."""
    answer = import_record(text, "pt")
    if answer["ok"]:
        replay_states(answer["record"])
        return False
    assert isinstance(answer["message"], str) and answer["message"] and "err." not in answer["message"], answer
    assert answer["error"]["code"].startswith("records."), answer
    assert type(answer["error"]["params"]["line"]) is int
    return True
