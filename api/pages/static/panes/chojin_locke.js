// カードゲーム「超人ロック」 at the table: the board (惑星編's six torus planets with their
// spaceports, 秘密基地編's 6×6 base), the pieces and the cards as they lie, my sealed sheet and
// hand, the silhouettes as they are revealed, whose turn and phase, and what my phase allows.
// Everything comes from /view, already redacted for this reader (see panes/README.md): the
// pane shows what it was given and asks the server for nothing more.
import { el, keepOpenState } from "../api.js";
import { lang, t } from "../i18n.js";
import { combatSection } from "./chojin_locke/combat.js";
import { aftermathSection } from "./chojin_locke/leaving.js";
// What the game waits on this reader for: the top bar's cue (waiting.js)
export { awaiting } from "./chojin_locke/awaiting.js";

const STAGES = {
  deal: "キャラクターシート配布", silhouettes: "シルエット選択", rebalance: "人数の是正",
  ambush: "惑星編の準備", planet: "惑星編", keys: "秘密基地編の準備", base: "秘密基地編", over: "終了",
};
const PHASES = {
  check: "チェックフェイズ", support1: "支援フェイズ1", main: "主要フェイズ", square: "マスの効果発動フェイズ",
  support2: "支援フェイズ2", combat: "戦闘発生フェイズ", victory: "勝利宣言フェイズ", recovery: "回復チェックフェイズ",
  move: "移動フェイズ", instruction: "その場の指示に従うフェイズ", destruction: "破壊チェックフェイズ",
};
// what each phase is for (domain/rulesets/chojin_locke/phases.py's ROLES)
const ROLES = {
  check: "check", support1: "support", support2: "support", main: "main", square: "square", combat: "combat",
  victory: "victory", recovery: "check", move: "main", instruction: "square", destruction: "destruction",
};
const CONDITIONS = {
  normal: "通常", bound: "拘束", arrested: "逮捕", partner: "パートナー", dead: "死亡",
  black_hole: "ブラックホール", disabled: "行動不能",
};
const FACTIONS = { G: t("Good"), E: t("Evil"), S: t("Special") };
// why a player won or lost (results.py): the server's words in Japanese; in another language
// each reason's catalog key read with its arguments, as a lifecycle line's msg is
const reasonWords = (result) => (lang === "ja" || !result.reason_keys ? result.reasons
  : result.reason_keys.map((reason) => t(reason.msg, reason.args)));
// how a game ended (domain/rulesets/chojin_locke/log.py's ENDINGS)
const ENDINGS = {
  victory: "勝利", sole_victory: "単独勝利", keys_destroyed: "キーがすべて破壊された", all_dead: "全員死亡",
  all_out: "全員脱落", vigil: "待機の終わり", host: "ホストが終了",
};
const STATS = { esp_level: "ESP能力レベル", esp_power: "ESPパワー", endurance: "耐久力", willpower: "精神力" };
const SIDES = { explorer: "探索", base: "基地" };
// the turn's main action as the rules name it (the server records its kind: turn.main)
const MAIN_ACTIONS = {
  pass: "パス", move: "移動", spaceport: "宇宙港へ移動", teleport: "テレポート", teleport_failed: "テレポート失敗",
  recover: "回復", treat: "治療", ability: "特殊能力", party: "パーティーを組む", dissolve: "組み外し",
  escape: "脱出チェック", destroy: "破壊", entry: "入口から侵入", intrusion: "強行侵入", random: "ランダムな位置に侵入",
  check: "チェック", conversion: "説得",
};
const SIZE = 6;

const cardName = (card) => `${card.color === "black" ? "♠" : "♥"}${card.rank === 1 ? "A" : card.rank}`;

export function mountPane(context) {
  const root = context.root;
  root.classList.add("locke");
  const memo = new Map(); // the values typed into the pane's inputs, kept across re-renders
  let rules = null;
  let game = null;
  let mode = null; // what a click on the board does now: {kind, hint}
  // The game's catalog, public: its own (in GameCreated's options), else the ruleset's sample
  // (GET /rulesets' reference data). Only its silhouette cards are read, to choose one.
  let catalog = null;
  let catalogAsked = false;

  async function loadCatalog(gameId) {
    catalogAsked = true;
    let own = null;
    try {
      const first = await context.get(`/games/${gameId}/events?after=0&limit=1`);
      own = first.events[0]?.public?.ruleset_options?.catalog ?? null;
    } catch { /* the sample's then */ }
    catalog = own ?? context.ruleset?.data?.catalog ?? null;
    render();
  }

  const me = () => context.me.actor;
  const mySeat = () => (me().startsWith("seat:") ? Number(me().slice(5)) : null);
  // the host runs the set-up steps (a GM, or in a game without a referee its host, who may
  // also sit at a seat)
  const isHost = () => context.isGm() || me() === "host" || Boolean(context.me.referee);
  const seatName = (seat) => game?.seats.find((s) => s.seat === seat)?.name ?? `seat ${seat}`;
  const player = (seat) => rules.players.find((p) => p.seat === seat);
  const mine = () => (mySeat() === null ? null : player(mySeat()));
  const errorBox = el("p", { class: "error locke-error", role: "alert", hidden: true });
  // a refusal of a combat command, shown beside the combat's forms
  const combatError = el("p", { class: "error locke-combat-error", role: "alert", hidden: true });

  async function sendCombat(body) {
    combatError.hidden = true;
    errorBox.hidden = true;
    return context.command(body, combatError);
  }

  async function send(body) {
    errorBox.hidden = true;
    const result = await context.command(body, errorBox);
    if (result && !["ambush", "key"].includes(mode?.kind)) mode = null; // those place several
    return result;
  }

  // An input whose value survives the pane's re-rendering (a choice no longer offered falls
  // back to the first one).
  function remembered(node, key, fallback) {
    node.value = memo.has(key) ? memo.get(key) : String(fallback);
    if (node.tagName === "SELECT" && !node.value && node.options.length) node.value = node.options[0].value;
    node.addEventListener("input", () => memo.set(key, node.value));
    node.addEventListener("change", () => memo.set(key, node.value));
    return node;
  }

  function numberInput(key, label, { min = 0, max = 12, value = min } = {}) {
    const input = remembered(el("input", { type: "number", min, max, class: "locke-number", name: key, "aria-label": label }), key, value);
    return { input, node: el("label", { class: "inline" }, label, " ", input) };
  }

  function select(key, label, options, fallback) {
    const node = el("select", { name: key, "aria-label": label },
      options.map(([value, text]) => el("option", { value }, text)));
    return remembered(node, key, fallback ?? options[0]?.[0] ?? "");
  }

  const button = (text, onclick, extra = {}) => el("button", { type: "button", onclick, ...extra }, text);

  // ---------------------------------------------------------------------- the status line

  // 4.6 l.793 「惑星編で最後にターンプレイヤーだったプレイヤーの次のプレイヤーから反時計回りの順番で
  // 配置します。」: who is still to enter the 秘密基地, in order, told to everyone
  const entrantName = (seat) => {
    const sheet = player(seat)?.sheet?.name;
    return sheet ? `${seatName(seat)}（${sheet}）` : seatName(seat);
  };

  function status() {
    const turn = rules.turn;
    const items = [el("span", { class: "locke-stage" }, STAGES[rules.stage] ?? rules.stage)];
    if (rules.stage === "keys" && rules.entry_order?.length) {
      items.push(el("span", { class: "locke-entry-order" }, t("Entry order: {order}", { order: rules.entry_order.map(entrantName).join(" → ") })));
    }
    if (turn && ["planet", "base"].includes(rules.stage)) {
      items.push(el("span", { class: "locke-turn" },
        `ターン${turn.number}: ${seatName(turn.seat)}`, turn.seat === mySeat() ? t("(you)") : "",
        " · ", el("strong", { class: "locke-phase", dataset: { phase: turn.phase } }, PHASES[turn.phase] ?? turn.phase),
        turn.main ? ` · 主要行動: ${MAIN_ACTIONS[turn.main] ?? turn.main}` : ""));
    }
    if (rules.ending) {
      const who = rules.ending.seat ? ` (${seatName(rules.ending.seat)})` : "";
      items.push(el("span", { class: "locke-ending" }, "終了: " + (ENDINGS[rules.ending.reason] ?? rules.ending.reason) + (rules.ending.faction ? " · " + (FACTIONS[rules.ending.faction] ?? rules.ending.faction) : "") + who));
    }
    return el("div", { class: "locke-status", role: "status" }, items);
  }

  // ---------------------------------------------------------------------- prompts to me

  function prompts() {
    const seat = mySeat();
    const out = [];
    const victory = rules.victory;
    if (victory) {
      const waiting = victory.waiting.includes(seat);
      out.push(el("div", { class: "locke-prompt locke-victory", role: "group", "aria-label": "勝利宣言" },
        el("p", {}, t("{name} declares the victory of {faction}.", { name: seatName(victory.seat), faction: FACTIONS[victory.faction] ?? victory.faction }),
          waiting ? " " + t("Do you object?") : " " + t("Waiting for: {names}", { names: victory.waiting.map(seatName).join("、") })),
        waiting ? el("div", { class: "locke-buttons" },
          button(t("Object"), () => send({ type: "chojin_locke.answer_victory", objects: true }), { class: "primary", "data-answer": "object" }),
          button(t("Do not object"), () => send({ type: "chojin_locke.answer_victory", objects: false }), { "data-answer": "accept" })) : null));
    }
    const proposal = rules.proposal;
    if (proposal?.waiting.includes(seat)) {
      out.push(el("div", { class: "locke-prompt", role: "group", "aria-label": "パーティー" },
        el("p", {}, t("{name} proposes to form a party.", { name: seatName(proposal.leader) })),
        el("div", { class: "locke-buttons" },
          button(t("Join"), () => send({ type: "chojin_locke.answer_party", accepts: true }), { class: "primary" }),
          button(t("Decline"), () => send({ type: "chojin_locke.answer_party", accepts: false })))));
    }
    const teleport = rules.turn?.party_teleport;
    if (teleport?.waiting.includes(seat)) {
      const level = numberInput("partner-esp", "ESP能力レベル", { min: 0, max: 12, value: rules.me?.stats?.esp_level ?? 0 });
      out.push(el("div", { class: "locke-prompt", role: "group", "aria-label": "テレポート" },
        el("p", {}, t("{name}'s party teleports. Declare your ESP能力レベル.", { name: seatName(rules.turn.seat) })),
        level.node, button("宣言", () => send({ type: "chojin_locke.declare_teleport", declared: Number(level.input.value) }), { class: "primary" })));
    }
    return out;
  }

  // ---------------------------------------------------------------------- the boards

  function pieces(onSquare) {
    return rules.players.filter(onSquare).map((p) => el("span", {
      class: `locke-piece side-${p.side ?? "none"}${p.seat === mySeat() ? " mine" : ""}${rules.turn?.seat === p.seat ? " turn" : ""}`,
      title: `${seatName(p.seat)}: ${p.silhouette ?? "?"} (${CONDITIONS[p.condition] ?? p.condition})`,
      dataset: { seat: p.seat },
    }, `${p.seat}`));
  }

  // Where a click takes me, or what it places, now.
  function planetTargets() {
    const targets = new Map(); // "p:s" → command body
    const self = mine();
    if (!self) return targets;
    if (mode?.kind === "ambush") {
      const placed = new Set(rules.board.ambushes ?? []);
      for (const square of rules.board.face_down_squares) {
        if (!placed.has(square)) targets.set(square, (p, s) => ({ type: "chojin_locke.place_ambush", planet: p, square: s }));
      }
      return targets;
    }
    if (rules.stage === "ambush" && self.side === "explorer" && !self.position) {
      for (let p = 0; p < SIZE; p += 1) targets.set(`${p}:0`, (planet) => ({ type: "chojin_locke.enter", planet }));
      return targets;
    }
    if (!myMainOpen() || !self.position || self.condition !== "normal") return targets;
    const { planet, square } = self.position;
    targets.set(`${planet}:${(square + 1) % SIZE}`, () => ({ type: "chojin_locke.move", direction: "right" }));
    targets.set(`${planet}:${(square + SIZE - 1) % SIZE}`, () => ({ type: "chojin_locke.move", direction: "left" }));
    if (square === 0) {
      for (let p = 0; p < SIZE; p += 1) if (p !== planet) targets.set(`${p}:0`, (to) => ({ type: "chojin_locke.move", planet: to }));
    }
    return targets;
  }

  function planetBoard() {
    const targets = planetTargets();
    const faceDown = new Set(rules.board.face_down_squares);
    const ambushes = new Set(rules.board.ambushes ?? []);
    const rows = [];
    for (let p = 0; p < SIZE; p += 1) {
      const squares = [];
      for (let s = 0; s < SIZE; s += 1) {
        const key = `${p}:${s}`;
        const turned = rules.board.turned[key];
        const target = targets.get(key);
        const classes = ["locke-square", s === 0 ? "spaceport" : "", faceDown.has(key) ? "face-down" : "", turned ? "face-up" : "",
          ambushes.has(key) ? "ambush" : "", target ? "target" : ""].filter(Boolean).join(" ");
        const label = `惑星${p} マス${s}${s === 0 ? " 宇宙港" : ""}${turned ? ` ${turned}` : faceDown.has(key) ? " 裏向きのカード" : ""}${ambushes.has(key) ? " 待ち伏せ" : ""}`;
        squares.push(el(target ? "button" : "div", {
          class: classes, type: target ? "button" : undefined, "aria-label": label, title: label,
          dataset: { planet: p, square: s },
          onclick: target ? () => send(target(p, s)) : undefined,
        },
        s === 0 ? el("span", { class: "locke-port" }, "港") : null,
        el("span", { class: "locke-card" }, turned ?? (faceDown.has(key) || s === 0 ? "" : "·")),
        ambushes.has(key) ? el("span", { class: "locke-mark" }, "伏") : null,
        pieces((pl) => pl.position?.planet === p && pl.position?.square === s && !pl.cell)));
      }
      rows.push(el("div", { class: "locke-planet", dataset: { planet: p } },
        el("span", { class: "locke-planet-name" }, `惑星${p}`), squares,
        el("span", { class: "locke-wrap", title: t("A torus: the rightmost square is next to the 宇宙港"), "aria-hidden": "true" }, "↺")));
    }
    return el("div", { class: "locke-board locke-planets", role: "group", "aria-label": t("The 惑星編 board") }, rows);
  }

  function outer(row, col) { return row === 0 || col === 0 || row === SIZE - 1 || col === SIZE - 1; }

  function baseTargets() {
    const targets = new Map();
    const self = mine();
    if (!self) return targets;
    const all = (make) => { for (let r = 0; r < SIZE; r += 1) for (let c = 0; c < SIZE; c += 1) targets.set(`${r}:${c}`, make); };
    const edge = (make) => { for (let r = 0; r < SIZE; r += 1) for (let c = 0; c < SIZE; c += 1) if (outer(r, c)) targets.set(`${r}:${c}`, make); };
    if (mode?.kind === "key") {
      all((row, col) => ({ type: "chojin_locke.place_key", row, col }));
      for (const placed of rules.board.keys ?? []) targets.delete(placed);
      return targets;
    }
    if (mode?.kind === "enter_base") { edge((row, col) => ({ type: "chojin_locke.enter_base", row, col })); return targets; }
    if (mode?.kind === "intrude") { edge((row, col) => ({ type: "chojin_locke.intrude", declared: mode.declared, row, col })); return targets; }
    const steps = rules.turn?.teleport;
    if (rules.turn?.seat === mySeat() && steps && self.cell) {
      all((row, col) => ({ type: "chojin_locke.teleport_to", row, col }));
      targets.delete(`${self.cell.row}:${self.cell.col}`);
      return targets;
    }
    if (!myMainOpen() || !self.cell || self.condition !== "normal") return targets;
    const { row, col } = self.cell;
    for (const [direction, dr, dc] of [["up", -1, 0], ["down", 1, 0], ["left", 0, -1], ["right", 0, 1]]) {
      const r = row + dr;
      const c = col + dc;
      if (r >= 0 && r < SIZE && c >= 0 && c < SIZE) targets.set(`${r}:${c}`, () => ({ type: "chojin_locke.move", direction }));
    }
    return targets;
  }

  function baseBoard() {
    const targets = baseTargets();
    const faceDown = new Set(rules.board.base_face_down_squares);
    const keys = new Set(rules.board.keys ?? []);
    const destroyed = new Set(rules.board.keys_destroyed);
    const cells = [];
    for (let r = 0; r < SIZE; r += 1) {
      for (let c = 0; c < SIZE; c += 1) {
        const key = `${r}:${c}`;
        const turned = rules.board.base_turned[key];
        const target = targets.get(key);
        const classes = ["locke-square", outer(r, c) ? "outer" : "", faceDown.has(key) ? "face-down" : "", turned ? "face-up" : "",
          keys.has(key) ? "key" : "", destroyed.has(key) ? "destroyed" : "", target ? "target" : ""].filter(Boolean).join(" ");
        const label = `行${r} 列${c}${turned ? ` ${turned}` : faceDown.has(key) ? " 裏向きのカード" : ""}${keys.has(key) ? " 重要拠点" : ""}${destroyed.has(key) ? " 破壊済み" : ""}`;
        cells.push(el(target ? "button" : "div", {
          class: classes, type: target ? "button" : undefined, "aria-label": label, title: label, dataset: { row: r, col: c },
          onclick: target ? () => send(target(r, c)) : undefined,
        },
        el("span", { class: "locke-card" }, destroyed.has(key) ? "✕" : turned ?? ""),
        keys.has(key) ? el("span", { class: "locke-mark" }, "拠") : null,
        pieces((pl) => pl.cell?.row === r && pl.cell?.col === c)));
      }
    }
    const around = rules.players.filter((p) => p.outside);
    return el("div", {},
      el("div", { class: "locke-board locke-base", role: "group", "aria-label": "秘密基地" }, cells),
      around.length ? el("p", { class: "locke-around" }, "秘密基地周辺: ", pieces((p) => p.outside)) : null);
  }

  // ---------------------------------------------------------------------- my actions

  function myTurn() { return rules.turn && rules.turn.seat === mySeat() && ["planet", "base"].includes(rules.stage); }
  function myRole() { return myTurn() ? ROLES[rules.turn.phase] : null; }
  function myMainOpen() { return myRole() === "main" && !rules.turn.main && !rules.turn.teleport && !rules.turn.must_pass; }
  function stat(name) { return rules.me?.stats?.[name] ?? 0; }

  function others(filter = () => true) {
    return rules.players.filter((p) => p.seat !== mySeat() && !["dead", "black_hole"].includes(p.condition) && filter(p));
  }
  function sameSquare(p) {
    const self = mine();
    if (!self) return false;
    if (rules.stage === "base") return !!self.cell && !!p.cell && self.cell.row === p.cell.row && self.cell.col === p.cell.col;
    return !!self.position && !!p.position && self.position.planet === p.position.planet && self.position.square === p.position.square;
  }

  function hostActions() {
    const out = [];
    const cmd = (text, type) => button(text, () => send({ type: `chojin_locke.${type}` }), { class: "primary", "data-command": type });
    if (rules.stage === "deal") out.push(rules.deals ? cmd(t("Fix the characters"), "fix_characters") : cmd(t("Deal the sheets"), "deal"));
    if (rules.stage === "rebalance") out.push(cmd(t("Close the rebalancing"), "close_rebalance"));
    if (rules.stage === "ambush") out.push(cmd(t("Begin the 惑星編"), "begin_planets"));
    if (rules.stage === "keys") out.push(cmd(t("Begin the 秘密基地編"), "begin_base"));
    return out.length ? el("div", { class: "locke-actions locke-host" }, el("h4", {}, t("Host")), out) : null;
  }

  function silhouetteChoice(change) {
    const secrets = rules.me;
    if (!secrets?.sheet || !secrets.playing_card) return null;
    const rank = secrets.playing_card.rank;
    const used = {};
    for (const p of rules.players) if (p.silhouette && p.seat !== mySeat()) used[p.silhouette] = (used[p.silhouette] ?? 0) + 1;
    const allowed = (catalog?.silhouettes ?? []).filter((card) => (rank === 1 ? card.name === secrets.sheet.silhouette
      : rank === 10 ? card.alignment === secrets.faction : true));
    const options = allowed.map((card) => el("option", { value: card.name, dataset: { side: card.alignment === "E" ? "base" : "explorer", alignment: card.alignment } },
      card.name + "（" + FACTIONS[card.alignment] + "・" + (card.alignment === "E" ? "基地" : "探索") + (used[card.name] ? `・使用中${used[card.name]}/${card.count ?? 2}` : "") + "）"));
    const picker = remembered(el("select", { name: "silhouette", "aria-label": "シルエット" }, options), "silhouette", allowed[0]?.name ?? "");
    const type = change ? "change_silhouette" : "choose_silhouette";
    const restriction = rank === 1 ? "エース: 自分のキャラクターと同じ名前のシルエット" : rank === 10 ? "10: 自分と同じアライメントのシルエット" : "制限なし";
    return el("div", { class: "locke-actions", dataset: { action: type } },
      el("p", { class: "hint" }, `トランプ ${cardName(secrets.playing_card)} — ${restriction}`),
      picker, " ", button(change ? t("Change") : t("Choose"), () => send({ type: `chojin_locke.${type}`, silhouette: picker.value }), { class: "primary" }));
  }

  function setupActions() {
    const self = mine();
    const out = [];
    if (!self) return out;
    if (rules.stage === "deal" && rules.deals) {
      out.push(el("div", { class: "locke-actions" },
        rules.me?.refused ? null : button("拒否", () => send({ type: "chojin_locke.refuse", kind: "refuse" })),
        " ", button("直前拒否", () => send({ type: "chojin_locke.refuse", kind: "refuse_previous" }))));
    }
    if (rules.stage === "silhouettes" && !self.chosen) out.push(silhouetteChoice(false));
    if (rules.stage === "rebalance") {
      const explorers = rules.players.filter((p) => p.side === "explorer").length;
      const larger = explorers > rules.players.length - explorers ? "explorer" : "base";
      if (self.side === larger) out.push(silhouetteChoice(true));
    }
    if (rules.stage === "ambush" && self.side === "base" && rules.board.ambushes) {
      out.push(el("div", { class: "locke-actions" }, modeButton("ambush", "待ち伏せを置く", "裏向きのカードがあるマスをクリック（そのカードと交換します）")));
    }
    if (rules.stage === "ambush" && self.side === "explorer" && !self.position) {
      out.push(el("p", { class: "hint" }, t("Click the 宇宙港 (港) to place your piece.")));
    }
    if (rules.stage === "keys" && self.side === "base") out.push(el("div", { class: "locke-actions" }, modeButton("key", "重要拠点を置く", "マスをクリック")));
    // 4.6 l.793: the entrants place their pieces in the view's `entry_order`; the first waiting is due
    if (rules.stage === "keys" && self.side === "explorer" && !self.cell && rules.entry_order?.[0] === self.seat) {
      out.push(el("div", { class: "locke-actions" }, modeButton("enter_base", "秘密基地に入る", "外周のマスをクリック")));
    }
    if (rules.me?.inspections_left > 0) {
      const target = select("inspect", t("sheet to look at"), rules.players.filter((p) => p.side === "base").map((p) => [String(p.seat), seatName(p.seat)]));
      out.push(el("div", { class: "locke-actions" }, t("Look at a sheet ({left} left): ", { left: rules.me.inspections_left }), target, " ",
        button(t("Look"), () => send({ type: "chojin_locke.inspect_sheet", target: Number(target.value) }))));
    }
    return out;
  }

  function modeButton(kind, text, hint, extra = {}) {
    const active = mode?.kind === kind;
    return el("span", {},
      button(active ? t("{action} (stop)", { action: text }) : text, () => { mode = active ? null : { kind, ...extra }; render(); }, { class: active ? "primary" : "", "aria-pressed": String(active), dataset: { mode: kind } }),
      active ? el("span", { class: "hint" }, ` ${hint}`) : null);
  }

  function declaration(key, label, { min, statName, onSubmit, submitText }) {
    const declared = numberInput(key, `${label}（宣言）`, { min, max: Math.max(min, stat(statName)), value: stat(statName) });
    return el("span", { class: "locke-declare", dataset: { declare: key } }, declared.node, " ",
      button(submitText, () => onSubmit(Number(declared.input.value)), { class: "primary" }));
  }

  function mainActions() {
    const self = mine();
    const out = [];
    if (rules.turn.must_pass) {
      // 3.2: the turn began beside a character with the identical silhouette card
      out.push(el("p", { class: "hint" }, t("Your turn began on a square with a character of the same シルエット: you may only pass.")));
      out.push(button("パス", () => send({ type: "chojin_locke.pass" }), { "data-command": "pass" }));
      return out;
    }
    if (self.condition === "arrested") {
      out.push(button("脱出チェック", () => send({ type: "chojin_locke.escape" }), { class: "primary" }));
      return out;
    }
    if (self.outside) {
      out.push(el("div", {}, declaration("intrude", "ESP能力レベル", {
        min: 0, statName: "esp_level", submitText: t("侵入チェック: choose an outer square"),
        onSubmit: (declared) => { mode = { kind: "intrude", declared }; render(); },
      }), mode?.kind === "intrude" ? el("span", { class: "hint" }, " " + t("click an outer square")) : null));
    } else {
      out.push(el("p", { class: "hint" }, t("通常移動: click a lit square")));
      const direction = rules.stage === "planet" ? select("teleport-direction", t("direction"), [["right", "右へ"], ["left", "左へ"]]) : null;
      out.push(el("div", {}, "テレポート移動: ", direction, " ", declaration("teleport", "ESP能力レベル", {
        min: 1, statName: "esp_level", submitText: "テレポート",
        onSubmit: (declared) => send({ type: "chojin_locke.teleport", declared, ...(direction ? { direction: direction.value } : {}) }),
      })));
    }
    const rules2002 = rules.turn.phase === "move"; // the 2002 turn's main phase
    const recoverStat = select("recover", t("stat to recover"), rules2002 ? [["endurance", "耐久力"]] : [["endurance", "耐久力"], ["willpower", "精神力"]]);
    out.push(el("div", {}, recoverStat, " ", button("回復", () => send({ type: "chojin_locke.recover", stat: recoverStat.value }))));
    if (!self.outside) {
      const near = others(sameSquare);
      if (near.length) {
        if (!rules2002) {
          const target = select("treat", t("whom to treat"), near.map((p) => [String(p.seat), seatName(p.seat)]));
          out.push(el("div", {}, target, " ", button("治療", () => send({ type: "chojin_locke.treat", target: Number(target.value) }))));
        }
        // パーティーを組む: any of the characters on my square
        const partners = near.map((p) => el("input", { type: "checkbox", value: String(p.seat), "aria-label": seatName(p.seat) }));
        out.push(el("div", {}, partners.map((box, i) => el("label", { class: "inline" }, box, ` ${seatName(near[i].seat)}`)), " ",
          button(t("Form a party"), () => send({ type: "chojin_locke.form_party", partners: partners.filter((b) => b.checked).map((b) => Number(b.value)) }))));
      }
      out.push(...abilityActions("main"));
      if (rules.stage === "base" && rules2002) out.push(button("破壊", () => send({ type: "chojin_locke.destroy_key" })));
    }
    out.push(button("パス", () => send({ type: "chojin_locke.pass" }), { "data-command": "pass" }));
    return out;
  }

  function abilityActions(when) {
    const out = [];
    const sheet = rules.me?.sheet;
    if (sheet?.abilities?.length) {
      const ability = select(`ability-${when}`, "特殊能力", sheet.abilities.map((a) => [a.name, `${a.name} [${a.tags.join("][")}]`]));
      out.push(el("div", {}, ability, " ", button(t("Use a 特殊能力"), () => send({ type: "chojin_locke.use_ability", ability: ability.value }))));
    }
    const hand = rules.me?.ability_cards ?? [];
    if (hand.length) {
      const card = select(`card-${when}`, "能力カード", hand.map((c) => [c, c]));
      out.push(el("div", {}, card, " ", button(t("Use an 能力カード"), () => send({ type: "chojin_locke.use_ability_card", card: card.value }))));
    }
    return out;
  }

  function supportActions() {
    const self = mine();
    const out = [];
    const faction = rules.me?.faction;
    if (ROLES[rules.turn.phase] === "support" || ROLES[rules.turn.phase] === "victory") {
      out.push(faction === "S"
        ? button("単独勝利宣言", () => send({ type: "chojin_locke.declare_victory", sole: true }), { "data-command": "declare_victory" })
        : button("勝利宣言", () => send({ type: "chojin_locke.declare_victory", sole: false }), { "data-command": "declare_victory" }));
    }
    if (ROLES[rules.turn.phase] !== "support") return out;
    if (!self.sheet_open) out.push(" ", button("シートオープン", () => send({ type: "chojin_locke.open_sheet" })));
    if (rules.parties[String(self.seat)]) out.push(" ", button(t("Dissolve the party"), () => send({ type: "chojin_locke.dissolve_party" })));
    const near = others(sameSquare);
    if (near.length && faction !== "S") {
      const target = select("convert", t("改心 target"), near.map((p) => [String(p.seat), seatName(p.seat)]));
      out.push(el("div", {}, "改心: ", target, " ", declaration("convert", "ESP能力レベル", {
        min: 0, statName: "esp_level", submitText: "改心",
        onSubmit: (declared) => send({ type: "chojin_locke.convert", target: Number(target.value), declared }),
      })));
    }
    out.push(...abilityActions("support"));
    return out;
  }

  function checkAction() {
    const statName = select("check-stat", "能力値", Object.entries(STATS));
    const reason = remembered(el("input", { type: "text", maxlength: 200, name: "reason", placeholder: t("reason (a card's instruction…)"), "aria-label": "理由" }), "check-reason", "");
    const declared = numberInput("check", t("value to declare"), { min: 0, max: 99, value: stat(statName.value) });
    // a new stat offers its current value again (the truth; declare it or lower)
    statName.addEventListener("change", () => { declared.input.value = String(stat(statName.value)); memo.set("check", declared.input.value); });
    // stays open (or closed) across re-renders, as the player left it
    const details = el("details", { class: "locke-check", open: memo.get("check-open") === "yes" },
      el("summary", {}, "能力値チェック（2D6 ≦ 宣言値）"),
      el("div", { dataset: { declare: "check" } }, statName, " ", declared.node, " ", reason, " ",
        button("判定", () => send({ type: "chojin_locke.check", stat: statName.value, declared: Number(declared.input.value), reason: reason.value }), { class: "primary" })));
    return keepOpenState(details, (open) => memo.set("check-open", open ? "yes" : "no"));
  }

  function actions() {
    const blocks = [];
    if (isHost()) blocks.push(hostActions());
    blocks.push(...setupActions());
    const self = mine();
    if (self && myTurn()) {
      const role = myRole();
      const body = [];
      if (role === "main" && !rules.turn.main) body.push(...mainActions());
      if (rules.turn.teleport) body.push(el("p", { class: "hint" }, t("テレポート: click the square {count} squares away", { count: rules.turn.teleport })));
      if (["support", "victory"].includes(role)) body.push(...supportActions());
      if (role === "combat" && !rules.combat && !rules.aftermath && others(sameSquare).length) {
        // 4.3 戦闘発生: everyone on my square takes part
        body.push(el("div", {}, button("戦闘発生", () => send({ type: "chojin_locke.start_combat" }), { class: "primary", "data-command": "start_combat" }),
          el("span", { class: "hint" }, " " + t("On the square: {names}", { names: others(sameSquare).map((p) => seatName(p.seat)).join("、") }))));
      }
      if (rules.combat) body.push(el("p", { class: "hint" }, t("In combat: the turn moves on when the combat ends.")));
      else if (rules.aftermath) body.push(el("p", { class: "hint" }, t("After leaving a combat: the turn moves on when that is done.")));
      else body.push(el("div", { class: "locke-next" }, button(t("To the next phase"), () => send({ type: "chojin_locke.next_phase" }), { class: "primary", "data-command": "next_phase" })));
      blocks.push(el("div", { class: "locke-actions locke-my-turn" }, el("h4", {}, t("Your turn: {phase}", { phase: PHASES[rules.turn.phase] ?? rules.turn.phase })), body));
    }
    if (self && ["planet", "base"].includes(rules.stage) && !["dead", "black_hole"].includes(self.condition)) blocks.push(checkAction());
    return blocks.filter(Boolean);
  }

  // ---------------------------------------------------------------------- my sheet and hand

  function sheetBlock(sheet, { faction, stats, title }) {
    return el("div", { class: "locke-sheet", dataset: { faction: faction ?? sheet.alignment } },
      el("h4", {}, title, el("span", { class: "locke-sheet-name" }, `${sheet.name}${sheet.leader ? " (L)" : ""}`)),
      el("p", {}, (FACTIONS[sheet.alignment] ?? sheet.alignment) + (faction ? `（現在 ${FACTIONS[faction] ?? faction}）` : "") + ` · ランク${sheet.rank} · ${sheet.attributes.join("・")} · シルエット ${sheet.silhouette}`),
      el("dl", { class: "view" }, Object.entries(STATS).flatMap(([key, label]) => [
        el("dt", {}, label), el("dd", {}, stats && stats[key] !== sheet[key] ? `${stats[key]} / ${sheet[key]}` : String(sheet[key]))])),
      sheet.abilities.length ? el("ul", { class: "locke-abilities" }, sheet.abilities.map((a) => el("li", {}, `${a.name} [${a.tags.join("][")}]`))) : null,
      sheet.defeat.length ? el("p", { class: "hint" }, "敗北条件: ", sheet.defeat.map((d) => `${d.character}が${d.when === "alive" ? "生きている" : "死亡している"}`).join("、")) : null);
  }

  // My hand: the cards I turned face up by using them (4.7) are marked, as they lie open.
  function handCards(cards) {
    const open = [...(mine()?.face_up_abilities ?? [])];
    return cards.map((c) => {
      const at = open.indexOf(c);
      if (at >= 0) open.splice(at, 1);
      return el("span", { class: `locke-ability-card${at >= 0 ? " face-up" : ""}`, title: at >= 0 ? t("face up") : t("face down") }, c);
    });
  }

  function myBlock() {
    const secrets = rules.me;
    if (!secrets) return null;
    return el("section", { class: "locke-me", "aria-label": t("My sheet and hand") },
      el("h3", {}, "自分（秘密）"),
      secrets.sheet ? sheetBlock(secrets.sheet, { faction: secrets.faction, stats: secrets.stats, title: "キャラクターシート: " }) : el("p", { class: "none" }, t("No sheet dealt yet")),
      el("p", { class: "locke-hand" },
        secrets.playing_card ? el("span", { class: `locke-playing-card ${secrets.playing_card.color}` }, cardName(secrets.playing_card)) : null,
        secrets.silhouette_choice ? ` シルエット: ${secrets.silhouette_choice}` : "",
        ` · 能力カード: `, (secrets.ability_cards.length ? handCards(secrets.ability_cards) : "なし")),
      secrets.damage.endurance || secrets.damage.willpower ? el("p", {}, `ダメージ: 耐久力${secrets.damage.endurance} 精神力${secrets.damage.willpower}`) : null,
      secrets.conversion_flags.length ? el("p", {}, `改心フラグ: ${secrets.conversion_flags.join("、")}`) : null,
      Object.entries(secrets.inspected).map(([seat, sheet]) => sheetBlock(sheet, { title: t("{name}'s sheet: ", { name: seatName(Number(seat)) }) })));
  }

  function playersTable() {
    const rows = rules.players.map((p) => {
      const result = rules.results?.[String(p.seat)];
      return el("tr", { class: p.seat === mySeat() ? "mine" : "", dataset: { seat: p.seat } },
        el("td", {}, `${p.seat}. ${seatName(p.seat)}`),
        el("td", { class: "locke-silhouette" }, p.silhouette ?? (p.chosen ? "（選択済み）" : "—")),
        el("td", {}, SIDES[p.side] ?? "—"),
        el("td", {}, CONDITIONS[p.condition] ?? p.condition),
        el("td", {}, String(p.information)),
        el("td", {}, String(p.ability_cards), (p.face_up_abilities ?? []).map((c) => el("span", { class: "locke-ability-card face-up" }, c))),
        el("td", {}, p.sheet ? `${p.sheet.name}（${FACTIONS[p.faction] ?? p.faction}）` : p.sheet_open ? "公開" : "—"),
        rules.results ? el("td", { class: result?.won ? "won" : "lost" }, result ? `${result.class}級${result.won ? "勝利" : "敗北"}` + (result.reasons.length ? `: ${reasonWords(result).join("、")}` : "") : "") : null);
    });
    return el("div", { class: "table-scroll" }, el("table", { class: "view locke-players" },
      el("thead", {}, el("tr", {}, ["席", "シルエット", "陣営", "状態", "情報入手", "能力カード", "シート", rules.results ? "結果" : null].filter(Boolean).map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)));
  }

  function hostSecrets() {
    const all = rules.secrets;
    if (!all) return null;
    return el("details", { class: "locke-host-secrets" }, el("summary", {}, t("Everyone's sheets (GM)")),
      el("ul", {}, Object.entries(all).map(([seat, s]) => el("li", {}, `${seatName(Number(seat))}: ${s.sheet?.name ?? "—"} ${s.faction ?? ""}`))));
  }

  // ---------------------------------------------------------------------- render

  function render() {
    if (!rules) return;
    const stillPossible = { ambush: rules.stage === "ambush", key: rules.stage === "keys", enter_base: rules.stage === "keys", intrude: myMainOpen() };
    if (mode && !stillPossible[mode.kind]) mode = null;
    const board = ["keys", "base"].includes(rules.stage) ? baseBoard() : ["ambush", "planet"].includes(rules.stage) ? planetBoard() : null;
    const faceDown = ["keys", "base"].includes(rules.stage) ? rules.board.base_face_down : rules.board.face_down;
    root.replaceChildren(...[
      status(),
      ...prompts(),
      aftermathSection({ rules, catalog, memo, remembered, numberInput, button, errorBox: combatError, mySeat, seatName, send: sendCombat }),
      combatSection({
        rules, catalog, memo, remembered, numberInput, button, isHost, errorBox: combatError,
        mySeat, seatName, send: sendCombat, rerender: render,
      }),
      board ? el("section", { class: "locke-board-wrap", "aria-label": "ボード" }, board,
        el("p", { class: "hint" }, t("Face-down cards: {count}", { count: faceDown }), rules.board.keys_destroyed.length ? " · " + t("重要拠点 destroyed: {count}", { count: rules.board.keys_destroyed.length }) : "")) : null,
      ...actions(),
      errorBox,
      myBlock(),
      el("h3", {}, "プレイヤー"),
      playersTable(),
      hostSecrets(),
    ].filter(Boolean));
  }

  return {
    title: "超人ロック",
    update({ view, game: fresh }) {
      rules = view.rules;
      game = fresh ?? game;
      if (!rules?.players) return;
      if (!catalogAsked) loadCatalog(view.game_id);
      render();
    },
  };
}
