// Switches remembered per browser (localStorage): sound off, high contrast.

const KEYS = { muted: "hikone-carrom.muted", contrast: "hikone-carrom.contrast" };
const listeners = new Set();

/** The remembered value of a switch ("muted" or "contrast"): true or false. */
export function pref(name) {
  try {
    return localStorage.getItem(KEYS[name]) === "1";
  } catch {
    return false;
  }
}

/** Set and remember a switch, apply it to the page and tell the listeners. */
export function setPref(name, on) {
  try {
    localStorage.setItem(KEYS[name], on ? "1" : "0");
  } catch {
    // private mode without storage: the switch holds for this page only
  }
  applyPrefs();
  for (const fn of listeners) fn(name, on);
}

/** Call fn(name, value) after every change of a switch; returns the function that stops it. */
export function onPrefChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Mark the page for high contrast and the switches' buttons as pressed or not. */
export function applyPrefs() {
  document.documentElement.classList.toggle("hc", pref("contrast"));
  for (const b of document.querySelectorAll("[data-pref]")) {
    const on = pref(b.dataset.pref);
    b.setAttribute("aria-pressed", String(b.dataset.pref === "muted" ? !on : on));
  }
}
