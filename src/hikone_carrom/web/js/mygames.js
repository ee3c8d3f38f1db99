// The start page's social parts: every player's name on one device, the hints option (off by
// default for online rooms), and "my games": rooms where this browser holds a seat, checked with
// the server (rooms gone or no longer held are forgotten).
import { text } from "./hud.js";
import { addStrings, lang, show, t } from "./i18n.js";
import { allTokens, api, forgetToken } from "./net.js";

addStrings({
  en: {
    "home.hints": "Hints: the expert's suggested shot, shown to everyone when used",
    "home.names": "Players' names",
    "home.names.seat": "{color} ({side})",
    "mine.title": "Your games in progress", "mine.continue": "Continue",
    "mine.turn": "Your turn", "mine.wait": "Waiting for players", "mine.other": "{name} to shoot",
  },
  ja: {
    "home.hints": "ヒント：上級者のおすすめの手（使うと全員に表示されます）",
    "home.names": "プレイヤーの名前",
    "home.names.seat": "{color}（{side}）",
    "mine.title": "続きの試合", "mine.continue": "続ける",
    "mine.turn": "あなたの番", "mine.wait": "プレイヤーを待っています", "mine.other": "{name} の番",
  },
});

const SIDES = { 2: ["side.0", "side.1"], 4: ["side4.0", "side4.1", "side4.2", "side4.3"] };

/** A seat's colour and side in the first game of a room ("Red (south)"; R1b, R1c). */
function seatLabel(seat, players) {
  const color = t(seat % 2 === 0 ? "color.red" : "color.green");
  return t("home.names.seat", { color, side: t(SIDES[players][seat]) });
}

/**
 * Add the names of the players on one device and the hints option to the new-game form.
 * Returns {sync(), body()}: sync() after any change of mode or players; body() gives what the
 * request to create the room adds ({hints, names}).
 */
export function homeExtras(form) {
  const nameField = form.elements.name.closest(".field");
  const names = document.createElement("fieldset");
  names.className = "names";
  names.id = "names";
  const legend = document.createElement("legend");
  names.append(legend);
  const inputs = [];
  for (let seat = 0; seat < 4; seat++) {
    const label = document.createElement("label");
    label.className = "field";
    const caption = document.createElement("span");
    const input = document.createElement("input");
    input.name = `name${seat}`;
    input.maxLength = 24;
    input.autocomplete = "off";
    const error = document.createElement("span");
    error.className = "field-error";
    error.id = `err-name${seat}`;
    error.setAttribute("role", "alert");
    error.hidden = true;
    input.setAttribute("aria-describedby", error.id);
    label.append(caption, input, error);
    names.append(label);
    inputs.push({ label, caption, input, error });
  }
  nameField.closest(".row").after(names);
  const hintsRow = document.createElement("div");
  hintsRow.className = "row";
  const hintsLabel = document.createElement("label");
  hintsLabel.className = "check";
  const hints = document.createElement("input");
  hints.type = "checkbox";
  hints.name = "hints";
  const hintsText = document.createElement("span");
  hintsLabel.append(hints, hintsText);
  hintsRow.append(hintsLabel);
  form.elements.timed.closest(".row").after(hintsRow);
  let touched = false;
  hints.addEventListener("change", () => (touched = true));

  const sync = () => {
    const mode = form.elements.mode.value;
    const players = Number(form.elements.players.value);
    const hotseat = mode === "hotseat";
    names.hidden = !hotseat;
    nameField.hidden = hotseat;
    legend.textContent = t("home.names");
    hintsText.textContent = t("home.hints");
    inputs.forEach(({ label, caption }, seat) => {
      label.hidden = seat >= players;
      caption.textContent = seatLabel(seat, players);
    });
    if (!touched) hints.checked = mode !== "online";
  };

  const body = () => {
    const mode = form.elements.mode.value;
    const players = Number(form.elements.players.value);
    const out = { hints: hints.checked };
    if (mode === "hotseat") out.names = inputs.slice(0, players).map(({ input }) => input.value.trim());
    return out;
  };
  /** Each refused name's sentence under its field ({"names.1": {en, ja}, ...}); true if any. */
  const showErrors = (fields) => {
    let shown = false;
    inputs.forEach(({ input, error }, seat) => {
      const msg = fields && fields[`names.${seat}`];
      error.hidden = !msg;
      show(error, msg || null);
      input.toggleAttribute("aria-invalid", Boolean(msg));
      if (msg && !shown) input.focus();
      shown ||= Boolean(msg);
    });
    return shown;
  };
  return { sync, body, showErrors };
}

/** "Your games in progress" above the form; rooms the server no longer knows are forgotten. */
export async function renderMyGames(container) {
  const held = allTokens();
  container.hidden = true;
  if (!held.length) return;
  let answer;
  try {
    answer = await api("/api/my-rooms", { method: "POST", body: { rooms: held.slice(0, 50).map(([room_id, token]) => ({ room_id, token })) } });
  } catch {
    return; // the list is a convenience: without the server it is simply not shown
  }
  for (const id of answer.stale) forgetToken(id);
  const going = answer.rooms.filter((r) => !r.over);
  container.replaceChildren();
  if (!going.length) return;
  container.hidden = false;
  container.append(text("h2", t("mine.title")));
  const ul = document.createElement("ul");
  const fmt = new Intl.DateTimeFormat(lang() === "ja" ? "ja-JP" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
  for (const r of going) {
    const li = document.createElement("li");
    li.dataset.room = r.room_id;
    const who = r.names.map((n, seat) => (r.kinds[seat] === "computer" ? t("seat.computer") : n || seatLabel(seat, r.players)));
    const what = document.createElement("span");
    what.className = "what";
    what.append(text("strong", t(`mode.${r.mode}.short`)), " · ", who.join(" · "));
    // on one device every seat is this browser's: name who shoots
    const mineNow = r.your_turn && r.mode !== "hotseat";
    const status = r.waiting ? t("mine.wait") : mineNow ? t("mine.turn") : t("mine.other", { name: who[r.shooter] ?? "" });
    const s = text("span", `${status} · ${fmt.format(new Date(r.updated_at))}`, `status${r.your_turn ? " turn" : ""}`);
    const a = document.createElement("a");
    a.className = "button primary";
    a.href = `/room/${r.room_id}`;
    a.dataset.link = "";
    a.textContent = t("mine.continue");
    li.append(what, s, a);
    ul.append(li);
  }
  container.append(ul);
}
