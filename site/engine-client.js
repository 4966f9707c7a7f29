// The page's side of the engine: starts the engine's worker (engine-worker.mjs) and offers
// its calls. index.html loads this module on its own, ahead of app.js (which imports it), so
// Python starts downloading as soon as the page's first script can run.
//
// ``engineCalls.name(...args)`` posts the call and resolves with the worker's answer (JSON
// text), or rejects with its error; if the worker itself fails (a script that cannot load),
// every call, waiting or to come, rejects.

function startEngineWorker() {
  const url = new URL("./engine-worker.mjs", import.meta.url).href;
  // Started from a blob, so that the worker runs under this page's Content-Security-Policy.
  const entry = URL.createObjectURL(new Blob([`import ${JSON.stringify(url)};\n`], { type: "text/javascript" }));
  const worker = new Worker(entry, { type: "module", name: "engine" });
  const waiting = new Map();
  let nextId = 0;
  let failure = null;
  worker.addEventListener("message", ({ data }) => {
    const call = waiting.get(data.id);
    waiting.delete(data.id);
    if ("error" in data) call?.reject(new Error(data.error));
    else call?.resolve(data.result);
  });
  worker.addEventListener("error", (event) => {
    failure = new Error(event.message || "the engine's worker failed");
    for (const call of waiting.values()) call.reject(failure);
    waiting.clear();
  });
  const send = (name, args) => new Promise((resolve, reject) => {
    if (failure) {
      reject(failure);
      return;
    }
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, name, args });
  });
  // Not a thenable: the calls object may be awaited or returned from async functions.
  return new Proxy({}, { get: (_, name) => (name === "then" ? undefined : (...args) => send(name, args)) });
}

export const engineCalls = startEngineWorker();
