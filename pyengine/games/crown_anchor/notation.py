"""Crown and Anchor's record: the stakes as each seat places them (``2 bet crown 5``), each
roll as its three symbols (``roll crown anchor hearts``), and after it, as a note, what each
seat won or lost (``; paid +5 -3 -2``). Any other draw (the bank given by lot) reads
``~`` and its number, as in every game."""

from ...records.notation import Notation
from .rules import SYMBOLS, DICE


class CrownAnchorNotation(Notation):
    def chance_line(self, game, after, draws):
        rolled = [SYMBOLS[draw] for draw in draws[:DICE] if type(draw) is int and 0 <= draw < len(SYMBOLS)]
        if len(draws) == DICE and after.get("dice") == rolled:
            return "roll " + " ".join(rolled)
        return super().chance_line(game, after, draws)

    def read_chance(self, game, text):
        words = text.split()
        if words[:1] != ["roll"]:
            return super().read_chance(game, text)
        if len(words) != DICE + 1 or not set(words[1:]) <= set(SYMBOLS):
            raise self.bad_chance("A roll is three symbols")
        return [SYMBOLS.index(word) for word in words[1:]]

    def notes(self, game, before, after):
        if before is None or after["rolls"] == before["rolls"] or not after.get("last"):
            return []
        return ["paid " + " ".join(f"{delta:+d}" for delta in after["last"]["delta"])]


NOTATION = CrownAnchorNotation()
