// Tenbou's service worker, served from /sw.js so it controls the whole app.
// The server fills in VERSION (a hash of the static files) and ASSETS (their URLs).
const VERSION = "__VERSION__";
const ASSETS = __ASSETS__;
const CACHE = `tenbou-${VERSION}`;
const SHELL = "/";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // on-phone recognition (ONNX Runtime's WASM and the models, ~20 MB) is fetched when the camera
    // screen first opens, not by every visitor, and kept from then on (cacheFirst below)
    const heavy = (url) => url.startsWith("/static/vendor/") || url.startsWith("/models/");
    // The page registers the worker after it has loaded, so most of these files are already in the
    // browser's HTTP cache: ask the server only whether they changed (a 304 reuses the cached copy)
    // instead of downloading the app a second time. /api/rulesets is fresh for an hour as it is.
    const fetchOnce = (url) => fetch(url, { cache: url === "/api/rulesets" ? "default" : "no-cache" }).then((resp) => {
      if (!resp.ok) throw new TypeError(`${url}: ${resp.status}`);
      return cache.put(url, resp);
    });
    await Promise.all([SHELL, "/manifest.webmanifest", "/api/rulesets", ...ASSETS.filter((u) => !heavy(u))].map(fetchOnce));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("tenbou-") && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

async function networkFirst(request, fallbackKey) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(fallbackKey || request, response.clone());
    return response;
  } catch (err) {
    const cached = await cache.match(fallbackKey || request);
    if (cached) return cached;
    throw err;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreSearch: false });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // the app shell: fresh when online, the cached one offline (share links /t/<code> too)
    event.respondWith(networkFirst(request, SHELL));
  } else if (url.pathname === "/api/rulesets" || url.pathname === "/manifest.webmanifest"
             || url.pathname === "/offline-worker.js" || url.pathname === "/offline/scoring.zip") {
    // offline scoring's worker and the scoring source: fresh online, the cached copy offline
    event.respondWith(networkFirst(request));
  } else if (url.pathname === "/models/info.json") {
    event.respondWith(networkFirst(request));
  } else if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/models/")) {
    event.respondWith(cacheFirst(request));
  }
  // other API calls go to the network; the app keeps the tables' last state itself
});
