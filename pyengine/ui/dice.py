"""SVG dice faces and the players' cups, shared by every dice game's view."""

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


def cup_players(t, prefix: str, view: dict, state, *, badge=None, upcoming=None) -> str:
    """The players of a dice-cup game, each with its dice hidden under the cup.

    ``view`` has ``players`` (names), ``counts``, ``to_act`` and ``you``; ``state(seat,
    count, flags)`` is the line under the cup, ``badge(seat)`` optional HTML after the name,
    ``upcoming`` the seat that speaks next. Classes and catalog keys carry the game's
    ``prefix``: ``<prefix>-player`` marked ``-turn``, ``-next``, ``-out``, ``-you``.
    """
    items = []
    for seat, player in enumerate(view["players"]):
        count = view["counts"][seat]
        acting = seat in view["to_act"]
        flags = {"turn": acting, "next": seat == upcoming and not acting, "out": count == 0, "you": seat == view["you"]}
        classes = " ".join([f"{prefix}-player"] + [f"{prefix}-{flag}" for flag, on in flags.items() if on])
        cup = "".join(hidden_die_svg(label=t(f"{prefix}.hidden_die"), size=18) for _ in range(count))
        items.append(
            f'<li class="{classes}" data-seat="{seat}">'
            f'<span class="{prefix}-name">{escape(player["name"])}</span>{badge(seat) if badge else ""}'
            f'<span class="{prefix}-cup" aria-hidden="true">{cup}</span>'
            f'<span class="{prefix}-state">{escape(state(seat, count, flags))}</span></li>'
        )
    return f'<ol class="{prefix}-players" aria-label="{escape(t(f"{prefix}.players"))}">{"".join(items)}</ol>'
