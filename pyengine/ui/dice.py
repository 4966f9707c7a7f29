"""SVG dice faces, shared by every dice game's cup view."""

from html import escape

_PIPS = {
    1: ((50, 50),),
    2: ((28, 28), (72, 72)),
    3: ((28, 28), (50, 50), (72, 72)),
    4: ((28, 28), (72, 28), (28, 72), (72, 72)),
    5: ((28, 28), (72, 28), (50, 50), (28, 72), (72, 72)),
    6: ((28, 28), (72, 28), (28, 50), (72, 50), (28, 72), (72, 72)),
}


def die_svg(face: int, *, label: str, wild: bool = False, highlight: bool = False, size: int = 40) -> str:
    """One die. ``wild`` draws the ace as the wild mark (the Perudo paco / Bozó ás)."""
    classes = ["die"]
    if wild:
        classes.append("die-wild")
    if highlight:
        classes.append("die-hit")
    if wild and face == 1:
        marks = '<path d="M30 58 L50 28 L70 58 L50 50 Z" class="die-mark"/>'
    else:
        marks = "".join(f'<circle cx="{x}" cy="{y}" r="8" class="die-pip"/>' for x, y in _PIPS[face])
    return (
        f'<svg class="{" ".join(classes)}" viewBox="0 0 100 100" width="{size}" height="{size}" '
        f'role="img" aria-label="{escape(label, quote=True)}">'
        f'<rect x="4" y="4" width="92" height="92" rx="18" class="die-body"/>{marks}</svg>'
    )


def hidden_die_svg(*, label: str, size: int = 28) -> str:
    """A die under another player's cup: only its presence is public."""
    return (
        f'<svg class="die die-hidden" viewBox="0 0 100 100" width="{size}" height="{size}" '
        f'role="img" aria-label="{escape(label, quote=True)}">'
        '<rect x="4" y="4" width="92" height="92" rx="18" class="die-body"/>'
        '<text x="50" y="66" text-anchor="middle" class="die-q">?</text></svg>'
    )
