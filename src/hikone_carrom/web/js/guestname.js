// A guest taking a seat in an online room is asked for a name first (an invite's link leads
// here): the other players see it in the chat, the results and the analysis; left empty, the
// seat keeps its colour and side ("Green (north)", 「緑（北）」). The name rules are the server's
// (web/js/pad/shared-rules.js, at most 24 characters).
import { addStrings, applyI18n, show, t } from "./i18n.js";
import { fieldMessage } from "./net.js";
import { NAME_FORBIDDEN } from "./pad/shared-rules.js";

addStrings({
  en: {
    "guest.title": "Your name",
    "guest.lede": "The other players see it in the chat and the results. Left empty, you are {seat}.",
    "guest.take": "Take the seat", "guest.cancel": "Cancel",
  },
  ja: {
    "guest.title": "お名前",
    "guest.lede": "チャットや結果で相手に表示されます。空欄なら「{seat}」と表示されます。",
    "guest.take": "この席に着く", "guest.cancel": "やめる",
  },
});

const UNSAFE_NAME = new RegExp(`[${NAME_FORBIDDEN}]`);
const NAME_MAX = 24;

/**
 * Ask for the guest's name (prefilled with `initial`; `seat` the seat's name in the page's
 * language, kept when the name is left empty); resolves the name ("" for none), or null if
 * cancelled.
 * @param {HTMLElement} root where the dialog goes
 * @param {string} initial
 * @param {string} seat
 * @returns {Promise<string | null>}
 */
export function askGuestName(root, initial, seat) {
  const dialog = document.createElement("dialog");
  dialog.className = "confirm guest-name";
  dialog.id = "guest-name";
  dialog.innerHTML = `<form method="dialog" novalidate>
    <h2 data-i18n="guest.title">Your name</h2>
    <p class="guest-lede"></p>
    <label class="field"><span data-i18n="guest.title">Your name</span>
      <input name="name" autocomplete="nickname" maxlength="${NAME_MAX}"></label>
    <p class="form-error" role="alert"></p>
    <div class="row"><button class="primary" type="submit" value="take" data-i18n="guest.take">Take the seat</button>
      <button type="submit" value="cancel" formnovalidate data-i18n="guest.cancel">Cancel</button></div>
  </form>`;
  applyI18n(dialog);
  root.append(dialog);
  const form = /** @type {HTMLFormElement} */ (dialog.querySelector("form"));
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("name"));
  const error = /** @type {HTMLElement} */ (dialog.querySelector(".form-error"));
  input.value = initial;
  input.placeholder = seat;
  /** @type {HTMLElement} */ (dialog.querySelector(".guest-lede")).textContent = t("guest.lede", { seat });
  input.addEventListener("input", () => show(error, null));
  return new Promise((resolve) => {
    const done = (/** @type {string | null} */ name) => {
      dialog.close();
      dialog.remove();
      resolve(name);
    };
    form.addEventListener("submit", (e) => {
      const submitter = /** @type {HTMLButtonElement | null} */ (/** @type {SubmitEvent} */ (e).submitter);
      e.preventDefault();
      if (submitter?.value === "cancel") return done(null);
      const name = input.value.trim();
      const problem = UNSAFE_NAME.test(name) ? fieldMessage("name", "string_pattern_mismatch")
        : name.length > NAME_MAX ? fieldMessage("name", "string_too_long") : null;
      if (problem) {
        show(error, problem);
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      done(name);
    });
    dialog.addEventListener("cancel", () => done(null), { once: true });
    dialog.showModal();
    input.focus();
  });
}
