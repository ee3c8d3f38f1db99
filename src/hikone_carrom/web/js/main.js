// Router of the single-page game: / (new game), /room/{id}, /games, /replay/{game id}.
import { applyI18n, lang, onLangChange, pick, setLang } from "./i18n.js";
import { api, saveToken } from "./net.js";
import { RoomPage } from "./room.js";
import { GamesPage, ReplayPage } from "./games.js";
import { homeExtras, renderMyGames } from "./mygames.js";

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
  else page = new HomePage(view);
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
    this.root.replaceChildren(document.getElementById("tpl-home").content.cloneNode(true));
    const form = this.root.querySelector("#newgame");
    form.elements.name.value = localStorage.getItem("hikone-carrom.name") || "";
    const extras = homeExtras(form);
    const mine = document.createElement("section");
    mine.className = "card mygames";
    mine.id = "mygames";
    form.before(mine);
    renderMyGames(mine);
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
      localStorage.setItem("hikone-carrom.name", name);
      const body = {
        mode: fd.get("mode"),
        players: Number(fd.get("players")),
        level: fd.get("mode") === "computer" ? fd.get("level") : null,
        minutes: fd.get("timed") ? Number(fd.get("minutes")) : null,
        name,
        ...extras.body(),
      };
      try {
        const res = await api("/api/rooms", { method: "POST", body });
        saveToken(res.room_id, res.token);
        navigate(`/room/${res.room_id}`);
      } catch (err) {
        extras.showErrors(err.fields);
        this.root.querySelector(".form-error").textContent = err.detail && err.detail.en ? pick(err.detail) : err.message;
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

  dispose() {
    this.off?.();
  }
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (a && a.origin === location.origin && !e.metaKey && !e.ctrlKey) {
    e.preventDefault();
    navigate(a.pathname);
  }
  const b = e.target.closest(".lang-switch button");
  if (b) setLang(b.dataset.lang);
});
window.addEventListener("popstate", route);
applyI18n(document);
route();
