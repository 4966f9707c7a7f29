"""Fair cards at a shared table: a deck locked and shuffled by every device in turn, so that
no device (the host included) deals, and each card is read only by the seat it goes to.

The cards' counterpart of ``core.fair`` (the dice draw). Why: a deal from one device's
generator, or from a seed, lets whoever holds the generator read every hand. Here the deck
is mental poker's two-pass SRA deal over ``core.group`` (commutative locks: a card is a
point ``P``, a lock a secret scalar, locking a multiplication):

1. **lock** — each seat in turn (``players`` order) multiplies every point of the deck by
   its one lock key ``k`` and shuffles it, publishing the result. After the last seat the
   order is one that no device chose and none can see.
2. **relock** — each seat in turn swaps its single lock for a lock per position: the point
   at ``j`` is multiplied by ``k⁻¹·k_j`` (one multiplication per card). The deck is now
   locked by every seat's ``k_j`` at each position ``j``, and a key opens one card only.
3. **release** — each seat publishes its ``k_j`` for every position dealt to another seat
   (or shown to all). A card's holder then removes every lock, its own last: nobody else
   can read the card, since its ``k_j`` is still its device's alone.

A played card comes with its holder's ``k_j``: every device then opens it from the public
record (one multiplication) and checks it is the card named. Every key is a one-way
function of the seat's one 256-bit secret (HMAC-SHA512 reduced to a scalar; the shuffle is
drawn from HMAC-SHA256 by ``core.fair.draw``), committed to in the lock step with
``core.fair``'s own hash chain. At the end of the hand every seat publishes that secret;
every device re-derives every key and replays every lock and relock step (``check_steps``)
and every released key, so a device that shuffled, locked or released other than it said is
named. Domain separation as in ``core.fair``: the fair id, the round ``n``, the seat.

Every point a peer sends is checked (libsodium decodes it as an element of ristretto255; see
``core.group``) by the multiplication that uses it: ``multiply_all``/``multiply_pairs``
refuse any other, and a published deck is used by the next step, by the openings, and by the
final check of every step. A published deck is also checked whole when it is played
(``valid_deck``: decoding a point costs a tenth of a multiplication). A step this process
made once is not made again when it comes back (a guest's replay of the record checks its
own steps, the hand's final check replays every step). One group call per deck or per
batch of cards: in the browser each call crosses into JavaScript.
"""

import base64
import hashlib
import hmac
from collections import OrderedDict
from functools import lru_cache

from . import group as groups
from .fair import SCHEME, draw

# A scalar or a point (32 bytes) as published: unpadded URL-safe base64, 43 characters (hex
# took 64: a 10-seat Bog deal's decks and keys are most of its bytes). Only the canonical
# spelling fits (the last character's two spare bits zero; a point's one encoding is
# ``core.group.well_formed``'s), so one point has one text and a deck's points can be told
# apart by their texts.
PUBLISHED = r"[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]"
KNOWN_DECKS = 64  # steps remembered: the last few deals', however many seats
_known_steps: OrderedDict = OrderedDict()  # (step, lock key, tuple(deck)) -> tuple(deck made)


def text_of(data: bytes) -> str:
    """A point or scalar as published (``PUBLISHED``)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def data_of(text: str) -> bytes:
    """The bytes of a published point or scalar (its shape checked where it came in)."""
    return base64.urlsafe_b64decode(text + "=")


def sealed(position: int) -> str:
    """How a state shows a dealt card that only its holder's device can read: its position."""
    return f"#{position}"


def is_sealed(card: str) -> bool:
    return card.startswith("#")


def position_of(card: str) -> int:
    return int(card[1:])


def _scalar(group, secret: str, fair_id: str, n: int, seat: int, label: str) -> bytes:
    parts = [SCHEME, b"deck-key", fair_id.encode(), str(n).encode(), str(seat).encode(), label.encode()]
    wide = hmac.new(bytes.fromhex(secret), b"\x00".join(parts), hashlib.sha512).digest()
    return group.scalar_reduce(wide)


class SeatKeys:
    """The keys one seat's secret gives for one deal: the lock ``k``, a key per position
    and the shuffle (``order[i]``: the position in the input that goes to ``i``)."""

    def __init__(self, group, secret: str, fair_id: str, n: int, seat: int, size: int):
        self.lock = _scalar(group, secret, fair_id, n, seat, "lock")
        self.cards = [_scalar(group, secret, fair_id, n, seat, f"card:{j}") for j in range(size)]
        order = list(range(size))
        label = f"{fair_id}:{n}:{seat}:shuffle"
        for i in range(size - 1, 0, -1):  # Fisher-Yates, every draw fixed by the secret
            j = draw(secret, f"{label}:{i}", i + 1)
            order[i], order[j] = order[j], order[i]
        self.order = order

    def card_text(self, position: int) -> str:
        """The key for ``position`` as published."""
        return text_of(self.cards[position])


def start_deck(group, cards) -> list:
    """The public deck before any lock: each card's point, in the deck's fixed order."""
    return list(_points(group, tuple(cards)))


@lru_cache(maxsize=8)
def _points(group, cards: tuple) -> tuple:
    return tuple(text_of(groups.point_for(group, card)) for card in cards)


def valid_deck(group, deck: list) -> bool:
    """Whether every point of a published ``deck`` is valid, in one group call."""
    return group.all_valid_points([data_of(point) for point in deck])


def _step(kind: str, deck: list, keys: SeatKeys, multiply) -> list:
    """A lock or relock step, made once per process: the same seat's same step comes back in
    the record (a guest's replay compares it with its own) and in the hand's final check.
    ``keys.lock`` stands for the seat's keys (every key of a seat comes from one secret)."""
    memo = (kind, keys.lock, tuple(deck))
    if memo not in _known_steps:
        _known_steps[memo] = tuple(map(text_of, multiply([data_of(p) for p in deck])))
        while len(_known_steps) > KNOWN_DECKS:
            _known_steps.popitem(last=False)
    return list(_known_steps[memo])


def lock_step(group, deck: list, keys: SeatKeys) -> list:
    """Pass 1: every point locked with ``k``, then shuffled. Raises ``ValueError`` if a point
    of ``deck`` (a peer's) is not a valid one."""

    def lock(points):
        locked = group.multiply_all(keys.lock, points)
        return [locked[i] for i in keys.order]

    return _step("lock", deck, keys, lock)


def relock_step(group, deck: list, keys: SeatKeys) -> list:
    """Pass 2: the single lock swapped for a lock per position (``k⁻¹·k_j``)."""
    inverse = group.scalar_invert(keys.lock)
    scalars = [group.scalar_mul(inverse, key) for key in keys.cards]
    return _step("relock", deck, keys, lambda points: group.multiply_pairs(scalars, points))


@lru_cache(maxsize=8)
def card_points(group, cards: tuple) -> dict:
    """``{point as published: card}`` for recognising an opened card (do not change the result)."""
    return {point: card for point, card in zip(_points(group, cards), cards)}


def open_cards(group, deck: list, positions: list, keys: list, cards) -> list:
    """The cards at ``positions`` of the final ``deck``, each opened with its list of every
    seat's key (as published) for it; ``None`` where the keys do not open a card of ``cards`` (a
    wrong key), or where a point is not valid."""
    if not positions:
        return []
    scalars = []
    for position_keys in keys:
        product = data_of(position_keys[0])
        for key in position_keys[1:]:
            product = group.scalar_mul(product, data_of(key))
        scalars.append(group.scalar_invert(product))
    try:
        points = group.multiply_pairs(scalars, [data_of(deck[j]) for j in positions])
    except ValueError:
        return [None] * len(positions)
    known = card_points(group, tuple(cards))
    return [known.get(text_of(point)) for point in points]


def every_seats_keys(group, secrets: dict, players: list, fair_id: str, n: int, size: int) -> dict:
    """``{seat: SeatKeys}`` from every seat's published secret."""
    return {seat: SeatKeys(group, secrets[seat], fair_id, n, seat, size) for seat in players}


def open_deal(group, deck: list, keys: dict, cards) -> list:
    """Every position of the final ``deck`` opened with every seat's keys (``every_seats_keys``):
    the whole deal, once every secret is published (``None`` where a key does not open a card)."""
    positions = list(range(len(deck)))
    return open_cards(group, deck, positions, [[own.card_text(j) for own in keys.values()] for j in positions], cards)


def check_steps(group, decks: list, players: list, secrets: dict, fair_id: str, n: int) -> tuple:
    """Replays every lock and relock step with the seats' published secrets. ``decks`` holds
    the start deck then each step's output (lock steps in ``players`` order, then relock
    steps). Returns ``(None, keys)`` when all match, else ``(seat, keys)`` naming the first
    seat whose published deck is not what its secret gives; ``keys`` is ``{seat: SeatKeys}``."""
    keys = every_seats_keys(group, secrets, players, fair_id, n, len(decks[0]))
    steps = [(seat, lock_step) for seat in players] + [(seat, relock_step) for seat in players]
    for index, (seat, step) in enumerate(steps):
        try:
            expected = step(group, decks[index], keys[seat])
        except ValueError:  # the deck it was given was not valid: its giver is named below
            expected = None
        if expected != decks[index + 1]:
            return (seat if expected is not None or index == 0 else steps[index - 1][0]), keys
    return None, keys
