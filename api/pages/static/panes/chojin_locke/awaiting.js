// 超人ロック: what the game waits on this reader's seat for (waiting.js, panes/README.md), read
// from the seat's own /view — the prompts addressed to it (勝利宣言, パーティー, テレポート,
// 実は参加していたチェック), its part in the attack under way (同調, 防御・逃避, 耐久力, 格闘), the
// round's end (手札を捨てる, 戦闘の続行), its own combat turn, its phases after leaving a combat,
// its turn, and the set-up steps that wait on it. The host decides for no one: it is waited on
// only at its own seat. The controls are the pane's (chojin_locke.js, chojin_locke/*.js).
import { PHASES } from "./parts.js";
import { AFTERMATH } from "./leaving.js";

export function awaiting(view, reader) {
  const r = view.rules ?? {};
  const seat = reader.seat;
  if (seat === null || !r.players) return null;
  const seatName = (n) => view.seats?.find((s) => s.seat === n)?.name ?? "";
  const self = r.players.find((p) => p.seat === seat);
  const turnNo = r.turn?.number ?? 0;
  if (r.victory?.waiting.includes(seat)) {
    return { key: `victory:${turnNo}:${r.victory.seat}`, kind: "answer_victory", name: seatName(r.victory.seat), at: ".locke-victory" };
  }
  if (r.proposal?.waiting.includes(seat)) {
    return { key: `party:${turnNo}:${r.proposal.leader}`, kind: "answer_party", name: seatName(r.proposal.leader), at: ".locke-prompt:not(.locke-victory)" };
  }
  if (r.turn?.party_teleport?.waiting.includes(seat)) {
    return { key: `teleport:${turnNo}`, kind: "declare_teleport", at: ".locke-prompt:not(.locke-victory)" };
  }
  if (r.stage === "silhouettes" && self && !self.chosen && r.me?.sheet) {
    return { key: `silhouette:${r.deals}`, kind: "silhouette", at: '[data-action="choose_silhouette"]' };
  }
  if (r.stage === "keys" && self?.side === "explorer" && !self.cell && r.entry_order?.[0] === seat) {
    return { key: "enter_base", kind: "enter_base", at: '[data-mode="enter_base"]' };
  }
  const fight = r.combat;
  if (fight) {
    const fighter = fight.fighters.find((f) => f.id === seat) ?? null;
    const fighterName = (id) => {
      const f = fight.fighters.find((x) => x.id === id);
      return f?.seat ? seatName(f.seat) : f?.name ?? "";
    };
    const request = fight.join_request;
    if (request?.waiting.includes(seat)) {
      return { key: `join:${fight.round}:${request.person}`, kind: "answer_join", name: request.person, at: ".locke-join-request" };
    }
    const a = fight.attack;
    if (a?.awaiting === "sync" && a.sync_waiting?.includes(seat)) {
      return { key: `sync:${fight.round}:${a.attacker}:${a.target}`, kind: "sync", name: fighterName(a.attacker), at: ".locke-sync" };
    }
    if (a && a.target === seat && !a.remnant) {
      const prompt = { response: ["response", ".locke-respond"], endurance: ["endurance", ".locke-endurance"], counter: ["counter", ".locke-counter"] }[a.awaiting];
      if (prompt) return { key: `${a.awaiting}:${fight.round}:${a.attacker}`, kind: prompt[0], name: fighterName(a.attacker), at: prompt[1] };
    }
    if (fight.step === "round_end" && fighter) {
      if (fight.discarding.includes(seat)) return { key: `discard:${fight.round}`, kind: "discard", at: ".locke-discard-down" };
      const settled = fight.discarding.length > 0 || Object.values(fight.continuing ?? {}).some(Boolean);
      if (fighter.kind === "character" && !fighter.left && !settled && !(String(seat) in (fight.continuing ?? {}))) {
        return { key: `continue:${fight.round}`, kind: "continue_combat", at: ".locke-continue" };
      }
    }
    if (fight.step === "turns" && fight.current === seat && !a) {
      return { key: `combat-turn:${fight.round}`, kind: "combat_turn", name: PHASES[fight.phase] ?? "", at: ".locke-combat-turn" };
    }
    return null;
  }
  const after = r.aftermath;
  if (after) {
    if (after.queue[0] !== seat) return null;
    return { key: `aftermath:${after.phase}`, kind: "aftermath", name: AFTERMATH[after.phase] ?? "", at: ".locke-aftermath-mine" };
  }
  if (r.turn?.seat === seat && ["planet", "base"].includes(r.stage)) {
    return { key: `turn:${turnNo}`, kind: "own_turn", at: ".locke-my-turn" };
  }
  return null;
}
