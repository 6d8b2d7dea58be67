#!/usr/bin/env node
// The anytime search (fifteen.anytime) under Pyodide in Node.js: bench/anytime.md's Pyodide figures.
//
//   node bench/anytime_pyodide.mjs [LIMIT]      (seconds of this process's CPU time per instance, default 10)
//
// The package (py/fifteen) is copied into Pyodide's file system and the 4x4 databases and the
// 5x5's 5-5-5-5-4 tables registered as the page's worker does (pyodide_common.mjs).  For Korf and Taylor's ten 24-puzzle instances
// (bench/data/korf-taylor-24.tsv) and seeded random 6x6, 8x8, 10x10 positions (the seeds of
// bench/anytime.py), one JSON line each: the first solution's length and CPU seconds, the best
// length at 1, 2, 10, 20, 60 and 120 s (those below the limit) and its length and lower bound at the
// limit, every answer replayed to the goal in Python.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadAssets, pyodideVersion, root, startPyodide } from "./pyodide_common.mjs";

const limit = Number(process.argv[2] ?? 10);
const { pyodide, api } = await startPyodide({ extra: [join(root, "bench/anytime.py")] });
loadAssets(api, join(root, "static/db"), ["4x4", "5x5"]); // and the 5x5 prover's tables, as the page loads them for a 5x5
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
pyodide.runPython(`
import json
from fifteen.anytime import anytime_solve
from fifteen.board import Board
from anytime import random_board  # bench/anytime.py's positions

def run(ident, board, optimum, limit, clock):
    c0 = clock()
    first = []
    res = anytime_solve(board, time_limit=limit, clock=clock, progress=lambda imp: first or first.append(clock() - c0))
    assert board.solves(res.tiles)
    if optimum:
        assert res.lower_bound <= optimum <= res.length
    def at(seconds):
        found = [imp for imp in res.improvements if imp.seconds <= seconds]
        return found[-1].length if found else None
    marks = {f"at_{s}s": at(s) for s in (1, 2, 10, 20, 60, 120) if s < limit}
    return json.dumps({"id": ident, "optimum": optimum, "first": res.improvements[0].length, "first_cpu": round(first[0], 3),
        **marks, "length": res.length, "lower_bound": res.lower_bound, "stopped": res.stopped})
`);
const run = pyodide.globals.get("run");
const parse = pyodide.runPython("lambda text: Board.parse(text)");
const randomBoard = pyodide.globals.get("random_board");
console.log(JSON.stringify({ type: "ready", pyodide: pyodideVersion, node: process.version, limit }));
for (const line of readFileSync(join(root, "bench/data/korf-taylor-24.tsv"), "utf8").split("\n")) {
  if (!line.trim() || line.startsWith("#")) continue;
  const [id, tiles, optimum] = line.split("\t");
  console.log(run(`KT${id}`, parse(tiles), Number(optimum), limit, cpu));
}
for (const size of [6, 8, 10]) {
  for (const seed of [1, 2, 3]) console.log(run(`${size}x${size} seed ${seed}`, randomBoard(size, seed), null, Math.min(limit, 5), cpu));
}
