"""Botifarra's record, PBN-like: each hand's shuffled deck (``~ [9b 6b …]``, after the
dealer's draw when there is one) with the hands it dealt as a note (``; deal 1: … / 2:
…``; at two, ``; piles`` and their packets), then the trump choice (``trump o``, ``botifarra``, ``delego``), the doublings
(``double``, ``pass``) and the twelve tricks' cards in order, each by its seat, and the
score after each hand as a note (``; score 34 - 12``). Its log: the bidding as the table
shows it, every card played, who took each trick, and the score after each hand."""

from ...records.notation import Notation
from .view import _bidding_lines, card_name


class BotifarraNotation(Notation):
    fair_setup = "dealt fairly by the players' devices"

    def notes(self, game, before, after):
        notes = []
        if before is not None and (after["hand_number"] != before["hand_number"] or after["result"]):
            notes.append("score " + " - ".join(str(score) for score in after["scores"]))
        if before is None or after["hand_number"] != before["hand_number"]:
            notes.append(f"dealer {after['dealer'] + 1}")
            notes += [self.deal_note(after["hands"])] if any(after["hands"]) else []
            notes += [self.deal_note(after["piles"], "piles")] if after["piles"] else []
        return notes


    def holdings(self, game, t, names, state):
        return self.hand_lines(t, names, state["hands"], card_name)

    def said(self, game, t, names, before, seat, action):
        return card_name(t, action["card"]) if action["type"] == "play" else None  # the bidding: ``revealed``

    def revealed(self, game, t, names, before, after):
        same_hand = after["hand_number"] == before["hand_number"]
        if same_hand:
            said_before = len(_bidding_lines(before, names, t))
            lines = _bidding_lines(after, names, t)[said_before:]
            if after["last_trick"] and after["last_trick"] != before["last_trick"]:
                lines.append(t("botifarra.took_trick", name=names[after["last_trick"]["winner"]]))
            return lines
        hand = after["last_hand"]
        return [t("botifarra.took_trick", name=names[hand["last_trick"]["winner"]]),
                t("botifarra.log.score", n=hand["number"], scores=" – ".join(map(str, hand["scores"])))]


NOTATION = BotifarraNotation()
