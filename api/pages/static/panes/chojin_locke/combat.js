// 超人ロック's combat (chapter 5) in the pane: the fighters with their hand counts and initiative
// cards, whose combat turn and phase it is, the attack under way, my hand (from my secrets only)
// to click, and what I may do now — the flow (start_combat, combat_next, combat_pass,
// discard_card, continue_combat, discard_down), 戦闘参加 and 戦闘前 (join_check, answer_join,
// mystery_ability, declare_minions), and the actions (play_card, respond, declare_endurance,
// sync/no_sync, melee/counter, use_proxy/withdraw_proxy, open_sheet/convert in a support phase).
// Refusals are shown beside the forms (the server appends nothing on a refusal). Text only:
// every name goes in as text, never markup. The server is the judge: what the page disables
// (a card below the attack's LV, say) it disables to help, not to enforce.
import { el } from "../../api.js";

const STEPS = {
  joining: "(1) 戦闘参加", moving: "(2) コマ移動", before: "(3) 戦闘前", hands: "(4) 手札",
  initiative: "(5) イニシアチブ", turns: "(6) 戦闘手番", round_end: "(7) ラウンド終了",
};
const PHASES = { check: "チェックフェイズ", support1: "支援フェイズ1", main: "主要フェイズ", support2: "支援フェイズ2" };
const AWAITING = { sync: "同調の回答待ち", response: "防御・逃避の回答待ち", endurance: "耐久力の宣言待ち", counter: "格闘の反撃待ち" };
const KINDS = ["攻撃", "防御", "逃避", "特殊"];
// 5.3 l.1001–1002: defences answer an attack; an escape may be used either way
const MAIN_KINDS = ["攻撃", "逃避", "特殊"];
const RESPONSE_KINDS = ["防御", "逃避"];

const playingCard = (card) => (card ? `${card.color === "black" ? "♠" : "♥"}${card.rank === 1 ? "A" : card.rank}` : "—");

// ctx: { rules, mySeat, seatName, catalog, memo, remembered, numberInput, button, send, isHost,
//        errorBox (the combat's refusals), rerender }
export function combatSection(ctx) {
  const fight = ctx.rules.combat;
  if (!fight) return null;
  const me = ctx.mySeat();
  const hand = ctx.rules.me?.combat_hand ?? [];
  const cardData = (name) => (ctx.catalog?.combat_cards ?? []).find((c) => c.name === name) ?? null;
  const fighter = (id) => fight.fighters.find((f) => f.id === id) ?? null;
  const label = (id) => {
    const f = fighter(id);
    if (!f) return `#${id}`;
    const player = f.seat ? ctx.seatName(f.seat) : null;
    return player && f.name !== `Seat ${f.seat}` && f.name !== player ? `${player}（${f.name}）` : player ?? f.name;
  };
  const mineFighter = me !== null ? fighter(me) : null;
  const stat = (name) => ctx.rules.me?.stats?.[name] ?? 0;
  // my sheet's abilities carrying a tag (exact, or "tag:X")
  const abilitiesTagged = (tag) => (ctx.rules.me?.sheet?.abilities ?? []).filter((a) => a.tags.some((t) => t === tag || t.startsWith(`${tag}:`)));
  const hasProxy = () => abilitiesTagged("代理").length > 0;
  // a checkbox whose state survives the pane's re-rendering
  function checkbox(key, text, fallback = false) {
    const box = el("input", { type: "checkbox", name: key, "aria-label": text, checked: ctx.memo.has(key) ? ctx.memo.get(key) === "yes" : fallback });
    box.addEventListener("change", () => ctx.memo.set(key, box.checked ? "yes" : "no"));
    return box;
  }
  const proxyButton = (text) => ctx.button(text, () => cmd("use_proxy"), { "data-command": "use_proxy" });
  const cmd = (type, payload = {}) => ctx.send({ type: `chojin_locke.${type}`, ...payload });

  // ------------------------------------------------------------------ the selected card(s)
  // one card chosen by a click (kept across re-renders as "index:name"), or several for
  // discard_down
  const picking = fight.step === "round_end" && fight.discarding.includes(me);
  function selected() {
    const kept = ctx.memo.get("combat-card");
    if (!kept) return null;
    const at = Number(kept.slice(0, kept.indexOf(":")));
    const name = kept.slice(kept.indexOf(":") + 1);
    return hand[at] === name ? { index: at, name } : null;
  }
  function picked() {
    const kept = ctx.memo.get("combat-picked") ?? [];
    return kept.filter((key) => hand[Number(key.slice(0, key.indexOf(":")))] === key.slice(key.indexOf(":") + 1));
  }
  function choose(index, name) {
    const key = `${index}:${name}`;
    if (picking) {
      const now = picked();
      ctx.memo.set("combat-picked", now.includes(key) ? now.filter((k) => k !== key) : [...now, key]);
    } else {
      ctx.memo.set("combat-card", selected()?.index === index ? "" : key);
    }
    ctx.rerender();
  }

  // ------------------------------------------------------------------ the fighters
  function fightersTable() {
    const rows = fight.fighters.map((f) => {
      const states = [];
      if (f.id === fight.current) states.push(`行動中: ${PHASES[fight.phase] ?? fight.phase}`);
      else if (f.acted) states.push("行動済み");
      if (f.left) states.push("離脱");
      if (f.stunned_rounds) states.push(`気絶(${f.stunned_rounds})`);
      if (f.minions) states.push(`手下${f.minions}`);
      if (f.defence) states.push(`防御維持: ${f.defence.card} LV${f.defence.lv}`);
      if (f.members?.length) states.push(`耐久力 ${f.members.join("/")}`);
      const answered = fight.continuing?.[String(f.id)];
      if (fight.step === "round_end" && answered !== undefined) states.push(answered ? "続行" : "終了希望");
      if (fight.step === "round_end" && fight.discarding.includes(f.id)) states.push("捨て札待ち");
      return el("tr", {
        class: [f.id === me ? "mine" : "", f.id === fight.current ? "current" : ""].filter(Boolean).join(" "),
        dataset: { fighter: f.id },
      },
      el("td", { class: "locke-fighter-name" }, label(f.id)),
      el("td", { class: "locke-hand-count" }, String(f.hand)),
      el("td", { class: `locke-initiative ${f.initiative?.color ?? ""}` }, playingCard(f.initiative)),
      el("td", { class: "locke-fighter-state" }, states.join(" · ")));
    });
    return el("div", { class: "table-scroll" }, el("table", { class: "view locke-fighters" },
      el("thead", {}, el("tr", {}, ["参加者", "手札", "イニシアチブ", "状態"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)));
  }

  function order() {
    if (!fight.order?.length) return null;
    return el("p", { class: "locke-order" }, "手番順: ",
      fight.order.map((id, i) => el("span", { class: id === fight.current ? "current" : "" }, `${i ? " → " : ""}${label(id)}`)));
  }

  function attackLine() {
    const a = fight.attack;
    if (!a) return null;
    const what = `${a.card ?? (a.weapon ? "武器" : "格闘")}（LV${a.lv}・火力${a.firepower}）`;
    return el("p", { class: "locke-attack", role: "status" },
      `${label(a.attacker)} → ${label(a.target)}: ${what}`,
      a.joiners?.length ? ` · 同調: ${a.joiners.map(label).join("、")}` : "",
      a.defended_by ? ` · ${a.defended_by}で対抗` : "",
      ` · ${AWAITING[a.awaiting] ?? a.awaiting}`,
      a.awaiting === "sync" && a.sync_waiting?.length ? `（${a.sync_waiting.map(label).join("、")}）` : "");
  }

  // ------------------------------------------------------------------ my hand
  // `usable(card)` → null when it may be chosen now, else the reason it may not
  function handBlock(usable = () => null) {
    if (!ctx.rules.me || me === null || !mineFighter) return null;
    const chosen = selected();
    const several = picked();
    const cards = hand.map((name, index) => {
      const data = cardData(name);
      const reason = usable(data, name);
      const on = picking ? several.includes(`${index}:${name}`) : chosen?.index === index;
      const facts = data ? [`LV${data.lv}`, data.kinds.join("/"), data.firepower ? `火力${data.firepower}` : null, data.sync ? "同調可" : null, data.maintain ? "維持可" : null].filter(Boolean).join(" · ") : "";
      return el("button", {
        type: "button", class: `locke-ccard${on ? " selected" : ""}`, "aria-pressed": String(on),
        disabled: reason !== null, title: reason ?? (data?.text || name), dataset: { card: name, index },
        onclick: () => choose(index, name),
      }, el("span", { class: "locke-ccard-name" }, name), el("span", { class: "locke-ccard-facts" }, facts),
      reason ? el("span", { class: "locke-ccard-why" }, reason) : null);
    });
    return el("div", { class: "locke-combat-hand", role: "group", "aria-label": "手札（Cカード）" },
      el("h4", {}, `手札 ${hand.length}/${mineFighter.hand_limit}`), cards.length ? cards : el("span", { class: "none" }, "なし"));
  }

  // ESP level declared, and the willpower shown only while the declared level is below the LV
  function activationFields(key, lvOf) {
    const level = ctx.numberInput(`${key}-esp`, "ESP能力レベル（宣言）", { min: 0, max: 12, value: stat("esp_level") });
    const will = ctx.numberInput(`${key}-will`, "精神力（宣言）", { min: 1, max: 99, value: Math.max(1, stat("willpower")) });
    const note = el("span", { class: "hint locke-will-note" });
    const sync = () => {
      const lv = lvOf();
      const short = lv !== null && Number(level.input.value) < lv;
      will.node.hidden = !short;
      note.textContent = short ? ` LV${lv}より低い宣言: 精神力チェック${lv - Number(level.input.value)}回` : "";
    };
    level.input.addEventListener("input", sync);
    sync();
    const payload = () => {
      const body = { esp_level: Number(level.input.value) };
      if (!will.node.hidden) body.willpower = Number(will.input.value);
      return body;
    };
    return { nodes: [level.node, " ", will.node, note], payload };
  }

  // ------------------------------------------------------------------ what I may do now
  function flowStep() {
    if (!["joining", "moving", "before"].includes(fight.step)) return null;
    if (fight.started_by !== me && !ctx.isHost()) {
      return el("p", { class: "hint" }, `${ctx.seatName(fight.started_by)} が進めるのを待っています。`);
    }
    const next = { joining: "コマ移動へ", moving: "戦闘前へ", before: "手札を配る" }[fight.step];
    return el("div", { class: "locke-actions" },
      ctx.button(next, () => cmd("combat_next"), { class: "primary", "data-command": "combat_next" }));
  }

  // (1) 戦闘参加: 実はそこにいた / 実は生きていた for a seat not in the combat, 実は参加していた (the
  // host, for an onlooker), and every seat's consent to it
  function joiningBlock() {
    const out = [];
    const request = fight.join_request;
    if (request && me !== null && request.waiting.includes(me)) {
      out.push(el("div", { class: "locke-prompt locke-join-request", role: "group", "aria-label": "実は参加していたチェック" },
        el("p", {}, `「${request.person}」の実は参加していたチェックに同意しますか？`),
        el("div", { class: "locke-buttons" },
          ctx.button("同意する", () => cmd("answer_join", { consents: true }), { class: "primary", "data-command": "answer_join", "data-answer": "yes" }),
          ctx.button("同意しない", () => cmd("answer_join", { consents: false }), { "data-command": "answer_join", "data-answer": "no" }))));
    } else if (request) {
      out.push(el("p", { class: "hint" }, `「${request.person}」の実は参加していたチェック: 同意待ち ${request.waiting.map(ctx.seatName).join("、")}`));
    }
    if (fight.step !== "joining") return out;
    const self = me !== null ? ctx.rules.players.find((p) => p.seat === me) : null;
    if (self && !mineFighter) {
      const dead = self.condition === "dead";
      out.push(el("div", { class: "locke-actions" }, dead
        ? ctx.button("実は生きていたチェック", () => cmd("join_check", { check: "alive" }), { "data-command": "join_check", "data-check": "alive" })
        : ctx.button("実はそこにいたチェック", () => cmd("join_check", { check: "there" }), { "data-command": "join_check", "data-check": "there" })));
    }
    if (ctx.isHost() && !request) {
      const person = ctx.remembered(el("input", { type: "text", name: "join-person", maxlength: 40, placeholder: "人物の名前", "aria-label": "人物" }), "join-person", "");
      out.push(el("div", { class: "locke-actions" }, "実は参加していたチェック: ", person, " ",
        ctx.button("全員に同意を求める", () => cmd("join_check", { check: "joined", person: person.value }), { "data-command": "join_check", "data-check": "joined" })));
    }
    return out;
  }

  // (3) 戦闘前, for a character new to the combat this round: 「謎の特殊能力」 (which ability, or
  // none, sealed to me) and [手下:X] (only the number said)
  function beforeBlock() {
    if (fight.step !== "before" || !mineFighter || mineFighter.joined_round !== fight.round || mineFighter.kind !== "character") return null;
    const out = [];
    const before = abilitiesTagged("戦闘前");
    const mystery = ctx.remembered(el("select", { name: "mystery-ability", "aria-label": "謎の特殊能力" },
      el("option", { value: "" }, "（なし: ブラフ）"), before.map((a) => el("option", { value: a.name }, a.name))), "mystery-ability", "");
    out.push(el("div", {}, "謎の特殊能力（1D6、どの能力かは自分だけ）: ", mystery, " ",
      ctx.button("振る", () => cmd("mystery_ability", mystery.value ? { ability: mystery.value } : {}), { "data-command": "mystery_ability" })));
    const minions = abilitiesTagged("手下");
    if (minions.length) {
      const count = ctx.numberInput("minions", "手下の数", { min: 1, max: 12, value: 1 });
      const which = ctx.remembered(el("select", { name: "minion-ability", "aria-label": "手下の能力" }, minions.map((a) => el("option", { value: a.name }, a.name))), "minion-ability", minions[0].name);
      out.push(el("div", {}, "[手下:X]: ", count.node, " ", minions.length > 1 ? which : null, " ",
        ctx.button("宣言", () => cmd("declare_minions", { count: Number(count.input.value), ...(minions.length > 1 ? { ability: which.value } : {}) }), { "data-command": "declare_minions" })));
    }
    return el("div", { class: "locke-actions locke-before" }, el("h4", {}, "戦闘前"), out);
  }

  // a support phase of my combat turn: シートオープン, 改心 (4.3 as in a normal turn)
  function supportForms() {
    const out = [];
    const self = ctx.rules.players.find((p) => p.seat === me);
    if (self && !self.sheet_open) out.push(ctx.button("シートオープン", () => cmd("open_sheet"), { "data-command": "open_sheet" }));
    const targets = fight.fighters.filter((f) => f.id !== me && f.seat && !f.left);
    if (targets.length && ctx.rules.me?.faction !== "S") {
      const target = ctx.remembered(el("select", { name: "combat-convert", "aria-label": "改心の対象" }, targets.map((f) => el("option", { value: String(f.seat) }, label(f.id)))), "combat-convert", targets[0].seat);
      const level = ctx.numberInput("combat-convert-esp", "ESP能力レベル（宣言）", { min: 0, max: 12, value: stat("esp_level") });
      out.push(el("div", { class: "locke-form" }, "改心: ", target, " ", level.node, " ",
        ctx.button("改心", () => cmd("convert", { target: Number(target.value), declared: Number(level.input.value) }), { "data-command": "convert" })));
    }
    return out;
  }

  // 3.2 l.401–402: with a character of my silhouette in the combat, my attacks must target it
  // (the server judges, by name and current alignment; the page can only see the names)
  const silhouetteOf = (seat) => ctx.rules.players.find((p) => p.seat === seat)?.silhouette ?? null;
  const sameSilhouette = (f) => f.seat && silhouetteOf(me) && silhouetteOf(f.seat) === silhouetteOf(me);
  function attackTargets() {
    const all = fight.fighters.filter((f) => f.id !== me && !f.left && f.joined_round <= fight.round);
    return [...all.filter(sameSilhouette), ...all.filter((f) => !sameSilhouette(f))];
  }
  const targetLabel = (f) => `${label(f.id)}${sameSilhouette(f) ? "（同じシルエット）" : ""}`;

  function mainForms() {
    const out = [];
    const chosen = selected();
    const data = chosen ? cardData(chosen.name) : null;
    if (chosen) {
      const kinds = (data?.kinds ?? KINDS).filter((k) => MAIN_KINDS.includes(k));
      const kind = ctx.remembered(el("select", { name: "combat-kind", "aria-label": "種類" }, kinds.map((k) => el("option", { value: k }, k))), "combat-kind", kinds[0] ?? "攻撃");
      const targets = attackTargets();
      const target = ctx.remembered(el("select", { name: "combat-target", "aria-label": "攻撃対象" },
        targets.map((f) => el("option", { value: String(f.id) }, targetLabel(f)))), "combat-target", targets[0]?.id ?? "");
      const targetWrap = el("label", { class: "inline" }, "対象 ", target);
      const showTarget = () => { targetWrap.hidden = kind.value !== "攻撃"; };
      kind.addEventListener("change", showTarget);
      showTarget();
      const fields = activationFields("play", () => data?.lv ?? null);
      out.push(el("div", { class: "locke-form", dataset: { form: "play_card" } },
        el("strong", {}, chosen.name), " ", kinds.length ? kind : el("span", { class: "hint" }, "主要では使えないカード"), " ", targetWrap, " ", ...fields.nodes, " ",
        ctx.button("使う", () => cmd("play_card", {
          card: chosen.name, kind: kind.value, ...(kind.value === "攻撃" ? { target: Number(target.value) } : {}), ...fields.payload(),
        }), { class: "primary", "data-command": "play_card", disabled: !kinds.length }),
        " ", ctx.button("捨てる（裏向き）", () => cmd("discard_card", { card: chosen.name }), { "data-command": "discard_card" })));
    } else {
      out.push(el("p", { class: "hint" }, "手札のカードをクリック: 使う・捨てる"));
    }
    // 格闘 (5.6): the declared endurance is the firepower, an LV 1 attack
    const targets = attackTargets();
    if (targets.length) {
      const target = ctx.remembered(el("select", { name: "melee-target", "aria-label": "格闘の対象" },
        targets.map((f) => el("option", { value: String(f.id) }, targetLabel(f)))), "melee-target", targets[0].id);
      const endurance = ctx.numberInput("melee-endurance", "耐久力（宣言＝火力）", { min: 1, max: 99, value: Math.max(1, stat("endurance")) });
      const shift = ctx.numberInput("melee-shift", "[格闘:X]", { min: 0, max: 12, value: 0 });
      const suit = checkbox("melee-suit", "スーツ");
      out.push(el("div", { class: "locke-form", dataset: { form: "melee" } }, "格闘: ", target, " ", endurance.node, " ", shift.node, " ",
        el("label", { class: "inline" }, suit, " スーツ"), " ",
        ctx.button("格闘", () => cmd("melee", {
          target: Number(target.value), endurance: Number(endurance.input.value), shift: Number(shift.input.value), ...(suit.checked ? { suit: true } : {}),
        }), { "data-command": "melee" })));
    }
    out.push(el("div", {}, ctx.button("パス", () => cmd("combat_pass"), { "data-command": "combat_pass" }),
      hasProxy() ? [" ", proxyButton("代理を使う（先制）")] : null));
    return out;
  }

  function myTurnBlock() {
    if (fight.step !== "turns" || fight.current !== me || me === null) return null;
    const body = [];
    const mainOpen = fight.phase === "main" && !fight.main_done && !fight.attack;
    if (mainOpen) body.push(...mainForms());
    if (["support1", "support2"].includes(fight.phase) && !fight.attack) body.push(...supportForms());
    if (fight.phase === "check" && hasProxy()) body.push(el("div", {}, ctx.button("代理を引き上げる", () => cmd("withdraw_proxy"), { "data-command": "withdraw_proxy" })));
    if (!fight.attack && !mainOpen) {
      const last = fight.phase === "support2" || (fight.phase === "check" && mineFighter?.acted);
      body.push(el("div", {}, ctx.button(last ? "戦闘手番を終える" : "次のフェイズへ", () => cmd("combat_next"), { class: "primary", "data-command": "combat_next" })));
    }
    if (fight.attack) body.push(el("p", { class: "hint" }, "攻撃の解決を待っています。"));
    return el("div", { class: "locke-actions locke-combat-turn" }, el("h4", {}, `あなたの戦闘手番: ${PHASES[fight.phase] ?? fight.phase}`), body);
  }

  function attackPrompt() {
    const a = fight.attack;
    if (!a || me === null) return null;
    const what = `${a.card ?? (a.weapon ? "武器" : "格闘")}（LV${a.lv}・火力${a.firepower}）`;
    if (a.awaiting === "sync" && a.sync_waiting?.includes(me)) {
      const original = a.card ? cardData(a.card) : null;
      const chosen = selected();
      const data = chosen ? cardData(chosen.name) : null;
      const ownAttack = a.attacker === me;
      const fields = activationFields("sync", () => data?.lv ?? null);
      const why = syncReason(original);
      return el("div", { class: "locke-prompt locke-sync", role: "group", "aria-label": "同調" },
        el("p", {}, ownAttack ? `手下を同調させますか？ ${what}` : `${label(a.attacker)} が ${label(a.target)} を攻撃: ${what}。同調しますか？`),
        chosen && !why(data) ? el("div", { class: "locke-form" }, el("strong", {}, chosen.name), " ", ownAttack ? null : fields.nodes, " ",
          ctx.button("同調する", () => cmd("sync", { card: chosen.name, ...(ownAttack ? { minion: true } : fields.payload()) }), { class: "primary", "data-command": "sync" }))
          : el("p", { class: "hint" }, `同調可の攻撃カード（LV${original?.lv ?? a.lv}以下）を手札からクリック`),
        el("div", { class: "locke-buttons" }, ctx.button("同調しない", () => cmd("no_sync"), { "data-command": "no_sync" })));
    }
    if (a.target !== me) return null;
    if (a.awaiting === "response") {
      const chosen = selected();
      const data = chosen ? cardData(chosen.name) : null;
      const ok = chosen && !responseReason(a)(data);
      const kinds = (data?.kinds ?? []).filter((k) => RESPONSE_KINDS.includes(k));
      const kind = ctx.remembered(el("select", { name: "respond-kind", "aria-label": "種類" }, kinds.map((k) => el("option", { value: k }, k))), "respond-kind", kinds[0] ?? "防御");
      const fields = activationFields("respond", () => data?.lv ?? null);
      return el("div", { class: "locke-prompt locke-respond", role: "group", "aria-label": "攻撃への対抗" },
        el("p", {}, `${label(a.attacker)} があなたを攻撃: ${what}。LV${a.lv}以上の防御・逃避カードで対抗できます。`),
        ok ? el("div", { class: "locke-form" }, el("strong", {}, chosen.name), " ", kind, " ", ...fields.nodes, " ",
          ctx.button("対抗する", () => cmd("respond", { card: chosen.name, kind: kind.value, ...fields.payload() }), { class: "primary", "data-command": "respond" }))
          : el("p", { class: "hint" }, "対抗するカードを手札からクリック"),
        el("div", { class: "locke-buttons" }, ctx.button("対抗せずに受ける", () => cmd("respond"), { "data-command": "take_hit" }),
          hasProxy() ? proxyButton("代理を使う") : null));
    }
    if (a.awaiting === "endurance") {
      const endurance = ctx.numberInput("hit-endurance", "耐久力（宣言）", { min: 1, max: 99, value: Math.max(1, stat("endurance")) });
      const suit = checkbox("hit-suit", "スーツ");
      return el("div", { class: "locke-prompt locke-endurance", role: "group", "aria-label": "耐久力の宣言" },
        el("p", {}, `命中: ${what}。耐久力を宣言してください（1以上、本当の値以下。ダメージが宣言値以上で死亡）。`),
        endurance.node, " ", el("label", { class: "inline" }, suit, " スーツ"), " ",
        ctx.button("宣言", () => cmd("declare_endurance", { endurance: Number(endurance.input.value), ...(suit.checked ? { suit: true } : {}) }), { class: "primary", "data-command": "declare_endurance" }));
    }
    if (a.awaiting === "counter") {
      const endurance = ctx.numberInput("counter-endurance", "耐久力（宣言＝火力）", { min: 1, max: 99, value: Math.max(1, stat("endurance")) });
      const shift = ctx.numberInput("counter-shift", "[格闘:X]", { min: 0, max: 12, value: 0 });
      const back = checkbox("counter-back", "反撃", true);
      const suit = checkbox("counter-suit", "スーツ");
      return el("div", { class: "locke-prompt locke-counter", role: "group", "aria-label": "格闘" },
        el("p", {}, `${label(a.attacker)} の格闘（火力${a.firepower}）が命中。耐久力を宣言してください。`),
        endurance.node, " ", shift.node, " ", el("label", { class: "inline" }, back, " 反撃する"), " ", el("label", { class: "inline" }, suit, " スーツ"), " ",
        ctx.button("宣言", () => cmd("counter", {
          endurance: Number(endurance.input.value), shift: Number(shift.input.value), fight_back: back.checked, ...(suit.checked ? { suit: true } : {}),
        }), { class: "primary", "data-command": "counter" }));
    }
    return null;
  }

  // why a card in my hand cannot answer this attack (5.4 l.1050–1053), or null
  function responseReason(a) {
    return (data) => {
      if (!data) return "不明なカード";
      if (!data.kinds.some((k) => RESPONSE_KINDS.includes(k))) return "防御・逃避ではない";
      if (data.lv < a.lv) return `LV${data.lv} < 攻撃のLV${a.lv}`;
      return null;
    };
  }

  // why a card cannot join this attack by 同調 (5.5), or null
  function syncReason(original) {
    return (data) => {
      if (!data) return "不明なカード";
      if (!data.kinds.includes("攻撃")) return "攻撃ではない";
      if (!data.sync) return "同調可ではない";
      if (original && data.lv > original.lv) return `LV${data.lv} > ${original.name}のLV${original.lv}`;
      return null;
    };
  }

  function roundEnd() {
    if (fight.step !== "round_end" || me === null || !mineFighter) return null;
    const settled = fight.discarding.length > 0 || Object.values(fight.continuing ?? {}).some(Boolean);
    if (fight.discarding.includes(me)) {
      const excess = hand.length - mineFighter.hand_limit;
      const allowed = excess > 0 ? [excess, excess + 1] : [0, 1];
      const chosen = picked();
      return el("div", { class: "locke-prompt locke-discard-down", role: "group", "aria-label": "手札を捨てる" },
        el("p", {}, excess > 0 ? `手札が上限を${excess}枚超えています: ${allowed[0]}枚（または${allowed[1]}枚）を選んで捨ててください。`
          : "手札が上限です: 1枚捨てることができます（捨てなくてもかまいません）。"),
        el("p", { class: "hint" }, `選択: ${chosen.length}枚（手札をクリック）`),
        ctx.button(chosen.length ? `${chosen.length}枚捨てる` : "捨てない", () => cmd("discard_down", {
          cards: chosen.map((key) => key.slice(key.indexOf(":") + 1)),
        }).then((ok) => { if (ok) ctx.memo.set("combat-picked", []); }), { class: "primary", "data-command": "discard_down" }));
    }
    const asked = mineFighter.kind === "character" && !mineFighter.left && !settled && !(String(me) in (fight.continuing ?? {}));
    if (asked) {
      return el("div", { class: "locke-prompt locke-continue", role: "group", "aria-label": "戦闘の続行" },
        el("p", {}, "戦闘を続けますか？"),
        el("div", { class: "locke-buttons" },
          ctx.button("続ける", () => cmd("continue_combat", { go_on: true }), { class: "primary", "data-command": "continue_combat", "data-answer": "yes" }),
          ctx.button("やめる", () => cmd("continue_combat", { go_on: false }), { "data-command": "continue_combat", "data-answer": "no" })));
    }
    return el("p", { class: "hint" }, fight.discarding.length ? `捨て札待ち: ${fight.discarding.map(label).join("、")}` : "他の参加者の回答を待っています。");
  }

  // which cards in my hand can be chosen now, and why not
  function usableNow() {
    const a = fight.attack;
    if (picking) return () => null;
    if (a?.awaiting === "response" && a.target === me) return responseReason(a);
    if (a?.awaiting === "sync" && a.sync_waiting?.includes(me)) return syncReason(a.card ? cardData(a.card) : null);
    if (fight.step === "turns" && fight.current === me && fight.phase === "main" && !fight.main_done && !a) return () => null;
    return () => "今は使えない";
  }

  // the GM sees every secret: each fighter's hand, folded
  function allHands() {
    const secrets = ctx.rules.secrets;
    if (!secrets) return null;
    return el("details", { class: "locke-host-secrets locke-all-hands" }, el("summary", {}, "全員の手札（GM）"),
      el("ul", {}, fight.fighters.filter((f) => f.seat).map((f) => el("li", {}, `${label(f.id)}: ${(secrets[String(f.seat)]?.combat_hand ?? []).join("、") || "なし"}`))));
  }

  const discarded = fight.discard.length;
  return el("section", { class: "locke-combat", "aria-label": "戦闘", dataset: { step: fight.step, phase: fight.phase } },
    el("h3", {}, `戦闘 ラウンド${fight.round}: `, el("span", { class: "locke-combat-step" }, STEPS[fight.step] ?? fight.step),
      fight.step === "turns" && fight.current ? el("span", { class: "locke-combat-now" }, ` · ${label(fight.current)}の${PHASES[fight.phase] ?? fight.phase}`) : null),
    el("p", { class: "hint" }, `山札 ${fight.deck}枚 · 捨て札 ${discarded}枚${fight.attacked ? " · このラウンドに攻撃あり" : ""}`),
    fightersTable(),
    order(),
    attackLine(),
    ...joiningBlock(),
    flowStep(),
    beforeBlock(),
    attackPrompt(),
    myTurnBlock(),
    roundEnd(),
    ctx.errorBox,
    handBlock(usableNow()),
    allHands());
}
