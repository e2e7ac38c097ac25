// ニンジャスレイヤー: what the pane calls a character — the name the log's lines call it by (the
// view's `label`: its name, or a name several characters share with its number, クローンヤクザ(2);
// ruling NS-054), so a row, a button and a line say the same. An unknown id reads as itself.
import { t } from "../../i18n.js";

export function called(characters, id) {
  const c = characters?.[id];
  return c?.label ?? c?.name ?? id ?? "";
}

// A character's kind and status in the rulebook's words (「ボス級の敵」「モブ敵」, 2-11 L137–L145),
// never the view's values (`boss`, `removed`). A mob — or a boss that is not a ninja — that
// drops is 「戦闘不能となり、マップから取り除かれる」 (L137, L145): `removed`.
export function kindWord(kind) {
  const words = { pc: t("PC"), boss: t("Boss"), mob: t("Mob") };
  return words[kind] ?? t("unknown");
}

export function statusWord(status) {
  // 気絶 and 爆発四散 are the rulebook's own words, kept as written in English too
  const words = { active: t("standing"), 気絶: "気絶", 爆発四散: "爆発四散", removed: t("off the map") };
  return words[status] ?? t("unknown");
}
