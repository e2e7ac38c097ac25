// "Waiting on you": a banner in the top bar, the page title (「【あなたの番】…」) and the control
// scrolled into view, when the game waits on this reader — an answer, a defence or evasion, a
// roll, a turn. Only this reader's own waits: each ruleset's pane exports `awaiting(rules,
// reader)` (panes/README.md), which reads the /view this reader already holds (redacted by the
// server for this reader), so a seat learns of no one else's wait it could not already see,
// and a spectator is never waited on.
//
// A wait is { key, what, name, at }: `key` tells one wait from the next (the control is scrolled
// to once per new wait, not on every refresh), `kind` one of WHAT below, `name` the character,
// unit or phase it concerns (names as the view gives them), `at` a CSS selector of its control.
import { el } from "./api.js";
import { t } from "./i18n.js";

// What the game waits for, in the rulebooks' words.
const WHAT = {
  turn: (name) => t("{name}'s turn", { name }),
  own_turn: () => t("your turn"),
  teban: (name) => t("{name}'s 手番", { name }),
  start_turn: (name) => t("starting {name}'s turn", { name }),
  phase: (name) => t("the {name}", { name }),
  evade: (name) => t("{name}'s evasion (回避判定)", { name }),
  attack_roll: (name) => t("{name}'s attack roll", { name }),
  damage_roll: (name) => t("{name}'s damage roll", { name }),
  resolve: (name) => t("resolving {name}'s power", { name }),
  critical: (name) => t("the サツバツ・クリティカル表 for {name}", { name }),
  instant_death: (name) => t("applying 『即死!』 to {name}", { name }),
  answer_victory: (name) => t("your answer to {name}'s 勝利宣言", { name }),
  answer_party: (name) => t("your answer to {name}'s party", { name }),
  declare_teleport: () => t("your ESP能力レベル for the teleport"),
  silhouette: () => t("choosing your silhouette card"),
  enter_base: () => t("placing your piece in the 秘密基地"),
  answer_join: (name) => t("your consent to {name}'s 実は参加していたチェック", { name }),
  response: (name) => t("your answer to {name}'s attack (防御・逃避)", { name }),
  sync: (name) => t("your answer to {name}'s attack (同調)", { name }),
  endurance: () => t("your 耐久力 declaration"),
  counter: () => t("your 格闘 counter"),
  discard: () => t("discarding down to your hand limit"),
  continue_combat: () => t("whether you go on with the combat"),
  combat_turn: (name) => t("your combat turn ({name})", { name }),
  aftermath: (name) => t("your {name} after leaving the combat", { name }),
};

const state = {
  awaiting: null, // the ruleset's function, if its pane exports one
  base: document.title,
  wait: null,
  scrolled: null, // the key of the wait last scrolled to
  banner: null,
};

// The ruleset's "who is awaited" function (from its pane module), once it is known.
export function useAwaiting(awaiting) {
  state.awaiting = typeof awaiting === "function" ? awaiting : null;
}

// The page's own title ("{game} — Kiroku"); a wait prefixes it.
export function setBaseTitle(title) {
  state.base = title;
  showTitle();
}

function showTitle() {
  document.title = state.wait ? t("【Your move】{title}", { title: state.base }) : state.base;
}

function bannerNode() {
  if (state.banner) return state.banner;
  const text = el("span", { class: "waiting-text" });
  const show = el("button", { type: "button", class: "waiting-show", onclick: () => scrollTo(state.wait) }, t("Show me"));
  state.banner = el("p", { class: "waiting-banner", id: "waiting-banner", role: "status", hidden: true }, text, " ", show);
  const anchor = document.getElementById("game-status") ?? document.querySelector(".topbar .brand");
  anchor?.after(state.banner);
  return state.banner;
}

// Who reads: never a spectator; the GM answers for the NPCs (panes decide which are its own).
function readerOf(me) {
  const actor = me?.actor ?? "public";
  const seat = /^seat:(\d+)$/.exec(actor);
  return { actor, seat: seat ? Number(seat[1]) : null, gm: actor === "gm", referee: Boolean(me?.referee) };
}

function scrollTo(wait) {
  const node = wait?.at ? document.querySelector(wait.at) : null;
  if (!node) return false;
  for (let fold = node.closest("details"); fold; fold = fold.parentElement?.closest("details")) fold.open = true;
  node.scrollIntoView({ block: "center", behavior: "smooth" });
  return true;
}

// After every fresh /view (and the pane's redraw): what, if anything, waits on this reader.
export function updateWaiting(view, me) {
  const reader = readerOf(me);
  let wait = null;
  if (reader.actor !== "public" && state.awaiting && view?.rules && view.status !== "ended") {
    try { wait = state.awaiting(view, reader) ?? null; } catch { wait = null; }
  }
  state.wait = wait;
  const banner = bannerNode();
  banner.hidden = !wait;
  banner.dataset.kind = wait?.kind ?? "";
  banner.querySelector(".waiting-text").textContent = wait
    ? t("Waiting on you: {what}", { what: (WHAT[wait.kind] ?? (() => wait.kind))(wait.name ?? "") })
    : "";
  showTitle();
  if (wait && wait.key !== state.scrolled && scrollTo(wait)) state.scrolled = wait.key;
  if (!wait) state.scrolled = null;
}
