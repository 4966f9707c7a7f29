"""Bozó: rules engine, bots, odds and seat view. ``bid_allowed`` is the engine's own bid rule."""

from ...core.phrases import Phrases
from ...core.registry import declare
from .rules import Bozo, bid_allowed, legal_bids, table_bid_refusal

GAME = Bozo()
DECLARATION = declare(__name__, order=20, kind="dice", rules=GAME, bots=".bot", screen=".view", phrases=Phrases("duvido", "lucky"))

__all__ = ["GAME", "Bozo", "bid_allowed", "legal_bids", "table_bid_refusal"]
