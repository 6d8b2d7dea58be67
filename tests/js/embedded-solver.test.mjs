// The embeddable solver (solver/embedded-solver.js, static/js/fifteen.js's createSolver) against
// scripted fake workers: positions as text or numbers, the start at once or at the first request,
// a solve's SOLVE and its RESULT, bounds, an abort (the worker restarted, the request rejected with
// the signal's reason, the next one served), close.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { EmbeddedSolver, positionParams } from "../../static/js/solver/embedded-solver.js";
import { ErrorType, Method, ToWorker, message } from "../../static/js/solver/protocol.js";
import { FakeWorker } from "./fake-worker.mjs";

const tick = () => new Promise((r) => setTimeout(r, 0));
const INFO = { version: "0.1.0", bounds: { "4x4": ["auto", "pdb771"] } };
const KORF_1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2";

function setup(options = {}) {
  const workers = [];
  const solver = new EmbeddedSolver({
    ...options,
    createWorker: () => {
      const w = new FakeWorker();
      workers.push(w);
      return w;
    },
  });
  const ready = async (w) => {
    w.emit(message.ready({ info: INFO, seconds: 1 }));
    await tick();
  };
  return { solver, workers, ready };
}

describe("positions", () => {
  test("text or numbers, the shape inferred for a square count, the goal passed on", () => {
    assert.deepEqual(positionParams(KORF_1), { text: KORF_1, shape: "4x4" });
    assert.deepEqual(positionParams([1, 2, 3, 4, 5, 6, 7, 0, 8]), { text: "1 2 3 4 5 6 7 0 8", shape: "3x3" });
    assert.deepEqual(positionParams(" 1,2;3 _ ", { goal: "blank-first" }), { text: "1 2 3 _", shape: "2x2", goal: "blank-first" });
    assert.deepEqual(positionParams("1 2 3 4 5 6 7 8 9 10 0 11", { shape: "3x4" }).shape, "3x4");
  });

  test("a count that names no shape is refused, saying what to give", () => {
    assert.throws(
      () => positionParams("1 2 3 4 5 6 7 8 9 10 0 11"),
      (e) => e.type === ErrorType.INPUT && e.code === "count" && /12 tiles: give the board's shape/.test(e.message),
    );
  });
});

describe("requests", () => {
  test("the worker starts at once, for the shape given; a solve is one CALL of solve resolved by its RESULT", async () => {
    const { solver, workers, ready } = setup({ shape: "3x3" });
    assert.equal(workers.length, 1);
    assert.deepEqual(workers[0].last(ToWorker.INIT).shape, "3x3");
    const progress = [];
    const solving = solver.solve(KORF_1, { bound: "pdb771", onProgress: (p) => progress.push(p) });
    await ready(workers[0]);
    assert.deepEqual(await solver.ready(), INFO);
    assert.deepEqual(solver.info, INFO);
    const sent = workers[0].calls(Method.SOLVE).at(-1);
    assert.deepEqual(sent.params, { text: KORF_1, shape: "4x4", bound: "pdb771" });
    workers[0].emit(message.progress(sent.id, { bound: 51, nodes: 32 }));
    workers[0].emit(message.result(sent.id, { length: 57, nodes: 9707 }));
    assert.deepEqual(await solving, { length: 57, nodes: 9707 });
    assert.deepEqual(progress, [{ bound: 51, nodes: 32 }]);
  });

  test("with start false nothing runs before the first request; bounds and anytime are calls of the API", async () => {
    const { solver, workers, ready } = setup({ start: false });
    await tick();
    assert.equal(workers.length, 0);
    const bounds = solver.bounds([1, 2, 3, 0], { goal: [0, 1, 2, 3] });
    assert.equal(workers.length, 1);
    await ready(workers[0]);
    const call = workers[0].calls(Method.BOUNDS)[0];
    assert.deepEqual(call.params, { text: "1 2 3 0", shape: "2x2", goal: [0, 1, 2, 3] });
    workers[0].emit(message.result(call.id, { bounds: { md: 3 } }));
    assert.deepEqual(await bounds, { bounds: { md: 3 } });
    const anytime = solver.anytime(KORF_1, { timeLimit: 5 });
    await tick();
    const sent = workers[0].calls(Method.SOLVE).at(-1);
    assert.deepEqual(sent.params, { text: KORF_1, shape: "4x4", anytime: true, time_limit: 5 });
    workers[0].emit(message.result(sent.id, { length: 57, optimal: true }));
    assert.equal((await anytime).optimal, true);
  });

  test("an abort stops the request (a CANCEL: the worker stays, no interrupt buffer needed) and rejects with the signal's reason", async () => {
    const { solver, workers, ready } = setup();
    await ready(workers[0]);
    const stop = new AbortController();
    const solving = solver.solve(KORF_1, { signal: stop.signal });
    await tick();
    stop.abort();
    await assert.rejects(solving, (e) => e.name === "AbortError");
    assert.equal(workers[0].last(ToWorker.CANCEL).id, workers[0].calls(Method.SOLVE).at(-1).id);
    assert.equal(workers[0].terminated, false);
    assert.equal(workers.length, 1, "the same worker");
    const next = solver.solve("1 2 3 0");
    await tick();
    const sent = workers[0].calls(Method.SOLVE).at(-1);
    workers[0].emit(message.result(sent.id, { length: 0 }));
    assert.deepEqual(await next, { length: 0 });
    await assert.rejects(solver.solve(KORF_1, { signal: AbortSignal.abort() }), (e) => e.name === "AbortError");
  });

  test("an error of the solver rejects with its type and code", async () => {
    const { solver, workers, ready } = setup();
    await ready(workers[0]);
    const solving = solver.solve("1 2 3 4 5 6 8 7 0");
    await tick();
    const sent = workers[0].calls(Method.SOLVE).at(-1);
    workers[0].emit(message.error(sent.id, { type: ErrorType.INPUT, code: "unsolvable", message: "unsolvable: ..." }));
    await assert.rejects(solving, (e) => e.type === ErrorType.INPUT && e.code === "unsolvable");
  });

  test("close ends the worker: what runs and what comes later is refused", async () => {
    const { solver, workers, ready } = setup();
    await ready(workers[0]);
    const solving = solver.solve(KORF_1);
    await tick();
    solver.close();
    assert.equal(workers[0].terminated, true);
    await assert.rejects(solving, (e) => e.type === ErrorType.CANCELLED);
    await assert.rejects(solver.solve(KORF_1), (e) => e.type === ErrorType.CANCELLED && /closed/.test(e.message));
  });
});
