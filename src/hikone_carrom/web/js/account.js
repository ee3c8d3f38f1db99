// The player's account: sign up, sign in, sign out (this browser or everywhere) and the
// player's ratings, in the start page's section id="account". The session is an HttpOnly
// cookie; its CSRF token is kept for net.js, which sends it on every state-changing request.
import { addStrings, applyI18n, onLangChange, show, t } from "./i18n.js";
import { api, setCsrf } from "./net.js";

addStrings({
  en: {
    "account.title": "Your account", "account.name": "Name", "account.password": "Password",
    "account.signin": "Sign in", "account.signup": "Sign up",
    "account.signout": "Sign out", "account.everywhere": "Sign out everywhere",
    "account.lede": "Play at once as a guest, or sign in for rated games (5 minutes and untimed).",
    "account.rating": "{time}: {rating} ±{deviation}", "account.provisional": "provisional",
    "account.games": "{n} rated games", "account.5min": "5 min", "account.untimed": "untimed",
    "account.rules": "A password has 8 to 256 characters.",
  },
  ja: {
    "account.title": "アカウント", "account.name": "名前", "account.password": "パスワード",
    "account.signin": "ログイン", "account.signup": "新規登録",
    "account.signout": "ログアウト", "account.everywhere": "すべての端末でログアウト",
    "account.lede": "ゲストとしてすぐに遊べます。レーティング戦（5分・時間制限なし）にはログインしてください。",
    "account.rating": "{time}：{rating} ±{deviation}", "account.provisional": "暫定",
    "account.games": "レーティング戦 {n} 局", "account.5min": "5分", "account.untimed": "時間制限なし",
    "account.rules": "パスワードは8〜256文字です。",
  },
});

/** @typedef {{id: string, name: string}} Account */

/** @type {Promise<Account | null> | null} */
let ready = null;

/** @param {{account: Account | null, csrf: string | null}} session */
function keep(session) {
  setCsrf(session.csrf);
  ready = Promise.resolve(session.account);
  return session.account;
}

/** The signed-in account of this browser (null: a guest), asked of the server once. */
export function currentAccount() {
  ready ??= api("/api/account").then(keep, () => null);
  return ready;
}

/**
 * Run the account section of the start page. Returns {dispose()}.
 * @param {HTMLElement} root
 */
export function mountAccount(root) {
  const form = /** @type {HTMLFormElement} */ (root.querySelector(".account-form"));
  const me = /** @type {HTMLElement} */ (root.querySelector(".account-me"));
  const error = /** @type {HTMLElement} */ (root.querySelector(".account-error"));
  /** @type {Account | null} */
  let account = null;
  /** @type {any} */
  let profile = null;

  function render() {
    form.hidden = !!account;
    me.hidden = !account;
    if (!account) return;
    /** @type {HTMLElement} */ (me.querySelector(".account-name")).textContent = account.name;
    const list = /** @type {HTMLElement} */ (me.querySelector(".account-ratings"));
    list.replaceChildren();
    for (const time of ["5min", "untimed"]) {
      const r = profile?.ratings?.[time];
      if (!r) continue;
      const li = document.createElement("li");
      li.dataset.time = time;
      li.textContent = t("account.rating", { time: t(`account.${time}`), rating: r.rating, deviation: r.deviation });
      if (r.provisional) li.append(" ", Object.assign(document.createElement("em"), { textContent: `(${t("account.provisional")})` }));
      li.append(" · ", t("account.games", { n: r.games }));
      list.append(li);
    }
  }

  async function refresh() {
    account = await currentAccount();
    profile = account ? await api(`/api/players/${encodeURIComponent(account.name)}`).catch(() => null) : null;
    render();
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const submitter = /** @type {HTMLButtonElement | null} */ (/** @type {SubmitEvent} */ (e).submitter);
    const fd = new FormData(form);
    const password = String(fd.get("password") || "");
    show(error, null);
    if (password.length < 8 || password.length > 256) {
      show(error, "account.rules");
      return;
    }
    const path = submitter?.value === "signup" ? "/api/account/signup" : "/api/account/signin";
    try {
      keep(await api(path, { method: "POST", body: { name: String(fd.get("name") || "").trim(), password } }));
      form.reset();
      await refresh();
    } catch (err) {
      show(error, err.msg);
    }
  });

  for (const [selector, path] of [[".account-signout", "/api/account/signout"], [".account-everywhere", "/api/account/signout-everywhere"]]) {
    root.querySelector(selector)?.addEventListener("click", async () => {
      show(error, null);
      try {
        await api(path, { method: "POST" });
        keep({ account: null, csrf: null });
        await refresh();
      } catch (err) {
        show(error, err.msg);
      }
    });
  }

  const off = onLangChange(() => {
    applyI18n(root);
    render();
  });
  refresh();
  return { dispose: off };
}
