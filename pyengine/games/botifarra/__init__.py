"""Botifarra: the Catalan trick-taking game for two partnerships with the Spanish deck.
Coming soon: declared for the lobby (strings, icon); the engine is ``rules.Botifarra`` (not
registered yet). The digest's pure trick functions are importable from here."""

from ...core.registry import declare
from .tricks import card_points, hand_result, legal_cards, trick_winner

DECLARATION = declare(__name__, order=60, kind="cards", seats=(4, 4))

__all__ = ["DECLARATION", "card_points", "hand_result", "legal_cards", "trick_winner"]
