// 超人ロック's combat (chapter 5) in the pane: the fighters with their hand counts and initiative
// cards, whose combat turn and phase it is, the attack under way, my hand (from my secrets only)
// to click, and what I may do now — the flow (start_combat, combat_next, combat_pass,
// discard_card, continue_combat, discard_down), 戦闘参加 and 戦闘前 (join_check, answer_join,
// mystery_ability, declare_minions, before_ability), the actions (play_card, respond,
// declare_endurance, sync/no_sync, melee/counter, use_proxy/withdraw_proxy, open_sheet/convert
// and [支援] abilities in a support phase), the target's [対抗(攻撃)] (counter_ability), a
// fighter's own ESPジャマー on an attack card waiting for its answer (jam), the dead's
// [死亡時] window (death_ability), a 残留思念's attack and the other 残留思念's answer
// (remnant_attack, remnant_answer), leaving (escape_to, leaving.js) and the host's obstacles,
// エスパー NPCs and effects (add_obstacle, obstacle_attack, destroy_jammer, add_esper, esper_act,
// faint: obstacles.js). Refusals are shown beside the forms (the server appends
// nothing on a refusal). Text only: every name goes in as text, never markup. The server is the
// judge: what the page disables (a card below the attack's LV, say) it disables to help, not to
// enforce, and says why beside it.
import { el, keepOpenState } from "../../api.js";
import { t } from "../../i18n.js";
import { escapeForm } from "./leaving.js";
import { hostCombat } from "./obstacles.js";
import { PHASES, gated, ownTimed, squareOf, timedPayload } from "./parts.js";

const STEPS = {
  joining: "(1) 戦闘参加", moving: "(2) コマ移動", before: "(3) 戦闘前", hands: "(4) 手札",
  initiative: "(5) イニシアチブ", turns: "(6) 戦闘手番", round_end: "(7) ラウンド終了",
};
const AWAITING = { sync: "同調の回答待ち", remnant_sync: "同調・妨害の回答待ち", response: "防御・逃避の回答待ち", endurance: "耐久力の宣言待ち", counter: "格闘の反撃待ち" };
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
  // 3.1 l.373–376: while my 代理 fights, no C-card (nor discarding one), only its abilities
  const proxied = Boolean(mineFighter?.proxy);
  const PROXIED = "代理の使用中はCカードを使えません";
  const proxySize = () => Math.max(0, ...abilitiesTagged("代理").flatMap((a) => a.tags)
    .filter((t) => t.startsWith("代理:")).map((t) => Number(t.slice(3)) || 0));
  // a checkbox whose state survives the pane's re-rendering
  function checkbox(key, text, fallback = false) {
    const box = el("input", { type: "checkbox", name: key, "aria-label": text, checked: ctx.memo.has(key) ? ctx.memo.get(key) === "yes" : fallback });
    box.addEventListener("change", () => ctx.memo.set(key, box.checked ? "yes" : "no"));
    return box;
  }
  const proxyButton = (text) => (proxied ? null : ctx.button(text, () => cmd("use_proxy"), { "data-command": "use_proxy" }));
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
      if (f.left) states.push(f.moved ? "離脱（移動済み）" : "離脱");
      if (f.kind === "obstacle") states.push(`障害・火力${f.firepower}${f.jammer ? `・ESPジャマーLV:${f.jammer_lv}` : ""}`);
      if (f.kind === "esper") states.push(`エスパー・ESP能力レベル${f.esp_level}${f.shift ? `・[格闘:${f.shift}]` : ""}`);
      if (f.kind === "remnant") states.push(f.firepower > 0 ? `残留思念・火力${f.firepower}` : "残留思念・火力なし");
      if (f.illusion_immune) states.push("幻覚の効果を受けない");
      if (f.from_square) states.push("マスの効果で参加");
      if (fight.dying?.[String(f.id)]) states.push("死亡時の宣言待ち");
      if (f.proxy) states.push("代理使用中");
      if (f.joined_round > fight.round) states.push(`ラウンド${f.joined_round}から参加`);
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

  const attackName = (a) => (a.remnant ? `残留思念の攻撃（火力${a.firepower}）` : `${a.card ?? (a.weapon ? "武器" : "格闘")}（LV${a.lv}・火力${a.firepower}）`);
  function attackLine() {
    const a = fight.attack;
    if (!a) return null;
    return el("p", { class: "locke-attack", role: "status" },
      `${label(a.attacker)} → ${label(a.target)}: ${attackName(a)}`,
      a.joiners?.length ? ` · 同調: ${a.joiners.map(label).join("、")}` : "",
      a.hinderers?.length ? ` · 妨害: ${a.hinderers.map(label).join("、")}` : "",
      a.counters?.length ? el("span", { class: "locke-counters" }, ` · [対抗(攻撃)]: ${a.counters.join("、")}`) : "",
      a.defended_by ? " · " + t("countered with {card}", { card: a.defended_by }) : "",
      ` · ${(a.remnant && a.awaiting === "sync" ? AWAITING.remnant_sync : AWAITING[a.awaiting]) ?? a.awaiting}`,
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
        disabled: reason !== null, title: reason ?? (data?.text ? t(data.text) : name), dataset: { card: name, index },
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
      note.textContent = short ? " " + t("Declared below LV{lv}: {count} 精神力 checks", { lv, count: lv - Number(level.input.value) }) : "";
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
      return el("p", { class: "hint" }, t("Waiting for {name} to go on.", { name: ctx.seatName(fight.started_by) }));
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
      out.push(el("div", { class: "locke-prompt locke-join-request", role: "group", "aria-label": t("実は参加していたチェック") },
        el("p", {}, t("Do you agree to the 実は参加していたチェック for 「{person}」?", { person: request.person })),
        el("div", { class: "locke-buttons" },
          ctx.button(t("Agree"), () => cmd("answer_join", { consents: true }), { class: "primary", "data-command": "answer_join", "data-answer": "yes" }),
          ctx.button(t("Do not agree"), () => cmd("answer_join", { consents: false }), { "data-command": "answer_join", "data-answer": "no" }))));
    } else if (request) {
      out.push(el("p", { class: "hint" }, t("The 実は参加していたチェック for 「{person}」: waiting for {names} to agree", { person: request.person, names: request.waiting.map(ctx.seatName).join("、") })));
    }
    if (fight.step !== "joining") return out;
    out.push(el("p", { class: "hint locke-who" }, t("Joining: a character not in the combat makes the 実はそこにいたチェック, a dead one the 実は生きていたチェック (once a combat).")));
    const self = me !== null ? ctx.rules.players.find((p) => p.seat === me) : null;
    if (self && !mineFighter) {
      const dead = ["dead", "black_hole"].includes(self.condition); // l.726: the black hole kills
      // the refusals of joining.py, said before the click
      const reason = fight.join_checked?.includes(me) ? "この戦闘ではチェック済み"
        : self.condition === "disabled" ? "行動不能のキャラクターはできません"
          : self.condition === "partner" ? "パートナー状態ではできません（4.4）"
            : !dead && squareOf(self, fight.stage) === fight.square ? "戦闘予定地にいます" : null;
      out.push(el("div", { class: "locke-actions" }, dead
        ? gated(ctx, "実は生きていたチェック", () => cmd("join_check", { check: "alive" }), reason, { "data-command": "join_check", "data-check": "alive" })
        : gated(ctx, "実はそこにいたチェック", () => cmd("join_check", { check: "there" }), reason, { "data-command": "join_check", "data-check": "there" })));
    }
    if (ctx.isHost()) {
      // ③ for someone not in the game (ruling CL-067: the host asks for the named person)
      const person = ctx.remembered(el("input", { type: "text", name: "join-person", maxlength: 40, placeholder: t("the person's name"), "aria-label": t("person") }), "join-person", "");
      const reason = request ? "同意待ちのチェックがあります" : null;
      out.push(el("div", { class: "locke-actions" }, t("実は参加していたチェック (for someone not in the game): "), person, " ",
        gated(ctx, "全員に同意を求める", () => cmd("join_check", { check: "joined", person: person.value.trim() }), reason, { "data-command": "join_check", "data-check": "joined" })));
    }
    return out;
  }

  // (3) 戦闘前, for a character new to the combat this round: 「謎の特殊能力」 (which ability, or
  // none, sealed to me) and [手下:X] (only the number said)
  function beforeBlock() {
    if (fight.step !== "before") return null;
    // (3) l.904–907: only the characters new to the combat this round
    const newcomers = fight.fighters.filter((f) => f.kind === "character" && f.joined_round === fight.round && !f.left);
    const who = el("p", { class: "hint locke-who" }, t("戦闘前: the characters new to the combat ({names}) may use [戦闘前] abilities, 謎の特殊能力 and [手下:X].", { names: newcomers.map((f) => label(f.id)).join("、") || t("none") }));
    if (!mineFighter || mineFighter.joined_round !== fight.round || mineFighter.kind !== "character" || mineFighter.left) return who;
    const out = [];
    const before = abilitiesTagged("戦闘前");
    const mystery = ctx.remembered(el("select", { name: "mystery-ability", "aria-label": t("謎の特殊能力") },
      el("option", { value: "" }, "（なし: ブラフ）"), before.map((a) => el("option", { value: a.name }, a.name))), "mystery-ability", "");
    const rolled = fight.mystery?.includes(me) ? "この戦闘で宣言済み" : null;
    out.push(el("div", { class: "locke-form", dataset: { form: "mystery_ability" } }, t("謎の特殊能力 (1D6; which ability, only you know): "), mystery, " ",
      gated(ctx, "振る", () => cmd("mystery_ability", mystery.value ? { ability: mystery.value } : {}), rolled, { "data-command": "mystery_ability" })));
    // a [戦闘前] ability used without its name (3.1 l.282–283: what it does to others is said)
    const usable = before.filter((a) => !a.tags.some((t) => t.startsWith("手下:")));
    if (usable.length) {
      const which = ctx.remembered(el("select", { name: "before-ability", "aria-label": t("[戦闘前] ability") }, usable.map((a) => el("option", { value: a.name }, a.name))), "before-ability", usable[0].name);
      const effect = ctx.remembered(el("input", { type: "text", name: "before-effect", maxlength: 200, placeholder: t("its effect on other characters (blank if only on you)"), "aria-label": t("the effect declared") }), "before-effect", "");
      out.push(el("div", { class: "locke-form", dataset: { form: "before_ability" } }, t("[戦闘前] ability (its name only you know): "), which, " ", effect, " ",
        ctx.button(t("Use"), () => cmd("before_ability", { ability: which.value, effect: effect.value.trim() }), { "data-command": "before_ability" })));
    }
    const minions = abilitiesTagged("手下");
    if (minions.length) {
      const count = ctx.numberInput("minions", t("number of 手下"), { min: 1, max: 20, value: 1 });
      const which = ctx.remembered(el("select", { name: "minion-ability", "aria-label": t("手下 ability") }, minions.map((a) => el("option", { value: a.name }, a.name))), "minion-ability", minions[0].name);
      const declared = mineFighter.minions ? `宣言済み（手下${mineFighter.minions}）` : null;
      out.push(el("div", { class: "locke-form", dataset: { form: "declare_minions" } }, t("[手下:X] (declare only how many; the hand limit grows): "), count.node, " ", minions.length > 1 ? which : null, " ",
        gated(ctx, "宣言", () => cmd("declare_minions", { count: Number(count.input.value), ...(minions.length > 1 ? { ability: which.value } : {}) }), declared, { "data-command": "declare_minions" })));
    }
    return el("div", { class: "locke-actions locke-before" }, el("h4", {}, "戦闘前"), who, out);
  }

  // a support phase of my combat turn: シートオープン, 改心 (4.3 as in a normal turn)
  function supportForms() {
    const out = [];
    const self = ctx.rules.players.find((p) => p.seat === me);
    if (self && !self.sheet_open) out.push(ctx.button("シートオープン", () => cmd("open_sheet"), { "data-command": "open_sheet" }));
    const targets = fight.fighters.filter((f) => f.id !== me && f.seat && !f.left);
    if (targets.length && ctx.rules.me?.faction !== "S") {
      const target = ctx.remembered(el("select", { name: "combat-convert", "aria-label": t("改心 target") }, targets.map((f) => el("option", { value: String(f.seat) }, label(f.id)))), "combat-convert", targets[0].seat);
      const level = ctx.numberInput("combat-convert-esp", "ESP能力レベル（宣言）", { min: 0, max: 12, value: stat("esp_level") });
      out.push(el("div", { class: "locke-form" }, "改心: ", target, " ", level.node, " ",
        ctx.button("改心", () => cmd("convert", { target: Number(target.value), declared: Number(level.input.value) }), { "data-command": "convert" })));
    }
    // 5.2 l.968: [支援] abilities and ability cards, each once in the turn (ruling CL-093)
    const support = ownTimed(ctx, "支援");
    if (support.length) {
      const which = ctx.remembered(el("select", { name: "support-ability", "aria-label": t("[支援] ability") },
        support.map(([value, text]) => el("option", { value }, text))), "support-ability", support[0][0]);
      const use = () => {
        const body = timedPayload(which.value);
        return body.card ? cmd("use_ability_card", { card: body.card }) : cmd("use_ability", { ability: body.ability });
      };
      out.push(el("div", { class: "locke-form", dataset: { form: "support_ability" } }, t("[支援] 特殊能力 and 能力カード (once each a 手番): "), which, " ",
        ctx.button(t("Use"), use, { "data-command": "use_ability" })));
    }
    return out;
  }

  // 3.2 l.401–402: with a character of my silhouette in the combat, my attacks must target it
  // (the server judges, by name and current alignment; the page can only see the names)
  const silhouetteOf = (seat) => ctx.rules.players.find((p) => p.seat === seat)?.silhouette ?? null;
  const sameSilhouette = (f) => f.seat && silhouetteOf(me) && silhouetteOf(f.seat) === silhouetteOf(me);
  // The default target is the likeliest enemy (loyalties are secret: the page goes by what lies
  // open): the same silhouette (forced), then obstacles and NPCs, then the other side's
  // characters, then my side's, my own party last.
  const mySide = ctx.rules.players.find((p) => p.seat === me)?.side ?? null;
  const party = new Set(Object.entries(ctx.rules.parties ?? {})
    .map(([leader, partners]) => [Number(leader), ...partners]).find((members) => members.includes(me)) ?? []);
  const likeliness = (f) => {
    if (sameSilhouette(f)) return 0;
    if (!f.seat) return 1;
    if (party.has(f.seat)) return 4;
    return ctx.rules.players.find((p) => p.seat === f.seat)?.side === mySide ? 3 : 2;
  };
  function attackTargets() {
    const all = fight.fighters.filter((f) => f.id !== me && !f.left && f.joined_round <= fight.round);
    return all.sort((a, b) => likeliness(a) - likeliness(b));
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
        el("strong", {}, chosen.name), " ", kinds.length ? kind : el("span", { class: "hint" }, t("a card not for the main action")), " ", targetWrap, " ", ...fields.nodes, " ",
        gated(ctx, t("Use"), () => cmd("play_card", {
          card: chosen.name, kind: kind.value, ...(kind.value === "攻撃" ? { target: Number(target.value) } : {}), ...fields.payload(),
        }), proxied ? PROXIED : kinds.length ? null : "主要では使えないカード", { class: "primary", "data-command": "play_card" }),
        " ", gated(ctx, "捨てる（裏向き）", () => cmd("discard_card", { card: chosen.name }), proxied ? "代理の使用中は捨てられません" : null, { "data-command": "discard_card" })));
    } else {
      out.push(el("p", { class: "hint" }, t("Click a card in your hand: use or discard it")));
    }
    // 3.1 l.293–300 (ruling CL-096): an [攻撃] and an [逃避] exclude each other within a combat turn
    const done = fight.turn_actions ?? [];
    if (done.includes("攻撃")) out.push(el("p", { class: "hint", dataset: { excluded: "逃避" } }, t("[攻撃] done this 手番: no [逃避]")));
    if (done.includes("逃避")) out.push(el("p", { class: "hint", dataset: { excluded: "攻撃" } }, t("[逃避] done this 手番: no [攻撃] (nor 格闘)")));
    // 格闘 (5.6): the declared endurance is the firepower, an LV 1 attack
    const targets = attackTargets();
    if (targets.length) {
      const target = ctx.remembered(el("select", { name: "melee-target", "aria-label": t("格闘 target") },
        targets.map((f) => el("option", { value: String(f.id) }, targetLabel(f)))), "melee-target", targets[0].id);
      const endurance = ctx.numberInput("melee-endurance", "耐久力（宣言＝火力）", { min: 1, max: 99, value: Math.max(1, stat("endurance")) });
      const shift = ctx.numberInput("melee-shift", "[格闘:X]", { min: 0, max: 12, value: 0 });
      const suit = checkbox("melee-suit", "スーツ");
      out.push(el("div", { class: "locke-form", dataset: { form: "melee" } }, "格闘: ", target, " ", endurance.node, " ", shift.node, " ",
        el("label", { class: "inline" }, suit, " スーツ"), " ",
        gated(ctx, "格闘", () => cmd("melee", {
          target: Number(target.value), endurance: Number(endurance.input.value), shift: Number(shift.input.value), ...(suit.checked ? { suit: true } : {}),
        }), proxied ? "代理の格闘は代理のカードの記述による（裁定CL-062）" : done.includes("逃避") ? "この手番は[逃避]済み" : null, { "data-command": "melee" })));
    }
    // 5.2 l.975: a [主要]/[先制] ability or ability card as the main action (ruling CL-095)
    const seen = new Set();
    const mains = [...ownTimed(ctx, "主要"), ...ownTimed(ctx, "先制")].filter(([value]) => !seen.has(value) && seen.add(value));
    if (mains.length && !proxied) {
      const which = ctx.remembered(el("select", { name: "main-ability", "aria-label": t("[主要]/[先制] ability") },
        mains.map(([value, text]) => el("option", { value }, text))), "main-ability", mains[0][0]);
      // the effect typed survives a re-render; both it and 効果なし are cleared once used (a
      // [先制] that did nothing leaves the form up for the next main action)
      const effect = ctx.remembered(el("input", { type: "text", name: "main-ability-effect", maxlength: 200, placeholder: t("effect (what you tell the table)"), "aria-label": t("effect") }), "main-ability-effect", "");
      const none = checkbox("main-ability-none", "効果なし（[先制]: 別の主要行動へ）");
      const use = () => cmd("main_ability", { ...timedPayload(which.value), ...(effect.value.trim() ? { effect: effect.value.trim() } : {}), ...(none.checked ? { no_effect: true } : {}) })
        .then((ok) => { if (ok) { ctx.memo.set("main-ability-effect", ""); ctx.memo.set("main-ability-none", "no"); ctx.rerender(); } return ok; });
      out.push(el("div", { class: "locke-form", dataset: { form: "main_ability" } }, t("[主要]/[先制] 特殊能力 and 能力カード: "), which, " ", effect, " ",
        el("label", { class: "inline" }, none, " 効果なし（[先制]）"), " ",
        ctx.button(t("Use"), use, { "data-command": "main_ability" })));
    }
    out.push(el("div", {}, ctx.button("パス", () => cmd("combat_pass"), { "data-command": "combat_pass" }),
      hasProxy() ? [" ", proxyButton(t("Use a 代理 ([先制])"))] : null));
    return out;
  }

  function myTurnBlock() {
    if (fight.step !== "turns" || fight.current !== me || me === null) return null;
    const body = [];
    const mainOpen = fight.phase === "main" && !fight.main_done && !fight.attack;
    if (mainOpen) body.push(...mainForms());
    if (["support1", "support2"].includes(fight.phase) && !fight.attack) body.push(...supportForms());
    // l.374–375: the 代理 withdraws in the check phase, its damage kept
    if (fight.phase === "check" && proxied) body.push(el("div", {}, ctx.button(t("Withdraw the 代理"), () => cmd("withdraw_proxy"), { "data-command": "withdraw_proxy" })));
    // ruling CL-094: a kept defence is let go in its keeper's own combat turn (to 格闘, l.1099)
    if (mineFighter?.defence && !fight.attack) body.push(el("div", {}, ctx.button(t("Stop keeping the defence"), () => cmd("drop_defence"), { "data-command": "drop_defence" })));
    if (!fight.attack && !mainOpen) {
      const last = fight.phase === "support2" || (fight.phase === "check" && mineFighter?.acted);
      body.push(el("div", {}, ctx.button(last ? t("End the 戦闘手番") : t("To the next phase"), () => cmd("combat_next"), { class: "primary", "data-command": "combat_next" })));
    }
    if (fight.attack) body.push(el("p", { class: "hint" }, t("Waiting for the attack to be resolved.")));
    return el("div", { class: "locke-actions locke-combat-turn" }, el("h4", {}, t("Your 戦闘手番: {phase}", { phase: PHASES[fight.phase] ?? fight.phase })), body);
  }

  // 6.1 l.1182–1187: a 残留思念 plays one round for its dead character's seat: its phases, and
  // in its main phase its attack (l.1184–1185: 「キャラクター1人か障害1体」, none a 残留思念
  // attacked this round, l.1195 — the server judges that) or パス
  function remnantTurnBlock() {
    const remnant = fight.step === "turns" && fight.current !== null ? fighter(fight.current) : null;
    if (!remnant || remnant.kind !== "remnant" || remnant.seat !== me || me === null) return null;
    const mainOpen = fight.phase === "main" && !fight.main_done && !fight.attack;
    const last = fight.phase === "support2" || (fight.phase === "check" && remnant.acted);
    const body = [];
    if (mainOpen) {
      const alive = (f) => f.kind !== "character" || !["dead", "black_hole"].includes(ctx.rules.players.find((p) => p.seat === f.seat)?.condition);
      const targets = fight.fighters.filter((f) => ["character", "obstacle", "esper"].includes(f.kind) && f.id !== remnant.id && !f.left
        && f.joined_round <= fight.round && alive(f) && (!f.members?.length || f.members.some((e) => e > 0)));
      const target = ctx.remembered(el("select", { name: "remnant-target", "aria-label": t("the 残留思念's target") },
        targets.map((f) => el("option", { value: String(f.id) }, label(f.id)))), "remnant-target", targets[0]?.id ?? "");
      const reason = remnant.firepower <= 0 ? "火力なし: 攻撃できません" : targets.length ? null : "攻撃できる相手がいません";
      body.push(el("div", { class: "locke-form", dataset: { form: "remnant_attack" } }, t("The 残留思念's attack (火力{firepower}; no one counters or joins it): target ", { firepower: remnant.firepower }), target, " ",
        gated(ctx, "攻撃", () => cmd("remnant_attack", { target: Number(target.value) }), reason, { class: "primary", "data-command": "remnant_attack" })));
      body.push(el("div", {}, ctx.button("パス", () => cmd("combat_pass"), { "data-command": "combat_pass" })));
    }
    body.push(el("div", {}, gated(ctx, last ? "戦闘手番を終える" : "次のフェイズへ", () => cmd("combat_next"),
      fight.attack ? "攻撃の解決を待っています" : mainOpen ? "主要行動（パスも）を先に" : null, { class: "primary", "data-command": "combat_next" })));
    return el("div", { class: "locke-actions locke-combat-turn locke-remnant-turn", dataset: { fighter: remnant.id } },
      el("h4", {}, t("{name}'s 戦闘手番: {phase}", { name: label(remnant.id), phase: PHASES[fight.phase] ?? fight.phase })), body);
  }

  // 6.1 l.1252–1259: my own ESPジャマーLV:X ([対抗(Cカード使用)], named aloud) voids another's
  // attack C-card waiting for its answer (after its 同調), if its final LV is 1–X (`jam`,
  // ruling CL-106). Offered to a fighter of this combat whose sheet holds one; X is read from
  // the ability's printed name.
  function jamBlock() {
    const a = fight.attack;
    if (!a?.card || a.awaiting !== "response" || !mineFighter || a.attacker === me) return null;
    if (mineFighter.left || mineFighter.joined_round > fight.round) return null;
    const jammers = abilitiesTagged("対抗(Cカード使用)");
    if (!jammers.length) return null;
    const levelOf = (name) => Number(/LV[:：]?\s*(\d+)/.exec(name)?.[1] ?? 0);
    const which = ctx.remembered(el("select", { name: "jam-ability", "aria-label": "ESPジャマー" },
      jammers.map((j) => el("option", { value: j.name }, j.name))), "jam-ability", jammers[0].name);
    which.addEventListener("change", () => ctx.rerender());
    const x = levelOf(which.value);
    const reason = mineFighter.stunned_rounds ? "気絶状態では[対抗(X)]を行えません"
      : proxied ? "代理の使用中は代理の能力だけを使えます"
      : !(x >= 1 && a.lv <= x) ? `最終的なLVが1~${x}のCカードにだけ使えます（このカードはLV${a.lv}）` : null;
    return el("div", { class: "locke-prompt locke-jam", role: "group", "aria-label": "ESPジャマー" },
      el("p", {}, t("{name}'s attack card {card} (LV{lv}) awaits its answers. Void it with your ESPジャマー and send it back to the hand?", { name: label(a.attacker), card: a.card, lv: a.lv })),
      el("div", { class: "locke-form", dataset: { form: "jam" } }, which, " ",
        gated(ctx, "ESPジャマーを使う", () => cmd("jam", { ability: which.value }), reason, { "data-command": "jam" })));
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
        el("p", {}, ownAttack ? t("Have your 手下 join it? {what}", { what }) : t("{attacker} attacks {target}: {what}. Join it (同調)?", { attacker: label(a.attacker), target: label(a.target), what })),
        chosen && !why(data) ? el("div", { class: "locke-form" }, el("strong", {}, chosen.name), " ", ownAttack ? null : fields.nodes, " ",
          ctx.button(t("Join it (同調)"), () => cmd("sync", { card: chosen.name, ...(ownAttack ? { minion: true } : fields.payload()) }), { class: "primary", "data-command": "sync" }))
          : el("p", { class: "hint" }, t("Click an attack card that may join (LV{lv} or lower) in your hand", { lv: original?.lv ?? a.lv })),
        el("div", { class: "locke-buttons" }, ctx.button(t("Do not join"), () => cmd("no_sync"), { "data-command": "no_sync" })));
    }
    if (a.target !== me) return null;
    if (a.awaiting === "response") {
      const chosen = selected();
      const data = chosen ? cardData(chosen.name) : null;
      const ok = chosen && !responseReason(a)(data);
      const kinds = (data?.kinds ?? []).filter((k) => RESPONSE_KINDS.includes(k));
      const kind = ctx.remembered(el("select", { name: "respond-kind", "aria-label": "種類" }, kinds.map((k) => el("option", { value: k }, k))), "respond-kind", kinds[0] ?? "防御");
      const fields = activationFields("respond", () => data?.lv ?? null);
      const keep = checkbox("respond-maintain", "防御を維持", true);
      return el("div", { class: "locke-prompt locke-respond", role: "group", "aria-label": t("Countering the attack") },
        el("p", {}, t("{attacker} attacks you: {what}.", { attacker: label(a.attacker), what }), " ", proxied ? t("Your 代理 takes it (no C-cards).") : t("A 防御 or 逃避 card of LV{lv} or more may counter it.", { lv: a.lv })),
        proxied ? null : ok ? el("div", { class: "locke-form" }, el("strong", {}, chosen.name), " ", kind, " ", ...fields.nodes, " ",
          // ruling CL-094: a maintainable defence is kept up unless its player says not
          data?.maintain ? el("label", { class: "inline" }, keep, " " + t("keep the defence up")) : null, " ",
          ctx.button(t("Counter"), () => cmd("respond", { card: chosen.name, kind: kind.value, ...fields.payload(), ...(data?.maintain && !keep.checked ? { maintain: false } : {}) }), { class: "primary", "data-command": "respond" }))
          : el("p", { class: "hint" }, t("Click the card to counter with in your hand")),
        el("div", { class: "locke-buttons" }, ctx.button(proxied ? t("The 代理 takes it") : t("Take it without countering"), () => cmd("respond"), { "data-command": "take_hit" }),
          // 3.1 l.370–373: [代理:X] as [対抗(攻撃)], only that a 代理 is used is said
          hasProxy() ? proxyButton(t("Use a 代理")) : null));
    }
    if (a.awaiting === "endurance" && proxied) {
      // the 代理 takes the damage: its endurance, no suit; destroyed, not its user
      const endurance = ctx.numberInput("proxy-endurance", t("the 代理's 耐久力 (declared)"), { min: 1, max: 99, value: Math.max(1, proxySize()) });
      return el("div", { class: "locke-prompt locke-endurance", role: "group", "aria-label": t("Declaring 耐久力") },
        el("p", {}, t("Hit: {what}. Your 代理 takes it: declare its 耐久力 (1 or more, no more than what is left; damage at or above it destroys the 代理).", { what })),
        endurance.node, " ",
        ctx.button("宣言", () => cmd("declare_endurance", { endurance: Number(endurance.input.value) }), { class: "primary", "data-command": "declare_endurance" }));
    }
    if (a.awaiting === "endurance") {
      const endurance = ctx.numberInput("hit-endurance", "耐久力（宣言）", { min: 1, max: 99, value: Math.max(1, stat("endurance")) });
      // 6.1 l.1190: no [スーツ:X] against a 残留思念's attack
      const suit = a.remnant ? null : checkbox("hit-suit", "スーツ");
      return el("div", { class: "locke-prompt locke-endurance", role: "group", "aria-label": t("Declaring 耐久力") },
        el("p", {}, t("Hit: {what}. Declare your 耐久力 (1 or more, no more than the true value; damage at or above it kills).", { what: a.remnant ? attackName(a) : what })),
        endurance.node, " ", suit ? el("label", { class: "inline" }, suit, " スーツ") : el("span", { class: "hint" }, t("No スーツ against a 残留思念's attack")), " ",
        ctx.button("宣言", () => cmd("declare_endurance", { endurance: Number(endurance.input.value), ...(suit?.checked ? { suit: true } : {}) }), { class: "primary", "data-command": "declare_endurance" }));
    }
    if (a.awaiting === "counter" && proxied) {
      // melee.py: the 代理 takes the 格闘's damage — its endurance, no 反撃, no suit, no [格闘:X]
      const endurance = ctx.numberInput("proxy-counter-endurance", t("the 代理's 耐久力 (declared)"), { min: 1, max: 99, value: Math.max(1, proxySize()) });
      return el("div", { class: "locke-prompt locke-counter", role: "group", "aria-label": "格闘" },
        el("p", {}, t("{attacker}'s 格闘 (火力{firepower}) hits. Your 代理 takes it: declare its 耐久力 (no 反撃).", { attacker: label(a.attacker), firepower: a.firepower })),
        endurance.node, " ",
        ctx.button("宣言", () => cmd("counter", { endurance: Number(endurance.input.value), shift: 0, fight_back: false }), { class: "primary", "data-command": "counter" }));
    }
    if (a.awaiting === "counter") {
      const endurance = ctx.numberInput("counter-endurance", "耐久力（宣言＝火力）", { min: 1, max: 99, value: Math.max(1, stat("endurance")) });
      const shift = ctx.numberInput("counter-shift", "[格闘:X]", { min: 0, max: 12, value: 0 });
      const back = checkbox("counter-back", "反撃", true);
      const suit = checkbox("counter-suit", "スーツ");
      return el("div", { class: "locke-prompt locke-counter", role: "group", "aria-label": "格闘" },
        el("p", {}, t("{attacker}'s 格闘 (火力{firepower}) hits. Declare your 耐久力.", { attacker: label(a.attacker), firepower: a.firepower })),
        endurance.node, " ", shift.node, " ", el("label", { class: "inline" }, back, " " + t("fight back (反撃)")), " ", el("label", { class: "inline" }, suit, " スーツ"), " ",
        ctx.button("宣言", () => cmd("counter", {
          endurance: Number(endurance.input.value), shift: Number(shift.input.value), fight_back: back.checked, ...(suit.checked ? { suit: true } : {}),
        }), { class: "primary", "data-command": "counter" }));
    }
    return null;
  }

  // 5.4 l.1048–1058: the target's [対抗(攻撃)] abilities and ability cards, each once on an
  // attack, before its answer (and after it, until the damage is judged, with no more avoiding:
  // ruling CL-088); none against a 残留思念 (6.1 l.1190), none while fainted (l.1267) or while a 代理
  // fights (3.1 l.378)
  function counterAbilityBlock() {
    const a = fight.attack;
    if (!a || me === null || a.target !== me || a.remnant || !["response", "endurance", "counter"].includes(a.awaiting)) return null;
    const choices = ownTimed(ctx, "対抗(攻撃)", { used: a.counters ?? [] });
    const all = ownTimed(ctx, "対抗(攻撃)");
    if (!all.length) return null; // nothing of mine has this timing: nothing to offer
    const which = ctx.remembered(el("select", { name: "counter-ability", "aria-label": t("[対抗(攻撃)] ability") },
      choices.map(([value, text]) => el("option", { value }, text))), "counter-ability", choices[0]?.[0] ?? "");
    const effect = ctx.remembered(el("input", { type: "text", name: "counter-effect", maxlength: 200, placeholder: t("effect (the table resolves it)"), "aria-label": t("the effect declared") }), "counter-effect", "");
    const answered = a.awaiting !== "response";
    const avoid = answered || mineFighter?.defence ? null : ctx.remembered(el("select", { name: "counter-avoid", "aria-label": t("Stopping the attack") },
      el("option", { value: "" }, t("do not stop it")), el("option", { value: "blocked" }, t("block it ([防御])")), el("option", { value: "evaded" }, t("evade it ([逃避], leaving the combat)"))), "counter-avoid", "");
    const reason = mineFighter?.stunned_rounds ? "気絶状態では[対抗(X)]を行えません"
      : proxied ? "代理の使用中は代理の能力だけを使えます"
        : choices.length ? null : "この攻撃に使用済み";
    const use = () => cmd("counter_ability", {
      ...timedPayload(which.value), ...(effect.value.trim() ? { effect: effect.value.trim() } : {}), ...(avoid?.value ? { avoid: avoid.value } : {}),
    }).then((ok) => { if (ok) { ctx.memo.set("counter-effect", ""); ctx.memo.set("counter-avoid", ""); } return ok; });
    return el("div", { class: "locke-prompt locke-counter-ability", role: "group", "aria-label": "[対抗(攻撃)]" },
      el("p", {}, t("[対抗(攻撃)] 特殊能力 and 能力カード (any number against one attack, each once; their names are told)")),
      el("div", { class: "locke-form", dataset: { form: "counter_ability" } }, choices.length ? which : null, " ", effect, " ", avoid ?? "",
        answered ? el("span", { class: "hint" }, t("Answered: no blocking or evading (effects only)")) : mineFighter?.defence ? el("span", { class: "hint" }, t("Keeping a defence up: no other block or evasion")) : null, " ",
        gated(ctx, t("Use"), use, reason, { class: "primary", "data-command": "counter_ability" })));
  }

  // 3.1 l.284–285 [死亡時]: each character that has just died may use its [死亡時] abilities and
  // ability cards, then says it is done; what follows from the deaths waits for all (ruling CL-090)
  function deathBlock() {
    const dying = fight.dying ?? {};
    const seats = Object.keys(dying).map(Number);
    if (!seats.length) return null;
    const waiting = el("p", { class: "hint locke-dying" }, t("Waiting for the [死亡時] declarations of {names} (nothing else until they are done)", { names: seats.map(label).join("、") }));
    if (me === null || !seats.includes(me)) return waiting;
    const used = dying[String(me)] ?? [];
    const choices = ownTimed(ctx, "死亡時", { used });
    const body = [el("p", {}, t("Your character has died. You may use [死亡時] 特殊能力 and 能力カード (their names are told)."))];
    if (used.length) body.push(el("p", { class: "hint" }, t("Used: {names}", { names: used.join("、") })));
    if (choices.length) {
      const which = ctx.remembered(el("select", { name: "death-ability", "aria-label": t("[死亡時] ability") },
        choices.map(([value, text]) => el("option", { value }, text))), "death-ability", choices[0][0]);
      const effect = ctx.remembered(el("input", { type: "text", name: "death-effect", maxlength: 200, placeholder: t("effect (the table resolves it)"), "aria-label": t("the effect declared") }), "death-effect", "");
      body.push(el("div", { class: "locke-form", dataset: { form: "death_ability" } }, which, " ", effect, " ",
        ctx.button(t("Use"), () => cmd("death_ability", { ...timedPayload(which.value), ...(effect.value.trim() ? { effect: effect.value.trim() } : {}) })
          .then((ok) => { if (ok) ctx.memo.set("death-effect", ""); return ok; }), { class: "primary", "data-command": "death_ability" })));
    }
    body.push(el("div", { class: "locke-buttons" }, ctx.button(choices.length || used.length ? t("Finish the [死亡時] declarations") : t("Use no [死亡時] ability"),
      () => cmd("death_ability"), { "data-command": "death_ability", "data-answer": "done" })));
    return el("div", { class: "locke-prompt locke-death", role: "group", "aria-label": "[死亡時]" }, body, seats.length > 1 ? waiting : null);
  }

  // my 残留思念s (a dead character's seat plays its 残留思念, ruling CL-068)
  const myRemnants = () => fight.fighters.filter((f) => f.kind === "remnant" && f.seat === me && me !== null);

  // 6.1 l.1193–1199: another 残留思念's attack; mine, not yet acted, may 同調 (its 火力 added) or
  // 妨害 (taken away) — either spends its combat turn — or neither
  function remnantAnswerBlock() {
    const a = fight.attack;
    if (!a?.remnant || a.awaiting !== "sync") return null;
    const mine = myRemnants().find((f) => a.sync_waiting?.includes(f.id));
    if (!mine) return null;
    const answer = (value) => () => cmd("remnant_answer", { answer: value });
    return el("div", { class: "locke-prompt locke-remnant-answer", role: "group", "aria-label": t("The 残留思念's 同調 or 妨害"), dataset: { fighter: mine.id } },
      el("p", {}, t("{attacker} attacks {target}: {what}. Does {name} (火力{firepower}) join (同調) or hinder (妨害)? (Doing so is its action: its 戦闘手番 is skipped.)", { attacker: label(a.attacker), target: label(a.target), what: attackName(a), name: label(mine.id), firepower: mine.firepower })),
      el("div", { class: "locke-buttons" },
        ctx.button(`同調（+${mine.firepower}）`, answer("sync"), { class: "primary", "data-command": "remnant_answer", "data-answer": "sync" }),
        ctx.button(`妨害（−${mine.firepower}）`, answer("hinder"), { "data-command": "remnant_answer", "data-answer": "hinder" }),
        ctx.button(t("Do nothing"), answer("none"), { "data-command": "remnant_answer", "data-answer": "none" })));
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
      return el("div", { class: "locke-prompt locke-discard-down", role: "group", "aria-label": t("Discarding") },
        el("p", {}, excess > 0 ? t("Your hand is {excess} over its limit: choose {count} cards (or {more}) to discard.", { excess, count: allowed[0], more: allowed[1] })
          : t("Your hand is at its limit: you may discard one card (or none).")),
        el("p", { class: "hint" }, t("Chosen: {count} (click your hand)", { count: chosen.length })),
        ctx.button(chosen.length ? t("Discard {count}", { count: chosen.length }) : t("Discard none"), () => cmd("discard_down", {
          cards: chosen.map((key) => key.slice(key.indexOf(":") + 1)),
        }).then((ok) => { if (ok) ctx.memo.set("combat-picked", []); }), { class: "primary", "data-command": "discard_down" }));
    }
    const asked = mineFighter.kind === "character" && !mineFighter.left && !settled && !(String(me) in (fight.continuing ?? {}));
    if (asked) {
      return el("div", { class: "locke-prompt locke-continue", role: "group", "aria-label": t("Going on with the combat") },
        el("p", {}, t("Go on with the combat?")),
        el("div", { class: "locke-buttons" },
          ctx.button(t("Go on"), () => cmd("continue_combat", { go_on: true }), { class: "primary", "data-command": "continue_combat", "data-answer": "yes" }),
          ctx.button(t("Stop"), () => cmd("continue_combat", { go_on: false }), { "data-command": "continue_combat", "data-answer": "no" })));
    }
    return el("p", { class: "hint" }, fight.discarding.length ? t("Waiting for discards: {names}", { names: fight.discarding.map(label).join("、") }) : t("Waiting for the others' answers."));
  }

  // which cards in my hand can be chosen now, and why not
  function usableNow() {
    const a = fight.attack;
    if (picking) return () => null;
    if (proxied) return () => PROXIED;
    if (a?.awaiting === "response" && a.target === me) return responseReason(a);
    if (a?.awaiting === "sync" && a.sync_waiting?.includes(me)) return syncReason(a.card ? cardData(a.card) : null);
    if (fight.step === "turns" && fight.current === me && fight.phase === "main" && !fight.main_done && !a) return () => null;
    return () => "今は使えない";
  }

  // the GM sees every secret: each fighter's hand, folded
  function allHands() {
    const secrets = ctx.rules.secrets;
    if (!secrets) return null;
    const details = el("details", { class: "locke-host-secrets locke-all-hands", open: ctx.memo.get("hands-open") === "yes" }, el("summary", {}, t("Everyone's hands (GM)")),
      el("ul", {}, fight.fighters.filter((f) => f.seat).map((f) => el("li", {}, `${label(f.id)}: ${(secrets[String(f.seat)]?.combat_hand ?? []).join("、") || "なし"}`))));
    return keepOpenState(details, (open) => ctx.memo.set("hands-open", open ? "yes" : "no"));
  }

  const discarded = fight.discard.length;
  return el("section", { class: "locke-combat", "aria-label": "戦闘", dataset: { step: fight.step, phase: fight.phase } },
    el("h3", {}, `戦闘 ラウンド${fight.round}: `, el("span", { class: "locke-combat-step" }, STEPS[fight.step] ?? fight.step),
      fight.step === "turns" && fight.current ? el("span", { class: "locke-combat-now" }, " · " + t("{name}'s {phase}", { name: label(fight.current), phase: PHASES[fight.phase] ?? fight.phase })) : null),
    el("p", { class: "hint" }, t("山札 {deck} · 捨て札 {discarded}", { deck: fight.deck, discarded }) + (fight.attacked ? " · " + t("attacked this round") : "")),
    fightersTable(),
    order(),
    attackLine(),
    ...joiningBlock(),
    flowStep(),
    beforeBlock(),
    hostCombat(ctx, fight, label),
    deathBlock(),
    attackPrompt(),
    jamBlock(),
    counterAbilityBlock(),
    remnantAnswerBlock(),
    mineFighter?.left && !mineFighter.moved && mineFighter.kind === "character" ? escapeForm(ctx, fight) : null,
    myTurnBlock(),
    remnantTurnBlock(),
    roundEnd(),
    ctx.errorBox,
    handBlock(usableNow()),
    allHands());
}
