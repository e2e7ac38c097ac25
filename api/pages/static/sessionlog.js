// The session log's page (api/pages/sessionlog.py). Its lines are ココフォリア's bare
// p elements with only a colour style (so log tools read them), in seq order but for each
// sealed event's reveal, right under its line (`lineOrder`; after the end, folded). Once loaded,
// this lays Kiroku's data on them (`kiroku-lines`: ids, classes, tabs, folds, links) a slice
// at a time, and verifies the log (logverify.js, `verifyLog`: the archive, then each line
// against what it must read) — a long log in a Web Worker, showing its progress — and shows
// the verdict. Its words are the file's language's, through the catalog it embeds (`t`).
import { compareHead, embeddedCatalog, joinLines, lineOrder, NO_NAME, NO_TEXT, parseHead, SEALED, t, verifyLog } from "./logverify.js";


function node(tag, attributes, text) {
  const item = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) item.setAttribute(key, value);
  if (text !== undefined) item.textContent = text;
  return item;
}

// Ids, classes, spoilers folded, links between rulings and their lines: laid on a line when it
// comes near the screen (all at once in a short log). Touching a hundred thousand lines a
// slice at a time would lay the whole page out again after every slice.
const EAGER = 5000; // a log this short is laid out whole at once
const AROUND = 300; // lines laid out on each side of the screen

function layOutLine(line, i, data) {
  const seq = String(data.order[i]);
  line.id = `seq-${seq}`;
  line.dataset.seq = seq;
  line.className = data.classes[data.rows[2 * i + 1]] ?? "line";
  const revealing = data.revealing.get(data.order[i]);
  if (revealing !== undefined && data.folded[revealing]) line.classList.add("revealing"); // folded under it
  for (const [label, target] of data.links[seq] ?? []) {
    if (label === "→") line.append(" ", node("small", { class: "audience" }, `→ ${target}`));
    else if (label === "↪") line.append(" ", node("a", { class: "concerns", href: `#seq-${target}` }, `↪ #${target}`));
    else line.append(" ", node("a", { class: "answered", href: `#seq-${target}` }, `${label} #${target}`));
  }
  const summary = data.folded[seq];
  if (summary) {
    line.classList.add("fold");
    const button = node("button", { type: "button", class: "summary", "aria-expanded": "false" }, summary);
    button.addEventListener("click", () => {
      button.setAttribute("aria-expanded", String(line.classList.toggle("open")));
    });
    line.prepend(button);
  }
}

// The index of the first line at or below the top of the screen (lines of unticked tabs,
// which have no box, are stepped over).
function firstOnScreen(lines) {
  const top = (i) => {
    for (let k = i; k < lines.length && k < i + 64; k++) {
      if (!lines[k].hidden) return lines[k].getBoundingClientRect().bottom;
    }
    return lines[i].getBoundingClientRect().bottom;
  };
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (top(middle) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function layOut(lines, data) {
  const shown = data.tabs.map(([, byDefault]) => byDefault);
  const rows = data.rows;
  const done = new Uint8Array(lines.length);
  const around = (i) => {
    for (let k = Math.max(0, i - AROUND); k < Math.min(lines.length, i + AROUND); k++) {
      if (!done[k]) { done[k] = 1; layOutLine(lines[k], k, data); }
    }
  };
  const apply = () => {
    for (let i = 0; i < lines.length; i++) lines[i].hidden = !shown[rows[2 * i]];
  };
  const nav = document.getElementById("tabs");
  data.tabs.forEach(([name], index) => {
    const box = node("input", { type: "checkbox", id: `tab-${index}`, class: "tab-toggle" });
    box.checked = shown[index];
    box.addEventListener("change", () => { shown[index] = box.checked; apply(); schedule(); });
    const label = node("label", {});
    label.append(box, ` ${name}`);
    nav.append(label, " ");
  });
  if (!shown.every(Boolean)) apply(); // 雑談 is hidden until ticked
  if (lines.length <= EAGER) {
    around(0);
    for (let i = 0; i < lines.length; i++) if (!done[i]) { done[i] = 1; layOutLine(lines[i], i, data); }
    return { show: () => {} };
  }
  let frame = 0;
  function schedule() {
    if (frame) return;
    frame = requestAnimationFrame(() => { frame = 0; around(firstOnScreen(lines)); });
  }
  addEventListener("scroll", schedule, { passive: true });
  addEventListener("resize", schedule);
  // A link to a line (`#seq-N`, or the verdict's): laid out, then shown.
  const show = (seq, scroll = true) => {
    const at = data.place[seq];
    const line = lines[at];
    if (!line) return;
    around(at);
    if (scroll) line.scrollIntoView({ block: "center" });
  };
  addEventListener("hashchange", () => {
    const seq = Number(/^#seq-(\d+)$/.exec(location.hash)?.[1]);
    if (seq) show(seq);
  });
  const linked = Number(/^#seq-(\d+)$/.exec(location.hash)?.[1]);
  if (linked) show(linked);
  else around(0);
  schedule();
  return { show };
}

// The verifier's worker, started early by the file's head (logstart.js: only for a long log,
// where it can start), handed the archive at once (its check runs while the page lays out
// and reads its lines); null where there is none or it failed. `verify(lines)` hands it the
// lines and answers its verdict.
function startWorker(archive, onProgress, mark) {
  const early = globalThis.kirokuEarlyWorker;
  if (!early || early.failed) return null;
  const worker = early.worker;
  mark("worker created", early.createdAt); // before this script: while the file was read
  const answer = new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if (data.progress) onProgress(data.progress);
      if (data.result) {
        worker.terminate();
        mark("result received");
        for (const [name, at] of data.marks) mark(`worker: ${name}`, at - performance.timeOrigin);
        resolve(data.result);
      }
    };
    worker.onerror = (event) => { event.preventDefault?.(); worker.terminate(); reject(event); };
  });
  worker.postMessage({ archive, catalog: embeddedCatalog() });
  mark("archive posted");
  return {
    verify: (lines) => {
      const packed = joinLines(lines);
      worker.postMessage({ lines: packed }, [packed.lengths.buffer, packed.flags.buffer]);
      return answer;
    },
  };
}

// What each line says, read in one go (about 0.2 s at 100,000 lines: read a slice per task,
// each wait for the next task was a paint of the whole long page, and the reading took
// seconds): `fields` each line's name then its text, `flags` whether its body is sealed to
// the reader or it lacks a span (logverify.js, `checkLines`).
function packLines(lines, data) {
  const sealed = data.classes.map((names) => names.split(" ").includes("sealed"));
  const fields = new Array(2 * lines.length);
  const flags = new Uint8Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const spans = lines[i].getElementsByTagName("span"); // the line's own three come first
    fields[2 * i] = spans[1]?.textContent ?? "";
    fields[2 * i + 1] = spans[2]?.textContent ?? "";
    flags[i] = (sealed[data.rows[2 * i + 1]] ? SEALED : 0) | (spans[1] ? 0 : NO_NAME) | (spans[2] ? 0 : NO_TEXT);
  }
  return { fields, flags };
}

// The check's progress on the page: the first report at once, each later one once PACE times
// the last shown one's frame has passed (the latest then; none after `stop`). Every change of
// the page costs a frame, and a frame of a long log's page costs the more the longer it is
// (the browser tracks each line's box for content-visibility): about a second of this
// thread at 110,000 lines, where a report every 4,096 events kept the thread drawing for the
// whole check, beside the worker, and held up the verdict's hand-back until a frame ended.
const PACE = 3;

function showProgress(bar, verdict) {
  let latest = null;
  let timer = 0;
  let nextAt = 0; // when the next report may be shown (performance.now())
  let stopped = false;
  const paint = () => {
    timer = 0;
    if (stopped || !latest) return;
    const { phase, done, total } = latest;
    latest = null;
    bar.max = total || 1;
    bar.value = done;
    verdict.textContent = phase === "chain"
      ? t("Verifying… the chain: {done} of {total} events", { done, total })
      : t("Verifying… the dice: {done} of {total} draws", { done, total });
    nextAt = Infinity; // until this frame is timed: from its start to the next task
    requestAnimationFrame(() => {
      const begun = performance.now();
      setTimeout(() => {
        const now = performance.now();
        nextAt = now + PACE * (now - begun);
        if (latest && !timer) timer = setTimeout(paint, nextAt - now);
      }, 0);
    });
  };
  return {
    report: (reported) => {
      latest = reported;
      if (timer || nextAt === Infinity) return;
      const wait = nextAt - performance.now();
      if (wait <= 0) paint();
      else timer = setTimeout(paint, wait);
    },
    stop: () => { stopped = true; clearTimeout(timer); },
  };
}

let placeOf = (seq) => seq - 1; // a seq's line (main sets it from the lines' order)

function show(result, noted, lines, view) {
  const verdict = document.getElementById("verdict");
  const head = compareHead(result.hashes, noted);
  const first = result.problems[0];
  const ok = !first && (!head || head.ok);
  // A head the reader noted and this file lacks comes first: it is not the log they saw.
  const bad = head && !head.ok ? head : first ?? null;
  const also = bad === head && first ? ` ${t("Also ✗ #{seq}: {why}.", { seq: first.seq, why: first.why })}` : "";
  verdict.dataset.state = ok ? "ok" : "bad";
  verdict.dataset.seq = bad ? String(bad.seq) : "";
  const counts = { events: result.events, reveals: result.reveals, draws: result.draws };
  const what = result.ended
    ? t("chain of {events} events, {reveals} reveals, {draws} draws from the revealed seed", counts)
    : t("chain of {events} events, {reveals} reveals (the dice verify after the end)", counts);
  const verified = head
    ? t("✓ Verified: {what}; {head}.", { what, head: head.why })
    : t("✓ Verified: {what}.", { what });
  verdict.textContent = ok ? verified : t("✗ #{seq}: {why}.", { seq: bad.seq, why: bad.why }) + also;
  if (result.head) {
    document.getElementById("head-seq").textContent = `#${result.head.seq}`;
    document.getElementById("head-hash").textContent = result.head.hash;
  }
  document.querySelector(".bad")?.classList.remove("bad");
  const badLine = bad ? lines[placeOf(bad.seq)] : null;
  if (badLine) {
    view.show(bad.seq, false);
    badLine.classList.add("bad");
  }
  document.body.dataset.verified = verdict.dataset.state;
}

async function main() {
  const archive = document.getElementById("kiroku-archive");
  const verdict = document.getElementById("verdict");
  if (!archive || !verdict) return;
  // Timed from here to the verdict shown (the worker's start, the page's layout and reading
  // of its lines and the check all inside): `kirokuVerification.elapsedMs`, and each step's
  // mark (`performance.getEntriesByType("mark")`, also in `phases`).
  const started = performance.now();
  const phases = {};
  const mark = (name, at = performance.now()) => {
    performance.mark(`kiroku: ${name}`, { startTime: at });
    phases[name] = at - started;
  };
  mark("verification started", started);
  const lines = document.querySelectorAll("body > p");
  const able = globalThis.crypto?.subtle && typeof DecompressionStream === "function";
  const bar = node("progress", { id: "verify-progress" });
  const progress = showProgress(bar, verdict);
  const onProgress = progress.report;
  const text = archive.textContent;
  const inWorker = able ? startWorker(text, onProgress, mark) : null;
  const data = JSON.parse(document.getElementById("kiroku-lines").textContent);
  const moved = data.moved ?? [];
  data.order = lineOrder(lines.length, moved); // each line's seq
  data.place = {}; // each seq's line
  data.order.forEach((seq, i) => { data.place[seq] = i; });
  data.revealing = new Map(moved); // a reveal's seq → the seq of the line it is under
  placeOf = (seq) => data.place[seq] ?? seq - 1;
  const view = layOut(lines, data);
  mark("laid out");
  if (!able) {
    verdict.dataset.state = "unavailable";
    verdict.textContent = t("This browser cannot verify here (it needs Web Crypto and DecompressionStream: a recent browser, on a file, https or localhost).");
    return;
  }
  document.getElementById("verify-progress-slot").append(bar);
  verdict.dataset.state = "running";
  verdict.textContent = t("Verifying…");
  const read = packLines(lines, data);
  mark("lines read");
  const here = (found) => verifyLog(text, found, { progress: (phase, done, total) => onProgress({ phase, done, total }), mark });
  let result;
  try {
    result = await (inWorker ? inWorker.verify(read) : here(read));
  } catch {
    result = await here(packLines(lines, data)); // the worker failed: read again (it had them)
  }
  progress.stop();
  bar.hidden = true;
  show(result, parseHead(location.hash), lines, view);
  mark("verdict shown");
  globalThis.kirokuVerification = {
    ok: result.ok, seq: result.problems[0]?.seq ?? null, why: result.problems[0]?.why ?? null,
    events: result.events, draws: result.draws, elapsedMs: performance.now() - started,
    checkMs: result.checkMs, inWorker: Boolean(inWorker), phases,
  };
  addEventListener("hashchange", () => show(result, parseHead(location.hash), lines, view));
  const form = document.getElementById("noted-head");
  form?.addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = form.elements.head.value.trim().replace(/\s+/, ":");
    location.hash = `head=${typed}`;
  });
  if (form) form.hidden = false;
}

main();
