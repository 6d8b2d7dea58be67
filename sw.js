/*
 * Fifteen's service worker: makes the app work offline after the first visit.
 *
 * Registered by static/js/control/offline.js as `sw.js?v=<build version>` (the version
 * comes from static/build-info.json, written by `make web`), so each build gets
 * its own cache "fifteen-<version>"; older caches are deleted on activation.
 *
 * Strategy (same-origin GET requests only):
 *   - pages and static/build-info.json: network first, cached copy when offline;
 *   - the runtime's wasm: not handled (see below);
 *   - everything else (scripts, runtime, wheels, databases): cache first, and
 *     whatever is fetched from the network is cached on the way.
 * Nothing is fetched on install: the page has just downloaded the app shell, and once
 * the solver has loaded it caches every file of the build (listed in build-info.json)
 * through this worker, each fetched from the browser's HTTP cache when it is there (with
 * its SHA-256 as the request's integrity, so a stale copy is never taken): no file of a
 * first visit is downloaded twice (offline.js, precacheAll).
 *
 * Cached responses are served as they are (not rebuilt), so that Chromium's code cache
 * for cached scripts works; only pages and the solver worker's script are rebuilt, to carry
 * the headers below.  The runtime's wasm (pyodide.asm.wasm) is cached (for offline use) but
 * never served from here: Chromium reuses its compiled code only for a copy from its HTTP
 * cache (a reload's runtime start 2.2 s instead of 2.9 s, tools/web_bench.py --startup), so
 * the solver worker takes the HTTP cache's copy when there is one and this cache's copy
 * otherwise (static/js/worker/boot.js, runtimeWasm).
 *
 * Optional packs (static/db manifest "packs", e.g. the 7-8 database) are fetched
 * only when the user asks, bypass this worker (`?pack`), and are kept by the
 * solver worker in the unversioned cache "fifteen-packs", which survives updates.
 *
 * Responses it serves carry COOP/COEP headers, so from the second visit on the
 * page is cross-origin isolated (no server configuration needed): the solver
 * worker can then use Pyodide's interrupt buffer, and Cancel stops a search
 * without restarting Python.
 *
 * They also carry the Content-Security-Policy (CSP below): on pages (navigations),
 * the policy of index.html's <meta> plus frame-ancestors (which a meta tag cannot
 * carry); on the solver worker's script, the same policy, because a worker takes its
 * policy from its own response, never from the page's meta (from a plain static host
 * it has none).  Appended, so a host's own policy stays in force as well.
 */

const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const CACHE = `fifteen-${VERSION}`;
// Optional packs the user chose to download (the solver worker fills it): kept
// across builds, never cleaned up here, never filled by the fetch handler.
const PACKS = "fifteen-packs";
// The runtime's wasm as the solver worker downloaded it on a first visit (it does not come through
// here): offline.js's precache moves it into CACHE (its SHA-256 checked) and deletes this one.
// Keep equal to solver/protocol.js's DOWNLOADS_CACHE.
const DOWNLOADS = "fifteen-downloads";
// The solver worker's memory snapshot of its first start (worker/snapshot.js): it names the build
// it belongs to, so it is kept here and replaced by the worker.  Keep equal to solver/protocol.js's SNAPSHOT_CACHE.
const SNAPSHOT = "fifteen-snapshot";
// Keep equal to the <meta http-equiv="Content-Security-Policy"> in index.html (a test checks).
// 'wasm-unsafe-eval' is what Pyodide needs in the worker (WebAssembly compilation, no JS eval).
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; " +
  "worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";
// Pages (top-level or framed navigations) also refuse to be framed.
const CSP_PAGE = `${CSP}; frame-ancestors 'none'`;

self.addEventListener("install", (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith("fifteen-") && key !== CACHE && key !== PACKS && key !== DOWNLOADS && key !== SNAPSHOT) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

/**
 * A page (navigation) or the solver worker's script, with the COOP/COEP headers and the CSP;
 * any other response unchanged (same-origin subresources need no CORP header under COEP, and
 * a rebuilt Response would lose Chromium's code cache of a cached script).
 */
function isolate(resp, request) {
  if (!resp || resp.status !== 200 || resp.type === "opaque") return resp;
  const policy = request.mode === "navigate" ? CSP_PAGE : request.destination === "worker" ? CSP : null;
  if (!policy) return resp;
  const headers = new Headers(resp.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  headers.append("Content-Security-Policy", policy);
  return new Response(resp.body, { status: resp.status, statusText: resp.statusText, headers });
}

function networkFirst(request, fallbacks) {
  return fetch(request)
    .then(async (resp) => {
      if (resp.ok && resp.type === "basic") {
        const cache = await caches.open(CACHE);
        await cache.put(request, resp.clone());
      }
      return resp;
    })
    .catch(async () => {
      const cache = await caches.open(CACHE);
      for (const key of [request, ...fallbacks]) {
        const hit = await cache.match(key, { ignoreSearch: key !== request });
        if (hit) return hit;
      }
      return Response.error();
    });
}

/** The cached copy, else the network's answer, returned at once (a download streams on to its
 * reader) while a copy is stored (the event is kept alive until it is). */
async function cacheFirst(event) {
  const request = event.request;
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const resp = await fetch(request);
  if (resp.ok && resp.type === "basic" && resp.status === 200) {
    event.waitUntil(cache.put(request, resp.clone()).catch((e) => console.warn("not cached:", request.url, e)));
  }
  return resp;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.headers.has("range")) return;
  // An optional pack's download (worker/worker.js asks with ?pack): straight to the network,
  // so the ~100 MB file is not also stored in the versioned cache.
  if (url.searchParams.has("pack")) return;
  // The runtime's wasm: left to the browser's HTTP cache, which keeps its compiled code (a copy
  // served from Cache Storage is compiled again on every start); the solver worker takes the
  // copy cached here itself when the HTTP cache has none (worker/boot.js, runtimeWasm).
  if (url.pathname.endsWith(".wasm")) return;
  const scope = new URL(self.registration.scope);
  const harden = (resp) => isolate(resp, request);
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, [new URL("index.html", scope).href, scope.href]).then(harden));
  } else if (url.pathname.endsWith("/static/build-info.json")) {
    event.respondWith(networkFirst(request, []).then(harden));
  } else {
    event.respondWith(cacheFirst(event).then(harden));
  }
});
