"""Reading and planting the page's saved tables (IndexedDB, ``site/saves.js``) from a browser test."""

import json
import time

from pyengine.core.registry import get_game
from pyengine.core.table import Table

# Every record of the "saves" store, read in the page (a function: the page's CSP refuses eval).
READ_RECORDS = """async () => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open("taberna");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  if (!db.objectStoreNames.contains("saves")) { db.close(); return []; }
  const records = await new Promise((resolve, reject) => {
    const request = db.transaction("saves").objectStore("saves").getAll();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  db.close();
  return records;
}"""


def stored_records(page) -> list:
    """Every saved table the page's origin keeps, as ``{id, kind, game, players, text, ...}``."""
    return page.evaluate(READ_RECORDS)


def wait_stored(page, holds, timeout_s=60):
    """Polls the stored records until ``holds(records)``: a write reaches the database a
    moment after the screen shows it (``wait_for_function`` would not await the read)."""
    deadline = time.monotonic() + timeout_s
    while not holds(stored_records(page)):
        assert time.monotonic() < deadline, "the saved tables never reached that state"
        page.wait_for_timeout(50)


def delete_listed(page):
    """Deletes every table the lobby lists, through its Delete and the confirmation, and waits
    until the database holds none of them: a page shared by tests starts each from no save."""
    items = page.locator("#saved-list .saved-game")
    ids = set(items.evaluate_all("items => items.map(item => item.dataset.save)"))
    while items.count():
        items.first.locator("[data-testid=delete]").click()
        items.first.locator("[data-testid=delete-yes]").click()
    wait_stored(page, lambda records: not ids & {str(record["id"]) for record in records})


def saved_text(page, kind="local"):
    """The save (JSON text) of the table on screen: for one device the record the page marks
    as current, else the newest record of ``kind``; ``None`` if there is none."""
    records = [r for r in stored_records(page) if r["kind"] == kind]
    current = page.evaluate("() => localStorage.getItem('taberna.current')") if kind == "local" else None
    chosen = [r for r in records if r["id"] == current] or sorted(records, key=lambda r: -r["updated"])
    return chosen[0]["text"] if chosen else None


# Writes records into the "saves" store as the page keeps them (a reload then lists them).
PUT_RECORDS = """async (records) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open("taberna");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise((resolve, reject) => {
    const transaction = db.transaction("saves", "readwrite");
    for (const record of records) transaction.objectStore("saves").put(record);
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
  });
  db.close();
}"""


def restore_records(page, records):
    """Puts ``records`` (local, in progress) on the lobby's list through its backup restore, as
    a player does with a backup file: listed at once, written to disk first, no reload."""
    backup = json.dumps({"taberna_backup": 1, "saves": records, "settings": {}}).encode()
    page.set_input_files("#backup-file", files=[{"name": "taberna-backup.json", "mimeType": "application/json", "buffer": backup}])
    page.wait_for_function(
        "ids => ids.every((id) => document.querySelector(`#saved-list [data-save='${id}']`))", arg=[r["id"] for r in records]
    )


def played_by_bots(game_id, seats, options, seed):
    """A whole game with bots in every seat: the table (the player's seat 0 marked human)
    and the state before each action, to plant screens deep in a game."""
    game = get_game(game_id)
    bot = {"kind": "bot", "level": game.bot_levels[0]}
    table = Table(game_id, options, [dict(bot, name=f"Bot {n}") for n in range(1, seats + 1)], seed)
    states = [table.state]
    while not table.is_over():
        seat = table.to_act()[0]
        table.act(seat, table.bot_action(seat))
        states.append(table.state)
    table.seats[0] = {"kind": "human", "name": "Ana"}
    return table, states


def local_record(record_id, table, cut, number):
    """The lobby's record of ``table`` cut to its first ``cut`` actions, a one-device save
    listed ``number``-th from the oldest (for ``PUT_RECORDS``)."""
    save = dict(table.to_dict(), log=table.log[:cut])
    return {"id": record_id, "kind": "local", "table": None, "game": table.game.id,
            "players": [seat["name"] for seat in table.seats], "over": False, "updated": 1_000 + number,
            "text": json.dumps(save)}
