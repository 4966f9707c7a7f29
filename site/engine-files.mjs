// What the engine worker (engine.mjs) and the snapshot worker (snapshot.mjs) share: where
// the runtime's files are, the worker's packages, and the stored memory snapshot.
// build.py fills in the names in capitals.

const here = (path) => new URL(path, import.meta.url).href;

// Where the packages' bytecode was compiled for.
const SITE_PACKAGES = "__SITE_PACKAGES__";
// The modules the worker script imports from our packages (a snapshot imports them ahead).
export const WARM_IMPORTS = __WARM_IMPORTS__;
// Hash of everything a snapshot depends on: runtime, bytecode, packages, these modules.
const SNAPSHOT_KEY = "__SNAPSHOT_KEY__";

// Pyodide with the standard library compiled to bytecode by build.py for this very runtime.
export const runtimeOptions = { indexURL: here("pyodide/"), stdLibURL: here("runtime/stdlib.zip") };

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

// Our wheels' files with their bytecode (runtime/packages.tar.gz), unpacked by the browser.
export async function downloadPackages() {
  const response = await fetch(here("runtime/packages.tar.gz"));
  if (!response.ok) throw new Error(`runtime/packages.tar.gz: ${response.status}`);
  return unpackPackages(new Uint8Array(await response.arrayBuffer()));
}

// {files: [[path, bytes]…]}, or {gzip: bytes} for Python to unpack where the browser has
// no DecompressionStream (Safari before 16.4). A host may already have undone the gzip
// (Content-Encoding): then the tar is plain.
export async function unpackPackages(bytes) {
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (gzipped && typeof DecompressionStream !== "function") return { gzip: bytes };
  if (gzipped) {
    const plain = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(plain).arrayBuffer());
  }
  return { files: [...tarFiles(bytes)] };
}

export function writePackages(pyodide, packages) {
  if (packages.gzip) {
    pyodide.unpackArchive(packages.gzip, "gztar", { extractDir: SITE_PACKAGES });
  } else {
    const { FS } = pyodide;
    for (const [name, data] of packages.files) {
      const path = `${SITE_PACKAGES}/${name}`;
      FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      FS.writeFile(path, data);
    }
  }
  // The import system may have listed site-packages before the files were there (not
  // importlib.invalidate_caches(): it imports importlib.metadata, ≈ 0.3 s of compiling).
  pyodide.runPython(`import sys; sys.path_importer_cache.pop(${JSON.stringify(SITE_PACKAGES)}, None)`);
}

// A Pyodide memory snapshot of this build, kept in Cache Storage (not in a "taberna-" cache:
// the service worker deletes those on updates). Made after a first visit by snapshot.mjs;
// a snapshot that fails to restore is marked so it is not made again for this build.
const SNAPSHOT_CACHE = "pyodide-snapshot";
const SNAPSHOT_PREFIX = here("runtime/snapshot-");
const snapshotURL = `${SNAPSHOT_PREFIX}${SNAPSHOT_KEY}`;
const failedURL = `${snapshotURL}-failed`;
const openSnapshots = () => (globalThis.caches ? caches.open(SNAPSHOT_CACHE) : Promise.resolve(null));

export const snapshots = {
  // The stored snapshot's bytes, still being read (Pyodide fetches and compiles its
  // WebAssembly meanwhile), or null when there is none.
  async find() {
    const hit = await (await openSnapshots())?.match(snapshotURL);
    return hit ? { bytes: hit.arrayBuffer() } : null;
  },
  async wanted() {
    const cache = await openSnapshots();
    return Boolean(cache) && !(await cache.match(snapshotURL)) && !(await cache.match(failedURL));
  },
  async save(bytes) {
    const cache = await openSnapshots();
    for (const request of await cache.keys()) {
      if (request.url.startsWith(SNAPSHOT_PREFIX)) await cache.delete(request); // older builds'
    }
    await cache.put(snapshotURL, new Response(bytes));
  },
  async failed() {
    const cache = await openSnapshots();
    await cache.delete(snapshotURL);
    await cache.put(failedURL, new Response(""));
  },
};
