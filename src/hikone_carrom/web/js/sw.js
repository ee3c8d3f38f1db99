// The game's service worker (scope /): the app shell is kept on the phone and a page that cannot
// be reached while offline shows a clear offline page (ja + en) instead of the browser's error.
// The server fills in the build's prefix of every quoted /static/ URL here
// (server/core/assets.py): those files never change, so they come from the cache first. The API
// and the sockets always go to the network; the pads have their own worker (scope /pad/).
const ASSET_ROOT = "/static/";
const GAME_CACHE = `hikone-carrom-game ${ASSET_ROOT}`;
const OFFLINE = "/offline";
const GAME_SHELL = [
  OFFLINE,
  "/static/style.css",
  "/static/social.css",
  "/static/favicon.svg",
  "/static/icons/icon-192.png",
  "/static/manifest.webmanifest",
  "/static/js/main.js",
  "/static/js/install.js",
];
const game = /** @type {PadServiceWorkerScope} */ (/** @type {unknown} */ (self));

game.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(GAME_CACHE).then((c) => c.addAll(GAME_SHELL)).then(() => game.skipWaiting()),
  );
});

game.addEventListener("activate", (event) => {
  const stale = (/** @type {string} */ k) => k.startsWith("hikone-carrom-game") && k !== GAME_CACHE;
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter(stale).map((k) => caches.delete(k))))
      .then(() => game.clients.claim()),
  );
});

/** @param {Request} request */
function cacheFirst(request) {
  return caches.match(request).then((kept) => kept || fetch(request).then((res) => {
    if (res.ok) {
      const copy = res.clone();
      caches.open(GAME_CACHE).then((c) => c.put(request, copy));
    }
    return res;
  }));
}

game.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/pad")) return;
  if (event.request.mode === "navigate") {
    const offline = () => caches.match(OFFLINE).then((r) => r || Response.error());
    event.respondWith(fetch(event.request).catch(offline));
    return;
  }
  if (url.pathname.startsWith(ASSET_ROOT)) event.respondWith(cacheFirst(event.request));
});
