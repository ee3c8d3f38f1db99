// The start page's lobby: "play someone now" (a seek, polled until paired, then into the room),
// the open challenges anyone may accept, and the live games to watch (GET /api/live).
import { addStrings, applyI18n, onLangChange, show, t } from "./i18n.js";
import { api, saveToken } from "./net.js";

addStrings({
  en: {
    "lobby.title": "Play someone now", "lobby.time": "Time",
    "lobby.5min": "5 minutes (championship rules)", "lobby.untimed": "Untimed",
    "lobby.seek": "Find an opponent", "lobby.challenge": "Open a challenge", "lobby.cancel": "Cancel",
    "lobby.waiting": "Looking for an opponent…", "lobby.waiting4": "Looking for three more players…",
    "lobby.open": "Your challenge is open: waiting for someone to accept it…",
    "lobby.challenges": "Open challenges", "lobby.live": "Live games",
    "lobby.accept": "Accept", "lobby.watch": "Watch", "lobby.rated": "rated",
    "lobby.none": "No open challenge.", "lobby.nolive": "No game in play right now.",
    "lobby.guest": "Guest", "lobby.game": "{players} · {time}", "lobby.seats": "{n} of {of} seats",
    "lobby.singles": "singles", "lobby.doubles": "doubles", "lobby.5": "5 min", "lobby.0": "untimed",
  },
  ja: {
    "lobby.title": "今すぐ対戦", "lobby.time": "持ち時間",
    "lobby.5min": "5分（大会ルール）", "lobby.untimed": "時間制限なし",
    "lobby.seek": "対戦相手を探す", "lobby.challenge": "挑戦を募集する", "lobby.cancel": "やめる",
    "lobby.waiting": "対戦相手を探しています…", "lobby.waiting4": "あと3人を探しています…",
    "lobby.open": "挑戦を募集中です。受ける人を待っています…",
    "lobby.challenges": "募集中の挑戦", "lobby.live": "対戦中の試合",
    "lobby.accept": "受ける", "lobby.watch": "観戦", "lobby.rated": "レーティング戦",
    "lobby.none": "募集中の挑戦はありません。", "lobby.nolive": "いま対戦中の試合はありません。",
    "lobby.guest": "ゲスト", "lobby.game": "{players}・{time}", "lobby.seats": "{of}席中{n}席",
    "lobby.singles": "シングルス", "lobby.doubles": "ダブルス", "lobby.5": "5分", "lobby.0": "時間制限なし",
  },
});

const POLL_MS = 400;
const LIST_MS = 3000;

/** "singles · 5 min" for a game of `players` and `minutes` (null or 0: untimed). */
function gameText(players, minutes) {
  return t("lobby.game", {
    players: t(players === 4 ? "lobby.doubles" : "lobby.singles"),
    time: t(minutes ? "lobby.5" : "lobby.0"),
  });
}

/**
 * Run the lobby in its section of the start page; `go(path)` opens a page of the game.
 * Returns {dispose()}: stops polling and withdraws a seek still waiting.
 * @param {HTMLElement} root
 * @param {(path: string) => void} go
 */
export function mountLobby(root, go) {
  const form = /** @type {HTMLFormElement} */ (root.querySelector(".lobby-seek"));
  const wait = /** @type {HTMLElement} */ (root.querySelector(".lobby-wait"));
  const waitText = /** @type {HTMLElement} */ (root.querySelector(".lobby-wait-text"));
  const error = /** @type {HTMLElement} */ (root.querySelector(".lobby-error"));
  const challengesList = /** @type {HTMLElement} */ (root.querySelector(".lobby-challenges"));
  const liveList = /** @type {HTMLElement} */ (root.querySelector(".lobby-live"));
  /** @type {{id: string, token: string} | null} */
  let mine = null;
  let pollTimer = 0;
  let listTimer = 0;
  let gone = false;
  let challenges = [];
  let games = [];

  const name = () => {
    const input = /** @type {HTMLInputElement | null} */ (document.querySelector("#newgame [name=name]"));
    return (input?.value ?? localStorage.getItem("hikone-carrom.name") ?? "").trim();
  };
  const auth = () => ({ authorization: `Bearer ${mine?.token}`, "content-type": "application/json" });

  function waiting(msg) {
    wait.hidden = !msg;
    form.querySelectorAll("button, select").forEach((el) => { /** @type {HTMLButtonElement} */ (el).disabled = !!msg; });
    show(waitText, msg);
  }

  async function start(path, body, msg) {
    show(error, null);
    try {
      mine = await api(path, { method: "POST", body });
    } catch (err) {
      show(error, err.msg);
      return;
    }
    waiting(msg);
    poll();
  }

  async function poll() {
    if (!mine || gone) return;
    try {
      const seek = await api(`/api/seeks/${mine.id}`, { headers: auth() });
      if (seek.status === "paired") {
        mine = null;
        saveToken(seek.room, seek.seat_token);
        go(`/room/${seek.room}`);
        return;
      }
    } catch (err) {
      if (err.status === 404 || err.status === 403) {
        mine = null;
        waiting(null);
        show(error, err.msg);
        return;
      }
    }
    pollTimer = window.setTimeout(poll, POLL_MS);
  }

  async function cancel() {
    const held = mine;
    mine = null;
    window.clearTimeout(pollTimer);
    waiting(null);
    if (held) {
      await api(`/api/seeks/${held.id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${held.token}` },
      }).catch(() => {});
    }
  }

  function render() {
    const mineId = mine?.id;
    const open = challenges.filter((c) => c.id !== mineId);
    challengesList.replaceChildren(...(open.length ? open.map((c) => {
      const li = document.createElement("li");
      const what = document.createElement("span");
      what.className = "what";
      const seats = c.players === 4 ? ` · ${t("lobby.seats", { n: c.seats_taken, of: c.players })}` : "";
      what.textContent = `${c.name || t("lobby.guest")} — ${gameText(c.players, c.minutes)}${seats}`;
      const take = document.createElement("button");
      take.type = "button";
      take.textContent = t("lobby.accept");
      take.disabled = !!mine;
      take.addEventListener("click", () => start(`/api/challenges/${c.id}/accept`, { name: name() },
        c.players === 4 ? "lobby.waiting4" : "lobby.waiting"));
      li.append(what, take);
      return li;
    }) : [empty("lobby.none")]));
    liveList.replaceChildren(...(games.length ? games.map((g) => {
      const li = document.createElement("li");
      const what = document.createElement("span");
      what.className = "what";
      what.textContent = `${g.players.join(" – ")} — ${gameText(g.players.length, g.minutes)}`;
      li.append(what);
      if (g.rated) {
        const badge = document.createElement("span");
        badge.className = "rated";
        badge.textContent = t("lobby.rated");
        li.append(badge);
      }
      const watch = document.createElement("a");
      watch.className = "button";
      watch.href = `/room/${g.id}`;
      watch.dataset.link = "";
      watch.textContent = t("lobby.watch");
      li.append(watch);
      return li;
    }) : [empty("lobby.nolive")]));
  }

  function empty(key) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t(key);
    return li;
  }

  async function refresh() {
    if (gone) return;
    try {
      const [c, l] = await Promise.all([api("/api/challenges"), api("/api/live")]);
      challenges = c.challenges;
      games = l.games;
      render();
    } catch {
      // the lists stay as they were; the next refresh tries again
    }
    listTimer = window.setTimeout(refresh, LIST_MS);
  }

  /** The game chosen in the form: {players, minutes}. */
  const chosen = () => {
    const fd = new FormData(form);
    return { players: Number(fd.get("players")), minutes: Number(fd.get("minutes")) };
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const { players, minutes } = chosen();
    start("/api/seeks", { minutes, players, name: name() }, players === 4 ? "lobby.waiting4" : "lobby.waiting");
  });
  root.querySelector(".lobby-challenge")?.addEventListener("click", () => {
    const { players, minutes } = chosen();
    start("/api/challenges", { minutes, players, name: name() }, "lobby.open");
  });
  root.querySelector(".lobby-cancel")?.addEventListener("click", cancel);
  const off = onLangChange(() => {
    applyI18n(root);
    render();
  });
  render();
  refresh();

  return {
    dispose() {
      gone = true;
      off();
      window.clearTimeout(listTimer);
      if (mine) cancel();
    },
  };
}
