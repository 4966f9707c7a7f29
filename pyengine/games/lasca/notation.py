"""Lasca's record: a numbered move list in the rules digest's column notation.

``1. c3-d4`` is White's move (seat 1), ``1... e5xc3`` Black's answer, each number one turn
of both sides; a draw offer or its acceptance carries the number of the turn it was made in.
Its log: the same lines, each by its player, the draw offers in words.
"""

import re

from ...records.notation import Notation

_LINE = re.compile(r"(\d{1,5})(\.\.\.|\.) (\S+)")


def turn_number(state: dict) -> int:
    """The number of the turn being played: each side's move counts half."""
    return len(state["history"]) // 2 + 1


class LascaNotation(Notation):
    def action_line(self, game, before, seat, action):
        return f"{turn_number(before)}{'.' if seat == 0 else '...'} {self.action_text(game, action)}"

    def read_action(self, game, before, text):
        found = _LINE.fullmatch(text)
        if found is None:
            return super().read_action(game, before, text)  # refused there with the usual reason
        if int(found.group(1)) != turn_number(before):
            raise self.wrong_number(turn_number(before))
        return (0 if found.group(2) == "." else 1), self.parse_action(game, found.group(3))


    def said(self, game, t, names, before, seat, action):
        if action["type"] == "move":
            return f"{turn_number(before)}{'.' if seat == 0 else '...'} {action['path']}"
        return t(f"lasca.log.{action['type']}")


NOTATION = LascaNotation()
