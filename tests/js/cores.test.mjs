// solver/cores.js: how many workers really run at once, from the rounds of spin workers (fakes
// here: each answers the rounds a machine of `cores` CPUs would give it).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { measureCores } from "../../static/js/solver/cores.js";

/** Fake spin workers on a machine of `cores` CPUs: `perMs` rounds a millisecond on a CPU of its own. */
function machine(cores, perMs = 100) {
  const made = [];
  let running = 0; // workers spinning in the current burst
  const create = () => {
    const w = {
      terminated: false,
      onmessage: null,
      onerror: null,
      postMessage({ ms }) {
        running += 1;
        queueMicrotask(() => {
          const share = Math.min(1, cores / running);
          const rounds = Math.max(1, Math.round(ms * perMs * share));
          queueMicrotask(() => {
            running -= 1;
            w.onmessage({ data: { rounds } });
          });
        });
      },
      terminate() {
        w.terminated = true;
      },
    };
    made.push(w);
    return w;
  };
  return { create, made };
}

describe("measureCores", () => {
  test("4 workers on 2 CPUs get 2 cores; on 4 CPUs, 4; on 8 CPUs, still at most 4", async () => {
    for (const [cpus, want] of [
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [8, 4],
    ]) {
      const m = machine(cpus);
      assert.equal(await measureCores(4, { createWorker: m.create }), want, `${cpus} CPUs`);
      assert.equal(m.made.length, 4);
      assert.ok(m.made.every((w) => w.terminated), "every spin worker is terminated");
    }
  });

  test("workers that cannot start, or fail, give null (and are terminated)", async () => {
    const none = await measureCores(4, {
      createWorker: () => {
        throw new Error("no workers");
      },
    });
    assert.equal(none, null);
    const failing = { terminated: false, onerror: null, postMessage() { queueMicrotask(() => this.onerror({ preventDefault() {} })); }, terminate() { this.terminated = true; } };
    assert.equal(await measureCores(1, { createWorker: () => failing }), null);
    assert.equal(failing.terminated, true);
  });
});
