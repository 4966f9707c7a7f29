"""What players may say to each other at a shared table: a few premade phrases and emoji.

Never free text: a phrase travels as its id, and every device shows its own language's words
for it (catalog key ``sync.phrase.<id>`` for the phrases every game shares,
``<game>.phrase.<id>`` for a game's own), so there is nothing to moderate and nothing to
inject. An emoji is the same picture in every language; its catalog entry is the words a
screen reader says for it. A game declares its own part with ``Phrases`` (``declare(...,
phrases=Phrases("dudo"))``), and whether a new shared table starts with phrases on: a
partnership game where partners must not signal (Botifarra) starts with them off.
"""

import re

# The same picture in every language (the catalog names it for screen readers).
EMOJI = {"thumbs_up": "\U0001f44d", "laugh": "\U0001f602", "wow": "\U0001f62e", "clap": "\U0001f44f", "sad": "\U0001f622"}
SHARED = ("good_game", "well_played", "good_luck", "thanks", "oops", *EMOJI)
PHRASE_ID = r"[a-z][a-z0-9_]{0,23}"  # also the wire's shape of a phrase (protocol.envelope)


class Phrases:
    """A game's part of the phrases: its own ids (offered after the shared ones) and whether
    a new shared table of the game has phrases on (``on``)."""

    def __init__(self, *own: str, on: bool = True):
        for phrase in own:
            if not re.fullmatch(PHRASE_ID, phrase) or phrase in SHARED:
                raise ValueError(f"{phrase!r} cannot be a game's own phrase id")
        if len(set(own)) != len(own):
            raise ValueError("a game's phrase ids must differ")
        self.own = tuple(own)
        self.on = on

    @property
    def ids(self) -> tuple:
        """Every phrase a table of the game offers, in the picker's order."""
        return SHARED + self.own

    def key(self, game_id: str, phrase: str) -> str:
        """The catalog key of ``phrase``'s words (``phrase`` is one of ``ids``)."""
        return f"{game_id}.phrase.{phrase}" if phrase in self.own else f"sync.phrase.{phrase}"
