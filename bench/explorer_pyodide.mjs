#!/usr/bin/env node
// Runs bench/explorer_timing.py under Pyodide in Node.js (not a test): the explorer's queries
// and hints in the browser's Python.
//
//   node bench/explorer_pyodide.mjs static/db/explore-3x3.f15 static/db/explore-2x5.f15 static/db/pdb-663.f15 ...
//
// Files are read by Node and handed to Python as bytes (as the worker hands fetched assets to
// fifteen.api.load_asset); Pyodide has no lzma, so give an xz pack decompressed (a plain
// container).  Prints the JSON of explorer_timing.run.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { benchDir as here, root, startPyodide } from "./pyodide_common.mjs";

const { pyodide } = await startPyodide({ extra: [join(here, "explorer_timing.py")] });
const timing = pyodide.pyimport("explorer_timing");
const read = (path) => {
  const b = readFileSync(resolve(root, path));
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};
console.log(timing.run_json(pyodide.toPy(process.argv.slice(2)), read));
