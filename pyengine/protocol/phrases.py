"""A word to your friends: the premade phrases (``core.phrases``) on a shared table's wire.

A guest sends ``say`` (its seat and a phrase id); the host checks that the sender holds the
seat, that the table has phrases on, that the id is one of the game's, and that the seat has
not said more than ``PER_MINUTE`` in the last minute, then tells every peer ``said`` (the
sender too: every device shows it the same way). A phrase is news, not state: nothing is
resent, and one that is lost is lost.

Each device keeps a ``Board``: the latest phrase of each seat, shown for ``SHOW_MS`` from
when this device heard it, and the seats this device mutes (kept with the table's save, so a
reload keeps them). The board knows the time only from the calls that bring it (messages,
the clock's tick), so a phrase goes from the screen at the first tick after ``SHOW_MS``:
the state says what shows, never a timer on the page.
"""

from collections import deque

from ..core.errors import BadSave
from ..core.registry import get_declaration
from .envelope import ProtocolError

SHOW_MS = 4_000  # how long a phrase shows beside its seat
PER_MINUTE = 5  # phrases a seat may say in any minute (the host drops more)
MINUTE = 60_000
# A guest spaces its own phrases a little more than the host counts, so that one sent on
# time never arrives early (a message that waited longer on the way than the next one).
GUEST_SLACK_MS = 2_000


def check_phrase(game_id, phrase, on: bool) -> None:
    """Nothing if a table of ``game_id`` with phrases ``on`` offers ``phrase``; else a
    translated refusal (``phrase_off``, ``phrase_unknown``)."""
    if not on:
        raise ProtocolError("Phrases are switched off at this table", "phrase_off")
    if phrase not in get_declaration(game_id).phrases.ids:
        raise ProtocolError("That phrase is not one this table knows", "phrase_unknown")


class Pace:
    """At most ``count`` events per key in any ``window`` ms (a sliding window)."""

    def __init__(self, count: int = PER_MINUTE, window: int = MINUTE):
        self.count = count
        self.window = window
        self._times: dict = {}

    def allow(self, key, now) -> bool:
        """Whether ``key`` may have one more event at ``now`` (then it is counted)."""
        times = self._times.setdefault(key, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.count:
            return False
        times.append(now)
        return True


class Board:
    """What this device shows of the table's phrases, and whose it mutes."""

    def __init__(self, muted=()):
        self.muted = set(muted)
        self.now = 0  # the latest time a call brought
        self._said: dict = {}  # seat -> (phrase, heard at, number)
        self._count = 0

    def at(self, now) -> None:
        self.now = max(self.now, now)

    def heard(self, seat: int, phrase: str, now) -> None:
        self.at(now)
        self._count += 1
        self._said[seat] = (phrase, now, self._count)

    def shown(self) -> dict:
        """``{seat: (phrase, number)}``: each unmuted seat's phrase still showing; the number
        tells one saying from the next (the page fades a new one in)."""
        return {
            seat: (phrase, number)
            for seat, (phrase, heard, number) in self._said.items()
            if seat not in self.muted and self.now - heard < SHOW_MS
        }

    def mute(self, seat: int) -> None:
        """Mutes ``seat``'s phrases on this device, or hears them again."""
        self.muted ^= {seat}

    def mark(self) -> tuple:
        """Changes whenever what the board shows does."""
        return tuple(sorted(self.shown().items())), tuple(sorted(self.muted))

    def to_json(self) -> list:
        return sorted(self.muted)

    @classmethod
    def from_json(cls, muted, seats: int) -> "Board":
        if not isinstance(muted, list) or any(type(s) is not int or not 0 <= s < seats for s in muted):
            raise BadSave("The muted players in the save are damaged", "phrase_save")
        return cls(muted)
