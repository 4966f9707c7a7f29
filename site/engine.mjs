// The interpreter module of the engine's PyScript worker (PyWorker's `version` points here).
//
// PyScript imports this module in the worker and calls its `loadPyodide`. Pyodide starts
// loading as soon as the module is imported (PyScript would first open its IndexedDB store),
// with the standard library compiled to bytecode by build.py, while the worker's packages
// download and unpack beside it; they are written into site-packages before PyScript runs
// worker.py. From the second visit on, Pyodide restores the memory snapshot snapshot.mjs
// made (Python started, our modules imported) instead of starting Python again; a snapshot
// that does not restore falls back to a normal start.

import { loadPyodide as loadRuntime, version } from "./pyodide/pyodide.mjs";
import { downloadPackages, runtimeOptions, snapshots, writePackages } from "./engine-files.mjs";

export { version };

async function startRuntime() {
  const snapshot = await snapshots.find().catch(() => null);
  if (!snapshot) return loadRuntime(runtimeOptions);
  try {
    const pyodide = await loadRuntime({ ...runtimeOptions, _loadSnapshot: snapshot.bytes });
    // The snapshot froze the state of Python's random module: seed it from the system.
    pyodide.runPython("import random; random.seed()");
    console.info("engine: started from the memory snapshot");
    return pyodide;
  } catch (error) {
    console.warn("engine: the memory snapshot did not restore", error);
    const pyodide = await loadRuntime(runtimeOptions); // if this fails too, the network did
    snapshots.failed().catch(() => {});
    return pyodide;
  }
}

const packages = downloadPackages();
const runtime = startRuntime();
// Both are awaited in loadPyodide; until then a failure must not count as unhandled.
packages.catch(() => {});
runtime.catch(() => {});

export async function loadPyodide(options = {}) {
  const pyodide = await runtime;
  if (options.stdout) pyodide.setStdout({ batched: options.stdout });
  if (options.stderr) pyodide.setStderr({ batched: options.stderr });
  writePackages(pyodide, await packages);
  // libsodium for fair card tables, imported when worker.py's card_group first asks.
  pyodide.registerJsModule("card_group_js", { load: () => import("./card-group.mjs") });
  return pyodide;
}
