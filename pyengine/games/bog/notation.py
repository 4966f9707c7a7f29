"""Bog's record: each deal's shuffled deck (``~ [7S AS …]``, after the first dealer's draw)
with the hands, the turned-up card and the boxes' chips as notes, then the exchange, the
stakes (``bog 4``, ``out``) and the run's cards in order, each by its seat, and the chips
after each deal as a note (``; chips 26 28 28 28``). Its log: what the table tells of each
deal (antes, the exchange, every stake, the boxes collected, the payments), the showdown's
combinations and the run's cards."""

from ...records.notation import Notation
from .view import card_name, combination_text, event_text, _cards


class BogNotation(Notation):
    fair_setup = "dealt fairly by the players' devices"

    def notes(self, game, before, after):
        notes = []
        if before is not None and (after["deal"] != before["deal"] or after["result"]):
            notes.append("chips " + " ".join(str(chips) for chips in after["chips"]))
        if (before is None or after["deal"] != before["deal"]) and after["hands"]:
            boxes = " ".join(f"{box}={sum(chips)}" for box, chips in after["boxes"].items())
            notes += [self.deal_note(after["hands"])] if any(after["hands"]) else []  # a fair deal: its steps
            notes += [f"turned {after['turned']}"] if after["turned"] else []
            notes.append(f"boxes {boxes}")
        return notes

    def holdings(self, game, t, names, state):
        return self.hand_lines(t, names, state["hands"], card_name)

    def said(self, game, t, names, before, seat, action):
        return card_name(t, action["card"]) if action["type"] == "play" else None  # the rest: events

    def revealed(self, game, t, names, before, after):
        if after["deal"] == before["deal"] and not after["result"]:
            events = after["events"][len(before["events"]):]
        else:  # the deal ended: the rest of its events, then the next deal's
            finished = after["last_deal"]["events"] if after["last_deal"] else []
            events = finished[len(before["events"]):] + after["events"]
        lines = [event_text(t, event, names) for event in events]
        showdown = after["showdown"]
        if showdown and not before["showdown"]:  # told before who won it
            shown = [t("bog.showdown")]
            for seat in showdown["boggers"]:
                hand = showdown["shown"][seat]
                what = combination_text(t, hand, _cards(hand["cards"])) if hand else t("bog.lone_bogger")
                shown.append(t("log.said", name=names[seat], what=what))
            at = next((i for i, event in enumerate(events) if event["event"] == "bog_win"), len(events))
            lines[at:at] = shown
        return lines


NOTATION = BogNotation()
