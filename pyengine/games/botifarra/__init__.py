"""Botifarra: the pure trick rules (the digest's named functions) and the engine in ``rules``."""

from .tricks import card_points, hand_result, legal_cards, trick_winner

__all__ = ["card_points", "hand_result", "legal_cards", "trick_winner"]
