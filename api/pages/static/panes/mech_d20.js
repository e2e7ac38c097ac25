// メカd20 at the table: the initiative order, whose turn, the actions left, each unit's powers
// with their uses left, conditions with their durations, hp (an enemy's only as 半壊/脱落: the
// view never holds more), and the forms that send the ruleset's commands. Everything shown
// comes from /view as this reader may see it; refusals come back in the game's words.
import { el, keepOpenState } from "../api.js";
import { t } from "../i18n.js";
import { drawMap, key, template, within } from "./mech_d20/map.js";
// What the game waits on this reader for: the top bar's cue (waiting.js)
export { awaiting } from "./mech_d20/awaiting.js";

// The replay page draws a frame's map with this (panes/README.md: `renderFrame`).
export function renderFrame(rules) {
  return drawMap(rules);
}

const NS = "mech_d20.";
const SLOTS = [["standard", "標準"], ["move", "移動"], ["minor", "マイナー"]];
const DURATIONS = {
  save_ends: () => "セーヴ・終了",
  start_of_next_turn: (who) => `${who}の次のターンの開始時まで`,
  end_of_next_turn: (who) => `${who}の次のターンの終了時まで`,
  encounter: () => "遭遇終了まで",
};
// What a modifier changes, in the rulebook's words (bonuses.py APPLIES_WORDS); a named defence
// (AC, 頑健…) is its own word already.
const APPLIES = { attack: "命中ロール", damage: "ダメージ・ロール", defences: "全防御値" };
const IMMEDIATE = ["即応・割込", "即応・対応"];
const OFF_TURN = [...IMMEDIATE, "フリー", "アクション不要"];

export function mountPane(context) {
  const { root, me, isGm } = context;
  const form = {
    unit: "", power: "", targets: new Set(), weapon: "", move: "通常移動", text: "", faces: "",
    initiative: {}, sitOut: new Set(), openPowers: new Map(),
    mapClick: "move", origin: null, place: "", hidden: false,
  };
  let view = null;
  let rules = null;
  let game = null; // the table's seats, for their names
  const errorBox = el("p", { class: "error", role: "alert", hidden: true });
  const body = el("div", { class: "mech" });
  root.replaceChildren(body, errorBox);

  const moveKinds = context.ruleset?.commands.find((c) => c.type === `${NS}move`)
    ?.input_schema.properties.kind.enum ?? ["通常移動"];

  // ---------------------------------------------------------------------------- helpers

  const unit = (id) => rules.units[id];
  const nameOf = (id) => unit(id)?.name ?? id;
  // whose unit it is, by the seat's name (never seat:N); the GM's are GM
  const ownerName = (owner) => {
    const seat = game?.seats.find((s) => `seat:${s.seat}` === owner);
    return seat ? seat.name : owner === "gm" ? "GM" : "PC";
  };
  const mine = (u) => isGm() || u.owner === me.actor;
  // Off its turn a unit answers for itself: a player's units, the GM's NPCs (the GM may still
  // drive any unit's own turn, and anything else from the generic pane below).
  const answers = (u) => u.owner === (isGm() ? "gm" : me.actor);
  const manualDice = () => ["manual", "both"].includes(view.options?.dice_policy);

  async function send(command) {
    errorBox.hidden = true;
    const body = { ...command, type: NS + command.type };
    const faces = parseFaces();
    if (faces && ["attack_roll", "damage_roll", "end_turn", "start_turn"].includes(command.type)) body.faces = faces;
    const result = await context.command(body, errorBox);
    // The faces are spent by the roll that carried them; typed while another command was on
    // its way, they stay for the next roll.
    if (result && body.faces) { form.faces = ""; }
    return result;
  }

  function parseFaces() {
    const text = form.faces.trim();
    if (!text || !manualDice()) return null;
    return text.split(/[,\s]+/).filter(Boolean).map(Number);
  }

  function button(label, onclick, attributes = {}) {
    return el("button", { type: "button", ...attributes, onclick }, label);
  }

  function chip(text, kind) {
    return el("span", { class: `mech-chip ${kind ?? ""}` }, text);
  }

  function effectText(effect) {
    const what = [...effect.conditions];
    if (effect.ongoing) what.push(`継続的ダメージ${effect.ongoing}`);
    for (const m of effect.modifiers) what.push(`${m.name} ${m.value >= 0 ? "+" : ""}${m.value} (${APPLIES[m.applies] ?? m.applies})`);
    if (!what.length && effect.text) what.push(effect.text);
    const duration = (DURATIONS[effect.duration] ?? (() => effect.duration))(nameOf(effect.ends_on));
    const failed = effect.failed_saves ? ` · セーヴ失敗${effect.failed_saves}回` : "";
    return { what: what.join("・") || effect.power || "効果", duration: `(${duration})${failed}` };
  }

  // An enemy's hp reaches players only as 半壊/脱落 (view.py); a readable hp is shown in full.
  function health(u) {
    const parts = [];
    if (typeof u.hp === "number") {
      parts.push(el("span", { class: "mech-hp" }, t("hp {hp}/{max}", { hp: u.hp, max: u.sheet?.max_hp ?? "?" })));
      if (typeof u.surges === "number") parts.push(el("span", { class: "mech-surges" }, ` 回復力${u.surges}`));
    }
    if (u.out) parts.push(chip("脱落", "out"));
    else if (u.status !== "active") parts.push(chip(u.status, "out"));
    if (u.bloodied && !u.out) parts.push(chip("半壊", "bloodied"));
    // Conditions no effect lists (無防備 and 伏せ of a unit at hp ≤ 0, a knocked-down unit).
    const fromEffects = new Set(u.effects.flatMap((e) => e.conditions));
    for (const c of u.conditions) if (!fromEffects.has(c)) parts.push(chip(c, "condition"));
    if (u.prone && !u.conditions.includes("伏せ")) parts.push(chip("伏せ", "condition"));
    return parts;
  }

  function effects(u) {
    if (!u.effects.length) return null;
    return el("ul", { class: "mech-effects" }, u.effects.map((effect) => {
      const { what, duration } = effectText(effect);
      return el("li", { class: "mech-effect", dataset: { effect: effect.id } },
        el("span", { class: "mech-condition" }, what), " ", el("span", { class: "mech-duration" }, duration));
    }));
  }

  // ---------------------------------------------------------------------------- sections

  function header(encounter) {
    if (!encounter) return el("p", { class: "mech-status" }, t("No encounter under way."));
    const turn = encounter.turn;
    return el("p", { class: "mech-status" },
      el("strong", {}, t("Round {round}", { round: encounter.round })), " · ",
      turn ? el("span", { class: "mech-turn" }, t("{unit}'s turn", { unit: nameOf(turn.unit) }))
        : encounter.up ? el("span", { class: "mech-turn" }, t("Next: {unit}", { unit: nameOf(encounter.up) }))
          : el("span", { class: "mech-turn" }, t("End of the round")));
  }

  function order(encounter) {
    const entries = encounter ? encounter.order.map((o) => o.unit) : Object.keys(rules.units);
    const initiative = Object.fromEntries((encounter?.order ?? []).map((o) => [o.unit, o.initiative]));
    return el("ol", { class: "mech-order", "aria-label": t("Initiative order") }, entries.map((id) => {
      const u = unit(id);
      if (!u) return null;
      const current = encounter?.turn?.unit === id;
      const flags = [];
      if (encounter?.done.includes(id)) flags.push(chip("済", "done"));
      if (encounter?.immediate_used.includes(id)) flags.push(chip("即応済", "used"));
      if (encounter?.opportunity_used.includes(id)) flags.push(chip("機会済", "used"));
      return el("li", { class: `mech-unit${current ? " current" : ""}${u.out ? " is-out" : ""}`, dataset: { unit: id } },
        el("div", { class: "mech-unit-head" },
          current ? el("span", { class: "mech-marker", "aria-label": t("current turn") }, "▶") : null,
          el("span", { class: "mech-name" }, u.name),
          typeof initiative[id] === "number" ? el("span", { class: "mech-init", title: t("initiative") }, String(initiative[id])) : null,
          el("span", { class: "mech-kind" }, u.kind === "npc" ? "NPC" : ownerName(u.owner)),
          ...flags),
        el("div", { class: "mech-health" }, health(u)),
        effects(u),
        u.powers ? powers(u) : u.used_powers.length ? el("p", { class: "hint" }, t("used: {powers}", { powers: u.used_powers.join("、") })) : null);
    }));
  }

  function powers(u) {
    const open = form.openPowers.get(u.id) ?? (mine(u) && !isGm());
    const details = el("details", { class: "mech-powers", open: open || undefined },
      el("summary", {}, t("Powers")),
      el("table", { class: "view mech-power-table" },
        el("tbody", {}, u.powers.map((p) => el("tr", { dataset: { power: p.name } },
          el("th", { scope: "row" }, p.name),
          el("td", {}, `${p.frequency} · ${p.action}`),
          el("td", { class: "mech-uses" }, p.uses_left === null ? "∞" : `${p.uses_left}/1`),
          el("td", { class: "mech-dice" }, diceText(p.dice[0])))))));
    return keepOpenState(details, (isOpen) => form.openPowers.set(u.id, isOpen));
  }

  function diceText(dice) {
    if (!dice) return "";
    const parts = [];
    if (dice.attack) parts.push(`${dice.attack} vs ${dice.defence}`);
    if (dice.damage) parts.push(`dmg ${dice.damage}`);
    return parts.join(" · ");
  }

  function actionsLeft(encounter, id) {
    const turn = encounter.turn?.unit === id ? encounter.turn : null;
    const items = SLOTS.map(([key, label]) => [label, turn ? turn[key] : "—"]);
    items.push(["即応", encounter.immediate_used.includes(id) ? 0 : 1]);
    items.push(["機会", encounter.opportunity_used.includes(id) ? 0 : 1]);
    return el("dl", { class: "mech-actions", "aria-label": t("Actions left: {unit}", { unit: nameOf(id) }) },
      items.flatMap(([label, left]) => [el("dt", {}, label), el("dd", { dataset: { left: String(left) } }, String(left))]),
      turn?.charged ? [el("dt", {}, "突撃"), el("dd", {}, t("turn over"))] : null);
  }

  // Only for a reader with a roll to make: its unit's turn (saves, a death save) or attack.
  function facesField(encounter) {
    const top = encounter.pending[encounter.pending.length - 1];
    const rolls = [encounter.turn?.unit, encounter.up, top?.unit].some((id) => id && mine(unit(id)));
    if (!manualDice() || !rolls) return null;
    const input = el("input", { type: "text", inputmode: "numeric", class: "mech-faces", value: form.faces,
      placeholder: view.options.dice_policy === "manual" ? t("faces (required)") : t("server dice, or faces"),
      "aria-label": t("Physical dice faces for the next roll") });
    input.addEventListener("input", () => { form.faces = input.value; });
    return el("label", { class: "compact" }, t("Faces") + " ", input);
  }

  // The unit this reader acts with: the turn's, if it is theirs; else one of theirs.
  function actingUnit(encounter) {
    const turnUnit = encounter?.turn?.unit;
    if (turnUnit && mine(unit(turnUnit))) return turnUnit;
    const own = Object.values(rules.units).filter((u) => answers(u) && !u.out && (!encounter || encounter.order.some((o) => o.unit === u.id)));
    if (!own.some((u) => u.id === form.unit)) form.unit = own[0]?.id ?? "";
    return form.unit;
  }

  function turnControls(encounter) {
    if (!encounter) return null;
    const controls = [];
    if (encounter.up && mine(unit(encounter.up)) && !encounter.pending.length) {
      controls.push(button(t("Start turn: {unit}", { unit: nameOf(encounter.up) }), () => send({ type: "start_turn", unit: encounter.up }), { class: "primary mech-start" }));
    }
    const turn = encounter.turn;
    if (turn && mine(unit(turn.unit)) && !encounter.pending.length) {
      controls.push(button(t("End turn: {unit}", { unit: nameOf(turn.unit) }), () => send({ type: "end_turn" }), { class: "mech-end" }));
    }
    return controls.length ? el("div", { class: "mech-buttons" }, controls) : null;
  }

  function pendingSection(encounter) {
    if (!encounter?.pending.length) return null;
    const top = encounter.pending[encounter.pending.length - 1];
    const attacker = unit(top.unit);
    const lines = [el("p", {},
      el("strong", {}, `${attacker?.name ?? top.unit}: ${top.power}`),
      top.targets.length ? ` → ${top.targets.map(nameOf).join("、")}` : "",
      top.stage === "rolled" ? ` ${t("(rolled)")}` : ` ${t("(declared)")}`)];
    if (top.outcomes.length) {
      lines.push(el("ul", { class: "mech-outcomes" }, top.outcomes.map((o) => el("li", {},
        nameOf(o.target) + ": " + (o.critical ? t("hit (critical)") : o.outcome === "hit" ? t("hit") : o.outcome === "miss" ? t("miss") : o.outcome)))));
    }
    if (attacker && mine(attacker)) {
      if (top.attack && top.stage === "declared") {
        const dice = (top.rolls ?? []).map((r) => `${r.dice} vs ${r.defence}`);
        const label = t("Roll attack: {dice}", { dice: [...new Set(dice)].join(" / ") || "1D20" });
        lines.push(el("p", { class: "mech-dice-command" }, t("Attack roll") + " ", (top.rolls ?? []).map((r) =>
          el("code", { title: nameOf(r.target) }, `${nameOf(r.target)} ${r.dice}`))));
        lines.push(button(label, () => send({ type: "attack_roll" }), { class: "primary mech-roll-attack" }));
      } else if (top.attack) {
        lines.push(el("p", { class: "mech-dice-command" }, t("Damage roll") + " ", el("code", {}, top.damage ?? "—")));
        lines.push(button(t("Roll damage: {dice}", { dice: top.damage ?? "—" }), () => send({ type: "damage_roll" }), { class: "primary mech-roll-damage" }));
      } else {
        lines.push(button(t("Resolve"), () => send({ type: "resolve" }), { class: "primary mech-resolve" }));
      }
    }
    lines.push(reactions(encounter, top));
    return el("section", { class: "mech-pending", "aria-label": t("Waiting power") }, el("h3", {}, t("Waiting")), lines);
  }

  // Off-turn answers to the waiting power: an opportunity attack on a power that provokes,
  // an immediate power (即応) with uses left.
  function reactions(encounter, top) {
    const own = Object.values(rules.units).filter((u) => answers(u) && u.id !== top.unit && !u.out
      && encounter.order.some((o) => o.unit === u.id) && encounter.turn?.unit !== u.id);
    const items = [];
    for (const u of own) {
      const offered = !rules.grid || encounter.opportunities.includes(u.id); // on a map: adjacent, able
      if (top.provokes && top.stage === "declared" && !encounter.opportunity_used.includes(u.id) && offered) {
        items.push(button(t("Opportunity attack: {unit}", { unit: u.name }), () => send({ type: "opportunity_attack", unit: u.id, trigger: top.seq }), { class: "mech-oa" }));
      }
      for (const p of (u.powers ?? []).filter((p) => IMMEDIATE.includes(p.action) && p.uses_left !== 0)) {
        if (encounter.immediate_used.includes(u.id)) continue;
        const targets = p.targets > 0 ? [top.unit] : [];
        items.push(button(`${p.action}: ${u.name} ${p.name}`, () => send({ type: "use_power", unit: u.id, power: p.name, targets, trigger: top.seq }), { class: "mech-reaction" }));
      }
    }
    return items.length ? el("div", { class: "mech-buttons" }, items) : null;
  }

  // On a map, a move away from an enemy offers it an opportunity attack (L188): the view says
  // which units may take one, from what this reader knows.
  function moveOpportunities(encounter) {
    if (!rules.grid || encounter.pending.length || !encounter.last_action) return null;
    const own = encounter.opportunities.map(unit).filter((u) => u && answers(u));
    if (!own.length) return null;
    return el("div", { class: "mech-buttons" }, own.map((u) => button(t("Opportunity attack: {unit}", { unit: u.name }),
      () => send({ type: "opportunity_attack", unit: u.id, trigger: encounter.last_action }), { class: "mech-oa" })));
  }

  function actionForms(encounter, id) {
    const u = unit(id);
    if (!u || !u.powers) return null;
    const turn = encounter.turn?.unit === id;
    const usable = u.powers.filter((p) => turn ? !IMMEDIATE.includes(p.action) && p.action !== "機会" : OFF_TURN.includes(p.action));
    if (!usable.length) return null;
    if (!usable.some((p) => p.name === form.power)) form.power = usable.find((p) => p.uses_left !== 0)?.name ?? "";
    const power = usable.find((p) => p.name === form.power);
    const others = encounter.order.map((o) => unit(o.unit)).filter((t) => t && !t.out);
    const targetIds = new Set(others.map((t) => t.id));
    for (const t of [...form.targets]) if (!targetIds.has(t)) form.targets.delete(t);
    if (power && !power.dice.some((d) => d.weapon === form.weapon)) form.weapon = power.dice[0]?.weapon ?? "";
    const dice = power?.dice.find((d) => d.weapon === form.weapon) ?? power?.dice[0];

    const select = el("select", { name: "power", "aria-label": t("Power") }, usable.map((p) => el("option", {
      value: p.name, selected: p.name === form.power, disabled: p.uses_left === 0,
    }, p.name + "（" + p.frequency + "・" + p.action + (p.uses_left === null ? "" : t("・{uses} left", { uses: p.uses_left })) + "）")));
    select.addEventListener("change", () => { form.power = select.value; render(); });
    const weapons = power && power.dice.length > 1 ? el("label", { class: "compact" }, t("Weapon") + " ", (() => {
      const w = el("select", { name: "weapon" }, power.dice.map((d) => el("option", { value: d.weapon, selected: d.weapon === form.weapon }, d.weapon)));
      w.addEventListener("change", () => { form.weapon = w.value; render(); });
      return w;
    })()) : null;
    const targets = power && (power.targets > 0 || power.area) ? el("fieldset", { class: "mech-targets" },
      el("legend", {}, power.area ? t("Targets (area)") : t("Targets (up to {count})", { count: power.targets })),
      others.map((t) => {
        const box = el("input", { type: "checkbox", name: "target", value: t.id, checked: form.targets.has(t.id) });
        box.addEventListener("change", () => { if (box.checked) form.targets.add(t.id); else form.targets.delete(t.id); });
        return el("label", { class: "inline" }, box, ` ${t.name}`);
      })) : null;
    const chosen = () => others.filter((t) => form.targets.has(t.id)).map((t) => t.id);
    const usePower = (event) => {
      event.preventDefault();
      const command = { type: "use_power", unit: id, power: form.power, targets: power && (power.targets > 0 || power.area) ? chosen() : [] };
      if (form.weapon && power?.dice.length > 1) command.weapon = form.weapon;
      if (rules.grid && power?.area && form.origin) {
        if (power.range === "遠隔範囲" || power.shape === "噴射") command.origin = form.origin;
        if (power.shape === "直線") {
          const at = u.position ?? { x: 0, y: 0 };
          command.direction = [Math.sign(form.origin[0] - at.x), Math.sign(form.origin[1] - at.y)];
        }
      }
      if (!turn && encounter.pending.length) command.trigger = encounter.pending[encounter.pending.length - 1].seq;
      else if (!turn && encounter.last_action) command.trigger = encounter.last_action;
      send(command).then((result) => { if (result) { form.targets.clear(); form.origin = null; } });
    };
    const attackForm = el("form", { class: "mech-attack", "aria-label": t("Use a power") },
      el("h3", {}, turn ? t("Power / attack") : t("Off-turn power")),
      el("label", { class: "compact" }, t("Power") + " ", select), weapons, targets,
      dice ? el("p", { class: "mech-dice-command" }, t("rolls") + " ", el("code", {}, diceText(dice))) : null,
      el("button", { type: "submit", class: "primary" }, t("Use power")));
    attackForm.addEventListener("submit", usePower);
    if (!turn) return attackForm;

    const kind = el("select", { name: "kind", "aria-label": t("Move kind") }, moveKinds.map((k) => el("option", { value: k, selected: k === form.move }, k)));
    kind.addEventListener("change", () => { form.move = kind.value; render(); });
    const where = el("input", { type: "text", name: "text", maxlength: 200, value: form.text, placeholder: t("where to"), "aria-label": t("Where to") });
    where.addEventListener("input", () => { form.text = where.value; });
    const moveForm = el("form", { class: "mech-move", "aria-label": t("Move") }, el("h3", {}, t("Move")), kind, " ", where, " ",
      el("button", { type: "submit" }, t("Move")));
    moveForm.addEventListener("submit", (event) => {
      event.preventDefault();
      send({ type: "move", unit: id, kind: form.move, text: form.text }).then((result) => { if (result) form.text = ""; });
    });
    const other = el("div", { class: "mech-buttons" },
      button(t("Charge"), () => send({ type: "charge", unit: id, targets: chosen() })),
      button(t("Total defence"), () => send({ type: "total_defence", unit: id })));
    return el("div", {}, attackForm, moveForm, other);
  }

  function beginForm() {
    const ids = Object.keys(rules.units).filter((id) => !unit(id).out);
    if (!ids.length) return el("p", { class: "hint" }, t("Add units (the add-unit form below), then begin the encounter."));
    // What is typed survives a re-render (every event refreshes the view).
    const boxes = ids.map((id) => {
      const box = el("input", { type: "checkbox", name: `participant-${id}`, value: id, checked: !form.sitOut.has(id) });
      box.addEventListener("change", () => { if (box.checked) form.sitOut.delete(id); else form.sitOut.add(id); });
      return box;
    });
    // Physical dice, where the game allows them: one d20 face per unit (else a server draw).
    const faces = ids.map((id) => {
      if (!manualDice()) return null;
      const input = el("input", { type: "number", min: 1, max: 20, name: `initiative-${id}`, value: form.initiative[id] ?? "",
        class: "mech-init-face", "aria-label": t("Initiative d20 for {unit}", { unit: nameOf(id) }), placeholder: "d20" });
      input.addEventListener("input", () => { form.initiative[id] = input.value; });
      return input;
    });
    const begin = el("form", { class: "mech-begin", "aria-label": t("Begin the encounter") },
      el("h3", {}, t("Begin an encounter")),
      ids.map((id, i) => el("div", { class: "mech-participant" },
        el("label", { class: "inline" }, boxes[i], ` ${nameOf(id)}`), faces[i])),
      el("button", { type: "submit", class: "primary" }, t("Roll initiative")));
    begin.addEventListener("submit", (event) => {
      event.preventDefault();
      const chosen = ids.filter((_, i) => boxes[i].checked);
      const given = Object.fromEntries(ids.map((id, i) => [id, faces[i]?.value]).filter(([id, v]) => v && chosen.includes(id)).map(([id, v]) => [id, [Number(v)]]));
      const command = { type: "begin_encounter", participants: chosen };
      if (Object.keys(given).length) command.faces = given;
      send(command);
    });
    return begin;
  }

  // ---------------------------------------------------------------------------- the map

  // What the map lights up: the acting unit's legal moves (the view's, from what this reader
  // knows), or while a power is chosen its reach or its area template.
  function lit(encounter, id) {
    const out = new Map();
    const u = unit(id);
    if (!encounter || !u || !mine(u)) return out;
    const myTurn = encounter.turn?.unit === id && !encounter.pending.length;
    if (form.mapClick === "move" && myTurn) {
      for (const [x, y] of encounter.moves?.[form.move] ?? []) out.set(key(x, y), "move");
    }
    const power = u.powers?.find((p) => p.name === form.power);
    if (form.mapClick === "power" && power) {
      const squares = power.area ? template(rules.grid, u, power, form.origin) : within(rules.grid, u, power.distance);
      for (const square of squares) out.set(square, power.area ? "area" : "reach");
    }
    return out;
  }

  function mapSection(encounter, id) {
    if (!rules.grid) return null;
    const placing = !encounter && isGm();
    const onSquare = (x, y) => {
      if (placing) {
        if (form.place) send({ type: "place_unit", unit: form.place, x, y, hidden: form.hidden });
        return;
      }
      if (!encounter || !id) return;
      if (form.mapClick === "move" && encounter.turn?.unit === id && mine(unit(id))) {
        send({ type: "move", unit: id, kind: form.move, to: [x, y] });
      } else if (form.mapClick === "power") {
        form.origin = [x, y];
        render();
      }
    };
    const onUnit = (uid) => {
      if (placing) { form.place = uid; render(); return; }
      if (form.mapClick !== "power") return;
      if (form.targets.has(uid)) form.targets.delete(uid); else form.targets.add(uid);
      render();
    };
    const map = drawMap(rules, { highlight: lit(encounter, id), selected: id, targets: form.targets, onSquare, onUnit });
    const controls = [];
    if (placing) {
      const which = el("select", { name: "place", "aria-label": t("Unit to place") },
        el("option", { value: "" }, "—"),
        Object.values(rules.units).map((u) => el("option", { value: u.id, selected: u.id === form.place }, u.name)));
      which.addEventListener("change", () => { form.place = which.value; });
      const hide = el("input", { type: "checkbox", name: "hidden", checked: form.hidden });
      hide.addEventListener("change", () => { form.hidden = hide.checked; });
      controls.push(el("label", { class: "compact" }, t("Place: "), which), el("label", { class: "inline" }, hide, " " + t("place hidden (NPC)")));
      // A background picture under the grid: PNG, JPEG or WebP, checked by the server.
      const file = el("input", { type: "file", name: "background", accept: "image/png,image/jpeg,image/webp", "aria-label": t("Background picture") });
      file.addEventListener("change", () => {
        const chosen = file.files?.[0];
        if (!chosen) return;
        const reader = new FileReader();
        reader.onload = () => {
          const data = String(reader.result).replace(/^data:[^,]*,/, "");
          send({ type: "set_map", grid: rules.grid, background: data });
        };
        reader.readAsDataURL(chosen);
      });
      controls.push(el("label", { class: "compact" }, " " + t("Background picture: "), file));
    } else if (encounter && id) {
      for (const [value, label] of [["move", t("click to move")], ["power", t("click for targets and area")]]) {
        const radio = el("input", { type: "radio", name: "map-click", value, checked: form.mapClick === value });
        radio.addEventListener("change", () => { form.mapClick = value; render(); });
        controls.push(el("label", { class: "inline" }, radio, ` ${label} `));
      }
    }
    return el("section", { class: "mech-map-section", "aria-label": t("Battle map") },
      controls.length ? el("div", { class: "mech-map-controls" }, controls) : null,
      el("div", { class: "mech-map-scroll" }, map));
  }

  // ---------------------------------------------------------------------------- render

  function render() {
    if (!rules) return;
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.getAttribute("name") : null;
    const encounter = rules.encounter;
    const id = encounter ? actingUnit(encounter) : "";
    const own = Object.values(rules.units).filter((u) => answers(u) && !u.out && encounter?.order.some((o) => o.unit === u.id));
    const chooser = !encounter?.turn || !mine(unit(encounter.turn.unit)) ? (own.length > 1 ? (() => {
      const s = el("select", { name: "unit", "aria-label": t("Acting unit") }, own.map((u) => el("option", { value: u.id, selected: u.id === id }, u.name)));
      s.addEventListener("change", () => { form.unit = s.value; render(); });
      return el("label", { class: "compact" }, t("Unit") + " ", s);
    })() : null) : null;
    const sections = [
      header(encounter),
      order(encounter),
      encounter && id ? actionsLeft(encounter, id) : null,
      turnControls(encounter),
      pendingSection(encounter),
      encounter ? moveOpportunities(encounter) : null,
      mapSection(encounter, id),
      encounter && id && !encounter.pending.some((p) => p.unit === id) ? el("section", { class: "mech-act" }, chooser, actionForms(encounter, id)) : null,
      encounter ? facesField(encounter) : null,
      !encounter && isGm() && view.status === "started" ? beginForm() : null,
      encounter && isGm() && !encounter.pending.length ? button(t("End the encounter"), () => send({ type: "end_encounter" }), { class: "mech-end-encounter" }) : null,
    ];
    body.replaceChildren(...sections.filter(Boolean));
    if (focused) body.querySelector(`[name="${CSS.escape(focused)}"]`)?.focus();
  }

  return {
    title: "メカd20",
    update({ view: fresh, game: table }) {
      view = fresh;
      game = table ?? game;
      rules = fresh.rules;
      render();
    },
  };
}
