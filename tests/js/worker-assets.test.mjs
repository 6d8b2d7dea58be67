// worker/assets.js: the databases of a shape are downloaded at once and handed to Python in
// the manifest's order; a missing one is a warning, a damaged one a LoadError naming it.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { beforeEach, describe, test } from "node:test";

const posted = [];
globalThis.self ??= globalThis; // (worker/common.js posts with self.postMessage)
globalThis.self.postMessage = (msg) => posted.push(msg);

const { Databases, digestProblem } = await import("../../static/js/worker/assets.js");

const ASSETS = [
  { file: "wd-4x4.f15", shapes: ["4x4"], bytes: 3 },
  { file: "pdb-555.f15", shapes: ["4x4"], bytes: 2 },
  { file: "pdb-663.f15", shapes: ["4x4"], bytes: 1 },
  { file: "wd-3x3.f15", shapes: ["3x3"], bytes: 1 },
  { file: "pdb-78.f15", shapes: ["4x4"], bytes: 9, browser: false },
];

/** A fetch whose responses the test releases one by one (`release(file)`), recording what was asked. */
function gatedFetch({ missing = [] } = {}) {
  const asked = [];
  const gates = new Map();
  globalThis.fetch = async (url) => {
    const file = String(url).split("/").pop();
    asked.push(file);
    await new Promise((resolve) => gates.set(file, resolve));
    if (missing.includes(file)) return new Response("", { status: 404, statusText: "Not Found" });
    return new Response(new Uint8Array(ASSETS.find((a) => a.file === file).bytes));
  };
  const release = async (file) => {
    for (let i = 0; !gates.has(file); i++) {
      if (i > 200) throw new Error(`${file} was never asked for`);
      await new Promise((r) => setTimeout(r, 1));
    }
    gates.get(file)();
  };
  return { asked, release };
}

/** fifteen.api's two methods the class uses, recording the files handed over. */
function fakeApi({ damaged = [] } = {}) {
  const loaded = [];
  return {
    loaded,
    manifest: () => JSON.stringify({ ok: true, result: { assets: ASSETS.filter((a) => a.browser !== false), packs: [], warnings: [] } }),
    load_asset: (file, bytes) => {
      loaded.push([file, bytes.length]);
      if (damaged.includes(file)) return JSON.stringify({ ok: false, error: { type: "asset", message: `${file}: bad CRC-32` } });
      return JSON.stringify({ ok: true, result: {} });
    },
  };
}

const list = Promise.resolve({ text: "{}" });
const done = () => posted.filter((m) => m.state === "done").map((m) => m.label);

describe("the databases of a shape", () => {
  beforeEach(() => posted.splice(0));

  test("are all downloading before the first is handed over, then handed over in the manifest's order", async () => {
    const { asked, release } = gatedFetch();
    const api = fakeApi();
    const dbs = new Databases(api, [], false, list);
    const t0 = performance.now();
    const loading = dbs.ensureShape("4x4");
    // the last file arrives first: nothing is handed over before the first one has
    await release("pdb-663.f15");
    await release("pdb-555.f15");
    await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(asked, ["wd-4x4.f15", "pdb-555.f15", "pdb-663.f15"]);
    assert.deepEqual(api.loaded, []);
    await release("wd-4x4.f15");
    await loading;
    const wall = (performance.now() - t0) / 1000;
    assert.deepEqual(api.loaded, [["wd-4x4.f15", 3], ["pdb-555.f15", 2], ["pdb-663.f15", 1]]);
    assert.deepEqual(done(), ["wd-4x4.f15", "pdb-555.f15", "pdb-663.f15"]);
    assert.deepEqual(dbs.held(), ["wd-4x4.f15", "pdb-555.f15", "pdb-663.f15"]);
    // each file's seconds are its share of the step (the downloads overlap): they add up to
    // the step's time, not more (the page sums them as the databases' phase)
    const seconds = posted.filter((m) => m.state === "done").map((m) => m.seconds);
    assert.ok(seconds.every((x) => x >= 0));
    assert.ok(seconds.reduce((a, b) => a + b) <= wall, `${seconds} add up to more than ${wall}`);
    // a second call for the shape fetches nothing
    await dbs.ensureShape("4x4");
    assert.equal(asked.length, 3);
  });

  test("a missing one is a warning and is not held; the others are loaded", async () => {
    const { release } = gatedFetch({ missing: ["pdb-555.f15"] });
    const api = fakeApi();
    const dbs = new Databases(api, [], false, list);
    const loading = dbs.ensureShape("4x4");
    for (const f of ["wd-4x4.f15", "pdb-555.f15", "pdb-663.f15"]) await release(f);
    await loading;
    assert.deepEqual(api.loaded.map(([f]) => f), ["wd-4x4.f15", "pdb-663.f15"]);
    assert.deepEqual(dbs.held(), ["wd-4x4.f15", "pdb-663.f15"]);
    const warning = posted.find((m) => m.type === "warning");
    assert.match(warning.message, /pdb-555\.f15.*404.*continuing without it/);
  });

  test("a damaged one stops the start with a LoadError naming it", async () => {
    const { release } = gatedFetch();
    const dbs = new Databases(fakeApi({ damaged: ["pdb-555.f15"] }), [], false, list);
    const loading = dbs.ensureShape("4x4");
    for (const f of ["wd-4x4.f15", "pdb-555.f15", "pdb-663.f15"]) await release(f);
    await assert.rejects(loading, (e) => e.file === "pdb-555.f15" && /bad CRC-32/.test(e.message));
  });

  test("one whose SHA-256 is not the manifest's is refused before Python sees it, naming it; one that matches is loaded", async () => {
    const zeros = (n) => createHash("sha256").update(new Uint8Array(n)).digest("hex");
    const listed = ASSETS.map((a) => ({ ...a, sha256: a.file === "pdb-555.f15" ? zeros(3) : zeros(a.bytes) }));
    const { release } = gatedFetch();
    const api = { ...fakeApi(), manifest: () => JSON.stringify({ ok: true, result: { assets: listed, packs: [], warnings: [] } }) };
    const loaded = [];
    api.load_asset = (file) => (loaded.push(file), JSON.stringify({ ok: true, result: {} }));
    const dbs = new Databases(api, [], false, list);
    const loading = dbs.ensureShape("4x4");
    for (const f of ["wd-4x4.f15", "pdb-555.f15", "pdb-663.f15"]) await release(f);
    await assert.rejects(loading, (e) => {
      assert.equal(e.file, "pdb-555.f15");
      assert.equal(e.type, "asset");
      assert.equal(
        e.message,
        "pdb-555.f15 is damaged: its SHA-256 is not the one static/db/manifest.json lists (2 bytes). Reload the page to fetch it again; if it stays, rebuild the databases (make db).",
      );
      return true;
    });
    assert.deepEqual(loaded, ["wd-4x4.f15"]); // the damaged one never reached Python
    assert.equal(await digestProblem(listed[0], new Uint8Array(3)), "");
    assert.equal(await digestProblem({ file: "x", bytes: 1 }, new Uint8Array(1)), ""); // no digest listed: nothing to check
  });

  test("a skipped one is not fetched", async () => {
    const { asked, release } = gatedFetch();
    const dbs = new Databases(fakeApi(), ["pdb-555.f15"], false, list);
    const loading = dbs.ensureShape("4x4");
    for (const f of ["wd-4x4.f15", "pdb-663.f15"]) await release(f);
    await loading;
    assert.deepEqual(asked, ["wd-4x4.f15", "pdb-663.f15"]);
  });
});
