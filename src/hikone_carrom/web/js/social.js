// The room's social side (docs/server.md): the invitation and the waiting state of an online
// room, who is connected at each seat, resigning and draw offers, the rematch vote, the chat and
// the post-game analysis. The room page (room.js) calls it at each message; all text is set as
// text, never as markup.
import { AnalysisPanel } from "./analysis.js";
import { text } from "./hud.js";
import { addStrings, lang, pick, t } from "./i18n.js";

addStrings({
  en: {
    "wait.title": "Waiting for players",
    "wait.host": "Send this link to your opponent, or let them scan the code with a phone. The game starts when every seat is taken.",
    "wait.guest": "This game is waiting for players. Take a free seat to play, or stay and watch.",
    "wait.take": "Play as {name}", "wait.qr": "QR code of the room's link",
    "share.scan": "Scan to join",
    "presence.online": "online", "presence.away": "disconnected since {time}", "presence.never": "not connected yet",
    "act.resign": "Resign", "act.draw": "Offer a draw", "act.withdraw": "Withdraw the offer",
    "act.accept": "Accept", "act.decline": "Decline",
    "act.resign.title": "Resign this game?",
    "act.resign.text": "{name} gives up: {color} loses at once. This cannot be undone.",
    "act.resign.yes": "Resign", "act.resign.no": "Keep playing",
    "act.draw.asked": "{name} offers a draw.", "act.draw.ask_who": "{name}, do you accept a draw?",
    "act.draw.waiting": "Draw offered: waiting for {names} to answer.",
    "act.title": "Game",
    "rm.accept": "Accept the rematch", "rm.decline": "Decline",
    "rm.waiting": "Waiting for {names} to accept the rematch…", "rm.asked": "{name} asks for a rematch.",
    "rm.swap": "Colours and the first shot change sides in the next game.",
    "chat.title": "Chat", "chat.send": "Send", "chat.placeholder": "Message",
    "chat.spectator": "Spectators can send the set phrases only.", "chat.empty": "No message yet.",
    "chat.watcher": "Spectator", "chat.count": "{n} / 200",
    "end.reason.resign": "{loser} resigned.", "end.reason.agreed": "Drawn by agreement.",
  },
  ja: {
    "wait.title": "プレイヤーを待っています",
    "wait.host": "このリンクを相手に送るか、スマートフォンでコードを読み取ってもらいます。全員が席に着くと試合が始まります。",
    "wait.guest": "この試合はプレイヤーを待っています。空いている席に着いて対戦するか、そのまま観戦できます。",
    "wait.take": "{name}で参加する", "wait.qr": "部屋のリンクのQRコード",
    "share.scan": "読み取って参加",
    "presence.online": "接続中", "presence.away": "{time}から切断", "presence.never": "まだ接続していません",
    "act.resign": "投了", "act.draw": "引き分けを申し出る", "act.withdraw": "申し出を取り下げる",
    "act.accept": "受ける", "act.decline": "断る",
    "act.resign.title": "投了しますか？",
    "act.resign.text": "{name}が投了し、{color}の負けになります。取り消せません。",
    "act.resign.yes": "投了する", "act.resign.no": "続ける",
    "act.draw.asked": "{name}が引き分けを申し出ています。", "act.draw.ask_who": "{name}さん、引き分けを受けますか？",
    "act.draw.waiting": "引き分けを申し出ました。{names}の返事を待っています。",
    "act.title": "試合",
    "rm.accept": "再戦を受ける", "rm.decline": "断る",
    "rm.waiting": "{names}が再戦を受けるのを待っています…", "rm.asked": "{name}が再戦を申し込んでいます。",
    "rm.swap": "次の試合では色と先攻が入れ替わります。",
    "chat.title": "チャット", "chat.send": "送信", "chat.placeholder": "メッセージ",
    "chat.spectator": "観戦者は定型文だけを送れます。", "chat.empty": "まだメッセージはありません。",
    "chat.watcher": "観戦者", "chat.count": "{n} / 200",
    "end.reason.resign": "{loser}が投了しました。", "end.reason.agreed": "合意による引き分けです。",
  },
});

function el(tag, cls, attrs = {}) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/**
 * @param {string} label
 * @param {string} [cls]
 * @param {(() => unknown) | null} [onClick]
 */
function button(label, cls = "", onClick = null) {
  const b = el("button", cls, { type: "button" });
  b.textContent = label;
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

function clock(iso) {
  return new Intl.DateTimeFormat(lang() === "ja" ? "ja-JP" : "en-GB", { hour: "2-digit", minute: "2-digit" }).format(new Date(iso));
}

/** Names joined as a reader lists them. */
function names(list) {
  return new Intl.ListFormat(lang() === "ja" ? "ja" : "en", { type: "conjunction" }).format(list);
}

export class Social {
  constructor(page) {
    this.page = page;
    this.presence = [];
    this.chat = [];
    this.presets = [];
    this.analysisFor = null;
    /** @type {AnalysisPanel} set by mount() */
    this.analysis;
  }

  get room() {
    return this.page.room;
  }

  get state() {
    return this.page.state;
  }

  /** Build the pieces of the page (the room page's template stays as it is). */
  mount() {
    const root = this.page.root;
    const wrap = root.querySelector(".board-wrap");
    const panel = root.querySelector(".panel");
    this.waitBox = el("div", "waiting", { id: "waiting", hidden: "" });
    wrap.append(this.waitBox);
    this.actions = el("div", "card actions", { id: "actions", hidden: "" });
    this.chatCard = el("div", "card chat", { id: "chat", hidden: "" });
    this.analysisCard = el("div", "", { id: "analysis", hidden: "" });
    const seats = root.querySelector("#seats");
    seats.after(this.actions);
    this.actions.after(this.chatCard);
    root.querySelector("#log-card").after(this.analysisCard);
    this.dialog = el("dialog", "confirm", { id: "resign-dialog" });
    root.append(this.dialog);
    this.endBox = el("div", "end-social", { id: "end-social" });
    root.querySelector(".end-actions").before(this.endBox);
    this.buildChat();
    this.analysis = new AnalysisPanel(this.analysisCard, {
      ask: () => this.page.conn.send({ type: "analyse", game_id: this.analysisFor }),
      seatName: (seat) => this.page.seatName(seat),
      onShot: (n) => {
        // the replay page at that shot, through the router (it follows history changes)
        history.pushState(null, "", `/replay/${encodeURIComponent(this.analysisFor)}?shot=${n}`);
        window.dispatchEvent(new PopStateEvent("popstate"));
      },
    });
  }

  // ---- messages ------------------------------------------------------------------------------

  snapshot(msg) {
    this.presence = msg.presence || [];
    this.presets = msg.chat?.presets || [];
    this.chat = msg.chat?.recent || [];
    this.buildPresets();
    this.renderChat();
    this.watchAnalysis();
  }

  /** An unnumbered message: presence, or an analysis's progress. */
  notice(msg) {
    if (msg.type === "presence") {
      this.presence = msg.seats;
      this.page.renderHud();
    } else if (msg.type === "analysis" && msg.game_id === this.analysisFor) {
      this.analysisCard.hidden = false;
      this.analysis.update(msg);
    }
  }

  /** A chat line is shown at once, without waiting for a shot's animation. */
  chatLine(ev) {
    this.chat.push(ev);
    if (this.chat.length > 50) this.chat.shift();
    this.renderChat(true);
  }

  /** After an event of the rulings log was applied. */
  applied(ev) {
    if (ev.kind === "rematch") this.watchAnalysis();
    if (ev.kind === "resign" || ev.kind === "draw") this.watchAnalysis();
  }

  // ---- who holds what ----------------------------------------------------------------------------

  people() {
    return this.room.seats.filter((s) => s.kind === "human").map((s) => s.seat);
  }

  /** My seats that a person sits at. */
  mine() {
    return [...this.page.mySeats].filter((s) => this.room.seats[s]?.kind === "human").sort((a, b) => a - b);
  }

  /** The seat this device acts for: on one device the shooter's side, else my own seat. */
  actor() {
    const mine = this.mine();
    if (!mine.length) return null;
    const shooter = this.state?.shooter;
    if (this.room.mode === "hotseat" && shooter !== null && shooter !== undefined) return shooter;
    return mine[0];
  }

  vote(topic) {
    return (this.state?.votes?.open || []).find((v) => v.topic === topic) || null;
  }

  waiting() {
    return Boolean(this.state?.waiting && this.room?.mode === "online");
  }

  // ---- the waiting state and the invitation ---------------------------------------------------

  renderWaiting() {
    const box = this.waitBox;
    const show = this.waiting();
    box.hidden = !show;
    this.page.root.querySelector("#controls").inert = show;
    this.page.root.querySelector(".room").classList.toggle("is-waiting", show);
    if (!show) return;
    box.replaceChildren();
    const card = el("div", "wait-card", { role: "dialog", "aria-labelledby": "wait-title" });
    const h = text("h2", t("wait.title"));
    h.id = "wait-title";
    const seated = this.mine().length > 0;
    card.append(h, text("p", t(seated ? "wait.host" : "wait.guest"), "lede"));
    if (!seated) {
      const take = el("div", "wait-take");
      for (const s of this.room.seats.filter((x) => x.kind === "open")) {
        const b = button(t("wait.take", { name: this.page.seatName(s.seat) }), "primary");
        b.dataset.seat = String(s.seat);
        b.addEventListener("click", () => this.page.takeSeat(s.seat));
        take.append(b);
      }
      card.append(take);
    }
    card.append(this.inviteBlock());
    const list = el("ul", "wait-seats");
    for (const s of this.room.seats) {
      const li = el("li");
      const state = s.kind === "open" ? text("em", t("seat.open")) : this.seatBadge(s.seat);
      li.append(text("span", this.page.seatName(s.seat), "who"), " ", state);
      list.append(li);
    }
    card.append(list);
    box.append(card);
  }

  inviteBlock() {
    const link = `${location.origin}/room/${this.room.id}`;
    const block = el("div", "invite");
    const img = el("img", "qr", { src: `/api/rooms/${encodeURIComponent(this.room.id)}/invite.svg`, alt: t("wait.qr"), width: "148", height: "148" });
    const fig = el("figure", "qr-figure");
    fig.append(img, text("figcaption", t("share.scan")));
    const row = el("div", "share-row");
    const input = el("input", "", { readonly: "", "aria-label": t("share.title") });
    input.value = link;
    const copy = button(t("share.copy"), "copy", async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        document.execCommand?.("copy");
      }
      copy.textContent = t("share.copied");
    });
    row.append(input, copy);
    block.append(fig, row);
    return block;
  }

  /** "online" or "disconnected since 14:32" for a seat (online rooms only). */
  seatBadge(seat) {
    const badge = el("span", "presence");
    if (this.room?.mode !== "online") return badge;
    const p = this.presence.find((x) => x.seat === seat);
    const kind = this.room.seats[seat]?.kind;
    if (!p || kind === "open") return badge;
    badge.dataset.seat = String(seat);
    if (kind === "computer") return badge;
    if (p.online) {
      badge.classList.add("online");
      badge.textContent = t("presence.online");
    } else {
      badge.classList.add("away");
      badge.textContent = p.since ? t("presence.away", { time: clock(p.since) }) : t("presence.never");
    }
    return badge;
  }

  // ---- resign and draw ---------------------------------------------------------------------

  renderActions() {
    const box = this.actions;
    const st = this.state;
    const actor = this.actor();
    const playing = st && !st.over && !st.waiting && actor !== null;
    box.hidden = !playing;
    box.replaceChildren();
    if (!playing) return;
    box.append(text("h3", t("act.title")));
    const draw = this.vote("draw");
    const row = el("div", "action-row");
    const computerSide = this.room.seats.some((s) => s.kind === "computer");
    if (draw) {
      const offerSide = draw.offered_by % 2;
      const asked = draw.asked.filter((s) => !draw.yes.includes(s));
      const mineAsked = asked.filter((s) => this.page.mySeats.has(s));
      const mineOffer = this.mine().filter((s) => s % 2 === offerSide);
      const offer = el("div", "offer", { role: "status" });
      if (mineAsked.length) {
        const who = mineAsked[0];
        const ask = this.room.mode === "hotseat"
          ? t("act.draw.ask_who", { name: this.page.seatName(who) })
          : t("act.draw.asked", { name: this.page.seatName(draw.offered_by) });
        offer.append(text("p", ask));
        const answers = el("div", "action-row");
        answers.append(
          button(t("act.accept"), "primary draw-accept", () => this.page.conn.send({ type: "draw", seat: who, answer: "yes" })),
          button(t("act.decline"), "draw-decline", () => this.page.conn.send({ type: "draw", seat: who, answer: "no" })),
        );
        offer.append(answers);
      } else {
        offer.append(text("p", t("act.draw.waiting", { names: names(asked.map((s) => this.page.seatName(s))) })));
        if (mineOffer.length) {
          offer.append(button(t("act.withdraw"), "draw-withdraw", () => this.page.conn.send({ type: "draw", seat: mineOffer[0], answer: "no" })));
        }
      }
      box.append(offer);
    } else if (!computerSide) {
      row.append(button(t("act.draw"), "draw-offer", () => this.page.conn.send({ type: "draw", seat: actor, answer: "yes" })));
    }
    row.append(button(t("act.resign"), "danger resign", () => this.confirmResign(actor)));
    box.append(row);
  }

  confirmResign(seat) {
    const d = this.dialog;
    d.replaceChildren();
    const color = this.room.seats[seat].color;
    const h = text("h2", t("act.resign.title"));
    const p = text("p", t("act.resign.text", { name: this.page.seatName(seat), color: t(`color.${color}`) }));
    const row = el("div", "action-row");
    row.append(
      button(t("act.resign.yes"), "danger resign-yes", () => {
        d.close();
        this.page.conn.send({ type: "resign", seat });
      }),
      button(t("act.resign.no"), "resign-no", () => d.close()),
    );
    d.append(h, p, row);
    d.showModal();
  }

  // ---- the end: rematch and analysis ----------------------------------------------------------

  renderEnd() {
    const box = this.endBox;
    box.replaceChildren();
    const st = this.state;
    if (!st?.over) return;
    const vote = this.vote("rematch");
    const mine = this.mine();
    const row = el("div", "action-row");
    if (vote) {
      const pending = vote.asked.filter((s) => !vote.yes.includes(s));
      const mineToSay = mine.filter((s) => pending.includes(s));
      if (mineToSay.length) {
        box.append(text("p", t("rm.asked", { name: this.page.seatName(vote.offered_by) }), "rm-status"));
        row.append(
          button(t("rm.accept"), "primary rematch-accept", () => this.page.conn.send({ type: "rematch", answer: "yes" })),
          button(t("rm.decline"), "rematch-decline", () => this.page.conn.send({ type: "rematch", answer: "no" })),
        );
      } else {
        box.append(text("p", t("rm.waiting", { names: names(pending.map((s) => this.page.seatName(s))) }), "rm-status"));
        if (mine.length) row.append(button(t("rm.decline"), "rematch-decline", () => this.page.conn.send({ type: "rematch", answer: "no" })));
      }
    } else if (mine.length) {
      row.append(button(t("end.rematch"), "primary rematch-offer", () => this.page.conn.send({ type: "rematch", answer: "yes" })));
    }
    const analyse = button(t("an.ask"), "analysis-open", () => {
      this.analysisCard.hidden = false;
      this.analysis.request();
      this.analysisCard.scrollIntoView({ block: "nearest" });
    });
    analyse.hidden = this.analysis.message?.status === "done";
    row.append(analyse);
    box.append(row);
    if (mine.length) box.append(text("p", t("rm.swap"), "hint"));
  }

  /** Follow the analysis of the game on the board once it is over (an earlier one is shown if
   * it exists); a new game hides it. */
  watchAnalysis() {
    const st = this.state;
    const gameId = this.room?.game_id;
    if (!st?.over) {
      this.analysisFor = null;
      this.analysisCard.hidden = true;
      return;
    }
    if (this.analysisFor === gameId) return;
    this.analysisFor = gameId;
    this.analysis.update(null);
    fetch(`/api/games/${encodeURIComponent(gameId)}/analysis`)
      .then((r) => (r.ok ? r.json() : null))
      .then((m) => {
        if (!m || this.analysisFor !== gameId || m.status === "none") return;
        this.analysisCard.hidden = false;
        this.analysis.update(m);
        this.renderEnd();
      })
      .catch(() => {});
  }

  // ---- chat ----------------------------------------------------------------------------------

  buildChat() {
    const c = this.chatCard;
    this.chatTitle = text("h3", "");
    this.chatList = el("ol", "chat-lines", { "aria-live": "polite" });
    this.presetRow = el("div", "chat-presets");
    this.chatForm = el("form", "chat-form");
    this.chatInput = el("input", "", { name: "text", maxlength: "200", autocomplete: "off", enterkeyhint: "send" });
    this.chatSend = el("button", "", { type: "submit" });
    this.chatCount = el("span", "chat-count", { "aria-live": "off" });
    this.chatForm.append(this.chatInput, this.chatSend);
    this.chatError = el("p", "form-error chat-error", { role: "alert" });
    this.chatNote = el("p", "hint chat-note");
    c.append(this.chatTitle, this.chatList, this.presetRow, this.chatForm, this.chatCount, this.chatError, this.chatNote);
    this.chatInput.addEventListener("input", () => {
      this.chatCount.textContent = t("chat.count", { n: this.chatInput.value.length });
    });
    this.chatForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const value = this.chatInput.value;
      if (!value.trim()) return;
      this.chatError.textContent = "";
      this.page.conn.send({ type: "chat", text: value });
      this.sent = value;
    });
  }

  buildPresets() {
    this.presetRow.replaceChildren();
    for (const p of this.presets) {
      const b = button(p[lang()] || p.en, "preset", () => {
        this.chatError.textContent = "";
        this.page.conn.send({ type: "chat", preset: p.id });
      });
      b.dataset.preset = p.id;
      this.presetRow.append(b);
    }
  }

  /** A refused chat line: the reason under the input (the line stays to be fixed). */
  chatRefused(msg) {
    this.chatError.textContent = pick(msg.message);
    this.sent = null;
  }

  renderChat(arrived = false) {
    if (!this.room) return;
    const online = this.room.mode === "online";
    this.chatCard.hidden = !online;
    if (!online) return;
    this.chatTitle.textContent = t("chat.title");
    const seated = this.mine().length > 0;
    this.chatForm.hidden = !seated;
    this.chatCount.hidden = !seated;
    this.chatNote.hidden = seated;
    this.chatNote.textContent = t("chat.spectator");
    this.chatInput.placeholder = t("chat.placeholder");
    this.chatInput.setAttribute("aria-label", t("chat.placeholder"));
    this.chatSend.textContent = t("chat.send");
    this.chatCount.textContent = t("chat.count", { n: this.chatInput.value.length });
    for (const b of this.presetRow.querySelectorAll("button")) {
      const p = this.presets.find((x) => x.id === b.dataset.preset);
      if (p) b.textContent = p[lang()] || p.en;
    }
    this.chatList.replaceChildren();
    if (!this.chat.length) this.chatList.append(text("li", t("chat.empty"), "chat-empty"));
    for (const line of this.chat) {
      const li = el("li", line.preset ? "preset" : "text");
      const who = line.name ? pick(line.name) : t("chat.watcher");
      li.append(
        text("span", who, "who"),
        text("span", line.preset ? pick(line.phrase) : line.text, "what"),
        text("time", clock(line.at), "when"),
      );
      this.chatList.append(li);
    }
    this.chatList.scrollTop = this.chatList.scrollHeight;
    if (arrived && this.sent !== null && this.sent !== undefined) {
      const last = this.chat[this.chat.length - 1];
      if (last && last.text === this.sent.trim() && this.page.mySeats.has(last.seat)) {
        this.chatInput.value = "";
        this.chatCount.textContent = t("chat.count", { n: 0 });
        this.sent = null;
      }
    }
  }

  // ---- everything ----------------------------------------------------------------------------

  render() {
    if (!this.room || !this.state) return;
    this.renderWaiting();
    this.renderActions();
    this.renderEnd();
    this.renderChat();
    this.analysis.render();
  }
}
