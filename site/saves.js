// Saved tables: one record per table, in IndexedDB, so that no game replaces another and a
// full storage is noticed instead of silently losing moves.
//
// A record: {id, kind: "local"|"host"|"guest", table (a shared table's id, else null), game,
// players: [name, ...], over, updated (ms), text (the worker's save, stored verbatim: its
// 63-bit seed must not pass through a JavaScript number)}; a shared table's also has via
// (how it was joined) and pin (the host key a guest pinned, or null). Ids: "local:<random>",
// "host:<table>", "guest:<table>:<seat>".
//
// The records are read once when the page opens and mirrored in memory, so reading is
// synchronous (a table's session finds its save at once). Every write goes to
// the database at once and reports whether it got there: a failure (quota, private mode, a
// browser that refuses IndexedDB) is the page's to show; the record stays in memory, so this
// tab can still resume it, and the next write tries again.
//
// Saves made before IndexedDB (localStorage keys taberna.table/host/guest) are moved here on
// the first load, and removed from localStorage only once they are safely written.
//
// Finished games ("Your games") are records of kind "finished" beside the saves: {id:
// "finished:<hash of the record>", game, players, over: true, updated, text (the game's
// record, pyengine/records), seats, you, winners, levels (what the statistics read,
// pyengine/shell/games.py)}. A backup is every record and the settings in one JSON file.

const DB_NAME = "taberna";
const DB_VERSION = 1;
const STORE = "saves";
const LEGACY = { table: "taberna.table", inGame: "taberna.inGame", host: "taberna.host", guest: "taberna.guest" };

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function openDatabase() {
  return new Promise((resolve, reject) => {
    let request;
    try {
      request = indexedDB.open(DB_NAME, DB_VERSION);
    } catch (error) {
      reject(error);
      return;
    }
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("blocked"));
  });
}

/** One field of a save's JSON text, or null. */
export function saveField(text, field) {
  try {
    return JSON.parse(text)[field] ?? null;
  } catch {
    return null;
  }
}

export function newLocalId() {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `local:${Date.now().toString(36)}${random[0].toString(36)}${random[1].toString(36)}`;
}

/** The id of a shared table's save from its text: the host's table, or the guest's seat. */
export function sharedId(role, text) {
  if (role === "host") {
    const table = saveField(text, "table_id");
    return typeof table === "string" ? `host:${table}` : null;
  }
  const table = saveField(text, "table");
  return typeof table === "string" ? `guest:${table}:${saveField(text, "seat")}` : null;
}

/** What the lobby lists about a save made before summaries existed (a legacy one). */
function legacySummary(kind, text) {
  try {
    const data = JSON.parse(text);
    const table = kind === "host" ? data.table : data;
    const players = Array.isArray(table?.seats) ? table.seats.map((seat) => String(seat?.name ?? "")) : [];
    return { game: typeof table?.game === "string" ? table.game : null, players, over: false };
  } catch {
    return { game: null, players: [], over: false };
  }
}

const KINDS = new Set(["local", "host", "guest", "finished"]);
const BACKUP_FORMAT = 1;
const MAX_BACKUP_RECORDS = 10_000;
const textOrNull = (value) => value === null || typeof value === "string";

/** ``record`` as read from the database, if every field the page reads has its type; else a
 * stand-in marked ``broken`` (the lobby offers only to delete it), so that one damaged record
 * cannot stop the page's start. */
function mended(record) {
  const sound = record !== null && typeof record === "object" && typeof record.id === "string"
    && KINDS.has(record.kind) && typeof record.text === "string" && textOrNull(record.table ?? null)
    && textOrNull(record.game ?? null) && Array.isArray(record.players) && record.players.every(textOrNull)
    && Number.isFinite(record.updated);
  if (sound) return record;
  const updated = Number.isFinite(record?.updated) ? record.updated : 0;
  return { id: record?.id, kind: "broken", table: null, text: "", game: null, players: [], over: false, updated };
}

export class SaveShelf {
  /** The shelf with every record loaded (an empty, memory-only one if IndexedDB is refused).
   * ``onWrite(ok, error)`` hears the outcome of every write. */
  static async open(onWrite) {
    const shelf = new SaveShelf(onWrite);
    try {
      shelf.db = await openDatabase();
      const records = await done(shelf.db.transaction(STORE).objectStore(STORE).getAll());
      for (const record of records.map(mended)) shelf.records.set(record.id, record);
    } catch (error) {
      shelf.db = null;
      shelf.openError = error;
      console.warn("saves:", error);
    }
    return shelf;
  }

  constructor(onWrite) {
    this.db = null;
    this.openError = null;
    this.records = new Map();
    this.onWrite = onWrite;
    this.unsaved = new Set(); // ids whose latest version did not reach the database
    this.persistAsked = false;
  }

  get(id) {
    return this.records.get(id) ?? null;
  }

  /** The games in progress, the latest first: every shared table (a finished one can be
   * played again with the same friends), and the one-device games not over. */
  inProgress() {
    return [...this.records.values()]
      .filter((record) => record.kind !== "finished" && (record.kind !== "local" || !record.over))
      .sort((a, b) => b.updated - a.updated);
  }

  /** The finished games ("Your games"), the oldest first. */
  finished() {
    return [...this.records.values()].filter((record) => record.kind === "finished").sort((a, b) => a.updated - b.updated);
  }

  /** Keeps a finished game once (``entry``: the worker's, pyengine/shell/games.py); keeping
   * it again (its table reloaded) changes nothing. */
  keepFinished(entry, players) {
    if (!entry || this.records.has(entry.id)) return Promise.resolve(true);
    return this.put({ ...entry, kind: "finished", table: null, players, over: true });
  }

  /** Every record and ``settings`` (``{key: value}``) as one backup file's text. */
  backup(settings) {
    const saves = [...this.records.values()].filter((record) => record.kind !== "broken");
    return JSON.stringify({ taberna_backup: BACKUP_FORMAT, saves, settings });
  }

  /** A backup's records, kept beside this device's (a record of the same id is replaced);
   * returns its settings, or null (nothing kept) for a text that is not a backup. A record
   * that does not fit is left out; a save is checked again when it is opened. */
  async restore(text) {
    let backup;
    try {
      backup = JSON.parse(text);
    } catch {
      return null;
    }
    if (backup?.taberna_backup !== BACKUP_FORMAT || !Array.isArray(backup.saves) || backup.saves.length > MAX_BACKUP_RECORDS) {
      return null;
    }
    const settings = backup.settings !== null && typeof backup.settings === "object" ? backup.settings : {};
    for (const record of backup.saves.map(mended)) {
      if (record.kind !== "broken") await this.put(record, false);
    }
    return settings;
  }

  /** Forgets the finished one-device games but ``keep`` (the one on screen, if any). */
  prune(keep) {
    for (const record of [...this.records.values()]) {
      if (record.kind === "local" && record.over && record.id !== keep) this.remove(record.id);
    }
  }

  /** The newest record of ``kind`` for shared table ``table`` (any seat), or null. */
  latest(kind, table) {
    return [...this.records.values()]
      .filter((record) => record.kind === kind && record.table === table)
      .sort((a, b) => b.updated - a.updated)[0] ?? null;
  }

  /** Keeps ``record`` (in memory at once) and writes it; resolves to whether it was written.
   * ``stamp``: it is updated now (a restored record keeps its time). */
  put(record, stamp = true) {
    const stamped = stamp ? { ...record, updated: Date.now() } : record;
    this.records.set(stamped.id, stamped);
    this.askPersistence();
    return this.write((store) => store.put(stamped), stamped.id);
  }

  remove(id) {
    this.records.delete(id);
    this.unsaved.delete(id);
    return this.write((store) => store.delete(id), null);
  }

  /** Writes again every record whose last write failed (the banner's "try again"). */
  retry() {
    const ids = [...this.unsaved];
    return Promise.all(ids.map((id) => this.records.has(id) && this.put(this.records.get(id))));
  }

  async write(change, id) {
    let ok = true;
    let failure = null;
    try {
      if (!this.db) throw this.openError || new Error("IndexedDB is not available");
      const transaction = this.db.transaction(STORE, "readwrite", { durability: "strict" });
      change(transaction.objectStore(STORE));
      await new Promise((resolve, reject) => {
        transaction.oncomplete = resolve;
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error || new Error("aborted"));
      });
    } catch (error) {
      ok = false;
      failure = error;
    }
    if (id !== null) {
      if (ok) this.unsaved.delete(id);
      else this.unsaved.add(id);
    }
    this.onWrite(ok, failure);
    return ok;
  }

  /** Asks the browser once not to evict our saves under storage pressure. */
  askPersistence() {
    if (this.persistAsked) return;
    this.persistAsked = true;
    navigator.storage?.persist?.().catch(() => { /* best effort */ });
  }

  /** Moves the saves localStorage (and this tab's sessionStorage) held before IndexedDB.
   * Returns the id of the one-device game that was on screen, if any. */
  async migrate(storage) {
    let onScreen = null;
    const moves = [];
    const local = storage.get(LEGACY.table);
    if (local !== null) {
      const id = newLocalId();
      if (storage.get(LEGACY.inGame)) onScreen = id;
      moves.push([[LEGACY.table, LEGACY.inGame], { id, kind: "local", table: null, text: local, ...legacySummary("local", local) }]);
    }
    for (const role of ["host", "guest"]) {
      const text = storage.get(LEGACY[role]);
      const id = text === null ? null : sharedId(role, text);
      if (id === null) continue;
      const table = saveField(text, role === "host" ? "table_id" : "table");
      moves.push([[LEGACY[role]], { id, kind: role, table, text, ...legacySummary(role, text) }]);
    }
    for (const [keys, record] of moves) {
      if (await this.put(record)) for (const key of keys) storage.remove(key);
    }
    return onScreen;
  }
}
