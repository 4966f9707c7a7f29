"""The host: the one place where a shared table changes.

The host's browser runs the Table; guests only send intents. The host checks who sent
each message (the transport's peer id), what seat that peer holds, that the intent is not
stale (see below), and lets the rules decide; then it sends every peer the view of its own
seat (spectators the spectator view). Secrets never leave the host in another seat's view.

The host never touches the network or a clock: ``receive(peer, text, now)`` and the other
entry points return an outbox of ``(peer, text)`` pairs for the transport to deliver, and
time is passed in by the caller (milliseconds). That keeps the whole protocol testable in
CPython and lets any transport (in-memory, BroadcastChannel, WebRTC) carry it.

Seats are the Table's seats: ``human`` plays on the host's own screen, ``bot`` is played by
``Table.bot_action``, ``remote`` belongs to a guest. A remote seat with no token is open;
joining it issues a secret token, and whoever shows the token later gets the seat back. A
seat the host hands to a bot keeps its token, so the player reclaims it by rejoining.

When is an intent stale? It names the version its guest saw. It is accepted at the current
version, and also at an older one if, since then, the seat has been able to act the whole
time and has not acted itself: only other seats moved, and nothing closed the seat's
chance to act (a roll, a new round, its own move). Without that, players who act at once
(bets in Crown and Anchor, antes in Bog) would keep refusing each other's intents; with it,
a turn-by-turn game is exactly as strict as "current version only", and a duplicate can
still never apply twice, because the seat's own move makes every older intent stale. A seat
that may act out of turn (``Game.may_act``) counts as able to act: its intent reaches the
rules, which judge whether it still answers the position (Perudo's Calza names its bid).

After a game is over the host may start another with the same seats, tokens and peers
(``rematch``). Versions go on counting across games (``base`` is where the current game
starts), so nothing sent about an earlier game can be taken for the new one.

A *fair* table (``create(..., fair=True)``, games with ``fair_chance``; ``core.fair``,
``protocol.fair``) draws its chance by commit-then-reveal: the host's Table holds only its
own seats' and its bots' secrets (``table.held``, saved in the snapshot), does their part of
each draw at once whenever the table changes (``_local_duties``: no tap, no bot turn), plays
a guest's ``intent_then`` (its reveal, then its next round's commitment) in one go, sends
each peer the public record before its state, and may ``forfeit`` a seat whose device owes
its part and is gone (after the grace an absent player gets). A guest's seat handed to a
bot is played by this device from the next commitment on; a step its guest had begun (its
commitment in, its share or reveal owed) ends only with that guest back, or a forfeit. A
round the bot committed to is handed back with the seat: its secret goes to the guest's
device with each state until the round ends (``protocol.fair.handover``).

At a table that is not fair (Lasca; Botifarra for two, or dealt by the 5 of espases) the host's
device holds everything, so no record goes out during play: each peer is told the latest
move (``step``) just before the state it leads to, and once the game is over, once per
game, the whole record (``game_record``), which the guest checks (``protocol.witness``).

Players may say premade phrases (``protocol.phrases``): the host relays each one it allows
to every peer, and keeps this device's ``board`` (what shows, whom it mutes) in its save.
"""

import hmac
import json
import secrets
import unicodedata
from functools import lru_cache
from pathlib import Path

from ..core.errors import BadSave, TabernaError
from ..core.registry import get_declaration
from ..core.rng import derive_key, derive_seed, is_key
from ..core.table import MAX_NAME, MAX_SEED, Table
from ..i18n import LANGUAGES, translate
from ..records import record_text
from .envelope import INBOUND, MAX_INBOUND, ProtocolError, check_id, decode, encode
from .fair import fair_id, handover, held_from_json, held_to_json, record_fields, record_spans
from .phrases import Board, Pace, check_phrase

SNAPSHOT_FORMAT = 1
MAX_PEERS = 64  # seated guests plus spectators; bounds what a flood of joins can cost
# Spectators at once: well under MAX_PEERS, so a friend can always join an open seat however
# many others watch (or pretend to).
MAX_WATCHERS = 24
ABSENT_AFTER = 15_000  # ms without a message before a peer counts as absent
FORGET_AFTER = 600_000  # ms of silence before an absent peer is forgotten (it may rejoin)
CONFUSABLES = Path(__file__).parent / "compiled" / "confusables.json"


# Letters that show as nothing: the Hangul fillers (default-ignorable in Unicode, yet letters)
# and the blank Braille pattern. A name made of them would look empty.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
MAX_MARKS = 2  # combining marks on one letter (Vietnamese needs two); more are dropped
# Scripts that may share a name: Japanese writes Han, kana and Latin together.
EAST_ASIAN = frozenset({"CJK", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO"})
# What the screens say in a seat's place: no guest may call itself that.
RESERVED_KEYS = ("sync.conn.host_device", "sync.conn.here", "sync.conn.open", "sync.you", "sync.a_watcher")


@lru_cache(maxsize=1)
def _prototypes() -> dict:
    """Unicode's look-alike letters (UTS #39 confusables.txt, compiled by the build:
    buildtools/confusables.py): ``{character: the characters it looks like}``."""
    return json.loads(CONFUSABLES.read_text(encoding="utf-8"))


def _bare(text: str) -> str:
    """``text`` with compatibility forms folded, accents and other marks dropped, spaces
    squeezed."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if unicodedata.category(ch)[0] != "M")
    return " ".join(unicodedata.normalize("NFKC", bare).split())


def skeletons(name: str) -> tuple:
    """What a name looks like, as two keys; names that share either read alike. The first is
    ``name`` bare (see ``_bare``) with case ignored: "ＡＮＡ", "Ána" and "ana". The second is
    its UTS #39 skeleton, bare: each character replaced by its prototype (a Greek "Α" by a
    Latin "A", "I" and "1" by "l"), so "ΑΝΑ" in Greek reads as "ANA" and "AIex" as "Alex".
    The skeleton keeps case, as Unicode's does: "I" looks like "l", and "L" does not."""
    prototypes = _prototypes()
    looks = "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", name))
    return _bare(name).casefold(), _bare(looks)


def _script(ch: str) -> str:
    """The script of a letter, from its Unicode name ("CYRILLIC SMALL LETTER A")."""
    word = unicodedata.name(ch, "").split(" ")[0]
    return "EAST_ASIAN" if word in EAST_ASIAN else word


def _mixes_scripts(name: str) -> bool:
    """Whether ``name`` mixes letters of alphabets that could pass for one another (Latin
    "Ana" with a Cyrillic "А"); Latin beside Han, kana or Hangul is allowed."""
    scripts = {_script(ch) for ch in unicodedata.normalize("NFKC", name) if unicodedata.category(ch) in ("Lu", "Ll", "Lt", "Lo")}
    return len(scripts - {"EAST_ASIAN"}) > 1


@lru_cache(maxsize=1)
def _reserved() -> frozenset:
    return _keys(translate(lang, key) for lang in LANGUAGES for key in RESERVED_KEYS)


def _keys(names) -> frozenset:
    """The skeletons of ``names``, each with its place in the pair (see ``skeletons``)."""
    return frozenset(pair for name in names for pair in enumerate(skeletons(name)))


def clean_name(name: str) -> str:
    """A guest's name as others will see it: control, format (bidi overrides and isolates,
    zero-width joiners) and separator characters other than the plain space are dropped, so
    are blank-looking letters and combining marks past ``MAX_MARKS`` on one letter; runs of
    spaces squeezed, at most ``MAX_NAME`` characters. A name that mixes look-alike alphabets
    ("Аna" with a Cyrillic А) or reads as what the screens say in a seat's place ("On the
    host's device") is dropped whole: the seat keeps its own name."""
    kept = []
    marks = 0
    for ch in name:
        category = unicodedata.category(ch)
        if ch.isspace():
            kept.append(" ")
        elif category[0] in "CZ" or ch in BLANK_LOOKING:
            continue
        elif category[0] == "M":
            marks += 1
            if marks <= MAX_MARKS:
                kept.append(ch)
            continue
        else:
            kept.append(ch)
        marks = 0
    squeezed = " ".join("".join(kept).split())
    if _mixes_scripts(squeezed) or _keys([squeezed]) & _reserved():
        return ""
    return squeezed[:MAX_NAME].strip()


def unique_name(name: str, others) -> str:
    """``name``, or ``name 2``, ``name 3``… so that no two seats read alike (compared on
    skeletons: "ＡＮＡ", "Ána" and "ana" are the same name, so are "ANA" and a Greek "ΑΝΑ")."""
    taken = _keys(others)
    candidate, number = name, 1
    while _keys([candidate]) & taken:
        number += 1
        suffix = f" {number}"
        candidate = name[: MAX_NAME - len(suffix)].rstrip() + suffix
    return candidate


def new_token() -> str:
    """A seat token: 128 random bits, URL-safe so it fits in links and QR codes."""
    return secrets.token_urlsafe(16)


MAX_REMOVED = 256  # peer ids the host refuses to hear again (oldest forgotten first)


class _Peer:
    """One transport peer the host knows: the seat it holds (None = watching), when last
    heard, and the name it gave (shown to the host for a spectator)."""

    __slots__ = ("seat", "seen", "live", "name")

    def __init__(self, seat, now, name=""):
        self.seat = seat
        self.seen = now
        self.live = True
        self.name = name


class Host:
    """Runs one table for a set of peers. ``rev`` grows with every change guests must see."""

    def __init__(
        self,
        table: Table,
        table_id: str,
        tokens=None,
        rev: int = 0,
        started=False,
        token_source=new_token,
        base: int = 0,
    ):
        check_id("table", table_id)
        self.table = table
        self.base = base
        self.table_id = table_id
        self.tokens = list(tokens) if tokens is not None else [None] * len(table.seats)
        self.rev = rev
        self.started = started
        self.peers: dict = {}
        self._token_source = token_source
        self.room = None  # the room code, told to seated guests (HostedTable sets it)
        self.removed: dict = {}  # peer ids removed by the host, in order (a bounded set)
        self.watchers_open = True  # the host may close the table to new spectators
        # For the stale check: the version right after each seat's latest move (read from
        # the log), and the version since which it may act without a break (None if it may
        # not act now). A reloaded host dates the latter from now: stricter, never looser.
        self._acted = [base] * len(table.seats)
        for version, entry in enumerate(table.log, start=base + 1):
            self._acted[entry["seat"]] = version
        movers = table.able_to_act()
        self._able_since = [self.version if s in movers else None for s in range(len(table.seats))]
        # peer -> log entries of this game it has had (a fair table's record; at one that is
        # not fair, the moves it was told, one more once it has had the whole record)
        self._recorded: dict = {}
        self._batch = None  # while ``receive_all`` runs: whether a change awaits its states
        self.phrases_on = get_declaration(table.game.id).phrases.on  # the game's default
        self.board = Board()  # this device's side of the phrases
        self._phrase_pace = Pace()  # per seat

    @property
    def version(self) -> int:
        """The version peers see: actions applied in this game and every earlier one."""
        return self.base + self.table.version

    @classmethod
    def create(cls, game_id, options, seats, seed, table_id, token_source=new_token, fair=False, phrases=None) -> "Host":
        """A new table; ``phrases`` switches phrases on or off (``None``: the game's default)."""
        table = Table(game_id, options, seats, seed, fair_id(table_id, 0) if fair else None)
        host = cls(table, table_id, token_source=token_source)
        if phrases is not None:
            host.phrases_on = bool(phrases)
        return host

    # --- persistence ------------------------------------------------------------------------
    def snapshot(self) -> dict:
        """What the host saves after every change: the table plus who holds which token."""
        data = {
            "format": SNAPSHOT_FORMAT,
            "table_id": self.table_id,
            "table": self.table.to_dict(),
            "tokens": list(self.tokens),
            "rev": self.rev,
            "started": self.started,
            "base": self.base,
            "watchers_open": self.watchers_open,
            "phrases": self.phrases_on,
            "muted": self.board.to_json(),
        }
        if self.table.fair is not None:  # this device's secrets for the current round
            data["held"] = held_to_json(self.table.held)
        return data

    @classmethod
    def from_snapshot(cls, data, token_source=new_token) -> "Host":
        """A host resumed from ``snapshot()``; peers are forgotten and must rejoin with tokens."""
        if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
            raise BadSave("The save is not a shared table", "sync_save_format")
        table = Table.from_dict(data.get("table"))
        tokens, rev, table_id = data.get("tokens"), data.get("rev"), data.get("table_id")
        if not isinstance(tokens, list) or len(tokens) != len(table.seats):
            raise BadSave("The shared table's seat tokens are missing", "sync_save_tokens")
        for seat, token in zip(table.seats, tokens):
            if token is None:
                continue
            try:
                check_id("token", token)
            except ProtocolError:
                raise BadSave("A seat token in the save is malformed", "sync_save_tokens") from None
            if seat["kind"] == "human":
                raise BadSave("A local seat cannot have a guest's token", "sync_save_tokens")
        if type(rev) is not int or rev < 0 or type(data.get("started")) is not bool:
            raise BadSave("The shared table's revision is missing", "sync_save_rev")
        base = data.get("base", 0)
        if type(base) is not int or not 0 <= base <= MAX_SEED:
            raise BadSave("The shared table's game count is damaged", "sync_save_rev")
        watchers_open = data.get("watchers_open", True)
        if type(watchers_open) is not bool:
            raise BadSave("The shared table's spectator setting is damaged", "sync_save_rev")
        if table.fair is not None:
            table.held = held_from_json(data.get("held", []), len(table.seats))
        try:
            host = cls(table, table_id, tokens, rev, data["started"], token_source, base)
        except ProtocolError:
            raise BadSave("The shared table's id is malformed", "sync_save_id") from None
        host.watchers_open = watchers_open
        phrases = data.get("phrases", host.phrases_on)  # a save from before phrases: the game's default
        if type(phrases) is not bool:
            raise BadSave("The shared table's phrase setting is damaged", "phrase_save")
        host.phrases_on = phrases
        host.board = Board.from_json(data.get("muted", []), len(table.seats))
        return host

    # --- what peers see -----------------------------------------------------------------------
    def public_seats(self) -> list:
        """The seat list every peer sees: kinds, names, who is connected. Never tokens."""
        holders = {p.seat: p for p in self.peers.values() if p.seat is not None}
        seats = []
        for index, seat in enumerate(self.table.seats):
            holder = holders.get(index)
            entry = {
                "kind": seat["kind"],
                "name": seat["name"],
                "open": seat["kind"] == "remote" and self.tokens[index] is None,
                "covered": seat["kind"] == "bot" and self.tokens[index] is not None,
                "connected": seat["kind"] != "remote" or (holder is not None and holder.live),
            }
            if seat["kind"] == "bot":
                entry["level"] = seat["level"]
            seats.append(entry)
        return seats

    def _state_to(self, peers) -> list:
        """The current state message for each of ``peers``: each gets its own seat's view,
        and ``acted``, the version right after that seat's latest move (its guest's proof
        that an intent went through, whatever else happened meanwhile)."""
        seats = self.public_seats()
        texts: dict = {}
        outbox = self._records_to(peers)
        whole: dict = {}
        for peer in peers:
            outbox += self._witnessed_by(peer, whole)
            seat = self.peers[peer].seat
            if seat not in texts:
                texts[seat] = encode(
                    "state",
                    table=self.table_id,
                    version=self.version,
                    rev=self.rev,
                    started=self.started,
                    acted=self._acted[seat] if seat is not None else None,
                    seats=seats,
                    view=self.table.view(seat),
                )
            handed = handover(self.table, seat)
            if handed is not None:
                outbox.append((peer, encode("secret", table=self.table_id, **handed)))
            outbox.append((peer, texts[seat]))
        return outbox

    def _records_to(self, peers) -> list:
        """On a fair table, each peer's missing part of the public record (``protocol.fair``)."""
        if self.table.fair is None:
            return []
        outbox, length = [], len(self.table.log)
        for peer in peers:
            start = self._recorded.get(peer, 0)
            for begin, end in record_spans(self.table.log, start):
                fields = record_fields(self.table, self.table_id, self.base, begin, end)
                outbox.append((peer, encode("record", **fields)))
            self._recorded[peer] = length
        return outbox

    def _witnessed_by(self, peer, whole: dict) -> list:
        """At a started table that is not fair (``protocol.witness``): the move ``peer`` has not
        been told, then, once the game is over, the whole record (once per game; ``whole``
        keeps its text for the other peers of the same round of states)."""
        table = self.table
        if table.fair is not None or not self.started or not table.log:
            return []
        told = self._recorded.get(peer, 0)
        outbox = []
        if told < len(table.log):
            entry = table.log[-1]
            outbox.append((peer, encode("step", table=self.table_id, base=self.base, version=self.version, **entry)))
        if table.is_over() and told <= len(table.log):
            if "text" not in whole:
                whole["text"] = encode("game_record", table=self.table_id, base=self.base, text=record_text(table))
            outbox.append((peer, whole["text"]))
        self._recorded[peer] = len(table.log) + table.is_over()
        return outbox

    def _changed(self) -> list:
        """Something every peer must see happened: bump ``rev`` and send everyone a state
        (in ``receive_all``, once at its end)."""
        self._local_duties()
        self.rev += 1
        if self._batch is not None:
            self._batch = True
            return []
        return self._state_to(list(self.peers))

    def _local_duties(self) -> None:
        """On a started fair table, this device's part of the draw for its own seats and
        its bots, done at once (``core.fair.duty``): they never wait for a tap or a bot."""
        if self.table.fair is None or not self.started:
            return
        done = True
        while done:
            done = False
            for seat in self.table.to_act():
                action = self.table.duty(seat) if self.table.seats[seat]["kind"] != "remote" else None
                if action is not None:
                    self.table.act(seat, action)
                    self._note_move(seat)
                    done = True

    def _welcome(self, peer) -> tuple:
        self._recorded.pop(peer, None)  # a (re)joining peer gets the whole record again
        seat = self.peers[peer].seat
        token = self.tokens[seat] if seat is not None else None
        return (
            peer,
            encode(
                "welcome",
                table=self.table_id,
                game=self.table.game.id,
                seat=seat,
                token=token,
                room=self.room if seat is not None else None,
                phrases=self.phrases_on,
            ),
        )

    def _error(self, peer, error: TabernaError, ref=None) -> tuple:
        return (
            peer,
            encode(
                "error",
                table=self.table_id,
                code=error.code,
                reason=error.reason,
                params=error.params,
                ref=ref,
            ),
        )

    # --- inbound ------------------------------------------------------------------------------
    def receive(self, peer, text, now) -> list:
        """Handles one message from ``peer``; a bad one gets an error reply and changes nothing.

        A peer id that is not a short string cannot be answered, so it is dropped silently.
        """
        if not isinstance(peer, str) or not 0 < len(peer) <= 128 or peer in self.removed:
            return []
        try:
            message = decode(text, INBOUND, MAX_INBOUND)
            if message["table"] != self.table_id:
                raise ProtocolError("This message is for another table", "sync_wrong_table")
        except ProtocolError as error:
            return [self._error(peer, error)]
        kind = message["kind"]
        ref = message["seq"] if kind in ("intent", "intent_then") else None
        self.board.at(now)
        try:
            if kind == "join":
                outbox = self._join(peer, message["seat"], message["name"], now)
            elif kind == "rejoin":
                outbox = self._rejoin(peer, message["seat"], message["token"], now)
            elif peer not in self.peers:
                raise ProtocolError("Join the table first", "sync_not_joined")
            elif kind in ("intent", "intent_then"):
                outbox = self._intent(peer, message)
            elif kind == "say":
                outbox = self._say_from(peer, message, now)
            elif kind == "sync":
                self._recorded.pop(peer, None)  # a guest that asks may have missed a record
                outbox = self._state_to([peer])
            else:
                outbox = [(peer, encode("pong", table=self.table_id, t=message["t"], rev=self.rev))]
        except TabernaError as error:
            outbox = [self._error(peer, error, ref)]
        return outbox + self._heard(peer, now)

    def receive_all(self, messages, now) -> list:
        """``[(peer, text), ...]`` that came in together (while this device was busy): each
        handled as ``receive`` handles it, and the states they change sent once, at the end.
        A fair deal's keys come from every device at once: each peer gets one state, not
        one per device, and every record entry still in order."""
        self._batch = False
        try:
            outbox = [item for peer, text in messages for item in self.receive(peer, text, now)]
        finally:
            changed, self._batch = self._batch, None
        return outbox + (self._state_to(list(self.peers)) if changed else [])

    def _heard(self, peer, now) -> list:
        """A known peer is alive; if it had counted as absent, everyone sees it is back."""
        record = self.peers.get(peer)
        if record is None:
            return []
        record.seen = now
        if record.live:
            return []
        record.live = True
        return self._changed()

    def _join(self, peer, seat, name, now) -> list:
        """A new peer takes an open seat (``seat``) or watches (``None``); repeats are harmless."""
        record = self.peers.get(peer)
        if record is not None:
            if record.seat is not None and record.seat != seat:
                raise ProtocolError("You already hold a seat", "sync_already_seated", seat=record.seat)
            if record.seat == seat:
                return [self._welcome(peer)] + self._state_to([peer])
        else:
            if seat is None:
                self._check_watcher_room()
            if len(self.peers) >= MAX_PEERS and not self._evict_absent_watcher():
                raise ProtocolError("The table is full", "sync_table_full")
        name = clean_name(name)
        if seat is not None:
            self._check_seat(seat)
            if self.table.seats[seat]["kind"] != "remote" or self.tokens[seat] is not None:
                raise ProtocolError("That seat is taken", "sync_seat_taken", seat=seat)
            entry = dict(self.table.seats[seat])
            if name:
                others = [s["name"] for i, s in enumerate(self.table.seats) if i != seat]
                entry["name"] = unique_name(name, others)
            self.table.set_seat(seat, entry)
            self.tokens[seat] = self._token_source()
        self.peers[peer] = _Peer(seat, now, name)
        return [self._welcome(peer)] + self._changed()

    def _rejoin(self, peer, seat, token, now) -> list:
        """A returning guest shows its token and gets its seat back, even from a covering bot."""
        self._check_seat(seat)
        expected = self.tokens[seat]
        if expected is None or not hmac.compare_digest(expected.encode(), token.encode()):
            raise ProtocolError("That seat token is not valid here", "sync_bad_token", seat=seat)
        record = self.peers.get(peer)
        if record is not None and record.seat not in (None, seat):
            raise ProtocolError("You already hold a seat", "sync_already_seated", seat=record.seat)
        outbox = []
        for other, held in list(self.peers.items()):
            if held.seat == seat and other != peer:
                del self.peers[other]
                replaced = ProtocolError(
                    "Your seat was taken over by a newer connection", "sync_replaced"
                )
                outbox.append(self._error(other, replaced))
        if self.table.seats[seat]["kind"] == "bot":
            self.table.set_seat(seat, {"kind": "remote", "name": self.table.seats[seat]["name"]})
        self.peers[peer] = _Peer(seat, now)
        return outbox + [self._welcome(peer)] + self._changed()

    def _intent(self, peer, message) -> list:
        """A guest's action: it must hold the seat, have seen the current version, obey the rules.
        An ``intent_then``'s second action is played right after, if the rules take it (a fair
        reveal's next commitment); if not, the seat owes it still and its device sends it again."""
        seat = message["seat"]
        self._check_started()
        if self.peers[peer].seat != seat:
            raise ProtocolError("You do not hold that seat", "sync_not_your_seat", seat=seat)
        if self.table.seats[seat]["kind"] != "remote":
            raise ProtocolError("A bot is playing that seat now", "sync_seat_with_bot", seat=seat)
        seen = message["version"]
        since = self._able_since[seat]
        fresh = seen == self.version or (
            seen < self.version
            and since is not None
            and since <= seen
            and self._acted[seat] <= seen
        )
        if not fresh:
            raise ProtocolError(
                "The table moved on before your action arrived",
                "sync_stale",
                seen=seen,
                version=self.version,
            )
        if message["action"]["type"] == "forfeit":  # a guest voiding a deal it is losing
            raise ProtocolError("Only the host applies the forfeit rule", "fair_forfeit_host")
        self._judge(seat, message["action"])
        if "then" in message:
            try:
                self._judge(seat, message["then"])
            except TabernaError:
                pass
        return self._moved(seat)

    def _judge(self, seat, action) -> None:
        """The rules play a guest's ``action``, or raise; a rules bug is a refusal too."""
        try:
            self.table.act(seat, action)
        except TabernaError:
            raise
        except Exception as error:  # a rules bug must not let one peer's message stop the table
            raise ProtocolError(
                f"The rules could not judge that action ({type(error).__name__})", "sync_rules_failed"
            ) from error

    def _say_from(self, peer, message, now) -> list:
        """A guest's phrase, for the seat it holds."""
        seat = message["seat"]
        if self.peers[peer].seat != seat:
            raise ProtocolError("You do not hold that seat", "sync_not_your_seat", seat=seat)
        return self._said(seat, message["phrase"], now)

    def _said(self, seat, phrase, now) -> list:
        """``seat`` says ``phrase``, if the table allows it and the seat is within its pace:
        this device shows it, and every peer is told."""
        check_phrase(self.table.game.id, phrase, self.phrases_on)
        if not self._phrase_pace.allow(seat, now):
            raise ProtocolError("Too many phrases: wait a moment", "phrase_too_fast")
        self.board.heard(seat, phrase, now)
        text = encode("said", table=self.table_id, seat=seat, phrase=phrase)
        return [(peer, text) for peer in self.peers]

    def _moved(self, seat) -> list:
        """After ``seat``'s move: update what the stale check needs, then tell everyone."""
        self._note_move(seat)
        return self._changed()

    def _note_move(self, seat) -> None:
        """What the stale check needs after ``seat``'s move."""
        version = self.version
        self._acted[seat] = version
        movers = self.table.able_to_act()
        for other in range(len(self._able_since)):
            if other not in movers:
                self._able_since[other] = None
            elif self._able_since[other] is None:
                self._able_since[other] = version

    # --- the host's own decisions ------------------------------------------------------------
    def start(self) -> list:
        """Play begins: until now peers could join and the host could arrange the seats."""
        if self.started:
            return []
        self.started = True
        return self._changed()

    def rematch(self) -> list:
        """Once the game is over: a new game at the same table, same options and seats (and
        so the same tokens), dealt from a seed derived from this game's. Its versions start
        one past the last game's, so every intent about the old game is stale."""
        self._check_started()
        if not self.table.is_over():
            raise ProtocolError("The game is not over yet", "sync_not_over")
        if is_key(self.table.seed):
            seed = derive_key(self.table.seed, "rematch", self.version)
        else:
            seed = derive_seed(self.table.seed, "rematch", self.version) % (MAX_SEED + 1)
        old = self.table
        self.base = self.base + old.version + 1
        self.table = old.again(seed, None if old.fair is None else fair_id(self.table_id, self.base))
        self._recorded.clear()
        self._acted = [self.base] * len(self.table.seats)
        movers = self.table.able_to_act()
        self._able_since = [self.base if s in movers else None for s in range(len(self.table.seats))]
        return self._changed()

    def act(self, seat, action) -> list:
        """A move by a player on the host's own screen (a ``human`` seat)."""
        self._check_started()
        self._check_seat(seat)
        if self.table.seats[seat]["kind"] != "human":
            raise ProtocolError("That seat is not played on this screen", "sync_not_local", seat=seat)
        self.table.act(seat, self.table.complete(seat, action))
        return self._moved(seat)

    def say(self, seat, phrase, now) -> list:
        """A phrase of a player on the host's own screen (a ``human`` seat)."""
        self._check_seat(seat)
        if self.table.seats[seat]["kind"] != "human":
            raise ProtocolError("That seat is not played on this screen", "sync_not_local", seat=seat)
        return self._said(seat, phrase, now)

    def forfeit(self, seat) -> list:
        """The host ends a fair draw's step without ``seat``, whose device owes its part and
        is gone: the game's forfeit rule applies (the same grace as for any absent player
        comes first; judging it is the page's part)."""
        self._check_started()
        self._check_seat(seat)
        table = self.table
        if table.fair is None or seat not in table.to_act() or not (table.fair_steps() or table.blind(seat)):
            raise ProtocolError("That seat owes nothing to the fair draw now", "fair_nothing_owed", seat=seat)
        self.table.act(seat, {"type": "forfeit", "n": self.table.state["fair"]["n"]})
        return self._moved(seat)

    def play_bot(self) -> list:
        """One bot move, if a bot may act; the caller paces bots by how often it calls this."""
        seat = self.table.next_bot_seat() if self.started else None
        if seat is None:
            return []
        self.table.act(seat, self.table.complete(seat, self.table.bot_action(seat)))
        return self._moved(seat)

    def set_seat(self, seat, kind: str, level=None) -> list:
        """The host reassigns a seat: ``bot`` covers for an absent player (who may reclaim it),
        ``remote`` gives it back to (or opens it for) a guest, ``human`` takes it onto this
        screen and revokes the guest's token.
        """
        self._check_seat(seat)
        entry = {"kind": kind, "name": self.table.seats[seat]["name"]}
        if kind == "bot":
            entry["level"] = level
        self.table.set_seat(seat, entry)
        outbox = []
        if kind == "human":
            self.tokens[seat] = None
            for peer, record in self.peers.items():
                if record.seat == seat:
                    record.seat = None
                    outbox.append(self._welcome(peer))
        return outbox + self._changed()

    def drop(self, peer, now) -> list:
        """The transport saw ``peer``'s channel close: its seat shows absent at once, not
        after ``ABSENT_AFTER`` of silence. The peer stays known, so a message from it (or
        a rejoin with the seat's token from a new channel) brings the seat back."""
        record = self.peers.get(peer)
        if record is None or not record.live:
            return []
        record.live = False
        return self._changed() if record.seat is not None else []

    def kick(self, peer, error: TabernaError, now) -> list:
        """The host's page cuts ``peer`` off (it flooded the table): it is told why, and
        its seat shows absent, as when its channel closes."""
        return [self._error(peer, error)] + self.drop(peer, now)

    def seated_peers(self) -> list:
        """The peers that hold a seat."""
        return [peer for peer, record in self.peers.items() if record.seat is not None]

    def watchers(self) -> list:
        """``(peer, name)`` of every spectator, for the host's screen."""
        return [(peer, record.name) for peer, record in self.peers.items() if record.seat is None]

    def remove(self, peer) -> list:
        """The host sends a spectator away: it is told why, forgotten, and whatever it sends
        later is dropped unread (a seated guest's seat is taken back with ``set_seat``)."""
        record = self.peers.get(peer)
        if record is None or record.seat is not None:
            raise ProtocolError("There is no such spectator", "sync_no_watcher")
        del self.peers[peer]
        self.removed[peer] = True
        while len(self.removed) > MAX_REMOVED:
            del self.removed[next(iter(self.removed))]
        removed = ProtocolError("The host removed you from this table", "sync_removed")
        return [self._error(peer, removed)]

    def close(self) -> list:
        """The host ends the shared table: every peer is told, then forgotten."""
        closed = ProtocolError("The host closed this table", "sync_closed")
        outbox = [self._error(peer, closed) for peer in self.peers]
        self.peers.clear()
        return outbox

    def tick(self, now) -> list:
        """Marks peers silent for ``ABSENT_AFTER`` as absent and forgets long-gone ones."""
        self.board.at(now)
        changed = False
        for peer, record in list(self.peers.items()):
            silence = now - record.seen
            if silence > FORGET_AFTER:
                del self.peers[peer]
                changed = True
            elif record.live and silence > ABSENT_AFTER:
                record.live = False
                changed = True
        return self._changed() if changed else []

    def let_watchers_in(self, open_: bool) -> None:
        """The host opens or closes the table to new spectators (those watching stay)."""
        self.watchers_open = bool(open_)

    # --- helpers ------------------------------------------------------------------------------
    def _check_watcher_room(self) -> None:
        """A new spectator needs the host's leave and room among the spectators."""
        if not self.watchers_open:
            raise ProtocolError("The host lets no more spectators in", "sync_no_watchers")
        if len(self.watchers()) >= MAX_WATCHERS and not self._evict_absent_watcher():
            raise ProtocolError("This table has all the spectators it can take", "sync_watchers_full")

    def _evict_absent_watcher(self) -> bool:
        """Makes room by forgetting the longest-silent absent spectator, if there is one."""
        absent = [(r.seen, peer) for peer, r in self.peers.items() if r.seat is None and not r.live]
        if not absent:
            return False
        del self.peers[min(absent)[1]]
        return True

    def _check_started(self) -> None:
        if not self.started:
            raise ProtocolError("The host has not started the game yet", "sync_not_started")

    def _check_seat(self, seat) -> None:
        if type(seat) is not int or not 0 <= seat < len(self.table.seats):
            raise ProtocolError("There is no such seat", "sync_no_such_seat", seat=str(seat)[:8])

