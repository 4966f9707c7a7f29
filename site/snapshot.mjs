// The snapshot worker: started by the page once the engine is ready (app.js), it makes a
// Pyodide memory snapshot of this build (Python started, the worker's modules imported) and
// stores it for engine.mjs to restore on the next visits, unless one is already stored or
// a stored one failed to restore. Answers "made", "kept" or the error, then is terminated.

import { WARM_IMPORTS, downloadPackages, runtimeOptions, snapshots, writePackages } from "./engine-files.mjs";

async function makeSnapshot() {
  if (!(await snapshots.wanted())) return "kept";
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  const [pyodide, packages] = await Promise.all([
    loadPyodide({ ...runtimeOptions, _makeSnapshot: true }),
    downloadPackages(),
  ]);
  writePackages(pyodide, packages);
  pyodide.runPython(WARM_IMPORTS.map((name) => `import ${name}`).join("\n"));
  await snapshots.save(pyodide.makeMemorySnapshot());
  return "made";
}

makeSnapshot().then(
  (result) => postMessage(result),
  (error) => postMessage(`error: ${error}`),
);
