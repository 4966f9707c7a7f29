"""The quantity-and-face bid picker shared by the dice-bluffing games (Perudo, Bozó).

A − / + stepper chooses the quantity (kept in the screen's ``ui["count"]``); one button per
face then bids that quantity on that face. Only legal bids are enabled, so the picker never
offers what the rules would refuse. The game supplies how a face looks and is named; the
``bid-*`` classes are styled once, in ``dice.css``.
"""

from .html import act_button, ui_button
from .markup import EMPTY, Markup, h


def bid_picker(legal: list, ui: dict, *, labels: dict, face_inner, bid_label, chance=None) -> Markup:
    """``legal``: the ``(count, face)`` bids allowed now; ``labels``: translated ``fewer``,
    ``more`` and ``your_bid``; ``face_inner(count, face)`` (markup) and ``bid_label(count,
    face)`` (text) draw and name a face button; ``chance(count, face)``, if given, is shown
    as a percentage (the odds helper)."""
    if not legal:
        return EMPTY
    counts = sorted({count for count, _ in legal})
    low, high = counts[0], counts[-1]
    count = ui.get("count", low)
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
        if chance is not None:
            inner.append(h("small", None, round(100 * chance(count, face)), "%"))
        if (count, face) in legal:
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
