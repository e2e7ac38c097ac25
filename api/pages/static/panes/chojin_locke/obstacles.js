// 6.1–6.2 for the host (or the GM) in a combat: bring an obstacle in as a square or chart says
// (`add_obstacle`: its name, how many members and each one's endurance, its weapons' firepower
// summed, its ESPジャマーLV:X, 「幻覚の効果を受けない」, whether the square's effect brings it), destroy an obstacle's ESPジャマー
// (`destroy_jammer`), bring an エスパー NPC in before the hands are dealt (`add_esper`: its ESP能力
// レベル and endurance from ランダム戦闘チャート, its [格闘:X]), make a character faint for some
// rounds as a card's or chart's text says (`faint`), and play the combat turn of a fighter
// nobody sits at — its phases, its パス, an obstacle's attack in its main phase
// (`obstacle_attack`: a target, or 「ランダム」 rolled among those 6.2 allows; the LV its square
// or chart says; 格闘, each member with its endurance; a firepower other than the living
// members' share) and an エスパー NPC's main action (`esper_act`: the server picks its card by
// 6.2 from its sealed hand). Shown to the host alone.
import { el, keepOpenState } from "../../api.js";
import { t } from "../../i18n.js";
import { PHASES, gated } from "./parts.js";

const SQUARE = "マスの効果で参加";
const cmd = (ctx, type, payload = {}) => ctx.send({ type: `chojin_locke.${type}`, ...payload });

// ctx: the combat's (combat.js); label(id) names a fighter
export function hostCombat(ctx, fight, label) {
  if (!ctx.isHost()) return null;
  const fighter = (id) => fight.fighters.find((f) => f.id === id) ?? null;
  const player = (seat) => ctx.rules.players.find((p) => p.seat === seat) ?? null;

  // initiative.in_play: arrived, not escaped, a character alive, an obstacle with a living member
  function inPlay(f) {
    if (f.left || f.joined_round > fight.round) return false;
    if (f.kind === "character" && f.seat && ["dead", "black_hole"].includes(player(f.seat)?.condition)) return false;
    return !(["obstacle", "esper"].includes(f.kind) && f.members?.length && !f.members.some((e) => e > 0));
  }
  // 6.2 l.1282–1284: in 惑星編 anyone else in the combat (never a 残留思念), in 秘密基地編 the
  // explorers' characters
  const targetsOf = (group) => fight.fighters.filter((f) => f.id !== group.id && f.kind !== "remnant" && inPlay(f)
    && (fight.stage !== "base" || (f.kind === "character" && player(f.seat)?.side === "explorer")));
  // l.1295 and ruling CL-076: the living members' share of the weapons' firepower
  function share(group) {
    if (!group.members?.length) return group.firepower;
    const living = group.members.filter((e) => e > 0).length;
    return Math.floor((group.firepower * living) / group.members.length);
  }

  // 6.2 l.1341–1344: an NPC a square's effect brings comes one at a time, once per square
  // (`square: true`; the server refuses a second one, ruling CL-102)
  const fromSquare = fight.fighters.find((f) => f.from_square && !f.left && (!f.members?.length || f.members.some((e) => e > 0)));
  const squareHint = () => el("p", { class: "hint locke-square-npc" }, fromSquare
    ? t("NPC in by a square's effect: {name} (meanwhile no other NPC joins by a square's effect)", { name: label(fromSquare.id) })
    : t("NPCs from a square's effect join one at a time, once per square (6.2)."));

  function checkbox(key, text) {
    const box = el("input", { type: "checkbox", name: key, "aria-label": text, checked: ctx.memo.get(key) === "yes" });
    box.addEventListener("change", () => ctx.memo.set(key, box.checked ? "yes" : "no"));
    return box;
  }

  function addForm() {
    const name = ctx.remembered(el("input", { type: "text", name: "obstacle-name", maxlength: 100, placeholder: "警官隊", "aria-label": t("the 障害's name") }), "obstacle-name", "");
    const count = ctx.numberInput("obstacle-members", "人数", { min: 1, max: 20, value: 1 });
    const endurance = ctx.numberInput("obstacle-endurance", "耐久力（1人）", { min: 1, max: 99, value: 1 });
    const firepower = ctx.numberInput("obstacle-firepower", t("火力 (the weapons' total)"), { min: 0, max: 999, value: 0 });
    // 6.1 l.1252: an ESPジャマー is 「ESPジャマーLV:X」 — its X (0: none)
    const jammer = ctx.numberInput("obstacle-jammer-lv", "ESPジャマーLV", { min: 0, max: 12, value: 0 });
    const immune = checkbox("obstacle-illusion-immune", "幻覚の効果を受けない");
    const square = checkbox("obstacle-square", SQUARE);
    const reason = fight.step === "round_end" ? "ラウンド終了フェイズには加われません" : null;
    const add = () => cmd(ctx, "add_obstacle", {
      name: name.value.trim(), members: Array(Math.max(1, Number(count.input.value))).fill(Number(endurance.input.value)),
      firepower: Number(firepower.input.value),
      ...(Number(jammer.input.value) > 0 ? { jammer_lv: Number(jammer.input.value) } : {}),
      ...(immune.checked ? { illusion_immune: true } : {}),
      ...(square.checked ? { square: true } : {}),
    }).then((result) => {
      if (result) { // the next one is described anew
        ctx.memo.set("obstacle-name", "");
        ctx.memo.set("obstacle-jammer-lv", "0");
        ctx.memo.set("obstacle-illusion-immune", "no");
        ctx.memo.set("obstacle-square", "no");
        ctx.rerender();
      }
      return result;
    });
    const details = el("details", { class: "locke-add-obstacle", open: ctx.memo.get("obstacle-open") === "yes" },
      el("summary", {}, t("Add a 障害 (as a square or a chart says)")),
      el("div", { class: "locke-form", dataset: { form: "add_obstacle" } }, name, " ", count.node, " ", endurance.node, " ", firepower.node, " ",
        jammer.node, " ", el("label", { class: "inline" }, immune, " " + t("unaffected by 幻覚")), " ",
        el("label", { class: "inline" }, square, ` ${SQUARE}`), " ",
        gated(ctx, "加える", add, reason, { class: "primary", "data-command": "add_obstacle" })),
      el("p", { class: "hint" }, t("A 障害 of several people is one combatant: one イニシアチブ card, one 手番 a round, 耐久力 one person at a time (6.2).")),
      squareHint());
    return keepOpenState(details, (open) => ctx.memo.set("obstacle-open", open ? "yes" : "no"));
  }

  // the combat turn of a fighter nobody sits at (an obstacle, an onlooker), played by the host
  function turnBlock() {
    const group = fight.step === "turns" && fight.current !== null ? fighter(fight.current) : null;
    if (!group || group.seat) return null;
    const body = [];
    const mainOpen = fight.phase === "main" && !fight.main_done && !fight.attack;
    const mainReason = fight.phase !== "main" ? "主要フェイズに行います" : fight.main_done ? "主要行動は済んでいます"
      : fight.attack ? "攻撃の解決を待っています" : null;
    if (group.kind === "obstacle") {
      const targets = targetsOf(group);
      const target = ctx.remembered(el("select", { name: "obstacle-target", "aria-label": t("the 障害's target") },
        targets.length ? el("option", { value: "random" }, `ランダム（1D${targets.length}）`) : null,
        targets.map((f) => el("option", { value: String(f.id) }, label(f.id)))), "obstacle-target", "random");
      const lv = ctx.numberInput("obstacle-lv", "LV", { min: 1, max: 12, value: 1 });
      const automatic = share(group);
      const power = ctx.remembered(el("input", { type: "number", min: 0, max: 999, class: "locke-number", name: "obstacle-power",
        placeholder: String(automatic), "aria-label": t("火力 (blank: as many as are alive)") }), "obstacle-power", "");
      const melee = checkbox("obstacle-melee", "格闘");
      const meleeNote = el("span", { class: "hint" });
      const sync = () => {
        // l.1298–1301, ruling CL-078: each member fights with its endurance, an LV 1 attack
        lv.input.disabled = melee.checked;
        power.disabled = melee.checked;
        if (melee.checked) lv.input.value = "1";
        meleeNote.textContent = melee.checked ? " " + t("格闘: LV1, one at a time with 耐久力 {values}", { values: group.members.filter((e) => e > 0).join("・") }) : "";
      };
      melee.addEventListener("change", sync);
      sync();
      const reason = mainReason ?? (targets.length ? null : "攻撃できる相手がいません");
      const attack = () => cmd(ctx, "obstacle_attack", {
        target: target.value === "random" ? "random" : Number(target.value),
        ...(melee.checked ? { melee: true } : { lv: Number(lv.input.value) }),
        ...(!melee.checked && power.value !== "" ? { firepower: Number(power.value) } : {}),
      });
      body.push(el("div", { class: "locke-form", dataset: { form: "obstacle_attack" } }, "攻撃: 対象 ", target, " ", lv.node, " ",
        el("label", { class: "inline" }, "火力 ", power), el("span", { class: "hint" }, `（空欄: ${automatic}）`), " ",
        el("label", { class: "inline" }, melee, " 格闘"), meleeNote, " ",
        gated(ctx, "攻撃", attack, reason, { class: "primary", "data-command": "obstacle_attack" })));
    }
    if (group.kind === "esper") {
      // 6.2 l.1325–1332: its card (the highest LV, then firepower, it can use; else 格闘) is the
      // server's choice from its sealed hand; its target named or rolled (l.1282–1284)
      const targets = targetsOf(group);
      const target = ctx.remembered(el("select", { name: "esper-target", "aria-label": t("the エスパー's target") },
        targets.length ? el("option", { value: "random" }, `ランダム（1D${targets.length}）`) : null,
        targets.map((f) => el("option", { value: String(f.id) }, label(f.id)))), "esper-target", "random");
      const reason = mainReason ?? (targets.length ? null : "攻撃できる相手がいません");
      body.push(el("div", { class: "locke-form", dataset: { form: "esper_act" } }, t("Main action (6.2: the attack C-card of the highest usable LV, else 格闘): target "), target, " ",
        gated(ctx, "行動", () => cmd(ctx, "esper_act", { target: target.value === "random" ? "random" : Number(target.value) }), reason,
          { class: "primary", "data-command": "esper_act" })));
    }
    body.push(el("div", {}, gated(ctx, "パス", () => cmd(ctx, "combat_pass"), mainReason, { "data-command": "combat_pass" })));
    const last = fight.phase === "support2" || (fight.phase === "check" && group.acted);
    const nextReason = fight.attack ? "攻撃の解決を待っています" : mainOpen ? "主要行動（パスも）を先に" : null;
    body.push(el("div", {}, gated(ctx, last ? "戦闘手番を終える" : "次のフェイズへ", () => cmd(ctx, "combat_next"), nextReason,
      { class: "primary", "data-command": "combat_next" })));
    return el("div", { class: "locke-actions locke-obstacle-turn", dataset: { fighter: group.id } },
      el("h4", {}, t("{name}'s 戦闘手番 (host): {phase}", { name: label(group.id), phase: PHASES[fight.phase] ?? fight.phase })), body);
  }

  // 6.2 l.1320–1324: an エスパー NPC joins before the hands are dealt (4)
  function esperForm() {
    const name = ctx.remembered(el("input", { type: "text", name: "esper-name", maxlength: 100, placeholder: "エスパー", "aria-label": t("the エスパー's name") }), "esper-name", "");
    const level = ctx.numberInput("esper-esp", "ESP能力レベル", { min: 1, max: 12, value: 1 });
    const endurance = ctx.numberInput("esper-endurance", "耐久力", { min: 1, max: 99, value: 1 });
    const shift = ctx.numberInput("esper-shift", "[格闘:X]", { min: 0, max: 12, value: 0 });
    const square = checkbox("esper-square", SQUARE);
    const reason = ["joining", "moving", "before"].includes(fight.step) ? null : "手札を配る前（戦闘参加・コマ移動・戦闘前）に加わります";
    const add = () => cmd(ctx, "add_esper", {
      name: name.value.trim(), esp_level: Number(level.input.value), endurance: Number(endurance.input.value), shift: Number(shift.input.value),
      ...(square.checked ? { square: true } : {}),
    }).then((result) => {
      if (result) { ctx.memo.set("esper-name", ""); ctx.memo.set("esper-square", "no"); ctx.rerender(); }
      return result;
    });
    const details = el("details", { class: "locke-add-esper", open: ctx.memo.get("esper-open") === "yes" },
      el("summary", {}, t("Add an エスパー (as the ランダム戦闘チャート says)")),
      el("div", { class: "locke-form", dataset: { form: "add_esper" } }, name, " ", level.node, " ", endurance.node, " ", shift.node, " ",
        el("label", { class: "inline" }, square, ` ${SQUARE}`), " ",
        gated(ctx, "加える", add, reason, { class: "primary", "data-command": "add_esper" })),
      el("p", { class: "hint" }, t("Unlimited ESPパワー, no 精神力. Nobody sees its hand; the server chooses its cards by 6.2.")),
      squareHint());
    return keepOpenState(details, (open) => ctx.memo.set("esper-open", open ? "yes" : "no"));
  }

  // 6.1 l.1264–1270 気絶状態 as a card's or chart's text says; l.1261–1262 an ESPジャマー destroyed
  function effectsForm() {
    const out = [];
    const faintable = fight.fighters.filter((f) => ["character", "esper"].includes(f.kind) && inPlay(f));
    if (faintable.length) {
      const who = ctx.remembered(el("select", { name: "faint-fighter", "aria-label": t("character knocked out") },
        faintable.map((f) => el("option", { value: String(f.id) }, label(f.id)))), "faint-fighter", faintable[0].id);
      const rounds = ctx.numberInput("faint-rounds", "ラウンド数", { min: 1, max: 99, value: 1 });
      const reason = ctx.remembered(el("input", { type: "text", name: "faint-reason", maxlength: 200, placeholder: t("reason (a card's instruction…)"), "aria-label": t("reason for the 気絶") }), "faint-reason", "");
      const why = fight.attack ? "攻撃の解決を待っています" : null;
      out.push(el("div", { class: "locke-form", dataset: { form: "faint" } }, "気絶状態: ", who, " ", rounds.node, " ", reason, " ",
        gated(ctx, "気絶させる", () => cmd(ctx, "faint", { fighter: Number(who.value), rounds: Number(rounds.input.value), reason: reason.value.trim() }), why,
          { "data-command": "faint" })));
    }
    for (const f of fight.fighters.filter((g) => g.kind === "obstacle" && g.jammer)) {
      const key = `jammer-reason-${f.id}`;
      const reason = ctx.remembered(el("input", { type: "text", name: key, maxlength: 200, placeholder: t("reason (a square's or a chart's instruction)"), "aria-label": t("reason the ESPジャマー is destroyed") }), key, "");
      out.push(el("div", { class: "locke-form", dataset: { form: "destroy_jammer", fighter: f.id } }, t("{name}'s ESPジャマーLV:{lv}: ", { name: label(f.id), lv: f.jammer_lv }), reason, " ",
        ctx.button(t("Destroy the ESPジャマー"), () => cmd(ctx, "destroy_jammer", { fighter: f.id, reason: reason.value.trim() }), { "data-command": "destroy_jammer" })));
    }
    return out.length ? el("div", { class: "locke-host-effects" }, el("h4", {}, t("Applying effects (host)")), out) : null;
  }

  return el("div", { class: "locke-host-combat", role: "group", "aria-label": "ホスト: 障害・NPC" },
    turnBlock(), effectsForm(), addForm(), esperForm());
}
