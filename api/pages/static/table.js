// The table page: the live log as a chat, the input box, my pane, the GM (or host) pane and
// the ruleset pane. Everything shown comes from the API as this reader may see it.
import { el, get, post, showError } from "./api.js";
import { commandForm, importedStart, refreshReferences } from "./forms.js";
import { commitmentMatches } from "./jcs.js";
import { lineWords, markVerified, renderLine } from "./logline.js";
import { LogList } from "./loglist.js";
import { renderValue, statusText, withNames } from "./render.js";
import { characterTools, seatStore } from "./seatsettings.js";
import { t, tabName } from "./i18n.js";
import { LiveLog } from "./stream.js";
import { commonCommands, showSystem } from "./system.js";
import { setBaseTitle, updateWaiting, useAwaiting } from "./waiting.js";

// The rulesets in words (the server's ids are not for people); a pane's own title first.
const RULESET_NAMES = {
  freeform: t("Free play (any dice, no ruleset)"), chojin_locke: t("Chojin Locke (card game)"),
  ninja_slayer: t("Ninja Slayer TRPG 2nd edition"), mech_d20: t("Mech d20"),
};
const FIRST_PAGE = 200; // the table opens on the latest lines; older ones load on the way up
const OLDER_PAGE = 500;

const root = document.getElementById("table");
const gameId = root.dataset.game;
const $ = (id) => document.getElementById(id);
// What this browser alone keeps (the head it last saw); speakers, colours and palettes are the
// seat's settings on the server (seatsettings.js), set in main() once the reader is known.
const store = {
  key: (name) => `kiroku:${gameId}:${name}`,
  read(name, fallback) {
    try { return JSON.parse(localStorage.getItem(this.key(name))) ?? fallback; } catch { return fallback; }
  },
  write(name, value) { localStorage.setItem(this.key(name), JSON.stringify(value)); },
};

let settings = null; // the seat's settings (seatsettings.js): speakers, colours, palettes

const table = {
  me: null, game: null, ruleset: null, view: null,
  pane: null, // the ruleset's own pane (static/panes/<id>.js), if it has one
  list: null, // the log (loglist.js): the events as this reader received them, windowed
  filter: "all",
  search: "",
};

// ------------------------------------------------------------------------------ the log

// The GM sees every secret; a host (a game without a referee) has the GM's powers over the
// table — start, end, seats, rulings — but sees only what its own audience may.
function isGm() { return table.me?.actor === "gm"; }
function isReferee() { return Boolean(table.me?.referee); }
function isHostGame() { return Boolean(table.me?.host_game); }

function lineActions() {
  return isReferee() ? { onLineAction: openLineDialog } : {};
}

// Whether a line is shown under the tab filter and the search: on the data, never the DOM.
function passes(event) {
  const line = event.line;
  if (table.filter !== "all" && line.tab !== table.filter && !["phase", "ruling"].includes(line.kind)) return false;
  if (!table.search) return true;
  return [line.text, lineWords(line), line.speaker].some((words) => words.toLowerCase().includes(table.search));
}

function renderEvent(event) {
  return renderLine(event, lineActions());
}

// Older lines than the oldest loaded, when the reader scrolls up to it.
async function loadOlder(firstSeq) {
  const after = Math.max(0, firstSeq - 1 - OLDER_PAGE);
  const page = await get(`/games/${gameId}/events?after=${after}&limit=${firstSeq - 1 - after}`);
  return page.events;
}

// Each event once, in order (stream.js): O(1) here; the DOM follows once a frame.
function showEvent(event) {
  table.list.append(event);
  if (event.type === "Revealed") refreshRevealed(event);
  if (["TabAdded", "GameStarted", "GameEnded", "SeatJoined"].includes(event.type)) refreshGame();
  scheduleViewRefresh();
}

// Once a frame at most: the head this browser has seen, kept for the next visit.
function noteHead() {
  const last = table.list.get(table.list.lastSeq);
  if (last && last.seq !== noteHead.seq) {
    noteHead.seq = last.seq;
    store.write("head", { seq: last.seq, hash: last.hash });
  }
}

// A reveal makes an earlier sealed line readable: fetch it again as this reader now sees
// it, and check the published body against the commitment the log has held all along. (The
// reveal's own line already reads as that line, from the server.) Reveals that come together
// — a game's end reveals every secret at once — are fetched together: a few pages of the
// lines they reveal, not one request each.
const REVEAL_GAP = 32; // lines this close are fetched in one page with those between
const revealsDue = new Map(); // the seq revealed → its reveal, until the next fetch

function refreshRevealed(reveal) {
  const seq = reveal.public.of_seq;
  if (!table.list.get(seq)) return; // not loaded: it loads as this reader now sees it
  if (!revealsDue.size) setTimeout(refreshDue, 50);
  revealsDue.set(seq, reveal);
}

async function refreshDue() {
  const due = new Map(revealsDue);
  revealsDue.clear();
  const seqs = [...due.keys()].sort((a, b) => a - b);
  const runs = [];
  for (const seq of seqs) {
    const run = runs[runs.length - 1];
    if (run && seq - run[1] <= REVEAL_GAP) run[1] = seq; else runs.push([seq, seq]);
  }
  for (const [first, last] of runs) {
    try {
      const page = await get(`/games/${gameId}/events?after=${first - 1}&limit=${last - first + 1}`);
      for (const event of page.events) {
        const reveal = due.get(event.seq);
        if (reveal) await showRevealed(event, reveal);
      }
    } catch { /* the next reload shows them */ }
  }
}

async function showRevealed(event, reveal) {
  const item = table.list.replace(event);
  if (!item) return;
  const matches = await commitmentMatches(event.sealed?.commitment, reveal.public.salt, reveal.public.body);
  if (matches !== null) markVerified(item, matches);
}

function renderTabs() {
  const nav = $("tabs");
  const tabs = ["all", ...table.game.tabs];
  nav.replaceChildren(...tabs.map((tab) => el("button", {
    type: "button", role: "tab", class: "tab", "aria-selected": String(tab === table.filter),
    onclick: () => {
      table.filter = tab;
      renderTabs();
      table.list.refilter();
    },
  }, tab === "all" ? t("All") : tabName(tab))));
  const select = $("tab-select");
  const current = select.value;
  select.replaceChildren(...table.game.tabs.map((tab) => el("option", { value: tab }, tabName(tab))));
  if (table.game.tabs.includes(current)) select.value = current;
}

function setConnection(state) {
  const node = $("connection");
  node.dataset.state = state;
  node.textContent = { live: t("● live"), connecting: t("connecting…"), reconnecting: t("reconnecting…"), offline: t("offline") }[state] ?? state;
}

// ------------------------------------------------------------------------------ the chat box

function speakers() {
  const own = table.me.name ?? table.me.actor;
  return [own, ...settings.read("speakers", []).filter((s) => s !== own)];
}

function renderSpeakers() {
  const select = $("speaker");
  const current = select.value;
  select.replaceChildren(...speakers().map((s) => el("option", { value: s }, s)));
  if (speakers().includes(current)) select.value = current;
  $("color").value = settings.read(`color:${select.value}`, "#222222");
  renderPalette();
}

function renderTo() {
  const options = [el("option", { value: "" }, isHostGame() ? t("everyone (or S for dice)") : t("everyone (or S / Blind for dice)"))];
  if (!isReferee()) {
    options.push(isHostGame()
      ? el("option", { value: "host" }, t("the host (whisper)"))
      : el("option", { value: "gm" }, t("GM only (whisper)")));
  }
  for (const seat of table.game.seats) {
    if (`seat:${seat.seat}` !== table.me.actor) {
      options.push(el("option", { value: `seat:${seat.seat}` }, t("{name} (whisper)", { name: seat.name })));
    }
  }
  // A refresh (someone joins, the game moves on) keeps the recipient the player chose: falling
  // back to "everyone" would send a whisper to the whole table.
  const chosen = $("to").value;
  $("to").replaceChildren(...options);
  if (options.some((option) => option.value === chosen)) $("to").value = chosen;
}

function renderPalette() {
  const speaker = $("speaker").value;
  const saved = settings.read(`palette:${speaker}`, commonCommands(table.game?.system));
  const text = $("chat-text");
  $("palette").replaceChildren(
    ...saved.map((command, index) => el("span", { class: "palette-item" },
      el("button", { type: "button", class: "palette-command", title: t("Put in the box (Enter sends)"),
        onclick: () => { text.value = command; text.focus(); } }, command),
      el("button", { type: "button", class: "palette-remove", "aria-label": t("Remove {command}", { command }),
        onclick: () => { saved.splice(index, 1); settings.write(`palette:${speaker}`, saved); renderPalette(); } }, "×"))),
    el("button", { type: "button", class: "palette-save", title: t("Save the box's text as a button for this speaker"),
      onclick: () => {
        const command = text.value.trim();
        if (command && !saved.includes(command)) { saved.push(command); settings.write(`palette:${speaker}`, saved); renderPalette(); }
      } }, t("+ palette")));
}

async function sendChat(event) {
  event?.preventDefault();
  const form = $("chat");
  const text = $("chat-text").value.trim();
  if (!text) return;
  const speaker = $("speaker").value;
  const body = { type: "say", text, tab: $("tab-select").value };
  if (speaker !== (table.me.name ?? table.me.actor)) body.speaker = speaker;
  const color = $("color").value;
  if (color !== "#222222") body.color = color;
  if ($("to").value) body.to = [$("to").value];
  if ($("secret").checked) body.secret = true;
  if ($("blind").checked) body.blind = true;
  const hint = $("chat-hint");
  hint.hidden = true;
  try {
    const result = await post(`/games/${gameId}/commands`, body);
    $("chat-text").value = "";
    $("secret").checked = $("blind").checked = false;
    if (result.hint) { hint.textContent = result.hint; hint.hidden = false; }
    for (const appended of result.events) live.accept(appended);
  } catch (error) {
    showError(hint, error);
  }
  form.querySelector("textarea").focus();
}

function setUpChat() {
  const form = $("chat");
  form.hidden = false;
  form.addEventListener("submit", sendChat);
  $("chat-text").addEventListener("keydown", (event) => {
    // Enter sends; not while an IME is composing (Japanese input confirms with Enter).
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
      sendChat(event);
    }
  });
  $("speaker").addEventListener("change", renderSpeakers);
  $("color").addEventListener("change", () => settings.write(`color:${$("speaker").value}`, $("color").value));
  $("new-speaker").addEventListener("click", () => {
    const name = prompt(isReferee() ? t("An NPC's name") : t("Your character's name"));
    if (!name?.trim()) return;
    settings.write("speakers", [...new Set([...settings.read("speakers", []), name.trim().slice(0, 40)])]);
    renderSpeakers();
    $("speaker").value = name.trim().slice(0, 40);
    renderPalette();
  });
  renderSpeakers();
  // ココフォリア's clipboard characters, in my pane: an import becomes the chosen speaker.
  settings.onChange(renderSpeakers);
  $("my-characters").replaceChildren(characterTools(gameId, settings, (imported) => {
    if (!imported) return;
    $("speaker").value = imported.name;
    renderSpeakers();
    fillSheetForm(imported);
  }));
  renderTo();
  // A game without a referee has nobody to roll blind for: the server refuses it (no_gm).
  $("blind").closest("label").hidden = isHostGame();
  if (isHostGame()) $("secret").closest("label").title = t("Secret roll: only you see the result until you reveal it");
}

// ------------------------------------------------------------------------------ panes

let viewTimer = null;
function scheduleViewRefresh() {
  clearTimeout(viewTimer);
  viewTimer = setTimeout(refreshView, 150);
}

async function refreshGame() {
  table.game = await get(`/games/${gameId}`);
  $("game-title").textContent = table.game.title;
  setBaseTitle(`${table.game.title} — Kiroku`);
  showSystem(table.game);
  $("game-status").textContent = statusText(table.game.status);
  renderTabs();
  if (table.me.actor !== "public") renderTo();
  if (isReferee()) renderGmPane();
}

// Who an actor id is, by name: a seat's name, GM, the host, the spectators.
function actorLabel(actor) {
  const seat = table.game?.seats.find((s) => `seat:${s.seat}` === actor);
  if (seat) return seat.name;
  return { gm: "GM", host: t("Host"), public: t("spectator (public)"), system: t("system") }[actor] ?? actor;
}

async function refreshView() {
  try {
    table.view = await get(`/games/${gameId}/view`);
  } catch { return; }
  renderMyPane();
  $("rules-view").replaceChildren(renderValue(withNames(table.view.rules, actorLabel)));
  refreshReferences();
  table.pane?.update({ view: table.view, game: table.game });
  updateWaiting(table.view, table.me); // "waiting on you" (waiting.js)
}

// A ruleset with a pane of its own (static/panes/<id>.js, see its README) gets it above the
// generic one, which stays available, folded.
async function mountRulesetPane() {
  const id = table.game.ruleset;
  if (!root.dataset.panes.split(" ").includes(id)) return;
  const module = await import(`./panes/${id}.js`);
  useAwaiting(module.awaiting);
  table.pane = module.mountPane({
    root: $("ruleset-pane-body"), me: table.me, ruleset: table.ruleset,
    isGm, isReferee, get, command: (body, errorBox) => command(body, errorBox),
  });
  $("ruleset-pane-title").textContent = table.pane.title ?? id;
  $("ruleset-pane").hidden = false;
  $("rules-pane").open = false;
}

async function command(body, errorBox) {
  try {
    const result = await post(`/games/${gameId}/commands`, body);
    for (const appended of result.events) live.accept(appended);
    return result;
  } catch (error) {
    if (errorBox) showError(errorBox, error); else alert(error.message);
    return null;
  }
}

function renderMyPane() {
  const body = $("my-pane-body");
  const mine = table.view.secrets.filter((s) => s.audience.includes(table.me.actor) || table.me.actor === "gm");
  const pending = mine.filter((s) => !s.revealed && s.actor === table.me.actor && s.audience.includes(table.me.actor));
  body.replaceChildren(
    el("p", {}, t("You are {name}.", { name: table.me.name ?? table.me.actor })),
    el("h3", {}, t("Secrets I can read")),
    mine.length ? el("ul", { class: "secrets" }, mine.map((s) => el("li", {},
      el("a", { href: `#seq-${s.seq}` }, `#${s.seq}`), s.revealed ? ` ${t("(revealed)")} ` : " ",
      // The log line already says it for people; a ruleset's sheet falls back to its data.
      lineOf(s.seq) ?? renderValue(s.body)))) : el("p", { class: "none" }, t("none yet")),
    el("h3", {}, t("Pending reveals")),
    // what the event is in words (its line), never its type name
    pending.length ? el("ul", {}, pending.map((s) => el("li", {}, el("a", { href: `#seq-${s.seq}` }, `#${s.seq}`), " ",
      lineOf(s.seq) ?? "", " ",
      el("button", { type: "button", onclick: () => command({ type: "reveal", seq: s.seq }) }, t("Reveal to all"))))) :
      el("p", { class: "none" }, t("none")),
  );
}

// The words of the line the log shows for `seq`, if it is in the log yet.
function lineOf(seq) {
  const line = table.list.get(seq)?.line;
  return line ? lineWords(line) : undefined;
}

// The GM pane; in a game without a referee, the host pane: the same powers over the table,
// no eyes on secrets (no new link into a seat that has joined: that seat asks for its own).
function renderGmPane() {
  $("gm-pane").hidden = false;
  const host = isHostGame();
  $("gm-pane-title").textContent = host ? t("Host") : "GM";
  const status = table.game.status;
  const errorBox = el("p", { class: "error", role: "alert", hidden: true });
  const seats = el("ul", { class: "seats" }, table.game.seats.map((seat) => {
    const slot = el("span", { class: "new-link" });
    const own = `seat:${seat.seat}` === table.me.actor;
    const mayLink = !host || !seat.joined || own;
    return el("li", {},
      el("strong", {}, `${seat.seat}. ${seat.name}`), " " + (seat.joined ? t("joined") : t("not joined yet")) + (own ? ` ${t("(you)")}` : "") + " ",
      mayLink ? el("button", { type: "button", onclick: async () => {
        try {
          const invite = await post(`/games/${gameId}/seats/${seat.seat}/invite`);
          slot.replaceChildren(el("input", { readonly: true, value: invite.link, class: "link", "aria-label": t("New link for {name}", { name: seat.name }) }));
        } catch (error) { showError(errorBox, error); }
      } }, t("New link")) : null, " ",
      el("button", { type: "button", onclick: () => command({ type: "revoke_sessions", audience: `seat:${seat.seat}` }, errorBox) }, t("Sign out browsers")),
      slot);
  }));
  // replaceChildren writes a null as the text "null": the host's note is left out, not null
  $("gm-pane-body").replaceChildren(...[
    host ? el("p", { class: "hint", id: "host-note" },
      t("You host a game without a referee: you start and end it, manage seats and make logged rulings, "
      + "but see no one's secrets (only your own seat's, if you play). The server checks every declaration.")) : null,
    el("div", { class: "gm-actions" },
      status === "setup" ? el("button", { type: "button", class: "primary", onclick: () => command({ type: "start" }, errorBox) }, t("Start the game")) : null,
      status !== "ended" ? el("button", { type: "button", onclick: () => {
        const summary = prompt(t("End the game: a summary (every secret and the dice seed will be revealed)"));
        if (summary !== null) command({ type: "end", summary }, errorBox);
      } }, t("End the game")) : null,
      status !== "ended" ? el("button", { type: "button", onclick: () => {
        const name = prompt(t("New tab's name"));
        if (name?.trim()) command({ type: "add_tab", name: name.trim() }, errorBox);
      } }, t("Add a tab")) : null),
    el("h3", {}, t("Seats")), seats, errorBox,
    el("p", { class: "hint" }, t("Rulings and amendments: the ⋯ button on any log line.")),
  ].filter((child) => child !== null));
}

function openLineDialog(event) {
  const dialog = $("line-dialog");
  const form = $("line-form");
  form.reset();
  $("line-dialog-about").textContent = `#${event.seq} ${event.line.speaker}: ${lineWords(event.line)}`;
  const kindSelect = el("select", { name: "kind", "aria-label": t("What to record") },
    el("option", { value: "ruling" }, t("Ruling on this line")),
    el("option", { value: "amend" }, t("Amendment (correct the record)")),
    // only the GM, or the secret's own author, may publish a sealed line
    event.sealed && !event.revealed && (isGm() || event.actor === table.me.actor)
      ? el("option", { value: "reveal" }, t("Reveal its secret")) : null);
  form.querySelector("select[name=kind]")?.remove();
  form.prepend(kindSelect);
  dialog.onclose = async () => {
    if (dialog.returnValue !== "ok") return;
    const text = form.elements.text.value.trim();
    const kind = kindSelect.value;
    if (kind === "reveal") await command({ type: "reveal", seq: event.seq });
    else if (kind === "ruling") await command({ type: "ruling", concerning_seq: event.seq, text });
    else await command({ type: "amend", concerning_seq: event.seq, reason: text });
  };
  dialog.showModal();
}

function rulesForm(c, options = {}) {
  return commandForm(c, { references, onSubmit: (body, errorBox) => command(body, errorBox), ...options });
}

function renderRulesForms() {
  $("rules-pane-title").textContent = t("Rules: {ruleset}", { ruleset: table.pane?.title ?? RULESET_NAMES[table.game.ruleset] ?? table.game.ruleset });
  const forms = table.ruleset.commands.map((c) => rulesForm(c));
  $("rules-forms").replaceChildren(
    el("h3", {}, t("Commands")),
    ...forms.map((form) => el("details", { class: "command" }, el("summary", {}, form.querySelector("h3")?.textContent ?? form.dataset.type), form)));
}

// A character imported from ココフォリア fills the ruleset's sheet form where its labels map
// (the one whose fields most of them fit: 超人ロック's esper, not its obstacle), opened for the
// player to review and send; nothing is sent for them.
function fillSheetForm(character) {
  if (!table.ruleset || !$("rules-forms").children.length) return;
  const [best] = table.ruleset.commands
    .filter((c) => c.form)
    .map((c) => ({ c, start: importedStart(c, character) }))
    .filter(({ start }) => start)
    .sort((a, b) => b.start.fitted - a.start.fitted);
  if (!best) return;
  const old = $("rules-forms").querySelector(`form.command-form[data-type="${CSS.escape(best.c.type)}"]`);
  const details = old?.closest("details.command");
  if (!details) return;
  const filled = rulesForm(best.c, {
    initial: best.start.body,
    note: t("Filled in from {name}'s ココフォリア data: check it, then send.", { name: character.name }),
  });
  old.replaceWith(filled);
  $("rules-pane").open = true;
  details.open = true;
  filled.scrollIntoView({ block: "start" });
}

// Names, never ids: a form's field that refers to someone offers their names (forms.js). The
// one who acts (character, unit, fighter) is one of the reader's own (the GM: anyone); a
// target, attacker or participant anyone the view shows; an owner a seat by its name.
const ACTING = new Set(["character", "unit", "fighter"]);
const OTHERS = new Set(["target", "attacker", "defender", "participants", "characters"]);

function references(name, type) {
  const seats = (value) => table.game.seats.map((seat) => ({ value: value(seat.seat), label: seat.name }));
  if (name === "owner" && type === "string") {
    return isReferee() ? { blank: t("GM (an NPC)"), options: seats((n) => `seat:${n}`) } : { hide: true, options: [] };
  }
  if (name === "seat" && type === "integer") return { options: seats((n) => n) };
  if (!ACTING.has(name) && !OTHERS.has(name)) return null;
  const people = peopleInView(type);
  if (type === "integer" && people.length === 0) return { options: seats((n) => n) };
  const offered = ACTING.has(name) && !isReferee() ? people.filter((p) => p.mine) : people;
  return { options: offered.map(({ value, label }) => ({ value, label })) };
}

// The characters, units and fighters of the ruleset's view, by id, with their names.
function peopleInView(type) {
  const found = new Map();
  const visit = (value) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") {
      const id = value.id;
      const fits = type === "integer" ? Number.isInteger(id) : typeof id === "string";
      if (fits && typeof value.name === "string" && ("owner" in value || "kind" in value || "seat" in value) && !found.has(id)) {
        const mine = value.owner === table.me.actor || (value.seat != null && `seat:${value.seat}` === table.me.actor);
        found.set(id, { value: id, label: value.name, mine });
      }
      Object.values(value).forEach(visit);
    }
  };
  visit(table.view?.rules);
  return [...found.values()];
}

// ------------------------------------------------------------------------------ start

let live;

// The head this browser last saw (kept as events arrive) must still be in the log: the chain
// alone cannot show events deleted from its end, a head noted earlier can. Read before the
// live log overwrites it; checked off the critical path.
async function checkNotedHead(noted) {
  if (!Number.isInteger(noted?.seq) || !/^[0-9a-f]{64}$/.test(noted?.hash ?? "")) return;
  try {
    const report = await get(`/games/${gameId}/verify?seq=${noted.seq}&hash=${noted.hash}`);
    if (report.witness && !report.witness.ok) {
      showError($("table-error"), t("The log has changed since this browser last saw it: {problem}.", { problem: report.witness.problem }));
    }
  } catch { /* /verify answers the same question on demand */ }
}

async function main() {
  try {
    table.me = await get(`/games/${gameId}/session`);
  } catch (error) {
    showError($("table-error"), error.code === "token_required" || error.code === "bad_session"
      ? t("You are not signed in at this table. Open your invite link (ask the GM or host for a new one if it was used).")
      : error);
    setConnection("offline");
    return;
  }
  $("whoami").textContent = table.me.actor === "public" ? t("spectator") : table.me.name;
  checkNotedHead(store.read("head", null));
  const catalog = await get("/rulesets");
  await refreshGame();
  table.ruleset = catalog.rulesets.find((r) => r.id === table.game.ruleset);
  if (table.me.actor !== "public") {
    settings = await seatStore(gameId);
    setUpChat();
  }
  table.list = new LogList($("log"), { render: renderEvent, passes, loadOlder });
  table.list.onFlush = noteHead;
  $("log-search").addEventListener("input", (event) => {
    table.search = event.target.value.trim().toLowerCase();
    table.list.refilter();
  });
  addEventListener("hashchange", () => {
    const seq = Number(/^#seq-(\d+)$/.exec(location.hash)?.[1]);
    if (seq) table.list.reveal(seq);
  });
  // Open on the latest lines: the log is read from FIRST_PAGE events before its head.
  const head = await get(`/games/${gameId}/events?after=0&limit=1`);
  const start = Math.max(0, head.last_seq - FIRST_PAGE);
  table.list.startAt(start + 1);
  live = new LiveLog(gameId, { eventTypes: catalog.event_types, onEvent: showEvent, onState: setConnection, after: start });
  await mountRulesetPane();
  await live.connect();
  await refreshView();
  if (table.me.actor !== "public") renderRulesForms();
  else $("my-pane").hidden = true;
}

main();
