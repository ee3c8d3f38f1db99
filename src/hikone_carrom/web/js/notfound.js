// The page for a link to a room or a game this server does not know: what happened, in the
// page's language, and the ways back.
import { applyI18n, show, t } from "./i18n.js";

/** Fill root with the "no such room" (kind "room") or "no such game" (kind "game") page; a
 * message ({en, ja}) replaces the explanation when something else went wrong. */
/**
 * @param {HTMLElement} root
 * @param {"room" | "game"} kind
 * @param {{en: string, ja: string} | null} [message]
 */
export function notFound(root, kind, message = null) {
  root.replaceChildren(/** @type {HTMLTemplateElement} */ (document.getElementById("tpl-notfound")).content.cloneNode(true));
  const page = root.querySelector(".notfound");
  page.dataset.kind = kind;
  const title = page.querySelector("h1");
  title.dataset.i18n = `notfound.${kind}.title`;
  if (message) show(page.querySelector(".lede"), message);
  else page.querySelector(".lede").dataset.i18n = `notfound.${kind}.text`;
  applyI18n(root);
  document.title = `${t(title.dataset.i18n)} · Hikone Carrom · 彦根カロム`;
  title.focus();
}
