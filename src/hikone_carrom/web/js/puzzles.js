// The puzzles page (詰めカロム): /puzzles lists them (today's puzzle first, filtered by goal, this
// browser's progress); /puzzles/{id} shows one at its position with the game's shot input (pull
// back and let go; the typed form one tap away). The server judges each attempt by the same
// physics and referee as a game and its answer is animated; giving up plays the solution.
// Its second tab, the drills (練習): /puzzles/drills lists set positions, /puzzles/drills/{id}
// plays one on the same board, scored by the strikes it took (1-3 stars).
import { guide, nearestFree, placeOn, pointAt, shooterFrame } from "./aim.js";
import { BoardView } from "./board.js";
import { aimDrawing, ShotGesture } from "./gesture.js";
import { chip, text } from "./hud.js";
import { addStrings, applyI18n, lang, onLangChange, pick, setLang, show, t } from "./i18n.js";
import { api } from "./net.js";
import { applyPrefs } from "./prefs.js";
import {
  drillStars, drillStarText, loadDrillStars, loadProgress, record, recordDrill, shelf, shotOfFigures,
  stars, typedFigures,
} from "./puzzle-book.js";
import { playShot } from "./sound.js";
import { disksAt, everyFrame, tracksDuration } from "./tracks.js";

addStrings({
  en: {
    "pz.title": "Puzzles",
    "pz.lede": "One strike from a real game's position. The computer proved each solution with the game's own physics: find it.",
    "pz.filter": "Goal", "pz.all": "All goals",
    "pz.progress": "Solved {n} of {total}",
    "pz.daily": "Today's puzzle", "pz.solve": "Solve it",
    "pz.name": "Puzzle {n}", "pz.level": "difficulty {n} of 5",
    "pz.solved": "solved", "pz.given": "solution seen",
    "pz.you": "You play {color}.",
    "pz.gesture": "Slide the striker along the area line, then press the striker, pull back and let go: the further you pull, the harder the shot.",
    "pz.typed": "Type the shot",
    "pz.retry": "Try again", "pz.next": "Next puzzle", "pz.back": "All puzzles",
    "pz.giveup": "Give up: show the solution",
    "pz.thinking": "The referee is judging your shot…",
    "pz.win": "Solved!", "pz.fail": "Not this time: the goal was not reached.",
    "pz.solution": "The solution",
    "pz.figures": "Position {pos} mm · angle {angle}° · speed {speed} m/s",
    "pz.robust": "It still works in {n} % of tries with a slightly shaky hand.",
    "pz.missing": "No such puzzle: it may be mistyped.",
    "dr.title": "Drills",
    "dr.lede": "Set positions to practise one kind of shot. Strike until your puck drops: in one strike three stars, within three two stars, else one.",
    "dr.progress": "Stars: {n} of {total}",
    "dr.best": "best", "dr.none": "not done yet",
    "dr.strikes": "Strikes: {n}",
    "dr.win": "Done in {n} strikes!", "dr.win1": "Done in one strike!",
    "dr.fail": "Not yet: strike again from the same position.",
    "dr.again": "Start again", "dr.next": "Next drill", "dr.back": "All drills",
    "dr.missing": "No such drill: it may be mistyped.",
  },
  ja: {
    "pz.title": "詰めカロム",
    "pz.lede": "実戦の局面から一打で決める問題です。どの正解も、ゲームと同じ物理でコンピューターが確かめています。",
    "pz.filter": "目標", "pz.all": "すべての目標",
    "pz.progress": "{total}問中 {n}問 解きました",
    "pz.daily": "今日の詰めカロム", "pz.solve": "解く",
    "pz.name": "第{n}問", "pz.level": "難しさ 5段階の{n}",
    "pz.solved": "解いた", "pz.given": "正解を見た",
    "pz.you": "あなたは{color}です。",
    "pz.gesture": "ストライカーをエリアラインに沿って動かし、ストライカーを押さえて後ろへ引き、離すと打てます。大きく引くほど強く打てます。",
    "pz.typed": "数値で打つ",
    "pz.retry": "もう一度", "pz.next": "次の問題", "pz.back": "問題の一覧",
    "pz.giveup": "あきらめて正解を見る",
    "pz.thinking": "審判が判定しています…",
    "pz.win": "正解です！", "pz.fail": "残念：目標に届きませんでした。",
    "pz.solution": "正解の一打",
    "pz.figures": "位置 {pos} mm・角度 {angle}°・速さ {speed} m/s",
    "pz.robust": "手元が少しぶれても {n} % の確率で決まる一打です。",
    "pz.missing": "その問題はありません。入力を確かめてください。",
    "dr.title": "練習",
    "dr.lede": "決まった局面で、一つの打ち方を練習します。パックが入るまで打ちましょう。1打なら星3つ、3打までなら星2つ、それ以上は星1つです。",
    "dr.progress": "星 {total}個中 {n}個",
    "dr.best": "最高", "dr.none": "まだです",
    "dr.strikes": "打数：{n}",
    "dr.win": "{n}打でできました！", "dr.win1": "1打でできました！",
    "dr.fail": "まだです：同じ局面からもう一度打ちましょう。",
    "dr.again": "最初から", "dr.next": "次の練習", "dr.back": "練習の一覧",
    "dr.missing": "その練習はありません。入力を確かめてください。",
  },
});

const TITLE = "詰めカロム · Hikone Carrom";
const view = /** @type {HTMLElement} */ (document.getElementById("view"));
/** @type {ShelfPage | DrillShelfPage | PuzzlePage | null} */
let page = null;

/** @param {string} id */
const template = (id) => /** @type {HTMLTemplateElement} */ (document.getElementById(id)).content.cloneNode(true);

/** @returns {Storage | null} */
function store() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage refused: progress for this page only
  }
}

/** The puzzle's number from its id ("p0042" -> 42). @param {string} id */
const numberOf = (id) => Number(id.replace(/\D/g, "")) || id;

/** @type {Promise<{puzzles: any[], dailyId: string | null}> | null} */
let catalogue = null;

/** Every puzzle's summary (the list is paged by the server) and today's id, fetched once. */
function loadCatalogue() {
  catalogue ||= (async () => {
    const first = await api("/api/puzzles?limit=100");
    const rest = [];
    for (let offset = 100; offset < first.total; offset += 100) rest.push(api(`/api/puzzles?limit=100&offset=${offset}`));
    const pages = [first, ...(await Promise.all(rest))];
    const daily = await api("/api/puzzles/daily").catch(() => null);
    return { puzzles: pages.flatMap((p) => p.puzzles), dailyId: daily ? daily.id : null };
  })();
  catalogue.catch(() => (catalogue = null));
  return catalogue;
}

/** Mark the tab of the page shown ("puzzles" or "drills"). @param {ParentNode} root @param {string} tab */
function markTab(root, tab) {
  for (const a of root.querySelectorAll(".pz-tabs a")) {
    if (/** @type {HTMLElement} */ (a).dataset.tab === tab) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

class ShelfPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.goal = "";
    /** @type {any[]} */
    this.puzzles = [];
    /** @type {string | null} */
    this.dailyId = null;
    /** @type {(() => void) | undefined} */
    this.off = undefined;
    this.disposed = false;
  }

  async mount() {
    this.root.replaceChildren(template("tpl-shelf"));
    markTab(this.root, "puzzles");
    applyI18n(this.root);
    document.title = TITLE;
    const select = /** @type {HTMLSelectElement} */ (this.root.querySelector("#goal-filter"));
    select.addEventListener("change", () => {
      this.goal = select.value;
      this.render();
    });
    try {
      ({ puzzles: this.puzzles, dailyId: this.dailyId } = await loadCatalogue());
    } catch (err) {
      if (!this.disposed) show(this.root.querySelector("#shelf-error"), err.msg);
      return;
    }
    if (this.disposed) return; // another page was opened meanwhile
    this.off = onLangChange(() => this.render());
    this.render();
  }

  dispose() {
    this.disposed = true;
    this.off?.();
  }

  render() {
    applyI18n(this.root);
    const progress = loadProgress(store());
    const select = /** @type {HTMLSelectElement} */ (this.root.querySelector("#goal-filter"));
    const goals = new Map(this.puzzles.map((p) => [p.goal, p.goal_text]));
    select.replaceChildren(new Option(t("pz.all"), ""));
    for (const [goal, sentence] of goals) select.append(new Option(pick(sentence), goal));
    select.value = this.goal;
    show(this.root.querySelector("#progress"), {
      key: "pz.progress", params: { n: progress.solved.length, total: this.puzzles.length },
    });
    const daily = this.puzzles.find((p) => p.id === this.dailyId);
    const card = /** @type {HTMLElement} */ (this.root.querySelector("#daily"));
    card.hidden = !daily;
    if (daily) {
      const link = text("a", t("pz.solve"), "button primary");
      link.setAttribute("href", `/puzzles/${daily.id}`);
      link.dataset.link = "";
      card.replaceChildren(text("h2", t("pz.daily")), this.item(daily, progress), link);
    }
    const list = /** @type {HTMLElement} */ (this.root.querySelector("#puzzle-list"));
    list.replaceChildren(...shelf(this.puzzles, this.dailyId, this.goal).map((p) => {
      const li = document.createElement("li");
      const a = this.item(p, progress, "a");
      a.setAttribute("href", `/puzzles/${p.id}`);
      a.dataset.link = "";
      li.append(a);
      return li;
    }));
  }

  /**
   * One puzzle as the list shows it: number, goal, difficulty, this browser's mark.
   * @param {any} p
   * @param {import("./puzzle-book.js").Progress} progress
   */
  item(p, progress, tag = "div") {
    const el = document.createElement(tag);
    el.className = "puzzle-item";
    el.dataset.id = p.id;
    const solved = progress.solved.includes(p.id);
    el.classList.toggle("solved", solved);
    el.append(text("span", t("pz.name", { n: numberOf(p.id) }), "pid"), text("span", pick(p.goal_text), "pgoal"));
    const level = text("span", stars(p.difficulty), "stars");
    level.title = t("pz.level", { n: p.difficulty });
    level.setAttribute("aria-label", level.title);
    el.append(level);
    const seen = !solved && progress.given.includes(p.id);
    el.append(text("span", solved ? `✓ ${t("pz.solved")}` : seen ? t("pz.given") : "", "pmark"));
    return el;
  }
}

class DrillShelfPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {any[]} */
    this.drills = [];
    /** @type {(() => void) | undefined} */
    this.off = undefined;
    this.disposed = false;
  }

  async mount() {
    this.root.replaceChildren(template("tpl-drills"));
    markTab(this.root, "drills");
    applyI18n(this.root);
    document.title = `${t("dr.title")} · ${TITLE}`;
    try {
      this.drills = (await api("/api/drills")).drills;
    } catch (err) {
      if (!this.disposed) show(this.root.querySelector("#shelf-error"), err.msg);
      return;
    }
    if (this.disposed) return; // another page was opened meanwhile
    this.off = onLangChange(() => this.render());
    this.render();
  }

  dispose() {
    this.disposed = true;
    this.off?.();
  }

  render() {
    applyI18n(this.root);
    document.title = `${t("dr.title")} · ${TITLE}`;
    const best = loadDrillStars(store());
    const earned = this.drills.reduce((n, d) => n + (best[d.id] || 0), 0);
    show(this.root.querySelector("#drill-progress"), {
      key: "dr.progress", params: { n: earned, total: 3 * this.drills.length },
    });
    const list = /** @type {HTMLElement} */ (this.root.querySelector("#drill-list"));
    list.replaceChildren(...this.drills.map((d) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.className = "drill-item";
      a.dataset.id = d.id;
      a.dataset.link = "";
      a.setAttribute("href", `/puzzles/drills/${d.id}`);
      const got = best[d.id] || 0;
      const level = text("span", got ? drillStarText(got) : t("dr.none"), got ? "stars" : "pmark");
      a.append(text("strong", pick(d.name), "dname"), level, text("span", pick(d.tip), "dtip"));
      li.append(a);
      return li;
    }));
  }
}

class PuzzlePage {
  /** @param {HTMLElement} root @param {string} id @param {"puzzle" | "drill"} kind */
  constructor(root, id, kind = "puzzle") {
    this.root = root;
    this.id = id;
    this.kind = kind;
    this.base = kind === "drill" ? `/api/drills/${encodeURIComponent(id)}` : `/api/puzzles/${encodeURIComponent(id)}`;
    this.strikes = 0; // a drill's strikes in this run
    /** "load", "aim", "sent" (waiting for the referee), "anim" (its answer playing), "done" */
    this.phase = "load";
    this.aim = { x: 0, y: 0, s: 0.5, ok: true, angle: Math.PI / 2, power: 0.45, pull: null, armed: false };
    /** @type {any} */
    this.puzzle = null;
    /** @type {any} board geometry (m) */
    this.geometry = null;
    /** @type {any} the position to solve (as a room's state) */
    this.state = null;
    this.side = "south"; // the shooter's side, shown at the bottom
    this.frame = shooterFrame(this.side);
    /** @type {any} the last shot played, once its animation ended */
    this.result = null;
    /** @type {{ev: any, start: number, duration: number, outcome: string, answer: any} | null} */
    this.anim = null;
    /** @type {any[] | null} the disks where the last shot left them */
    this.after = null;
    this.gaveUp = false;
    this.formEdited = false;
    /** @type {any} */
    this.lastOverlay = null;
    /** @type {(() => void)[]} */
    this.disposers = [];
    this.disposed = false;
    /** @type {HTMLCanvasElement} */
    this.canvas = /** @type {any} */ (null);
    /** @type {BoardView} */
    this.view = /** @type {any} */ (null);
    /** @type {ShotGesture | null} */
    this.gesture = null;
    /** @type {any} */ (window).__puzzle = this; // for the end-to-end tests, as window.__game
  }

  async mount() {
    this.root.replaceChildren(template("tpl-puzzle"));
    applyI18n(this.root);
    this.canvas = /** @type {HTMLCanvasElement} */ (this.root.querySelector("#board"));
    try {
      [this.geometry, this.puzzle] = await Promise.all([api("/api/board"), api(this.base)]);
    } catch (err) {
      if (this.disposed) return;
      const card = text("section", "", "notfound card");
      card.append(text("h1", t("pz.title")), text("p", ""), this.backLink());
      const missing = this.kind === "drill" ? "dr.missing" : "pz.missing";
      show(/** @type {HTMLElement} */ (card.querySelector("p")), err.status === 404 ? missing : err.msg);
      this.root.replaceChildren(card);
      return;
    }
    if (this.disposed) return;
    this.state = this.puzzle.state;
    this.side = this.state.shooter === 1 ? "north" : "south";
    this.frame = shooterFrame(this.side);
    this.view = new BoardView(this.canvas, this.geometry);
    this.view.setViewSide(this.side);
    this._bindInput();
    this.resetAim();
    this.phase = "aim";
    this.disposers.push(onLangChange(() => this.render()));
    this.render();
    this.findNext();
    everyFrame((now) => this.frame_(now), () => !this.disposed);
  }

  dispose() {
    this.disposed = true;
    this.gesture?.dispose();
    for (const d of this.disposers) d();
    if (/** @type {any} */ (window).__puzzle === this) /** @type {any} */ (window).__puzzle = null;
  }

  backLink() {
    const drill = this.kind === "drill";
    const a = text("a", t(drill ? "dr.back" : "pz.back"), "button");
    a.setAttribute("href", drill ? "/puzzles/drills" : "/puzzles");
    a.dataset.link = "";
    return a;
  }

  /** Point "Next puzzle" at the next one in the list this browser has not solved. */
  async findNext() {
    if (this.kind === "drill") {
      try {
        const { drills } = await api("/api/drills");
        const at = drills.findIndex((/** @type {any} */ d) => d.id === this.id);
        const next = drills[(at + 1) % drills.length];
        this.root.querySelector("#pz-next")?.setAttribute("href", `/puzzles/drills/${next.id}`);
      } catch {
        // the link leads back to the list
      }
      return;
    }
    try {
      const { puzzles, dailyId } = await loadCatalogue();
      const order = shelf(puzzles, dailyId, "");
      const solved = new Set(loadProgress(store()).solved);
      const at = order.findIndex((p) => p.id === this.id);
      const next = [...order.slice(at + 1), ...order.slice(0, at)].find((p) => !solved.has(p.id));
      if (next) this.root.querySelector("#pz-next")?.setAttribute("href", `/puzzles/${next.id}`);
    } catch {
      // the link leads back to the list
    }
  }

  resetAim() {
    const p = this.state.placement;
    const at = pointAt(p, nearestFree(p, 0.5));
    const spot = placeOn(p, at[0], at[1]);
    Object.assign(this.aim, { x: spot.x, y: spot.y, s: spot.s, ok: spot.ok, angle: this.frame.ahead, power: 0.45 });
    this.syncForm();
  }

  // ---- input -------------------------------------------------------------------------------

  _bindInput() {
    const c = this.canvas;
    this.gesture = new ShotGesture(c, {
      enabled: () => this.phase === "aim",
      aim: () => this.aim,
      placement: () => this.state.placement,
      toWorld: (cx, cy) => {
        const rect = c.getBoundingClientRect();
        return this.view.fromClient(cx - rect.left, cy - rect.top);
      },
      toClient: (x, y) => {
        const rect = c.getBoundingClientRect();
        const [sx, sy] = this.view.toScreen(x, y);
        return [rect.left + sx / this.view.dpr, rect.top + sy / this.view.dpr];
      },
      place: (x, y) => this.setSpot(x, y),
      pull: ({ angle, power, point, armed }) => {
        Object.assign(this.aim, { angle, power, pull: point, armed });
        this.syncForm();
      },
      restore: (saved) => {
        Object.assign(this.aim, saved, { pull: null, armed: false });
        this.syncForm();
      },
      release: () => {
        Object.assign(this.aim, { pull: null, armed: false });
        this.shoot();
      },
    });
    const form = /** @type {HTMLFormElement} */ (this.root.querySelector("#numeric"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!this.formEdited || this.readForm(true)) this.shoot();
    });
    for (const input of form.querySelectorAll("input")) {
      input.addEventListener("input", () => {
        this.formEdited = true;
        this.readForm(false);
      });
    }
    this.root.querySelector("#pz-retry")?.addEventListener("click", () => this.retry());
    this.root.querySelector("#pz-giveup")?.addEventListener("click", () => this.giveUp());
    const onResize = () => this.view && (this.view.staticLayer = null);
    window.addEventListener("resize", onResize);
    this.disposers.push(() => window.removeEventListener("resize", onResize));
  }

  /** @param {number} x @param {number} y */
  setSpot(x, y) {
    const spot = placeOn(this.state.placement, x, y);
    Object.assign(this.aim, { x: spot.x, y: spot.y, s: spot.s, ok: spot.ok });
    this.syncForm();
  }

  /** The aim in the typed form (the shooter's own frame), unless the form is being typed in. */
  syncForm() {
    const form = /** @type {HTMLFormElement | null} */ (this.root.querySelector("#numeric"));
    if (!form || !this.geometry) return;
    const speed = this.aim.power * this.geometry.max_speed;
    const typed = typedFigures(this.state.placement, this.frame, { ...this.aim, speed });
    const active = document.activeElement;
    /** @param {string} name @param {string} v */
    const set = (name, v) => {
      const el = /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
      if (el !== active) el.value = v;
    };
    set("pos", String(Math.round(typed.pos)));
    set("angle", typed.angle.toFixed(1));
    set("speed", speed.toFixed(2));
    this.formEdited = false;
    this.syncMeter();
  }

  syncMeter() {
    const fill = /** @type {HTMLElement} */ (this.root.querySelector("#meter-fill"));
    fill.style.width = `${(this.aim.power * 100).toFixed(1)}%`;
    const out = this.root.querySelector("#speed-out");
    if (out) out.textContent = `${(this.aim.power * this.geometry.max_speed).toFixed(2)} m/s`;
  }

  /** Read the typed shot into the aim; on submit (`final`) say what is out of range. */
  readForm(final) {
    const form = /** @type {HTMLFormElement} */ (this.root.querySelector("#numeric"));
    /** @param {string} name */
    const read = (name) => {
      const raw = /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
      return raw === "" ? NaN : Number(raw);
    };
    const typed = { pos: read("pos"), angle: read("angle"), speed: read("speed") };
    const [a, b] = this.state.placement.line || [[0, 0], [0, 0]];
    const half = (Math.hypot(b[0] - a[0], b[1] - a[1]) / 2) * 1000;
    const max = this.geometry.max_speed;
    /** @type {import("./i18n.js").Message[]} */
    const errors = [];
    if (!(Number.isFinite(typed.pos) && Math.abs(typed.pos) <= half + 0.5)) errors.push({ key: "form.pos", params: { max: Math.floor(half) } });
    if (!(Number.isFinite(typed.angle) && Math.abs(typed.angle) <= 180)) errors.push("form.angle");
    if (!(Number.isFinite(typed.speed) && typed.speed > 0 && typed.speed <= max)) errors.push({ key: "form.speed", params: { max: max.toFixed(1) } });
    if (!errors.length) {
      const shot = shotOfFigures(this.state.placement, this.frame, typed);
      Object.assign(this.aim, { x: shot.x, y: shot.y, s: shot.s, ok: shot.ok, angle: shot.angle, power: shot.speed / max });
      if (!shot.ok) errors.push("place.blocked");
      this.syncMeter();
    }
    if (final) show(this.root.querySelector("#shot-error"), errors.length ? () => errors.map((m) => t(typeof m === "string" ? m : /** @type {any} */ (m).key, /** @type {any} */ (m).params)).join(" ") : null);
    return errors.length === 0;
  }

  // ---- attempts ----------------------------------------------------------------------------

  async shoot() {
    if (this.phase !== "aim") return;
    const err = this.root.querySelector("#shot-error");
    if (!this.aim.ok) {
      show(err, "place.blocked");
      return;
    }
    const speed = this.aim.power * this.geometry.max_speed;
    if (speed <= 0) return;
    show(err, "pz.thinking");
    this.phase = "sent";
    this.render();
    try {
      const answer = await api(`${this.base}/attempts`, {
        method: "POST", body: { x: this.aim.x, y: this.aim.y, angle: this.aim.angle, speed },
      });
      show(err, null);
      this.strikes += 1;
      this.play(answer.play, answer.reached ? "solved" : "failed", answer);
    } catch (e) {
      show(err, e.msg);
      this.phase = "aim";
      this.render();
    }
  }

  async giveUp() {
    if (this.phase !== "aim" && this.phase !== "done") return;
    this.phase = "sent";
    this.render();
    try {
      const answer = await api(`${this.base}/give-up`, { method: "POST" });
      this.gaveUp = true;
      this.play(answer.solution.play, "given", answer);
    } catch (e) {
      show(this.root.querySelector("#shot-error"), e.msg);
      this.phase = "aim";
      this.render();
    }
  }

  /** Animate a shot the server played ("solved", "failed" or "given": the solution). */
  play(ev, outcome, answer) {
    this.anim = { ev, start: performance.now(), duration: tracksDuration(ev.tracks), outcome, answer };
    this.phase = "anim";
    playShot(ev.sounds);
    this.render();
  }

  /** The animation ended: the board stays where the shot left it and the result is said. */
  finish() {
    const a = /** @type {NonNullable<typeof this.anim>} */ (this.anim);
    this.after = disksAt(a.ev, a.duration + 1);
    this.anim = null;
    this.phase = "done";
    this.result = a;
    if (a.outcome === "solved" && this.kind === "drill") recordDrill(store(), this.id, drillStars(this.strikes));
    else if (a.outcome === "solved" && !this.gaveUp) record(store(), this.id, "solved");
    if (a.outcome === "given") {
      record(store(), this.id, "given");
      // the solution in the aim and the typed form: "Try again" plays it from there
      const s = a.answer.solution.shot;
      const spot = placeOn(this.state.placement, s.x, s.y);
      Object.assign(this.aim, { x: spot.x, y: spot.y, s: spot.s, ok: spot.ok, angle: s.angle, power: s.speed / this.geometry.max_speed });
      this.syncForm();
    }
    this.findNext();
    this.render();
    const live = document.getElementById("live");
    if (live) live.textContent = this.root.querySelector("#result")?.textContent || "";
  }

  retry() {
    if (this.kind === "drill" && this.result?.outcome === "solved") this.strikes = 0; // a new run
    this.after = null;
    this.result = null;
    this.phase = "aim";
    this.render();
    this.canvas.focus({ preventScroll: true });
  }

  // ---- drawing -----------------------------------------------------------------------------

  /** @param {number} now */
  frame_(now) {
    if (!this.view) return;
    let disks;
    /** @type {any} */
    let overlay = null;
    if (this.anim) {
      const tt = (now - this.anim.start) / 1000;
      disks = disksAt(this.anim.ev, tt);
      if (tt >= this.anim.duration) this.finish();
    } else if (this.phase === "done" && this.after) {
      disks = this.after;
    } else {
      disks = this.state.layout.slice();
      const unshootable = this.state.unshootable || [];
      overlay = { unshootable };
      if (this.phase === "aim" || this.phase === "sent") {
        disks.push({ id: "striker", kind: "striker", color: this.puzzle.color, x: this.aim.x, y: this.aim.y, layer: 0, r: this.geometry.puck_radius, invalid: !this.aim.ok, ghost: true });
        const g = guide(this.geometry, this.state.layout, this.aim.x, this.aim.y, this.aim.angle, "striker");
        const { aim, note } = aimDrawing(this.aim, g, this.gesture?.state);
        overlay = { unshootable, placement: this.state.placement, aim, note: note && t(note) };
      }
    }
    this.lastOverlay = overlay;
    this.view.draw(disks, overlay);
  }

  // ---- panel -------------------------------------------------------------------------------

  render() {
    if (!this.puzzle) return;
    applyI18n(this.root);
    const p = this.puzzle;
    const drill = this.kind === "drill";
    const name = drill ? pick(p.name) : t("pz.name", { n: numberOf(p.id) });
    document.title = `${name} · ${drill ? `${t("dr.title")} · ` : ""}${TITLE}`;
    this.root.querySelector("#pz-name").textContent = name;
    const level = /** @type {HTMLElement} */ (this.root.querySelector("#pz-stars"));
    const best = drill ? loadDrillStars(store())[p.id] || 0 : 0;
    level.textContent = drill ? (best ? `${t("dr.best")} ${drillStarText(best)}` : "") : stars(p.difficulty);
    level.title = drill ? "" : t("pz.level", { n: p.difficulty });
    if (drill) level.removeAttribute("aria-label");
    else level.setAttribute("aria-label", level.title);
    const tip = /** @type {HTMLElement} */ (this.root.querySelector("#pz-tip"));
    tip.hidden = !drill;
    tip.textContent = drill ? pick(p.tip) : "";
    const strikes = /** @type {HTMLElement} */ (this.root.querySelector("#pz-strikes"));
    strikes.hidden = !drill;
    strikes.textContent = t("dr.strikes", { n: this.strikes });
    for (const a of this.root.querySelectorAll(".pz-actions a, #pz-next")) {
      if (a.id !== "pz-next" && drill) a.setAttribute("href", "/puzzles/drills");
      if (a.id !== "pz-next") a.textContent = t(drill ? "dr.back" : "pz.back");
    }
    if (drill) this.root.querySelector("#pz-next").textContent = t("dr.next");
    this.root.querySelector("#pz-chip").replaceWith(Object.assign(chip(p.color), { id: "pz-chip" }));
    const goal = /** @type {HTMLElement} */ (this.root.querySelector("#pz-goal"));
    goal.textContent = pick(p.goal_text);
    this.root.querySelector("#pz-you").textContent = t("pz.you", { color: t(`color.${p.color}`) });
    const aiming = this.phase === "aim" || this.phase === "sent";
    /** @type {HTMLElement} */ (this.root.querySelector("#controls")).hidden = !aiming;
    /** @type {HTMLElement} */ (this.root.querySelector("#controls")).classList.toggle("inactive", this.phase !== "aim");
    /** @type {HTMLButtonElement} */ (this.root.querySelector("#numeric button")).disabled = this.phase !== "aim";
    const giveUp = /** @type {HTMLButtonElement} */ (this.root.querySelector("#pz-giveup"));
    const solved = this.result?.outcome === "solved";
    giveUp.hidden = this.gaveUp || solved || drill;
    giveUp.disabled = this.phase === "sent" || this.phase === "anim";
    this.renderResult();
  }

  renderResult() {
    const box = /** @type {HTMLElement} */ (this.root.querySelector("#result"));
    const r = this.phase === "done" ? this.result : null;
    box.hidden = !r;
    if (!r) return;
    box.dataset.outcome = r.outcome;
    const title = r.outcome === "solved" ? "pz.win" : r.outcome === "failed" ? "pz.fail" : "pz.solution";
    const head = this.root.querySelector("#result-title");
    if (this.kind === "drill") {
      const earned = drillStars(this.strikes);
      const said = this.strikes === 1 ? t("dr.win1") : t("dr.win", { n: this.strikes });
      head.textContent = r.outcome === "solved" ? `${said} ${drillStarText(earned)}` : t("dr.fail");
      this.root.querySelector("#pz-retry").textContent = t(r.outcome === "solved" ? "dr.again" : "pz.retry");
    } else head.textContent = t(title);
    const lines = /** @type {HTMLElement} */ (this.root.querySelector("#result-lines"));
    lines.replaceChildren(...(r.ev.explain?.[lang()] || []).map((/** @type {string} */ s) => text("li", s)));
    const shot = /** @type {HTMLElement} */ (this.root.querySelector("#result-shot"));
    const solution = r.outcome === "given" ? r.answer.solution : r.outcome === "solved" ? r.answer.solution : null;
    shot.hidden = !solution;
    if (solution) {
      const f = typedFigures(this.state.placement, this.frame, solution.shot);
      const figures = t("pz.figures", { pos: Math.round(f.pos), angle: f.angle.toFixed(1), speed: f.speed.toFixed(2) });
      shot.textContent = `${t("pz.solution")}: ${figures}. ${t("pz.robust", { n: Math.round(solution.robustness * 100) })}`;
    }
  }
}

function route() {
  page?.dispose();
  const path = location.pathname;
  const m = path.match(/^\/puzzles\/([A-Za-z0-9_-]{1,40})$/);
  const d = path.match(/^\/puzzles\/drills\/([A-Za-z0-9_-]{1,40})$/);
  if (d) page = new PuzzlePage(view, d[1], "drill");
  else if (path === "/puzzles/drills") page = new DrillShelfPage(view);
  else page = m ? new PuzzlePage(view, m[1]) : new ShelfPage(view);
  window.scrollTo(0, 0);
  page.mount();
}

/** @param {string} path */
function navigate(path) {
  history.pushState(null, "", path);
  route();
}

document.addEventListener("click", (e) => {
  const target = /** @type {Element} */ (e.target);
  const a = /** @type {HTMLAnchorElement | null} */ (target.closest("a[data-link]"));
  if (a && a.origin === location.origin && a.pathname.startsWith("/puzzles") && !e.metaKey && !e.ctrlKey) {
    e.preventDefault();
    navigate(a.pathname);
  }
  const b = /** @type {HTMLElement | null} */ (target.closest(".lang-switch button"));
  if (b) setLang(b.dataset.lang);
});
window.addEventListener("popstate", route);
applyPrefs();
applyI18n(document);
route();
