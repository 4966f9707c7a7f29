"""Game-family kits: mechanics that several games share, none of them a game itself.

* ``dice`` — faces, bids and their notation, binomial odds; ``bluffing`` — the dice-cup
  bidding game under Perudo and Bozó (cups, rounds, calls, reveals).
* ``cards`` — decks (French, Spanish), card notation, dealing and sorting;
  ``trick_taking`` — the trick-taking base under Botifarra (seating, legal cards, tricks,
  what play reveals, ``resample``).
* ``chips`` — chips, stakes and pots (Bog, Crown and Anchor).
* ``redeal`` and ``pimc`` — what bots of hidden-information games share: dealing unseen
  cards consistently with what is known, and choosing by sampling those worlds.

Kits build on ``core`` (the contract) and never import a game.
"""
