"""Bozó: rules engine, bots, odds and seat view. ``bid_allowed`` is the engine's own bid rule."""

from ...core.registry import register
from .rules import Bozo, bid_allowed, legal_bids, table_bid_refusal

GAME = Bozo()
register(GAME)

__all__ = ["GAME", "Bozo", "bid_allowed", "legal_bids", "table_bid_refusal"]
