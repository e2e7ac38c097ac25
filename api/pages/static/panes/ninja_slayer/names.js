// ニンジャスレイヤー: what the pane calls a character — the name the log's lines call it by (the
// view's `label`: its name, or a name several characters share with its number, クローンヤクザ(2);
// ruling NS-054), so a row, a button and a line say the same. An unknown id reads as itself.
export function called(characters, id) {
  const c = characters?.[id];
  return c?.label ?? c?.name ?? id ?? "";
}
