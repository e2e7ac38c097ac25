// The session log's verifier: docs/reference/verification.md, in the reader's browser, with Web Crypto.
// It reads the archive the file embeds (the game's envelopes, gzipped and base64-encoded),
// recomputes the hash chain, every revealed secret against its commitment and — after the end —
// the seed and every die, deal and shuffle, and says what each line must read (who says it, and
// for the events whose line is their own words, what). It runs in a Web Worker
// (`listenAsWorker`), reporting its progress; sessionlog.js shows it. No network.
import { canonical, hmacSha256, sha256, sha256HexNow, toHexString, utf8 } from "./jcs.js";

const ENVELOPE = ["game_id", "seq", "type", "actor", "at", "public", "sealed", "prev_hash"];
const ENVELOPE_KEYS = [...ENVELOPE].sort(); // as canonical() orders them
const ENVELOPE_HEADS = ENVELOPE_KEYS.map((key, i) => `${i ? "," : ""}${JSON.stringify(key)}:`);
// On the page's own thread (a short log, sessionlog.js; a long one where no worker started),
// the check pauses once it has worked BUDGET ms since its start or its last pause (looked at
// every CHUNK events or draws), so the page answers the reader and paints; a worker needs
// none, and reports its progress every CHUNK. A short log's whole check is about 0.1 s of
// this thread, cold: in one go it is done before the page's next frame. A pause every 256
// events (as before), or every 50 ms, cost a frame of the page each and, under load, a turn
// of the machine's scheduler: at 1,000 events, paired with a pause every 256, 256 ms became
// 195 (medians of 10; docs/performance.md). The page still scrolls meanwhile (the browser
// scrolls it off this thread).
const inWorker = typeof WorkerGlobalScope !== "undefined";
const CHUNK = inWorker ? 4096 : 256;
const BUDGET = 250; // ms
let worked = 0; // when the check began or last paused (performance.now())
const pause = () => {
  if (inWorker || performance.now() - worked < BUDGET) return null;
  const resumed = globalThis.scheduler?.yield
    ? globalThis.scheduler.yield()
    : new Promise((resolve) => setTimeout(resolve, 0));
  return resumed.then(() => { worked = performance.now(); });
};
const MAX_TEXT = 600; // domain/model/logline.py clips a line's text there

// The file's words in its language: `t("English source {name}", {name})` reads the small
// catalog the file embeds (`kiroku-i18n`: only these scripts' keys, in the exporter's language,
// api/pages/sessionlog.py); the worker is handed it with the archive (`listenAsWorker`). A key
// it lacks reads as its source text.
let catalog = {};
try {
  catalog = JSON.parse(globalThis.document?.getElementById("kiroku-i18n")?.textContent || "{}");
} catch {
  catalog = {};
}

export function t(key, params = {}) {
  const text = catalog[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// The catalog the page read, for its worker.
export function embeddedCatalog() {
  return catalog;
}

class Bad extends Error {
  constructor(seq, why) { super(why); this.seq = seq; }
}

function fromHex(text) {
  if (typeof text !== "string" || !/^[0-9a-f]{64}$/.test(text)) return null;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

// The archive's lines: a header, then {"envelope": …} per event.
export function readArchive(text) {
  const lines = text.split("\n").filter((line) => line.trim());
  const header = JSON.parse(lines[0]);
  const events = lines.slice(1).map((line, i) => {
    try { return JSON.parse(line).envelope; } catch { throw new Bad(i + 1, t("event {seq} cannot be read", { seq: i + 1 })); }
  });
  return { header, events };
}

// Every hash computed here, synchronously (jcs.js): a promise of Web Crypto's per event cost
// more than the hashing.
async function checkChain(events, progress = () => {}) {
  const game = events[0]?.game_id;
  if (typeof game !== "string") throw new Bad(1, t("the record has no first event"));
  let prev = sha256HexNow(`kiroku/genesis/v1:${game}`);
  for (let start = 0; start < events.length; start += CHUNK) {
    const end = Math.min(start + CHUNK, events.length);
    for (let k = start; k < end; k++) {
      const e = events[k];
      const seq = k + 1;
      if (e?.seq !== seq || e.game_id !== game) throw new Bad(seq, t("event {seq} is out of place", { seq }));
      if (e.prev_hash !== prev) throw new Bad(seq, t("#{seq} does not follow #{previous}", { seq, previous: seq - 1 }));
      let unhashed = "{"; // canonical() of the envelope's fields, its keys already in order
      for (let i = 0; i < ENVELOPE_KEYS.length; i++) {
        unhashed += ENVELOPE_HEADS[i] + canonical(e[ENVELOPE_KEYS[i]] ?? null);
      }
      const hash = sha256HexNow(String(e.prev_hash) + unhashed + "}");
      if (hash !== e.hash) throw new Bad(seq, t("#{seq}'s hash does not match its content", { seq }));
      prev = e.hash;
    }
    progress("chain", end, events.length);
    await pause();
  }
}

// Every draw object (docs/reference/verification.md §6): in the public part of every event but reveals,
// and in each revealed body, attributed to the sealed event, with the client seeds then in force.
// And a roll BCDice answered (domain/dice/bcdice.py) shows the faces its draw holds, one per
// randomizer call: a face changed in its result is caught here, one changed in its draw by
// the seed. (That BCDice's text follows from the faces is `kiroku audit`'s re-evaluation.)
// One walk over the value for both.
function findDraws(value, owner, seeds, out, problems) {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) findDraws(value[i], owner, seeds, out, problems);
    return;
  }
  if ("roll" in value && "seeds" in value && "entropy" in value) out.push({ draw: value, owner, seeds });
  if ("system" in value && "expression" in value && value.result && value.draw) {
    const calls = (value.draw.dice ?? []).reduce((n, [count]) => n + Number(count), 0);
    if (canonical(value.result.faces ?? null) !== canonical(value.draw.faces ?? null) || calls !== value.draw.faces?.length) {
      problems.push(new Bad(owner, t("#{seq}: the roll's faces are not the faces drawn for it", { seq: owner })));
    }
  }
  for (const key in value) findDraws(value[key], owner, seeds, out, problems);
}

function stream(sign, game, draw) {
  let block = 0;
  const words = [];
  return (n) => {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      if (!words.length) {
        const message = canonical({ block: block++, entropy: draw.entropy, game, roll: draw.roll, seeds: draw.seeds });
        const mac = new DataView(sign(utf8(message)).buffer);
        for (let offset = 0; offset < 32; offset += 4) words.push(mac.getUint32(offset));
      }
      const word = words.shift();
      if (word < limit) return word % n;
    }
  };
}

function outcome(sign, game, draw) {
  const uniform = stream(sign, game, draw);
  if ("faces" in draw) {
    const faces = [];
    for (const [count, sides] of draw.dice) {
      for (let i = 0; i < count; i++) faces.push(uniform(sides) + 1);
    }
    return canonical(faces) === canonical(draw.faces);
  }
  const order = [...Array(draw.shuffle).keys()];
  for (let i = draw.shuffle - 1; i > 0; i--) {
    const j = uniform(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return canonical(order) === canonical(draw.order);
}

// After the chain holds: reveals, and after the end the seed and every draw. Every problem is
// collected; the first (lowest seq) is the one reported.
async function checkSecrets(events, problems, progress = () => {}) {
  const game = events[0].game_id;
  const reveals = new Map();
  for (const r of events) {
    if (r.type !== "Revealed") continue;
    const of = r.public?.of_seq;
    const target = events[of - 1];
    if (!target?.sealed || reveals.has(of)) { problems.push(new Bad(r.seq, t("#{seq} reveals #{of}, which holds no secret to reveal", { seq: r.seq, of }))); continue; }
    reveals.set(of, r);
    if (sha256HexNow(String(r.public.salt) + canonical(r.public.body)) !== target.sealed.commitment) {
      problems.push(new Bad(r.seq, t("#{seq}: the reveal of #{of} does not match its commitment", { seq: r.seq, of })));
    }
  }
  const ended = events.some((e) => e.type === "GameEnded");
  if (!ended) return { ended, reveals: reveals.size, draws: 0 };
  const seedReveal = reveals.get(1);
  const seed = fromHex(seedReveal?.public.body?.server_seed);
  if (!seed || toHexString(sha256(seed)) !== events[0].public.server_seed_hash) {
    problems.push(new Bad(seedReveal?.seq ?? 1, t("the revealed dice seed does not match the hash published at #1")));
    return { ended, reveals: reveals.size, draws: 0 };
  }
  const draws = [];
  const clientSeeds = new Map();
  let seeds = canonical([]);
  for (const e of events) {
    if (e.type === "SeatJoined" && e.public.client_seed) {
      clientSeeds.set(e.public.seat, e.public.client_seed);
      seeds = canonical([...clientSeeds.keys()].sort((a, b) => a - b).map((s) => clientSeeds.get(s)));
    }
    if (e.type !== "Revealed") findDraws(e.public, e.seq, seeds, draws, problems);
    if (!e.sealed) continue;
    const reveal = reveals.get(e.seq);
    if (!reveal) problems.push(new Bad(e.seq, t("#{seq}'s secret was never revealed", { seq: e.seq })));
    else findDraws(reveal.public.body, e.seq, seeds, draws, problems);
  }
  const sign = hmacSha256(seed);
  draws.sort((a, b) => a.draw.roll - b.draw.roll);
  draws.forEach(({ draw, owner, seeds }, i) => {
    if (draw.roll !== i + 1) problems.push(new Bad(owner, t("#{seq}: draw {draw} where draw {due} was due", { seq: owner, draw: draw.roll, due: i + 1 })));
    if (canonical(draw.seeds) !== seeds) problems.push(new Bad(owner, t("#{seq}: draw {draw} does not use the seats' client seeds", { seq: owner, draw: draw.roll })));
  });
  for (let start = 0; start < draws.length; start += CHUNK) {
    for (const { draw, owner } of draws.slice(start, start + CHUNK)) {
      let ok;
      try { ok = outcome(sign, game, draw); } catch { ok = false; }
      if (!ok) problems.push(new Bad(owner, t("#{seq}: draw {draw} does not follow from the dice seed", { seq: owner, draw: draw.roll })));
    }
    progress("draws", Math.min(start + CHUNK, draws.length), draws.length);
    await pause();
  }
  return { ended, reveals: reveals.size, draws: draws.length };
}

const clip = (text) => {
  if (text.length <= MAX_TEXT) return text; // no more code points than UTF-16 units
  const points = Array.from(text);
  return points.length <= MAX_TEXT ? text : points.slice(0, MAX_TEXT - 1).join("") + "…";
};

// The text the log shows for the events whose line is their own words (domain/model/logline.py);
// null where the line is the ruleset's description (not re-derived here).
function expectedText(e) {
  const p = e.public ?? {};
  switch (e.type) {
    case "Said": return typeof p.text === "string" ? p.text : null;
    case "Declared": return String(p.text ?? "");
    case "RulingMade": return t("裁定 (#{seq}): {text}", { seq: p.concerning_seq, text: p.text ?? "" });
    case "Amended": return t("訂正 (#{seq}): {text}", { seq: p.concerning_seq, text: p.reason ?? "" });
    case "DiceRolled": {
      // ココフォリア's roll line: the command as typed (its comment after it), then the result
      // (api/pages/sessionlog.py, cocofolia_roll_text).
      const roll = p.roll;
      if (!roll?.expression) return null;
      let text = String(roll.expression);
      if (roll.comment) text += ` ${roll.comment}`;
      if (roll.result?.explanation) text += ` ${roll.result.explanation}`;
      if (roll.manual) text += ` ${t("(manual dice)")}`;
      return text;
    }
    default: return null;
  }
}

// Who says a line: the name it was said under, else the seat's name (「席N」 in the file's
// language where the seat has none, as api/pages/sessionlog.py writes it), "GM", the host or
// "System" (domain/model/logline.py), with the seats' names as the record has them last.
function speakers(events) {
  const names = new Map((events[0]?.public?.seats ?? []).map((s) => [`seat:${s.seat}`, s.name]));
  for (const e of events) {
    if (e.type === "SeatJoined" && e.public?.name) names.set(`seat:${e.public.seat}`, e.public.name);
  }
  names.set("gm", "GM");
  names.set("host", t("Host")); // a game without a referee: its host (domain/model/logline.py)
  names.set("system", t("System"));
  const unnamed = (actor) => {
    const seat = /^seat:(\d+)$/.exec(actor ?? "");
    return seat ? t("席{seat}", { seat: Number(seat[1]) }) : actor;
  };
  const own = (e) => String(e.public?.speaker || names.get(e.actor) || unnamed(e.actor));
  // A reveal reads as the line it reveals, said by whoever said that one (logline.py); not
  // the dice seed's (#1), nor a second reveal of the same event.
  const revealer = new Map(movedReveals(events).map(([reveal, of]) => [reveal, events[of - 1]]));
  return (e) => own(revealer.get(e.seq) ?? e);
}

// The first reveal of each sealed event but the dice seed: [reveal's seq, the seq it reveals].
export function movedReveals(events) {
  const moved = [];
  const done = new Set();
  for (const e of events) {
    const of = e?.type === "Revealed" ? e.public?.of_seq : null;
    if (Number.isInteger(of) && of > 1 && of < e.seq && events[of - 1]?.sealed && !done.has(of)) {
      done.add(of);
      moved.push([e.seq, of]);
    }
  }
  return moved;
}

// The seq of each line, in the file's order: the events' in seq order, except that each of
// `moved`'s reveals comes right after the line it reveals (api/pages/sessionlog.py, _lines).
export function lineOrder(count, moved) {
  const after = new Map();
  const away = new Set();
  for (const [reveal, of] of moved) { after.set(of, reveal); away.add(reveal); }
  const order = [];
  for (let seq = 1; seq <= count; seq++) {
    if (away.has(seq)) continue;
    order.push(seq);
    if (after.has(seq)) order.push(after.get(seq));
  }
  return order;
}

// What each line must read, in the file's order (`lineOrder`): its seq, who says it, and
// what it says where the line is the event's own words (null where the ruleset describes it).
export function expectations(events) {
  const speakerOf = speakers(events);
  const moved = movedReveals(events);
  const revealing = new Map(moved.map(([reveal, of]) => [reveal, events[of - 1]]));
  const seqs = lineOrder(events.length, moved);
  return {
    seqs,
    speakers: seqs.map((seq) => speakerOf(events[seq - 1])),
    texts: seqs.map((seq) => {
      const e = events[seq - 1];
      const revealed = revealing.get(seq);
      // a reveal's line is the line it reveals: a roll's, from the revealed record
      const expected = revealed
        ? (revealed.type === "DiceRolled" ? expectedText({ type: "DiceRolled", public: { roll: e.public?.body } }) : null)
        : expectedText(e);
      return expected === null ? null : clip(expected).replaceAll("\n", "");
    }),
  };
}

// The lines as handed to a worker: every name and text in one string, with each one's
// length (and the flags) in typed arrays it takes over. As an array of two strings a line,
// the worker built each string anew (200,000 of them at 100,000 lines) once its check was
// done; one string is one copy. `splitLines` reads them back.
export function joinLines({ fields, flags }) {
  const lengths = new Uint32Array(fields.length);
  for (let k = 0; k < fields.length; k++) lengths[k] = fields[k].length;
  return { text: fields.join(""), lengths, flags };
}

export function splitLines({ text, lengths, flags }) {
  const fields = new Array(lengths.length);
  let at = 0;
  for (let k = 0; k < lengths.length; k++) fields[k] = text.slice(at, (at += lengths[k]));
  return { fields, flags };
}

// A line's flags (`packLines`): its body is sealed to the reader, or it lacks its name's or
// its text's span.
export const SEALED = 1;
export const NO_NAME = 2;
export const NO_TEXT = 4;

// The lines as the page shows them, in the file's order (`fields` holds each line's name then
// its text, `flags` each line's flags), against what they must read; problems pushed as Bad.
export function checkLines({ fields, flags }, expected, problems, from = 0) {
  const count = expected.speakers.length;
  for (let k = 0; k < flags.length; k++) {
    const at = from + k; // the line's place; `expected.seqs` names its event
    const seq = expected.seqs?.[at] ?? at + 1;
    if (at >= count) { problems.push(new Bad(at + 1, t("the line #{seq} is not in the record", { seq: at + 1 }))); continue; }
    const text = expected.texts[at];
    if (flags[k] & NO_NAME || fields[2 * k] !== expected.speakers[at]) {
      problems.push(new Bad(seq, t("the line #{seq} does not name who the record says", { seq })));
    } else if (text !== null && !(flags[k] & SEALED) && (flags[k] & NO_TEXT || text !== fields[2 * k + 1])) {
      problems.push(new Bad(seq, t("the line #{seq} does not say what the record says", { seq })));
    }
  }
}

// `head=SEQ:HASH` (the address's fragment, or typed in): what the reader noted during play.
export function parseHead(text) {
  const match = /(?:^|[#&])head=(\d+)(?::|%3A|\s|%20)([0-9a-f]{64})/i.exec(text ?? "");
  return match ? { seq: Number(match[1]), hash: match[2].toLowerCase() } : null;
}

// `hashes`: the events' hashes in order, one a line (`verifyLog`'s).
export function compareHead(hashes, noted) {
  if (!noted) return null;
  const all = hashes ? hashes.split("\n") : [];
  const hash = all[noted.seq - 1];
  if (hash === undefined) return { ok: false, seq: noted.seq, why: t("the noted head #{seq} is missing: this log ends at #{last}", { seq: noted.seq, last: all.length }) };
  if (hash !== noted.hash) return { ok: false, seq: noted.seq, why: t("#{seq} is not the event of the noted head: the log was rewritten", { seq: noted.seq }) };
  return { ok: true, seq: noted.seq, why: t("holds the noted head #{seq}", { seq: noted.seq }) };
}

// The whole check over an archive's text; `progress(phase, done, total)` as it goes. With
// `withExpected`, also what each line must read (`expectations`).
export async function verifyArchive(text, { progress = () => {}, withExpected = false } = {}) {
  const started = performance.now();
  const problems = [];
  let events = [];
  let summary = { ended: false, reveals: 0, draws: 0 };
  try {
    const archive = readArchive(text);
    events = archive.events;
    await checkChain(events, progress);
    const last = events[events.length - 1];
    if (archive.header.events !== events.length || archive.header.head !== last.hash) {
      problems.push(new Bad(Math.min(archive.header.events, events.length + 1) || 1,
        t("the file says it holds {said} events, it holds {held}", { said: archive.header.events, held: events.length })));
    }
    summary = await checkSecrets(events, problems, progress);
  } catch (error) {
    problems.push(error instanceof Bad ? error : new Bad(1, t("the record cannot be read: {error}", { error: error.message })));
  }
  problems.sort((a, b) => a.seq - b.seq);
  const last = events[events.length - 1];
  return {
    ok: !problems.length, problems: problems.map((p) => ({ seq: p.seq, why: p.message })),
    events: events.length, head: last ? { seq: last.seq, hash: last.hash } : null,
    ...summary, elapsedMs: performance.now() - started, hashes: events.map((e) => e?.hash),
    expected: withExpected ? expectations(events) : null,
  };
}

// The archive block's text (base64 of gzip) back to the archive's JSON Lines.
export async function decodeArchive(base64) {
  let bytes;
  if (typeof Uint8Array.fromBase64 === "function") {
    bytes = Uint8Array.fromBase64(base64); // skips the block's newlines
  } else {
    const binary = atob(base64.replace(/\s+/g, ""));
    bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  }
  // Written to the stream directly: a Blob's stream would send the bytes to the browser's
  // process and back. And read here, chunk by chunk: each step is a promise's, so on the
  // page's thread the archive is unpacked before the page renders (a Response's text is
  // handed over in tasks, and the page's first frame came before it).
  const gunzip = new DecompressionStream("gzip");
  const writer = gunzip.writable.getWriter();
  writer.write(bytes).catch(() => {}); // a broken archive fails the read below
  writer.close().catch(() => {});
  const reader = gunzip.readable.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

const PROBLEMS_SENT = 20; // the verdict names the first; a forged file may have one a line

// The whole check of a session log: its archive (the block's base64) and its lines (a promise
// of the page's `packLines`, read meanwhile). `mark(name)` at each step, `progress(phase,
// done, total)` as it goes. The answer is small whatever the log's length (one message from
// a worker): the verdict, the first problems by seq, the events' hashes as one text.
export async function verifyLog(archive, lines, { progress = () => {}, mark = () => {} } = {}) {
  let result;
  worked = performance.now();
  try {
    const text = await decodeArchive(archive);
    mark("unpacked");
    result = await verifyArchive(text, { progress, withExpected: true });
    mark("checked");
  } catch (error) {
    result = { problems: [{ seq: 1, why: t("the record cannot be read: {error}", { error: error.message }) }], events: 0, head: null, hashes: [], expected: null, ended: false, reveals: 0, draws: 0, elapsedMs: 0 };
  }
  const page = await lines;
  const problems = [];
  if (result.expected) {
    checkLines(page, result.expected, problems);
    if (page.flags.length < result.events) {
      const seq = page.flags.length + 1;
      problems.push(new Bad(seq, t("event #{seq} has no line in this log", { seq })));
    }
  }
  mark("lines checked");
  const all = [...result.problems, ...problems.map((p) => ({ seq: p.seq, why: p.message }))];
  all.sort((a, b) => a.seq - b.seq);
  return {
    ok: !all.length, problems: all.slice(0, PROBLEMS_SENT), problemCount: all.length,
    events: result.events, head: result.head, ended: result.ended, reveals: result.reveals,
    draws: result.draws, checkMs: result.elapsedMs, hashes: result.hashes.join("\n"),
  };
}

// In a Web Worker: given {archive, catalog} (the block's base64, the page's words), then {lines} (the page's
// `packLines`, joined: `joinLines`), post {progress} as it goes, then {result, marks} (`verifyLog`'s, and each
// step's [name, time since the epoch]).
export function listenAsWorker() {
  const now = () => performance.timeOrigin + performance.now();
  let linesGiven;
  const lines = new Promise((resolve) => { linesGiven = resolve; });
  globalThis.onmessage = async ({ data }) => {
    if (data.lines) { linesGiven(splitLines(data.lines)); return; }
    catalog = data.catalog ?? {}; // the page's words, for the problems it shows
    const marks = [["archive received", now()]];
    const progress = (phase, done, total) => postMessage({ progress: { phase, done, total } });
    const mark = (name) => marks.push([name, now()]);
    const result = await verifyLog(data.archive, lines, { progress, mark });
    postMessage({ result, marks });
  };
}
