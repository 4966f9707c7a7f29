"""Every game on record: a record's text reads back into the same game, state by state, and
a damaged or hostile text is refused with its line and a translated reason.

The bulk runs (200 games per option set, 10,000 mutated records) are ``bench/records.py``;
these are samples of them plus the refusals one by one."""

import pytest

from buildtools.po import PACKAGE, read_po
from pyengine.core.errors import TabernaError
from pyengine.core.game import Game
from pyengine.core.registry import playable_games
from pyengine.core.rng import Rng
from pyengine.i18n import COMPLETE_LANGUAGES
from pyengine.records import import_record, record_text, replay_states
from pyengine.records.chance import ChanceError, Recording, Tape
from pyengine.records.notation import DEFAULT
from pyengine.records.record import record_of, replay
from pyengine.records.text import MAX_TEXT, RecordError, write_text
from tests.i18n.test_refusal_codes import codes_under
from tests.records.proof import OPTION_SETS, mutants, random_table, refused_cleanly, round_trip, without_generator


@pytest.mark.parametrize("game_id, options, seats", OPTION_SETS, ids=lambda v: str(v) if not isinstance(v, dict) else "")
@pytest.mark.parametrize("seed", [0, 1])
def test_random_games_read_back_state_by_state_and_write_the_same_text(game_id, options, seats, seed):
    table, states = random_table(game_id, options, seats, seed, plies=400)
    round_trip(table, states)


@pytest.mark.parametrize("game_id", sorted(playable_games()))
def test_every_declared_game_has_a_notation_that_reads_back(game_id):
    """A game without a notation of its own (a new game's scaffold) writes the default one."""
    game = playable_games()[game_id]
    for plies in (0, 7, 300):
        round_trip(*random_table(game_id, {}, game.min_seats, 3, plies=plies))


@pytest.mark.parametrize("game_id", [game_id for game_id, game in sorted(playable_games().items()) if game.fair_chance])
def test_a_fair_tables_record_reads_back_with_its_commitments_and_reveals(game_id):
    text = round_trip(*random_table(game_id, {}, 3, 4, plies=80, fair="room-1:0"))
    assert "\nFair room-1:0\n" in text and '"commit' in text  # a dice commitment, a card deal's lock


@pytest.mark.parametrize("game_id, note", [("botifarra", "; dealt fairly"), ("perudo", "; rolled fairly")])
def test_a_fair_tables_set_up_is_said_to_be_drawn_fairly_and_an_earlier_records_stand_in_still_reads(game_id, note):
    """The set-up's chance of a fair table is replaced by its fair draw: the record says so
    rather than write a deck or a roll nobody was dealt; a record of an earlier version,
    which wrote that stand-in, still replays to the same states."""
    table, states = random_table(game_id, {}, 4, 6, plies=30, fair="room-1:0")
    text = round_trip(table, states)
    body = text.split("\n\n", 1)[1]
    assert body.startswith(note) and not body.startswith("~")
    record = record_of(table)
    drawn = Recording(Rng(table.seed))
    table.game.new_state(table.options, len(table.seats), table.seed, rng=drawn)
    earlier = {**record, "setup": drawn.draws}
    old_text = write_text(earlier, list(replay(earlier)))
    assert old_text.split("\n\n", 1)[1].startswith("~ ")
    assert [without_generator(state) for state in replay_states(import_record(old_text)["record"])] == [
        without_generator(state) for state in states]


def test_record_text_of_a_table_is_what_the_api_reads():
    table, states = random_table("bozo", {}, 3, 5, plies=40)
    answer = import_record(record_text(table))
    assert answer["ok"] and len(answer["record"]["steps"]) == 40 and answer["record"]["result"] is None
    assert replay_states(answer["record"])[-1]["dice"] == states[-1]["dice"]


def _refusal(text, lang="en"):
    answer = import_record(text, lang)
    assert not answer["ok"], "the damaged record was taken"
    error = answer["error"]
    return error["code"], error["params"]["line"], error.get("cause", {}).get("code"), answer["message"]


@pytest.fixture(scope="module")
def perudo_text():
    return round_trip(*random_table("perudo", {}, 3, 1, plies=12))


def _line(text, start):
    """The number of the first line of ``text`` that starts with ``start``, and the line."""
    return next((n, line) for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_an_unknown_move_is_refused_at_its_line_in_the_players_language(perudo_text):
    number, line = _line(perudo_text, "2 dudo")
    code, at, cause, message = _refusal(perudo_text.replace(line, "2 dodu", 1), "ca")
    assert (code, at, cause) == ("records.bad_move", number, "bad_bid_text")
    assert message.startswith(f"Línia {number}:")


def test_a_move_the_rules_refuse_is_refused_with_the_rules_reason(perudo_text):
    number, line = _line(perudo_text, "1 ")
    code, at, cause, message = _refusal(perudo_text.replace(line, "1 dudo", 1))
    assert (code, at) == ("records.illegal_step", number) and cause
    assert message.startswith(f"Line {number}: the rules refuse this step: ")


def test_dice_must_be_written_as_rolled(perudo_text):
    number, cups = _line(perudo_text, "cups 6666")  # the second round's roll
    first, second = cups.split()[1:3]
    moved = cups.replace(f"{first} {second}", f"{first[:-1]} {first[-1]}{second}", 1)
    assert _refusal(perudo_text.replace(cups, moved, 1))[:2] == ("records.chance_mismatch", number)
    assert _refusal(perudo_text.replace(cups, cups + "6", 1))[:3] == ("records.illegal_step", number, "records.chance_extra")
    assert _refusal(perudo_text.replace(cups, cups.replace("cups", "cups 7"), 1))[:2] == ("records.unreadable_chance", number)
    number, cups = _line(perudo_text, "cups")  # the first round's roll, with its starter
    assert cups.endswith(" starts 1")
    lines = perudo_text.splitlines()
    without = "\n".join(lines[: number - 1] + lines[number:])
    assert _refusal(without)[:3] == ("records.bad_table", number, "records.chance_missing")


def test_the_header_is_checked_line_by_line(perudo_text):
    assert _refusal(perudo_text.replace("Result *", "Result 2"))[:2] == ("records.wrong_result", _line(perudo_text, "Result")[0])
    assert _refusal(perudo_text.replace("Game perudo", "Game chess"))[:2] == ("records.bad_header", 2)
    assert _refusal(perudo_text.replace("Seat 2", "Seat 3"))[:2] == ("records.bad_header", _line(perudo_text, "Seat 2")[0])
    assert _refusal(perudo_text.replace("calza false", "calza 7"))[:3] == ("records.bad_table", 1, "option_type")
    assert _refusal("Taberna record 2\n" + perudo_text)[:2] == ("records.not_a_record", 1)


def test_huge_and_empty_inputs_are_refused_before_reading(perudo_text):
    assert _refusal(perudo_text + " " * MAX_TEXT)[:2] == ("records.too_long", 0)
    assert _refusal(perudo_text.replace("1 ", "1 " + "9" * 5000, 1))[0] == "records.line_too_long"
    for junk in ("", "   \n", None, 12, ["Taberna record 1"]):
        assert _refusal(junk)[:2] == ("records.empty", 0)


def test_lasca_moves_are_numbered_and_checked():
    text = round_trip(*random_table("lasca", {"draw_by_agreement": False}, 2, 2, plies=6))
    assert "\n1. " in text and "\n1... " in text and "\n3... " in text
    number, line = _line(text, "2. ")
    assert _refusal(text.replace(line, "3" + line[1:], 1))[:3] == ("records.bad_move", number, "records.bad_number")
    assert _refusal(text.replace(line, "2. a1-b2", 1))[:2] == ("records.illegal_step", number)


def test_a_deck_must_be_a_reordering_of_the_cards():
    text = round_trip(*random_table("bog", {}, 3, 4, plies=5))
    number, line = _line(text, "~")
    cards = line[line.index("[") + 1 : line.index("]")].split()
    doubled = line.replace(f" {cards[1]} ", f" {cards[0]} ", 1)
    assert _refusal(text.replace(line, doubled, 1))[:3] == ("records.bad_table", number, "records.chance_shuffle")


def test_a_tape_answers_the_draws_it_recorded_and_refuses_misfits():
    recording = Recording(Rng(7))
    drawn = [recording.below(6), recording.randint(1, 6), recording.choice(["a", "b"]), recording.shuffle([1, 2, 3])]
    assert recording.draws == drawn
    tape = Tape(recording.draws)
    assert [tape.below(6), tape.randint(1, 6), tape.choice(["a", "b"]), tape.shuffle([1, 2, 3])] == drawn
    tape.check_used()
    for draws, draw in (([6], lambda t: t.below(6)), ([True], lambda t: t.below(6)), (["c"], lambda t: t.choice(["a"])),
                        ([[1, 1]], lambda t: t.shuffle([1, 2])), ([], lambda t: t.below(2))):
        with pytest.raises(ChanceError):
            draw(Tape(draws))
    with pytest.raises(ChanceError):
        Tape([1]).check_used()


def test_a_stored_record_that_does_not_replay_is_refused():
    table, _ = random_table("crown_anchor", {}, 3, 2, plies=20)
    record = record_of(table)
    lacking = {key: value for key, value in record.items() if key != "options"}
    for damaged in ({}, [], lacking, {**record, "steps": [{"seat": 0}]}, {**record, "setup": [5, 5]}, {**record, "format": 2},
                    {**record, "seats": "two"}, {**record, "game": ["perudo"]}):
        with pytest.raises(RecordError) as refused:
            replay_states(damaged)
        assert refused.value.code == "records.damaged"


def test_mutated_records_are_refused_cleanly():
    refused = 0
    for game_id, options, seats in OPTION_SETS:
        text = round_trip(*random_table(game_id, options, seats, 9, plies=60))
        for mutant in mutants(text, Rng(len(text))):
            refused += refused_cleanly(mutant)
    assert refused >= 8 * len(OPTION_SETS)


def test_every_record_refusal_is_translated_in_every_language():
    codes = codes_under(PACKAGE / "records")
    assert {"records.bad_move", "records.chance_shuffle", "records.bad_number"} <= codes
    assert all(code.startswith("records.") for code in codes)
    for lang in COMPLETE_LANGUAGES:
        catalog = read_po(PACKAGE / "i18n" / f"records.{lang}.po")
        assert sorted(code for code in codes if f"err.{code}" not in catalog) == [], lang


def test_a_record_longer_than_any_game_is_refused(perudo_text, monkeypatch):
    monkeypatch.setattr("pyengine.records.text.MAX_STEPS", 5)
    number = [line[:1].isdigit() for line in perudo_text.splitlines()].index(True) + 1
    code, at, _, _ = _refusal(perudo_text)
    assert code == "records.too_long" and at > number


def test_a_fair_table_only_where_the_game_has_one(perudo_text):
    with_fair = perudo_text.replace("Result", "Fair no spaces allowed\nResult")
    assert _refusal(with_fair)[:3] == ("records.bad_table", 1, "records.no_fair")
    lasca = round_trip(*random_table("lasca", {}, 2, 1, plies=2))
    assert _refusal(lasca.replace("Result", "Fair room-1:0\nResult"))[:3] == ("records.bad_table", 1, "records.no_fair")


def test_a_game_without_a_notation_writes_its_moves_as_json_objects():
    game, action = Game(), {"type": "take", "count": 2}
    text = DEFAULT.action_line(game, {}, 1, action)
    assert text == '2 {"type":"take","count":2}'
    assert DEFAULT.read_action(game, {}, text) == (1, action)
    for unreadable in ("2 take 2", "2 {not json", "2 [1]", "two take"):
        with pytest.raises(TabernaError) as refused:
            DEFAULT.read_action(game, {}, unreadable)
        assert refused.value.code == "records.bad_line"


def _notes(text):
    return [line[2:] for line in text.splitlines() if line.startswith("; ")]


def test_notes_show_the_deals_rolls_payments_and_scores():
    botifarra = _notes(round_trip(*random_table("botifarra", {}, 4, 1, plies=60)))
    assert botifarra[0] == "dealer 2" and botifarra[-1].startswith("score ")
    hands = [hand.split(": ")[1].split() for hand in botifarra[1].removeprefix("deal ").split(" / ")]
    assert [len(hand) for hand in hands] == [12, 12, 12, 12] and len({c for hand in hands for c in hand}) == 48
    bog = _notes(round_trip(*random_table("bog", {}, 4, 1, plies=60)))
    assert [note.split()[0] for note in bog[:5]] == ["deal", "turned", "boxes", "chips", "deal"]
    lines = round_trip(*random_table("crown_anchor", {}, 3, 4, plies=60)).splitlines()
    rolled = [n for n, line in enumerate(lines) if line.startswith("roll ")]
    assert rolled and all(lines[n + 1].startswith("; paid ") and len(lines[n + 1].split()) == 5 for n in rolled)
