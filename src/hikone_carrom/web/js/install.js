// The installable game: its service worker (app shell, offline page: js/sw.js) is registered on
// the game's pages once they have loaded, so it never competes with the first load.
if ("serviceWorker" in navigator) {
  addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  });
}
