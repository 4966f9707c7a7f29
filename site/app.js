// Taberna's main thread: DOM, input, storage and the service worker. Never game rules.
//
// The lobby is static HTML, usable before Python exists. The engine (Pyodide + the pyengine
// wheel) starts in a DOM-free PyScript worker; every bridge call takes and returns JSON
// strings, and every game screen is HTML rendered by Python that this file only inserts.
// A table shared with friends is run by net/driver.js (transports in net/), same screens.

import { SHARED_KEYS, heldElsewhere, lockName, parseRoute, savedField } from "./net/links.js";
import { normalizeRoomCode, showRoomCode } from "./net/roomkey.js";

const root = document.documentElement;
const $ = (id) => document.getElementById(id);
const KEYS = {
  save: "taberna.table",
  inGame: "taberna.inGame",
  lang: "taberna.lang",
  speed: "taberna.speed",
  name: "taberna.name",
  relays: "taberna.relays",
  useRelays: "taberna.useRelays",
  stun: "taberna.stun",
};
// The engine's languages (pyengine/i18n LANGUAGES), written into the settings by the build.
const LANGUAGES = [...$("lang").options].map((option) => option.value);
// Multiplies the bridge's suggested bot delay, so bots play visibly at the player's pace.
const SPEEDS = { relaxed: 1.6, normal: 1, fast: 0.2 };

let lang = "en";
let strings = {};
let bridge = null; // the worker's exported functions, once Python is up
let busy = false; // a bridge call is pending: further clicks are ignored
let botTimer = null;
let waitingFor = null; // a game opened before the engine was ready
let setupGame = null; // the game whose setup form is on screen
let updateAccepted = false; // the player asked for the new version: reload into it
let shared = null; // the SharedTable on screen, if any
let pendingRoute = null; // a join link opened before the engine was ready
let setupShared = false; // the setup form on screen is for a table shared with friends

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
// A shared table's marker and saves: this tab's own copy first (sessionStorage survives a
// reload, and two tabs of one browser at one table must not take each other's seat), then
// the browser's latest (localStorage: back after the app was closed).
const sharedStore = {
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

// --- messages ----------------------------------------------------------------------------
function t(key, params = {}) {
  const template = strings[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

function pickLanguage() {
  const saved = store.get(KEYS.lang);
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).split("-")[0].toLowerCase();
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

async function loadStrings(code) {
  const response = await fetch(`i18n/${code}.json`);
  if (!response.ok) throw new Error(`i18n/${code}.json: ${response.status}`);
  strings = await response.json();
  lang = code;
  root.lang = code;
  for (const el of document.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n, { low: el.dataset.i18nLow, high: el.dataset.i18nHigh });
  }
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
  for (const el of document.querySelectorAll("[data-i18n-aria]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  }
  $("lang").value = code;
  document.title = t("app.title");
  showResumeOffer();
  if (!performance.getEntriesByName("lobby-ready").length) performance.mark("lobby-ready");
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
  if (!inGame) store.remove(KEYS.inGame);
}

function savedGame() {
  const raw = store.get(KEYS.save);
  if (raw === null) return null;
  try {
    const data = JSON.parse(raw);
    return { raw, game: data && typeof data.game === "string" ? data.game : null };
  } catch {
    return { raw, game: null };
  }
}

function showResumeOffer() {
  const save = savedGame();
  $("resume").hidden = !save;
  if (save) {
    const name = save.game ? t(`lobby.${save.game}.name`) : "?";
    $("resume-text").textContent = t("resume.text", { game: name });
  }
  const marker = sharedMarker();
  $("resume-shared").hidden = !marker;
  if (marker) {
    const key = marker.role === "host" ? "friends.resume_host" : "friends.resume_guest";
    $("resume-shared-text").textContent = t(key, { code: marker.table });
  }
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
  document.title = response.title ? `${response.title} · ${t("app.title")}` : t("app.title");
  restoreFocus(key);
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
  if (response.save) {
    // The worker sends the save as JSON text (its 63-bit seed would not survive a JS
    // number): store it verbatim. A reload while a table is on screen comes straight back.
    store.set(KEYS.save, response.save);
    store.set(KEYS.inGame, "1");
  }
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
    toast(t("game.failed", { reason: error.message || String(error) }));
    return false;
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
    $("game-area").innerHTML = "";
    const p = document.createElement("p");
    p.className = "notice";
    p.textContent = t("engine.wait");
    $("game-area").append(p);
    return;
  }
  setupGame = gameId;
  setupShared = false;
  run("setup", gameId, lang);
}

function backToLobby() {
  clearTimeout(botTimer);
  waitingFor = null;
  leaveShared(false);
  showScreen("lobby");
  showResumeOffer();
  document.title = t("app.title");
  $("lobby").focus();
}

async function resume() {
  const save = savedGame();
  if (!save) return backToLobby();
  showScreen("game");
  const response = await run("resume", save.raw, lang);
  if (response && !response.ok) {
    showBrokenSave(response.message, () => {
      store.remove(KEYS.save);
      if (save.game && document.querySelector(`[data-open="${CSS.escape(save.game)}"]`)) openGame(save.game);
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
  call: (name, ...args) => call(name, ...args),
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
  store.remove(KEYS.inGame);
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
  sharedStore.set(SHARED_KEYS.shared, JSON.stringify({ ...marker, onScreen: true }));
  const reply = marker.role === "host"
    ? await table.resumeHost(sharedStore.get(SHARED_KEYS.host))
    : await table.join({
      via: marker.via, table: marker.table, seat: marker.seat, room: marker.room ?? null, pin: marker.pin ?? null, name: playerName(),
    });
  if (reply && !reply.ok) {
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
    const { PyWorker } = await import("./pyscript/core.js");
    // Creating the worker in a task of its own keeps the main thread's tasks short (PyScript's
    // module evaluation is one already).
    await new Promise((resolve) => setTimeout(resolve));
    // engine.mjs loads Pyodide with the build's bytecode and unpacks our packages: the
    // worker needs no configuration of its own.
    const worker = await PyWorker("./worker.py", {
      config: {},
      version: new URL("./engine.mjs", location.href).href,
    });
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
  const save = savedGame();
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
  } else if (save && store.get(KEYS.inGame)) {
    resume();
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
  $("resume-continue").addEventListener("click", () => (bridge ? resume() : openGame(savedGame()?.game)));
  $("resume-discard").addEventListener("click", () => {
    store.remove(KEYS.save);
    showResumeOffer();
  });
  $("resume-shared-continue").addEventListener("click", () => {
    const marker = sharedMarker();
    if (bridge && marker) resumeShared(marker);
  });
  $("resume-shared-discard").addEventListener("click", () => {
    leaveShared(true);
    showResumeOffer();
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

wire();
pendingRoute = takeRoute();
loadStrings(pickLanguage()).then(wireFriends).catch((error) => console.warn(error));
startEngine();
