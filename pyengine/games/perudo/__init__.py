"""Perudo: rules engine, bots and seat view. ``bid_allowed`` is the engine's own bid rule."""

from ...core.phrases import Phrases
from ...core.registry import declare
from .rules import Perudo, bid_allowed, check_bid, check_table_bid, legal_bids

GAME = Perudo()
DECLARATION = declare(__name__, order=10, kind="dice", rules=GAME, bots=".bot", screen=".view", phrases=Phrases("dudo", "calza"))

__all__ = ["GAME", "Perudo", "bid_allowed", "check_bid", "check_table_bid", "legal_bids"]
