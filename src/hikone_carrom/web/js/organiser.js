// The organiser's key: creating events and boards needs it. The server prints a sign-in link,
// http://HOST:PORT/?key=KEY, when it starts (`hikone-carrom play` opens it); any page opened
// with ?key= keeps the key in this browser and drops it from the address bar.
const STORE = "hikone-carrom.organiser-key";

/** The sentence shown where something would be created without the key. */
export const NO_KEY = {
  ja: "大会や台を作るには主催者キーが必要です。サーバーの起動時に表示されたサインイン用リンク（http://ホスト:ポート/?key=…）をこのブラウザで開いてください。",
  en: "Creating events and boards needs the organiser's key: open the sign-in link the server printed when it started (http://HOST:PORT/?key=…) in this browser.",
};

/** Keep a ?key= of the address in this browser and take it out of the address bar. */
export function takeKeyFromUrl() {
  const url = new URL(location.href);
  const given = url.searchParams.get("key");
  if (given === null) return;
  if (given) localStorage.setItem(STORE, given);
  url.searchParams.delete("key");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}

/** The organiser's key kept in this browser, or null. @returns {string | null} */
export function organiserKey() {
  return localStorage.getItem(STORE);
}

/** Headers carrying the key (none without it). @returns {Record<string, string>} */
export function organiserHeaders() {
  const key = organiserKey();
  return key ? { Authorization: `Bearer ${key}` } : {};
}

takeKeyFromUrl();
