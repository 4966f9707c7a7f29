// Starts the engine's PyScript worker, once app.js has the lobby usable: PyScript's core
// module is evaluated on the main thread and the worker created there, work that would
// otherwise come before the lobby's own on a slow phone. The build preloads the core, so
// it is compiled and waiting by then; the worker's downloads start the moment it exists.

// engine.mjs loads Pyodide with the build's bytecode and unpacks our packages: the worker
// needs no configuration of its own. Resolves once the worker is created, to `{ready}`:
// PyScript's promise of the worker once its Python is up (the worker itself), so that the
// caller can do other work while Python starts.
export async function startWorker() {
  const { PyWorker } = await import("./pyscript/core.js");
  // Created in a task of its own: PyScript's module evaluation is one already.
  await new Promise((resolve) => setTimeout(resolve));
  performance.mark("engine-start");
  return { ready: PyWorker("./worker.py", { config: {}, version: new URL("./engine.mjs", location.href).href }) };
}
