#!/usr/bin/env node
// The page's pool of solver workers, in Node.js: 1 vs N Pyodide workers
// (worker_threads) side by side on the same positions (not a test).
//
//   node bench/pyodide_pool_bench.mjs --korf 15 88 --workers 1 2
//   node bench/pyodide_pool_bench.mjs --hard H01 --bound pdb78 --pack --workers 1 2
//
// Each worker is a thread with its own Pyodide, the fifteen package of py/ and
// the 4x4 databases of static/db registered through fifteen.api.load_asset
// (bench/pyodide_common.mjs, as pyodide_runner.mjs), and with --pack the 7-8
// pack: decompressed once here (`xz -dc`) into a SharedArrayBuffer, copied by
// each worker into a bytearray of its Python (~290 MB per worker), as the page's
// worker does with the kept copy.  Every worker then solves a one-move position
// with the bound (untimed: the per-shape tables), then reports ready.
//
// The workers are started once, max(--workers) of them, and reused by every
// variant: N workers = workers 1..N.  Per position, for each N in --workers:
//   N = 1: the plain serial fifteen.api.call("solve") on worker 1 (what the page
//          does with one worker); with --pool-1 also the pool's protocol with 1.
//   N > 1: the pool's protocol as static/js/solver/pool.js drives it:
//          parallel_begin on worker 1 (the scheduler lives there), each
//          iteration's bundles handed in order (largest first, as the scheduler
//          lists them) to whichever worker is free (worker 1 included) with
//          parallel_tasks, parallel_step with every outcome when the iteration
//          ends without a solution, and at the first solution the other workers'
//          bundles are stopped through their interrupt buffers (as on a
//          cross-origin isolated page: no restart; their results are ignored),
//          parallel_result on the worker that found it, then parallel_drop.
// `wall` = seconds from the first call to the answer (parallel_result's or
// solve's reply); `cpu` = this process's CPU seconds (all threads) over the same
// span.  One JSON line per (position, variant) on stdout, then a table of the
// speed-ups (the serial 1-worker wall over the N-worker wall); every length is
// checked against the tsv's optimum (exit status 1 if one differs or fails).
//
// Options: --workers N... (default 1 2), --korf ID... and --hard ID... (ids of
// data/korf100.tsv and hard.tsv; default --korf 15 88), --bound
// pdb663|pdb78|auto|... (default pdb663), --pack (load the 7-8 pack), --pool-1,
// --limit S (per solve, default 170: the workers are interrupted), --db DIR
// (default static/db), --no-progress (no progress callable: the page passes one).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import {
  loadAssets,
  loadPack,
  pyodideVersion,
  readInstances,
  root,
  runtimeInfo,
  startPyodide,
} from "./pyodide_common.mjs";

const SIGINT = 2; // static/js/solver/protocol.js: written into the interrupt buffer to stop Python
const SHAPE = "4x4";

// ---------------------------------------------------------------- the worker thread
async function workerMain() {
  const { db, pack, interrupt, bound, index } = workerData;
  const t0 = performance.now();
  const { pyodide, api, loadSeconds } = await startPyodide();
  const flag = new Int32Array(interrupt);
  pyodide.setInterruptBuffer(flag);
  const tAssets = performance.now();
  loadAssets(api, db);
  const assetsSeconds = (performance.now() - tAssets) / 1000;
  let packSeconds = 0;
  if (pack) {
    const tPack = performance.now();
    loadPack(api, pack.name, new Uint8Array(pack.buffer));
    packSeconds = (performance.now() - tPack) / 1000;
  }
  // Warm up as the page does for a helper: a one-move search with the bound (per-shape tables).
  const tWarm = performance.now();
  const warm = JSON.parse(api.call("solve", JSON.stringify({ text: "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", shape: SHAPE, bound })));
  if (!warm.ok) throw new Error(`worker ${index + 1}: warm-up solve: ${warm.error.message}`);
  const warmSeconds = (performance.now() - tWarm) / 1000;

  parentPort.on("message", (msg) => {
    const { id, method, params, progress } = msg;
    // A call starts uninterrupted (as static/js/worker/worker.js): a SIGINT written for the
    // call before it, which had already ended, is not this one's.
    Atomics.store(flag, 0, 0);
    let json;
    try {
      const text = JSON.stringify(params);
      json = progress
        ? api.call(method, text, (p) => parentPort.postMessage({ id, progress: JSON.parse(p) }))
        : api.call(method, text);
    } catch (e) {
      const m = String(e && e.message ? e.message : e);
      json = JSON.stringify({ ok: false, error: { type: /KeyboardInterrupt/.test(m) ? "cancelled" : "internal", message: m.split("\n").slice(-2).join(" ") } });
    }
    parentPort.postMessage({ id, json });
  });
  parentPort.postMessage({
    ready: true,
    ...runtimeInfo(pyodide),
    load_seconds: loadSeconds,
    assets_seconds: assetsSeconds,
    pack_seconds: packSeconds,
    warm_seconds: warmSeconds,
    seconds: (performance.now() - t0) / 1000,
  });
}

// ---------------------------------------------------------------- the main thread
/** A wrong command line: its message only, exit status 2. */
class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { workers: [], korf: [], hard: [], bound: "pdb663", pack: false, pool1: false, limit: 170, db: "static/db", progress: true };
  let list = null;
  for (const a of argv) {
    if (a.startsWith("--")) {
      list = null;
      const key = a.slice(2);
      if (key === "workers" || key === "korf" || key === "hard") list = opts[key];
      else if (key === "pack") opts.pack = true;
      else if (key === "pool-1") opts.pool1 = true;
      else if (key === "no-progress") opts.progress = false;
      else if (key === "bound" || key === "limit" || key === "db") list = key;
      else if (key === "help") {
        process.stdout.write(readFileSync(new URL(import.meta.url), "utf8").split("\nimport ")[0].replace(/^#!.*\n/, "").replace(/^\/\/ ?/gm, "") + "\n");
        process.exit(0);
      } else throw new UsageError(`unknown option ${a} (see --help)`);
    } else if (Array.isArray(list)) {
      list.push(a);
    } else if (typeof list === "string") {
      opts[list] = list === "limit" ? Number(a) : a;
      list = null;
    } else {
      throw new UsageError(`unexpected argument ${a} (see --help)`);
    }
  }
  opts.workers = (opts.workers.length ? opts.workers : ["1", "2"]).map(Number);
  if (opts.workers.some((n) => !(Number.isInteger(n) && n >= 1 && n <= 16))) throw new UsageError("--workers takes numbers 1..16");
  if (!opts.korf.length && !opts.hard.length) opts.korf = ["15", "88"];
  if (opts.bound === "pdb78" && !opts.pack) throw new UsageError("--bound pdb78 needs --pack");
  return opts;
}

/** The 7-8 pack of dbDir's manifest decompressed by `xz -dc` into a SharedArrayBuffer. */
async function decompressPack(dbDir) {
  const manifest = JSON.parse(readFileSync(join(dbDir, "manifest.json"), "utf8"));
  const entry = (manifest.packs || []).find((p) => p.bound === "pdb78");
  if (!entry) throw new Error(`${dbDir}/manifest.json lists no pdb78 pack`);
  const total = entry.raw_bytes;
  const sab = new SharedArrayBuffer(total);
  const bytes = new Uint8Array(sab);
  let pos = 0;
  const xz = spawn("xz", ["-dc", join(dbDir, entry.file)], { stdio: ["ignore", "pipe", "inherit"] });
  for await (const chunk of xz.stdout) {
    if (pos + chunk.length > total) throw new Error(`${entry.file}: decompresses to more than ${total} bytes`);
    bytes.set(chunk, pos);
    pos += chunk.length;
  }
  const code = await new Promise((res) => (xz.exitCode !== null ? res(xz.exitCode) : xz.on("close", res)));
  if (code !== 0 || pos !== total) throw new Error(`${entry.file}: xz -dc exited ${code} after ${pos} of ${total} bytes`);
  return { name: entry.file, buffer: sab };
}

/** One worker thread, with SolverClient's call(method, params, onProgress) -> reply and stop(). */
class Client {
  constructor(index, opts, dbDir, pack) {
    this.index = index;
    this.interrupt = new Int32Array(new SharedArrayBuffer(4));
    this.pending = new Map();
    this.nextId = 1;
    this.progressOn = opts.progress;
    this.worker = new Worker(new URL(import.meta.url), {
      workerData: { db: dbDir, pack, interrupt: this.interrupt.buffer, bound: opts.bound, index },
    });
    this.ready = new Promise((res, rej) => {
      this.worker.on("message", (msg) => {
        if (msg.ready) {
          res(msg);
          return;
        }
        const call = this.pending.get(msg.id);
        if (!call) return;
        if (msg.progress) {
          call.onProgress?.(msg.progress);
          return;
        }
        this.pending.delete(msg.id);
        call.resolve(JSON.parse(msg.json));
      });
      const died = (err) => {
        rej(err);
        for (const call of this.pending.values()) call.resolve({ ok: false, error: { type: "internal", message: `worker ${index + 1}: ${err.message}` } });
        this.pending.clear();
      };
      this.worker.on("error", died);
      this.worker.on("exit", (code) => died(new Error(`worker ${index + 1} exited (${code})`)));
    });
  }

  /** The reply {ok, result|error} of fifteen.api.call(method, params) in this worker. */
  call(method, params, onProgress) {
    const id = this.nextId++;
    return new Promise((resolveCall) => {
      this.pending.set(id, { resolve: resolveCall, onProgress });
      this.worker.postMessage({ id, method, params, progress: Boolean(onProgress) && this.progressOn });
    });
  }

  /** Stop the running call (KeyboardInterrupt in Python: a "cancelled" reply). */
  stop() {
    Atomics.store(this.interrupt, 0, SIGINT);
  }

  /** Every call answered. */
  idle() {
    return Promise.all([...this.pending.values()].map((c) => new Promise((res) => {
      const done = c.resolve;
      c.resolve = (r) => {
        done(r);
        res();
      };
    })));
  }
}

class Failed extends Error {}

const ok = (reply, what) => {
  if (!reply.ok) throw new Failed(`${what}: ${reply.error.type}: ${reply.error.message}`);
  return reply.result;
};

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** The serial solve on worker 1: {result, wall}. */
async function runSerial(client, params, limit) {
  const timer = setTimeout(() => client.stop(), limit * 1000);
  const t0 = performance.now();
  const reply = await client.call("solve", params, () => {});
  const wall = (performance.now() - t0) / 1000;
  clearTimeout(timer);
  if (!reply.ok && reply.error.type === "cancelled") throw new Failed(`no answer within --limit ${limit} s`);
  return { result: ok(reply, "solve"), wall };
}

/** The pool's protocol (static/js/solver/pool.js, ParallelJob) on `clients`: {result, wall, workerNodes, stoppedNodes, ...}. */
async function runPool(clients, params, limit) {
  const n = clients.length;
  const workerNodes = clients.map(() => 0); // nodes of the bundles a worker finished
  const live = clients.map(() => 0); // nodes of each worker's running bundle (its last progress)
  const stoppedNodes = clients.map(() => 0); // the last progress of bundles stopped after the solution
  let bundlesRun = 0;
  let lastBack = 0; // when the last bundle still running at the solution came back
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    for (const c of clients) c.stop();
  }, limit * 1000);
  const t0 = performance.now();
  const seconds = () => (performance.now() - t0) / 1000;
  try {
    let work = ok(await clients[0].call("parallel_begin", { ...params, workers: n }), "parallel_begin");
    const boundName = work.bound_name || params.bound;
    const setupSeconds = work.setup_seconds || 0;
    for (;;) {
      if (work.solved_path) {
        const r = await clients[0].call("parallel_result", { ...params, bound: boundName, path: work.solved_path, iterations: work.iterations, h0: work.h0, seconds: seconds(), setup_seconds: setupSeconds, workers: n, worker_nodes: workerNodes });
        const wall = seconds();
        await clients[0].call("parallel_drop", { search: work.search });
        return { result: ok(r, "parallel_result"), wall, workerNodes, stoppedNodes, bundles: bundlesRun, solvedBy: 1 };
      }
      const queue = [...work.bundles];
      const outcomes = [];
      let iterationNodes = work.split_nodes;
      const running = new Map(); // worker index -> bundle
      // One iteration: bundles to free workers until the queue is empty and every bundle is back, or a solution.
      const found = await new Promise((resolveIt, rejectIt) => {
        let done = false;
        const pump = () => {
          for (let i = 0; i < n && queue.length; i++) if (!running.has(i)) dispatch(i, queue.shift());
          if (!queue.length && !running.size && !done) {
            done = true;
            resolveIt(null);
          }
        };
        const dispatch = (i, bundle) => {
          running.set(i, bundle);
          live[i] = 0;
          bundlesRun += 1;
          clients[i].call("parallel_tasks", { shape: params.shape, tasks: bundle }, (p) => (live[i] = p.nodes || 0)).then((reply) => {
            running.delete(i);
            if (done) {
              if (!reply.ok) stoppedNodes[i] += live[i];
              lastBack = performance.now();
              return;
            }
            if (!reply.ok) {
              done = true;
              for (const j of running.keys()) clients[j].stop();
              rejectIt(new Failed(timedOut ? `no answer within --limit ${limit} s` : `parallel_tasks (worker ${i + 1}): ${reply.error.type}: ${reply.error.message}`));
              return;
            }
            for (const o of reply.result.outcomes) {
              workerNodes[i] += o.nodes;
              iterationNodes += o.nodes;
              if (o.path && !o.stopped) {
                const task = bundle.find((t) => t.id === o.id);
                done = true;
                // The others' bundles: stopped, their results ignored (not awaited here).
                for (const j of running.keys()) clients[j].stop();
                resolveIt({ i, path: [...task.path, ...o.path], t: performance.now() });
                return;
              }
              outcomes.push({ id: o.id, path: null, nodes: o.nodes });
            }
            pump();
          });
        };
        pump();
      });
      if (found) {
        const its = [...work.iterations, { bound: work.bound, nodes: iterationNodes, seconds: 0 }];
        const finished = work.iterations.reduce((a, it) => a + it.seconds, 0);
        its[its.length - 1].seconds = Math.max(0, seconds() - finished);
        const r = await clients[found.i].call("parallel_result", { ...params, bound: boundName, path: found.path, iterations: its, h0: work.h0, seconds: seconds(), setup_seconds: setupSeconds, workers: n, worker_nodes: workerNodes });
        const wall = seconds();
        const result = ok(r, "parallel_result");
        await Promise.all(clients.map((c) => c.idle())); // the stopped bundles are back (not timed)
        const stopSeconds = Math.max(0, lastBack - found.t) / 1000; // solution -> the others' bundles back
        await clients[0].call("parallel_drop", { search: work.search });
        return { result, wall, workerNodes, stoppedNodes, stopSeconds, bundles: bundlesRun, solvedBy: found.i + 1 };
      }
      work = ok(await clients[0].call("parallel_step", { search: work.search, outcomes }), "parallel_step");
    }
  } finally {
    clearTimeout(timer);
    await Promise.all(clients.map((c) => c.idle()));
  }
}

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const dbDir = resolve(root, opts.db);
  const korf = readInstances(join(root, "data", "korf100.tsv"));
  const hard = readInstances(join(root, "data", "hard.tsv"));
  const positions = [];
  for (const [set, table, ids] of [["korf100", korf, opts.korf], ["hard", hard, opts.hard]]) {
    for (const id of ids) {
      const inst = table.get(id);
      if (!inst) throw new UsageError(`no position ${id} in data/${set}.tsv`);
      positions.push({ set, ...inst });
    }
  }
  const size = Math.max(...opts.workers);
  const t0 = performance.now();
  let pack = null;
  if (opts.pack) {
    pack = await decompressPack(dbDir);
    emit({ type: "pack", file: pack.name, bytes: pack.buffer.byteLength, seconds: (performance.now() - t0) / 1000 });
  }
  const tStart = performance.now();
  const clients = Array.from({ length: size }, (_, i) => new Client(i, opts, dbDir, pack));
  const ready = await Promise.all(clients.map((c) => c.ready));
  emit({
    type: "ready",
    node: process.version,
    pyodide: pyodideVersion,
    python: ready[0].python,
    fifteen: ready[0].fifteen,
    cpus: cpus().length,
    loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
    workers: ready.map((r) => ({ seconds: r.seconds, load: r.load_seconds, assets: r.assets_seconds, pack: r.pack_seconds, warm: r.warm_seconds })),
    seconds: (performance.now() - tStart) / 1000,
    rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20), // the whole process: every worker, the pack's shared copy
  });

  const rows = [];
  let failures = 0;
  for (const pos of positions) {
    const params = { text: pos.tiles.join(" "), shape: SHAPE, bound: opts.bound };
    const variants = [];
    for (const n of opts.workers) {
      if (n === 1) {
        variants.push({ workers: 1, mode: "serial" });
        if (opts.pool1) variants.push({ workers: 1, mode: "pool" });
      } else {
        variants.push({ workers: n, mode: "pool" });
      }
    }
    for (const v of variants) {
      const line = { type: "result", set: pos.set, id: pos.id, optimal: pos.optimal, workers: v.workers, mode: v.mode, bound: opts.bound, loadavg: Math.round(loadavg()[0] * 100) / 100 };
      const c0 = cpuNow();
      try {
        const r = v.mode === "serial" ? await runSerial(clients[0], params, opts.limit) : await runPool(clients.slice(0, v.workers), params, opts.limit);
        const res = r.result;
        Object.assign(line, {
          bound: res.bound,
          length: res.length,
          ok: res.length === pos.optimal,
          nodes: res.nodes,
          wall: r.wall,
          cpu: cpuNow() - c0,
          iterations: res.iterations.length,
          last_iteration_nodes: res.iterations[res.iterations.length - 1]?.nodes,
          setup_seconds: res.setup_seconds,
        });
        if (v.mode === "pool") Object.assign(line, { worker_nodes: r.workerNodes, stopped_nodes: r.stoppedNodes, stop_seconds: r.stopSeconds, bundles: r.bundles, solved_by: r.solvedBy });
        else line.worker_nodes = [res.nodes];
      } catch (e) {
        if (!(e instanceof Failed)) throw e;
        Object.assign(line, { ok: false, error: e.message });
      }
      if (!line.ok) failures += 1;
      emit(line);
      rows.push(line);
    }
  }

  // The speed-ups: the serial 1-worker wall over each pool's (and over the 1-worker pool's, with --pool-1).
  const out = [];
  const sizes = [...new Set(rows.filter((r) => r.mode === "pool").map((r) => r.workers))].sort((a, b) => a - b);
  const multi = sizes.filter((n) => n > 1);
  const pool1 = sizes.includes(1);
  out.push([
    "position",
    "opt",
    "1 (serial)",
    ...sizes.map((n) => (n === 1 ? "1 (pool)" : `${n} workers`)),
    ...multi.map((n) => `${n} vs 1`),
    ...(pool1 ? multi.map((n) => `${n} vs 1 (pool)`) : []),
  ]);
  for (const pos of positions) {
    const mine = rows.filter((r) => r.id === pos.id && r.set === pos.set);
    const serial = mine.find((r) => r.mode === "serial");
    const pool = (n) => mine.find((r) => r.mode === "pool" && r.workers === n);
    const fmt = (r) => (r && r.ok ? `${r.wall.toFixed(2)} s / ${r.cpu.toFixed(2)} s (${(r.nodes / 1e6).toFixed(2)} M)` : r ? "FAIL" : "-");
    const up = (a, b) => (a?.ok && b?.ok ? `${(a.wall / b.wall).toFixed(2)}x` : "-");
    out.push([
      `${pos.set === "korf100" ? "Korf #" : ""}${pos.id}`,
      String(pos.optimal),
      fmt(serial),
      ...sizes.map((n) => fmt(pool(n))),
      ...multi.map((n) => up(serial, pool(n))),
      ...(pool1 ? multi.map((n) => up(pool(1), pool(n))) : []),
    ]);
  }
  const widths = out[0].map((_, k) => Math.max(...out.map((row) => row[k].length)));
  process.stderr.write("\nwall s / CPU s of the process, all threads (nodes); N vs 1 = the 1-worker wall over the N-worker wall:\n");
  for (const row of out) process.stderr.write(row.map((c, k) => c.padEnd(widths[k])).join("  ").trimEnd() + "\n");
  emit({ type: "done", failures, total_seconds: (performance.now() - t0) / 1000, loadavg: loadavg().map((x) => Math.round(x * 100) / 100) });
  for (const c of clients) await c.worker.terminate();
  process.exitCode = failures ? 1 : 0;
}

if (isMainThread) {
  main().catch((err) => {
    process.stderr.write(`pyodide_pool_bench: ${err instanceof UsageError ? err.message : err && err.stack ? err.stack : err}\n`);
    process.exit(2);
  });
} else {
  await workerMain(); // a failure reaches the main thread as the Worker's "error" event
}
