// The shelf's finished games and its backup (site/saves.js), in memory: no IndexedDB here, so
// every write reports a failure, and the records stay in memory as they do in such a browser.
import assert from "node:assert/strict";
import test from "node:test";

import { SaveShelf } from "../../site/saves.js";

/** A shelf without a database, that does not ask the browser to keep it (Node has no navigator). */
function memoryShelf() {
  const shelf = new SaveShelf(() => {});
  shelf.persistAsked = true;
  return shelf;
}

test("a finished game is kept once, apart from the games in progress", async () => {
  const shelf = memoryShelf();
  await shelf.put({ id: "local:1", kind: "local", table: null, text: "{}", game: "perudo", players: ["Ana"], over: false });
  const entry = { id: "finished:ab", game: "perudo", text: "Taberna record 1\n", seats: 2, you: [0], winners: [1], levels: ["easy"] };
  await shelf.keepFinished(entry, ["Ana", "Bot 2"]);
  const first = shelf.get("finished:ab");
  await shelf.keepFinished({ ...entry, text: "changed" }, ["Ana", "Bot 2"]);
  assert.equal(shelf.get("finished:ab"), first);
  assert.deepEqual(shelf.inProgress().map((record) => record.id), ["local:1"]);
  assert.deepEqual(shelf.finished().map((record) => [record.id, record.kind, record.over, record.players]),
    [["finished:ab", "finished", true, ["Ana", "Bot 2"]]]);
});

test("a backup brings every record back with its time, and the settings; anything else is refused", async () => {
  const shelf = memoryShelf();
  await shelf.put({ id: "local:1", kind: "local", table: null, text: "{}", game: "lasca", players: ["Ana", "Bea"], over: false });
  await shelf.keepFinished({ id: "finished:cd", game: "lasca", text: "Taberna record 1\n", seats: 2, you: [0], winners: [], levels: [] }, ["Ana", "Bea"]);
  const text = shelf.backup({ "taberna.lang": "ca" });
  const other = memoryShelf();
  assert.deepEqual(await other.restore(text), { "taberna.lang": "ca" });
  assert.deepEqual([...other.records.values()], [...shelf.records.values()]);
  for (const wrong of ["", "{", "[]", '{"taberna_backup":2,"saves":[]}', '{"taberna_backup":1,"saves":{}}']) {
    assert.equal(await memoryShelf().restore(wrong), null, wrong);
  }
  const damaged = memoryShelf();
  assert.deepEqual(await damaged.restore('{"taberna_backup":1,"saves":[{"id":"x","kind":"local"},null]}'), {});
  assert.equal(damaged.records.size, 0); // a record that does not fit is left out
});
