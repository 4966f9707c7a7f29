// One table's whole life on the page: a session per table on screen.
//
// A session sends the worker one call at a time, in arrival order (a player's click, a bot's
// turn, a peer's message, the clock), so no network message is ever dropped or overtaken and a
// click never races a peer (peers' messages that wait together go in arrival order; a fair
// deal's news that a guest's device may let wait, enqueueBatched, lets the clock or a click on
// the progress screen go first: none of them acts on the deal). Every reply goes through one
// apply(): keep the save, deliver the outgoing messages, paint the screen, pace the bots. The
// kinds mirror the Python shell (pyengine/shell/local.py, hosted.py, joined.py, replay.py):
// LocalSession (a table on this device only), HostSession (a table this tab hosts for friends),
// GuestSession (a seat at a friend's table) and ReplaySession (a finished or current game
// replayed step by step). What differs between them is a subclass's few methods, never a branch
// on the kind; protocol messages are made only by the worker (Python), never here.
//
// Everything outside the session is handed in, so that Node's tests run it against fakes:
//   page  {call(name, ...args) -> reply, cardGroup() (the worker's libsodium, for shared tables and replays),
//          lang(), t(key, params), toast(text) -> dismiss, paint(reply),
//          paintSoon(reply), busy(on), botSpeed(), shelf (saves.js), onScreen (storage.js),
//          locks (navigator.locks), saveHeld(), settings(), link(fragment), download(name, text),
//          replay(recordText), panel (net/panel.js),
//          net (net/transports.js), roomsUnreachable() (no broker answers: offer no room code)}
//   clock {now(), setTimeout, clearTimeout, setInterval, clearInterval}

import { errorText, netError } from "./net/channel.js";
import { REPLAY_FRAGMENT, joinFragment, lockName, parseJoinLink, roomFragment } from "./net/links.js";
import { showRoomCode } from "./net/roomkey.js";
import { newLocalId, saveField, sharedId } from "./saves.js";

const TICK_MS = 1000;
// The player's time to act out of turn (a reply's hold_ms) shrinks with the bots' pace, to
// no less than this share of it: "instant" bots still leave Perudo's Calza by anyone a moment.
const LEAST_HOLD_SHARE = 0.2;
const TAB_RETRY_MS = [1000, 2000, 4000, 8000];
const TAB_PROBE_MS = 1000; // a host tab of this browser answers within one hello (400 ms)
// Flood limits on the host (a guest sends a ping every 5 s, an intent per click): each peer
// may send PEER_BURST messages at once and PEER_RATE a second after that; what comes faster
// is dropped before it costs the worker anything, and a peer that keeps it up for
// PEER_STRIKES more messages is disconnected with a reason. The table as a whole limits the
// peers without a seat (spectators, and anyone with the room code): they share one budget,
// UNSEATED_BURST at once and UNSEATED_RATE a second, at most INBOUND_QUEUE of their messages
// wait for the worker, and at most MAX_UNSEATED of their channels are kept (the oldest goes
// when a new one comes). A seated guest (the worker's replies name them) is held only by its
// own bucket, and so is a message that claims a seat (a friend joining or coming back), so a
// friend is never dropped behind spectators' traffic. The protocol resends what matters.
const PEER_RATE = 20;
const PEER_BURST = 40;
const PEER_STRIKES = 200;
const UNSEATED_RATE = 20;
const UNSEATED_BURST = 40;
const INBOUND_QUEUE = 64;
// Peers' messages in one worker call at most (the worker refuses more than 256).
const MAX_BATCH = 64;
// How long a guest's page lets the host's news of a fair deal wait for more while its device
// owes no step (``dealNews``): ten devices' pages on one machine leave the cores to the device
// that owes the next step, and check the others' steps a few at a time, drawn once.
const HOLD_MS = 300;
const MAX_UNSEATED = 24;
// Host calls that can move its table on: they wait for the host's latest save (saveHeld).
const HOST_MOVES = new Set(["net_host_receive", "net_host_receive_all", "net_host_act", "net_host_bot_step", "net_host_command"]);

const REAL_CLOCK = Object.freeze({
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer),
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (timer) => clearInterval(timer),
});

/** Takes one token from ``bucket`` ({tokens, at}), refilled at ``rate`` a second up to
 * ``burst``, at time ``at``; false when none is left. */
function take(bucket, rate, burst, at) {
  bucket.tokens = Math.min(burst, bucket.tokens + ((at - bucket.at) * rate) / 1000);
  bucket.at = at;
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

/** Whether ``text`` asks for a seat (a join or a rejoin naming one): only a glance, the
 * worker checks the message. */
function claimsSeat(text) {
  try {
    const { kind, seat } = JSON.parse(text);
    return (kind === "join" || kind === "rejoin") && Number.isInteger(seat);
  } catch {
    return false;
  }
}

/** What the host's ``text`` says of a fair deal's lock or relock pass, at a glance (the
 * worker checks every message all the same): "piece" (a record piece: the state after it
 * always follows), "others" (a state of the pass whose next step ``seat`` does not owe),
 * "own" (one whose step it owes), or null (anything else). */
function dealNews(text, seat) {
  try {
    const { kind, view } = JSON.parse(text);
    if (kind === "record") return "piece";
    const fair = kind === "state" ? view?.fair : null;
    if ((fair?.step !== "lock" && fair?.step !== "relock") || !Array.isArray(fair.owed)) return null;
    return fair.owed.includes(seat) ? "own" : "others";
  } catch {
    return null;
  }
}

/** What the lobby lists about a table, from a reply's summary. */
function recordSummary(summary) {
  return { game: summary?.game ?? null, players: summary?.players ?? [], over: Boolean(summary?.over) };
}

/** Whether another tab of this browser holds the Web Lock ``name`` (false without Web Locks:
 * pages on a plain-http LAN address are not a secure context). */
async function heldElsewhere(locks, name) {
  if (!locks?.query) return false;
  try {
    const { held } = await locks.query();
    return held.some((lock) => lock.name === name);
  } catch {
    return false;
  }
}

class TableSession {
  cardGroupFirst = false; // whether each call waits for the worker's card group (beforeCall)

  constructor(page, clock = REAL_CLOCK) {
    this.page = page;
    this.clock = clock;
    this.tableId = null;
    this.status = null; // of the screen last painted
    this.setupGame = null; // the game whose setup form is on screen
    this.saveId = null; // the table's record on the shelf, once it has one
    this.queue = Promise.resolve();
    this.queued = 0;
    this.inboundBatch = null; // peers' messages waiting for one worker call (enqueueBatched)
    this.busyCalls = 0;
    this.clicking = false;
    this.botTimer = null;
    this.held = null; // the Web Lock this tab holds for the table
    this.cardGroup = null; // the worker's libsodium, once asked for (cardGroupFirst)
    this.closers = [];
    this.closed = false;
  }

  // --- the worker ----------------------------------------------------------------------------
  /**
   * Queues one worker call (the language is added last); its reply is applied before the
   * next call starts. Resolves to the reply; to null once the session is closed or when
   * ``skip()`` says, at its turn, that the call is moot. A failure of the worker itself is
   * said and answered like a refusal. ``busy``: the screen is marked busy meanwhile (the
   * player's and the bots' calls, not the network's nor the clock's). ``args`` may be a
   * function that gives them at the call's turn.
   */
  enqueue(name, args, { busy = false, skip = null } = {}) {
    this.queued += 1;
    if (busy) this.markBusy(1);
    const job = this.queue.then(async () => {
      if (this.closed || skip?.()) return null;
      await this.beforeCall(name);
      if (this.closed) return null; // left while waiting
      const reply = await this.page.call(name, ...(typeof args === "function" ? args() : args), this.page.lang());
      this.apply(reply);
      return reply;
    }).catch((error) => {
      console.error(name, error);
      const message = this.page.t("game.failed", { reason: errorText(error, this.page.t) });
      if (!this.closed) this.page.toast(message);
      return { ok: false, message };
    }).finally(() => {
      this.queued -= 1;
      if (busy) this.markBusy(-1);
    });
    this.queue = job;
    return job;
  }

  /** Messages that come while the worker is busy wait together and go in one call ``name``
   * (their list as JSON, then the time), in arrival order, at most MAX_BATCH a call: the
   * worker handles each as alone, and draws and saves once for them all. An item that
   * ``canWait`` starts its batch's call only HOLD_MS later (or with the next item that
   * cannot wait), so that more join it. */
  enqueueBatched(name, item, canWait = false) {
    const open = this.inboundBatch;
    if (open && open.items.length < MAX_BATCH) {
      open.items.push(item);
      if (!canWait) open.go();
      return;
    }
    open?.go(); // a full batch still held goes first: arrival order
    const batch = (this.inboundBatch = { items: [item], go: null, timer: null });
    const close = () => {
      if (this.inboundBatch === batch) this.inboundBatch = null;
      return batch.items;
    };
    batch.go = () => {
      batch.go = () => {}; // once
      this.clock.clearTimeout(batch.timer);
      this.enqueue(name, () => [JSON.stringify(close()), this.clock.now()]).finally(close);
    };
    if (canWait) batch.timer = this.clock.setTimeout(() => batch.go(), HOLD_MS);
    else batch.go();
  }

  /** A call of the player's (or a bot's): the screen is busy until its reply is shown. */
  run(name, ...args) {
    return this.enqueue(name, args, { busy: true });
  }

  markBusy(change) {
    this.busyCalls += change;
    if (!this.closed) this.page.busy(this.busyCalls > 0);
  }

  /** Runs ``work`` unless an earlier click is still on its way (double clicks do nothing). */
  async once(work) {
    if (this.clicking) return null;
    this.clicking = true;
    try {
      return await work();
    } finally {
      this.clicking = false;
    }
  }

  click(name, ...args) {
    return this.once(() => this.run(name, ...args));
  }

  /** What a worker call waits for before it starts: the worker's card group (libsodium),
   * asked for once, where the kind says ``cardGroupFirst`` (a host also waits for its save).
   * A failure is kept: every call then says it. */
  async beforeCall() {
    if (!this.cardGroupFirst) return;
    this.cardGroup ??= this.page.cardGroup().catch((error) => {
      console.error("card group", error);
      throw netError("game.cards_unavailable", String(error?.message || error));
    });
    await this.cardGroup;
  }

  // What the page's save banner asks of a table: only a host holds its moves while its
  // saves fail (HostSession); the other kinds play on, the banner says it.
  saveFailedKey = "save.failed";

  get holdingMoves() {
    return false;
  }

  saveRecovered() {}

  goOnUnsaved() {}

  /** The one place a reply lands: save, messages out, screen, bots. */
  apply(reply) {
    if (!reply || this.closed) return;
    if (reply.table) this.tableId = reply.table;
    if (reply.save) this.keep(reply);
    if (reply.finished) this.page.shelf.keepFinished(reply.finished, recordSummary(reply.summary).players);
    for (const [peer, text] of reply.outbox || []) this.deliver(peer, text);
    if (!reply.ok) {
      // A refused input changes nothing on screen (a form keeps what was typed): say why.
      this.page.toast(reply.message || this.page.t("game.failed", { reason: "?" }));
      return;
    }
    if (typeof reply.html === "string") {
      this.status = reply.status;
      this.show(reply);
      this.paceBots(reply);
    }
    // A table its host closed is over for everyone: nothing to resume after a reload.
    if (reply.status === "closed") this.forget();
  }

  /** A closed or unknown channel loses the text; the protocol resends or resyncs. */
  deliver(peer, text) {
    const channel = this.channelTo(peer);
    if (!channel || !channel.open) return;
    try {
      channel.send(text);
    } catch (error) {
      console.warn("send failed", error);
    }
  }

  channelTo() {
    return null;
  }

  /** Asks for the bot's move after the delay the worker suggests (times the player's pace);
   * by its turn in the queue the screen may have moved on, and then it is not asked. */
  paceBots(reply) {
    this.clock.clearTimeout(this.botTimer);
    this.botTimer = null;
    if (reply.status !== "bot") return;
    const speed = this.page.botSpeed();
    const hold = (reply.hold_ms || 0) * Math.max(speed, LEAST_HOLD_SHARE);
    const delay = Math.round(Math.max((reply.delay_ms || 0) * speed, hold));
    this.botTimer = this.clock.setTimeout(() => {
      this.botTimer = null;
      this.enqueue(this.calls.bot, this.timed(), { busy: true, skip: () => this.status !== "bot" });
    }, delay);
  }

  // --- the player's input ------------------------------------------------------------------
  act(actionJson) {
    return this.click(this.calls.act, actionJson, ...this.timed());
  }

  ui(changeJson) {
    return this.click(this.calls.ui, changeJson, ...this.timed());
  }

  /** The new-table form for ``gameId``. */
  setup(gameId) {
    this.setupGame = gameId;
    return this.run(this.calls.setup, gameId);
  }

  /** The same screen again (after a language change); nothing before a first screen. */
  render() {
    if (this.status === "setup") return this.setup(this.setupGame);
    if (!this.status) return null;
    const [name, ...args] = this.calls.render;
    return this.run(name, ...args, ...this.timed());
  }

  // --- this tab's hold on the table ----------------------------------------------------------
  /** Holds this tab's Web Lock ``name`` until the session closes, so that another tab of
   * this browser does not open the same table (or seat) and overwrite its save. */
  hold(name) {
    const locks = this.page.locks;
    if (!locks?.request || this.held === name) return;
    this.held = name;
    locks.request(name, { ifAvailable: true }, (lock) => {
      if (!lock || this.closed) return null;
      return new Promise((release) => this.closers.push(release));
    }).catch(() => { /* no lock, no guard */ });
  }

  /** Drops what would bring the table back (a one-device table's save goes from the lobby). */
  forget() {}

  /** Leaves the table on this page (its save stays unless ``forget``). */
  close(forget = false) {
    this.closed = true;
    this.clock.clearTimeout(this.botTimer);
    for (const closer of this.closers) {
      try { closer(); } catch { /* already closed */ }
    }
    if (forget) this.forget();
  }
}

/** A table on this device only: players pass the phone, bots play in turn. */
export class LocalSession extends TableSession {
  calls = { setup: "setup", act: "act", ui: "ui", bot: "bot_step", render: ["render"] };

  /** Whether another tab of this browser has the one-device table ``id`` open. */
  static openElsewhere(page, id) {
    return heldElsewhere(page.locks, `taberna.local.${id}`);
  }

  /** The arguments a call adds for the time: none on one device (no clock in its rules). */
  timed() {
    return [];
  }

  /** The form's table: its first screen, and a save of its own. */
  submit(request) {
    return this.click("start", JSON.stringify(request));
  }

  /** A saved table, back on screen (a reload comes straight back to it). */
  resume(record) {
    this.claim(record.id);
    return this.run("resume", record.text);
  }

  claim(id) {
    this.saveId = id;
    this.page.onScreen.setLocal(id);
    this.hold(`taberna.local.${id}`);
  }

  show(reply) {
    this.page.paint(reply);
    this.page.toast(reply.message || null);
  }

  /** The worker's save is JSON text (its 63-bit seed would not survive a JavaScript number):
   * stored verbatim. */
  keep(reply) {
    if (!this.saveId) this.claim(newLocalId());
    this.page.onScreen.setLocal(this.saveId);
    this.page.shelf.put({ id: this.saveId, kind: "local", table: null, text: reply.save, ...recordSummary(reply.summary) });
  }
}

/** A game replayed step by step: no bots, no network, nothing to save on the shelf. The
 * replay on screen (the record's text and its step) is kept for this tab, so that a reload
 * comes back to the same step; leaving it forgets it. */
export class ReplaySession extends TableSession {
  calls = { ui: "replay_ui", render: ["replay_render"] };
  record = null; // the record's text, for its file
  // A fair card table's record replays its deal, which needs the card group: a game of
  // "Your games" or a shared link replayed in a tab that never sat at that table too (the
  // page does not read records; any replay pays the group's ≈ 60 ms once per worker).
  cardGroupFirst = true;

  timed() {
    return [];
  }

  /** The game at this tab's table of ``role`` ("local" or "host"), up to now. */
  open(role) {
    return this.run("replay_table", role);
  }

  /** A record's text (refused with its line and why: the reply says it). */
  importText(text) {
    return this.run("replay_import", text);
  }

  /** A shared link's record (``replayFragment``); refused with why, as an import is. */
  openLink(payload) {
    return this.run("replay_link", payload);
  }

  resume(save) {
    return this.run("replay_resume", save);
  }

  /** Opening the share panel hands the worker this page's address, which a link starts with. */
  ui(changeJson) {
    const change = JSON.parse(changeJson);
    if (change?.share !== true) return super.ui(changeJson);
    return super.ui(JSON.stringify({ share: this.page.link(REPLAY_FRAGMENT) }));
  }

  /** The record on screen as a text file (``gameId`` names it). */
  download(gameId) {
    if (this.record !== null) this.page.download(`taberna-${gameId}.txt`, this.record);
  }

  /** The replayed board's own move buttons (reached by keyboard) play nothing: it is a record. */
  act() {
    return null;
  }

  show(reply) {
    this.page.paint(reply);
    this.page.toast(reply.message || null);
  }

  keep(reply) {
    this.record = JSON.parse(reply.save).text;
    this.page.onScreen.setReplay(reply.save);
  }

  forget() {
    this.page.onScreen.clearReplay();
  }

  close() {
    super.close(true);
  }
}

/** Your games: the finished games this device keeps, listed or counted
 * (pyengine/shell/games.py). The worker gets them without their records; a game's Replay
 * opens its record on the page's replay screen. */
export class GamesSession extends TableSession {
  calls = { ui: "games_ui", render: ["games_render"] };

  timed() {
    return [];
  }

  /** ``view``: "games" (the list) or "stats". */
  open(view) {
    const entries = this.page.shelf.finished().map(({ text, ...entry }) => entry);
    return this.run("games_open", JSON.stringify(entries), view);
  }

  ui(changeJson) {
    const id = JSON.parse(changeJson)?.replay;
    if (id === undefined) return super.ui(changeJson);
    const record = this.page.shelf.get(id);
    if (record?.kind === "finished") this.page.replay(record.text);
    return null;
  }

  act() {
    return null;
  }

  show(reply) {
    this.page.paint(reply);
    this.page.toast(reply.message || null);
  }

  keep() {}
}

/** What both kinds of shared table have: the card group, the clock's ticks, time-stamped
 * calls, a marker that brings the table back after a reload, the share panel. */
class SharedSession extends TableSession {
  // Every shared table's first call waits for the worker's card group (libsodium), so that a
  // card table deals fairly from its first hand and never from the host's generator (which
  // it does where the group is missing), a restored save included. Every shared table, not
  // only the card games': a guest who typed a room code learns the game only from the host's
  // first message, which may already ask for its lock; the cost is ≈ 60 ms of the worker's
  // CPU once per worker (bench/results.md).
  cardGroupFirst = true;

  constructor(page, clock) {
    super(page, clock);
    this.ticker = this.clock.setInterval(() => this.tick(), TICK_MS);
  }

  /** Shared tables' calls take the time in ms (before the language): the protocol's
   * absences, resends and retries run on it. */
  timed() {
    return [this.clock.now()];
  }

  reason(error) {
    return errorText(error, this.page.t);
  }

  tick() {
    // A slow worker must not pile up ticks behind itself.
    if (this.closed || this.queued > 2 || !this.tableId) return;
    this.enqueue(this.calls.tick, this.timed());
  }

  /** Screens arrive as fast as peers send messages: the latest is drawn once per frame. */
  show(reply) {
    this.page.paintSoon(reply);
  }

  /** A ``data-phrase`` button (pyengine/ui/phrases.py): the worker says the phrase, mutes a
   * player or opens the picker; the page only forwards the tap. */
  phrase(requestJson) {
    return this.click(this.calls.phrase, requestJson, ...this.timed());
  }

  /** Marks this table as the one on screen: a reload comes straight back to it. */
  remember(extra = {}) {
    this.page.onScreen.setShared({ role: this.role, table: this.tableId, ...extra, onScreen: true });
  }

  close(forget = false) {
    this.page.onScreen.leaveShared();
    super.close(forget);
    this.clock.clearInterval(this.ticker);
    this.closeChannels();
    this.page.panel.hide();
  }

  forget() {
    if (this.saveId) this.page.shelf.remove(this.saveId);
    this.page.onScreen.clearShared();
  }
}

/** A table this tab hosts: the worker's ``Host`` decides, this side carries texts between it
 * and the guests' channels, keeps their pace in check and holds moves while saves fail. */
export class HostSession extends SharedSession {
  role = "host";
  saveFailedKey = "save.host_failed";
  hasRoomLink = true; // the page's bar offers it (shareRoom)
  calls = {
    setup: "net_host_setup", act: "net_host_act", ui: "net_host_ui", bot: "net_host_bot_step",
    tick: "net_host_tick", render: ["net_host_ui", "{}"], phrase: "net_host_phrase",
  };

  constructor(page, clock) {
    super(page, clock);
    this.channels = new Map(); // peer id -> channel
    this.buckets = new Map(); // peer id -> {tokens, at, strikes}
    this.seated = new Set(); // peer ids holding a seat, as the worker's latest reply said
    this.unseatedBudget = { tokens: UNSEATED_BURST, at: this.clock.now() };
    this.inbound = 0; // messages of peers without a seat waiting for the worker
    this.invites = 0;
    this.connectedToast = null; // {peer, dismiss}: "Your friend is connected.", while it may show
    this.roomCode = null; // the table's room code (null where the page cannot derive)
    this.identity = null; // its key pair (identity.js), once loaded
    this.about = null; // what its links tell a friend: {game, host} (the worker's replies)
    this.written = Promise.resolve(true); // the latest save on its way to the database
    this.goOn = false; // the player chose to go on after a failed save
    this.heldMoves = []; // moves waiting for a save, or for the player's choice
  }

  /** Whether another tab of this browser hosts the table of ``marker``. */
  static openElsewhere(page, marker) {
    return heldElsewhere(page.locks, lockName("host", marker.table));
  }

  /** A new table: its key pair, the room code that names the key and the table's id derived
   * from the code are made here (identity.js newRoom); a page without Web Crypto (plain http
   * on a LAN) hosts by invite links only. */
  submit(request) {
    return this.once(async () => {
      const { net } = this.page;
      const room = net.canDerive() ? await net.newRoom() : null;
      return this.host("net_host_create", JSON.stringify({ ...request, room }));
    });
  }

  /** The table of ``marker`` from its save, after a reload or from the lobby. */
  resume(marker) {
    this.saveId = `host:${marker.table}`;
    return this.host("net_host_resume", this.page.shelf.get(this.saveId)?.text ?? null);
  }

  /** A new or saved table from the worker; once it is ours, friends can reach it. */
  async host(call, text) {
    const reply = await this.run(call, text, ...this.timed());
    if (!reply?.ok) return reply;
    this.roomCode = saveField(reply.save ?? text, "room");
    this.hold(lockName("host", this.tableId));
    this.remember({ room: this.roomCode });
    await this.openTransports();
    return reply;
  }

  command(commandJson) {
    return this.click("net_host_command", commandJson, ...this.timed());
  }

  keep(reply) {
    const id = sharedId("host", reply.save);
    if (!id) return;
    this.saveId = id;
    const record = { id, kind: "host", table: this.tableId, via: null, pin: null, text: reply.save };
    this.written = this.page.shelf.put({ ...record, ...recordSummary(reply.summary) });
  }

  forget() {
    if (this.tableId) this.page.net.forgetIdentity(this.tableId);
    super.forget();
  }

  // --- saves that fail ------------------------------------------------------------------------
  /** A move waits for the latest save; if it failed, until a save works or the player
   * chooses to go on without (``page.saveHeld()`` shows the choice). */
  async beforeCall(name) {
    await super.beforeCall(name);
    if (!HOST_MOVES.has(name) || (await this.written) || this.goOn) return;
    await new Promise((resolve) => {
      this.heldMoves.push(resolve);
      this.page.saveHeld();
    });
  }

  get holdingMoves() {
    return this.heldMoves.length > 0;
  }

  /** Every save got through: held moves go on. */
  saveRecovered() {
    this.goOn = false;
    this.releaseMoves();
  }

  goOnUnsaved() {
    this.goOn = true;
    this.releaseMoves();
  }

  releaseMoves() {
    const waiting = this.heldMoves;
    this.heldMoves = [];
    for (const resolve of waiting) resolve();
  }

  close(forget = false) {
    super.close(forget);
    this.releaseMoves();
  }

  // --- guests' channels ------------------------------------------------------------------------
  channelTo(peer) {
    return this.channels.get(peer);
  }

  closeChannels() {
    for (const channel of this.channels.values()) channel.close();
  }

  /** The worker's replies name the peers that hold a seat (they are served first) and what
   * the table's links say about it. */
  apply(reply) {
    if (Array.isArray(reply?.seated)) this.seated = new Set(reply.seated);
    if (reply?.about) this.about = reply.about;
    super.apply(reply);
  }

  addChannel(peer, channel) {
    this.channels.get(peer)?.close();
    this.channels.set(peer, channel);
    channel.onpath = () => this.showPaths();
    this.showPaths();
    channel.onmessage = (text) => {
      if (this.admit(peer, channel, text)) this.receive(peer, text);
    };
    channel.onclose = () => {
      if (this.channels.get(peer) === channel) this.forgetChannel(peer);
    };
    const unseated = [...this.channels.keys()].filter((other) => !this.seated.has(other));
    if (unseated.length > MAX_UNSEATED) {
      const oldest = unseated[0];
      this.channels.get(oldest).close();
      this.forgetChannel(oldest);
    }
  }

  /** Which ways the guests' texts go (net/panel.js). */
  showPaths() {
    this.page.panel.showPaths([...this.channels.values()].map((channel) => channel.path));
  }

  /** ``peer``'s channel is gone: the worker shows its seat absent, and "connected" no more. */
  forgetChannel(peer) {
    if (this.connectedToast?.peer === peer) this.connectedToast.dismiss();
    this.channels.delete(peer);
    this.buckets.delete(peer);
    this.showPaths();
    this.enqueue("net_host_dropped", [peer, this.clock.now()]);
  }

  /** A peer's message for the worker. A seated guest's always goes; of the others, at most
   * INBOUND_QUEUE wait (more are dropped: guests resend intents and resync by themselves). */
  receive(peer, text) {
    if (this.seated.has(peer)) {
      this.receiveSeated(peer, text);
      return;
    }
    if (this.inbound >= INBOUND_QUEUE) return;
    this.inbound += 1;
    this.enqueue("net_host_receive", [peer, text, this.clock.now()]).finally(() => { this.inbound -= 1; });
  }

  /** Seated guests' messages that come while the worker is busy wait together and go in
   * one call (``net_host_receive_all``): a burst, such as every device's keys at a fair
   * deal, moves the table once and sends each guest one state, not one per message. */
  receiveSeated(peer, text) {
    this.enqueueBatched("net_host_receive_all", [peer, text]);
  }

  /** Whether ``peer`` may send one more message now: within its own bucket (a peer that
   * floods on is cut off) and, without a seat, within the unseated peers' shared budget. */
  admit(peer, channel, text) {
    const at = this.clock.now();
    const bucket = this.buckets.get(peer) ?? { tokens: PEER_BURST, at, strikes: 0 };
    this.buckets.set(peer, bucket);
    if (take(bucket, PEER_RATE, PEER_BURST, at)) {
      return this.seated.has(peer) || claimsSeat(text) || take(this.unseatedBudget, UNSEATED_RATE, UNSEATED_BURST, at);
    }
    bucket.strikes += 1;
    if (bucket.strikes >= PEER_STRIKES) this.kick(peer, channel);
    return false;
  }

  /** Ends ``peer``'s channel once the worker's reply has told it why (its outbox). */
  async kick(peer, channel) {
    channel.onmessage = null;
    await this.enqueue("net_host_kick", [peer, "flooded", this.clock.now()]);
    channel.close();
    this.cutOffNotice();
    if (this.channels.get(peer) === channel) {
      this.channels.delete(peer);
      this.buckets.delete(peer);
      this.showPaths();
    }
  }

  async openTransports() {
    const { net } = this.page;
    const broadcast = net.hostBroadcast(this.tableId, (peer, channel) => this.addChannel(`bc-${peer}`, channel));
    this.closers.push(() => broadcast.close());
    if (net.canDerive()) {
      try {
        this.identity = await net.hostIdentity(this.tableId);
      } catch (error) {
        console.warn("host identity", error);
      }
    }
    const settings = this.page.settings();
    if (!settings.useRelays || !this.roomCode || !this.identity || this.closed) return;
    net.relay()
      .then((relay) => relay.hostRoom(
        this.roomCode,
        { table: this.tableId, identity: this.identity },
        { relayUrls: settings.relays, iceServers: settings.iceServers },
        (peer, channel) => this.addChannel(`relay-${peer}`, channel),
      ))
      .then((room) => {
        room.oncutoff = () => this.cutOffNotice();
        if (this.closed) room.close();
        else this.closers.push(() => room.close());
      })
      .catch((error) => {
        // No broker answers: a room code would lead nowhere. Said until dismissed, and
        // only invite links are offered.
        console.warn("relay", error);
        if (this.closed) return;
        this.page.roomsUnreachable();
        this.page.panel.warn(this.page.t("friends.relay_failed", { reason: this.reason(error) }));
      });
  }

  /** Tells the host that a peer was cut off for flooding. */
  cutOffNotice() {
    if (!this.closed) this.page.panel.notice(this.page.t("friends.cut_off"));
  }

  /** Shows the room link (the room code and the fingerprint of the host's key: a guest who
   * opens it trusts only that key) and the code, for friends joining through the relays. */
  shareRoom() {
    if (!this.roomCode || !this.identity) return;
    this.page.panel.show({
      title: this.page.t("friends.share_room"),
      link: this.page.link(roomFragment(this.roomCode, this.identity.fingerprint, this.about)),
      hint: this.page.t("friends.share_room_hint", { code: showRoomCode(this.roomCode) }),
    });
  }

  /** An invite for one seat: a link carrying a WebRTC offer; the friend answers with a code. */
  async invite(seat) {
    const { panel, t } = this.page;
    panel.show({ title: t("friends.invite_title", { seat: seat + 1 }), busy: true });
    let invite;
    try {
      invite = await this.page.net.createInvite({ iceServers: this.page.settings().iceServers });
    } catch (error) {
      panel.show({ title: t("friends.invite_failed"), hint: this.reason(error) });
      return;
    }
    panel.show({
      title: t("friends.invite_title", { seat: seat + 1 }),
      link: this.page.link(joinFragment(this.tableId, seat, this.identity?.fingerprint, invite.code, this.about)),
      hint: t("friends.invite_hint"),
      reply: async (code) => {
        const channel = await invite.accept(code.trim());
        this.invites += 1;
        const peer = `rtc-${this.invites}`;
        this.addChannel(peer, channel);
        panel.hide();
        this.connectedToast = { peer, dismiss: this.page.toast(t("friends.connected")) };
      },
      ondismiss: () => invite.cancel(),
    });
  }
}

/** A seat (or a spectator's chair) at a friend's table: the worker's ``Guest`` keeps the
 * seat; this side finds the host (a tab, a room, an invite), and finds it again. */
export class GuestSession extends SharedSession {
  role = "guest";
  calls = {
    act: "net_guest_act", ui: "net_guest_ui", tick: "net_guest_tick", render: ["net_guest_ui", "{}"],
    phrase: "net_guest_phrase",
  };

  constructor(page, clock) {
    super(page, clock);
    this.channel = null; // to the host
    this.via = null; // {via: "invite"|"room"|"tab", table, seat, room, pin}
    this.room = null; // the table's room on the relays, once joined
    this.seat = null; // this device's seat, once the worker's save says it
    this.dealing = false; // whether the last state sent to the worker was of a deal's pass (receive)
  }

  /** This tab's saved seat at ``table``, else the newest saved there. */
  static savedSeat(page, table) {
    const mine = page.shelf.get(page.onScreen.guestSave());
    return mine?.table === table ? mine : page.shelf.latest("guest", table);
  }

  /** Whether another tab of this browser plays the saved seat at the table of ``marker``. */
  static async openElsewhere(page, marker) {
    const saved = GuestSession.savedSeat(page, marker.table);
    return Boolean(saved) && heldElsewhere(page.locks, lockName("guest", marker.table, saveField(saved.text, "seat")));
  }

  resume(marker) {
    return this.join(marker);
  }

  /**
   * Sits down at a table: ``via`` says how to reach the host ("invite" with its code, "room"
   * with the room code, "tab"); ``pin`` is the fingerprint of the host's key when known (room
   * and invite links); ``game``, the game the link names, until the host says. A save for
   * the same table means this player was here before: rejoin its seat, unless another tab is
   * playing it.
   */
  async join({ via, table = null, seat = null, code = null, name = "", room = null, pin = null, game = null }) {
    const { net, t } = this.page;
    const saved = GuestSession.savedSeat(this.page, table); // a typed room code names no table yet
    if (via === "room") {
      if (!room) return { ok: false, message: t("friends.bad_code") }; // a marker from before room codes were derived
      if (!net.canDerive()) return { ok: false, message: t(this.page.settings().roomsOff ?? "net.relays_insecure") };
      table = (await net.roomSecrets(room)).table;
    }
    this.via = { via, table, seat, room, pin };
    const savedSeat = saveField(saved?.text, "seat");
    let reply = null;
    if (saved?.table === table && (seat === null || seat === savedSeat)
        && !(await heldElsewhere(this.page.locks, lockName("guest", table, savedSeat)))) {
      this.saveId = saved.id;
      reply = await this.run("net_guest_resume", saved.text, this.clock.now());
      if (reply?.ok) this.hold(lockName("guest", table, savedSeat));
    }
    if (!reply?.ok) {
      reply = await this.run("net_guest_join", JSON.stringify({ table, seat, name, room, game }), this.clock.now());
    }
    if (!reply?.ok) return reply;
    this.rememberGuest();
    this.connect(code);
    return reply;
  }

  keep(reply) {
    const id = sharedId("guest", reply.save);
    if (!id) return;
    this.saveId = id;
    this.page.onScreen.setGuestSave(id);
    // The record keeps the host key it pinned, to find the same host from the lobby.
    const record = { id, kind: "guest", table: this.tableId, via: this.via?.via ?? null, pin: this.via?.pin ?? null };
    this.page.shelf.put({ ...record, text: reply.save, ...recordSummary(reply.summary) });
    this.seat = saveField(reply.save, "seat");
    this.hold(lockName("guest", this.tableId, this.seat));
  }

  /** The guest's marker: how to find the host again after a reload (room code, pinned key). */
  rememberGuest() {
    const { via, seat, room, pin } = this.via;
    this.remember({ via, seat, room, pin });
  }

  // --- the channel to the host -------------------------------------------------------------
  channelTo() {
    return this.channel;
  }

  closeChannels() {
    this.channel?.close();
  }

  attach(channel) {
    this.channel?.close();
    this.channel = channel;
    this.page.panel.hide(); // a reply code or a plea for a new invite is moot now
    // The host's messages that come while the worker is busy (a fair deal's record and the
    // state after it, every step of it on a device that lags behind) go in one call.
    channel.onmessage = (text) => this.receive(text);
    channel.onpath = () => this.page.panel.showPaths([channel.path]);
    this.page.panel.showPaths([channel.path]);
    channel.onclose = () => {
      if (this.channel !== channel) return;
      this.page.panel.showPaths([]);
      this.channel = null;
      this.enqueue("net_guest_dropped", [this.clock.now()]);
      this.reconnect();
    };
    this.enqueue("net_guest_connected", [this.clock.now()]);
  }

  /** A message of the host's. Once a state of a fair deal's pass has gone to the worker
   * (its progress is on screen), the pass's news of steps this device does not owe may wait. */
  receive(text) {
    const news = dealNews(text, this.seat);
    this.enqueueBatched("net_guest_receive_all", text, this.dealing && (news === "piece" || news === "others"));
    if (news !== "piece") this.dealing = news !== null;
  }

  async connect(code) {
    const { via, table } = this.via;
    const settings = this.page.settings();
    try {
      if (via === "tab") {
        this.attach(await this.page.net.joinBroadcast(table));
      } else if (via === "room" && (await this.tryTab(table))) {
        // The host is another tab of this browser: no network needed.
      } else if (via === "room") {
        if (!settings.useRelays) throw netError(settings.roomsOff, "Room codes cannot be used here.");
        await this.openRoom();
      } else if (code) {
        await this.answer(code);
      } else {
        this.fallBack();
      }
    } catch (error) {
      console.warn("connect", error);
      if (via === "room") {
        // Said where it stays: why, and what to do (issue 14: within 20 s, never "Connecting…" forever).
        this.page.panel.show({ title: this.page.t("friends.room_failed"), hint: this.reason(error) });
      } else this.page.toast(this.page.t("friends.connect_failed", { reason: this.reason(error) }));
      if (via === "invite") this.fallBack();
      else if (via === "tab") this.reconnect();
    }
  }

  /** Joins the table's room on the relays: the host's channel is attached once the host has
   * proved its key (relay.js), and again whenever it announces itself anew (after its
   * reload, or the room's reconnection) and proves it again. A typed code trusts only a key
   * it names, and pins it. */
  async openRoom() {
    const settings = this.page.settings();
    const relay = await this.page.net.relay();
    const { room: code, table, pin } = this.via;
    const room = await relay.joinRoom(code, { table, pin }, { relayUrls: settings.relays, iceServers: settings.iceServers });
    if (this.closed) {
      room.close();
      return;
    }
    this.room = room;
    this.closers.push(() => room.close());
    room.onpin = (fingerprint) => {
      this.via.pin = fingerprint;
      if (!this.closed) this.rememberGuest();
    };
    room.onreconnect = (channel) => this.attach(channel);
    try {
      this.attach(await room.channel);
    } catch (error) {
      this.room = null;
      throw error;
    }
  }

  /** An invited guest without a link to the host: a new invite always works; where room
   * codes are allowed the table's room is tried at the same time (the host told the room
   * code to the seated guest; the invite link pinned its key), and reconnects by itself (a
   * phone that slept, a reload) whenever the host is online. */
  fallBack() {
    this.askForInvite();
    const code = this.via.room ?? saveField(GuestSession.savedSeat(this.page, this.tableId)?.text, "room");
    if (!this.room && code && this.via.pin && this.page.net.canDerive() && this.page.settings().useRelays) {
      this.via.room = code;
      this.openRoom().catch((error) => console.warn("room", error));
    }
  }

  /** A room code typed in a tab of the host's own browser: join that tab directly. */
  async tryTab(table) {
    try {
      this.attach(await this.page.net.joinBroadcast(table, { timeoutMs: TAB_PROBE_MS }));
    } catch {
      return false;
    }
    this.via = { ...this.via, via: "tab" };
    return true;
  }

  /** The invite flow's second half: show our reply code until the host has pasted it. */
  async answer(code) {
    const answer = await this.page.net.answerInvite(code, { iceServers: this.page.settings().iceServers });
    this.page.panel.show({
      title: this.page.t("friends.reply_title"),
      code: answer.reply,
      hint: this.page.t("friends.reply_hint"),
    });
    const channel = await answer.channel;
    this.page.panel.hide();
    this.attach(channel);
  }

  /** An invite link works once: after a drop or a reload, the host must send a new one. */
  askForInvite() {
    this.page.panel.show({
      title: this.page.t("friends.need_invite"),
      hint: this.page.t("friends.need_invite_hint"),
      paste: async (text) => {
        const parsed = parseJoinLink(text);
        if (!parsed || parsed.table !== this.via.table) throw new Error(this.page.t("friends.bad_link"));
        await this.answer(parsed.code);
      },
    });
  }

  reconnect() {
    if (this.closed || !this.via) return;
    if (this.via.via === "invite") this.fallBack();
    else if (this.via.via === "tab") {
      // Another tab of this browser: try again with back-off until the host tab is back.
      const attempt = async (n) => {
        if (this.closed || this.channel) return;
        try {
          this.attach(await this.page.net.joinBroadcast(this.via.table));
        } catch {
          this.clock.setTimeout(() => attempt(n + 1), TAB_RETRY_MS[Math.min(n, TAB_RETRY_MS.length - 1)]);
        }
      };
      attempt(0);
    }
    // A room (and an invited guest's fallback room) reconnects by itself through
    // room.onreconnect when the host announces itself again.
  }
}

/** The session class for a shared table's role ("host" or "guest"). */
export const SHARED_SESSIONS = Object.freeze({ host: HostSession, guest: GuestSession });
