#!/usr/bin/env node
// bench/bigboards.py's speed workloads under Pyodide in Node.js: bench/anytime.md's Pyodide speeds.
//
//   node bench/bigboards_pyodide.mjs [SIDES]      (default 5,6,7)
//
// The package (py/fifteen) and bench/bigboards.py are copied into Pyodide's file system with
// DeepCubeA's test positions (bench/data/deepcubea-test.tsv); the 4x4 databases are registered as
// the page's worker does (pyodide_common.mjs) and the 5x5 one (pdb-55554.f15) as the worker does
// for a 5x5 board.  One JSON line per board: the same workloads and fields as
// `bigboards.py --speed`, timed with this process's CPU time.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadAsset, loadAssets, pyodideVersion, root, startPyodide } from "./pyodide_common.mjs";

const sides = (process.argv[2] ?? "5,6,7").split(",").map(Number);
const { pyodide, api } = await startPyodide({ extra: [join(root, "bench/bigboards.py")] });
loadAssets(api, join(root, "static/db"));
loadAsset(api, "pdb-55554.f15", readFileSync(join(root, "static/db/pdb-55554.f15")));
// bigboards.py reads its positions from ../bench/data next to its own directory
pyodide.FS.mkdirTree("/home/bench/data");
pyodide.FS.writeFile("/home/bench/data/deepcubea-test.tsv", readFileSync(join(root, "bench/data/deepcubea-test.tsv")));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const speed = pyodide.runPython("import json, bigboards\nlambda side, clock: json.dumps(bigboards.speed(side, clock))");
console.log(JSON.stringify({ type: "ready", pyodide: pyodideVersion, node: process.version }));
for (const side of sides) console.log(speed(side, cpu));
