"""How a game writes the body of its record: the default, and how a game declares its own.

A game's notation is the object ``NOTATION`` in the module ``notation`` of its package
(``pyengine/games/<id>/notation.py``), found through its declaration and imported on first
use like its bots; a game without one writes with ``Notation`` itself. A notation turns
one step into lines and back:

* ``action_line(game, before, seat, action)`` and ``read_action(game, before, text)``: the
  action (``before``: the state it is played in). By default ``<seat> <action>``, the seat
  counted from 1 and the action in the game's own ``action_text`` (a JSON object where
  that does not read back: a fair table's commitments and reveals).
* ``chance_line(game, after, draws)`` and ``read_chance(game, text)``: the outcomes one
  step drew (``after``: the state they led to). By default ``~`` and the outcomes as
  tokens (``tokens.py``). ``read_chance`` answers ``None`` for a line that is not chance.
* ``notes(game, before, after)``: comment lines for a reader (what a call revealed, the
  hands dealt), derived from the states, so an import skips them. A fair table's record
  has no set-up chance (its devices drew it together): a note says so (``fair_setup``).
* ``log(game, t, names, before, seat, action, after)``: the game log's lines for one step,
  in the reader's language (``t``), from one seat's *views* before and after it, never from
  the states: a log can tell only what that seat saw (``said``: the action in words;
  ``revealed``: what the step made public, the cups at a call, a trick's taker).
* ``holdings(game, t, names, state)``: what every seat holds hidden from the others (cups,
  hands), a line each, for the all-seeing spectator of a finished game's replay; from the
  *state*, so never shown before the game is over, and never a fair table's sealed card.

An import replays each step and then writes its chance line again: a chance line that
does not read back as written (a die moved to another cup) is refused.
"""

import importlib
import json
import re

from ..core.errors import TabernaError
from ..core.registry import get_declaration
from ..core.validate import is_plain_json
from ..core.fair_deck import is_sealed
from .tokens import read_tokens, write_tokens

_SEAT_ACTION = re.compile(r"(\d{1,3}) +(\S.*)")


class Notation:
    """The default notation, and the base of a game's own (see the module docstring)."""

    chance_mark = "~"
    # A fair table's record opens with this note instead of its set-up's chance: every device
    # at the table drew it together, and the steps hold how (``record.record_of``).
    fair_setup = "drawn fairly by the players' devices"

    def action_line(self, game, before: dict, seat: int, action: dict) -> str:
        return f"{seat + 1} {self.action_text(game, action)}"

    def read_action(self, game, before: dict, text: str) -> tuple:
        found = _SEAT_ACTION.fullmatch(text)
        if found is None:
            raise TabernaError("A move is written as its seat number and the move", "records.bad_line")
        return int(found.group(1)) - 1, self.parse_action(game, found.group(2))

    @staticmethod
    def action_text(game, action: dict) -> str:
        """The action in the game's notation, or as a JSON object where that notation does
        not read it back (a fair table's commitments and reveals)."""
        try:
            text = game.action_text(action)
            if game.parse_action(text) == action:
                return text
        except (TabernaError, KeyError, NotImplementedError):  # no notation for it, or none at all
            pass
        return json.dumps(action, separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def parse_action(game, text: str) -> dict:
        """What ``action_text`` wrote (untrusted: a JSON object is only read, the rules judge it)."""
        if not text.startswith("{"):
            try:
                return game.parse_action(text)
            except NotImplementedError:  # a game without a notation of its own writes JSON
                raise TabernaError("This game's moves are written as JSON objects", "records.bad_line") from None
        try:
            action = json.loads(text)
        except ValueError:
            action = None
        if not isinstance(action, dict) or not is_plain_json(action):
            raise TabernaError("A move written in braces is a JSON object", "records.bad_line")
        return action

    def chance_line(self, game, after: dict, draws: list) -> str:
        return f"{self.chance_mark} {write_tokens(draws)}"

    def read_chance(self, game, text: str):
        mark, _, rest = text.partition(" ")
        return read_tokens(rest) if mark == self.chance_mark else None

    def notes(self, game, before, after: dict) -> list:
        return []

    # --- the game log (``shell/log.py``) -------------------------------------------------------
    def log(self, game, t, names: list, before: dict, seat: int, action: dict, after: dict) -> list:
        """One step in words: who did what (``said``), then what it revealed (``revealed``)."""
        said = self.said(game, t, names, before, seat, action)
        lines = [t("log.said", name=names[seat], what=said)] if said else []
        return lines + self.revealed(game, t, names, before, after)

    def said(self, game, t, names: list, before: dict, seat: int, action: dict):
        """The action in words (``None``: ``revealed`` tells it); by default its notation."""
        return self.action_text(game, action)

    def revealed(self, game, t, names: list, before: dict, after: dict) -> list:
        """The lines of what the step made public to this view."""
        return []

    def holdings(self, game, t, names: list, state: dict) -> list:
        """Every seat's hidden holding in words; by default nothing is hidden."""
        return []

    @staticmethod
    def hand_lines(t, names: list, hands: list, card_name) -> list:
        """Every hand's cards by name, a line each (``Ana: 9 of cups, …``): a fair table's
        sealed cards (``#j``: only their holder's device reads them) are left out."""
        lines = []
        for seat, hand in enumerate(hands):
            cards = [card_name(t, card) for card in hand if not is_sealed(card)]
            if cards:
                lines.append(t("replay.holds", name=names[seat], cards=", ".join(cards)))
        return lines

    @staticmethod
    def cup_lines(t, names: list, cups: list) -> list:
        """Every cup lifted at a call, a line each: ``Ana: 1 2 2 5 6``."""
        return [t("log.cup", name=names[seat], dice=" ".join(map(str, cup))) for seat, cup in enumerate(cups) if cup]

    @staticmethod
    def deal_note(hands: list, word: str = "deal") -> str:
        """The cards each seat was dealt, for a note: ``deal 1: 9o 11o … / 2: 1o 9c …``
        (packets in brackets; a seat dealt nothing is left out)."""
        return f"{word} " + " / ".join(f"{seat}: {write_tokens(hand)}" for seat, hand in enumerate(hands, 1) if hand)

    @staticmethod
    def bad_chance(why: str) -> TabernaError:
        """The refusal of a chance line the notation cannot read."""
        return TabernaError(f"Unreadable outcomes: {why}", "records.bad_chance")

    @staticmethod
    def wrong_number(expected: int) -> TabernaError:
        """The refusal of a numbered line whose number is not the next one."""
        return TabernaError(f"This line should be numbered {expected}", "records.bad_number", expected=expected)


class CupNotation(Notation):
    """Dice games with a cup per seat: a roll reads ``cups 13556 2246 -`` (each cup sorted,
    as the rules keep it; ``-`` a seat without dice) and a drawn starting seat ``starts 2``,
    before or after the cups as the rules draw it (``starter_first``)."""

    fair_setup = "rolled fairly by the players' devices"

    def __init__(self, starter_first: bool):
        self.starter_first = starter_first

    def chance_line(self, game, after, draws):
        cups = after.get("dice") or []
        dice = [face for cup in cups for face in (cup or [])]
        extra = len(draws) - len(dice)
        rolled = draws[extra:] if self.starter_first else draws[: len(dice)]
        starter = (draws[:extra] if self.starter_first else draws[len(dice):])
        if extra not in (0, 1) or sorted(rolled) != sorted(dice) or not all(type(s) is int for s in starter):
            return super().chance_line(game, after, draws)  # not a fresh roll: as outcomes
        words = ["cups", *("".join(map(str, cup)) if cup else "-" for cup in cups)]
        if starter:
            words = [f"starts {starter[0] + 1}", *words] if self.starter_first else [*words, f"starts {starter[0] + 1}"]
        return " ".join(words)

    def holdings(self, game, t, names, state):
        """The cups as rolled (a fair table's: those already lifted or this device's own)."""
        return self.cup_lines(t, names, state["dice"])

    def read_chance(self, game, text):
        words = text.split()
        if "cups" not in words:
            return super().read_chance(game, text)
        starter = []
        if "starts" in words:
            at = words.index("starts")
            if at + 1 >= len(words) or not re.fullmatch(r"\d{1,3}", words[at + 1]):
                raise self.bad_chance("'starts' is followed by a seat number")
            starter = [int(words[at + 1]) - 1]
            del words[at : at + 2]
        if words[0] != "cups" or not all(re.fullmatch(r"-|[1-6]{1,40}", cup) for cup in words[1:]):
            raise self.bad_chance("cups are written as their dice, 1 to 6, or '-'")
        dice = [int(face) for cup in words[1:] if cup != "-" for face in cup]
        return [*starter, *dice] if self.starter_first else [*dice, *starter]


DEFAULT = Notation()
_FOUND: dict = {}


def notation_for(game_id: str) -> Notation:
    """The game's ``NOTATION`` (module ``notation`` of its package), or the default."""
    if game_id not in _FOUND:
        name = f"{get_declaration(game_id).package}.notation"
        try:
            _FOUND[game_id] = importlib.import_module(name).NOTATION
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise
            _FOUND[game_id] = DEFAULT
    return _FOUND[game_id]
