// メカd20: what the game waits on this reader for (waiting.js, panes/README.md), read from the
// reader's own /view. A seat answers for its own units, the GM for its NPCs: the waiting
// power's rolls (or its resolution), then the turn's unit, then the unit whose turn is up.
// Defences are numbers here, not answers, and an opportunity or immediate power is offered,
// never awaited. The controls are the pane's (mech_d20.js).
export function awaiting(view, reader) {
  const { units = {}, encounter = null } = view.rules ?? {};
  if (!encounter) return null;
  const owner = reader.gm ? "gm" : reader.actor;
  const own = (id) => units[id]?.owner === owner;
  const name = (id) => units[id]?.name ?? "";
  const top = encounter.pending[encounter.pending.length - 1];
  if (top) {
    if (!own(top.unit)) return null;
    const [what, at] = !top.attack ? ["resolve", ".mech-resolve"]
      : top.stage === "declared" ? ["attack_roll", ".mech-roll-attack"] : ["damage_roll", ".mech-roll-damage"];
    return { key: `power:${top.seq}:${top.stage}`, kind: what, name: name(top.unit), at };
  }
  const turn = encounter.turn?.unit;
  if (turn && own(turn)) {
    return { key: `turn:${encounter.round}:${turn}`, kind: "turn", name: name(turn), at: ".mech-act, .mech-end" };
  }
  if (!turn && encounter.up && own(encounter.up)) {
    return { key: `up:${encounter.round}:${encounter.up}`, kind: "start_turn", name: name(encounter.up), at: ".mech-start" };
  }
  return null;
}
