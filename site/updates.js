// The service worker's side of the page (sw.js caches every file of one build): offline, new
// versions offered to the player, the runtime taken from the cache when the network failed,
// and the memory snapshot that makes the next start quicker.

// The runtime is fetched from the network while the browser says it is online (see sw.js).
// If that failed and a cached copy exists, the page reloads once with the service worker
// serving it; this tab's flag says that reload has happened.
const RETRY_KEY = "taberna.runtimeRetry";
// Once per build, a while after the engine is up, snapshot.mjs stores a memory snapshot of
// Python started with our modules imported, which the next visits restore (engine.mjs).
const SNAPSHOT_DELAY_MS = 3000;

/** Reloads once into the cached runtime; false when there is none to try (or it was tried). */
export async function retryFromCache() {
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

/** The engine started: a later failure may retry from the cache again. */
export function engineStarted() {
  try { sessionStorage.removeItem(RETRY_KEY); } catch { /* nothing to forget */ }
}

export function prepareNextStart() {
  if (!("caches" in window)) return;
  setTimeout(() => {
    const worker = new Worker("./snapshot.mjs", { type: "module" });
    const done = () => worker.terminate();
    worker.addEventListener("message", done);
    worker.addEventListener("error", done);
  }, SNAPSHOT_DELAY_MS);
}

/** Registers sw.js; a new version is offered with ``toast`` and taken only when accepted. */
export function registerServiceWorker({ t, toast }) {
  if (!("serviceWorker" in navigator)) return;
  let accepted = false; // the player asked for the new version: reload into it
  const offer = (incoming) => toast(t("update.ready"), {
    label: t("update.apply"),
    run: () => {
      accepted = true;
      incoming.postMessage({ type: "skip-waiting" });
    },
  });
  navigator.serviceWorker.register("./sw.js").then((registration) => {
    // A version that finished installing during an earlier visit is still waiting.
    if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
    registration.addEventListener("updatefound", () => {
      const incoming = registration.installing;
      incoming?.addEventListener("statechange", () => {
        if (incoming.state !== "installed") return;
        if (navigator.serviceWorker.controller) offer(incoming);
        else toast(t("offline.ready"));
      });
    });
  }).catch((error) => console.warn("service worker:", error));
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // Only an accepted update swaps a controller that already existed: reload into it.
    if (reloading || !accepted) return;
    reloading = true;
    location.reload();
  });
}
