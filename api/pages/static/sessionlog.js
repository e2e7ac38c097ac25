// The session log's page (api/pages/sessionlog.py). Its lines are ココフォリア's bare
// p elements with only a colour style (so log tools read them), in seq order but for each
// sealed event's reveal, right under its line (`lineOrder`; after the end, folded). Once loaded,
// this lays Kiroku's data on them (`kiroku-lines`: ids, classes, tabs, folds, links) a slice
// at a time, and starts the verifier (logverify.js) in a Web Worker, showing its progress; then
// checks each line against what it must read, a slice at a time, and shows the verdict.
import { checkLines, compareHead, decodeArchive, lineOrder, parseHead, verifyArchive } from "./logverify.js";


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

// The verifier in a worker (started from a `blob:` of the file's own script), else here.
function verifyInWorker(archive, onProgress) {
  const source = document.getElementById("kiroku-worker")?.textContent;
  if (!source || typeof Worker !== "function") return null;
  let worker;
  try {
    worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  } catch {
    return null;
  }
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if (data.progress) onProgress(data.progress);
      if (data.result) { worker.terminate(); resolve(data.result); }
    };
    worker.onerror = (event) => { event.preventDefault?.(); worker.terminate(); reject(event); };
    worker.postMessage({ archive });
  });
}

async function verifyHere(archive, onProgress) {
  const text = await decodeArchive(archive);
  return verifyArchive(text, { progress: (phase, done, total) => onProgress({ phase, done, total }), withExpected: true });
}

// What each line says ([name, text, sealed]), read in one go (about 0.2 s at 100,000 lines):
// read a slice per task, each wait for the next task was a paint of the whole long page, and
// the reading took seconds.
async function readLines(lines, data) {
  const sealed = data.classes.map((names) => names.split(" ").includes("sealed"));
  const read = new Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const spans = lines[i].getElementsByTagName("span"); // the line's own three come first
    read[i] = [spans[1]?.textContent, spans[2]?.textContent, sealed[data.rows[2 * i + 1]]];
  }
  return read;
}

// Each line against what it must read.
function checkPage(lines, read, result) {
  const problems = [];
  if (!result.expected) return problems;
  checkLines(read, result.expected, problems);
  if (lines.length < result.events) {
    problems.push({ seq: lines.length + 1, message: `event #${lines.length + 1} has no line in this log` });
  }
  return problems.map((p) => ({ seq: p.seq, why: p.message }));
}

let placeOf = (seq) => seq - 1; // a seq's line (main sets it from the lines' order)

function show(result, noted, lines, view) {
  const verdict = document.getElementById("verdict");
  const head = compareHead(result.hashes, noted);
  const first = result.problems[0];
  const ok = !first && (!head || head.ok);
  // A head the reader noted and this file lacks comes first: it is not the log they saw.
  const bad = head && !head.ok ? head : first ?? null;
  const also = bad === head && first ? ` Also ✗ #${first.seq}: ${first.why}.` : "";
  verdict.dataset.state = ok ? "ok" : "bad";
  verdict.dataset.seq = bad ? String(bad.seq) : "";
  const what = result.ended
    ? `chain of ${result.events} events, ${result.reveals} reveals, ${result.draws} draws from the revealed seed`
    : `chain of ${result.events} events, ${result.reveals} reveals (the dice verify after the end)`;
  verdict.textContent = ok
    ? `✓ Verified: ${what}${head ? `; ${head.why}` : ""}.`
    : `✗ #${bad.seq}: ${bad.why}.${also}`;
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
  const data = JSON.parse(document.getElementById("kiroku-lines").textContent);
  const lines = document.querySelectorAll("body > p");
  const moved = data.moved ?? [];
  data.order = lineOrder(lines.length, moved); // each line's seq
  data.place = {}; // each seq's line
  data.order.forEach((seq, i) => { data.place[seq] = i; });
  data.revealing = new Map(moved); // a reveal's seq → the seq of the line it is under
  placeOf = (seq) => data.place[seq] ?? seq - 1;
  const begun = performance.now();
  const phases = {};
  const view = layOut(lines, data);
  phases.laidOut = performance.now() - begun;
  if (!globalThis.crypto?.subtle || typeof DecompressionStream !== "function") {
    verdict.dataset.state = "unavailable";
    verdict.textContent = "This browser cannot verify here (it needs Web Crypto and DecompressionStream: a recent browser, on a file, https or localhost).";
    return;
  }
  const bar = node("progress", { id: "verify-progress" });
  document.getElementById("verify-progress-slot").append(bar);
  verdict.dataset.state = "running";
  verdict.textContent = "Verifying…";
  const onProgress = ({ phase, done, total }) => {
    bar.max = total || 1;
    bar.value = done;
    verdict.textContent = phase === "chain"
      ? `Verifying… the chain: ${done} of ${total} events`
      : `Verifying… the dice: ${done} of ${total} draws`;
  };
  const started = performance.now();
  const text = archive.textContent;
  const read = readLines(lines, data).then((found) => {
    phases.read = performance.now() - begun;
    return found;
  });
  let result;
  try {
    result = await (verifyInWorker(text, onProgress) ?? verifyHere(text, onProgress));
  } catch {
    result = await verifyHere(text, onProgress);
  }
  phases.verified = performance.now() - begun;
  const lineProblems = checkPage(lines, await read, result);
  result.problems = [...result.problems, ...lineProblems].sort((a, b) => a.seq - b.seq);
  result.ok = !result.problems.length;
  bar.hidden = true;
  const elapsedMs = performance.now() - started;
  globalThis.kirokuVerification = {
    ok: result.ok, seq: result.problems[0]?.seq ?? null, why: result.problems[0]?.why ?? null,
    events: result.events, draws: result.draws, elapsedMs, workerMs: result.elapsedMs, phases,
  };
  show(result, parseHead(location.hash), lines, view);
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
