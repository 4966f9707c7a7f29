// Taberna's service worker: cache-first for every file of one build, so after one visit the
// site works offline. build.py fills in VERSION and PRECACHE (path -> sha256 of the content).
//
// Clean updates: each build has its own cache (named after the hash of the whole list).
// A new worker installs beside the old one, checks every file against its hash (so a stale
// HTTP cache can never slip an old file into a new version), reuses unchanged files from the
// old cache instead of downloading them again, and waits until the page asks it to take over.

const VERSION = "__VERSION__";
const PRECACHE = __PRECACHE__;
const CACHE = `taberna-${VERSION}`;
const HASH_HEADER = "x-taberna-sha256";
const SCOPE = self.registration.scope;

async function sha256(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function stamped(body, response, hash) {
  const headers = new Headers(response.headers);
  headers.set(HASH_HEADER, hash);
  return new Response(body, { status: 200, statusText: "OK", headers });
}

async function reuse(url, hash) {
  const old = await caches.match(url);
  return old && old.headers.get(HASH_HEADER) === hash ? old : null;
}

async function download(url, hash) {
  // "no-cache" revalidates with the server; "reload" skips every cache on the way.
  for (const mode of ["no-cache", "reload"]) {
    const response = await fetch(url, { cache: mode });
    if (!response.ok) continue;
    const body = await response.arrayBuffer();
    if ((await sha256(body)) === hash) return stamped(body, response, hash);
  }
  throw new Error(`${url} does not match build ${VERSION}`);
}

async function precache() {
  const cache = await caches.open(CACHE);
  const queue = Object.entries(PRECACHE);
  const workers = Array.from({ length: 6 }, async () => {
    while (queue.length) {
      const [path, hash] = queue.shift();
      const url = new URL(path, SCOPE).href;
      if (await cache.match(url)) continue;
      await cache.put(url, (await reuse(url, hash)) || (await download(url, hash)));
    }
  });
  await Promise.all(workers);
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("taberna-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// Set by a page whose engine failed to load while "online" (a captive portal, a flaky
// link): until this worker stops, Pyodide's runtime comes from the cache too.
let runtimeFromCache = false;

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "skip-waiting") self.skipWaiting();
  if (type === "runtime-from-cache") {
    runtimeFromCache = true;
    event.ports[0]?.postMessage("ok");
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  let path = request.url.slice(SCOPE.length).split(/[?#]/)[0];
  if (path === "") path = "index.html";
  if (!(path in PRECACHE)) return;
  // While online, Pyodide's runtime goes to the network (the HTTP cache answers): Chromium
  // keeps compiled WebAssembly only for responses that did not pass through a service worker,
  // and recompiling the 9.6 MB module costs seconds on every visit. Offline, the cache serves.
  if (path.startsWith("pyodide/") && self.navigator.onLine && !runtimeFromCache) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(new URL(path, SCOPE).href))
      .then((hit) => hit || fetch(request)),
  );
});
