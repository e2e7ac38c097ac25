// Small pieces shared by 超人ロック's combat modules (combat.js, leaving.js, obstacles.js).
import { el } from "../../api.js";

export const PHASES = { check: "チェックフェイズ", support1: "支援フェイズ1", main: "主要フェイズ", support2: "支援フェイズ2" };

// Why a control cannot be used now, beside it (the server is the judge: the page disables
// to help, never to enforce).
export function why(reason) {
  return reason ? el("span", { class: "locke-why" }, reason) : null;
}

// A button, disabled with its reason when `reason` is set.
export function gated(ctx, text, onclick, reason, extra = {}) {
  return el("span", { class: "locke-gated" },
    ctx.button(text, onclick, { ...extra, disabled: Boolean(reason), title: reason || undefined }), reason ? " " : null, why(reason));
}

// The square a piece stands on, as the combat names its square ("planet:square" in 惑星編,
// "row:col" in 秘密基地編), or null.
export function squareOf(player, stage) {
  if (!player) return null;
  if (stage === "base") return player.cell ? `${player.cell.row}:${player.cell.col}` : null;
  return player.position ? `${player.position.planet}:${player.position.square}` : null;
}

// My own abilities and ability cards usable at a timing `tag` (「対抗(攻撃)」, 「死亡時」, 「支援」),
// from my secrets and the public catalog: [value, text] pairs, value "ability:NAME" (of my
// sheet) or "card:NAME" (a card of my hand still face down), less those in `used`. `combat`:
// leave out a [通常]-only one (3.1 l.260, not used in combat); [常動] ones are never used.
export function ownTimed(ctx, tag, { used = [], combat = true } = {}) {
  const usable = (tags) => tags.includes(tag) && !tags.includes("常動")
    && !(combat && tags.includes("通常") && !tags.includes("全般") && !tags.includes("戦闘"));
  const out = [];
  for (const a of ctx.rules.me?.sheet?.abilities ?? []) {
    if (usable(a.tags) && !used.includes(a.name)) out.push([`ability:${a.name}`, `${a.name}（特殊能力）`]);
  }
  const me = ctx.rules.players.find((p) => p.seat === ctx.mySeat());
  const open = [...(me?.face_up_abilities ?? [])];
  const seen = new Set();
  for (const name of ctx.rules.me?.ability_cards ?? []) {
    const at = open.indexOf(name);
    if (at >= 0) { open.splice(at, 1); continue; } // face up: used already
    const tags = (ctx.catalog?.ability_cards ?? []).find((c) => c.name === name)?.tags ?? [];
    if (usable(tags) && !used.includes(name) && !seen.has(name)) {
      seen.add(name);
      out.push([`card:${name}`, `${name}（能力カード）`]);
    }
  }
  return out;
}

// {ability} or {card} from an ownTimed value
export function timedPayload(value) {
  const at = value.indexOf(":");
  return value.slice(0, at) === "card" ? { card: value.slice(at + 1) } : { ability: value.slice(at + 1) };
}
