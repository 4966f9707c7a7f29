"""Botifarra's record, PBN-like: each hand's shuffled deck (``~ [9b 6b …]``, after the
dealer's draw when there is one) with the hands it dealt as a note (``; deal 1: … / 2:
…``; at two, ``; piles`` and their packets), then the trump choice (``trump o``, ``botifarra``, ``delego``), the doublings
(``double``, ``pass``) and the twelve tricks' cards in order, each by its seat, and the
score after each hand as a note (``; score 34 - 12``)."""

from ...records.notation import Notation


class BotifarraNotation(Notation):
    def notes(self, game, before, after):
        notes = []
        if before is not None and (after["hand_number"] != before["hand_number"] or after["result"]):
            notes.append("score " + " - ".join(str(score) for score in after["scores"]))
        if before is None or after["hand_number"] != before["hand_number"]:
            notes.append(f"dealer {after['dealer'] + 1}")
            notes += [self.deal_note(after["hands"])] if any(after["hands"]) else []
            notes += [self.deal_note(after["piles"], "piles")] if after["piles"] else []
        return notes


NOTATION = BotifarraNotation()
