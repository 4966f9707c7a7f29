"""Crown and Anchor: rules engine, bots and seat view. ``expected_return`` is the exact
expected gain per chip staked, computed through the engine's own settlement."""

from ...core.registry import register
from .rules import CrownAnchor, expected_return

GAME = CrownAnchor()
register(GAME)

__all__ = ["GAME", "CrownAnchor", "expected_return"]
