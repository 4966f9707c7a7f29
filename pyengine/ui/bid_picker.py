"""The quantity-and-face bid picker shared by the dice-bluffing games (Perudo, Bozó).

A − / + stepper chooses the quantity (kept in the screen's ``ui["count"]``); one button per
face then bids that quantity on that face. Only legal bids are enabled, so the picker never
offers what the rules would refuse, and the odds helper rates only those. The game supplies
how a face looks and is named; the ``bid-*`` classes are styled once, in ``dice.css``.

The stepper starts at a count worth bidding (``_start_count``), so that an opening or a raise
takes a tap or two instead of stepping up from one.
"""

from ..kits.bluffing import ACE
from .html import act_button, ui_button
from .markup import EMPTY, Markup, h

# An opening on a face counts that face and, where aces are wild, the aces: about one die
# in three of those in play.
OPENING_SHARE = 3


def _start_count(legal: list, bids: list, dice_in_play: int) -> int:
    """The quantity the stepper shows first: about a third of the dice in play for an
    opening, else the smallest count at which an ordinary face may raise the bid (the
    smallest count of all, e.g. a bid on aces, when no ordinary face may); ``legal`` holds
    at least one bid."""
    counts = [count for count, face in legal if face != ACE] or [count for count, _ in legal]
    if bids:
        return min(counts)
    return min(max(dice_in_play // OPENING_SHARE, min(counts)), max(counts))


def bid_picker(view: dict, legal: list, ui: dict, *, labels: dict, face_inner, bid_label, chance=None) -> Markup:
    """``view``: the seat's view (its ``bids`` and ``counts`` set the quantity shown until
    the player steps); ``legal``: the ``(count, face)`` bids allowed now; ``labels``:
    translated ``fewer``, ``more`` and ``your_bid``; ``face_inner(count, face)`` (markup) and
    ``bid_label(count, face)`` (text) draw and name a face button; ``chance(count, face)``, if
    given, is shown as a percentage on the legal faces (the odds helper)."""
    if not legal:
        return EMPTY
    counts = sorted({count for count, _ in legal})
    low, high = counts[0], counts[-1]
    count = ui.get("count", _start_count(legal, view["bids"], sum(view["counts"])))
    count = min(max(count if type(count) is int else low, low), high)
    stepper = h(
        "div", {"class": "bid-stepper"},
        ui_button("−", {"count": count - 1}, cls="bid-step", disabled=count <= low,
                  **{"aria-label": labels["fewer"], "data-testid": "count-down"}),
        h("output", {"class": "bid-count", "data-testid": "bid-count", "aria-live": "polite"}, count),
        ui_button("+", {"count": count + 1}, cls="bid-step", disabled=count >= high,
                  **{"aria-label": labels["more"], "data-testid": "count-up"}),
    )
    faces = []
    for face in range(1, 7):
        label = bid_label(count, face)
        inner = [face_inner(count, face)]
        if (count, face) in legal:
            if chance is not None:
                pct = f"{round(100 * chance(count, face))}%"
                inner.append(h("small", None, pct))
                label = f"{label}, {pct}"  # the name holds what the button shows
            faces.append(act_button(inner, {"type": "bid", "count": count, "face": face},
                                    cls="bid-face",
                                    **{"aria-label": label, "data-testid": f"bid-face-{face}"}))
        else:
            faces.append(h("button", {"type": "button", "class": "bid-face", "disabled": True,
                                      "aria-label": label}, inner))
    return h(
        "div", {"class": "bid-picker", "role": "group", "aria-label": labels["your_bid"]},
        stepper,
        h("div", {"class": "bid-faces"}, faces),
    )
