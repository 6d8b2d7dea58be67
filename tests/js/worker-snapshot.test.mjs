// worker/snapshot.js: a memory snapshot is resumed only by the build that made it.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { buildIdentity, growMemory, matches } from "../../static/js/worker/snapshot.js";

const WHEELS = { archive: "fifteen-0.1.0-pyodide.zip", archive_sha256: "ab".repeat(32) };
const DBS = {
  assets: [
    { file: "pdb-663.f15", crc32: "cb8916be" },
    { file: "wd-4x4.f15", crc32: "7fde5741" },
    { file: "no-crc.f15" },
  ],
};

describe("the snapshot's build identity", () => {
  test("names the runtime, the solver archive and every database with its CRC-32", () => {
    assert.deepEqual(buildIdentity("314.0.8", WHEELS, DBS), {
      pyodide: "314.0.8",
      archive: "ab".repeat(32),
      files: { "pdb-663.f15": "cb8916be", "wd-4x4.f15": "7fde5741" },
    });
    assert.deepEqual(buildIdentity("314.0.8", WHEELS, null).files, {});
    // without the runtime's version or the archive's digest there is none (no snapshot)
    assert.equal(buildIdentity(null, WHEELS, DBS), null);
    assert.equal(buildIdentity("314.0.8", { archive: "x.zip" }, DBS), null);
    assert.equal(buildIdentity("314.0.8", null, DBS), null);
  });

  test("a snapshot matches only the build that made it", () => {
    const id = buildIdentity("314.0.8", WHEELS, DBS);
    const meta = { pyodide: "314.0.8", archive: "ab".repeat(32), files: { "pdb-663.f15": "cb8916be" }, bytes: 10 };
    assert.equal(matches(meta, id), true);
    assert.equal(matches({ ...meta, files: {} }, id), true); // holding fewer databases is fine
    assert.equal(matches({ ...meta, pyodide: "314.0.9" }, id), false);
    assert.equal(matches({ ...meta, archive: "cd".repeat(32) }, id), false);
    assert.equal(matches({ ...meta, files: { "pdb-663.f15": "00000000" } }, id), false); // a rebuilt database
    assert.equal(matches({ ...meta, files: { "pdb-78.f15": "cb8916be" } }, id), false); // one this build does not list
    assert.equal(matches(null, id), false);
    assert.equal(matches(meta, null), false);
  });
});

describe("growMemory", () => {
  test("grows an instance's memory to a snapshot's size, never shrinks or fails on others", () => {
    const memory = new WebAssembly.Memory({ initial: 2, maximum: 100 });
    growMemory({ instance: { exports: { memory } } }, 5 * 65536 + 1);
    assert.equal(memory.buffer.byteLength, 6 * 65536);
    growMemory({ exports: { memory } }, 65536); // (an Instance itself; smaller: unchanged)
    assert.equal(memory.buffer.byteLength, 6 * 65536);
    growMemory({ instance: { exports: {} } }, 65536 * 10);
    growMemory(undefined, 65536);
  });
});
