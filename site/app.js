// Taberna's main thread: DOM, input, storage and the service worker. Never game rules.
//
// The lobby is static HTML, usable before Python exists. The engine (Pyodide + the pyengine
// wheel) starts in a DOM-free PyScript worker; every bridge call takes and returns JSON
// strings, and every game screen is HTML rendered by Python that this file only inserts.

const root = document.documentElement;
const $ = (id) => document.getElementById(id);
const KEYS = {
  save: "taberna.table",
  inGame: "taberna.inGame",
  lang: "taberna.lang",
  speed: "taberna.speed",
};
const LANGUAGES = ["en", "pt", "es", "ca", "it"];
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

// --- storage that never throws (private modes, full quota) ------------------------------
const store = {
  get(key) {
    try { return localStorage.getItem(key); } catch { return null; }
  },
  set(key, value) {
    try { localStorage.setItem(key, value); } catch { /* the game goes on unsaved */ }
  },
  remove(key) {
    try { localStorage.removeItem(key); } catch { /* nothing to remove */ }
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

function show(response) {
  if (!response.ok) {
    // A refused input changes nothing on screen (the form keeps what was typed): say why.
    toast(response.message || t("game.failed", { reason: "?" }));
    return;
  }
  const area = $("game-area");
  const key = focusKey(document.activeElement);
  if (typeof response.html === "string") area.innerHTML = response.html;
  area.dataset.status = response.status || "";
  if (response.save) {
    // The worker sends the save as JSON text (its 63-bit seed would not survive a JS
    // number): store it verbatim. A reload while a table is on screen comes straight back.
    store.set(KEYS.save, response.save);
    store.set(KEYS.inGame, "1");
  }
  document.title = response.title ? `${response.title} · ${t("app.title")}` : t("app.title");
  toast(response.message || null);
  restoreFocus(key);
  clearTimeout(botTimer);
  if (response.status === "bot") {
    const factor = SPEEDS[store.get(KEYS.speed)] ?? 1;
    botTimer = setTimeout(botStep, Math.round((response.delay_ms || 0) * factor));
  }
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
  run("setup", gameId, lang);
}

function backToLobby() {
  clearTimeout(botTimer);
  waitingFor = null;
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
  if (response && !response.ok) showBrokenSave(response.message, save.game);
}

// A save that does not restore: say so, keep nothing blank, offer a clean start.
function showBrokenSave(message, gameId) {
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
  fresh.addEventListener("click", () => {
    store.remove(KEYS.save);
    if (gameId && document.querySelector(`[data-open="${CSS.escape(gameId)}"]`)) openGame(gameId);
    else backToLobby();
  });
  box.append(fresh);
  area.append(box);
  toast(null);
  fresh.focus();
}

// --- the engine --------------------------------------------------------------------------------
async function startEngine() {
  try {
    const { PyWorker } = await import("./pyscript/core.js");
    const worker = await PyWorker("./worker.py", {
      config: "./worker.json",
      version: new URL("./pyodide/pyodide.mjs", location.href).href,
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
  const save = savedGame();
  if (waitingFor) {
    const gameId = waitingFor;
    waitingFor = null;
    openGame(gameId);
  } else if (save && store.get(KEYS.inGame)) {
    resume();
  }
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
  $("engine-reload").addEventListener("click", () => location.reload());
  $("lang").addEventListener("change", async (event) => {
    store.set(KEYS.lang, event.target.value);
    await loadStrings(event.target.value);
    const status = $("game-area").dataset.status;
    if (!bridge || $("game").hidden || !status) return;
    if (status === "setup") run("setup", setupGame, lang);
    else run("render", lang);
  });
  const speed = store.get(KEYS.speed);
  if (speed in SPEEDS) $("speed").value = speed;
  $("speed").addEventListener("change", (event) => store.set(KEYS.speed, event.target.value));

  const area = $("game-area");
  area.addEventListener("click", (event) => {
    const el = event.target.closest("[data-act], [data-ui], [data-nav]");
    if (!el || !area.contains(el) || el.disabled) return;
    event.preventDefault();
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
    run("start", JSON.stringify({ game: form.dataset.game, lang, fields }), lang);
  });
}

wire();
loadStrings(pickLanguage()).catch((error) => console.warn(error));
startEngine();
