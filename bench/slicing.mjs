#!/usr/bin/env node
// Time slices in Pyodide (bench/slicing.md; not a test): what running a search in slices costs, and
// how long the worker may go without returning to its event loop (the page's Stop waits that long).
//
//   node bench/slicing.mjs                          # Korf's 100 with pdb771, 3 rounds
//   node bench/slicing.mjs --ids 1-20 --bound pdb663 --rounds 2
//   node bench/slicing.mjs --baseline /path/to/other/py   # also: the same calls with that package
//
// For each round and instance, in one Node process (Pyodide in Node.js, the 4x4 databases loaded
// from static/db as the page's worker loads them):
//   * whole:   fifteen.api.call("solve", ...) in one go (the native path's loops: nothing pauses);
//   * sliced:  fifteen.api.begin(...), then step(...) until the reply is not pending, with a turn of
//              Node's event loop between two (setImmediate, as the worker's MessageChannel post),
//              slices of fifteen.api.SLICE_SECONDS;
//   * baseline (with --baseline DIR): api.call with the package of DIR (e.g. a checkout before
//              slices: `git archive <commit> py | tar -x -C /tmp/base`), for the loops' own cost.
// The runs alternate (whole, sliced, baseline, whole, ...) so that a loaded machine's changes of
// speed fall on all alike; times are this process's CPU seconds (process.cpuUsage).  Printed: the
// nodes (equal in every column: checked), CPU seconds and microseconds per node of each, the
// slices made, and how long each call into Python took while sliced, in wall and CPU time (the
// wait of a Stop on the Python side; on a loaded machine the wall time includes the waits for a
// core, the CPU time does not).
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { loadAssets, readInstances, root, runtimeInfo, startPyodide } from "./pyodide_common.mjs";

function parseArgs(argv) {
  const args = { ids: "1-100", bound: "pdb771", rounds: 3, baseline: null };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in args)) throw new Error(`unknown option ${argv[i]}`);
    args[key] = argv[++i];
  }
  args.rounds = Number(args.rounds);
  return args;
}

function idList(spec) {
  return spec.split(",").flatMap((part) => {
    const [a, b] = part.split("-").map(Number);
    return b ? Array.from({ length: b - a + 1 }, (_, k) => String(a + k)) : [String(a)];
  });
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const turn = () => new Promise((r) => setImmediate(r));

function whole(api, params) {
  const reply = JSON.parse(api.call("solve", JSON.stringify(params)));
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.result;
}

/** One call into Python: its reply, its wall and CPU milliseconds recorded in `calls`. */
function timed(calls, call) {
  const t = performance.now();
  const c = cpu();
  const reply = JSON.parse(call());
  calls.wall.push(performance.now() - t);
  calls.cpu.push((cpu() - c) * 1000);
  return reply;
}

async function sliced(api, params, calls) {
  let reply = timed(calls, () => api.begin("solve", JSON.stringify(params)));
  let slices = 1;
  while (reply.pending) {
    await turn();
    reply = timed(calls, () => api.step(reply.pending));
    slices++;
  }
  if (!reply.ok) throw new Error(reply.error.message);
  return { result: reply.result, slices };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const instances = readInstances(join(root, "data/korf100.tsv"));
  const ids = idList(args.ids).filter((id) => instances.has(id));
  const dbDir = resolve(root, "static/db");
  const sides = { whole: null, sliced: null, baseline: null };
  const current = await startPyodide({ pyDir: join(root, "py") });
  loadAssets(current.api, dbDir);
  sides.whole = sides.sliced = current.api;
  if (args.baseline) {
    const base = await startPyodide({ pyDir: resolve(args.baseline) });
    loadAssets(base.api, dbDir);
    sides.baseline = base.api;
  }
  const info = runtimeInfo(current.pyodide);
  const slice = Number(current.pyodide.runPython("import fifteen.api; fifteen.api.SLICE_SECONDS"));
  console.log(`Pyodide (Python ${info.python}) in Node ${process.version}; ${ids.length} instances, ${args.bound}, ${args.rounds} rounds, slices of ${slice * 1000} ms`);
  const names = Object.keys(sides).filter((k) => sides[k]);
  const total = Object.fromEntries(names.map((k) => [k, { seconds: 0, nodes: 0 }]));
  let slices = 0;
  const calls = { wall: [], cpu: [] };
  for (const params of ids.map((id) => ({ tiles: instances.get(id).tiles, shape: "4x4", bound: args.bound }))) {
    whole(current.api, params); // warm: its tables built, its code run once
    if (sides.baseline) whole(sides.baseline, params);
    break;
  }
  for (let round = 0; round < args.rounds; round++) {
    for (const id of ids) {
      const params = { tiles: instances.get(id).tiles, shape: "4x4", bound: args.bound };
      let nodes = null;
      for (const name of names) {
        const c0 = cpu();
        const result = name === "sliced" ? await sliced(sides.sliced, params, calls) : { result: whole(sides[name], params) };
        total[name].seconds += cpu() - c0;
        total[name].nodes += result.result.nodes;
        if (name === "sliced") slices += result.slices;
        if (nodes !== null && nodes !== result.result.nodes) throw new Error(`#${id}: ${name} expanded ${result.result.nodes} nodes, not ${nodes}`);
        nodes = result.result.nodes;
      }
    }
  }
  for (const name of names) {
    const { seconds, nodes } = total[name];
    console.log(`${name.padEnd(9)} ${nodes.toLocaleString("en").padStart(13)} nodes  ${seconds.toFixed(2).padStart(8)} s  ${((seconds / nodes) * 1e6).toFixed(3)} µs/node`);
  }
  const spread = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(1);
    return `median ${at(0.5)} ms, 99th percentile ${at(0.99)} ms, longest ${at(1)} ms`;
  };
  console.log(`sliced: ${slices.toLocaleString("en")} slices; each call into Python: wall ${spread(calls.wall)}; CPU ${spread(calls.cpu)}`);
  if (total.baseline) {
    const ratio = (a, b) => ((total[a].seconds / total[b].seconds - 1) * 100).toFixed(1);
    console.log(`whole vs baseline: ${ratio("whole", "baseline")} %; sliced vs whole: ${ratio("sliced", "whole")} %`);
  } else {
    console.log(`sliced vs whole: ${((total.sliced.seconds / total.whole.seconds - 1) * 100).toFixed(1)} %`);
  }
}

main().catch((err) => {
  process.stderr.write(`slicing: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
