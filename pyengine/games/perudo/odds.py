"""How likely a bid is, seen from one seat: the odds helper and the bots share this."""

from ...kits.dice import binomial_at_least


def face_chance(face: int, aces_wild: bool) -> float:
    """Chance that one unseen die counts for ``face``."""
    return 2 / 6 if aces_wild and face != 1 else 1 / 6


def bid_chance(view: dict, count: int, face: int) -> float:
    """P(at least ``count`` dice count for ``face``) given the viewer's own cup only."""
    aces_wild = not view["palifico"]
    own = view["dice"] or []
    mine = sum(1 for d in own if d == face or (aces_wild and d == 1 and face != 1))
    unseen = sum(view["counts"]) - len(own)
    return binomial_at_least(count - mine, unseen, face_chance(face, aces_wild))
