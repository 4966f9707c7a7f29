"""Bozó's record: each hand's cups as rolled (a drawn starter before them: ``starts 2 cups
135 246 -``), then the directions, bids and doubts in order, each by its seat. Its log:
those in words, and at each doubt every cup lifted and what the hand came to."""

from ...records.notation import CupNotation
from .view import _outcome, bid_label


class BozoNotation(CupNotation):
    def said(self, game, t, names, before, seat, action):
        kind = action["type"]
        if kind == "bid":
            return bid_label(t, action["count"], action["face"])
        if kind == "direction":
            return t(f"bozo.direction.{action['way']}")
        return t({"doubt": "bozo.doubt"}.get(kind, f"bozo.log.{kind}"))

    def revealed(self, game, t, names, before, after):
        last = after["last_hand"]
        if not last or last == before["last_hand"]:
            return []
        face = last["bids"][-1]["face"]
        shown = any(die == face for cup in last["dice"] for die in cup)
        lines = [t("bozo.reveal", round=last["round"], hand=last["hand"]), *self.cup_lines(t, names, last["dice"]),
                 *_outcome(names, last, shown, t)]
        if last["round_winner"] is not None:
            lines.append(t("bozo.round_winner", name=names[last["round_winner"]], n=last["round"]))
        return lines


NOTATION = BozoNotation(starter_first=True)
