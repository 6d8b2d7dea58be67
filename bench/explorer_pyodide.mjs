#!/usr/bin/env node
// Runs bench/explorer_timing.py under Pyodide in Node.js (not a test): the explorer's queries
// and hints in the browser's Python.
//
//   node bench/explorer_pyodide.mjs static/db/explore-3x3.f15 static/db/explore-2x5.f15 static/db/pdb-663.f15 ...
//
// Files are read by Node and handed to Python as bytes (as the worker hands fetched assets to
// fifteen.api.load_asset); Pyodide has no lzma, so give an xz pack decompressed (a plain
// container).  Prints the JSON of explorer_timing.run.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/home/pyodide/fifteen");
for (const name of readdirSync(join(root, "py/fifteen"))) {
  if (name.endsWith(".py")) pyodide.FS.writeFile(`/home/pyodide/fifteen/${name}`, readFileSync(join(root, "py/fifteen", name)));
}
pyodide.FS.writeFile("/home/pyodide/explorer_timing.py", readFileSync(join(here, "explorer_timing.py")));
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
const timing = pyodide.pyimport("explorer_timing");
const read = (path) => {
  const b = readFileSync(resolve(root, path));
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};
console.log(timing.run_json(pyodide.toPy(process.argv.slice(2)), read));
