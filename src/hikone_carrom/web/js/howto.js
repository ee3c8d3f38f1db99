// How to play (遊び方) at /howto: the rules in plain words, one anchor per rule id (/howto#R5a)
// so that every ruling can link to its explanation, with pictures drawn by the board renderer.
import { BoardView } from "./board.js";
import { applyI18n, lang, onLangChange, t } from "./i18n.js";
import { api } from "./net.js";

/**
 * One part of the page: a title, its rules (id, short name, plain words) and a picture.
 * @typedef {{en: string, ja: string}} Words
 * @type {{id: string, title: Words, intro?: Words, picture?: string, caption?: Words,
 *   keys?: boolean, rules?: [string, Words, Words][]}[]}
 */
const PARTS = [
  {
    id: "goal",
    title: { en: "The aim of the game", ja: "ゲームの目的" },
    intro: {
      en: "Each side has a colour: red or green. Flick your striker so that it knocks your own pucks into the four corner pockets. When all 12 pucks of your colour are in, pocket the jack: that wins the game.",
      ja: "赤と緑、それぞれ自分の色があります。ストライカーを指で弾いて自分の色のパックを四隅のポケットに落とします。自分の色のパック12個が全部入ったら、最後にジャックを落とすと勝ちです。",
    },
    picture: "opening",
    caption: {
      en: "The opening: the jack on the jack spot, 24 pucks on the centre circle (rings = red, cross = green).",
      ja: "はじめの配置：ジャックはジャックスポットに、パック24個はセンターサークル上に（輪の模様が赤、×の模様が緑）。",
    },
  },
  {
    id: "R1",
    title: { en: "Setting up", ja: "準備" },
    rules: [
      ["R1a", { en: "The board", ja: "並べ方" }, {
        en: "The jack stands on the jack spot in the centre. The 24 pucks stand on the centre circle, red and green taking turns.",
        ja: "ジャックを中央のジャックスポットに置きます。パック24個はセンターサークルの上に、赤と緑を交互に並べます。",
      }],
      ["R1b", { en: "Who starts", ja: "先攻" }, {
        en: "The players play rock-paper-scissors. The winner takes a red striker, chooses a side and shoots first. In this game red always sits at the bottom (south) and starts.",
        ja: "じゃんけんをして、勝った人が赤のストライカーを持ち、場所を選んで最初に打ちます。このゲームでは赤が手前（南）に座って先攻です。",
      }],
      ["R1c", { en: "The order", ja: "打つ順番" }, {
        en: "Singles: red and green take turns. Doubles: clockwise round the table, red A, green A, red B, green B. Partners sit opposite each other.",
        ja: "シングルスは赤と緑が交互に打ちます。ダブルスは時計回りに赤A、緑A、赤B、緑Bの順です。ペアは向かい合って座ります。",
      }],
    ],
  },
  {
    id: "R2",
    title: { en: "Where you shoot from", ja: "どこから打つか" },
    picture: "placement",
    caption: {
      en: "Your striker stands on your area line. The wide band shows where it may go; a thin line crossed with x marks shows where a piece is in the way.",
      ja: "ストライカーは自分のエリアラインの上に置きます。太い帯が置ける場所、×印の入った細い線はほかの駒があって置けない場所です。",
    },
    rules: [
      ["R2a", { en: "First shot: the tee spot", ja: "最初はティースポットから" }, {
        en: "Your first shot of the game is from your own tee spot, the middle of your area line. If a piece covers it, the striker goes at the free point nearest to it.",
        ja: "試合で最初のショットは自分のティースポット（エリアラインの中央）から打ちます。ティースポットに駒があるときは、その中心にいちばん近い空いた場所から打ちます。",
      }],
      ["R2b", { en: "Later shots: on your area line", ja: "2回目からはエリアラインの上" }, {
        en: "After that, put the striker anywhere on your own area line (it must touch the line, seen from above), but not on another piece.",
        ja: "2回目からは自分のエリアラインの上ならどこに置いてもかまいません（上から見てラインにかかっていること）。ただしほかの駒の上には置けません。",
      }],
      ["R2c", { en: "How to flick", ja: "弾き方" }, {
        en: "On a real board you flick the striker with one or two fingers; your hand may not move forward and you may not turn the board. Here you pull back and let go instead (see below).",
        ja: "実際の盤では1本か2本の指でストライカーを弾きます。手を前に動かしたり、盤の向きを変えたりしてはいけません。このゲームでは引いて離して打ちます（下の説明を参照）。",
      }],
      ["R2d", { en: "Only on your turn", ja: "自分の番だけ" }, {
        en: "A striker goes on the board only when its owner's turn comes.",
        ja: "自分の番が来るまで、ストライカーを盤の上に置いてはいけません。",
      }],
    ],
  },
  {
    id: "controls",
    title: { en: "Shooting in this game", ja: "このゲームでの打ち方" },
    picture: "aim",
    caption: {
      en: "The guide line shows where the striker goes first; the round handle behind the striker is what you pull.",
      ja: "案内線はストライカーが最初に向かう先、ストライカーの後ろの丸い取っ手が引くところです。",
    },
    intro: {
      en: "Slide the striker along your area line to place it. To shoot, press the striker or the round handle behind it, pull back (further = harder) and let go. A tap, a right click, a second finger, Esc, or letting go back on the striker cancels: nothing is shot. You can also type the shot: position in mm (+ = to your right of the tee spot), angle in degrees (0 = straight ahead, + = to your right) and speed in m/s; the board shows it as you type.",
      ja: "ストライカーはエリアラインに沿ってずらして置きます。打つときはストライカーか後ろの丸い取っ手を押して、後ろへ引いて（長く引くほど強く）離します。タップ、右クリック、2本目の指、Escキー、ストライカーの上で離すと取り消しになり、打ちません。数字でも打てます：位置（mm、+ はティースポットから自分の右）、角度（度、0 が正面、+ が右）、速さ（m/s）。入力するとすぐ盤に表示されます。",
    },
    keys: true,
  },
  {
    id: "R3",
    title: { en: "Turns", ja: "交替" },
    rules: [
      ["R3a", { en: "Success: shoot again", ja: "成功すると続けて打つ" }, {
        en: "If at least one puck of your colour goes in and there is no penalty, you shoot again. Several at once are fine.",
        ja: "自分のパックが1個でも入り、ペナルティがなければ成功です。続けて打てます。同時に何個入ってもかまいません。",
      }],
      ["R3b", { en: "Service", ja: "サービス" }, {
        en: "Pucks of the other colour that you pocket stay in the pocket and count for that colour, even on a success.",
        ja: "自分が落とした相手の色のパックはサービスとしてポケットに残り、相手の色の分に数えます。成功のときも同じです。",
      }],
      ["R3c", { en: "Pieces off the board", ja: "盤の外に飛び出しても" }, {
        en: "A success still counts when pieces fly off the board in the same shot.",
        ja: "同じショットでパックが盤の外に飛び出しても、成功は成功です。",
      }],
      ["R3d", { en: "Otherwise: next player", ja: "それ以外は次の人へ" }, {
        en: "If none of your pucks goes in, the turn passes to the next player in order.",
        ja: "自分のパックが1個も入らなければ、次の人に交替します。",
      }],
    ],
  },
  {
    id: "R4",
    title: { en: "Doubles: pieces you may not hit directly", ja: "ダブルス：打てないパック" },
    picture: "unshootable",
    caption: {
      en: "Pieces wholly inside your own area are hatched and struck through while you aim: you may not hit them directly.",
      ja: "自分のエリアの内側に入りきった駒は、狙っている間、斜線と打ち消し線で示されます。直接打てません。",
    },
    rules: [
      ["R4a", { en: "Unshootable pieces", ja: "打てないパック" }, {
        en: "In doubles, a piece (a puck of either colour, or the jack) lying wholly inside your own area, between your area line and your rail, may not be hit directly by your striker. A piece touching the line at all may be hit.",
        ja: "ダブルスでは、自分のエリアラインより手前（自分の壁側）に入りきっている駒（どちらの色のパックもジャックも）は、自分のストライカーで直接打てません。ラインに少しでもかかっていれば打てます。",
      }],
      ["R4b", { en: "Legal ways to move them", ja: "動かす方法" }, {
        en: "Leave it to your partner; hit a piece on or beyond the line first and let it carry on; or bank the striker off one of the three rails other than your own before it touches the piece.",
        ja: "ペアに任せる、ライン上かその先の駒に先に当てて押し出す、自分の側以外の三方の壁に一度当ててから当てる、のどれかです。",
      }],
      ["R4c", { en: "If you hit one directly", ja: "直接打ってしまったら" }, {
        en: "The opponents put the pieces back where they were: the board goes back to before the shot, nothing counts, and the turn passes.",
        ja: "相手が駒を元の位置に戻します。盤はショットの前に戻り、何も数えず、次の人に交替します。",
      }],
      ["R4d", { en: "Also on the first shot", ja: "最初のショットでも" }, {
        en: "This applies to the first shot from the tee spot too.",
        ja: "ティースポットから打つ最初のショットでも同じです。",
      }],
      ["R4e", { en: "Singles", ja: "シングルス" }, {
        en: "In singles every piece may be hit directly.",
        ja: "シングルスでは、盤の上の駒はすべて直接狙えます。",
      }],
    ],
  },
  {
    id: "R5",
    title: { en: "Penalties", ja: "ペナルティ" },
    intro: {
      en: "A penalty costs pucks of your colour: they come out of the pockets and go back on the jack spot.",
      ja: "ペナルティでは、自分の色のパックをポケットから出してジャックスポットに戻します。",
    },
    rules: [
      ["R5a", { en: "Striker pocketed: 1", ja: "ストライカーがポケットに入った：1個" }, {
        en: "Your striker falls into a pocket: a penalty of 1 puck.",
        ja: "ストライカーがポケットに入ったら、ペナルティ1個です。",
      }],
      ["R5b", { en: "Jack too early: 5", ja: "早すぎるジャック：5個" }, {
        en: "The jack goes in while any of your own pucks was still outside the pockets when you shot: a penalty of 5 pucks.",
        ja: "自分のパックが全部入っていないのにジャックが入ったら、ペナルティ5個です。",
      }],
      ["R5c", { en: "Striker off the board: 1", ja: "ストライカーが盤の外へ：1個" }, {
        en: "Your striker flies off the board: a penalty of 1 puck.",
        ja: "ストライカーが盤の外に飛び出したら、ペナルティ1個です。",
      }],
      ["R5d", { en: "Jack off the board: 5", ja: "ジャックが盤の外へ：5個" }, {
        en: "The jack flies off the board: a penalty of 5 pucks.",
        ja: "ジャックが盤の外に飛び出したら、ペナルティ5個です。",
      }],
      ["R5e", { en: "Shot out of turn: 1", ja: "順番違い：1個" }, {
        en: "Shooting when it was not your turn: a penalty of 1 puck (only at a real table; the digital game never lets it happen).",
        ja: "自分の番でないのに打ったら、ペナルティ1個です（実際の盤の試合だけ。このゲームでは起こりません）。",
      }],
      ["R5f", { en: "Touching a moving striker: 1", ja: "動いているストライカーに触れた：1個" }, {
        en: "Touching the striker while it still moves: a penalty of 1 puck (only at a real table).",
        ja: "動いているストライカーに触れたら、ペナルティ1個です（実際の盤の試合だけ）。",
      }],
      ["R5g", { en: "Several fouls", ja: "反則が重なったら" }, {
        en: "The counts of several fouls in one shot add up.",
        ja: "1回のショットで反則が重なったら、その個数を足します。",
      }],
      ["R5h", { en: "What goes back", ja: "戻すパック" }, {
        en: "Your own pucks that went in with the penalty go back to the jack spot and do not count. Then the penalty's count of your pucks comes out of the pockets onto the jack spot, and the turn passes. The other colour's pucks stay in.",
        ja: "ペナルティと同時に入った自分のパックはジャックスポットに戻し、数えません。さらにペナルティの個数だけ自分のパックをポケットから出してジャックスポットに戻し、次の人に交替します。相手のパックはそのままです。",
      }],
      ["R5i", { en: "Debt", ja: "借り" }, {
        en: "If not enough of your pucks are in the pockets, the rest becomes a debt. While you owe, each puck of your colour that goes in (whoever pocketed it) goes straight back to the jack spot and pays one off.",
        ja: "戻すパックが足りないときは、足りない分が借りになります。借りがある間は、自分の色のパックが入ると（誰が入れても）すぐジャックスポットに戻し、借りを1個返します。",
      }],
      ["R5j", { en: "The jack in a penalty", ja: "ジャックが関わるペナルティ" }, {
        en: "A jack involved in a penalty goes back to the jack spot, on top of everything.",
        ja: "ジャックが関わるペナルティのときは、ジャックをジャックスポットの一番上に戻します。",
      }],
      ["R5k", { en: "Only at a real table", ja: "実際の盤だけの反則" }, {
        en: "Shots out of turn and touching a moving striker only happen at a real table with a referee; here the game prevents them.",
        ja: "順番違いと動いているストライカーに触れる反則は、審判のいる実際の試合でだけ起こります。このゲームでは起こりません。",
      }],
    ],
  },
  {
    id: "R6",
    title: { en: "Other cases", ja: "その他" },
    rules: [
      ["R6a", { en: "Last puck and jack together", ja: "最後のパックとジャックが同時に" }, {
        en: "If your last puck and the jack go in with the same shot, it is a failure: a penalty of 5, the puck goes back, and the jack goes on top.",
        ja: "最後の自分のパックとジャックが同時に入ったら失敗です。ペナルティ5個、入ったパックは戻し、ジャックは一番上に載せます。",
      }],
      ["R6b", { en: "Jack after all your pucks", ja: "全部入ったあとのジャック" }, {
        en: "If all your pucks are in before the shot, pocketing the jack wins, even if pucks of the other colour fall with it. Another foul in the same shot (striker pocketed or off the board) cancels the win.",
        ja: "自分のパックが全部入ったあとなら、相手のパックと一緒にジャックが入っても勝ちです。ただし同じショットでほかの反則（ストライカーが入る・飛び出す）があると勝ちになりません。",
      }],
      ["R6c", { en: "Pucks off the board", ja: "盤の外に飛び出したパック" }, {
        en: "A puck flying off the board is no penalty: it goes back on the jack spot. If one of your pucks went in with the same shot, you go on.",
        ja: "パックが盤の外に飛び出してもペナルティではありません。ジャックスポットに戻します。同じショットで自分のパックが入っていれば続けて打てます。",
      }],
      ["R6d", { en: "Stacking order", ja: "積む順番" }, {
        en: "When pucks of both colours go back at once, the opponent's go at the bottom and the shooter's above them; a returning jack goes on top.",
        ja: "両方の色のパックを同時に戻すときは、相手のパックを下に、自分のパックをその上に重ねます。戻すジャックは一番上です。",
      }],
      ["R6e", { en: "The jack spot pile", ja: "ジャックスポットの山" }, {
        en: "Returned pieces are stacked on whatever already lies on the jack spot. Pieces on edge or lying on each other stay as they are; play goes on.",
        ja: "戻す駒はジャックスポットにあるものの上に積みます。駒が立ったり重なったりしても、そのままゲームを続けます。",
      }],
    ],
  },
  {
    id: "R7",
    title: { en: "Winning", ja: "勝ち負け" },
    rules: [
      ["R7a", { en: "The jack last", ja: "最後にジャック" }, {
        en: "A colour wins when, all 12 of its pucks being in, its side pockets the jack without a foul.",
        ja: "自分の色のパック12個が全部入ったあと、反則なしでジャックを入れた側の勝ちです。",
      }],
      ["R7b", { en: "Timed matches", ja: "時間制の試合" }, {
        en: "When time is called, play goes on until the last player of the round has had their turn. Then the colour with more pucks in (minus any debt) wins; a pocketed jack counts 100.",
        ja: "時間が来たら、その巡の最後の人が打ち終わるまで続けます。そのあと、入ったパックの多い色（借りを引いた数）の勝ちです。ジャックは100点です。",
      }],
      ["R7c", { en: "Still level", ja: "同点なら" }, {
        en: "If the score is level, one more full round is played at a time until one side leads.",
        ja: "同点なら、どちらかがリードするまで1巡ずつ延長します。",
      }],
      ["R7d", { en: "Deadlock", ja: "それでも決まらなければ" }, {
        en: "If it stays level, the result the organisers fixed beforehand decides: a draw, or rock-paper-scissors.",
        ja: "それでも同点なら、あらかじめ決めた方法で決めます（引き分け、またはじゃんけん）。",
      }],
      ["R7e", { en: "Championship matches", ja: "選手権の試合" }, {
        en: "At the Japan Championship a match lasts 5 minutes, except the finals.",
        ja: "日本選手権では、決勝以外は1試合5分です。",
      }],
    ],
  },
  {
    id: "R8",
    title: { en: "The 10-second rule", ja: "10秒ルール" },
    rules: [
      ["R8a", { en: "10 seconds to shoot", ja: "10秒以内に打つ" }, {
        en: "In timed matches, from one minute before the end, you must shoot within 10 seconds of your turn coming (every shot, also when you shoot again). Otherwise you lose that shot and the turn passes.",
        ja: "時間制の試合では、終了1分前から、自分の番が来て10秒以内に打たなければなりません（続けて打つときも毎回）。打てなければそのショットを失い、次の人に交替します。",
      }],
    ],
  },
];

/** Every rule id the page explains (each has the anchor #id). */
export const RULE_IDS = PARTS.flatMap((p) => (p.rules || []).map(([id]) => id));

const pickLang = (pair) => pair[lang()] ?? pair.en;

export class HowToPage {
  constructor(root) {
    this.root = root;
    this.views = [];
  }

  async mount() {
    this.root.replaceChildren(/** @type {HTMLTemplateElement} */ (document.getElementById("tpl-howto")).content.cloneNode(true));
    this.render();
    this.off = onLangChange(() => this.render());
    try {
      this.board = await api("/api/board");
    } catch {
      this.board = null; // the words still explain everything
    }
    if (this.disposed) return;
    this.draw();
    this.onResize = () => this.draw();
    window.addEventListener("resize", this.onResize);
    this.goToAnchor();
  }

  dispose() {
    this.disposed = true;
    this.off?.();
    if (this.onResize) window.removeEventListener("resize", this.onResize);
  }

  goToAnchor() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (target) {
      target.scrollIntoView({ block: "start" });
      target.focus({ preventScroll: true });
    }
  }

  render() {
    applyI18n(this.root);
    this.root.querySelector(".howto-head .lede").textContent = t("howto.lede");
    const toc = this.root.querySelector("#howto-toc");
    const body = this.root.querySelector("#howto-body");
    toc.replaceChildren();
    body.replaceChildren();
    for (const part of PARTS) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `#${part.id}`;
      a.textContent = pickLang(part.title);
      li.append(a);
      toc.append(li);
      const section = document.createElement("section");
      section.className = "howto-part card";
      section.id = part.id;
      section.tabIndex = -1;
      const h2 = document.createElement("h2");
      h2.textContent = pickLang(part.title);
      section.append(h2);
      if (part.picture) {
        const fig = document.createElement("figure");
        const canvas = document.createElement("canvas");
        canvas.className = "howto-picture";
        canvas.dataset.picture = part.picture;
        canvas.setAttribute("role", "img");
        canvas.setAttribute("aria-label", pickLang(part.caption));
        const cap = document.createElement("figcaption");
        cap.textContent = pickLang(part.caption);
        fig.append(canvas, cap);
        section.append(fig);
      }
      if (part.intro) {
        const p = document.createElement("p");
        p.textContent = pickLang(part.intro);
        section.append(p);
      }
      if (part.keys) {
        const p = document.createElement("p");
        p.className = "keys";
        p.textContent = t("controls.keys");
        section.append(p);
      }
      if (part.rules) {
        const dl = document.createElement("dl");
        dl.className = "rules";
        for (const [id, name, words] of part.rules) {
          const dt = document.createElement("dt");
          dt.id = id;
          dt.tabIndex = -1;
          const link = document.createElement("a");
          link.className = "rule";
          link.href = `#${id}`;
          link.textContent = id;
          dt.append(link, " ", pickLang(name));
          const dd = document.createElement("dd");
          dd.textContent = pickLang(words);
          dl.append(dt, dd);
        }
        section.append(dl);
      }
      body.append(section);
    }
    if (this.board) this.draw();
  }

  /** Draw each picture with the game's own board renderer. */
  draw() {
    if (!this.board) return;
    for (const canvas of this.root.querySelectorAll(".howto-picture")) {
      const view = new BoardView(canvas, this.board);
      const [disks, overlay] = picture(canvas.dataset.picture, this.board);
      view.draw(disks, overlay);
    }
  }
}

/** The disks and overlay of one picture (lengths in m, the board's own frame). */
/**
 * The disks and the overlay of one picture.
 * @param {string} name
 * @param {any} g the board's geometry (m)
 * @returns {[import("./tracks.js").Disk[], import("./board.js").Overlay | null]}
 */
function picture(name, g) {
  const r = g.puck_radius;
  const disk = (id, kind, x, y, extra = {}) => ({ id, kind, x, y, layer: 0, r: kind === "jack" ? g.jack_radius : r, ...extra });
  const opening = [disk("J", "jack", 0, 0)];
  for (let k = 0; k < 24; k++) {
    const a = ((7.5 + 15 * k) * Math.PI) / 180;
    const kind = k % 2 === 0 ? "red" : "green";
    opening.push(disk(`${kind[0].toUpperCase()}${k >> 1}`, kind, g.centre_circle_radius * Math.cos(a), g.centre_circle_radius * Math.sin(a)));
  }
  const south = g.area_lines.find((l) => l.side === "south");
  const tee = south.tee;
  const lineLen = Math.hypot(south.b[0] - south.a[0], south.b[1] - south.a[1]);
  if (name === "opening") return [opening, null];
  if (name === "placement") {
    const blocker = disk("G3", "green", tee[0] + 0.06, tee[1] + 0.004);
    const lo = 0.5 + (0.06 - 2 * r) / lineLen, hi = 0.5 + (0.06 + 2 * r) / lineLen;
    const x = tee[0] - 0.07;
    return [
      [disk("J", "jack", 0, 0.02), disk("R1", "red", -0.1, 0.08), blocker, disk("striker", "striker", x, tee[1], { color: "red", ghost: true })],
      { placement: { kind: "line", line: [south.a, south.b], free: [[0, lo], [hi, 1]] } },
    ];
  }
  if (name === "aim") {
    const from = [tee[0] - 0.04, tee[1]];
    const target = [-0.01, 0.02];
    const angle = Math.atan2(target[1] - from[1], target[0] - from[0]);
    const power = 0.5;
    const d = 0.03 + power * 0.16;
    return [
      [disk("J", "jack", 0, 0.08), disk("R2", "red", target[0], target[1]), disk("G4", "green", 0.12, 0.1), disk("striker", "striker", from[0], from[1], { color: "red", ghost: true })],
      {
        aim: {
          from, to: [target[0] - Math.cos(angle) * 2 * r, target[1] - Math.sin(angle) * 2 * r], contact: "R2",
          deflect: { from: target, to: [target[0] + Math.cos(angle) * 0.12, target[1] + Math.sin(angle) * 0.12] },
          power, angle, armed: true, pull: null,
          handle: [from[0] - Math.cos(angle) * d, from[1] - Math.sin(angle) * d],
        },
      },
    ];
  }
  // unshootable (R4a): two pieces wholly behind the south area line, one touching it
  const behind = tee[1] - 2.2 * r;
  return [
    [
      disk("J", "jack", 0.02, 0.05), disk("R5", "red", -0.09, behind), disk("G6", "green", 0.08, behind - 0.01),
      disk("R7", "red", 0.15, tee[1] - 0.5 * r), disk("striker", "striker", -0.02, tee[1], { color: "red", ghost: true }),
    ],
    { unshootable: ["R5", "G6"] },
  ];
}
