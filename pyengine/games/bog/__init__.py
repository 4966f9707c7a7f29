"""Bog (Poch): an old card game of chips on a six-box board, a round of bragging and a race
to empty one's hand. The rules' pure functions (``combos``) are importable from the package."""

from ...core.phrases import Phrases
from ...core.registry import declare
from .combos import best_combination, compare, deal_plan, next_in_suit, phase1_winner, phase2_turn
from .rules import Bog

GAME = Bog()
DECLARATION = declare(__name__, order=50, kind="cards", rules=GAME, bots=".bot", screen=".view", phrases=Phrases("bog", "lucky"))

__all__ = ["DECLARATION", "GAME", "Bog", "best_combination", "compare", "deal_plan", "next_in_suit",
           "phase1_winner", "phase2_turn"]
