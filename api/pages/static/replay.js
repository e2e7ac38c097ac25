// The replay page: step through a recorded game as one audience saw it. The log, each event's
// line, what it changed and its roll come from the replay API (/replay, /replay/log,
// /replay/marks) with the same permissions as everywhere: before the end a seat replays as
// itself or as a spectator, the GM as anyone; after the end anyone as anyone.
import { Problem, el, get, showError } from "./api.js";
import { renderLine } from "./logline.js";
import { t } from "./i18n.js";
import { renderValue, statusText, withNames } from "./render.js";

const root = document.getElementById("replay");
const gameId = root.dataset.game;
const $ = (id) => document.getElementById(id);
const PAGE = 10; // events a PageUp / PageDown moves
// A seek asks for what the page shows: the latest secrets of the view (its answer then stays
// the same size however long the game), and the log's window up to the seq.
const SECRETS_SHOWN = 50;

// The marks one jumps between, and the audit's verdicts, in words.
const MARK_NAMES = { rulings: t("ruling"), amendments: t("amendment"), declarations: t("declaration") };
const VERDICTS = { legal: t("legal"), understated: t("understated"), overstated: t("overstated"), unknown: t("unknown") };
// What each check after the end checks (the audit's machine `kind`), in words.
const CHECK_KINDS = { seed: t("seed"), commitment: t("commitment"), draw: t("draw"), roll: t("roll"), draw_numbers: t("draw numbers"), bcdice: t("BCDice") };

const replay = {
  me: null, game: null, audit: null,
  audience: null, seq: 1, last: 1,
  marks: { rulings: [], amendments: [], declarations: [] },
  wanted: null, busy: false, // {seq, audience} asked for while a request is under way
};

// ------------------------------------------------------------------------------ moving

function clamp(seq) {
  return Math.min(Math.max(1, Math.trunc(seq) || 1), replay.last);
}

// Where the reader is going: the seq asked for last, even if it is still being fetched.
const here = () => replay.wanted?.seq ?? replay.seq;

// Seeks are serialised: a slider dragged fast asks for many seqs, only the latest is fetched.
function want(seq, audience) {
  replay.wanted = { seq: clamp(seq), audience };
  showPosition(replay.wanted.seq);
  if (!replay.busy) drain();
}

function seek(seq) {
  want(seq, replay.wanted?.audience ?? replay.audience);
}

function switchPerspective(audience) {
  want(here(), audience);
}

async function drain() {
  replay.busy = true;
  try {
    while (replay.wanted !== null) {
      const { seq, audience } = replay.wanted;
      replay.wanted = null;
      await show(seq, audience);
    }
  } finally {
    replay.busy = false;
  }
}

function showPosition(seq) {
  $("slider").value = String(seq);
  $("seq-input").value = String(seq);
  $("position").textContent = t("of {last}", { last: replay.last });
}

const query = (seq, audience) => `at=${seq}&as=${encodeURIComponent(audience)}`;

// Fetch the frame and the log as `audience` saw them after `seq`, then show both. A refusal
// (another seat before the end) leaves the page as it was and says why.
async function show(seq, audience) {
  let frame, log;
  try {
    [frame, log] = await Promise.all([
      get(`/games/${gameId}/replay?${query(seq, audience)}&secrets=${SECRETS_SHOWN}`),
      get(`/games/${gameId}/replay/log?${query(seq, audience)}`),
    ]);
  } catch (error) {
    if (error instanceof Problem && error.status === 403) {
      showError($("perspective-error"), error);
      $("perspective").value = replay.audience;
      showPosition(replay.seq);
      return false;
    }
    showError($("replay-error"), error);
    return false;
  }
  $("perspective-error").hidden = true;
  replay.seq = seq;
  replay.audience = audience;
  replay.last = frame.last_seq;
  $("slider").max = String(replay.last);
  $("seq-input").max = String(replay.last);
  showPosition(seq);
  $("perspective").value = audience;
  history.replaceState(null, "", `#${query(seq, audience)}`);
  renderLog(log.events, seq);
  renderFrame(frame);
  markAuditRow(seq);
  return true;
}

function jump(name) {
  const seqs = markSeqs(name);
  const next = seqs.find((seq) => seq > here());
  if (next === undefined) {
    $("position").textContent = t("of {last} — no later {mark}", { last: replay.last, mark: MARK_NAMES[name] ?? name });
    return;
  }
  seek(next);
}

function markSeqs(name) {
  const seqs = new Set(replay.marks[name] ?? []);
  if (name === "declarations") for (const check of replay.audit?.declarations ?? []) seqs.add(check.seq);
  return [...seqs].sort((a, b) => a - b);
}

// ------------------------------------------------------------------------------ showing

function renderLog(events, seq) {
  const log = $("log");
  log.replaceChildren(...events.map((event) => {
    const item = renderLine(event);
    if (event.seq === seq) {
      item.classList.add("current");
      item.setAttribute("aria-current", "step");
    }
    return item;
  }));
  const current = log.querySelector(".current");
  if (current) log.scrollTop = current.offsetTop - log.offsetTop - log.clientHeight + current.offsetHeight + 8;
}

function renderFrame(frame) {
  $("event-title").textContent = t("Event #{seq} of {last}", { seq: frame.seq, last: frame.last_seq });
  const line = renderLine({ ...frame.event, line: frame.line });
  line.removeAttribute("id"); // the log already holds #seq-N
  $("event-line").replaceChildren(line);
  const explanation = $("explanation");
  explanation.hidden = !frame.explanation;
  explanation.replaceChildren(el("span", { class: "hint" }, t("Roll: ")), el("code", {}, frame.explanation ?? ""));
  $("changes").replaceChildren(renderChanges(frame));
  renderRulesetFrame(frame);
  $("view-title").textContent = t("The view at this event, as {audience}", { audience: audienceName(frame.audience) });
  $("view").replaceChildren(renderValue({
    status: frame.view.status,
    rules: named(frame.view.rules),
    // each secret by its number (the log line says what it is), never its event type's name
    secrets: frame.view.secrets.map((s) => ({ seq: s.seq, revealed: s.revealed, body: named(s.body) })),
    ...(frame.secrets_total > frame.view.secrets.length
      ? { secrets_shown: t("the latest {shown} of {total}", { shown: frame.view.secrets.length, total: frame.secrets_total }) } : {}),
  }));
}

// A ruleset's pane may draw its part of a frame (panes/README.md: `renderFrame(rules)`), e.g.
// メカd20's battle map as this audience saw it at this event.
async function renderRulesetFrame(frame) {
  const box = $("ruleset-frame");
  const id = replay.game.ruleset;
  if (!box || !(root.dataset.panes ?? "").split(" ").includes(id)) return;
  replay.paneModule ??= import(`./panes/${id}.js`).catch(() => null);
  const drawn = (await replay.paneModule)?.renderFrame?.(frame.view.rules, frame.audience) ?? null;
  box.replaceChildren(...(drawn ? [drawn] : []));
  box.hidden = !drawn;
}

function renderChanges(frame) {
  if (frame.seq === 1) return el("p", { class: "hint" }, t("The game is created: everything starts here."));
  // the secrets are in the view below by their numbers: not again as their fields
  const changes = frame.changes.filter((c) => c.path !== "seq" && c.path !== "head" && c.path.split(".")[0] !== "secrets");
  if (!changes.length) return el("p", { class: "hint" }, t("Nothing {audience} could see changed.", { audience: audienceName(frame.audience) }));
  return el("div", { class: "table-scroll" }, el("table", { class: "view changes" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("what")), el("th", { scope: "col" }, t("before")), el("th", { scope: "col" }, t("after")))),
    el("tbody", {}, changes.map((change) => el("tr", {},
      el("td", { class: "path" }, change.path.replaceAll("_", " ").replaceAll(".", " › ")),
      el("td", {}, renderValue(named(change.before), 2)),
      el("td", {}, renderValue(named(change.after), 2)))))));
}

function seqButton(seq) {
  return el("button", { type: "button", class: "seq-link", dataset: { seq }, title: t("Go to event {seq}", { seq }) }, `#${seq}`);
}

function renderAudit(report) {
  const verdict = { clean: t("CLEAN"), problems: t("PROBLEMS"), unfinished: t("UNFINISHED") }[report.verdict] ?? report.verdict;
  const parts = [
    el("p", {}, el("span", { class: `verdict verdict-${report.verdict}` }, verdict)),
    el("ul", { class: "plain" }, report.summary.map((text) => el("li", {}, text))),
  ];
  const problems = [];
  const chain = report.verification.chain;
  if (!chain.ok) problems.push({ seq: chain.first_bad_seq, what: t("the chain"), problem: chain.problem });
  for (const check of report.verification.secrets?.checks ?? []) {
    if (!check.ok) problems.push({ seq: check.seq, what: `${CHECK_KINDS[check.kind] ?? check.kind}: ${check.what}`, problem: check.problem });
  }
  for (const check of report.declarations) {
    if (check.verdict === "overstated") problems.push({ seq: check.seq, what: check.what, problem: t("declared above the truth") });
  }
  if (problems.length) {
    parts.push(el("h3", {}, t("Problems")), el("ul", { class: "problems" }, problems.map((p) =>
      el("li", {}, p.seq ? seqButton(p.seq) : null, ` ${p.what}: ${p.problem ?? ""}`))));
  }
  if (report.declarations.length) {
    parts.push(el("h3", {}, t("Declarations beside the truth")), el("div", { class: "table-scroll" },
      el("table", { class: "view audit-declarations" },
        el("thead", {}, el("tr", {}, [t("event"), t("who"), t("what"), t("declared"), t("truth"), t("verdict")].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, report.declarations.map((d) => el("tr", { class: `verdict-${d.verdict}`, dataset: { seq: d.seq } },
          el("td", {}, seqButton(d.seq)),
          el("td", {}, actorName(d.actor)),
          el("td", {}, d.what),
          el("td", {}, renderValue(d.declared, 2)),
          el("td", {}, renderValue(d.truth, 2)),
          el("td", {}, (VERDICTS[d.verdict] ?? d.verdict) + (d.note ? ` — ${d.note}` : ""))))))));
  }
  if (report.rulings.length) {
    parts.push(el("h3", {}, t("Rulings and amendments")), el("div", { class: "table-scroll" },
      el("table", { class: "view audit-rulings" },
        el("thead", {}, el("tr", {}, [t("event"), "", t("on"), t("text"), t("change")].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, report.rulings.map((r) => el("tr", { dataset: { seq: r.seq } },
          el("td", {}, seqButton(r.seq)),
          el("td", {}, r.kind === "ruling" ? t("ruling") : r.kind === "amendment" ? t("amendment") : r.kind),
          el("td", {}, seqButton(r.concerning_seq)),
          el("td", {}, r.text),
          el("td", {}, renderValue(r.change, 2))))))));
  }
  $("audit").replaceChildren(...parts);
  $("audit-pane").hidden = false;
}

function markAuditRow(seq) {
  for (const row of document.querySelectorAll("#audit tr[data-seq]")) {
    row.classList.toggle("current", Number(row.dataset.seq) === seq);
  }
}

function actorName(actor) {
  const seat = replay.game?.seats.find((s) => `seat:${s.seat}` === actor);
  if (seat) return seat.name;
  return { gm: "GM", host: t("Host"), public: t("spectator (public)"), system: t("system") }[actor] ?? actor;
}

const audienceName = actorName;
const named = (value) => withNames(value, actorName);

function renderPerspectives() {
  // a game without a referee has a host (who sees no more than its audience) and no GM
  const chair = replay.game.referee === "host" ? "host" : "gm";
  const audiences = ["public", chair, ...replay.game.seats.map((s) => `seat:${s.seat}`)];
  $("perspective").replaceChildren(...audiences.map((a) => el("option", { value: a }, actorName(a))));
}

// ------------------------------------------------------------------------------ input

const KEYS = {
  ArrowRight: () => here() + 1,
  ArrowLeft: () => here() - 1,
  Home: () => 1,
  End: () => replay.last,
  PageDown: () => here() + PAGE,
  PageUp: () => here() - PAGE,
};

function onKey(event) {
  const target = event.target;
  const typing = target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement ||
    (target instanceof HTMLInputElement && target.type !== "range");
  if (typing || event.altKey || event.ctrlKey || event.metaKey || !(event.key in KEYS)) return;
  event.preventDefault();
  seek(KEYS[event.key]());
}

// A click on a line's #seq, on what a ruling concerns, or on a seq in the report goes there.
function onSeqClick(event) {
  const link = event.target.closest("a.seq, a.concerns, button.seq-link");
  if (!link) return;
  const seq = Number(link.dataset.seq ?? link.getAttribute("href").replace("#seq-", ""));
  if (!Number.isInteger(seq)) return;
  event.preventDefault();
  seek(seq);
}

function wire() {
  document.addEventListener("keydown", onKey);
  root.addEventListener("click", onSeqClick);
  $("first").addEventListener("click", () => seek(1));
  $("back").addEventListener("click", () => seek(here() - 1));
  $("forward").addEventListener("click", () => seek(here() + 1));
  $("last").addEventListener("click", () => seek(replay.last));
  $("slider").addEventListener("input", (event) => seek(Number(event.target.value)));
  $("seq-input").addEventListener("change", (event) => seek(Number(event.target.value)));
  $("perspective").addEventListener("change", (event) => switchPerspective(event.target.value));
  window.addEventListener("hashchange", () => {
    const { at, as } = fromFragment();
    want(at ?? here(), as ?? replay.audience);
  });
  for (const button of document.querySelectorAll("button.jump")) {
    button.addEventListener("click", () => jump(button.dataset.mark));
  }
}

// ------------------------------------------------------------------------------ start

function fromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const at = Number(params.get("at"));
  return { at: Number.isInteger(at) && at > 0 ? at : null, as: params.get("as") };
}

async function main() {
  try {
    replay.me = await get(`/games/${gameId}/session`);
  } catch (error) {
    showError($("replay-error"), error.code === "token_required" || error.code === "bad_session"
      ? t("You are not signed in at this table. Open your invite link (ask the GM for a new one if it was used).")
      : error);
    return;
  }
  $("whoami").textContent = replay.me.actor === "public" ? t("spectator") : replay.me.name;
  try {
    replay.game = await get(`/games/${gameId}`);
    replay.marks = await get(`/games/${gameId}/replay/marks`);
  } catch (error) {
    showError($("replay-error"), error);
    return;
  }
  $("game-title").textContent = replay.game.title;
  document.title = t("{title} — replay — Kiroku", { title: replay.game.title });
  $("game-status").textContent = statusText(replay.game.status);
  replay.last = replay.game.last_seq;
  replay.audience = replay.me.actor;
  renderPerspectives();
  wire();
  if (replay.game.status === "ended") {
    try {
      replay.audit = await get(`/games/${gameId}/audit`);
      renderAudit(replay.audit);
    } catch (error) {
      showError($("replay-error"), error);
    }
  }
  const start = fromFragment();
  const seq = clamp(start.at ?? replay.last);
  if (!(start.as && start.as !== replay.audience && await show(seq, start.as))) await show(seq, replay.audience);
  root.dataset.ready = "true";
}

main();
