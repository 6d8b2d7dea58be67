// worker/assets.js: the databases of a shape are downloaded at once (those READY needs before
// Python is up) and handed to Python in the manifest's order; a missing one is a warning, a
// damaged one a LoadError naming it.  Those the manifest defers ("load": "idle", "asked") are
// offered as pending bounds and loaded before a request that names their bound.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { beforeEach, describe, test } from "node:test";

const posted = [];
globalThis.self ??= globalThis; // (worker/common.js posts with self.postMessage)
globalThis.self.postMessage = (msg) => posted.push(msg);

const { Databases, Load, assetsFor, digestProblem, namedBounds, withPending } = await import("../../static/js/worker/assets.js");

/** Databases with Python attached at once (the worker attaches it once the runtime is up). */
function databases(api, skip = [], controlled = false, listText = list) {
  const dbs = new Databases(skip, controlled, listText);
  dbs.attach(api);
  return dbs;
}

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
    const dbs = databases(api);
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
    const dbs = databases(api);
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
    const dbs = databases(fakeApi({ damaged: ["pdb-555.f15"] }));
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
    const dbs = databases(api);
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
    const dbs = databases(fakeApi(), ["pdb-555.f15"]);
    const loading = dbs.ensureShape("4x4");
    for (const f of ["wd-4x4.f15", "pdb-663.f15"]) await release(f);
    await loading;
    assert.deepEqual(asked, ["wd-4x4.f15", "pdb-663.f15"]);
  });
});

const DEFERRED = [
  { file: "pdb-771.f15", shapes: ["4x4"], bytes: 4, load: "idle", bound: "pdb771" },
  { file: "pdb-663.f15", shapes: ["4x4"], bytes: 1, load: "asked", bound: "pdb663" },
  { file: "pdb-555.f15", shapes: ["4x4"], bytes: 2, bound: "pdb555" },
  { file: "wd-4x4.f15", shapes: ["4x4"], bytes: 3 },
  { file: "wd-3x3.f15", shapes: ["3x3"], bytes: 1 },
];

/** fetch answering every file at once with its bytes (DEFERRED's sizes), recording what was asked. */
function openFetch(assets = DEFERRED) {
  const asked = [];
  globalThis.fetch = async (url) => {
    const file = String(url).split("/").pop();
    asked.push(file);
    if (file === "manifest.json") return new Response(JSON.stringify({ assets }));
    return new Response(new Uint8Array(assets.find((a) => a.file === file).bytes));
  };
  return asked;
}

function deferredApi() {
  const api = fakeApi();
  api.manifest = () => JSON.stringify({ ok: true, result: { assets: DEFERRED, packs: [], warnings: [] } });
  return api;
}

describe("when each database is loaded (the manifest's load)", () => {
  beforeEach(() => posted.splice(0));

  test("assetsFor: a shape's databases of one kind of load, in the manifest's order; absent means first", () => {
    assert.deepEqual(assetsFor(DEFERRED, "4x4", Load.FIRST).map((a) => a.file), ["pdb-555.f15", "wd-4x4.f15"]);
    assert.deepEqual(assetsFor(DEFERRED, "4x4", Load.IDLE).map((a) => a.file), ["pdb-771.f15"]);
    assert.deepEqual(assetsFor(DEFERRED, "4x4", Load.ASKED).map((a) => a.file), ["pdb-663.f15"]);
    assert.deepEqual(assetsFor(DEFERRED, "4x4", Load.FIRST, new Set(["wd-4x4.f15"])).map((a) => a.file), ["pdb-555.f15"]);
    assert.deepEqual(assetsFor([{ file: "x.f15", shapes: ["4x4"], load: "someday" }], "4x4", Load.FIRST).map((a) => a.file), ["x.f15"]);
  });

  test("before Python is up only the first ones are downloaded; READY's shape loads only those", async () => {
    const asked = openFetch();
    const dbs = new Databases([], false, Promise.resolve({ text: JSON.stringify({ assets: DEFERRED }) }));
    await dbs.prefetch("4x4");
    assert.deepEqual(asked, ["pdb-555.f15", "wd-4x4.f15"]);
    const api = deferredApi();
    dbs.attach(api);
    await dbs.ensureShape("4x4");
    assert.deepEqual(asked, ["pdb-555.f15", "wd-4x4.f15"], "nothing downloaded twice, nothing deferred fetched");
    assert.deepEqual(api.loaded.map(([f]) => f), ["pdb-555.f15", "wd-4x4.f15"]);
    assert.deepEqual(dbs.pendingBounds(), {
      pdb771: { file: "pdb-771.f15", bytes: 4, load: "idle", shapes: ["4x4"] },
      pdb663: { file: "pdb-663.f15", bytes: 1, load: "asked", shapes: ["4x4"] },
    });
    assert.deepEqual(dbs.pendingBounds("3x3"), {});
  });

  test("a request that names a pending bound loads its database first (after READY: `later`), once", async () => {
    const asked = openFetch();
    const api = deferredApi();
    const dbs = databases(api);
    await dbs.ensureShape("4x4");
    dbs.laterFields = () => ({ info: { bounds: {} }, heap_bytes: 7 });
    assert.equal(await dbs.ensureBounds(namedBounds({ bound: "auto" })), false, "auto loads nothing");
    assert.equal(await dbs.ensureBounds(namedBounds({ bounds: ["md", "pdb663"] })), true);
    assert.deepEqual(api.loaded.map(([f]) => f), ["pdb-555.f15", "wd-4x4.f15", "pdb-663.f15"]);
    const arrived = posted.find((m) => m.label === "pdb-663.f15" && m.state === "done");
    assert.equal(arrived.later, true);
    assert.deepEqual([arrived.info, arrived.heap_bytes], [{ bounds: {} }, 7], "its DONE tells the page the new info and heap");
    assert.equal(await dbs.ensureBounds(["pdb663"]), false);
    assert.deepEqual(asked.filter((f) => f === "pdb-663.f15"), ["pdb-663.f15"]);
    assert.deepEqual(Object.keys(dbs.pendingBounds()), ["pdb771"]);
  });

  test("a deferred database that cannot be fetched stays pending: a later request tries again", async () => {
    openFetch();
    const api = deferredApi();
    const dbs = databases(api);
    await dbs.ensureShape("4x4");
    globalThis.fetch = async () => new Response("", { status: 404, statusText: "Not Found" });
    await dbs.ensureBounds(["pdb771"]);
    assert.ok(dbs.pendingBounds().pdb771, "still offered");
    assert.match(posted.find((m) => m.type === "warning").message, /pdb-771\.f15.*404/);
    openFetch();
    await dbs.ensureBounds(["pdb771"]);
    assert.equal(dbs.pendingBounds().pdb771, undefined);
    assert.ok(api.loaded.some(([f]) => f === "pdb-771.f15"));
  });

  test("namedBounds: a request's bound, bounds and its pool tasks' bounds, once each, auto left out", () => {
    assert.deepEqual(namedBounds({ bound: "pdb663", bounds: ["md", "pdb663"], tasks: [{ bound: "pdb771" }, { bound: "pdb771" }] }), ["pdb663", "md", "pdb771"]);
    assert.deepEqual(namedBounds({ bound: "auto" }), []);
    assert.deepEqual(namedBounds({}), []);
  });

  test("withPending offers the pending bounds on their shapes, strongest first, and lists them", () => {
    const info = { bounds: { "4x4": ["auto", "pdb555", "wdid", "md"], "3x3": ["auto", "md"] }, labels: { auto: "A", pdb771: "7", pdb663: "6", pdb555: "5", wdid: "W", md: "M" } };
    const pending = { pdb771: { file: "pdb-771.f15", bytes: 4, load: "idle", shapes: ["4x4"] }, pdb663: { file: "pdb-663.f15", bytes: 1, load: "asked", shapes: ["4x4"] } };
    const out = withPending(info, pending);
    assert.deepEqual(out.bounds["4x4"], ["auto", "pdb771", "pdb663", "pdb555", "wdid", "md"]);
    assert.deepEqual(out.bounds["3x3"], ["auto", "md"]);
    assert.deepEqual(out.pending, pending);
    assert.equal(withPending(info, {}), info);
  });
});
