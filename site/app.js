// Taberna's main thread: DOM, input, storage and the service worker. Never game rules.
//
// The lobby is static HTML, usable before Python exists. The engine (Pyodide + the pyengine
// wheel) starts in a DOM-free PyScript worker (engine-start.js); every bridge call takes and
// returns JSON strings, and every game screen is HTML rendered by Python that this file only
// inserts.
// A table shared with friends is run by net/driver.js (transports in net/), same screens.

import { SHARED_KEYS, heldElsewhere, lockName, parseRoute, savedField } from "./net/links.js";
import { SaveShelf, newLocalId, sharedId } from "./saves.js";
import { normalizeRoomCode, showRoomCode } from "./net/roomkey.js";
import { engineWorker } from "./engine-start.js";

const root = document.documentElement;
const $ = (id) => document.getElementById(id);
const KEYS = {
  current: "taberna.current", // the one-device table on screen: a reload comes back to it
  guestSave: "taberna.guestSave", // this tab's seat among the saved guest seats
  lang: "taberna.lang",
  speed: "taberna.speed",
  name: "taberna.name",
  relays: "taberna.relays",
  useRelays: "taberna.useRelays",
  stun: "taberna.stun",
};
// The engine's languages (pyengine/i18n LANGUAGES), written into the settings by the build,
// each option with the page's lang attribute in that language (pt: pt-BR).
const LANGUAGE_TAGS = new Map([...$("lang").options].map((option) => [option.value, option.lang || option.value]));
const LANGUAGES = [...LANGUAGE_TAGS.keys()];
const languageTag = (code) => LANGUAGE_TAGS.get(code) ?? code;
// Multiplies the bridge's suggested bot delay, so bots play visibly at the player's pace.
const SPEEDS = { relaxed: 1.6, normal: 1, fast: 0.2 };

let lang = "en";
let strings = null; // the catalog of `lang`, once it has arrived
let keysShown = false; // t() ran before any catalog had arrived: the page may show keys
let bridge = null; // the worker's exported functions, once Python is up
let busy = false; // a bridge call is pending: further clicks are ignored
let botTimer = null;
let waitingFor = null; // a game opened before the engine was ready
let setupGame = null; // the game whose setup form is on screen
let updateAccepted = false; // the player asked for the new version: reload into it
let shared = null; // the SharedTable on screen, if any
let pendingRoute = null; // a join link opened before the engine was ready
let setupShared = false; // the setup form on screen is for a table shared with friends
let shelf = null; // the saved tables (saves.js), once read
let localId = null; // the save id of the one-device table on screen (null: not saved yet)
let releaseLocal = null; // lets go of the Web Lock this tab holds on that table
const summaries = {}; // role -> what the worker last said about that table (lobby list)

// --- storage that never throws (private modes, full quota) ------------------------------
function safeStorage(storage) {
  return {
    get(key) {
      try { return storage().getItem(key); } catch { return null; }
    },
    set(key, value) {
      try { storage().setItem(key, value); } catch { /* the game goes on unsaved */ }
    },
    remove(key) {
      try { storage().removeItem(key); } catch { /* nothing to remove */ }
    },
  };
}

const store = safeStorage(() => localStorage);
const tabStore = safeStorage(() => sessionStorage);
// Which table is on screen (a shared table's marker, the one-device table's save id): this
// tab's own copy first (sessionStorage survives a reload, and two tabs of one browser must not
// take each other's table or seat), then the browser's latest (localStorage: back after the
// app was closed). Saves made before IndexedDB were kept the same way (saves.js moves them).
const tabFirstStore = {
  get: (key) => tabStore.get(key) ?? store.get(key),
  set(key, value) {
    tabStore.set(key, value);
    store.set(key, value);
  },
  remove(key) {
    tabStore.remove(key);
    store.remove(key);
  },
};

// --- saved tables ---------------------------------------------------------------------------
// Every table keeps its own save on the shelf (IndexedDB, saves.js); a failed write shows the
// banner at once, and it stays until a write succeeds. A host whose save failed holds its
// table (hostGate) until the save works or the player chooses to go on without it.
let hostWrite = Promise.resolve(true); // the host's latest save on its way to the database
let goOnUnsaved = false; // the host chose to go on after a failed save
let releaseHost = []; // the host's held table calls, waiting for the player's choice
let saveError = null; // why the latest write failed

function onSaveWrite(ok, error) {
  saveError = ok ? null : error;
  if (ok) {
    if (shelf.unsaved.size) return;
    goOnUnsaved = false;
    $("save-banner").hidden = true;
    delete $("save-banner").dataset.failures;
    releaseHeldHost();
    return;
  }
  const reason = error?.name === "QuotaExceededError" ? t("save.full")
    : shelf.db ? String(error?.message || error?.name || error) : t("save.unavailable");
  $("save-banner-text").textContent = t(shared?.role === "host" ? "save.host_failed" : "save.failed", { reason });
  $("save-go-on").hidden = !(shared?.role === "host" && releaseHost.length);
  $("save-banner").hidden = false;
  $("save-banner").dataset.failures = Number($("save-banner").dataset.failures || 0) + 1;
}

function releaseHeldHost() {
  const waiting = releaseHost;
  releaseHost = [];
  $("save-go-on").hidden = true;
  for (const resolve of waiting) resolve();
}

// Table calls that can move a hosted table on: they wait for the host's latest save.
const HOST_MOVES = new Set(["net_host_receive", "net_host_act", "net_host_bot_step", "net_host_command"]);

async function hostGate() {
  if ((await hostWrite) || goOnUnsaved || !shared) return;
  await new Promise((resolve) => {
    releaseHost.push(resolve);
    onSaveWrite(false, saveError || shelf.openError);
  });
}

function keepLocal(response) {
  if (!shelf) return;
  if (!localId) holdLocal(newLocalId());
  tabFirstStore.set(KEYS.current, localId);
  shelf.put({ id: localId, kind: "local", table: null, text: response.save, ...recordSummary(response.summary) });
}

// While a one-device table is on screen this tab holds its Web Lock, so that another tab
// (opened later, or reloaded) does not open the same table too and overwrite its save.
function holdLocal(id) {
  letGoLocal();
  localId = id;
  if (!navigator.locks?.request) return;
  navigator.locks.request(`taberna.local.${id}`, { ifAvailable: true }, (lock) => (
    lock && localId === id ? new Promise((release) => { releaseLocal = release; }) : null
  )).catch(() => { /* no lock, no guard */ });
}

function letGoLocal() {
  localId = null;
  releaseLocal?.();
  releaseLocal = null;
}

function recordSummary(summary) {
  return { game: summary?.game ?? null, players: summary?.players ?? [], over: Boolean(summary?.over) };
}

// The driver's store: the marker in web storage, the saves on the shelf. Each shared table
// has its own record (the host's by table, a guest's by table and seat).
const sharedStore = {
  get(key) {
    if (key === SHARED_KEYS.shared) return tabFirstStore.get(key);
    const marker = sharedMarker();
    if (!marker || !shelf) return null;
    if (key === SHARED_KEYS.host) return shelf.get(`host:${marker.table}`)?.text ?? null;
    const mine = shelf.get(tabStore.get(KEYS.guestSave));
    return (mine?.table === marker.table ? mine : shelf.latest("guest", marker.table))?.text ?? null;
  },
  set(key, value) {
    if (key === SHARED_KEYS.shared) {
      tabFirstStore.set(key, value);
      return;
    }
    const role = key === SHARED_KEYS.host ? "host" : "guest";
    const id = sharedId(role, value);
    if (!id || !shelf) return;
    const marker = sharedMarker();
    if (role === "guest") tabStore.set(KEYS.guestSave, id);
    const known = summaries[role] ?? shelf.get(id) ?? {};
    // A guest's record keeps the host key it pinned, to find the same host from the lobby.
    const pin = role === "guest" ? marker?.pin ?? null : null;
    const write = shelf.put({
      id, kind: role, table: id.split(":")[1], via: marker?.via ?? null, pin, text: value, ...recordSummary(known),
    });
    if (role === "host") hostWrite = write;
  },
  remove(key) {
    if (key === SHARED_KEYS.shared) {
      tabFirstStore.remove(key);
      return;
    }
    const marker = sharedMarker();
    if (!marker || !shelf) return;
    if (key === SHARED_KEYS.host) shelf.remove(`host:${marker.table}`);
    else if (shelf.get(tabStore.get(KEYS.guestSave))?.table === marker.table) shelf.remove(tabStore.get(KEYS.guestSave));
  },
};

// --- messages ----------------------------------------------------------------------------
// Intl's formatters are slow to make (the page's first number format loads the language's
// data: 10-35 ms of the main thread), so each kind is made once per language.
const formatters = new Map();

function formatter(Kind, options = {}) {
  const key = `${Kind.name} ${lang} ${JSON.stringify(options)}`;
  if (!formatters.has(key)) formatters.set(key, new Kind(lang, options));
  return formatters.get(key);
}

// A plural message is an object of CLDR categories, picked by the number in params.count;
// numbers are written as the language writes them.
function t(key, params = {}) {
  if (!strings) keysShown = true;
  let template = strings?.[key] ?? key;
  if (typeof template === "object") {
    template = template[formatter(Intl.PluralRules).select(Number(params.count))] ?? template.other;
  }
  const shown = (value) => (typeof value === "number" ? formatter(Intl.NumberFormat).format(value) : String(value));
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? shown(params[name]) : whole));
}

// Resolves in a task of its own: long work split this way leaves the page responsive.
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

function pickLanguage() {
  const saved = store.get(KEYS.lang);
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).split("-")[0].toLowerCase();
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

// A game's how-to-play page in the chosen language (static, built from its howto/*.md).
function howtoPage(gameId) {
  return `howto/${gameId}.${lang}.html`;
}

async function loadStrings(code) {
  const response = await fetch(`i18n/${code}.json`);
  if (!response.ok) throw new Error(`i18n/${code}.json: ${response.status}`);
  [strings, lang] = [await response.json(), code];
  if (languageTag(code) !== root.lang || keysShown) await translatePage(code);
  if (lang !== code) return; // another language was chosen meanwhile
  $("lang").value = code;
  document.title = t("app.title");
  await nextTask();
  showSavedGames();
  if (!performance.getEntriesByName("lobby-ready").length) performance.mark("lobby-ready");
}

// Writes language ``code`` into the page's static text (built in English, ``<html lang="en">``),
// in tasks of their own: the language's formatters first, then the page, only what differs.
async function translatePage(code) {
  formatter(Intl.PluralRules);
  formatter(Intl.NumberFormat);
  await nextTask();
  if (lang !== code) return; // another language was chosen meanwhile
  root.lang = languageTag(code);
  const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
  const setAttribute = (el, name, value) => { if (el.getAttribute(name) !== value) el.setAttribute(name, value); };
  for (const el of document.querySelectorAll("[data-i18n]")) {
    const { i18nLow: low, i18nHigh: high, i18nCount: count } = el.dataset;
    setText(el, t(el.dataset.i18n, count === undefined ? { low, high } : { count: Number(count) }));
  }
  for (const el of document.querySelectorAll("a[data-howto]")) setAttribute(el, "href", howtoPage(el.dataset.howto));
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) {
    setAttribute(el, "placeholder", t(el.dataset.i18nPlaceholder));
  }
  for (const el of document.querySelectorAll("[data-i18n-aria]")) {
    setAttribute(el, "aria-label", t(el.dataset.i18nAria));
  }
}

// --- little pieces of UI -------------------------------------------------------------------
function toast(text, action) {
  const box = $("toast");
  box.replaceChildren();
  if (!text) {
    box.hidden = true;
    return;
  }
  const span = document.createElement("span");
  span.textContent = text;
  box.append(span);
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn btn-primary";
    button.textContent = action.label;
    button.addEventListener("click", action.run);
    box.append(button);
  }
  box.hidden = false;
  clearTimeout(toast.timer);
  if (!action) toast.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

function setEngine(state, key) {
  root.dataset.engine = state;
  $("engine-text").textContent = t(key);
  $("engine-text").dataset.i18n = key;
  $("engine-progress").hidden = state !== "loading";
  $("engine-reload").hidden = state !== "error";
}

function showScreen(name) {
  const inGame = name === "game";
  $("lobby").hidden = inGame;
  $("game").hidden = !inGame;
  if (!inGame) tabFirstStore.remove(KEYS.current);
}

// "3 minutes ago" today, a date and time before.
function savedWhen(ms) {
  const minutes = Math.round((ms - Date.now()) / 60000);
  try {
    if (Math.abs(minutes) < 60) return formatter(Intl.RelativeTimeFormat, { numeric: "auto" }).format(minutes, "minute");
    if (Math.abs(minutes) < 24 * 60) return formatter(Intl.RelativeTimeFormat, { numeric: "auto" }).format(Math.round(minutes / 60), "hour");
    return formatter(Intl.DateTimeFormat, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
  } catch {
    return new Date(ms).toLocaleString();
  }
}

function button(text, className, onClick, label) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = className;
  el.textContent = text;
  if (label) el.setAttribute("aria-label", label);
  el.addEventListener("click", onClick);
  return el;
}

// The lobby's list of games in progress: each with its game, players and when, Continue and
// Delete (which asks first).
function showSavedGames() {
  if (!shelf) return;
  const records = shelf.inProgress();
  $("saved").hidden = !records.length;
  $("saved-list").replaceChildren(...records.map(savedItem));
}

function savedItem(record) {
  const item = document.createElement("li");
  item.className = "saved-game";
  item.dataset.save = record.id;
  item.dataset.kind = record.kind;
  const game = record.game && strings?.[`lobby.${record.game}.name`] ? t(`lobby.${record.game}.name`) : t("saves.unknown_game");
  const when = t("saves.when", { when: savedWhen(record.updated) });
  const title = document.createElement("p");
  title.className = "saved-title";
  const name = document.createElement("strong");
  name.textContent = game;
  const where = record.kind === "local" ? t("saves.here")
    : t(record.kind === "host" ? "saves.hosting" : "saves.seat", { code: record.table });
  title.append(name, ` · ${where}`);
  const details = document.createElement("p");
  details.className = "saved-details";
  details.textContent = [record.players.filter(Boolean).join(", "), when].filter(Boolean).join(" · ");
  const actions = document.createElement("div");
  actions.className = "row";
  const ask = () => {
    const question = document.createElement("span");
    question.className = "saved-ask";
    question.textContent = t("saves.delete_ask");
    const no = button(t("saves.delete_no"), "btn", () => {
      actions.replaceChildren(...buttons);
      buttons[1].focus();
    });
    const yes = button(t("saves.delete_yes"), "btn btn-danger", () => deleteSaved(record));
    yes.dataset.testid = "delete-yes";
    actions.replaceChildren(question, yes, no);
    no.focus();
  };
  const buttons = [
    button(t("resume.continue"), "btn btn-primary", () => continueSaved(record), t("saves.continue_label", { game, when })),
    button(t("saves.delete"), "btn", ask, t("saves.delete_label", { game, when })),
  ];
  buttons[0].dataset.testid = "continue";
  buttons[1].dataset.testid = "delete";
  actions.append(...buttons);
  item.append(title, details, actions);
  return item;
}

function continueSaved(record) {
  if (!bridge) { // resumed as soon as the engine is up, as after a reload
    if (record.kind === "local") tabFirstStore.set(KEYS.current, record.id);
    else tabFirstStore.set(SHARED_KEYS.shared, JSON.stringify(sharedMarkerOf(record, true)));
    showScreen("game");
    showEngineWait();
    return;
  }
  if (record.kind === "local") {
    resume(record.id);
    return;
  }
  resumeShared(sharedMarkerOf(record, false));
}

// The shared-table marker that brings back ``record``'s table (and this tab's seat there): a
// guest finds the host again by the room code its save keeps and the key its record pinned.
function sharedMarkerOf(record, onScreen) {
  const marker = { role: record.kind, table: record.table, via: record.via ?? "room", seat: null, onScreen };
  if (record.kind !== "guest") return marker;
  tabStore.set(KEYS.guestSave, record.id);
  const pin = typeof record.pin === "string" ? record.pin : null;
  return { ...marker, seat: savedField(record.text, "seat"), room: savedField(record.text, "room"), pin };
}

function deleteSaved(record) {
  const marker = sharedMarker();
  if (marker && marker.role === record.kind && marker.table === record.table) tabFirstStore.remove(SHARED_KEYS.shared);
  shelf.remove(record.id);
  showSavedGames();
  $("lobby").focus();
}

// --- talking to the engine -------------------------------------------------------------------
async function call(name, ...args) {
  const raw = await bridge[name](...args);
  return JSON.parse(raw);
}

// Which control had the focus, so a keyboard player keeps their place after a re-render.
function focusKey(el) {
  if (!el || !$("game-area").contains(el)) return null;
  for (const attr of ["data-testid", "id", "data-act", "data-ui"]) {
    if (el.hasAttribute(attr)) return [attr, el.getAttribute(attr)];
  }
  return null;
}

function restoreFocus(key) {
  const area = $("game-area");
  let target = null;
  if (key) {
    target = [...area.querySelectorAll(`[${key[0]}]`)].find((el) => el.getAttribute(key[0]) === key[1]);
  }
  target = target || area.querySelector("[autofocus]");
  if (target && !target.disabled) target.focus();
  // The control is gone (e.g. the bid picker after a bid): keep the keyboard in the game.
  else if (key) area.focus({ preventScroll: true });
}

// Puts a rendered screen on the page, keeping a keyboard player's place.
function paint(response) {
  const area = $("game-area");
  const key = focusKey(document.activeElement);
  if (typeof response.html === "string") area.innerHTML = response.html;
  area.dataset.status = response.status || "";
  const gameId = area.querySelector("[data-game]")?.dataset.game;
  $("howto-link").hidden = !gameId;
  if (gameId) $("howto-link").href = howtoPage(gameId);
  document.title = response.title ? `${response.title} · ${t("app.title")}` : t("app.title");
  $("game-heading").textContent = response.title || "";
  announce(area);
  restoreFocus(key);
}

// Turns and results for screen readers: the screen marks its news with data-announce; the
// page's one live region (outside the redrawn area, so it is heard) reads it when it changes.
let announced = "";
function announce(area) {
  const news = [...area.querySelectorAll("[data-announce]")].map((el) => el.textContent.trim()).join(" ");
  if (news === announced) return;
  announced = news;
  $("announce").textContent = news;
}

// A shared table's screens arrive as fast as peers send messages: draw the latest one at most
// once per animation frame (a flood of messages costs one paint per frame, not one each).
// A hidden page gets no frames; the timer paints it at a slow pace instead.
let framePending = null;
const HIDDEN_PAINT_MS = 250;

function paintSoon(response) {
  const first = framePending === null;
  framePending = response;
  if (!first) return;
  const flush = () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    const latest = framePending;
    framePending = null;
    if (latest) paint(latest);
  };
  const frame = requestAnimationFrame(flush);
  const timer = setTimeout(flush, HIDDEN_PAINT_MS);
}

function show(response) {
  if (!response.ok) {
    // A refused input changes nothing on screen (the form keeps what was typed): say why.
    toast(response.message || t("game.failed", { reason: "?" }));
    return;
  }
  paint(response);
  // The worker sends the save as JSON text (its 63-bit seed would not survive a JS
  // number): it is stored verbatim. A reload while a table is on screen comes straight back.
  if (response.save) keepLocal(response);
  toast(response.message || null);
  clearTimeout(botTimer);
  if (response.status === "bot") {
    botTimer = setTimeout(botStep, Math.round((response.delay_ms || 0) * botSpeed()));
  }
}

function botSpeed() {
  return SPEEDS[store.get(KEYS.speed)] ?? 1;
}

// One bridge call at a time: double clicks and clicks during a bot's move do nothing.
async function run(name, ...args) {
  if (busy || !bridge) return false;
  busy = true;
  $("game-area").setAttribute("aria-busy", "true");
  try {
    const response = await call(name, ...args);
    show(response);
    return response;
  } catch (error) {
    // The worker itself failed (not a refusal): said, and answered like a refusal.
    const message = t("game.failed", { reason: error.message || String(error) });
    toast(message);
    return { ok: false, message };
  } finally {
    busy = false;
    $("game-area").removeAttribute("aria-busy");
  }
}

function botStep() {
  if ($("game").hidden) return;
  if (busy) {
    botTimer = setTimeout(botStep, 50);
    return;
  }
  run("bot_step", lang);
}

// --- screens -------------------------------------------------------------------------------
function openGame(gameId) {
  showScreen("game");
  $("game").focus();
  if (!bridge) {
    waitingFor = gameId;
    showEngineWait();
    return;
  }
  setupGame = gameId;
  setupShared = false;
  letGoLocal(); // a new game gets a save of its own
  run("setup", gameId, lang);
}

function showEngineWait() {
  const p = document.createElement("p");
  p.className = "notice";
  p.textContent = t("engine.wait");
  $("game-area").replaceChildren(p);
}

function backToLobby() {
  clearTimeout(botTimer);
  waitingFor = null;
  letGoLocal();
  leaveShared(false);
  showScreen("lobby");
  showSavedGames();
  document.title = t("app.title");
  $("lobby").focus();
}

async function resume(id) {
  const record = shelf?.get(id);
  if (!record) return backToLobby();
  if (await heldElsewhere(`taberna.local.${id}`)) {
    toast(t("saves.open_elsewhere"));
    return backToLobby();
  }
  leaveShared(false);
  showScreen("game");
  holdLocal(id);
  tabFirstStore.set(KEYS.current, id);
  const response = await run("resume", record.text, lang);
  if (!response) return backToLobby(); // another call was on its way: nothing happened
  if (!response.ok) {
    letGoLocal();
    showBrokenSave(response.message, () => {
      shelf.remove(id);
      if (record.game && document.querySelector(`[data-open="${CSS.escape(record.game)}"]`)) openGame(record.game);
      else backToLobby();
    });
  }
}

// A save that does not restore: say so, keep nothing blank, offer a clean start.
function showBrokenSave(message, startFresh) {
  const area = $("game-area");
  area.replaceChildren();
  const box = document.createElement("div");
  box.className = "broken-save";
  box.setAttribute("role", "alert");
  const title = document.createElement("h2");
  title.textContent = t("resume.failed");
  box.append(title);
  if (message) {
    const reason = document.createElement("p");
    reason.textContent = message;
    box.append(reason);
  }
  const fresh = document.createElement("button");
  fresh.type = "button";
  fresh.className = "btn btn-primary";
  fresh.id = "start-fresh";
  fresh.textContent = t("resume.fresh");
  fresh.addEventListener("click", startFresh);
  box.append(fresh);
  area.append(box);
  toast(null);
  fresh.focus();
}

// --- tables shared with friends ---------------------------------------------------------------
const DEFAULT_STUN = ["stun:stun.l.google.com:19302"];
const NAME_MAX = 24; // the engine's limit for a seat name (pyengine/core/table.py MAX_NAME)

function lines(text) {
  return String(text || "").split(/[\s,]+/).map((line) => line.trim()).filter(Boolean);
}

// Relay servers and STUN servers from the settings; empty fields mean the built-in defaults.
function netSettings() {
  const stun = store.get(KEYS.stun);
  const allowed = store.get(KEYS.useRelays) !== "0";
  return {
    // Room codes need the setting and a secure context (the relay library uses Web Crypto):
    // https, or localhost. ``roomsOff`` names the reason when they are unusable.
    useRelays: allowed && window.isSecureContext,
    roomsOff: !allowed ? "net.relays_off" : window.isSecureContext ? null : "net.relays_insecure",
    relays: lines(store.get(KEYS.relays)),
    iceServers: (stun === null ? DEFAULT_STUN : lines(stun)).map((urls) => ({ urls })),
  };
}

const netPage = {
  // A hosted table's moves wait for its latest save (hostGate); every reply's summary is
  // kept for the save the driver stores next.
  async call(name, ...args) {
    if (HOST_MOVES.has(name)) await hostGate();
    if (!shared) return null; // left while waiting
    const reply = await call(name, ...args);
    if (reply?.summary) summaries[reply.role] = reply.summary;
    return reply;
  },
  paint: paintSoon,
  toast: (text) => toast(text),
  store: sharedStore,
  t: (key, params) => t(key, params),
  lang: () => lang,
  botSpeed,
  settings: netSettings,
  link: (fragment) => `${location.href.split("#")[0]}#${fragment}`,
  panel: null,
};

function sharedMarker() {
  try {
    const marker = JSON.parse(sharedStore.get(SHARED_KEYS.shared));
    return marker && (marker.role === "host" || marker.role === "guest") ? marker : null;
  } catch {
    return null;
  }
}

// The networking code loads only when a table is shared.
async function openShared(role) {
  const [{ SharedTable }, { SharePanel }] = await Promise.all([import("./net/driver.js"), import("./net/panel.js")]);
  netPage.panel ??= new SharePanel($("net-panel"), {
    t: (key, params) => t(key, params),
    toast: (text) => toast(text),
    qr: async (text) => (await call("net_qr", text, lang)).svg,
  });
  leaveShared(false);
  clearTimeout(botTimer);
  tabFirstStore.remove(KEYS.current);
  letGoLocal();
  shared = new SharedTable(netPage, role);
  showScreen("game");
  // The room link needs the relays (a tab of this browser can still type the room code);
  // the host's screen says which way friends can come in.
  const rooms = netSettings().useRelays;
  $("net-bar").hidden = role !== "host" || !rooms;
  $("game-area").dataset.rooms = rooms ? "on" : "off";
  return shared;
}

// Leaves the shared table on this page; ``forget`` also drops its saves.
function leaveShared(forget) {
  framePending = null; // a screen of the table left behind must not be drawn after it
  if (shared) {
    const marker = sharedMarker();
    if (marker && !forget) sharedStore.set(SHARED_KEYS.shared, JSON.stringify({ ...marker, onScreen: false }));
    shared.close(forget);
  } else if (forget) {
    for (const key of Object.values(SHARED_KEYS)) sharedStore.remove(key);
  }
  shared = null;
  releaseHeldHost();
  $("net-bar").hidden = true;
}

function openSharedSetup(gameId) {
  if (!bridge) return;
  leaveShared(false);
  showScreen("game");
  setupGame = gameId;
  setupShared = true;
  run("net_host_setup", gameId, lang);
}

// Whether another tab of this browser has this shared table (its host, or its saved seat) open.
async function openElsewhere(marker) {
  if (marker.role === "host") return heldElsewhere(lockName("host", marker.table));
  const save = sharedStore.get(SHARED_KEYS.guest);
  return savedField(save, "table") === marker.table
    && heldElsewhere(lockName("guest", marker.table, savedField(save, "seat")));
}

// Back at a shared table after a reload or from the lobby's offer: rejoin it as before,
// unless another tab already has it (then this tab stays in the lobby).
async function resumeShared(marker) {
  if (await openElsewhere(marker)) {
    toast(t("friends.open_elsewhere", { code: marker.room ? showRoomCode(marker.room) : marker.table }));
    return;
  }
  const table = await openShared(marker.role);
  tabFirstStore.set(SHARED_KEYS.shared, JSON.stringify({ ...marker, onScreen: true }));
  let reply;
  try {
    reply = marker.role === "host"
      ? await table.resumeHost(sharedStore.get(SHARED_KEYS.host))
      : await table.join({
        via: marker.via, table: marker.table, seat: marker.seat, room: marker.room ?? null, pin: marker.pin ?? null, name: playerName(),
      });
  } catch (error) { // the worker itself failed: the same clean screen, never a blank one
    reply = { ok: false, message: t("game.failed", { reason: error.message || String(error) }) };
  }
  if (reply && !reply.ok && shared === table) {
    showBrokenSave(reply.message, () => {
      leaveShared(true);
      backToLobby();
    });
  }
}

function playerName() {
  return (store.get(KEYS.name) || "").slice(0, NAME_MAX);
}

// A link from a friend (invite, room or tab): ask for a name, then sit down.
function showJoinCard(route) {
  showScreen("game");
  const area = $("game-area");
  area.replaceChildren();
  area.dataset.status = "join";
  const form = document.createElement("form");
  form.className = "join-card";
  form.dataset.testid = "join-card";
  const title = document.createElement("h2");
  title.textContent = t("friends.join_title", { code: route.room ? showRoomCode(route.room) : route.table });
  const label = document.createElement("label");
  label.textContent = t("friends.your_name");
  const name = document.createElement("input");
  name.name = "name";
  name.maxLength = NAME_MAX;
  name.autocomplete = "nickname";
  name.value = playerName();
  name.dataset.testid = "join-name";
  label.append(name);
  const submit = document.createElement("button");
  submit.type = "submit";
  submit.className = "btn btn-primary";
  submit.dataset.testid = "join-submit";
  submit.textContent = t("friends.join");
  form.append(title, label, submit);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    store.set(KEYS.name, name.value.trim());
    joinShared(route, name.value.trim());
  });
  area.append(form);
  name.focus();
}

async function joinShared(route, name) {
  const table = await openShared("guest");
  const marker = { role: "guest", table: route.table, via: route.via, seat: route.seat ?? null, room: route.room ?? null, pin: route.pin ?? null };
  sharedStore.set(SHARED_KEYS.shared, JSON.stringify({ ...marker, onScreen: true }));
  const reply = await table.join({ ...route, name });
  if (reply && !reply.ok) {
    leaveShared(true);
    showJoinCard(route);
    toast(reply.message);
  }
}

// Opened from a link: its fragment says which table. It is consumed (a reload must not reuse
// a one-time invite); the shared-table marker takes over from there.
function takeRoute() {
  const route = parseRoute(location.hash);
  if (location.hash) history.replaceState(null, "", location.href.split("#")[0]);
  return route;
}

function wireFriends() {
  $("friends-create").addEventListener("submit", (event) => {
    event.preventDefault();
    openSharedSetup($("friends-game").value);
  });
  $("friends-join").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = normalizeRoomCode($("friends-code").value);
    if (!code) {
      toast(t("friends.bad_code"));
      return;
    }
    const name = $("friends-name").value.trim();
    store.set(KEYS.name, name);
    if (bridge) joinShared({ via: "room", room: code, pin: null, table: null, seat: null }, name);
  });
  $("friends-name").value = playerName();
  $("net-share-room").addEventListener("click", () => shared?.shareRoom());
  // The games on offer are the lobby's playable ones.
  for (const button of document.querySelectorAll("[data-open]")) {
    const option = document.createElement("option");
    option.value = button.dataset.open;
    option.dataset.i18n = `lobby.${button.dataset.open}.name`;
    option.textContent = t(option.dataset.i18n);
    $("friends-game").append(option);
  }
  const useRelays = $("use-relays");
  useRelays.checked = store.get(KEYS.useRelays) !== "0";
  useRelays.addEventListener("change", () => store.set(KEYS.useRelays, useRelays.checked ? "1" : "0"));
  for (const [id, key] of [["relays", KEYS.relays], ["stun", KEYS.stun]]) {
    const field = $(id);
    const value = store.get(key);
    if (value !== null) field.value = value;
    field.addEventListener("change", () => store.set(key, field.value));
  }
}

// --- the engine --------------------------------------------------------------------------------
async function startEngine() {
  try {
    const worker = await engineWorker;
    // The worker resolves even when its Python failed: a first call proves the bridge is there.
    JSON.parse(await worker.sync.lobby(lang));
    bridge = worker.sync;
  } catch (error) {
    console.error(error);
    if (await retryFromCache()) return;
    setEngine("error", "engine.error");
    return;
  }
  try { sessionStorage.removeItem(RETRY_KEY); } catch { /* nothing to forget */ }
  // The raw bridge (JSON strings in and out) for the in-page self-test and benchmarks.
  window.taberna = Object.freeze({ call: (name, ...args) => bridge[name](...args) });
  setEngine("ready", "engine.ready");
  performance.mark("engine-ready");
  registerServiceWorker();
  prepareNextStart();
  await shelfReady;
  const current = tabFirstStore.get(KEYS.current);
  const marker = sharedMarker();
  if (pendingRoute) {
    const route = pendingRoute;
    pendingRoute = null;
    // A returning guest (same table, saved seat) goes straight back in.
    if (marker?.role === "guest" && marker.table === route.table && route.via !== "invite") resumeShared(marker);
    else showJoinCard(route);
  } else if (waitingFor) {
    const gameId = waitingFor;
    waitingFor = null;
    openGame(gameId);
  } else if (marker?.onScreen) {
    resumeShared(marker);
  } else if (current && shelf?.get(current)) {
    resume(current);
  }
}

// Once per build, a while after the engine is up, snapshot.mjs stores a memory snapshot of
// Python started with our modules imported, which the next visits restore (engine.mjs).
const SNAPSHOT_DELAY_MS = 3000;

function prepareNextStart() {
  if (!("caches" in window)) return;
  setTimeout(() => {
    const worker = new Worker("./snapshot.mjs", { type: "module" });
    const done = () => worker.terminate();
    worker.addEventListener("message", done);
    worker.addEventListener("error", done);
  }, SNAPSHOT_DELAY_MS);
}

// The runtime is fetched from the network while the browser says it is online (see sw.js).
// If that failed and a cached copy exists, reload once with the service worker serving it.
const RETRY_KEY = "taberna.runtimeRetry";

async function retryFromCache() {
  const controller = navigator.serviceWorker?.controller;
  try {
    if (!controller || sessionStorage.getItem(RETRY_KEY)) return false;
    sessionStorage.setItem(RETRY_KEY, "1");
  } catch {
    return false;
  }
  const channel = new MessageChannel();
  const acknowledged = new Promise((resolve) => {
    channel.port1.onmessage = resolve;
    setTimeout(resolve, 1000);
  });
  controller.postMessage({ type: "runtime-from-cache" }, [channel.port2]);
  await acknowledged;
  location.reload();
  return true;
}

function offerUpdate(incoming) {
  toast(t("update.ready"), {
    label: t("update.apply"),
    run: () => {
      updateAccepted = true;
      incoming.postMessage({ type: "skip-waiting" });
    },
  });
}

function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("./sw.js").then((registration) => {
    // A version that finished installing during an earlier visit is still waiting.
    if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
    registration.addEventListener("updatefound", () => {
      const incoming = registration.installing;
      incoming?.addEventListener("statechange", () => {
        if (incoming.state !== "installed") return;
        if (navigator.serviceWorker.controller) offerUpdate(incoming);
        else toast(t("offline.ready"));
      });
    });
  }).catch((error) => console.warn("service worker:", error));
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // Only an accepted update swaps a controller that already existed: reload into it.
    if (reloading || !updateAccepted) return;
    reloading = true;
    location.reload();
  });
}

// --- wiring ----------------------------------------------------------------------------------------
function wire() {
  for (const button of document.querySelectorAll("[data-open]")) {
    button.addEventListener("click", () => openGame(button.dataset.open));
  }
  $("back").addEventListener("click", backToLobby);
  $("save-retry").addEventListener("click", () => shelf?.retry());
  $("save-go-on").addEventListener("click", () => {
    goOnUnsaved = true;
    $("save-go-on").hidden = true;
    releaseHeldHost();
  });
  $("engine-reload").addEventListener("click", () => location.reload());
  $("lang").addEventListener("change", async (event) => {
    store.set(KEYS.lang, event.target.value);
    await loadStrings(event.target.value);
    const status = $("game-area").dataset.status;
    if (!bridge || $("game").hidden || !status) return;
    if (shared) shared.render();
    else if (status === "setup") run(setupShared ? "net_host_setup" : "setup", setupGame, lang);
    else if (status !== "join") run("render", lang);
  });
  const speed = store.get(KEYS.speed);
  if (speed in SPEEDS) $("speed").value = speed;
  $("speed").addEventListener("change", (event) => store.set(KEYS.speed, event.target.value));

  const area = $("game-area");
  area.addEventListener("click", (event) => {
    const el = event.target.closest("[data-act], [data-ui], [data-nav], [data-host], [data-invite]");
    if (!el || !area.contains(el) || el.disabled) return;
    event.preventDefault();
    if (shared) {
      if (el.hasAttribute("data-act")) shared.act(el.dataset.act);
      else if (el.hasAttribute("data-ui")) shared.ui(el.dataset.ui);
      else if (el.hasAttribute("data-host")) shared.command(el.dataset.host);
      else if (el.hasAttribute("data-invite")) shared.invite(Number(el.dataset.invite));
      else if (el.dataset.nav === "lobby") backToLobby();
      return;
    }
    if (el.hasAttribute("data-act")) run("act", el.dataset.act, lang);
    else if (el.hasAttribute("data-ui")) run("ui", el.dataset.ui, lang);
    else if (el.dataset.nav === "setup" && !busy) openGame(el.dataset.game);
    else if (el.dataset.nav === "lobby") backToLobby();
  });
  area.addEventListener("submit", (event) => {
    const form = event.target.closest('form[data-form="setup"]');
    if (!form) return;
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form));
    const request = { game: form.dataset.game, lang, fields };
    if (form.dataset.shared === "1") openShared("host").then((table) => table.create(request));
    else run("start", JSON.stringify(request), lang);
  });
}

// The saves are read (and those of older versions moved to IndexedDB) while the engine loads.
const shelfReady = SaveShelf.open(onSaveWrite).then(async (opened) => {
  shelf = opened;
  const legacy = await shelf.migrate(tabFirstStore);
  if (legacy) tabFirstStore.set(KEYS.current, legacy);
  shelf.prune(tabFirstStore.get(KEYS.current));
  showSavedGames();
});

// The rest of the set-up in a task of its own (web storage is first read there, which can
// take a while): the page's first tasks stay short.
await nextTask();
wire();
pendingRoute = takeRoute();
loadStrings(pickLanguage()).then(wireFriends).catch((error) => console.warn(error));
startEngine();
