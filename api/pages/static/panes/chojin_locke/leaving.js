// 5.7 戦闘離脱後の処理 in the pane. Having left a combat by an escape (逃避), the square my piece
// moves to (`escape_to`: a square of my planet, or of the base, other than the combat's). Once
// the combat is over, the leavers who moved play マスの効果発動 → 支援 → 戦闘発生, still as in
// combat, in order from the turn player: who is playing, its phase, the C-cards each still holds
// (counts; mine by name, from my secrets), and for the leaver whose phases they are the button
// that ends each (`aftermath_next`), シートオープン, 改心 and its [支援] abilities and ability cards
// (`use_ability`, `use_ability_card`) in its 支援フェイズ, 「戦闘発生」 in its 戦闘発生フェイズ.
// Text only: names go in as text, never markup.
import { el } from "../../api.js";
import { t } from "../../i18n.js";
import { gated, ownTimed, squareOf, timedPayload } from "./parts.js";

export const AFTERMATH = { square: "マスの効果発動フェイズ", support: "支援フェイズ", combat: "戦闘発生フェイズ" };
const ORDER = ["square", "support", "combat"];
const NEXT = { square: "支援フェイズへ", support: "戦闘発生フェイズへ", combat: "戦闘離脱後の処理を終える" };
const SIZE = 6;

const cmd = (ctx, type, payload = {}) => ctx.send({ type: `chojin_locke.${type}`, ...payload });

// ctx: the combat's (combat.js); shown while my character has left the combat and not moved
export function escapeForm(ctx, fight) {
  const me = ctx.mySeat();
  const self = ctx.rules.players.find((p) => p.seat === me);
  const options = [];
  if (fight.stage === "base") {
    for (let r = 0; r < SIZE; r += 1) {
      for (let c = 0; c < SIZE; c += 1) {
        if (`${r}:${c}` !== fight.square) options.push([`${r}:${c}`, `行${r} 列${c}`]);
      }
    }
  } else if (self?.position) {
    const planet = self.position.planet;
    for (let s = 0; s < SIZE; s += 1) {
      if (`${planet}:${s}` !== fight.square) options.push([`${planet}:${s}`, `惑星${planet} マス${s}${s === 0 ? "（宇宙港）" : ""}`]);
    }
  }
  const where = ctx.remembered(el("select", { name: "escape-to", "aria-label": "移動先" },
    options.map(([value, text]) => el("option", { value }, text))), "escape-to", options[0]?.[0] ?? "");
  const reason = options.length ? null : "コマがボードにありません";
  const go = () => {
    const [a, b] = where.value.split(":").map(Number);
    return cmd(ctx, "escape_to", fight.stage === "base" ? { row: a, col: b } : { square: b });
  };
  return el("div", { class: "locke-prompt locke-escape", role: "group", "aria-label": "戦闘離脱" },
    el("p", {}, t("You left the combat. If you move your piece, the steps after leaving a combat (マスの効果発動 → 支援 → 戦闘発生) follow once the combat ends.")),
    el("div", { class: "locke-form" }, "移動先: ", where, " ", gated(ctx, "移動する", go, reason, { class: "primary", "data-command": "escape_to" })),
    el("p", { class: "hint" }, t("If you do not move, nothing follows your leaving.")));
}

// ctx: { rules, catalog, mySeat, seatName, button, send, errorBox, remembered, numberInput }
export function aftermathSection(ctx) {
  const after = ctx.rules.aftermath;
  if (!after) return null;
  const me = ctx.mySeat();
  const current = after.queue[0];
  const phaseAt = ORDER.indexOf(after.phase);
  const players = ctx.rules.players;
  const self = players.find((p) => p.seat === current);
  const onMySquare = players.filter((p) => p.seat !== current && !["dead", "black_hole"].includes(p.condition)
    && squareOf(p, ctx.rules.stage) !== null && squareOf(p, ctx.rules.stage) === squareOf(self, ctx.rules.stage));

  function myPhase() {
    if (ctx.rules.combat) return [el("p", { class: "hint" }, t("In combat: the steps go on when the combat ends."))];
    const out = [];
    if (after.phase === "square") {
      out.push(el("p", { class: "hint" }, t("マスの効果発動フェイズ: the square you moved to took effect as in a normal turn.")));
    }
    if (after.phase === "support") {
      // l.1131–1133: a combat's support phase — no 勝利宣言, no party dissolution
      out.push(el("p", { class: "hint" }, t("It counts as a 支援フェイズ during a combat (no 勝利宣言, no dissolving a party).")));
      if (self && !self.sheet_open) out.push(el("div", {}, ctx.button("シートオープン", () => cmd(ctx, "open_sheet"), { "data-command": "open_sheet" })));
      if (onMySquare.length && ctx.rules.me?.faction !== "S") {
        const target = ctx.remembered(el("select", { name: "aftermath-convert", "aria-label": t("改心 target") },
          onMySquare.map((p) => el("option", { value: String(p.seat) }, ctx.seatName(p.seat)))), "aftermath-convert", onMySquare[0].seat);
        const level = ctx.numberInput("aftermath-convert-esp", "ESP能力レベル（宣言）", { min: 0, max: 12, value: ctx.rules.me?.stats?.esp_level ?? 0 });
        out.push(el("div", { class: "locke-form" }, "改心: ", target, " ", level.node, " ",
          ctx.button("改心", () => cmd(ctx, "convert", { target: Number(target.value), declared: Number(level.input.value) }), { "data-command": "convert" })));
      }
    }
    if (after.phase === "support") {
      // l.1132–1133 with 5.2 l.968: [支援] abilities and ability cards, each once; l.1120 lets
      // a [通常] one be used here as well as a [戦闘] one (ruling CL-092)
      const support = ownTimed(ctx, "支援", { combat: false });
      if (support.length) {
        const which = ctx.remembered(el("select", { name: "aftermath-support", "aria-label": t("[支援] ability") },
          support.map(([value, text]) => el("option", { value }, text))), "aftermath-support", support[0][0]);
        const use = () => {
          const body = timedPayload(which.value);
          return body.card ? cmd(ctx, "use_ability_card", { card: body.card }) : cmd(ctx, "use_ability", { ability: body.ability });
        };
        out.push(el("div", { class: "locke-form", dataset: { form: "support_ability" } }, t("[支援] 特殊能力 and 能力カード (once each): "), which, " ",
          ctx.button(t("Use"), use, { "data-command": "use_ability" })));
      }
    }
    if (after.phase === "combat") {
      // l.1133–1135: whatever the main action was, a combat may be started here
      const reason = onMySquare.length ? null : "同じマスに他のキャラクターがいません";
      out.push(el("div", {}, gated(ctx, "戦闘発生", () => cmd(ctx, "start_combat"), reason, { "data-command": "start_combat" }),
        onMySquare.length ? el("span", { class: "hint" }, " " + t("On the square: {names}", { names: onMySquare.map((p) => ctx.seatName(p.seat)).join("、") })) : null));
    }
    out.push(el("div", {}, ctx.button(NEXT[after.phase], () => cmd(ctx, "aftermath_next"), { class: "primary", "data-command": "aftermath_next" })));
    return out;
  }

  const kept = !ctx.rules.combat && after.queue.includes(me) ? ctx.rules.me?.combat_hand ?? [] : [];
  return el("section", { class: "locke-aftermath", "aria-label": t("After leaving a combat"), dataset: { phase: after.phase, seat: current } },
    el("h3", {}, t("After leaving a combat: "), el("span", { class: "locke-aftermath-now" }, t("{name}'s {phase}", { name: ctx.seatName(current) + (current === me ? t("(you)") : ""), phase: AFTERMATH[after.phase] ?? after.phase }))),
    el("ol", { class: "locke-aftermath-phases" }, ORDER.map((p, i) => el("li", {
      class: i === phaseAt ? "current" : i < phaseAt ? "done" : "", dataset: { phase: p },
    }, AFTERMATH[p]))),
    el("p", { class: "hint" }, t("Order: "), after.queue.map((s, i) => el("span", { class: s === current ? "current" : "" },
      `${i ? " → " : ""}` + t("{name} ({count} cards)", { name: ctx.seatName(s), count: after.hands[String(s)] ?? 0 }))),
    " · " + t("The ESPパワー spent and the hands stay as they are until the steps are done.")),
    current === me ? el("div", { class: "locke-actions locke-aftermath-mine" }, el("h4", {}, t("Your {phase}", { phase: AFTERMATH[after.phase] ?? after.phase })), myPhase())
      : el("p", { class: "hint" }, t("Waiting for {name}. When everyone is done, the normal turn resumes.", { name: ctx.seatName(current) })),
    kept.length ? el("p", { class: "locke-kept-hand" }, t("Hand kept: "), kept.join("、")) : null,
    ctx.rules.combat ? null : ctx.errorBox);
}
