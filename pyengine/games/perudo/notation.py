"""Perudo's record: each round's cups as rolled (``cups 12256 13346 -``, the first round's
starter after them), then the bids and calls in order, each by its seat (``2 3x4``,
``1 dudo``). Its log: the bids and calls in words, and at each call every cup lifted and
what the round came to."""

from ...records.notation import CupNotation
from .view import _bid_label, _outcome


class PerudoNotation(CupNotation):
    def said(self, game, t, names, before, seat, action):
        if action["type"] == "bid":
            return _bid_label(t, action["count"], action["face"])
        return t(f"perudo.{action['type']}")

    def revealed(self, game, t, names, before, after):
        last = after["last_round"]
        if not last or last == before["last_round"]:
            return []
        return [t("perudo.reveal", n=last["round"]), *self.cup_lines(t, names, last["dice"]), *_outcome(names, last, t)]


NOTATION = PerudoNotation(starter_first=False)
