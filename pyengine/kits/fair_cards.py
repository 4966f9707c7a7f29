"""The fair deal (``core.fair_deck``) played as game actions, as ``kits.fair`` plays the dice
draw: the table's log stays the whole public record, and a guest replays it with the same
rules to check the host.

One deal is a round ``n`` (counted from 1 through a game, a voided deal included) held in
``state["fair"]``, in steps, each a phase ``fair_<step>`` (``core.fair.fair_phase``):

* ``lock`` — the seats in ``players`` order each publish the deck locked and shuffled, with
  ``commit`` (``core.fair.commit_secret`` of the secret every key comes from).
* ``relock`` — the same order, each the deck with a lock per position.
* ``release`` — every seat at once publishes its key for each position ``holders`` gives to
  another seat, or to everyone (``UP``); a position left in the stock (``None``) keeps its
  locks until the game releases it (``release_more``). The game then places the sealed
  positions (``"#j"``) in the hands (``FairCardGame.fair_dealt``).
* ``play`` — the game is played. A card played carries its position and its holder's key
  (``at``, ``key``): the rules open it (``play_sealed``) and refuse a card that is not the
  one dealt there to that seat (``fair_not_dealt``). What the rules cannot judge without the
  hidden hands (following suit…) waits for the end. A holder whose card does not open (a
  released key was wrong) says so with ``challenge``: the deal is then checked at once.
* ``reveal`` — at the end of the hand (or a challenge) every seat publishes its secret; it
  must open its commitment (``fair_bad_reveal``). Every device then re-derives every key,
  replays every lock and relock step and every released key, opens the whole deal and lets
  the game replay every play with its own rules (``FairCardGame.fair_offence``). The
  ``verdict`` names the first offence, else ``None``, and the game scores the hand with it
  (it stays in view through the next deal, until that one's own).

Forfeit (``{"type": "forfeit", "n"}``, played by the host for a seat whose device is gone,
after the same grace as any absent player): before the reveal the deal is void and dealt
again (round ``n + 1``, same dealer, nothing else lost: nobody's cards were shown); in the
reveal the seat's secret stays unknown and the verdict names it (``fair_withheld``).

Offences, first found first named (``verdict["code"]``, with ``seat``): ``fair_withheld``
(no secret), ``fair_bad_deal`` (a lock or relock step its secret does not give),
``fair_bad_key`` (a released key that is not its own, with ``at``), ``fair_false_claim`` (a
challenge of a card that opens), then the game's own (a renege, with its trick).
"""

from functools import lru_cache

from ..core import fair, fair_deck
from ..core.fair_deck import is_sealed, position_of, sealed
from ..core import group as groups
from ..core.errors import IllegalAction
from ..core.game import Move
from ..core.shape import Dict, Enum, Int, List, Optional, Seat, Seats, Str

STEPS = ("lock", "relock", "release", "play", "reveal")
UP = -1  # a position shown to every seat (Bog's turned-up card)
SEALED = r"#\d{1,2}"  # fair_deck.sealed(position): a card only its holder's device can read
MAX_DECK = 64
KEY = Str(43, fair_deck.PUBLISHED)  # a scalar or a point, as published


def group_ready() -> bool:
    """Whether this process has the group (rbcl under CPython; in the browser, the one the
    worker installs): without it a shared table deals as a one-device table does."""
    try:
        groups.current()
    except ImportError:
        return False
    return True


# --- the deal's state ------------------------------------------------------------------------
def start(fair_id: str, players: list, cards, holders: list, n: int = 1, past=()) -> dict:
    """Deal ``n``: ``cards`` in the deck's order, ``holders[j]`` the seat that gets position
    ``j`` (``UP``: everyone; ``None``: the stock). ``past``: every earlier commitment."""
    seats = max(players) + 1
    return {
        "id": fair_id,
        "n": n,
        "step": "lock",
        "players": list(players),
        "commits": [None] * seats,
        "decks": [fair_deck.start_deck(groups.current(), cards)],
        "holders": list(holders),
        "released": [[None] * len(cards) for _ in range(seats)],
        "secrets": [None] * seats,
        "forfeits": [],
        "challenge": None,
        "verdict": None,
        "past": list(past),
    }


def next_deal(record: dict, cards, holders: list, players=None) -> dict:
    """The following deal (by ``players``, default the same seats); its ``verdict`` is the
    last deal's until its own is given."""
    past = record["past"] + [c for c in record["commits"] if c is not None]
    players = record["players"] if players is None else players
    following = start(record["id"], players, cards, holders, record["n"] + 1, past)
    following["verdict"] = record["verdict"]
    return following


def _passes_done(record: dict) -> int:
    return len(record["decks"]) - 1


def owed(record: dict) -> list:
    """The seats that must act for the deal to go on (none while the game is played)."""
    step, players = record["step"], record["players"]
    if step in ("lock", "relock"):
        return [players[_passes_done(record) % len(players)]]
    if step == "release":
        return [seat for seat in players if _release_due(record, seat) and seat not in record["forfeits"]]
    if step == "reveal":
        return [seat for seat in players if record["secrets"][seat] is None and seat not in record["forfeits"]]
    return []


def _release_due(record: dict, seat: int) -> list:
    """The positions whose key ``seat`` owes and has not released."""
    mine = record["released"][seat]
    return [j for j, holder in enumerate(record["holders"]) if holder not in (None, seat) and mine[j] is None]


def public(record: dict) -> dict:
    """What every view shows of the deal: where it is and its verdict (the points and keys
    are in the log, the public record)."""
    return {
        "id": record["id"],
        "n": record["n"],
        "step": record["step"],
        "players": list(record["players"]),
        "owed": owed(record),
        "forfeits": list(record["forfeits"]),
        "verdict": None if record["verdict"] is None else dict(record["verdict"]),
    }


VERDICT = Dict({"code": Str(32, r"[a-z_.]+"), "seat": Seat()}, optional={"at": Int(0, MAX_DECK), "trick": Int(1, 64),
                                                                     "card": Str(3)})
VIEW_SHAPE = Dict({
    "id": fair.FAIR_ID,
    "n": Int(1, fair.MAX_FAIR_ROUNDS),
    "step": Enum(*STEPS),
    "players": Seats(),
    "owed": Seats(),
    "forfeits": Seats(),
    "verdict": Optional(VERDICT),
})


# --- the keys this device holds ----------------------------------------------------------------
@lru_cache(maxsize=32)
def _keys(group, secret: str, fair_id: str, n: int, seat: int, size: int):
    return fair_deck.SeatKeys(group, secret, fair_id, n, seat, size)


def keys_for(record: dict, seat: int, secret: str):
    return _keys(groups.current(), secret, record["id"], record["n"], seat, len(record["decks"][0]))


def _entry(record: dict, seat: int, held: dict):
    """``seat``'s secret for this deal on this device, if it opens the seat's commitment."""
    entry = held.get(seat)
    if entry is None or entry["n"] != record["n"] or record["commits"][seat] is None:
        return None
    if fair.commit_secret(entry["secret"], record["id"], record["n"], seat) != record["commits"][seat]:
        return None
    return entry["secret"]


def open_public(record: dict, positions: list, cards) -> list:
    """The cards at ``positions`` shown to everyone (``UP``), opened with every seat's
    released key; ``None`` where they do not open a card."""
    keys = [[record["released"][seat][j] for seat in record["players"]] for j in positions]
    if any(None in k for k in keys):
        return [None] * len(positions)
    return fair_deck.open_cards(groups.current(), record["decks"][-1], positions, keys, cards)


def _keys_at(record: dict, position: int, seat: int, key: str) -> list:
    """Every seat's key for ``position``: the others' released ones, then ``seat``'s ``key``."""
    return [record["released"][other][position] for other in record["players"] if other != seat] + [key]


@lru_cache(maxsize=16)
def _opened(group, deck: tuple, positions: tuple, keys: tuple, cards: tuple) -> tuple:
    return tuple(fair_deck.open_cards(group, list(deck), list(positions), [list(k) for k in keys], cards))


def open_own(record: dict, seat: int, held: dict, positions: list, cards) -> dict:
    """``{position: card or None}``: ``seat``'s sealed ``positions`` as its device reads them
    (``None``: the keys do not open a card); ``{}`` without the seat's secret."""
    secret = _entry(record, seat, held)
    if secret is None or not positions:
        return {}
    own = keys_for(record, seat, secret)
    keys = tuple(tuple(_keys_at(record, j, seat, own.card_text(j))) for j in positions)
    if any(None in k for k in keys):
        return {}
    found = _opened(groups.current(), tuple(record["decks"][-1]), tuple(positions), keys, tuple(cards))
    return dict(zip(positions, found))


def duty(record: dict, seat: int, held: dict):
    """The deal's action the device holding ``seat`` owes now, or ``None``; a lock draws a
    new secret into ``held`` (in play, see ``challenge_due``)."""
    step, n = record["step"], record["n"]
    if step == "play" or seat not in owed(record):
        return None
    if step == "lock":
        entry = held.get(seat)
        if entry is None or entry["n"] != n:
            entry = held[seat] = {"n": n, "secret": fair.new_secret()}
        keys = keys_for(record, seat, entry["secret"])
        commit = fair.commit_secret(entry["secret"], record["id"], n, seat)
        return {"type": "lock", "n": n, "commit": commit, "deck": fair_deck.lock_step(groups.current(), record["decks"][-1], keys)}
    secret = _entry(record, seat, held)
    if secret is None:
        return None
    if step == "relock":
        deck = fair_deck.relock_step(groups.current(), record["decks"][-1], keys_for(record, seat, secret))
        return {"type": "relock", "n": n, "deck": deck}
    if step == "release":
        return {"type": "release", "n": n, "keys": release_keys(record, seat, secret)}
    return {"type": "reveal", "n": n, "secret": secret}


def release_keys(record: dict, seat: int, secret: str) -> list:
    """``seat``'s key for every position it owes now, ``None`` elsewhere."""
    own = keys_for(record, seat, secret)
    due = set(_release_due(record, seat))
    return [own.card_text(j) if j in due else None for j in range(len(record["decks"][0]))]


def challenge_due(record: dict, seat: int, held: dict, positions: list, cards):
    """The challenge ``seat``'s device owes: the first of its ``positions`` that does not open."""
    if record["step"] != "play":
        return None
    bad = [j for j, card in open_own(record, seat, held, positions, cards).items() if card is None]
    return {"type": "challenge", "n": record["n"], "at": bad[0]} if bad else None


# --- the moves ---------------------------------------------------------------------------------
def _check_round(record: dict, action: dict) -> None:
    if action["n"] != record["n"]:
        raise IllegalAction("That belongs to another deal", "fair_wrong_round", n=action["n"], expected=record["n"])


def _check_deck(record: dict, deck: list) -> None:
    """A published deck: as many points as cards, all different, all valid (one check of
    the whole deck: ``fair_deck.valid_deck``)."""
    if len(deck) != len(record["decks"][0]) or len(set(deck)) != len(deck):
        raise IllegalAction("That deck does not hold the deck's cards", "fair_bad_deck")
    if not fair_deck.valid_deck(groups.current(), deck):
        raise IllegalAction("That deck holds a point outside the group", "fair_bad_deck")


def _check_key(key: str) -> None:
    if not 0 < int.from_bytes(fair_deck.data_of(key), "little") < groups.ORDER:
        raise IllegalAction("That key is not a key", "fair_bad_key_format")


def play_lock(record: dict, seat: int, action: dict) -> None:
    _check_round(record, action)
    commit = action["commit"]
    if commit in record["past"] or commit in record["commits"]:
        raise IllegalAction("That commitment was used before", "fair_replayed")
    _check_deck(record, action["deck"])
    record["commits"][seat] = commit
    record["decks"].append(action["deck"])
    if _passes_done(record) == len(record["players"]):
        record["step"] = "relock"


def play_relock(record: dict, seat: int, action: dict) -> None:
    _check_round(record, action)
    _check_deck(record, action["deck"])
    record["decks"].append(action["deck"])
    if _passes_done(record) == 2 * len(record["players"]):
        record["step"] = "release"


def play_release(record: dict, seat: int, action: dict) -> bool:
    """Takes a seat's keys; True when the last one owed is in (the cards can be read)."""
    _check_round(record, action)
    keys, due = action["keys"], set(_release_due(record, seat))
    if len(keys) != len(record["decks"][0]) or any((key is not None) != (j in due) for j, key in enumerate(keys)):
        raise IllegalAction("Those keys are not the ones owed", "fair_wrong_keys")
    for j, key in enumerate(keys):
        if key is not None:
            _check_key(key)
            record["released"][seat][j] = key
    if owed(record):
        return False
    record["step"] = "play"
    return True


def release_more(record: dict, positions: list, holder) -> None:
    """The game gives stock ``positions`` to ``holder`` (a seat, or ``UP``): their keys are
    owed now, in a ``release`` step, before play goes on."""
    for j in positions:
        record["holders"][j] = holder
    record["step"] = "release"


def play_sealed(record: dict, seat: int, hand: list, action: dict, cards) -> None:
    """A card played from a sealed hand: the position must be the seat's, and open, with the
    others' released keys and the seat's ``key``, to the card named. Unseals it in ``hand``."""
    if "at" not in action or "key" not in action:
        raise IllegalAction("A card at a fair table comes with its key", "fair_no_key")
    at, key = action["at"], action["key"]
    if sealed(at) not in hand:
        raise IllegalAction(f"Seat {seat} was not dealt position {at}", "fair_not_dealt", card=action["card"])
    _check_key(key)
    keys = _keys_at(record, at, seat, key)
    if None in keys or fair_deck.open_cards(groups.current(), record["decks"][-1], [at], [keys], cards) != [action["card"]]:
        raise IllegalAction(f"{action['card']} is not the card dealt there", "fair_not_dealt", card=action["card"])
    hand[hand.index(sealed(at))] = action["card"]


def play_challenge(record: dict, seat: int, hand: list, action: dict) -> None:
    _check_round(record, action)
    if record["step"] != "play":
        raise IllegalAction("A card is challenged only in play", "fair_out_of_step", kind="challenge", step=record["step"])
    if sealed(action["at"]) not in hand:
        raise IllegalAction(f"Seat {seat} holds no sealed card at {action['at']}", "fair_not_dealt", card="?")
    record["challenge"] = {"seat": seat, "at": action["at"]}
    record["step"] = "reveal"


def play_reveal(record: dict, seat: int, action: dict) -> bool:
    """Takes a seat's secret; True when every secret owed is in (the verdict can be given)."""
    _check_round(record, action)
    if fair.commit_secret(action["secret"], record["id"], record["n"], seat) != record["commits"][seat]:
        raise IllegalAction("That secret does not match its commitment", "fair_bad_reveal", seat=seat)
    record["secrets"][seat] = action["secret"]
    return not owed(record)


def verdict(record: dict, cards, offence) -> dict | None:
    """The first offence in this deal (see the module docstring), ``None`` if none.
    ``offence(hands)``: the game's check of the plays against the dealt ``hands``."""
    if record["forfeits"]:
        return {"code": "fair_withheld", "seat": record["forfeits"][0]}
    group, players = groups.current(), record["players"]
    secrets = {seat: record["secrets"][seat] for seat in players}
    cheat, keys = fair_deck.check_steps(group, record["decks"], players, secrets, record["id"], record["n"])
    if cheat is not None:
        return {"code": "fair_bad_deal", "seat": cheat}
    for seat in players:
        for j, key in enumerate(record["released"][seat]):
            if key is not None and key != keys[seat].card_text(j):
                return {"code": "fair_bad_key", "seat": seat, "at": j}
    if record["challenge"] is not None:
        return {"code": "fair_false_claim", "seat": record["challenge"]["seat"]}
    dealt = fair_deck.open_deal(group, record["decks"][-1], keys, cards)
    hands = {seat: [card for card, holder in zip(dealt, record["holders"]) if holder == seat] for seat in players}
    return offence(hands, dealt)


# --- what a game plugs in ----------------------------------------------------------------------
class FairCardGame:
    """Mixin for a card game whose shared tables deal fairly. The game supplies
    ``fair_cards(state)`` (the deck, in order), ``fair_holders(state)`` (who gets each
    position), ``fair_dealt(state)`` (the sealed positions are ready: place them),
    ``fair_offence(state, hands, dealt)`` (the plays replayed against the dealt hands:
    an offence dict or ``None``), ``fair_settle(state, verdict, rng)`` (score the hand with
    the verdict) and ``fair_void(state, rng)`` (the deal is void: deal again)."""

    fair_chance = True
    keyed_moves = ("play",)  # the moves that show one card from a sealed hand (``fair_complete``)
    # How the verdict line words what the check found: the game's own offences (a code of
    # ``fair_offence`` -> its clause's message key; any other is said as a card played against
    # the rules), and what an offence costs (a message key, with the offender's ``name``).
    offence_words: dict = {}
    penalty_words = "sync.penalty.side_loses"

    def start_deal(self, state: dict) -> None:
        """The fair deal of the hand ``state`` is at (``make_fair`` puts an empty round 0
        in ``state["fair"]``, so the first deal is round 1)."""
        state["fair"] = next_deal(state["fair"], self.fair_cards(state), self.fair_holders(state),
                                  self.fair_players(state))

    def phase(self, state: dict, seat: int) -> str:
        return fair.fair_phase(state) or state["phase"]

    def wrong_phase(self, state: dict, seat: int, kind: str) -> IllegalAction:
        if fair.fair_phase(state) or kind in STEP_MOVES:
            return fair.out_of_step(state, kind)
        return super().wrong_phase(state, seat, kind)

    def fair_players(self, state: dict) -> list:
        """The seats that lock the next deal: by default the same as the last deal's."""
        return state["fair"]["players"]

    def deal_to_act(self, state: dict):
        """The seats the deal waits for, or ``None`` when the game's own turn order holds."""
        record = state.get("fair")
        if record is None or record["step"] == "play":
            return None
        return owed(record)

    def fair_duty(self, state: dict, seat: int, held: dict):
        record = state["fair"]
        if record["step"] == "play":
            if seat not in self.to_act(state):
                return None
            return challenge_due(record, seat, held, self.sealed_positions(state, seat), self.fair_cards(state))
        return duty(record, seat, held)

    def sealed_positions(self, state: dict, seat: int) -> list:
        return [position_of(card) for card in state["hands"][seat] if is_sealed(card)]

    def with_own_cup(self, state: dict, seat: int, held: dict) -> dict:
        """``state`` with ``seat``'s sealed cards read by its device (the others stay sealed)."""
        if "fair" not in state or state["fair"]["step"] == "lock":
            return state
        positions = self.sealed_positions(state, seat)
        read = open_own(state["fair"], seat, held, positions, self.fair_cards(state))
        if not read or None in read.values():
            return state
        filled = dict(state)
        filled["hands"] = list(state["hands"])
        filled["hands"][seat] = self.sort_hand(state, [read[position_of(c)] if is_sealed(c) else c
                                                       for c in state["hands"][seat]])
        return filled

    def fair_complete(self, state: dict, seat: int, action: dict, held: dict) -> dict:
        """A card chosen from a hand the device reads comes with its position and key."""
        if "fair" not in state or action.get("type") not in self.keyed_moves or "key" in action:
            return action
        return self.with_key(state, seat, action, held)

    def with_key(self, state: dict, seat: int, item: dict, held: dict) -> dict:
        """``item`` (a dict with the ``card`` shown) with the sealed position it lies at in
        ``seat``'s hand and the seat's key for it; unchanged if this device cannot read it."""
        record = state["fair"]
        secret = _entry(record, seat, held)
        if secret is None:
            return item
        read = open_own(record, seat, held, self.sealed_positions(state, seat), self.fair_cards(state))
        at = next((j for j, card in read.items() if card == item.get("card")), None)
        if at is None:
            return item
        return {**item, "at": at, "key": keys_for(record, seat, secret).card_text(at)}

    def sealed_shown(self, view: dict) -> bool:
        """Whether a host's ``view`` shows its seat's hand read (the host's device holds that
        seat's secret: a bot played it)."""
        hand = view.get("hand")
        return bool(hand) and not any(is_sealed(card) for card in hand)

    # --- the moves ---------------------------------------------------------------------------
    def _fair_lock(self, state, seat, action, rng):
        play_lock(state["fair"], seat, action)

    def _fair_relock(self, state, seat, action, rng):
        play_relock(state["fair"], seat, action)

    def _fair_release(self, state, seat, action, rng):
        if play_release(state["fair"], seat, action):
            self.fair_dealt(state)

    def _fair_challenge(self, state, seat, action, rng):
        play_challenge(state["fair"], seat, state["hands"][seat], action)

    def _fair_reveal(self, state, seat, action, rng):
        if play_reveal(state["fair"], seat, action):
            self._judge(state, rng)

    def _fair_forfeit(self, state, seat, action, rng):
        record = state["fair"]
        _check_round(record, action)
        if record["step"] != "reveal":
            self.fair_void(state, rng)
            return
        record["forfeits"].append(seat)
        if not owed(record):
            self._judge(state, rng)

    def _judge(self, state: dict, rng) -> None:
        record = state["fair"]
        record["verdict"] = verdict(record, self.fair_cards(state),
                                    lambda hands, dealt: self.fair_offence(state, hands, dealt))
        record["step"] = "play"
        self.fair_settle(state, record["verdict"], rng)

    def fair_blind(self, state: dict, seat: int, held: dict) -> bool:
        """A hand with a sealed card this device cannot read is played by its holder's device only."""
        if "fair" not in state or state["fair"]["step"] != "play":
            return False
        positions = self.sealed_positions(state, seat)
        read = open_own(state["fair"], seat, held, positions, self.fair_cards(state))
        return bool(positions) and (not read or None in read.values())


def _deck_shape() -> List:
    return List(KEY, MAX_DECK, 1)


MOVES = {  # the deal's moves for a game's move table (each handler checks its deck's size)
    "lock": Move(FairCardGame._fair_lock, Dict({"n": fair.ROUND, "commit": fair.HEX, "deck": _deck_shape()}),
                 phases=("fair_lock",)),
    "relock": Move(FairCardGame._fair_relock, Dict({"n": fair.ROUND, "deck": _deck_shape()}), phases=("fair_relock",)),
    "release": Move(FairCardGame._fair_release, Dict({"n": fair.ROUND, "keys": List(Optional(KEY), MAX_DECK, 1)}),
                    phases=("fair_release",)),
    "challenge": Move(FairCardGame._fair_challenge, Dict({"n": fair.ROUND, "at": Int(0, MAX_DECK - 1)})),
    "reveal": Move(FairCardGame._fair_reveal, Dict({"n": fair.ROUND, "secret": fair.HEX}), phases=("fair_reveal",)),
    "forfeit": Move(FairCardGame._fair_forfeit, Dict({"n": fair.ROUND})),
}
STEP_MOVES = ("lock", "relock", "release", "reveal")


PLAY_FIELDS = {"at": Int(0, MAX_DECK - 1), "key": KEY}  # a fair table's played card: its position and key
