// offline.js: what the precache asks for, and how (integrity from build-info.json's SHA-256).

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { sha256Hex } from "../../static/js/model/digest.js";
import { integrityOf, precacheFiles } from "../../static/js/offline.js";
import { DOWNLOADS_CACHE, SNAPSHOT_CACHE } from "../../static/js/solver/protocol.js";

describe("precache", () => {
  test("a build-info SHA-256 becomes the fetch integrity of the same bytes", () => {
    const data = Buffer.from("print('fifteen')\n");
    const hex = createHash("sha256").update(data).digest("hex");
    assert.equal(integrityOf(hex), `sha256-${createHash("sha256").update(data).digest("base64")}`);
    assert.equal(integrityOf(hex.toUpperCase()), integrityOf(hex));
  });
  test("no integrity for a missing or malformed digest (the fetch is then unchecked)", () => {
    assert.equal(integrityOf(undefined), "");
    assert.equal(integrityOf("abc"), "");
    assert.equal(integrityOf("z".repeat(64)), "");
  });
  test("every file of the build but the service worker's own script", () => {
    const info = { files: { "index.html": { bytes: 1 }, "sw.js": { bytes: 2 }, "static/js/main.js": { bytes: 3 } } };
    assert.deepEqual(
      precacheFiles(info).map(([p]) => p),
      ["index.html", "static/js/main.js"],
    );
    assert.deepEqual(precacheFiles(null), []);
  });
});

describe("the service worker", () => {
  test("keeps the caches of the worker's downloads and snapshot under the names the page and the worker use", () => {
    const sw = readFileSync(new URL("../../sw.js", import.meta.url), "utf8");
    assert.equal(sw.match(/^const DOWNLOADS = "([^"]+)";$/m)?.[1], DOWNLOADS_CACHE);
    assert.equal(sw.match(/^const SNAPSHOT = "([^"]+)";$/m)?.[1], SNAPSHOT_CACHE);
    assert.match(sw, /key !== CACHE && key !== PACKS && key !== DOWNLOADS && key !== SNAPSHOT\)/); // not deleted on activation
    assert.match(sw, /if \(url\.pathname\.endsWith\("\.wasm"\)\) return;/); // the wasm is left to the HTTP cache
  });
});

describe("sha256Hex", () => {
  test("is the hex digest build-info.json and the wheel manifest list", async () => {
    const data = new TextEncoder().encode("fifteen");
    assert.equal(await sha256Hex(data), createHash("sha256").update(data).digest("hex"));
    assert.equal(await sha256Hex(data.buffer), createHash("sha256").update(data).digest("hex"));
  });
});
