"""The shape combinators: what fits, what does not, and the path a misfit names."""

import json

import pytest

from pyengine.core.game import PLAYERS
from pyengine.core.options import Option, options_shape
from pyengine.core.registry import get_game
from pyengine.core.shape import (
    Bool,
    Dict,
    Enum,
    Int,
    List,
    Map,
    Number,
    OneOf,
    Optional,
    PerSeat,
    Seat,
    Seats,
    ShapeError,
    Str,
    Tuple,
    Unchecked,
    Where,
)

TABLE = Dict(
    {
        "you": Optional(Seat()),
        "counts": PerSeat(Int(0, 5)),
        "to_act": Seats(),
        "players": PerSeat(Dict({"name": Str(6)}, optional={"level": Str(8, "[a-z]+")})),
        "stakes": Map(Enum("crown", "anchor"), Int(1, 99), max_len=2),
        "pair": Tuple(Int(-9, 9), Int(1, 9)),
    }
)
GOOD = {
    "you": 1,
    "counts": [5, 0, 3],
    "to_act": [2, 0],
    "players": [{"name": "Ana"}, {"name": "Bot", "level": "easy"}, {"name": "Zoë"}],
    "stakes": {"crown": 5},
    "pair": [-1, 6],
}


def misfit(shape, value, seats=3) -> str:
    with pytest.raises(ShapeError) as caught:
        shape.check(value, seats)
    return str(caught.value)


def changed(path, new):
    value = json.loads(json.dumps(GOOD))
    target = value
    for step in path[:-1]:
        target = target[step]
    if new is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = new
    return value


def test_a_good_value_fits_and_seats_are_relative_to_the_table():
    TABLE.check(GOOD, 3)
    assert TABLE.fits(GOOD, 3)
    assert not TABLE.fits(GOOD, 2)  # seat 2 and three cups do not exist at two seats
    assert not TABLE.fits(GOOD, 4)  # four seats need four cups and four players


@pytest.mark.parametrize(
    "path, new, message",
    [
        (("you",), 3, "you: not a seat number below 3"),
        (("you",), True, "you: not a seat number below 3"),
        (("counts", 1), 6, "counts[1]: not from 0 to 5"),
        (("counts", 1), 2.0, "counts[1]: not a whole number"),
        (("counts", 1), False, "counts[1]: not a whole number"),
        (("counts",), [1, 2], "counts: has 2 items, not 3"),
        (("to_act",), [1, 1], "to_act: names a seat twice"),
        (("to_act",), [0, 1, 2, 0], "to_act: has 4 items, not 0 to 3"),
        (("players", 2, "name"), "x" * 7, "players[2].name: longer than 6 characters"),
        (("players", 2, "name"), "\ud800", "players[2].name: not valid Unicode text"),
        (("players", 2, "name"), 5, "players[2].name: not text"),
        (("players", 1, "level"), "Easy", "players[1].level: not in the expected notation"),
        (("players", 1, "colour"), "red", "players[1]: has an unexpected key 'colour'"),
        (("players", 0, "name"), KeyError, "players[0]: lacks 'name'"),
        (("stakes", "spades"), 1, "stakes: has an unexpected key 'spades'"),
        (("stakes", "crown"), 100, "stakes.crown: not from 1 to 99"),
        (("pair", 1), 0, "pair[1]: not from 1 to 9"),
        (("pair",), [1], "pair: not a list of 2 items"),
        (("players",), {"0": {"name": "a"}}, "players: not a list"),
        (("you",), KeyError, "(top): lacks 'you'"),
    ],
)
def test_a_misfit_names_its_path_and_why(path, new, message):
    assert misfit(TABLE, changed(path, new)) == message


def test_hostile_keys_are_cut_short_in_the_path():
    shape = Dict({"a b": Dict({"x": Int(0, 1)})})
    assert misfit(shape, {"a b": {"x": 2}}) == "['a b'].x: not from 0 to 1"
    assert misfit(shape, {"a b": {"x": 1}, "<" * 100: 1}).endswith(repr("<" * 32))


def test_enum_compares_as_json():
    assert Enum(1, "one").fits(1, 1) and not Enum(1).fits(True, 1) and not Enum(True).fits(1, 1)
    assert Enum([1, 2, 3]).fits([1, 2, 3], 1)
    assert not Enum([1, 2, 3]).fits([True, 2, 3], 1) and not Enum([1, 2, 3]).fits([1, 2], 1)


def test_choices_and_cross_checks():
    either = OneOf(Dict({"winners": List(Seat(), 1, 1)}), Dict({"winners": List(Seat(), 0), "draw": Enum(True)}))
    assert either.fits({"winners": [1]}, 2) and either.fits({"winners": [], "draw": True}, 2)
    assert misfit(either, {"winners": [], "draw": False}, 2) == "(top): fits none of its 2 forms"
    ordered = Where(Tuple(Int(0, 9), Int(0, 9)), lambda pair: pair[0] <= pair[1], "the pair is not in order")
    assert ordered.fits([1, 2], 1)
    assert misfit(Dict({"pair": ordered}), {"pair": [3, 2]}) == "pair: the pair is not in order"
    assert Optional(Bool()).fits(None, 1) and not Optional(Bool()).fits(0, 1)


def test_enum_of_texts_refuses_what_only_looks_alike():
    kinds = Enum("ante", "pay")
    assert kinds.fits("pay", 1)
    for other in ("Pay", "pay ", 1, None, ["pay"], {"pay": 1}, True):
        assert not kinds.fits(other, 1)


def test_tagged_forms_are_checked_against_the_form_their_tag_names():
    event = OneOf(Dict({"event": Enum("ante", "bog"), "chips": Int(0, 9)}), Dict({"event": Enum("leave")}),
                  Dict({"event": Enum("pay"), "to": Seat()}, optional={"note": Str(5)}))
    assert event.tag == "event"
    for fits in ({"event": "ante", "chips": 3}, {"event": "bog", "chips": 0}, {"event": "leave"},
                 {"event": "pay", "to": 1}, {"event": "pay", "to": 0, "note": "hi"}):
        assert event.fits(fits, 2), fits
    for misfit_ in ({"event": "leave", "chips": 3}, {"event": "pay", "chips": 3}, {"event": "ante"},
                    {"event": "pay", "to": 2}, {"chips": 3}, {"event": "gift"}, {"event": ["ante"], "chips": 1},
                    {"event": {"x": 1}}, {"event": 1}, {"event": None}, ["event", "ante"], "ante", None):
        assert not event.fits(misfit_, 2), misfit_
        assert misfit(List(event, 3), [{"event": "leave"}, misfit_], 2) == "[1]: fits none of its 3 forms"
    # Forms sharing a tag, or a tag that is not required, are tried one by one as before.
    overlapping = OneOf(Dict({"type": Enum("a"), "n": Int(0, 1)}), Dict({"type": Enum("a", "b"), "n": Int(5, 6)}))
    assert overlapping.tag is None and overlapping.fits({"type": "a", "n": 5}, 1)
    assert not overlapping.fits({"type": "b", "n": 1}, 1)
    optional_tag = OneOf(Dict({"n": Int(0, 1)}, optional={"type": Enum("a")}), Dict({"type": Enum("b")}))
    assert optional_tag.tag is None and optional_tag.fits({"n": 1}, 1)


def test_options_and_players_have_shapes():
    options = options_shape({"calza": Option(False), "style": Option("a", choices=("a", "b")),
                             "target": Option(3, minimum=1, maximum=21)})
    assert options.fits({"calza": True, "style": "b", "target": 21}, 2)
    assert not options.fits({"calza": True, "style": "c", "target": 21}, 2)
    assert not options.fits({"calza": True, "style": "b", "target": 22}, 2)
    assert not options.fits({"calza": True, "style": "b"}, 2)
    with pytest.raises(ValueError):
        Option(3).shape()  # a number without bounds has no shape
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "name": "B", "level": "easy"}]
    assert PLAYERS.fits(seats, 2) and not PLAYERS.fits(seats, 3)
    assert not PLAYERS.fits([{"kind": "alien", "name": "x"}, seats[1]], 2)
    assert not PLAYERS.fits([{"kind": "human", "name": "x" * 25}, seats[1]], 2)


def test_a_view_of_a_table_of_the_wrong_size_does_not_fit():
    perudo = get_game("perudo")
    view = perudo.view(perudo.new_state({}, 3, 1), 0)
    perudo.check_view(view, 3)
    for seats in (1, 2, 7, "3", None):
        with pytest.raises(ShapeError):
            perudo.check_view(view, seats)


def test_numbers_and_open_objects():
    assert Number(0, 10).fits(2.5, 3) and Number(0, 10).fits(10, 3)
    assert misfit(Number(0, 10), True) == "(top): not a number"
    assert misfit(Number(0, 10), -0.5) == "(top): not from 0 to 10"
    action = Dict({"type": Str(8)}, other=Unchecked())
    assert action.fits({"type": "bid", "count": [1, {"x": None}], "face": "?"}, 3)
    assert misfit(action, {"count": 1}) == "(top): lacks 'type'"
    assert misfit(action, {"type": 5}) == "type: not text"
    assert misfit(Dict({"type": Str(8)}), {"type": "bid", "count": 1}) == "(top): has an unexpected key 'count'"
