#!/usr/bin/env node
// Runs Fifteen under Pyodide in Node.js for bench/side_by_side.py (not a test).
//
//   echo '{"instances":[{"id":"1","tiles":[...]}],"bounds":["pdb663"],"limit":60}' \
//     | node bench/pyodide_runner.mjs
//
// The job (JSON on stdin, or a file named as the only argument): instances
// (id, tiles), bounds, limit (seconds per solve, measured inside Python with
// time.perf_counter and enforced through the solver's cancel callable), and
// optionally db (database directory, default static/db), py (the directory
// holding the fifteen package, default py), clock ("cpu", the default: this
// process's CPU time by process.cpuUsage; or "wall": time.perf_counter) and
// warmup (seconds of untimed search per bound first, default 1).
//
// The package's files (py/fifteen/*.py) and bench/measure.py are written into
// Pyodide's file system under /home/pyodide and the databases of the 4x4
// board are registered from their bytes with fifteen.api.load_asset, as the browser
// worker does.  Every result is printed on stdout as one JSON line as
// soon as it is known ({"type":"result", ...}), then {"type":"done"}; the
// start-up costs come first as {"type":"ready", ...}.  Diagnostics go to stderr.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { benchDir as here, loadAssets, pyodideVersion, root, runtimeInfo, startPyodide } from "./pyodide_common.mjs";

function readJob() {
  const arg = process.argv[2];
  const text = arg && arg !== "-" ? readFileSync(arg, "utf8") : readFileSync(0, "utf8");
  return JSON.parse(text);
}

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

async function main() {
  const job = readJob();
  const dbDir = resolve(root, job.db || "static/db");
  const pyDir = resolve(root, job.py || "py");
  const t0 = performance.now();
  const { pyodide, api, loadSeconds } = await startPyodide({ pyDir, extra: [join(here, "measure.py")] });
  const tLoad = t0 + loadSeconds * 1000;
  const loaded = loadAssets(api, dbDir);
  const tAssets = performance.now();
  const info = runtimeInfo(pyodide);
  emit({
    type: "ready",
    pyodide: pyodideVersion,
    node: process.version,
    ...info,
    assets: loaded,
    load_seconds: (tLoad - t0) / 1000,
    assets_seconds: (tAssets - tLoad) / 1000,
  });
  const measure = pyodide.pyimport("measure");
  const time = pyodide.pyimport("time");
  const limit = Number(job.limit ?? 60);
  // The clock of the limit and of "seconds": this process's CPU time (default;
  // comparable with the native CPU seconds on a loaded machine) or "wall"
  // (time.perf_counter in Python).  Both are always reported ("node_cpu", "wall").
  const cpuClock = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const clock = job.clock === "wall" ? time.perf_counter : cpuClock;
  const warm = Number(job.warmup ?? 1);
  for (const bound of job.bounds || ["pdb663"]) {
    if (warm > 0) measure.warm_up.callKwargs(bound, warm, { clock });
    for (const inst of job.instances) {
      let res;
      try {
        const c0 = cpuClock();
        const r = measure.solve_timed.callKwargs(pyodide.toPy(inst.tiles), bound, limit, { clock });
        const c1 = cpuClock();
        res = r.toJs({ dict_converter: Object.fromEntries, create_proxies: false });
        r.destroy();
        res.node_cpu = c1 - c0;
        res.clock = job.clock === "wall" ? "wall" : "cpu";
      } catch (err) {
        res = { bound, error: String(err && err.message ? err.message.split("\n").slice(-2).join(" ") : err) };
      }
      emit({ type: "result", id: inst.id, ...res });
    }
  }
  emit({ type: "done", total_seconds: (performance.now() - t0) / 1000 });
}

main().catch((err) => {
  process.stderr.write(`pyodide_runner: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
