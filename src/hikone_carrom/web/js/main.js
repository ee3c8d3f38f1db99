// Router of the single-page game: / (new game), /room/{id}, /games, /replay/{game id}, /howto.
import { applyI18n, lang, onLangChange, setLang, show } from "./i18n.js";
import { api, fieldMessage, saveToken } from "./net.js";
import { RoomPage } from "./room.js";
import { GamesPage, ReplayPage } from "./games.js";
import { HowToPage } from "./howto.js";
import { homeExtras, renderMyGames } from "./mygames.js";
import { mountLobby } from "./lobby.js";
import { mountAccount } from "./account.js";
import { applyPrefs, pref, setPref } from "./prefs.js";
import { NAME_FORBIDDEN } from "./pad/shared-rules.js";
import "./organiser.js"; // keeps the organiser's ?key= of the sign-in link, drops it from the URL

const UNSAFE_NAME = new RegExp(`[${NAME_FORBIDDEN}]`); // as the server refuses them

const view = document.getElementById("view");
let page = null;

function route() {
  page?.dispose?.();
  page = null;
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/room\/([A-Za-z0-9_-]+)$/))) page = new RoomPage(view, m[1]);
  else if ((m = path.match(/^\/replay\/([A-Za-z0-9_-]+)$/))) page = new ReplayPage(view, m[1]);
  else if (path === "/games") page = new GamesPage(view);
  else if (path === "/howto") page = new HowToPage(view);
  else page = new HomePage(view);
  closeMenu();
  if (!location.hash) window.scrollTo(0, 0);
  page.mount();
}

export function navigate(path) {
  history.pushState(null, "", path);
  route();
}

class HomePage {
  constructor(root) {
    this.root = root;
  }

  async mount() {
    this.root.replaceChildren(/** @type {HTMLTemplateElement} */ (document.getElementById("tpl-home")).content.cloneNode(true));
    const form = this.root.querySelector("#newgame");
    form.elements.name.value = localStorage.getItem("hikone-carrom.name") || "";
    const extras = homeExtras(form);
    const mine = document.createElement("section");
    mine.className = "card mygames";
    mine.id = "mygames";
    form.before(mine);
    renderMyGames(mine);
    this.account = mountAccount(this.root.querySelector("#account"));
    this.lobby = mountLobby(this.root.querySelector("#lobby"), navigate);
    const levelSelect = form.elements.level;
    const fill = () => {
      applyI18n(this.root);
      const chosen = levelSelect.value;
      levelSelect.replaceChildren();
      for (const level of this.levels || []) {
        const o = document.createElement("option");
        o.value = level.id;
        o.textContent = lang() === "ja" ? level.ja : level.en;
        levelSelect.append(o);
      }
      const keep = chosen || "2";
      if (this.levels?.some((l) => l.id === keep)) levelSelect.value = keep;
    };
    this.off = onLangChange(() => {
      fill();
      sync();
      renderMyGames(mine);
    });
    const sync = () => {
      const mode = form.elements.mode.value;
      this.root.querySelector("#level-field").hidden = mode !== "computer";
      form.elements.minutes.disabled = !form.elements.timed.checked;
      extras.sync();
    };
    form.addEventListener("change", sync);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const fd = new FormData(form);
      const name = String(fd.get("name") || "").trim();
      const minutesText = String(fd.get("minutes") ?? "").trim();
      const minutes = Number(minutesText);
      this.clearErrors();
      const errors = {};
      if (UNSAFE_NAME.test(name)) errors.name = fieldMessage("name", "string_pattern_mismatch");
      if (fd.get("timed") && (minutesText === "" || !Number.isInteger(minutes) || minutes < 1 || minutes > 60)) {
        errors.minutes = fieldMessage("minutes", "range");
      }
      if (this.showErrors(errors)) return;
      localStorage.setItem("hikone-carrom.name", name);
      const body = {
        mode: fd.get("mode"),
        players: Number(fd.get("players")),
        level: fd.get("mode") === "computer" ? fd.get("level") : null,
        minutes: fd.get("timed") ? minutes : null,
        name,
        ...extras.body(),
      };
      try {
        const res = await api("/api/rooms", { method: "POST", body });
        saveToken(res.room_id, res.token);
        navigate(`/room/${res.room_id}`);
      } catch (err) {
        const fields = Object.entries(err.fields || {});
        const names = extras.showErrors(err.fields); // "names.1": the second player's name
        const others = Object.fromEntries(fields.filter(([key]) => !key.startsWith("names.")));
        if (!this.showErrors(others) && !names) show(form.querySelector(".form-error"), err.msg);
      }
    });
    try {
      this.levels = (await api("/api/levels")).levels;
    } catch {
      this.levels = [];
    }
    fill();
    sync();
  }

  /** Put each field's sentence next to it (fields: name -> {en, ja}); true if any was shown. */
  showErrors(fields) {
    let shown = false;
    for (const [name, msg] of Object.entries(fields || {})) {
      const el = this.root.querySelector(`#err-${name}`);
      const input = this.root.querySelector(`#newgame [name=${name}]`);
      if (!el || !input) continue;
      show(el, msg);
      el.hidden = false;
      input.setAttribute("aria-invalid", "true");
      if (!shown) input.focus();
      shown = true;
    }
    return shown;
  }

  clearErrors() {
    for (const el of this.root.querySelectorAll("#newgame .field-error")) {
      show(el, null);
      el.hidden = true;
    }
    for (const el of this.root.querySelectorAll("#newgame [aria-invalid]")) el.removeAttribute("aria-invalid");
    show(this.root.querySelector("#newgame .form-error"), null);
  }

  dispose() {
    this.off?.();
    this.lobby?.dispose();
    this.account?.dispose();
  }
}

const header = document.querySelector(".topbar");

function closeMenu() {
  header.classList.remove("menu-open");
  document.getElementById("menu-toggle").setAttribute("aria-expanded", "false");
}

document.addEventListener("click", (e) => {
  const target = /** @type {Element} */ (e.target);
  const a = /** @type {HTMLAnchorElement | null} */ (target.closest("a[data-link]"));
  if (a && a.origin === location.origin && !e.metaKey && !e.ctrlKey) {
    e.preventDefault();
    navigate(a.pathname + a.search + a.hash);
  }
  const b = /** @type {HTMLElement | null} */ (target.closest(".lang-switch button"));
  if (b) setLang(b.dataset.lang);
  const p = /** @type {HTMLElement | null} */ (target.closest("button[data-pref]"));
  if (p) setPref(p.dataset.pref, !pref(p.dataset.pref));
  if (target.closest("#menu-toggle")) {
    const open = !header.classList.contains("menu-open");
    header.classList.toggle("menu-open", open);
    document.getElementById("menu-toggle").setAttribute("aria-expanded", String(open));
  } else if (!target.closest("#menu")) closeMenu();
});
document.addEventListener("keydown", (e) => e.key === "Escape" && closeMenu());
window.addEventListener("popstate", route);
applyPrefs();
applyI18n(document);
route();
