// The interpreter module of the engine's PyScript worker (PyWorker's `version` points here).
//
// PyScript imports this module in the worker and calls its `loadPyodide`. Pyodide starts
// loading as soon as the module is imported (PyScript would first open its IndexedDB store),
// with the standard library that build.py compiled to bytecode for this very runtime
// (runtime/stdlib.zip replaces Pyodide's python_stdlib.zip), while the worker's packages
// (our wheels' files with their bytecode, runtime/packages.tar.gz) download and unpack
// beside it; they are written into site-packages before PyScript runs worker.py.

import { loadPyodide as loadRuntime, version } from "./pyodide/pyodide.mjs";

export { version };

const here = (path) => new URL(path, import.meta.url).href;
// Where the packages' bytecode was compiled for: filled in by build.py.
const SITE_PACKAGES = "__SITE_PACKAGES__";

// [path, bytes] of every file in an uncompressed ustar archive.
function* tarFiles(bytes) {
  const decoder = new TextDecoder();
  const field = (at, length) => decoder.decode(bytes.subarray(at, at + length)).split("\0")[0];
  for (let at = 0; at + 512 <= bytes.length && bytes[at] !== 0; ) {
    const size = parseInt(field(at + 124, 12).trim() || "0", 8);
    const prefix = field(at + 345, 155);
    const name = prefix ? `${prefix}/${field(at, 100)}` : field(at, 100);
    const type = field(at + 156, 1);
    if (type === "0" || type === "") yield [name, bytes.subarray(at + 512, at + 512 + size)];
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

async function downloadPackages() {
  const response = await fetch(here("runtime/packages.tar.gz"));
  if (!response.ok) throw new Error(`runtime/packages.tar.gz: ${response.status}`);
  let bytes = new Uint8Array(await response.arrayBuffer());
  // A host may already have undone the gzip (Content-Encoding): then the tar is plain.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const plain = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(plain).arrayBuffer());
  }
  return [...tarFiles(bytes)];
}

const packages = downloadPackages();
const runtime = loadRuntime({ indexURL: here("pyodide/"), stdLibURL: here("runtime/stdlib.zip") });
// Both are awaited in loadPyodide; until then a failure must not count as unhandled.
packages.catch(() => {});
runtime.catch(() => {});

export async function loadPyodide(options = {}) {
  const pyodide = await runtime;
  if (options.stdout) pyodide.setStdout({ batched: options.stdout });
  if (options.stderr) pyodide.setStderr({ batched: options.stderr });
  const { FS } = pyodide;
  for (const [name, data] of await packages) {
    const path = `${SITE_PACKAGES}/${name}`;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, data);
  }
  // The import system may have listed site-packages before the files were there (not
  // importlib.invalidate_caches(): it imports importlib.metadata, ≈ 0.3 s of compiling).
  pyodide.runPython(`import sys; sys.path_importer_cache.pop(${JSON.stringify(SITE_PACKAGES)}, None)`);
  return pyodide;
}
