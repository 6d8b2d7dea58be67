#!/usr/bin/env node
// bench/bigboards.py's speed workloads, or its lengths, under Pyodide in Node.js: bench/anytime.md's
// Pyodide figures.
//
//   node bench/bigboards_pyodide.mjs [SIDES]      (default 5,6,7: the speeds)
//   node bench/bigboards_pyodide.mjs --lengths SIDES COUNT LIMIT [MARKS]
//       (DeepCubeA's first COUNT positions per board, LIMIT CPU seconds each, the best length at
//       each mark (default 1,10,60,120): one JSON line per position, answers replayed in Python)
//
// The package (py/fifteen) and bench/bigboards.py are copied into Pyodide's file system with
// DeepCubeA's test positions (bench/data/deepcubea-test.tsv); the 4x4 databases are registered as
// the page's worker does (pyodide_common.mjs) and the 5x5 one (pdb-55554.f15) as the worker does
// for a 5x5 board.  One JSON line per board: the same workloads and fields as
// `bigboards.py --speed`, timed with this process's CPU time.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadAssets, pyodideVersion, root, startPyodide } from "./pyodide_common.mjs";

const lengths = process.argv[2] === "--lengths";
const args = process.argv.slice(lengths ? 3 : 2);
const sides = (args[0] ?? "5,6,7").split(",").map(Number);
const { pyodide, api } = await startPyodide({ extra: [join(root, "bench/bigboards.py")] });
loadAssets(api, join(root, "static/db"), ["4x4", "5x5"]); // and the 5x5 prover's tables, as the page loads them for a 5x5
// bigboards.py reads its positions from ../bench/data next to its own directory
pyodide.FS.mkdirTree("/home/bench/data");
pyodide.FS.writeFile("/home/bench/data/deepcubea-test.tsv", readFileSync(join(root, "bench/data/deepcubea-test.tsv")));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
console.log(JSON.stringify({ type: "ready", pyodide: pyodideVersion, node: process.version }));
if (lengths) {
  const [count, limit, marks] = [Number(args[1] ?? 3), Number(args[2] ?? 120), args[3] ?? "1,10,60,120"];
  const run = pyodide.runPython(`
import json, bigboards
def run(sides, count, limit, marks, clock):
    marks = [m for m in (float(x) for x in marks.split(",")) if m <= limit]
    for ident, board, dca, opt in bigboards.positions("deepcubea", list(sides), count):
        res, cpu, found = bigboards.run_one(ident, board, opt, limit, marks, clock)
        yield json.dumps({"id": ident, "deepcubea": dca, "optimum": opt, "marks": marks, "lengths": found,
                          "lower_bound": res.lower_bound, "cpu": round(cpu, 1)})
run`);
  for (const line of run(pyodide.toPy(sides), count, limit, marks, cpu)) console.log(line);
} else {
  const speed = pyodide.runPython("import json, bigboards\nlambda side, clock: json.dumps(bigboards.speed(side, clock))");
  for (const side of sides) console.log(speed(side, cpu));
}
