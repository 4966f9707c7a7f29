"""Botifarra: the Catalan trick-taking game for two partnerships with the Spanish deck
(rules engine ``rules.Botifarra``, bots, seat view). The digest's pure trick functions are
importable from here."""

from ...core.phrases import Phrases
from ...core.registry import declare
from .rules import Botifarra
from .tricks import card_points, hand_result, legal_cards, trick_winner

GAME = Botifarra()
# Phrases start off at a shared table: partners must not signal (the host may switch them on).
PHRASES = Phrases("visca", on=False)
DECLARATION = declare(__name__, order=60, kind="cards", rules=GAME, bots=".bot", screen=".view", phrases=PHRASES)

__all__ = ["DECLARATION", "GAME", "Botifarra", "card_points", "hand_result", "legal_cards", "trick_winner"]
