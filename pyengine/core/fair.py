"""Fair chance at a shared table: commit, then reveal, so that no device (the host included)
can see or choose another player's dice.

Why: at a shared table the host's device runs the rules. If the rules rolled every cup from
the host's generator, the host could read every cup and roll what it likes. Here each cup
is a public function of a secret only its owner's device knows, and of a round nonce that
nobody could know when the secrets were fixed.

One *fair round* (``n``, counted from 1 through a game, never reused) goes in steps, each
a game action in the table's public log (so the log stays the whole public record, and a
guest replays it with the same rules to check the host):

1. ``commit`` — the device playing each seat that takes part picks a fresh 256-bit secret
   ``s`` (``secrets``) and publishes ``commit = H("commit", id, n, seat, share)`` where
   ``share = H("share", id, n, seat, s)``. The hash chain binds both later reveals at once.
2. ``share`` — once *every* commitment is in (not before: ``fair_out_of_step``), each device
   publishes its ``share``; it must hash to its commitment (``fair_bad_share``), so nobody
   can choose a share after seeing the others'. When the last share is in, the round nonce
   is ``H("nonce", id, n, every (seat, share) in seat order)``: one honest device makes it
   unpredictable to all the others.
3. ``play`` — a cup's dice are ``cup(s, nonce, id, n, seat, count)``: HMAC-SHA256 keyed by
   the owner's secret, unbiased faces by rejection sampling. Its owner computes them at
   once; nobody else can, since nobody else knows ``s``. Public chance (who starts, a roll
   everybody sees) is ``draw(nonce, label, bound)``: no device can pick it.
4. ``reveal`` — when the game's rules reveal the cups, each device publishes ``s``; it must
   hash to its share (``fair_bad_reveal``), and every device recomputes every cup and the
   outcome itself.

Domain separation: every hash names this scheme, the step, the table's fair id (unique per
table and game), the round and the seat, so nothing from another table, game, round or seat
verifies here. A commitment seen earlier in the game is refused (``fair_replayed``); an
action naming another round is refused (``fair_wrong_round``); a seat that already did its
part is not on turn for this step (``not_your_turn``). A refused action changes nothing.

Forfeit: a seat whose device does not do its part in time (the host judges time: presence
is trusted) is forfeited by the host with ``{"type": "forfeit", "n"}`` played for that seat.
The game decides what it costs (the dice games: the seat loses a die); ``forfeit_rule``
below is the shared part: before the nonce exists the fair round starts over (nobody's dice
were known, so nothing is lost by drawing again), during the reveal the seat's cup stays
sealed and the game settles without it.

Only ``hashlib``, ``hmac`` and ``secrets``: no home-made primitive.
"""

import hashlib
import hmac
import secrets

from .errors import IllegalAction
from .shape import Dict, Enum, Int, Optional, PerSeat, Seats, Str

SCHEME = b"taberna-fair-v1"
MAX_FAIR_ROUNDS = 1 << 20
MAX_ID = 64
HEX = Str(64, r"[0-9a-f]{64}")
FAIR_ID = Str(MAX_ID, r"[A-Za-z0-9_:-]+")
STEPS = ("commit", "share", "play", "reveal")
_BYTE_LIMIT = 252  # the largest multiple of 6 in a byte: bytes at or above are redrawn


# --- the primitives ----------------------------------------------------------------------------
def new_secret() -> str:
    """A fresh 256-bit secret, as 64 hex digits (in the browser, ``crypto.getRandomValues``)."""
    return secrets.token_hex(32)


def _hash(step: str, fair_id: str, n: int, seat: int, data: bytes) -> str:
    parts = [SCHEME, step.encode(), fair_id.encode(), str(n).encode(), str(seat).encode()]
    return hashlib.sha256(b"\x00".join(parts) + b"\x00" + data).hexdigest()


def share_of(secret: str, fair_id: str, n: int, seat: int) -> str:
    """The share a seat publishes once every commitment is in: one-way from its secret."""
    return _hash("share", fair_id, n, seat, bytes.fromhex(secret))


def commitment_of(share: str, fair_id: str, n: int, seat: int) -> str:
    """The commitment a seat publishes first: binds its share, and through it its secret."""
    return _hash("commit", fair_id, n, seat, bytes.fromhex(share))


def commit_secret(secret: str, fair_id: str, n: int, seat: int) -> str:
    return commitment_of(share_of(secret, fair_id, n, seat), fair_id, n, seat)


def nonce_of(shares: list, fair_id: str, n: int) -> str:
    """The round nonce from every published share (``None`` for a seat not taking part)."""
    data = b"".join(f"{seat}:{share};".encode() for seat, share in enumerate(shares) if share is not None)
    return _hash("nonce", fair_id, n, -1, data)


def _stream(key: bytes, label: bytes):
    """Bytes of HMAC-SHA256(key, label:counter), counter 0, 1, 2…"""
    counter = 0
    while True:
        yield from hmac.new(key, label + b":" + str(counter).encode(), hashlib.sha256).digest()
        counter += 1


def _faces(stream, count: int) -> list:
    """``count`` unbiased faces 1-6 (a byte is kept only below 252, then taken mod 6)."""
    faces = []
    for byte in stream:
        if len(faces) == count:
            break
        if byte < _BYTE_LIMIT:
            faces.append(byte % 6 + 1)
    return faces


def cup(secret: str, nonce: str, fair_id: str, n: int, seat: int, count: int) -> list:
    """A seat's dice this round, sorted: computable only with the owner's secret."""
    label = b"\x00".join([SCHEME, b"cup", nonce.encode(), fair_id.encode(), str(n).encode(), str(seat).encode()])
    return sorted(_faces(_stream(bytes.fromhex(secret), label), count))


def draw(nonce: str, label: str, bound: int) -> int:
    """Public chance: a uniform integer in ``[0, bound)`` that the nonce fixes and nobody chose."""
    limit = (1 << 64) - ((1 << 64) % bound)
    stream = _stream(bytes.fromhex(nonce), SCHEME + b"\x00draw\x00" + label.encode())
    while True:
        value = int.from_bytes(bytes(next(stream) for _ in range(8)), "big")
        if value < limit:
            return value % bound


def roll(nonce: str, label: str, count: int) -> list:
    """``count`` public dice (unsorted, in the order drawn) that the nonce fixes."""
    return _faces(_stream(bytes.fromhex(nonce), SCHEME + b"\x00roll\x00" + label.encode()), count)


# --- one fair round inside a game state (``state["fair"]``) ------------------------------------
def start(fair_id: str, players: list, seats: int, n: int = 1, past=()) -> dict:
    """Fair round ``n``: ``players`` (seat numbers) commit first. ``past`` holds every earlier
    commitment of the game, so none can be played again."""
    empty = [None] * seats
    return {
        "id": fair_id,
        "n": n,
        "step": "commit",
        "players": sorted(players),
        "commits": list(empty),
        "shares": list(empty),
        "nonce": None,
        "secrets": list(empty),
        "forfeits": [],
        "past": list(past),
    }


def next_round(fair: dict, players: list) -> dict:
    """The following fair round at the same table."""
    past = fair["past"] + [c for c in fair["commits"] if c is not None]
    return start(fair["id"], players, len(fair["commits"]), fair["n"] + 1, past)


def owed(fair: dict) -> list:
    """The seats that must act for the round to go on (none while the game is played)."""
    step = fair["step"]
    if step == "play":
        return []
    key = {"commit": "commits", "share": "shares", "reveal": "secrets"}[step]
    return [seat for seat in fair["players"] if fair[key][seat] is None and seat not in fair["forfeits"]]


def public(fair: dict) -> dict:
    """What every view shows of the round (everything but the list of past commitments)."""
    return {key: (list(value) if isinstance(value, list) else value) for key, value in fair.items() if key != "past"}


def _check_round(fair: dict, action: dict) -> None:
    if action["n"] != fair["n"]:
        raise IllegalAction(
            "That belongs to another round of the fair draw", "fair_wrong_round", n=action["n"], expected=fair["n"]
        )


def play_commit(fair: dict, seat: int, action: dict) -> None:
    _check_round(fair, action)
    commit = action["commit"]
    if commit in fair["past"] or commit in fair["commits"]:
        raise IllegalAction("That commitment was used before", "fair_replayed")
    fair["commits"][seat] = commit
    if not owed(fair):
        fair["step"] = "share"


def _opens(fair: dict, seat: int, value: str, hash_of, published: str) -> bool:
    """Whether ``value`` hashes (``hash_of``) to what ``seat`` published before."""
    return hash_of(value, fair["id"], fair["n"], seat) == fair[published][seat]


def play_share(fair: dict, seat: int, action: dict) -> bool:
    """Takes a share; True when it was the last and the nonce is set."""
    _check_round(fair, action)
    if not _opens(fair, seat, action["share"], commitment_of, "commits"):
        raise IllegalAction("That share does not match its commitment", "fair_bad_share", seat=seat)
    fair["shares"][seat] = action["share"]
    if owed(fair):
        return False
    fair["nonce"] = nonce_of(fair["shares"], fair["id"], fair["n"])
    fair["step"] = "play"
    return True


def play_reveal(fair: dict, seat: int, action: dict) -> bool:
    """Takes a revealed secret; True when every cup that is still owed is now revealed."""
    _check_round(fair, action)
    if not _opens(fair, seat, action["secret"], share_of, "shares"):
        raise IllegalAction("That secret does not match its commitment", "fair_bad_reveal", seat=seat)
    fair["secrets"][seat] = action["secret"]
    return not owed(fair)


def forfeit_rule(fair: dict, seat: int, action: dict) -> str:
    """Marks ``seat`` forfeited; returns the step it failed in. Before the nonce exists the
    round starts over with the same players (the caller then charges the forfeit and calls
    ``next_round``); in the reveal the seat's cup stays sealed."""
    _check_round(fair, action)
    step = fair["step"]
    fair["forfeits"].append(seat)
    return step


def revealed_cup(fair: dict, seat: int, count: int):
    """The seat's dice once its secret is public, else ``None``."""
    secret = fair["secrets"][seat]
    if secret is None or fair["nonce"] is None:
        return None
    return cup(secret, fair["nonce"], fair["id"], fair["n"], seat, count)


def own_cup(fair: dict, seat: int, held: dict, count: int):
    """The seat's dice as its own device sees them (``held``: that device's secrets), or
    ``None`` before the nonce or without the right secret."""
    entry = held.get(seat)
    if fair["nonce"] is None or entry is None or entry["n"] != fair["n"]:
        return None
    if commit_secret(entry["secret"], fair["id"], fair["n"], seat) != fair["commits"][seat]:
        return None
    return cup(entry["secret"], fair["nonce"], fair["id"], fair["n"], seat, count)


def duty(fair: dict, seat: int, held: dict, make_secret=new_secret):
    """The action the device holding ``seat`` owes now, or ``None``. A commitment draws a new
    secret into ``held`` (``{seat: {"n", "secret"}}``, what the device must save); a share or
    a reveal is possible only with the secret committed to (a device that lost it can only
    be forfeited)."""
    if seat not in owed(fair):
        return None
    n, step = fair["n"], fair["step"]
    entry = held.get(seat)
    if step == "commit":
        if entry is None or entry["n"] != n:
            entry = held[seat] = {"n": n, "secret": make_secret()}
        return {"type": "commit", "n": n, "commit": commit_secret(entry["secret"], fair["id"], n, seat)}
    if entry is None or entry["n"] != n:
        return None
    if step == "share":
        return {"type": "share", "n": n, "share": share_of(entry["secret"], fair["id"], n, seat)}
    return {"type": "reveal", "n": n, "secret": entry["secret"]}


# --- what games plug in ----------------------------------------------------------------------
ROUND = Int(1, MAX_FAIR_ROUNDS)
VIEW_SHAPE = Dict({
    "id": FAIR_ID,
    "n": Int(0, MAX_FAIR_ROUNDS),  # 0: no draw yet (a game that draws only now and then)
    "step": Enum(*STEPS),
    "players": Seats(),
    "commits": PerSeat(Optional(HEX)),
    "shares": PerSeat(Optional(HEX)),
    "nonce": Optional(HEX),
    "secrets": PerSeat(Optional(HEX)),
    "forfeits": Seats(),
})


def out_of_step(state: dict, kind: str) -> IllegalAction:
    """The refusal of a move while a fair draw's step is due, or of a draw's move out of its
    step (a share before every commitment is in: nobody contributes after seeing others')."""
    step = state["fair"]["step"] if "fair" in state else "play"
    return IllegalAction(f"{kind} does not fit the fair draw's step ({step})", "fair_out_of_step", kind=kind, step=step)


def fair_phase(state: dict):
    """``fair_<step>`` while a fair step is due, else ``None`` (the game's own phases, or a
    game over: what is owed then no longer matters)."""
    fair = state.get("fair")
    if fair is None or fair["step"] == "play" or state.get("result"):
        return None
    return f"fair_{fair['step']}"
