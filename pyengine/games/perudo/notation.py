"""Perudo's record: each round's cups as rolled (``cups 12256 13346 -``, the first round's
starter after them), then the bids and calls in order, each by its seat (``2 3x4``,
``1 dudo``)."""

from ...records.notation import CupNotation

NOTATION = CupNotation(starter_first=False)
