// Taberna's main thread: the lobby, the settings, and the routing between them and a table.
// Never game rules.
//
// The lobby is static HTML, usable before Python exists. The engine (Pyodide + the pyengine
// wheel) starts in a DOM-free PyScript worker (engine-start.js); every bridge call takes and
// returns JSON strings, and every game screen is HTML rendered by Python. A table on screen
// is a session (session.js: on this device, hosted, or joined), which this file opens and
// closes; screen.js draws, i18n.js translates, updates.js looks after the service worker,
// saves.js keeps the saved tables and storage.js the settings.

import { LANG_KEY, PageLanguage, nextTask } from "./i18n.js";
import { parseRoute, replayFragment } from "./net/links.js";
import { normalizeRoomCode, showRoomCode } from "./net/roomkey.js";
import { SaveShelf, saveField } from "./saves.js";
import { PageScreen } from "./screen.js";
import { TableSounds } from "./sound.js";
import { wireYourGames } from "./yourgames.js";
import { onScreen, settings, tabFirst } from "./storage.js";
import { engineStarted, prepareNextStart, registerServiceWorker, retryFromCache } from "./updates.js";
import { startWorker } from "./engine-start.js";

const $ = (id) => document.getElementById(id);
const KEYS = {
  lang: LANG_KEY,
  speed: "taberna.speed",
  name: "taberna.name",
  relays: "taberna.relays",
  useRelays: "taberna.useRelays",
  stun: "taberna.stun",
  turn: "taberna.turn",
  turnUser: "taberna.turnUser",
  turnCredential: "taberna.turnCredential",
  sound: "taberna.sound", // "1": the table's sounds are on (off unless turned on)
};
// Multiplies the bridge's suggested bot delay, so bots play visibly at the player's pace
// ("instant": no pause, for a player who only wants the bots' moves).
const SPEEDS = { relaxed: 1.6, normal: 1, fast: 0.2, instant: 0 };
const DEFAULT_STUN = ["stun:stun.l.google.com:19302"];
const NAME_MAX = 24; // the engine's limit for a seat name (pyengine/core/table.py MAX_NAME)
const PLAYERS_NAMED = 4; // players a saved game names in the lobby; more are counted

// The page's one object that changes: its language and what it shows, and what it holds
// between tables. A table's own state lives in its session.
const app = {
  i18n: new PageLanguage($("lang")),
  screen: null, // set below: it writes in the page's language
  bridge: null, // the worker's exported functions, once Python is up (and the saves read)
  shelf: null, // the saved tables (saves.js), once read
  session: null, // the table on screen (session.js), if any
  waitingFor: null, // a game opened before the engine was ready
  pendingRoute: null, // a friend's link opened before the engine was ready
  saveError: null, // why the latest save failed
  net: null, // the networking modules, once a table is shared
  // The kinds of table session (session.js), loaded with the engine (loadTables): the lobby
  // does not wait for them, and no table opens before the engine is ready.
  sessions: null,
  panel: null, // the share panel (net/panel.js), once a table is shared
};
app.screen = new PageScreen($, app.i18n, new TableSounds(settings.get(KEYS.sound) === "1"));
const t = (key, params) => app.i18n.t(key, params);
const toast = (text, action) => app.screen.toast(text, action);

// What a session may use of the page (session.js lists it).
const page = {
  call: async (name, ...args) => JSON.parse(await app.bridge[name](...args)),
  cardGroup: () => app.bridge.card_group(),
  lang: () => app.i18n.lang,
  t,
  toast: (text) => toast(text),
  paint: (reply) => app.screen.paint(reply),
  paintSoon: (reply) => app.screen.paintSoon(reply),
  busy: (on) => app.screen.busy(on),
  botSpeed: () => SPEEDS[settings.get(KEYS.speed)] ?? 1,
  get shelf() { return app.shelf; },
  onScreen,
  locks: navigator.locks,
  saveHeld: () => onSaveWrite(false, app.saveError || app.shelf.openError),
  settings: netSettings,
  link: (fragment) => `${location.href.split("#")[0]}#${fragment}`,
  download: (name, text) => {
    const file = document.createElement("a");
    file.href = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    file.download = name;
    file.click();
    setTimeout(() => URL.revokeObjectURL(file.href), 60_000);
  },
  replay: (text) => openRecord((session) => session.importText(text)),
  get net() { return app.net; },
  get panel() { return app.panel; },
  roomsUnreachable: () => {
    $("net-bar").hidden = true;
    $("game-area").dataset.rooms = "unreachable";
  },
};

// --- saved tables ---------------------------------------------------------------------------
// Every table keeps its own save on the shelf (IndexedDB, saves.js); a failed write shows the
// banner at once, and it stays until a write succeeds. A host's session holds its table until
// the save works or the player chooses to go on without it.
function onSaveWrite(ok, error) {
  app.saveError = ok ? null : error;
  if (ok) {
    if (app.shelf.unsaved.size) return;
    $("save-banner").hidden = true;
    delete $("save-banner").dataset.failures;
    $("save-go-on").hidden = true;
    app.session?.saveRecovered();
    return;
  }
  const reason = error?.name === "QuotaExceededError" ? t("save.full")
    : app.shelf.db ? String(error?.message || error?.name || error) : t("save.unavailable");
  $("save-banner-text").textContent = t(app.session?.saveFailedKey ?? "save.failed", { reason });
  $("save-go-on").hidden = !app.session?.holdingMoves;
  $("save-banner").hidden = false;
  $("save-banner").dataset.failures = Number($("save-banner").dataset.failures || 0) + 1;
}

// --- the language ----------------------------------------------------------------------------
async function loadStrings(code) {
  if (!(await app.i18n.load(code))) return; // another language was chosen meanwhile
  $("lang").value = code;
  document.title = t("app.title");
  await nextTask();
  showSavedGames();
  if (!performance.getEntriesByName("lobby-ready").length) performance.mark("lobby-ready");
}

// --- little pieces of UI -------------------------------------------------------------------
function setEngine(state, key) {
  document.documentElement.dataset.engine = state;
  $("engine-text").textContent = t(key);
  $("engine-text").dataset.i18n = key;
  $("engine-progress").hidden = state !== "loading";
  $("engine-reload").hidden = state !== "error";
}

/** The lobby or a table, from its top: never at the scroll the other one left. */
function showScreen(name) {
  const inGame = name === "game";
  $("lobby").hidden = inGame;
  $("game").hidden = !inGame;
  window.scrollTo(0, 0);
  if (!inGame) onScreen.clearLocal();
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
  if (!app.shelf) return;
  const records = app.shelf.inProgress();
  $("saved").hidden = !records.length;
  $("saved-list").replaceChildren(...records.map(savedItem));
}

function savedItem(record) {
  const item = document.createElement("li");
  item.className = "saved-game";
  item.dataset.save = record.id;
  item.dataset.kind = record.kind;
  const game = record.game && app.i18n.has(`lobby.${record.game}.name`) ? t(`lobby.${record.game}.name`) : t("saves.unknown_game");
  const when = t("saves.when", { when: app.i18n.when(record.updated) });
  const title = document.createElement("p");
  title.className = "saved-title";
  const name = document.createElement("strong");
  name.textContent = game;
  title.append(name, withPlayers(record.players.filter(Boolean)));
  const where = { local: "saves.here", broken: "saves.broken", host: "saves.hosting" }[record.kind] ?? "saves.seat";
  const details = document.createElement("p");
  details.className = "saved-details";
  details.textContent = `${t(where)} · ${when}`;
  const actions = document.createElement("div");
  actions.className = "row";
  const ask = () => {
    const question = document.createElement("span");
    question.className = "saved-ask";
    question.textContent = t("saves.delete_ask");
    const no = button(t("saves.delete_no"), "btn", () => {
      actions.replaceChildren(...buttons);
      buttons.at(-1).focus();
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
  if (record.kind === "broken") buttons.shift(); // nothing to continue: it can only go
  actions.append(...buttons);
  item.append(title, details, actions);
  return item;
}

/** " with Ana, Pau, Carla" after a saved game's name (the first few, then how many more). */
function withPlayers(players) {
  if (!players.length) return "";
  if (players.length <= PLAYERS_NAMED) return ` ${t("saves.with", { players: players.join(", ") })}`;
  const named = players.slice(0, PLAYERS_NAMED - 1).join(", ");
  return ` ${t("saves.with_more", { players: named, count: players.length - PLAYERS_NAMED + 1 })}`;
}

function continueSaved(record) {
  if (!app.bridge) { // resumed as soon as the engine is up, as after a reload
    if (record.kind === "local") onScreen.setLocal(record.id);
    else onScreen.setShared(sharedMarkerOf(record, true));
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
function sharedMarkerOf(record, shown) {
  const marker = { role: record.kind, table: record.table, via: record.via ?? "room", seat: null, onScreen: shown };
  if (record.kind !== "guest") return marker;
  onScreen.setGuestSave(record.id);
  const pin = typeof record.pin === "string" ? record.pin : null;
  return { ...marker, seat: saveField(record.text, "seat"), room: saveField(record.text, "room"), pin };
}

function deleteSaved(record) {
  const marker = onScreen.shared();
  if (marker && marker.role === record.kind && marker.table === record.table) onScreen.clearShared();
  app.shelf.remove(record.id);
  showSavedGames();
  $("lobby").focus();
}

// --- tables ----------------------------------------------------------------------------------
/** Puts ``session``'s table on screen in place of any other. */
function startSession(session) {
  closeSession(false);
  app.session = session;
  showScreen("game");
  return session;
}

/** Leaves the table on screen; ``forget`` also drops what would bring it back. */
function closeSession(forget) {
  app.screen.dropPending();
  app.screen.busy(false);
  app.session?.close(forget);
  app.session = null;
  $("save-go-on").hidden = true;
  $("net-bar").hidden = true;
  app.panel?.showPaths([]);
  app.panel?.warn(null);
}

function openGame(gameId) {
  showScreen("game");
  $("game").focus({ preventScroll: true }); // the screen starts at its top (showScreen)
  if (!app.bridge) {
    app.waitingFor = gameId;
    showEngineWait();
    return;
  }
  startSession(new app.sessions.LocalSession(page)).setup(gameId); // a new game gets a save of its own
}

function showEngineWait() {
  const p = document.createElement("p");
  p.className = "notice";
  p.textContent = t("engine.wait");
  $("game-area").replaceChildren(p);
}

function backToLobby() {
  app.waitingFor = null;
  closeSession(false);
  showScreen("lobby");
  showSavedGames();
  document.title = t("app.title");
  $("lobby").focus({ preventScroll: true });
}

async function resume(id) {
  const record = app.shelf.get(id);
  if (!record) return backToLobby();
  if (await app.sessions.LocalSession.openElsewhere(page, id)) {
    toast(t("saves.open_elsewhere"));
    return backToLobby();
  }
  const session = startSession(new app.sessions.LocalSession(page));
  const reply = await session.resume(record);
  if (reply && !reply.ok && app.session === session) {
    closeSession(false);
    showBrokenSave(reply.message, () => {
      app.shelf.remove(id);
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

// --- replays ----------------------------------------------------------------------------------
/** The game on screen (a one-device or a hosted table, ``role``) replayed, up to now. */
function openReplay(role) {
  startSession(new app.sessions.ReplaySession(page)).open(role);
  $("game").focus({ preventScroll: true });
}

/** A record from the lobby (``open(session)``: its text, or a shared link's): replayed, or
 * refused there, under "Import a record", with its line and why. */
async function openRecord(open) {
  if (!app.bridge) return;
  const refusal = $("import-refusal");
  const session = new app.sessions.ReplaySession(page);
  const reply = await open(session);
  refusal.hidden = Boolean(reply?.ok);
  refusal.textContent = reply?.ok ? "" : reply?.message ?? "";
  if (!reply?.ok) {
    session.close();
    refusal.scrollIntoView({ block: "center" });
    return;
  }
  startSession(session);
  $("game").focus({ preventScroll: true });
}

/** Your games (``view`` "games") or their statistics ("stats"). */
function openYourGames(view) {
  if (!app.bridge) return;
  startSession(new app.sessions.GamesSession(page)).open(view);
  $("game").focus({ preventScroll: true });
}

function wireImport() {
  $("import-form").addEventListener("submit", (event) => {
    event.preventDefault();
    openRecord((session) => session.importText($("import-text").value));
  });
  $("import-file").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    if (file) $("import-text").value = await file.text();
  });
}

// --- tables shared with friends ---------------------------------------------------------------
function lines(text) {
  return String(text || "").split(/[\s,]+/).map((line) => line.trim()).filter(Boolean);
}

// A TURN server from the settings (its URLs, user and credential), when one is given.
function turnServers() {
  const urls = lines(settings.get(KEYS.turn));
  if (!urls.length) return [];
  return [{ urls, username: settings.get(KEYS.turnUser) || "", credential: settings.get(KEYS.turnCredential) || "" }];
}

// Relay servers and STUN servers from the settings; empty fields mean the built-in defaults.
function netSettings() {
  const stun = settings.get(KEYS.stun);
  const allowed = settings.get(KEYS.useRelays) !== "0";
  return {
    // Room codes need the setting and a secure context (the relay library uses Web Crypto):
    // https, or localhost. ``roomsOff`` names the reason when they are unusable.
    useRelays: allowed && window.isSecureContext,
    roomsOff: !allowed ? "net.relays_off" : window.isSecureContext ? null : "net.relays_insecure",
    relays: lines(settings.get(KEYS.relays)),
    iceServers: [...(stun === null ? DEFAULT_STUN : lines(stun)).map((urls) => ({ urls })), ...turnServers()],
  };
}

// The networking code loads only when a table is shared.
async function openShared(role) {
  const [net, { SharePanel }] = await Promise.all([import("./net/transports.js"), import("./net/panel.js")]);
  app.net = net;
  app.panel ??= new SharePanel($("net-panel"), {
    t,
    toast: (text) => toast(text),
    qr: async (text) => (await page.call("net_qr", text, app.i18n.lang)).svg,
  }, $("net-path"));
  onScreen.clearLocal();
  return startSession(new app.sessions.SHARED_SESSIONS[role](page));
}

// The room link needs the relays (a tab of this browser can still type the room code); the
// host's screen says which way friends can come in.
function showNetBar(session) {
  const rooms = netSettings().useRelays;
  $("net-bar").hidden = !session.hasRoomLink || !rooms;
  $("game-area").dataset.rooms = rooms ? "on" : "off";
}

async function openSharedSetup(gameId) {
  if (!app.bridge) return;
  (await openShared("host")).setup(gameId);
}

// Back at a shared table after a reload or from the lobby's offer: rejoin it as before,
// unless another tab already has it (then this tab stays in the lobby).
async function resumeShared(marker) {
  if (await app.sessions.SHARED_SESSIONS[marker.role].openElsewhere(page, marker)) {
    toast(t("friends.open_elsewhere", { code: marker.room ? showRoomCode(marker.room) : marker.table }));
    return;
  }
  const session = await openShared(marker.role);
  showNetBar(session);
  onScreen.setShared({ ...marker, onScreen: true });
  let reply;
  try {
    reply = await session.resume({ ...marker, name: playerName() });
  } catch (error) { // the worker itself failed: the same clean screen, never a blank one
    reply = { ok: false, message: t("game.failed", { reason: error.message || String(error) }) };
  }
  if (reply && !reply.ok && app.session === session) {
    showBrokenSave(reply.message, () => {
      closeSession(true);
      backToLobby();
    });
  }
}

function playerName() {
  return (settings.get(KEYS.name) || "").slice(0, NAME_MAX);
}

/** What a friend's link offers, in words: the game, the host and the seat ("Ana invites you
 * to Botifarra, seat 3"), as far as the link names them (its words, shown only as text: a
 * game the page cannot name is not named), never a table's id. */
function invitation(route) {
  const key = `lobby.${route.game}.name`;
  const game = route.game && app.i18n.has(key) ? t(key) : null;
  const { host } = route;
  if (route.via === "invite") {
    const seat = route.seat + 1;
    if (!game) return t("friends.invite_seat", { seat });
    return host ? t("friends.invite_from", { host, game, seat }) : t("friends.invite_game", { game, seat });
  }
  if (game) return host ? t("friends.room_from", { host, game }) : t("friends.room_game", { game });
  return route.room ? t("friends.join_title", { code: showRoomCode(route.room) }) : t("friends.join_friend");
}

// A link from a friend (invite, room or tab): ask for a name, then sit down.
function showJoinCard(route) {
  showScreen("game");
  document.title = t("app.title"); // no table's title is left over from a table just left
  $("game-heading").textContent = "";
  $("howto-link").hidden = true;
  const area = $("game-area");
  area.replaceChildren();
  area.dataset.status = "join";
  const form = document.createElement("form");
  form.className = "join-card";
  form.dataset.testid = "join-card";
  const title = document.createElement("h2");
  title.textContent = invitation(route);
  title.dataset.testid = "join-title";
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
    settings.set(KEYS.name, name.value.trim());
    joinShared(route, name.value.trim());
  });
  area.append(form);
  name.focus();
}

async function joinShared(route, name) {
  const session = await openShared("guest");
  showNetBar(session);
  const marker = { role: "guest", table: route.table, via: route.via, seat: route.seat ?? null, room: route.room ?? null, pin: route.pin ?? null };
  onScreen.setShared({ ...marker, onScreen: true });
  const reply = await session.join({ ...route, name });
  if (reply && !reply.ok) {
    closeSession(true);
    showJoinCard(route);
    toast(reply.message);
  }
}

// Opened from a link: its fragment says which table. It is consumed (a reload must not reuse
// a one-time invite); the shared-table marker takes over from there.
function takeRoute() {
  app.pendingReplay = replayFragment(location.hash); // a shared game's replay
  const route = parseRoute(location.hash);
  if (location.hash) history.replaceState(null, "", location.href.split("#")[0]);
  return route;
}

/** A friend's link, once the engine is up: a returning guest (same table, saved seat) goes
 * straight back in, anyone else is asked for a name. A table on screen is left (its save
 * stays): a link opened into this tab means the player wants that table now. */
function openRoute(route) {
  const marker = onScreen.shared();
  closeSession(false);
  if (marker?.role === "guest" && marker.table === route.table && route.via !== "invite") resumeShared(marker);
  else showJoinCard(route);
}

// A link opened in a tab where Taberna is already open changes only the page's fragment; the
// settings panel, if open, closes so that what the link opens is on screen.
function onHashChange() {
  const route = takeRoute();
  if (!route && !app.pendingReplay) return;
  $("settings").open = false;
  if (!app.bridge) app.pendingRoute = route ?? app.pendingRoute;
  else if (route) openRoute(route);
  else openPendingReplay();
}

function openPendingReplay() {
  const payload = app.pendingReplay;
  app.pendingReplay = null;
  openRecord((session) => session.openLink(payload));
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
    settings.set(KEYS.name, name);
    if (app.bridge) joinShared({ via: "room", room: code, pin: null, table: null, seat: null }, name);
  });
  $("friends-name").value = playerName();
  $("net-share-room").addEventListener("click", () => app.session?.shareRoom?.());
  // The games on offer are the lobby's playable ones.
  for (const button of document.querySelectorAll("[data-open]")) {
    const option = document.createElement("option");
    option.value = button.dataset.open;
    option.dataset.i18n = `lobby.${button.dataset.open}.name`;
    option.textContent = t(option.dataset.i18n);
    $("friends-game").append(option);
  }
  const useRelays = $("use-relays");
  useRelays.checked = settings.get(KEYS.useRelays) !== "0";
  useRelays.addEventListener("change", () => settings.set(KEYS.useRelays, useRelays.checked ? "1" : "0"));
  $("friends-check").addEventListener("click", checkConnection);
  const fields = [["relays", KEYS.relays], ["stun", KEYS.stun], ["turn", KEYS.turn], ["turn-user", KEYS.turnUser], ["turn-credential", KEYS.turnCredential]];
  for (const [id, key] of fields) {
    const field = $(id);
    const value = settings.get(key);
    if (value !== null) field.value = value;
    field.addEventListener("change", () => settings.set(key, field.value));
  }
}

// The friends panel's connection check (net/check.js): the brokers reachable from here, and
// whether a direct path is likely, said before anyone is invited.
async function checkConnection() {
  const button = $("friends-check");
  const result = $("friends-check-result");
  const say = (...texts) => {
    result.replaceChildren(...texts.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
    result.hidden = false;
  };
  button.disabled = true;
  say(t("check.running"));
  try {
    const [{ checkConnection: check }, relay] = await Promise.all([import("./net/check.js"), import("./net/relay.js")]);
    const net = netSettings();
    const relays = net.useRelays ? await relay.brokerUrls(net.relays) : [];
    const { brokers, direct } = await check({ relays, iceServers: net.iceServers });
    say(
      net.useRelays ? t(brokers.reachable ? "check.brokers" : "check.brokers_none", brokers) : t(net.roomsOff),
      t(`check.direct_${direct}`),
    );
  } catch (error) {
    say(error.key ? t(error.key) : error.message || String(error));
  } finally {
    button.disabled = false;
  }
}

// --- the engine --------------------------------------------------------------------------------
/** What only a table needs, which the lobby does not wait for: the sessions' code and the
 * tables' stylesheet (the build's tables.css: the games' screens, most of the site's CSS),
 * resolved once it applies. */
async function loadTables() {
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "tables.css" });
  const styled = new Promise((resolve, reject) => {
    link.addEventListener("load", resolve);
    link.addEventListener("error", () => reject(new Error("tables.css did not load")));
  });
  document.head.append(link);
  [app.sessions] = await Promise.all([import("./session.js"), styled]);
}

/** Starts the engine's worker once ``lobbyShown`` has settled (the lobby comes first), then
 * loads the tables while Python starts: their code and styles do not hold up the worker,
 * whose start is the way to a playable engine. The engine is ready only with the tables
 * loaded: every table on screen is painted from the engine's replies, so none paints
 * without its styles. */
async function startEngine(lobbyShown) {
  let bridge;
  try {
    await lobbyShown;
    const { ready } = await startWorker();
    const tables = loadTables();
    tables.catch(() => {}); // a failure is reported once Python has answered (below)
    const worker = await ready;
    // The worker resolves even when its Python failed: a first call proves the bridge is there.
    JSON.parse(await worker.sync.lobby(app.i18n.lang));
    bridge = worker.sync;
    // The raw bridge (JSON strings in and out) for the in-page self-test and benchmarks.
    window.taberna = Object.freeze({ call: (name, ...args) => bridge[name](...args) });
    await tables;
  } catch (error) {
    console.error(error);
    if (await retryFromCache()) return;
    setEngine("error", "engine.error");
    return;
  }
  engineStarted();
  await shelfReady; // a table's session keeps its saves on the shelf from its first reply
  app.bridge = bridge;
  setEngine("ready", "engine.ready");
  performance.mark("engine-ready");
  registerServiceWorker({ t, toast });
  prepareNextStart();
  const current = onScreen.local();
  const marker = onScreen.shared();
  const replay = onScreen.replay();
  if (app.pendingRoute) {
    const route = app.pendingRoute;
    app.pendingRoute = null;
    openRoute(route);
  } else if (app.waitingFor) {
    const gameId = app.waitingFor;
    app.waitingFor = null;
    openGame(gameId);
  } else if (app.pendingReplay) {
    openPendingReplay();
  } else if (replay) {
    startSession(new app.sessions.ReplaySession(page)).resume(replay).then((reply) => reply?.ok || backToLobby());
  } else if (marker?.onScreen) {
    resumeShared(marker);
  } else if (current && app.shelf.get(current)) {
    resume(current);
  }
}

// --- wiring ----------------------------------------------------------------------------------------
// The game screen's buttons: what each asks of the table on app.screen.
const BUTTONS = [
  ["data-act", "act"], ["data-ui", "ui"], ["data-host", "command"], ["data-invite", "invite"], ["data-phrase", "phrase"],
];

function wire() {
  for (const button of document.querySelectorAll("[data-open]")) {
    button.addEventListener("click", () => openGame(button.dataset.open));
  }
  for (const button of document.querySelectorAll("[data-friends]")) {
    button.addEventListener("click", () => openSharedSetup(button.dataset.friends));
  }
  $("back").addEventListener("click", backToLobby);
  $("save-retry").addEventListener("click", () => app.shelf?.retry());
  $("save-go-on").addEventListener("click", () => {
    $("save-go-on").hidden = true;
    app.session?.goOnUnsaved();
  });
  $("engine-reload").addEventListener("click", () => location.reload());
  $("lang").addEventListener("change", async (event) => {
    settings.set(KEYS.lang, event.target.value);
    await loadStrings(event.target.value);
    if (app.bridge && !$("game").hidden) app.session?.render();
  });
  const speed = settings.get(KEYS.speed);
  if (speed in SPEEDS) $("speed").value = speed;
  $("speed").addEventListener("change", (event) => settings.set(KEYS.speed, event.target.value));
  $("sound").checked = app.screen.sounds.enabled;
  $("sound").addEventListener("change", (event) => {
    app.screen.sounds.enabled = event.target.checked;
    settings.set(KEYS.sound, event.target.checked ? "1" : "0");
  });

  const area = $("game-area");
  area.addEventListener("click", (event) => {
    const el = event.target.closest("[data-act], [data-ui], [data-nav], [data-host], [data-invite], [data-phrase], [data-replay], [data-download]");
    if (!el || !area.contains(el) || el.disabled) return;
    event.preventDefault();
    if (el.dataset.nav === "lobby") return backToLobby();
    if (el.dataset.replay) return openReplay(el.dataset.replay);
    if (el.dataset.download) return app.session?.download?.(el.dataset.download);
    const [attribute, method] = BUTTONS.find(([name]) => el.hasAttribute(name)) ?? [];
    if (!attribute || !app.session?.[method]) return;
    const value = el.getAttribute(attribute);
    app.session[method](attribute === "data-invite" ? Number(value) : value);
  });
  // A field that changes what the screen shows (a replay's step slider, its viewer):
  // ``{key: value}``, the value as JSON (pyengine/shell/replay.py).
  area.addEventListener("change", (event) => {
    const field = event.target.closest("[data-ui-key]");
    if (!field || !area.contains(field)) return;
    app.session?.ui(JSON.stringify({ [field.dataset.uiKey]: JSON.parse(field.value) }));
  });
  // A setup form's seat count shows that many seat rows (pyengine/shell/setup.py).
  area.addEventListener("change", (event) => {
    const count = event.target.closest("[data-seat-count]");
    if (!count || !area.contains(count)) return;
    count.form.querySelectorAll(".tb-seat-row").forEach((row, index) => { row.hidden = index >= Number(count.value); });
  });
  area.addEventListener("submit", (event) => {
    const form = event.target.closest('form[data-form="setup"]');
    if (!form) return;
    event.preventDefault();
    if (!app.session) return;
    if (form.dataset.shared === "1") showNetBar(app.session);
    app.session.submit({ game: form.dataset.game, lang: app.i18n.lang, fields: Object.fromEntries(new FormData(form)) });
  });
}

// The saves are read (and those of older versions moved to IndexedDB) while the engine loads.
const shelfReady = SaveShelf.open(onSaveWrite).then(async (shelf) => {
  app.shelf = shelf;
  const legacy = await shelf.migrate(tabFirst);
  if (legacy) onScreen.setLocal(legacy);
  shelf.prune(onScreen.local());
  showSavedGames();
});

// The rest of the set-up in a task of its own (web storage is first read there, which can
// take a while): the page's first tasks stay short.
await nextTask();
wire();
wireImport();
wireYourGames({
  $, t, page, shelf: () => app.shelf, settings, keys: Object.values(KEYS), open: openYourGames, refresh: showSavedGames,
});
app.pendingRoute = takeRoute();
addEventListener("hashchange", onHashChange);
const lobbyShown = loadStrings(app.i18n.pick(settings.get(KEYS.lang)));
lobbyShown.then(wireFriends).catch((error) => console.warn(error));
startEngine(lobbyShown.catch(() => {}));
