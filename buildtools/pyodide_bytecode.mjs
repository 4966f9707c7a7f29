// Runs buildtools/pyodide_bytecode.py in Pyodide's own CPython under Node, for build.py.
//
//     node pyodide_bytecode.mjs <folder of pyodide.mjs> <job folder>
//
// The job folder (job.json in, out/ written) is mounted at /job; the script's own errors
// are printed as Python tracebacks and exit with status 1.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [runtimeDir, jobDir] = process.argv.slice(2).map((path) => resolve(path));
const { loadPyodide } = await import(pathToFileURL(join(runtimeDir, "pyodide.mjs")).href);
// No column ranges in code objects (PEP 657): tracebacks keep their lines, the bytecode
// is a quarter smaller.
const pyodide = await loadPyodide({ indexURL: runtimeDir + "/", env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.mkdirTree("/job");
pyodide.mountNodeFS("/job", jobDir);
const script = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "pyodide_bytecode.py"), "utf8");
try {
  pyodide.runPython(script, { filename: "pyodide_bytecode.py" });
} catch (error) {
  process.stderr.write(String(error.message ?? error) + "\n");
  process.exit(1);
}
