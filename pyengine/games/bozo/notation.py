"""Bozó's record: each hand's cups as rolled (a drawn starter before them: ``starts 2 cups
135 246 -``), then the directions, bids and doubts in order, each by its seat."""

from ...records.notation import CupNotation

NOTATION = CupNotation(starter_first=True)
