// offline.js: what the precache asks for, and how (integrity from build-info.json's SHA-256).

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import vm from "node:vm";
import { describe, test } from "node:test";

import { sha256Hex } from "../../static/js/model/digest.js";
import { integrityOf, precacheFiles } from "../../static/js/control/offline.js";
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
    const info = { files: { "index.html": { bytes: 1 }, "sw.js": { bytes: 2 }, "static/js/control/main.js": { bytes: 3 } } };
    assert.deepEqual(
      precacheFiles(info).map(([p]) => p),
      ["index.html", "static/js/control/main.js"],
    );
    assert.deepEqual(precacheFiles(null), []);
  });
});

/**
 * sw.js run as a service worker of `version` (node:vm): its handlers, with fake Cache Storage
 * (`caches`: name -> Map(url -> Response)) and network (`fetch`: the URLs asked, each answered 200).
 */
function serviceWorker(version = "abc", cacheNames = []) {
  const handlers = {};
  const stores = new Map(cacheNames.map((n) => [n, new Map()]));
  const fetched = [];
  const open = async (name) => {
    if (!stores.has(name)) stores.set(name, new Map());
    const store = stores.get(name);
    return {
      match: async (req) => store.get(typeof req === "string" ? req : req.url)?.clone(),
      put: async (req, resp) => void store.set(typeof req === "string" ? req : req.url, resp),
    };
  };
  const self = {
    location: new URL(`https://example.org/app/sw.js?v=${version}`),
    registration: { scope: "https://example.org/app/" },
    clients: { claim: async () => {} },
    addEventListener: (type, handler) => (handlers[type] = handler),
    skipWaiting: async () => {},
  };
  const caches = {
    keys: async () => [...stores.keys()],
    delete: async (name) => stores.delete(name),
    open,
    match: async () => undefined,
  };
  const fetch = async (req) => {
    fetched.push(typeof req === "string" ? req : req.url);
    const resp = new Response("body", { status: 200, headers: { "content-type": "text/html" } });
    return Object.defineProperty(resp, "type", { value: "basic" }); // a same-origin response, as in a browser
  };
  const context = vm.createContext({ self, caches, fetch, Response, Headers, URL, console });
  vm.runInContext(readFileSync(new URL("../../sw.js", import.meta.url), "utf8"), context);
  /** Dispatch a fetch of `url`: the promise given to respondWith, or null when the worker leaves the request alone. */
  const request = (url, { mode = "cors", destination = "", headers = {} } = {}) => {
    let answer = null;
    const waits = [];
    const req = { url, method: "GET", mode, destination, headers: new Headers(headers) };
    handlers.fetch({ request: req, respondWith: (p) => (answer = p), waitUntil: (p) => waits.push(p) });
    return answer && answer.then(async (resp) => (await Promise.all(waits), resp));
  };
  const activate = async () => {
    let done;
    handlers.activate({ waitUntil: (p) => (done = p) });
    await done;
  };
  return { stores, fetched, request, activate };
}

describe("the service worker", () => {
  test("on activation it deletes older builds' caches and keeps the packs, the worker's downloads and its snapshot", async () => {
    const sw = serviceWorker("v2", ["fifteen-v1", "fifteen-v2", "fifteen-packs", DOWNLOADS_CACHE, SNAPSHOT_CACHE, "someone-else"]);
    await sw.activate();
    assert.deepEqual([...sw.stores.keys()].sort(), ["fifteen-packs", "fifteen-v2", DOWNLOADS_CACHE, SNAPSHOT_CACHE, "someone-else"].sort());
  });

  test("the runtime's wasm, a pack's download and other origins are left to the browser", () => {
    const sw = serviceWorker();
    assert.equal(sw.request("https://example.org/app/static/vendor/pyodide/pyodide.asm.wasm"), null);
    assert.equal(sw.request("https://example.org/app/static/db/pdb78.f15.xz?pack"), null);
    assert.equal(sw.request("https://cdn.example.com/x.js"), null);
  });

  test("a script is served from the build's cache once fetched; a page carries the isolation headers and the CSP", async () => {
    const sw = serviceWorker("v3");
    const url = "https://example.org/app/static/js/control/main.js";
    const first = await sw.request(url);
    assert.equal(await first.text(), "body");
    assert.ok(sw.stores.get("fifteen-v3").has(url), "cached on the way");
    await sw.request(url);
    assert.deepEqual(sw.fetched, [url], "the second request is the cache's");
    assert.equal(first.headers.get("Cross-Origin-Embedder-Policy"), null, "a subresource is served as it is");
    const page = await sw.request("https://example.org/app/index.html", { mode: "navigate" });
    assert.equal(page.headers.get("Cross-Origin-Opener-Policy"), "same-origin");
    assert.equal(page.headers.get("Cross-Origin-Embedder-Policy"), "require-corp");
    const csp = page.headers.get("Content-Security-Policy");
    const meta = readFileSync(new URL("../../index.html", import.meta.url), "utf8").match(/http-equiv="Content-Security-Policy"\s+content="([^"]+)"/)[1];
    assert.equal(csp, `${meta}; frame-ancestors 'none'`);
    const worker = await sw.request("https://example.org/app/static/js/worker/worker.js", { destination: "worker" });
    assert.equal(worker.headers.get("Content-Security-Policy"), meta);
  });
});

describe("sha256Hex", () => {
  test("is the hex digest build-info.json and the wheel manifest list", async () => {
    const data = new TextEncoder().encode("fifteen");
    assert.equal(await sha256Hex(data), createHash("sha256").update(data).digest("hex"));
    assert.equal(await sha256Hex(data.buffer), createHash("sha256").update(data).digest("hex"));
  });
});
