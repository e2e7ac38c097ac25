// ニンジャスレイヤー's combat tracker (see README.md for the mountPane contract).
//
// Everything shown is read from /view, already redacted for this reader: an NPC's numbers
// are simply absent for a player (shown as "?"), never hidden here. The buttons send the
// ruleset's commands, and each shows the dice command it rolls (BCDice's NinjaSlayer2: AT, NJ,
// EV, WS), with an optional box for physical dice where the game's dice policy allows them.
import { el, keepOpenState } from "../api.js";
import { gmForms } from "./ninja_slayer/gm.js";
import { called, kindWord, statusWord } from "./ninja_slayer/names.js";
import { t } from "../i18n.js";
// What the game waits on this reader for: the top bar's cue (waiting.js)
export { awaiting } from "./ninja_slayer/awaiting.js";

const NS = "ninja_slayer.";
const LADDER = ["K", "E", "N", "H", "UH", "UH2", "UH3"];
const PHASES = {
  turn_start: "ターン開始フェイズ",
  teban_start: "手番開始フェイズ",
  movement: "移動フェイズ",
  attack: "攻撃フェイズ",
  teban_end: "手番終了フェイズ",
  turn_end: "ターン終了フェイズ",
};
const ATMOSPHERE = ["通常", "ハードモード", "ウルトラハードモード"];
// The scenario's stages in order (2-2), and what the GM's button moves on to.
const NEXT_STAGE = { "ダンゴウ": "本編", "本編": "評価", "評価": "余暇", "余暇": "ダンゴウ" };

function harder(label, steps) {
  const index = Math.min(Math.max(LADDER.indexOf(label) + steps, 0), LADDER.length - 1);
  return LADDER[index];
}

function number(value) {
  return value === undefined || value === null ? "?" : String(value);
}

export function mountPane(context) {
  const me = context.me;
  let view = null;
  let game = null;
  let actionsKey = null;
  let toolsKey = null;
  let toolsOpen = false; // the GM's fold, as its reader left it

  const campaign = el("p", { class: "ns-campaign", id: "ns-campaign" });
  const summary = el("p", { class: "ns-summary", id: "ns-summary" });
  const tracker = el("div", { class: "table-scroll", id: "ns-tracker" });
  const history = el("div", { class: "ns-history", id: "ns-history" });
  const actions = el("div", { class: "ns-actions", id: "ns-actions" });
  const error = el("p", { class: "error", id: "ns-error", role: "alert", hidden: true });
  const tools = el("div", { class: "ns-tools", id: "ns-tools" });
  const touched = new Set(); // the tools' inputs their reader changed
  for (const type of ["input", "change"]) tools.addEventListener(type, (event) => touched.add(event.target.name));
  context.root.append(campaign, summary, tracker, error, actions, tools, history);

  const rules = () => view?.rules ?? { characters: {}, combat: null };
  const controls = (character) =>
    context.isGm() || (character && character.owner === me.actor);
  const manual = () => game?.options?.dice_policy && game.options.dice_policy !== "server";

  async function send(body) {
    error.hidden = true;
    return context.command({ ...body, type: NS + body.type }, error);
  }

  // A physical-dice box beside a roll, where the dice policy allows it: "6,5,1" → faces.
  function facesBox(name) {
    if (!manual()) return null;
    return el("input", {
      class: "ns-faces", name, placeholder: t("physical dice, e.g. 6,5,1"), size: 14,
      "aria-label": t("physical dice"),
    });
  }
  function faces(input) {
    const text = input?.value?.trim();
    if (!text) return undefined;
    return text.split(/[ ,]+/).map((face) => Number.parseInt(face, 10));
  }

  function button(label, dice, onClick, name) {
    return el(
      "button",
      { type: "button", class: "ns-action", dataset: { action: name ?? label }, onclick: onClick },
      label,
      dice ? el("code", { class: "dice-cmd" }, dice) : null,
    );
  }

  // ---------------------------------------------------------------- the tracker

  // The campaign: which scenario, which of its stages, and the 万札プール.
  function renderCampaign() {
    const { scenario, stage, pool } = rules();
    campaign.textContent = [`シナリオ${scenario ?? 1}`, stage ?? "本編", `万札プール ${pool ?? 0}`].join(" · ");
  }

  // Each sheet's history as the reader's /view has it (a private sheet's only for its readers).
  function renderHistory() {
    const { characters } = rules();
    const sheets = Object.values(characters).filter((c) => (c.history ?? []).length);
    history.replaceChildren(...sheets.map((c) => el("details", { class: "ns-sheet-history", dataset: { character: c.id }, open: true },
      el("summary", {}, t("{name}: the sheet's history", { name: c.label ?? c.name })),
      el("ul", {}, ...c.history.map((note) => el("li", { dataset: { seq: note.seq } }, t("scenario {number}: {text}", { number: note.scenario, text: note.text })))))));
  }

  function injuries(c) {
    return Object.entries(c.injuries ?? {}).map(([part, marks]) => (marks > 1 ? `${part}×${marks}` : part)).join("・");
  }

  function renderSummary() {
    const combat = rules().combat;
    if (!combat) {
      summary.textContent = t("No combat in progress (探索シーケンス).");
      return;
    }
    const actor = combat.actor ? called(rules().characters, combat.actor) : null;
    const parts = [
      t("Turn {turn}", { turn: combat.turn }),
      PHASES[combat.phase],
      actor ? `手番: ${actor}` : null,
      `アトモスフィア: ${ATMOSPHERE[combat.atmosphere] ?? combat.atmosphere}`,
      `経過ターン数 ${combat.elapsed}`,
      t("DKK this turn: {dkk}", { dkk: combat.dkk_this_turn }),
      combat.wasshoi_offered ? t("Wasshoi! offered") : null,
    ];
    summary.textContent = parts.filter(Boolean).join(" · ");
  }

  function renderTracker() {
    const { characters, combat } = rules();
    const ids = combat ? [...combat.order, ...combat.participants.filter((i) => !combat.order.includes(i))]
      : Object.keys(characters);
    const head = el("tr", {}, ...["", t("Name"), "状態", "体力", "精神力", "回避", "即応", "緊急回避", "DKK", "部位損傷", "万札"]
      .map((h) => el("th", {}, h)));
    const rows = ids.map((id, index) => {
      const c = characters[id];
      if (!c) return null;
      const now = c.now;
      const acting = combat && combat.actor === id;
      return el(
        "tr",
        { class: acting ? "ns-acting" : null, dataset: { character: id } },
        el("td", {}, combat ? String(index + 1) : ""),
        el("td", {}, c.label ?? c.name, c.kind !== "pc" ? ` (${kindWord(c.kind)})` : ""),
        el("td", { class: "ns-status" }, statusWord(c.status)),
        el("td", { class: "ns-tairyoku" }, now ? `${now.tairyoku}/${c.sheet?.tairyoku ?? "?"}` : "?"),
        el("td", { class: "ns-seishin" }, number(now?.seishin)),
        el("td", { class: "ns-evasion" }, number(now?.evasion)),
        el("td", { class: "ns-reaction" }, number(now?.reaction)),
        el("td", { class: "ns-emergency" }, number(now?.emergency)),
        el("td", { class: "ns-dkk" }, number(now?.dkk)),
        el("td", { class: "ns-injuries" }, injuries(c)),
        el("td", { class: "ns-manzatsu" }, number(c.sheet?.manzatsu)),
      );
    });
    tracker.replaceChildren(el("table", { class: "view ns-table" }, el("tbody", {}, head, ...rows)));
  }

  // ---------------------------------------------------------------- the actions

  function attackForm(holder, combat) {
    const { characters } = rules();
    // enemies first (a PC's are the NPCs, an NPC's the PCs): the default target is never an ally
    const enemy = (i) => (characters[i]?.kind === "pc") !== (holder.kind === "pc");
    const targets = combat.participants.filter((i) => i !== holder.id && characters[i]?.status !== "removed"
      && characters[i]?.status !== "爆発四散").sort((a, b) => Number(enemy(b)) - Number(enemy(a)));
    const kind = el("select", { name: "kind" },
      el("option", { value: "melee" }, "近接 (カラテ)"), el("option", { value: "ranged" }, "射撃 (ワザマエ)"));
    const rows = el("div", { class: "ns-allocations" });
    const dice = el("code", { class: "dice-cmd", id: "ns-attack-dice" });
    const facesInput = facesBox("attack-faces");
    // L16: the GM may make a mob's attack or shot succeed without rolling (ruling NS-045)
    const auto = context.isGm() && holder.kind === "mob"
      ? el("input", { type: "checkbox", name: "auto_success", "aria-label": "自動成功" }) : null;
    function pool() {
      const stat = kind.value === "melee" ? holder.now?.karate : holder.now?.wazamae;
      return stat ?? 0;
    }
    function difficulty() {
      let steps = 0;
      if (combat.concentrating) steps -= 1;
      if (holder.next_attack_difficulty) steps += 1;
      steps += penalty(holder);
      return harder("N", steps);
    }
    function allocation(target, count) {
      const select = el("select", { name: "target" }, ...targets.map((i) =>
        el("option", { value: i, selected: i === target }, called(characters, i))));
      const amount = el("input", { name: "dice", type: "number", min: 0, max: 60, value: count, size: 3 });
      select.addEventListener("change", preview);
      amount.addEventListener("input", preview);
      return el("div", { class: "ns-allocation" }, select, amount);
    }
    function allocations() {
      return [...rows.querySelectorAll(".ns-allocation")].map((row) => ({
        target: row.querySelector("[name=target]").value,
        dice: Number.parseInt(row.querySelector("[name=dice]").value, 10),
      }));
    }
    function preview() {
      const command = kind.value === "melee" ? "AT" : "NJ";
      dice.textContent = allocations().map((a) => `${command}${a.dice}[${difficulty()}]`).join(" + ");
    }
    rows.append(allocation(targets[0], pool()));
    kind.addEventListener("change", () => {
      rows.replaceChildren(allocation(targets[0], pool()));
      preview();
    });
    preview();
    const more = el("button", { type: "button", onclick: () => { rows.append(allocation(targets[0], 0)); preview(); } },
      t("+ split (連続攻撃/連射)"));
    const attack = el("button", {
      type: "button", class: "ns-action", dataset: { action: "attack" },
      onclick: () => {
        const given = auto?.checked ? undefined : faces(facesInput);
        const list = allocations();
        let at = 0;
        const body = list.map((a) => {
          const entry = { target: a.target, dice: a.dice };
          if (given) { entry.faces = given.slice(at, at + a.dice); at += a.dice; }
          return entry;
        });
        send({ type: "attack", kind: kind.value, allocations: body, ...(auto?.checked ? { auto_success: true } : {}) });
      },
    }, t("Attack") + " ", dice);
    return el("div", { class: "ns-attack", id: "ns-attack" }, el("h3", {}, "攻撃"), kind, rows, more, facesInput,
      auto ? el("label", { class: "ns-field" }, auto, " " + t("automatic success (a mob's attack or shot)")) : null, attack);
  }

  // ●部位損傷 carried into this scenario: +1, or +2 from two on (2-13).
  function penalty(holder) {
    return Math.min((holder.sheet?.injuries ?? 0) + (holder.carried_injuries ?? 0), 2);
  }

  function evadeForm(damages, character) {
    const boxes = damages.map((d) => el("label", { class: "ns-damage" },
      el("input", { type: "checkbox", name: "damage", value: d.id, checked: true }),
      " " + t("{attacker} → {amount} ({kind}, evasion {difficulty})", { attacker: called(rules().characters, d.attacker), amount: d.amount, kind: d.kind === "ranged" ? t("ranged") : t("melee"), difficulty: d.difficulty }) + (d.critical ? ` ${d.critical}!` : "")));
    // Outside a combat there is no turn's 回避ダイス: up to 【回避】 (rulings NS-036).
    const now = character.now;
    const left = rules().combat ? now?.evasion ?? 0 : Math.max(now?.karate ?? 0, now?.neuron ?? 0, now?.wazamae ?? 0);
    const count = el("input", { name: "evasion_dice", type: "number", min: 0, max: 60, size: 3,
      value: Math.max(0, Math.min(left, 3)) });
    const emergency = el("input", { name: "emergency_dice", type: "number", min: 0, size: 3, value: 0 });
    const dice = el("code", { class: "dice-cmd" });
    const facesInput = facesBox("evade-faces");
    function chosen() {
      const ids = boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => Number(i.value));
      return damages.filter((d) => ids.includes(d.id));
    }
    function preview() {
      const hardest = chosen().reduce((a, d) => (LADDER.indexOf(d.difficulty) > LADDER.indexOf(a) ? d.difficulty : a), "K");
      const total = Number(count.value || 0) + Number(emergency.value || 0);
      dice.textContent = `EV${total}[${hardest}]`;
    }
    for (const input of [count, emergency, ...boxes.map((b) => b.querySelector("input"))]) {
      input.addEventListener("input", preview);
      input.addEventListener("change", preview);
    }
    preview();
    const evade = el("button", {
      type: "button", class: "ns-action", dataset: { action: "evade" },
      onclick: () => send({
        type: "evade", character: character.id, damages: chosen().map((d) => d.id),
        evasion_dice: Number(count.value || 0), emergency_dice: Number(emergency.value || 0),
        faces: faces(facesInput),
      }),
    }, "回避判定 ", dice);
    const take = button(t("Take the damage"), null,
      () => send({ type: "take_damage", damages: chosen().map((d) => d.id) }), "take_damage");
    return el("div", { class: "ns-evade", dataset: { character: character.id } },
      el("h3", {}, `${character.label ?? character.name}: 回避`), ...boxes,
      el("label", {}, "回避ダイス ", count), el("label", {}, " 緊急回避ダイス ", emergency),
      facesInput, evade, take);
  }

  // The 評価 (L37, L116): the 万札プール shared among the living PCs, equal shares by default
  // (the remainder to the first), each share editable.
  function splitForm(pool) {
    const pcs = Object.values(rules().characters).filter((c) => c.kind === "pc" && c.status !== "爆発四散");
    const base = pcs.length ? Math.floor(pool / pcs.length) : 0;
    const inputs = pcs.map((c, i) => el("input", {
      type: "number", name: "share", min: 0, max: pool, size: 4, value: base + (i === 0 ? pool - base * pcs.length : 0),
      dataset: { character: c.id }, "aria-label": t("{name}'s share", { name: c.label ?? c.name }),
    }));
    return el("div", { class: "ns-split", id: "ns-split" }, el("h3", {}, t("Split the 万札 pool ({pool})", { pool })),
      ...pcs.map((c, i) => el("label", { class: "ns-field" }, `${c.label ?? c.name} `, inputs[i])),
      button(t("Split it"), null, () => send({
        type: "split_pool",
        shares: Object.fromEntries(inputs.map((input) => [input.dataset.character, Number(input.value || 0)])),
      }), "split_pool"));
  }

  // The GM's declarations (gm.js), folded; a player's own 余暇 sheet changes.
  function renderTools() {
    const forms = gmForms({
      rules: rules(), send, gm: context.isGm(), mine: (c) => c.owner === me.actor,
    });
    if (!forms.length) {
      tools.replaceChildren();
      return;
    }
    const title = context.isGm() ? "GM: ダメージ・万札・部位損傷・シート" : "余暇: シートの変更";
    const fold = el("details", { class: "ns-gm-tools", id: "ns-gm-tools", open: toolsOpen }, el("summary", {}, title), ...forms);
    // what its reader typed survives an unrelated event's redraw (a choice no longer offered
    // falls back to the first)
    const typed = new Map([...tools.querySelectorAll("[name]")].filter((i) => touched.has(i.name))
      .map((i) => [i.name, i.type === "checkbox" ? i.checked : i.value]));
    for (const input of fold.querySelectorAll("[name]")) {
      if (!typed.has(input.name)) continue;
      if (input.type === "checkbox") input.checked = typed.get(input.name);
      else input.value = typed.get(input.name);
      if (input.tagName === "SELECT" && input.selectedIndex < 0) input.selectedIndex = 0;
    }
    tools.replaceChildren(keepOpenState(fold, (open) => { toolsOpen = open; }));
  }

  function renderActions() {
    const { characters, combat } = rules();
    const parts = [];
    if (!combat) {
      const { hazards = [], stage = "本編", pool = 0 } = rules();
      for (const target of new Set(hazards.map((d) => d.target))) {
        const character = characters[target];
        if (character && controls(character)) parts.push(evadeForm(hazards.filter((d) => d.target === target), character));
      }
      if (context.isGm()) {
        if (stage === "評価" && pool) parts.push(splitForm(pool));
        // After a Wasshoi! outside a combat (rulings NS-050): the entry table and his arrival.
        if (rules().wasshoi_success) {
          parts.push(button(t("死神のエントリー決定表 (the entry table)"), "1D6", () => send({ type: "roll_table", table: "entry" }), "entry"));
          parts.push(button(t("ニンジャスレイヤー enters"), null,
            () => send({ type: "ninja_slayer_enters", id: "ninja_slayer" }), "ninja_slayer_enters"));
        }
        const next = NEXT_STAGE[stage];
        parts.push(button(`${stage} → ${next}`, null,
          () => send(stage === "本編" ? { type: "end_scenario" } : { type: "scenario_stage", stage: next }), "stage"));
      }
      if (stage === "本編" && context.isGm() && Object.keys(characters).length) {
        parts.push(button(t("Begin combat (everyone)"), null, () => {
          const present = rules().characters; // as of the click, not of the last render
          send({
            type: "begin_combat",
            participants: Object.keys(present).filter((i) => ["active", "気絶"].includes(present[i].status)),
          });
        }, "begin_combat"));
      }
      actions.replaceChildren(...parts);
      return;
    }
    const holder = combat.actor ? characters[combat.actor] : null;
    const steers = holder && controls(holder); // moves its 手番 on, even when 気絶
    const mine = steers && holder.status === "active"; // and acts in it
    const advance = (label) => button(label, null, () => send({ type: "advance" }), "advance");

    // Pending damage: whoever controls the target evades or takes it.
    const byTarget = new Map();
    for (const d of combat.damages) {
      if (!byTarget.has(d.target)) byTarget.set(d.target, []);
      byTarget.get(d.target).push(d);
    }
    for (const [target, damages] of byTarget) {
      const character = characters[target];
      if (character && controls(character)) parts.push(evadeForm(damages, character));
    }
    // カウンターカラテ, only when an evasion earned it.
    for (const right of combat.counters) {
      const character = characters[right.holder];
      if (!character || !controls(character)) continue;
      for (const attacker of right.attackers) {
        parts.push(button(`カウンターカラテ → ${called(characters, attacker)}`, t("1 damage, 回避:N"),
          () => send({ type: "counter_karate", character: right.holder, target: attacker }), "counter_karate"));
      }
    }

    if (combat.phase === "turn_start" && context.isGm()) parts.push(advance(t("Start the turn")));
    if (mine && combat.phase === "teban_start") {
      if (!combat.concentrating) {
        parts.push(button(t("Enter 集中状態"), null, () => send({ type: "concentrate" }), "concentrate"));
      }
    }
    if (steers && combat.phase === "teban_start") {
      parts.push(advance(combat.concentrating ? t("To the attack phase") : t("To the movement phase")));
    }
    if (mine && combat.phase === "movement" && !combat.moved) {
      const facesInput = facesBox("sokuten-faces");
      parts.push(button("通常移動", null, () => send({ type: "move" }), "move"));
      parts.push(el("span", {}, button("連続側転", `NJ${holder.now?.wazamae ?? "?"}[${harder("N", penalty(holder))}]`,
        () => send({ type: "move", style: "連続側転", faces: faces(facesInput) }), "sokuten"), facesInput));
    }
    if (steers && combat.phase === "movement") parts.push(advance(t("To the attack phase")));
    if (mine && combat.phase === "attack" && !combat.acted) parts.push(attackForm(holder, combat));
    if (mine && combat.phase === "attack" && !combat.acted && holder.sheet?.ninja !== false) {
      // L150: a ninja adjacent to a 気絶 enemy (the map's to judge, ruling NS-043) — サツバツ! row 6
      const enemy = (c) => c && (c.kind === "pc") !== (holder.kind === "pc");
      for (const id of combat.participants.filter((i) => enemy(characters[i]) && characters[i].status === "気絶")) {
        parts.push(button(`カイシャク → ${called(characters, id)}`, "サツバツ!出目6",
          () => send({ type: "kaishaku", target: id }), "kaishaku"));
      }
    }
    // L162: a サツバツ! row (or カイシャク's) that came up 『即死!』, applied by its attacker
    for (const row of combat.rows ?? []) {
      if (!controls(characters[row.attacker])) continue;
      parts.push(button(t("Apply 『即死!』 → {name}", { name: called(characters, row.target) }),
        characters[row.target]?.sheet?.sokushi_resistance ? "●即死耐性: 痛打+2D6" : null,
        () => send({ type: "instant_death", attacker: row.attacker, target: row.target }), "instant_death"));
    }
    if (steers && combat.phase === "attack") parts.push(advance(t("To the end-of-turn phase")));
    if (steers && combat.phase === "teban_end") parts.push(advance(t("End the turn")));
    // An unevaded サツバツ!: its attacker rolls the GM's table (refused, with what to do
    // instead, when the game has none).
    for (const due of combat.criticals ?? []) {
      if (!controls(characters[due.attacker])) continue;
      parts.push(button(`サツバツ・クリティカル表 (${called(characters, due.target)})`, "1D6",
        () => send({ type: "roll_table", table: "satsubatsu", attacker: due.attacker, target: due.target }),
        "satsubatsu"));
    }
    if (combat.phase === "turn_end" && context.isGm()) {
      const highest = Math.max(0, ...combat.participants.map((i) => characters[i]?.now?.dkk ?? 0));
      const facesInput = facesBox("wasshoi-faces");
      if (!combat.wasshoi_rolled && !combat.placed) {
        parts.push(el("span", {}, button(t("Wasshoi!"), `WS${highest}`,
          () => send({ type: "wasshoi", faces: faces(facesInput) }), "wasshoi"), facesInput));
      }
      if (combat.wasshoi_success) {
        parts.push(button(t("死神のエントリー決定表 (the entry table)"), "1D6", () => send({ type: "roll_table", table: "entry" }), "entry"));
        parts.push(button(t("ニンジャスレイヤー enters"), null,
          () => send({ type: "ninja_slayer_enters", id: "ninja_slayer" }), "ninja_slayer_enters"));
      }
      if (!combat.placed && combat.atmosphere < 2) {
        parts.push(button(t("Raise the difficulty mode ({mode})", { mode: ATMOSPHERE[combat.atmosphere + 1] }), null,
          () => send({ type: "atmosphere", level: combat.atmosphere + 1 }), "atmosphere"));
      }
      parts.push(button(t("Next turn"), null, () => send({ type: "next_turn" }), "next_turn"));
      parts.push(button(t("End the combat"), null, () => send({ type: "end_combat" }), "end_combat"));
    }
    actions.replaceChildren(...parts);
  }

  // Re-render the actions only when what they depend on changed, so a half-filled form is
  // not wiped by an unrelated event.
  function key() {
    const { combat, characters } = rules();
    if (!combat) {
      const { scenario, stage, pool, hazards = [], wasshoi_success } = rules();
      return JSON.stringify(["none", Object.values(characters).map((c) => c.status), scenario, stage, pool,
        hazards.map((d) => d.id), wasshoi_success]);
    }
    return JSON.stringify([combat.turn, combat.phase, combat.actor, combat.concentrating, combat.moved,
      combat.acted, combat.damages.map((d) => d.id), combat.counters, combat.wasshoi_rolled, combat.placed,
      combat.atmosphere, combat.criticals, combat.rows, characters[combat.actor ?? ""]?.status,
      combat.participants.map((i) => characters[i]?.status)]);
  }

  function toolsKeyOf() {
    const { characters, combat, stage, dropped } = rules();
    return JSON.stringify([stage, dropped, Object.values(characters).map((c) => [c.id, c.status, c.injuries]),
      combat ? [combat.participants, combat.damages.map((d) => d.id)] : null]);
  }

  return {
    title: t("ニンジャスレイヤー: combat"),
    update(fresh) {
      view = fresh.view;
      game = fresh.game ?? game;
      renderCampaign();
      renderSummary();
      renderTracker();
      renderHistory();
      const next = key();
      if (next !== actionsKey) {
        actionsKey = next;
        renderActions();
      }
      const nextTools = toolsKeyOf();
      if (nextTools !== toolsKey) {
        toolsKey = nextTools;
        renderTools();
      }
    },
  };
}
