// Offline support: once the solver is ready (main.js), register the service worker
// (sw.js at the site root) and make sure every file of this build is cached.
//
// The service worker is registered as `sw.js?v=<version>`, where the version is
// a hash over static/build-info.json's file list (written by `make web`): a new
// build means a new service worker with a new cache; the old cache is deleted
// when it activates.

import { sha256Hex } from "../model/digest.js";
import { DOWNLOADS_CACHE } from "../solver/protocol.js";

const cacheName = (version) => `fifteen-${version}`;

export async function registerOffline(buildInfo, { onUpdate } = {}) {
  if (!("serviceWorker" in navigator) || !buildInfo) return;
  if (navigator.serviceWorker.controller && onUpdate) {
    // This page came from an older build's cache and a new build was just installed.
    navigator.serviceWorker.addEventListener("controllerchange", () => onUpdate(), { once: true });
  }
  try {
    // The script's URL names its build (sw.js is one of the files the version hashes), so the
    // browser's update checks may take it from the HTTP cache ("all") instead of the server.
    // (On a first visit the solver worker has started already, without it: what it downloads
    // is in the HTTP cache, from which precacheAll takes it.)
    await navigator.serviceWorker.register(`sw.js?v=${encodeURIComponent(buildInfo.version)}`, { updateViaCache: "all" });
  } catch (e) {
    console.warn("service worker not registered:", e);
  }
}

/** "sha256-<base64>" (a fetch's integrity) from the hex digest in build-info.json. */
export function integrityOf(hex) {
  if (!/^[0-9a-f]{64}$/i.test(hex || "")) return "";
  const bytes = hex.match(/../g).map((h) => parseInt(h, 16));
  return `sha256-${btoa(String.fromCharCode(...bytes))}`;
}

/** The files the precache fetches: every file of the build but the service worker's own script. */
export const precacheFiles = (buildInfo) => Object.entries(buildInfo?.files || {}).filter(([path]) => path !== "sw.js");

/**
 * Cache whatever of this build is not cached yet; resolves to {version, bytes}.
 *
 * On a first visit most files have just been downloaded, before the service worker took
 * control (the page's scripts, the solver's runtime, package and databases): each is asked for
 * with `force-cache`, i.e. from the browser's HTTP cache when it is there, and with its
 * SHA-256 as the integrity, so a stale or damaged copy fails and is fetched again from the
 * server (`reload`).  No file is downloaded twice; build-info.json itself is stored from
 * the copy the page already has.
 */
export async function precacheAll(buildInfo) {
  if (!buildInfo || !("caches" in window) || !("serviceWorker" in navigator)) return null;
  await navigator.serviceWorker.ready;
  const cache = await caches.open(cacheName(buildInfo.version));
  const downloads = await caches.open(DOWNLOADS_CACHE);
  const infoUrl = new URL("static/build-info.json", document.baseURI).href;
  if (!(await cache.match(infoUrl))) {
    await cache.put(infoUrl, new Response(JSON.stringify(buildInfo), { headers: { "Content-Type": "application/json" } }));
  }
  let bytes = 0;
  for (const [path, file] of precacheFiles(buildInfo)) {
    const url = new URL(path, document.baseURI).href;
    let have = !!(await cache.match(url));
    if (!have) {
      // what the solver worker kept from its own download (worker/boot.js), when it is this build's file
      const downloaded = await downloads.match(url);
      have = !!downloaded && (await sha256Hex(await downloaded.clone().arrayBuffer())) === file.sha256;
      if (have) await cache.put(url, downloaded);
    }
    if (!have) {
      const integrity = integrityOf(file.sha256);
      let resp;
      try {
        resp = await fetch(url, { cache: "force-cache", integrity });
      } catch {
        resp = null; // a stale copy in the HTTP cache (integrity) or a network error: once more from the server
      }
      if (!resp || !resp.ok) resp = await fetch(url, { cache: "reload", integrity }).catch(() => null);
      if (!resp) {
        // the server's copy differs from build-info.json (a file edited without `make web`)
        console.warn(`${path}: not the file build-info.json lists (run make web); cached as served`);
        resp = await fetch(url, { cache: "reload" });
      }
      if (!resp.ok) throw new Error(`${path}: ${resp.status}`);
      // (the service worker, which answered, may have stored it already: then this is the same copy)
      if (!(await cache.match(url))) await cache.put(url, resp);
    }
    bytes += file.bytes;
  }
  await caches.delete(DOWNLOADS_CACHE);
  return { version: buildInfo.version, bytes };
}
