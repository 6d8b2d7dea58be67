// SolverClient (the page's side of the protocol) against a scripted fake
// worker that speaks solver/protocol.js: requests become promises, progress reaches
// its request, errors keep their type, a fatal error fails everything, a
// replaced worker's late messages are ignored, cancel sends CANCEL and waits for the request's
// end (no restart; SIGINT too with an interrupt buffer), and restarts only a worker that does not answer.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { ErrorType, LoadState, Method, PackPhase, SIGINT, Stage, ToWorker, message } from "../../static/js/solver/protocol.js";
import { RETRY_DELAY_MS, SolverClient, SolverError, phaseTimeout, workerFailure } from "../../static/js/solver/client.js";
import { FakeWorker } from "./fake-worker.mjs";

/** A client with fake workers and recorded handler calls. */
function setup({ cancelWait, interruptAfter } = {}) {
  const workers = [];
  const calls = [];
  const record =
    (name) =>
    (...args) =>
      calls.push([name, ...args]);
  const client = new SolverClient(
    { loading: record("loading"), warning: record("warning"), ready: record("ready"), fatal: record("fatal"), restart: record("restart"), heap: record("heap") },
    {
      createWorker: () => {
        const w = new FakeWorker();
        workers.push(w);
        return w;
      },
      cancelWait,
      interruptAfter,
    },
  );
  return { client, workers, calls, worker: () => workers.at(-1) };
}

const READY = message.ready({ info: { version: "0", bounds: { "4x4": ["auto", "md"] }, labels: { auto: "Strongest available" } }, seconds: 1.5 });

describe("SolverClient", () => {
  test("start sends INIT; READY resolves readyPromise and reaches the handler", async () => {
    const { client, worker, calls } = setup();
    client.skip = ["wd-4x4.f15"];
    const ready = client.start("3x3");
    assert.deepEqual(worker().sent, [message.init({ shape: "3x3", skip: ["wd-4x4.f15"], controlled: false })]);
    worker().emit(message.loading(Stage.RUNTIME, LoadState.START, "Python runtime"));
    worker().emit(message.warning("slow"));
    worker().emit(READY);
    assert.deepEqual((await ready).info, READY.info);
    assert.equal(client.ready, true);
    assert.equal(client.interrupt, null);
    assert.deepEqual(
      calls.map((c) => c[0]),
      ["loading", "warning", "ready"],
    );
    assert.equal(calls[0][1].stage, Stage.RUNTIME);
  });

  test("a worker started before the client (solver/start.js): what it said before is delivered, then INIT", async () => {
    const early = new FakeWorker();
    const held = [message.loading(Stage.RUNTIME, LoadState.START, "Python runtime", { files: ["pyodide.asm.wasm"] })];
    early.replay = () => {
      for (const msg of held.splice(0)) early.emit(msg);
    };
    const calls = [];
    const client = new SolverClient({ loading: (msg) => calls.push(["loading", msg]), ready: () => calls.push(["ready"]) }, { createWorker: () => early });
    client.runtimeBytes = { "pyodide.asm.wasm": 1000 };
    const ready = client.start("4x4");
    assert.deepEqual(calls, [["loading", message.loading(Stage.RUNTIME, LoadState.START, "Python runtime", { bytes: 1000 })]]);
    assert.deepEqual(early.sent, [message.init({ shape: "4x4", skip: [], controlled: false })]);
    early.emit(READY);
    await ready;
    assert.deepEqual(calls.at(-1), ["ready"]);
  });

  test("requests get ids; RESULT resolves, ERROR rejects with its type and file", async () => {
    const { client, worker } = setup();
    client.start();
    worker().emit(READY);
    const parse = client.call(Method.PARSE, { text: "1 2 3 0" });
    const bounds = client.call(Method.BOUNDS, { text: "x" });
    const [p, b] = worker().sent.slice(1);
    assert.deepEqual(p, message.call(p.id, Method.PARSE, { text: "1 2 3 0" }));
    assert.notEqual(p.id, b.id);
    worker().emit(message.error(b.id, { type: ErrorType.ASSET, message: "corrupt", file: "wd-4x4.f15" }));
    worker().emit(message.result(p.id, { rows: 2, cols: 2, tiles: [1, 2, 3, 0] }));
    assert.deepEqual(await parse, { rows: 2, cols: 2, tiles: [1, 2, 3, 0] });
    await assert.rejects(bounds, (e) => e instanceof SolverError && e.type === ErrorType.ASSET && e.file === "wd-4x4.f15" && e.message === "corrupt");
    assert.equal(client.pending.size, 0);
  });

  test("PROGRESS goes to its own request's callback", async () => {
    const { client, worker } = setup();
    client.start();
    worker().emit(READY);
    const seen = [];
    const solving = client.solve({ text: "t", shape: "4x4", bound: "auto" }, (p) => seen.push(p));
    const other = client.call(Method.INFO);
    const s = worker().calls(Method.SOLVE).at(-1);
    assert.equal(s.progress, true);
    assert.deepEqual(s.params, { text: "t", shape: "4x4", bound: "auto" });
    worker().emit(message.progress(s.id, { bound: 40, nodes: 10 }));
    worker().emit(message.progress(worker().calls(Method.INFO).at(-1).id, { bound: 0 })); // no callback: ignored
    worker().emit(message.progress(999, { bound: 1 })); // unknown id: ignored
    worker().emit(message.result(s.id, { length: 42 }));
    assert.deepEqual(await solving, { length: 42 });
    assert.deepEqual(seen, [{ bound: 40, nodes: 10 }]);
    worker().emit(message.result(worker().calls(Method.INFO).at(-1).id, {}));
    await other;
  });

  test("a CALL with a progress callback asks for PROGRESS and gets it", async () => {
    const { client, worker } = setup();
    client.start();
    worker().emit(READY);
    const seen = [];
    const comparing = client.call(Method.COMPARE, { tiles: [1, 2, 3, 0], shape: "2x2", bounds: ["md"] }, (p) => seen.push(p));
    const c = worker().last(ToWorker.CALL);
    assert.equal(c.progress, true);
    worker().emit(message.progress(c.id, { name: "md", nodes: 5 }));
    worker().emit(message.result(c.id, { bounds: {} }));
    assert.deepEqual(await comparing, { bounds: {} });
    assert.deepEqual(seen, [{ name: "md", nodes: 5 }]);
    client.call(Method.INFO);
    assert.equal(worker().last(ToWorker.CALL).progress, undefined); // plain calls stay as they were
  });

  test("a fatal ERROR fails every request and readyPromise", async () => {
    const { client, worker, calls } = setup();
    const ready = client.start();
    const pending = client.call(Method.INFO);
    worker().emit(message.error(null, { type: ErrorType.LOAD, message: "offline" }, { fatal: true }));
    await assert.rejects(ready, (e) => e.type === ErrorType.LOAD && e.message === "offline");
    await assert.rejects(pending, (e) => e.type === ErrorType.LOAD);
    assert.deepEqual(calls.at(-1)[0], "fatal");
  });

  test("the worker's onerror is fatal, with a clear message", async () => {
    const { client, worker, calls } = setup();
    const ready = client.start();
    worker().onerror({ message: "Out of memory: wasm allocation", preventDefault() {} });
    await assert.rejects(ready, (e) => e.type === ErrorType.LOAD && /^Out of memory/.test(e.message));
    assert.equal(calls.at(-1)[0], "fatal");
  });

  test("a worker that stops while starting with no reason given (a plain Event) is started again, once", async (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const { client, workers, worker, calls } = setup();
    const ready = client.start("4x4");
    assert.equal(client.starts, 1);
    worker().onerror({ type: "error", preventDefault() {} });
    assert.equal(workers[0].terminated, true);
    assert.equal(workers.length, 1, "not at once");
    t.mock.timers.tick(RETRY_DELAY_MS);
    assert.equal(workers.length, 2);
    assert.equal(client.starts, 2);
    assert.deepEqual(worker().sent, [message.init({ shape: "4x4", skip: [], controlled: false })]);
    assert.ok(!calls.some((c) => c[0] === "fatal"), "the first failure is not shown");
    // the second failure is fatal, with a real message
    worker().onerror({ type: "error", preventDefault() {} });
    await assert.rejects(ready, (e) => e.type === ErrorType.LOAD && /could not start, twice/.test(e.message) && /gave no reason/.test(e.message));
    assert.equal(calls.at(-1)[0], "fatal");
    assert.equal(workers.length, 2);
  });

  test("the retried worker that starts resolves the first readyPromise; a failure once ready is not retried", async (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const { client, workers, worker, calls } = setup();
    const ready = client.start();
    worker().onerror({ type: "error", preventDefault() {} });
    t.mock.timers.tick(RETRY_DELAY_MS);
    worker().emit(READY);
    assert.deepEqual((await ready).info, READY.info);
    worker().onerror({ type: "error", preventDefault() {} });
    assert.equal(workers.length, 2);
    assert.equal(calls.at(-1)[0], "fatal");
    assert.match(calls.at(-1)[1].message, /stopped while working, and the browser gave no reason/);
  });

  test("a retry is dropped when the client was stopped meanwhile", (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const { client, workers, worker } = setup();
    client.start();
    worker().onerror({ type: "error", preventDefault() {} });
    client.stop();
    t.mock.timers.tick(RETRY_DELAY_MS);
    assert.equal(workers.length, 1);
  });

  test("workerFailure: the browser's text when given, else what is known", () => {
    assert.equal(workerFailure("boom"), "The solver worker failed: boom");
    assert.match(workerFailure("Out of memory"), /^Out of memory: /);
    assert.match(workerFailure(undefined), /^The solver worker could not start, and the browser gave no reason/);
  });

  test("no worker at all: a fatal LOAD error", async () => {
    const calls = [];
    const client = new SolverClient(
      { fatal: (e) => calls.push(e) },
      {
        createWorker: () => {
          throw new Error("module workers unsupported");
        },
      },
    );
    await assert.rejects(client.start(), (e) => e.type === ErrorType.LOAD && /module worker/.test(e.message));
    assert.equal(calls.length, 1);
    await assert.rejects(client.call(Method.INFO), (e) => e.type === ErrorType.INTERNAL);
  });

  test("cancel sends CANCEL for the request that runs; the worker ends it and stays (no restart)", async () => {
    const { client, workers, worker, calls } = setup();
    client.start("3x3");
    worker().emit(READY);
    const solving = client.solve({ text: "t", shape: "3x3", bound: "auto" });
    const next = client.call(Method.INFO); // queued behind the solve: not cancelled
    const id = worker().calls(Method.SOLVE)[0].id;
    const stopped = client.cancel();
    assert.deepEqual(worker().cancels(), [{ type: ToWorker.CANCEL, id }]);
    await assert.rejects(solving, (e) => e.type === ErrorType.CANCELLED);
    await stopped;
    assert.equal(workers.length, 1);
    assert.ok(!worker().terminated && client.ready);
    assert.ok(!calls.some((c) => c[0] === "restart"));
    worker().emit(message.result(worker().calls(Method.INFO)[0].id, { version: "0" }));
    assert.deepEqual(await next, { version: "0" });
  });

  test("cancel with nothing running: nothing to stop, nothing sent", async () => {
    const { client, workers, worker } = setup();
    client.start();
    worker().emit(READY);
    await client.cancel();
    assert.deepEqual(worker().cancels(), []);
    assert.equal(workers.length, 1);
  });

  test("a worker that does not answer a cancel is restarted; the old worker's late messages are ignored", async () => {
    const { client, workers, worker, calls } = setup({ cancelWait: 20 });
    client.start("3x3");
    worker().emit(READY);
    const solving = client.solve({ text: "t", shape: "3x3", bound: "auto" });
    const old = worker();
    old.stuck = true;
    const id = old.calls(Method.SOLVE)[0].id;
    const restarted = client.cancel();
    await assert.rejects(solving, (e) => e.type === ErrorType.CANCELLED);
    assert.equal(old.terminated, true);
    assert.equal(workers.length, 2);
    assert.equal(worker().sent[0].type, ToWorker.INIT);
    assert.equal(worker().sent[0].shape, "3x3");
    assert.ok(calls.some((c) => c[0] === "restart"));
    old.emit(message.result(id, { length: 1 })); // too late: ignored
    old.emit(READY);
    assert.equal(client.ready, false);
    worker().emit(READY);
    await restarted;
    assert.equal(client.ready, true);
  });

  test("cancel({hard}) restarts at once", async () => {
    const { client, workers, worker } = setup();
    client.start();
    worker().emit(READY);
    const solving = client.solve({ text: "t", shape: "4x4", bound: "auto" });
    const restarted = client.cancel({ hard: true });
    await assert.rejects(solving, (e) => e.type === ErrorType.CANCELLED);
    assert.equal(workers.length, 2);
    worker().emit(READY);
    await restarted;
  });

  test("cancel with an interrupt buffer: SIGINT only for a request that does not end in time (a step not sliced); the worker stays", async () => {
    const { client, workers, worker, calls } = setup({ interruptAfter: 10 });
    client.start();
    const buffer = new SharedArrayBuffer(4);
    worker().emit({ ...READY, interrupt: buffer });
    assert.ok(client.interrupt instanceof Int32Array);
    // a sliced call ends at the CANCEL: no SIGINT
    const first = client.solve({ text: "t", shape: "4x4", bound: "auto" });
    await Promise.all([client.cancel(), assert.rejects(first, (e) => e.type === ErrorType.CANCELLED)]);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(Atomics.load(new Int32Array(buffer), 0), 0);
    // a call that does not hear the CANCEL is interrupted
    const solving = client.solve({ text: "t", shape: "4x4", bound: "auto" });
    const id = worker().calls(Method.SOLVE)[1].id;
    worker().stuck = true;
    const stopped = client.cancel();
    assert.equal(worker().last(ToWorker.CANCEL).id, id);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(Atomics.load(new Int32Array(buffer), 0), SIGINT);
    worker().emit(message.error(id, { type: ErrorType.CANCELLED, message: "Cancelled." })); // (KeyboardInterrupt)
    await assert.rejects(solving, (e) => e.type === ErrorType.CANCELLED);
    await stopped;
    assert.equal(workers.length, 1);
    assert.ok(!calls.some((c) => c[0] === "restart"));
  });

  test("loadPack sends LOAD_PACK, forwards its progress and takes the new info", async () => {
    const { client, worker } = setup();
    client.start();
    worker().emit(READY);
    const seen = [];
    const loading = client.loadPack("pdb-78.f15.xz", (p) => seen.push(p.phase));
    const m = worker().last(ToWorker.LOAD_PACK);
    assert.equal(m.file, "pdb-78.f15.xz");
    worker().emit(message.progress(m.id, { file: m.file, phase: PackPhase.DOWNLOAD, loaded: 1, bytes: 2 }));
    worker().emit(message.progress(m.id, { file: m.file, phase: PackPhase.DECODE, loaded: 1, bytes: 2 }));
    worker().emit(message.result(m.id, { file: m.file, bytes: 2, cached: true, info: { version: "pack" } }));
    assert.equal((await loading).cached, true);
    assert.deepEqual(seen, [PackPhase.DOWNLOAD, PackPhase.DECODE]);
    assert.deepEqual(client.info, { version: "pack" });
  });

  test("the worker's wasm memory (READY's heap_bytes, then a pack load's) reaches the heap handler, before ready", async () => {
    const { client, worker, calls } = setup();
    client.start();
    worker().emit({ ...READY, heap_bytes: 52 * 2 ** 20 });
    assert.deepEqual(
      calls.map((c) => c[0]).filter((name) => name === "heap" || name === "ready"),
      ["heap", "ready"],
    );
    const loading = client.loadPack("pdb-78.f15.xz");
    const m = worker().last(ToWorker.LOAD_PACK);
    worker().emit(message.result(m.id, { file: m.file, bytes: 2, cached: false, info: { version: "pack" }, heap_bytes: 345 * 2 ** 20 }));
    await loading;
    assert.deepEqual(
      calls.filter((c) => c[0] === "heap").map((c) => c[1]),
      [52 * 2 ** 20, 345 * 2 ** 20],
    );
  });

  test("a worker that does not tell its memory (null, absent, 0) reports nothing", async () => {
    const { client, worker, calls } = setup();
    client.start();
    worker().emit({ ...READY, heap_bytes: null });
    const loading = client.loadPack("pdb-78.f15.xz");
    const m = worker().last(ToWorker.LOAD_PACK);
    worker().emit(message.result(m.id, { file: m.file, bytes: 2, cached: false, info: {}, heap_bytes: 0 }));
    await loading;
    assert.equal(calls.filter((c) => c[0] === "heap").length, 0);
  });
});

describe("SolverClient runtime download sizes", () => {
  test("the runtime's messages name the files it downloads; the client adds their bytes once it knows them", () => {
    const { client, worker, calls } = setup();
    client.start("4x4"); // sent before the sizes are known (build-info.json is read meanwhile)
    const files = ["pyodide.asm.wasm", "python_stdlib.zip"];
    worker().emit(message.loading(Stage.RUNTIME, LoadState.PROGRESS, "Python runtime", { files, loaded: 5 }));
    client.runtimeBytes = { "pyodide.asm.wasm": 100, "python_stdlib.zip": 20, "pyodide.asm.mjs": 7 };
    worker().emit(message.loading(Stage.RUNTIME, LoadState.PROGRESS, "Python runtime", { files, loaded: 50 }));
    worker().emit(message.loading(Stage.RUNTIME, LoadState.DONE, "Pyodide", { cached: true, seconds: 1 }));
    const seen = calls.filter((c) => c[0] === "loading").map((c) => c[1]);
    assert.deepEqual(seen[0], message.loading(Stage.RUNTIME, LoadState.PROGRESS, "Python runtime", { loaded: 5 }));
    assert.deepEqual(seen[1], message.loading(Stage.RUNTIME, LoadState.PROGRESS, "Python runtime", { loaded: 50, bytes: 120 }));
    assert.deepEqual(seen[2], message.loading(Stage.RUNTIME, LoadState.DONE, "Pyodide", { cached: true, seconds: 1 }));
  });
});

describe("SolverClient start-up watchdog", () => {
  test("a phase that reports nothing for its time fails fatally, naming it; a report re-arms the timer", (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const { client, worker, calls } = setup();
    client.runtimeBytes = { "pyodide.asm.wasm": 10 * 1024 * 1024 };
    client.start("4x4");
    const runtimeMs = phaseTimeout(10 * 1024 * 1024);
    assert.equal(runtimeMs, (30 + 204.8) * 1000); // 10 MiB at 50 KiB/s
    t.mock.timers.tick(runtimeMs - 1000);
    worker().emit(message.loading(Stage.RUNTIME, LoadState.PROGRESS, "Python runtime", { bytes: 10, loaded: 5 }));
    t.mock.timers.tick(runtimeMs - 1000);
    assert.equal(calls.filter((c) => c[0] === "fatal").length, 0, "re-armed by the report");
    worker().emit(message.loading(Stage.DATABASES, LoadState.START, "pdb-663.f15", { bytes: 512 * 1024 }));
    t.mock.timers.tick(phaseTimeout(512 * 1024) + 1);
    const fatal = calls.filter((c) => c[0] === "fatal");
    assert.equal(fatal.length, 1);
    assert.equal(fatal[0][1].type, ErrorType.LOAD);
    assert.match(fatal[0][1].message, /^The database pdb-663\.f15 did not load in time.*\(no progress for 40 s\)$/);
    assert.ok(worker().terminated);
  });

  test("READY disarms it", (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const { client, worker, calls } = setup();
    client.start("4x4");
    worker().emit(READY);
    t.mock.timers.tick(10 * 60 * 1000);
    assert.deepEqual(
      calls.filter((c) => c[0] === "fatal"),
      [],
    );
    assert.equal(client.ready, true);
  });

  test("the runtime phase's message says which files", (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const { client, calls } = setup();
    client.start("4x4");
    t.mock.timers.tick(phaseTimeout(0));
    assert.match(calls.find((c) => c[0] === "fatal")[1].message, /The Python runtime did not start in time: .*pyodide\.asm\.wasm/);
  });
});
