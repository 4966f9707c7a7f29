"""The quantity-and-face bid picker shared by the dice-bluffing games (Perudo, Bozó).

A − / + stepper chooses the quantity (kept in the screen's ``ui["count"]``); one button per
face then bids that quantity on that face. Only legal bids are enabled, so the picker never
offers what the rules would refuse. The game supplies how a face looks and is named.
"""

from html import escape

from .html import act_button, ui_button


def bid_picker(legal: list, ui: dict, *, prefix: str, labels: dict, face_inner, bid_label,
               chance=None) -> str:
    """``legal``: the ``(count, face)`` bids allowed now; ``labels``: translated ``fewer``,
    ``more`` and ``your_bid``; ``face_inner(count, face)`` and ``bid_label(count, face)``
    draw and name a face button; ``chance(count, face)``, if given, is shown as a percentage
    (the odds helper)."""
    if not legal:
        return ""
    counts = sorted({count for count, _ in legal})
    low, high = counts[0], counts[-1]
    count = ui.get("count", low)
    count = min(max(count if type(count) is int else low, low), high)
    stepper = (
        ui_button("−", {"count": count - 1}, cls=f"{prefix}-step", disabled=count <= low,
                  **{"aria-label": labels["fewer"], "data-testid": "count-down"})
        + f'<output class="{prefix}-count-value" data-testid="bid-count" aria-live="polite">{count}</output>'
        + ui_button("+", {"count": count + 1}, cls=f"{prefix}-step", disabled=count >= high,
                    **{"aria-label": labels["more"], "data-testid": "count-up"})
    )
    faces = []
    for face in range(1, 7):
        label = bid_label(count, face)
        inner = face_inner(count, face)
        if chance is not None:
            inner += f"<small>{round(100 * chance(count, face))}%</small>"
        if (count, face) in legal:
            faces.append(act_button(inner, {"type": "bid", "count": count, "face": face},
                                    cls=f"{prefix}-face",
                                    **{"aria-label": label, "data-testid": f"bid-face-{face}"}))
        else:
            faces.append(f'<button type="button" class="{prefix}-face" disabled '
                         f'aria-label="{escape(label, quote=True)}">{inner}</button>')
    return (
        f'<div class="{prefix}-picker" role="group" aria-label="{escape(labels["your_bid"])}">'
        f'<div class="{prefix}-stepper">{stepper}</div>'
        f'<div class="{prefix}-faces">{"".join(faces)}</div></div>'
    )
