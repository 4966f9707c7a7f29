"""Bog's record: each deal's shuffled deck (``~ [7S AS …]``, after the first dealer's draw)
with the hands, the turned-up card and the boxes' chips as notes, then the exchange, the
stakes (``bog 4``, ``out``) and the run's cards in order, each by its seat, and the chips
after each deal as a note (``; chips 26 28 28 28``)."""

from ...records.notation import Notation


class BogNotation(Notation):
    def notes(self, game, before, after):
        notes = []
        if before is not None and (after["deal"] != before["deal"] or after["result"]):
            notes.append("chips " + " ".join(str(chips) for chips in after["chips"]))
        if (before is None or after["deal"] != before["deal"]) and after["hands"]:
            boxes = " ".join(f"{box}={sum(chips)}" for box, chips in after["boxes"].items())
            notes += [self.deal_note(after["hands"]), f"turned {after['turned']}", f"boxes {boxes}"]
        return notes


NOTATION = BogNotation()
