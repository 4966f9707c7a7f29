// The engine's worker: Python (engine.mjs: Pyodide, our packages, the memory snapshot) runs
// worker.py, which puts every call of the shell on `taberna_bridge.calls`; the page's
// messages {id, name, args} are answered {id, result} or {id, error}. Calls are handled one
// at a time, in the order they came (each is a synchronous Python call).
//
// The page starts this worker directly, with nothing of its own to evaluate first (no
// PyScript on the main thread): the runtime starts downloading as soon as the page's script
// runs, and the page's main thread never holds a long task for the engine.

import { loadPyodide } from "./engine.mjs";

const calls = {};
const script = fetch(new URL("./worker.py", import.meta.url)).then((response) => {
  if (!response.ok) throw new Error(`worker.py: ${response.status}`);
  return response.text();
});

const ready = (async () => {
  const pyodide = await loadPyodide();
  pyodide.registerJsModule("taberna_bridge", { calls });
  pyodide.runPython(await script, { filename: "worker.py" });
})();
ready.catch(() => {}); // reported to every call that waits for it

self.addEventListener("message", async ({ data: { id, name, args } }) => {
  try {
    await ready;
    if (!Object.hasOwn(calls, name)) throw new Error(`the engine has no call named ${name}`);
    postMessage({ id, result: calls[name](...args) });
  } catch (error) {
    postMessage({ id, error: String(error?.message ?? error) });
  }
});
