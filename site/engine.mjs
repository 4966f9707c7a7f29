// The interpreter module of the engine's PyScript worker (PyWorker's `version` points here).
//
// PyScript imports this module in the worker and calls its `loadPyodide`. Pyodide starts
// loading as soon as the module is imported (PyScript would first open its IndexedDB store),
// with the standard library that build.py compiled to bytecode for this very runtime
// (runtime/stdlib.zip replaces Pyodide's python_stdlib.zip), while the worker's packages
// (our wheels with their bytecode, runtime/packages.zip) download beside it; they are
// unpacked into site-packages before PyScript runs worker.py.

import { loadPyodide as loadRuntime, version } from "./pyodide/pyodide.mjs";

export { version };

const here = (path) => new URL(path, import.meta.url).href;
// Where the packages' bytecode was compiled for: filled in by build.py.
const SITE_PACKAGES = "__SITE_PACKAGES__";

async function download(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.arrayBuffer();
}

const packages = download("runtime/packages.zip");
const runtime = loadRuntime({ indexURL: here("pyodide/"), stdLibURL: here("runtime/stdlib.zip") });
// Both are awaited in loadPyodide; until then a failure must not count as unhandled.
packages.catch(() => {});
runtime.catch(() => {});

export async function loadPyodide(options = {}) {
  const pyodide = await runtime;
  if (options.stdout) pyodide.setStdout({ batched: options.stdout });
  if (options.stderr) pyodide.setStderr({ batched: options.stderr });
  pyodide.unpackArchive(new Uint8Array(await packages), "zip", { extractDir: SITE_PACKAGES });
  return pyodide;
}
