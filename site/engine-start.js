// Starts the engine's PyScript worker as early as the page allows. index.html runs this
// module before app.js (which awaits `engineWorker`), so PyScript's core is imported and the
// worker created without waiting for the page's own script and its set-up.

// engine.mjs loads Pyodide with the build's bytecode and unpacks our packages: the worker
// needs no configuration of its own.
async function startWorker() {
  const { PyWorker } = await import("./pyscript/core.js");
  // Created in a task of its own: PyScript's module evaluation is one already.
  await new Promise((resolve) => setTimeout(resolve));
  return PyWorker("./worker.py", { config: {}, version: new URL("./engine.mjs", location.href).href });
}

// PyScript's worker (its `sync` has the engine's calls); a failure is app.js's to report.
export const engineWorker = startWorker();
engineWorker.catch(() => {});
