// The game's dice system (BCDice) on the table page: its name and help text in the top bar,
// and the commands a speaker's palette starts with (docs/reference/dice.md).
import { el, get } from "./api.js";

// Common commands of the most used systems, to start a palette with (a speaker's own
// palette, once saved, replaces them). BCDice's help text lists every command.
const COMMON = {
  DiceBot: ["1D100", "2D6", "1D6", "choice[A,B,C]"],
  Cthulhu7th: ["CC<=50", "CC(1)<=50", "CBR(50,30)", "FAR(10,50,97)", "1D100"],
  Cthulhu: ["CCB<=50", "RESB(10-10)", "CBRB(50,30)", "1D100"],
  "SwordWorld2.5": ["K20+5@10", "2D6+5>=10", "H2D6+5", "1D6"],
  "SwordWorld2.0": ["K20+5@10", "2D6+5>=10", "1D6"],
  ShinobiGami: ["2D6>=5", "ST", "RTT", "ET"],
  Insane: ["2D6>=5", "TVT", "SCT", "ECT"],
  Emoklore: ["3DM<=6", "1DM<=6", "2DM<=6"],
  DoubleCross: ["5DX+2@10", "3DX@10", "1D10"],
  Nechronica: ["1NC", "2NC", "1NA"],
  NinjaSlayer2: ["N4", "E4", "H4", "WS8", "SB"],
  MagicaLogia: ["2D6>=5", "ST", "FT"],
  Satasupe: ["2D6>=7", "SR5", "TAGT"],
};

export function commonCommands(system) {
  return [...(COMMON[system] ?? COMMON.DiceBot)];
}

const shown = new Map(); // system id → its info, fetched once a page
export async function showSystem(game) {
  const id = game.system || "DiceBot";
  try {
    if (!shown.has(id)) shown.set(id, await get(`/systems/${encodeURIComponent(id)}`));
  } catch { return; } // the dice engine is down: the page works without its help
  const info = shown.get(id);
  document.getElementById("game-system").replaceChildren(el("span", {}, `🎲 ${info.name}`));
  document.getElementById("system-help-text").textContent = info.help ?? "";
  document.getElementById("system-help").hidden = false;
}
