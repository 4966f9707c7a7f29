"""Crown and Anchor's record: the stakes as each seat places them (``2 bet crown 5``), each
roll as its three symbols (``roll crown anchor hearts``), and after it, as a note, what each
seat won or lost (``; paid +5 -3 -2``). Any other draw (the bank given by lot) reads
``~`` and its number, as in every game. Its log: the stakes and the other choices in words,
each roll and what it paid each seat."""

from ...records.notation import Notation
from .rules import SYMBOLS, DICE
from .view import _signed


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


    def said(self, game, t, names, before, seat, action):
        kind = action["type"]
        if kind == "bet":
            return t("crown_anchor.log.bet", n=action["chips"], symbol=t(f"crown_anchor.sym.{action['symbol']}"))
        if kind == "volunteer":
            return t("crown_anchor.volunteers" if action["yes"] else "crown_anchor.declines")
        if kind == "roll":
            return None  # ``revealed``: the roll
        return t({"done": "crown_anchor.ready", "end": "crown_anchor.wants_end", "leave": "crown_anchor.left"}
                 .get(kind, "crown_anchor.log.clear"))

    def revealed(self, game, t, names, before, after):
        last = after["last"]
        if after["rolls"] == before["rolls"] or not last:
            return []
        dice = ", ".join(t(f"crown_anchor.sym.{symbol}") for symbol in last["dice"])
        paid = " · ".join(f"{name} {_signed(delta)}" for name, delta in zip(names, last["delta"]) if delta)
        return [t("crown_anchor.log.roll", name=names[last["banker"]], dice=dice), *([paid] if paid else [])]


NOTATION = CrownAnchorNotation()
