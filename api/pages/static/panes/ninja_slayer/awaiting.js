// ニンジャスレイヤー: what the game waits on this reader for (waiting.js, panes/README.md), read
// from the reader's own /view. A seat answers for its own characters; the GM for its NPCs and
// the GM's own phases (ターン開始 and ターン終了). The control is the pane's (ninja_slayer.js).
import { called } from "./names.js";

const PHASES = { turn_start: "ターン開始フェイズ", turn_end: "ターン終了フェイズ" };

export function awaiting(view, reader) {
  const { characters = {}, combat = null, hazards = [] } = view.rules ?? {};
  const owner = reader.gm ? "gm" : reader.actor;
  const own = (id) => characters[id]?.owner === owner;
  const name = (id) => (characters[id] ? called(characters, id) : "");
  const escape = (id) => CSS.escape(String(id));

  // 回避: damage declared on one of mine (in a combat, or outside one)
  const damages = combat ? combat.damages : hazards;
  const target = damages.map((d) => d.target).find(own);
  if (target !== undefined) {
    const ids = damages.filter((d) => d.target === target).map((d) => d.id).join(",");
    return { key: `evade:${target}:${ids}`, kind: "evade", name: name(target), at: `.ns-evade[data-character="${escape(target)}"]` };
  }
  if (!combat) return null;
  // an unevaded サツバツ! (its table) and a 『即死!』 row, rolled or applied by their attacker
  const due = (combat.criticals ?? []).find((c) => own(c.attacker));
  if (due) {
    return { key: `critical:${combat.turn}:${due.attacker}:${due.target}`, kind: "critical", name: name(due.target), at: '#ns-actions [data-action="satsubatsu"]' };
  }
  const row = (combat.rows ?? []).find((r) => own(r.attacker));
  if (row) {
    return { key: `sokushi:${combat.turn}:${row.attacker}:${row.target}`, kind: "instant_death", name: name(row.target), at: '#ns-actions [data-action="instant_death"]' };
  }
  // the 手番 of one of mine
  if (combat.actor && own(combat.actor) && !["turn_start", "turn_end"].includes(combat.phase)) {
    return { key: `teban:${combat.turn}:${combat.actor}`, kind: "teban", name: name(combat.actor), at: "#ns-actions" };
  }
  if (reader.gm && PHASES[combat.phase]) {
    return { key: `phase:${combat.turn}:${combat.phase}`, kind: "phase", name: PHASES[combat.phase], at: "#ns-actions" };
  }
  return null;
}
