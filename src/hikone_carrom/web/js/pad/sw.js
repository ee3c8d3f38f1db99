// The pad's service worker: the pad's page and scripts are kept on the device so that a reload
// works without the gym's Wi-Fi. Network first (fresh when online), the cache when not; the
// API and the WebSocket always go to the network (the pad queues its entries itself). The
// server fills in the build's prefix of every quoted /static/ URL here (server/core/assets.py):
// a new release is a new script and a new cache, the old one dropped.
const STATIC = "/static/";
const CACHE = `hikone-carrom-pad ${STATIC}`;
const SHELL = "/pad/";
const ASSETS = [
  SHELL,
  "/static/pad.css",
  "/static/favicon.svg",
  "/static/js/pad/pad.js",
  "/static/js/pad/match.js",
  "/static/js/pad/referee.js",
  "/static/js/pad/shared-rules.js",
  "/static/js/pad/clock.js",
  "/static/js/pad/sync.js",
  "/static/js/pad/strings.js",
  "/static/js/organiser.js",
];
const worker = /** @type {PadServiceWorkerScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(ASSETS)).then(() => worker.skipWaiting()));
});

worker.addEventListener("activate", (event) => {
  const stale = (/** @type {string} */ k) => k.startsWith("hikone-carrom-pad") && k !== CACHE;
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter(stale).map((k) => caches.delete(k))))
      .then(() => worker.clients.claim()),
  );
});

/** @param {Request} request @param {string} key the cache's key for it */
function fromNetwork(request, key) {
  return fetch(request).then((res) => {
    if (res.ok) {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(key, copy));
    }
    return res;
  });
}

worker.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (event.request.mode === "navigate" && url.pathname.startsWith("/pad")) {
    // every pad page is the same shell: /pad/{board} works offline once any pad was opened
    event.respondWith(fromNetwork(event.request, SHELL).catch(() => caches.match(SHELL)));
    return;
  }
  if (ASSETS.includes(url.pathname)) {
    event.respondWith(fromNetwork(event.request, url.pathname).catch(() => caches.match(url.pathname)));
  }
});
