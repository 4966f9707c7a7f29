"""Perudo: rules engine, bots and seat view. ``bid_allowed`` is the engine's own bid rule."""

from ...core.registry import register
from .rules import Perudo, bid_allowed, check_bid, check_table_bid, legal_bids

GAME = Perudo()
register(GAME)

__all__ = ["GAME", "Perudo", "bid_allowed", "check_bid", "check_table_bid", "legal_bids"]
