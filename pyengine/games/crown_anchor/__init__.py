"""Crown and Anchor: rules engine, bots and seat view. ``expected_return`` is the exact
expected gain per chip staked, computed through the engine's own settlement."""

from ...core.phrases import Phrases
from ...core.registry import declare
from .rules import CrownAnchor, expected_return

GAME = CrownAnchor()
DECLARATION = declare(__name__, order=40, kind="betting", rules=GAME, bots=".bot", screen=".view", phrases=Phrases("come_on", "bank_wins"))

__all__ = ["GAME", "CrownAnchor", "expected_return"]
