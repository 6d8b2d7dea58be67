// Offline support: register the service worker (sw.js at the site root) and,
// once the solver is ready, make sure every file of this build is cached.
//
// The service worker is registered as `sw.js?v=<version>`, where the version is
// a hash over static/build-info.json's file list (written by `make web`): a new
// build means a new service worker with a new cache; the old cache is deleted
// when it activates.

const cacheName = (version) => `fifteen-${version}`;

export async function registerOffline(buildInfo, { onUpdate } = {}) {
  if (!("serviceWorker" in navigator) || !buildInfo) return;
  if (navigator.serviceWorker.controller && onUpdate) {
    // This page came from an older build's cache and a new build was just installed.
    navigator.serviceWorker.addEventListener("controllerchange", () => onUpdate(), { once: true });
  }
  try {
    await navigator.serviceWorker.register(`sw.js?v=${encodeURIComponent(buildInfo.version)}`);
  } catch (e) {
    console.warn("service worker not registered:", e);
    return;
  }
  if (!navigator.serviceWorker.controller) {
    // First visit: wait (briefly) for the worker to take control, so the
    // solver's downloads go through it and are cached as they arrive.
    await Promise.race([
      new Promise((res) => navigator.serviceWorker.addEventListener("controllerchange", res, { once: true })),
      new Promise((res) => setTimeout(res, 3000)),
    ]);
  }
}

/** Cache whatever of this build is not cached yet; resolves to {version, bytes}. */
export async function precacheAll(buildInfo) {
  if (!buildInfo || !("caches" in window) || !("serviceWorker" in navigator)) return null;
  await navigator.serviceWorker.ready;
  const cache = await caches.open(cacheName(buildInfo.version));
  let bytes = 0;
  for (const [path, file] of Object.entries(buildInfo.files)) {
    const url = new URL(path, document.baseURI).href;
    if (!(await cache.match(url))) {
      const resp = await fetch(url, { cache: "no-cache" });
      if (!resp.ok) throw new Error(`${path}: ${resp.status}`);
      await cache.put(url, resp);
    }
    bytes += file.bytes;
  }
  return { version: buildInfo.version, bytes };
}
