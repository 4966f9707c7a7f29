"""Your games: the finished games kept on this device, each openable for replay, and how the
player does in each game (played, won, by bot level and by table size, streaks).

A table that ends hands the page its entry once (``finished_entry``, in the reply as
``finished``): the record's text and what the statistics read — the game, how many seats,
which were played on this device, who won, the bots' levels. The page keeps the entries
with the saves (``site/saves.js``, kind ``"finished"``, stamped ``updated`` when kept: when
the game finished) and hands them back, without their texts, to draw the two screens
(``GamesScreen``); the date is written in the player's language, in this device's time zone. An entry from the page is checked field by
field, and one that does not fit is left out, never drawn half.
"""

import hashlib
import time

from ..core.errors import TabernaError
from ..core.registry import playable_games
from ..records.record import record_of, replay
from ..records.text import write_text
from ..ui.markup import h
from .reply import Controller

VIEWS = ("games", "stats")
MAX_ENTRIES = 5_000
MAX_MS = (1 << 53) - 1  # a time from the page: a JavaScript number of milliseconds


def finished_entry(table) -> dict:
    """What the page keeps of a finished ``Table`` (``record_entry``)."""
    record = record_of(table)
    return record_entry(record, list(replay(record)))


def record_entry(record: dict, states: list) -> dict:
    """What the page keeps of a finished game's record (``states``: its replay); its id is
    its text's hash, so keeping it again (a reload of the finished table) changes nothing."""
    text = write_text(record, states)
    seats = record["seats"]
    return {
        "id": "finished:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:24],
        "game": record["game"],
        "text": text,
        "seats": len(seats),
        "you": [seat for seat, info in enumerate(seats) if info["kind"] == "human"],
        "winners": list(record["result"]["winners"]),
        "levels": sorted({info["level"] for info in seats if info["kind"] == "bot"}),
    }


def _fits(entry, games: dict) -> bool:
    """Whether an entry from the page has every field the screens read, of its type."""
    if not isinstance(entry, dict) or entry.get("game") not in games or not isinstance(entry.get("id"), str):
        return False
    seats, updated = entry.get("seats"), entry.get("updated")
    seat_lists = [entry.get("you"), entry.get("winners")]
    return (type(seats) is int and 1 <= seats <= 64 and type(updated) is int and 0 <= updated <= MAX_MS
            and all(isinstance(seat_list, list) and all(type(s) is int and 0 <= s < seats for s in seat_list) for seat_list in seat_lists)
            and isinstance(entry.get("levels"), list) and all(level in games[entry["game"]].bot_levels for level in entry["levels"])
            and isinstance(entry.get("players"), list) and all(isinstance(name, str) for name in entry["players"]))


def finished_when(t, ms: int) -> str:
    """When a game finished (``ms`` since 1970), as the player's language writes a date and
    a time, in this device's time zone (Pyodide's clock is the browser's). The numbers go
    as text: a year is no quantity to group (``2,026``)."""
    when = time.localtime(ms // 1000)
    return t("games.when", day=str(when.tm_mday), month=str(when.tm_mon), year=str(when.tm_year),
             time=f"{when.tm_hour:02}:{when.tm_min:02}")


def _iso(ms: int) -> str:
    """The machine-readable time of a ``<time>``: UTC, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ms // 1000))


def outcome(entry: dict) -> str:
    """``won`` (a seat of this device won), ``lost``, or ``none`` (nobody here played, or a draw)."""
    if not entry["you"] or not entry["winners"]:
        return "none"
    return "won" if set(entry["you"]) & set(entry["winners"]) else "lost"


def strongest(entry: dict, game) -> str:
    """The table's strongest bot level, or ``""`` for a table without bots."""
    return max(entry["levels"], key=game.bot_levels.index, default="")


def statistics(entries: list, games: dict) -> dict:
    """``{game: {"played", "won", "levels": {level: [played, won]}, "sizes": {n: [played,
    won]}, "streak", "best"}}`` over the games a player here played, oldest first."""
    stats = {}
    for entry in entries:
        result = outcome(entry)
        if not entry["you"]:
            continue
        game = stats.setdefault(entry["game"], {"played": 0, "won": 0, "levels": {}, "sizes": {}, "streak": 0, "best": 0})
        won = result == "won"
        for tally, key in ((game["levels"], strongest(entry, games[entry["game"]])), (game["sizes"], entry["seats"])):
            counts = tally.setdefault(key, [0, 0])
            counts[0] += 1
            counts[1] += won
        game["played"] += 1
        game["won"] += won
        game["streak"] = game["streak"] + 1 if won else 0
        game["best"] = max(game["best"], game["streak"])
    return stats


class GamesScreen(Controller):
    """The finished games (``"games"``) or the statistics (``"stats"``), on the table's screen."""

    role = "games"

    def __init__(self, entries, view: str = "games"):
        super().__init__()
        if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
            raise TabernaError("That is not a list of games", "bad_request")
        self.games = playable_games()
        self.entries = [entry for entry in entries if _fits(entry, self.games)]  # oldest first
        self.view = "games"
        self.change_ui({"view": view})

    def change_ui(self, change: dict) -> None:
        if set(change) != {"view"} or change["view"] not in VIEWS:
            raise TabernaError("That button is not understood", "bad_ui")
        self.view = change["view"]

    def status(self) -> str:
        return self.view

    def delay_ms(self) -> int:
        return 0

    def table_id(self):
        return None

    def title(self, t) -> str:
        return t(f"games.{self.view}_title")

    def save(self):
        return None

    def html(self, t):
        tabs = h("p", {"class": "tb-games-tabs"}, [
            h("button", {"type": "button", "data-ui": {"view": view}, "aria-pressed": "true" if view == self.view else "false",
                         "data-testid": f"games-{view}"}, t(f"games.{view}_title"))
            for view in VIEWS
        ])
        body = self.list_html(t) if self.view == "games" else self.stats_html(t)
        return h("section", {"class": "tb-games", "data-testid": f"games-screen-{self.view}", "aria-label": self.title(t)},
                 tabs, body,
                 h("p", None, h("button", {"type": "button", "data-nav": "lobby"}, t("game.back"))))

    def list_html(self, t):
        if not self.entries:
            return h("p", {"class": "tb-hint", "data-testid": "games-none"}, t("games.none"))
        rows = []
        for entry in reversed(self.entries):
            game = entry["game"]
            rows.append(h(
                "li", {"class": ["tb-games-row", f"tb-games-{outcome(entry)}"], "data-testid": "games-row"},
                h("span", {"class": "tb-games-what"},
                  h("strong", None, t(f"lobby.{game}.name")), " · ", t(f"games.result_{outcome(entry)}"), h("br"),
                  h("time", {"datetime": _iso(entry["updated"]), "data-testid": "games-when"},
                    t("games.finished_at", when=finished_when(t, entry["updated"]))), h("br"),
                  h("span", {"class": "tb-hint"}, ", ".join(entry["players"]))),
                h("button", {"type": "button", "data-ui": {"replay": entry["id"]}, "data-testid": "games-replay",
                             "aria-label": t("games.replay_label", game=t(f"lobby.{game}.name"), players=", ".join(entry["players"]))},
                  t("replay.open")),
            ))
        return h("ol", {"class": "tb-games-list"}, rows)

    def stats_html(self, t):
        stats = statistics(self.entries, self.games)
        if not stats:
            return h("p", {"class": "tb-hint", "data-testid": "games-none"}, t("games.none"))
        sections = []
        for game_id in (game for game in self.games if game in stats):
            game = stats[game_id]
            order = ["", *self.games[game_id].bot_levels]  # no bots, then the weakest first
            rows = [(t("games.overall"), [game["played"], game["won"]])]
            rows += [(t("games.no_bots") if level == "" else t("games.against", level=t(f"level.{game_id}.{level}")), counts)
                     for level, counts in sorted(game["levels"].items(), key=lambda item: order.index(item[0]))]
            rows += [(t("games.seats", count=size), counts) for size, counts in sorted(game["sizes"].items())]
            head = h("tr", None, [h("th", {"scope": "col"}, t(key)) for key in ("games.table", "games.played", "games.won")])
            body = [h("tr", None, h("th", {"scope": "row"}, label), h("td", None, t.number(played)), h("td", None, t.number(won)))
                    for label, (played, won) in rows]
            sections.append(h(
                "section", {"class": "tb-games-stats", "data-testid": f"stats-{game_id}"},
                h("h2", None, t(f"lobby.{game_id}.name")),
                h("table", None, h("thead", None, head), h("tbody", None, body)),
                h("p", None, t("games.streaks", streak=game["streak"], best=game["best"])),
            ))
        return sections
