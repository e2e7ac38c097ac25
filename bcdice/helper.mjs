// Kiroku's BCDice helper: one long-lived Node.js process the server owns (domain/adapters/bcdice_engine.py).
//
// It reads JSON lines on stdin and answers each with one JSON line on stdout, in order:
//   {"id", "op": "eval", "version", "system", "command", "words": [u32…]}   a fair roll
//   {"id", "op": "eval", "version", "system", "command", "faces": [int…]}   given faces
//   {"id", "op": "systems", "version"}                                       the list
//   {"id", "op": "info", "version", "system"}                                one system's help
//   {"id", "op": "versions"}                                                 what is installed
// BCDice's randomizer is the only source of faces: each `random(sides)` call takes the next
// face. With "words" (32-bit words of the game's committed stream for the roll's draw
// number, derived by Kiroku from its seed: domain/model/fairness.py) a face is drawn exactly as
// fairness.py's `uniform` does: skip each word >= 2**32 - (2**32 % sides), then word % sides
// + 1. When the words run out the answer is {"more": true} and Kiroku sends more. With
// "faces" each call takes the next face as given (`kiroku roll --faces`, manual dice, the
// audit); too few is {"error"}, and so is too many unless "exact": false; a d10 given 0 is its
// face labelled 0, BCDice's 10 (below). The answer lists every call as [value, sides], in
// order, the value as BCDice's randomizer returns it (1..sides).
// A refusal is {"error", "code", "params"}: `code` names a failure Kiroku knows (faces_short,
// faces_left, faces_range, unknown_system, version_unavailable), `params` its numbers; the
// server words it in the player's language. `error` is English for the server's log only; any
// other exception is code "bcdice_error" with its raw message there.
//
// Several BCDice versions may be installed side by side (npm aliases in package.json, e.g.
// "bcdice-4.9.0": "npm:bcdice@4.9.0"); a request names the version a game started with.
import { createRequire } from "node:module";
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const SPACE = 4294967296;

// version → the folder of an installed package named "bcdice" (under its own name or an alias)
function installed() {
  const found = new Map();
  const modules = join(here, "node_modules");
  for (const name of readdirSync(modules)) {
    try {
      const meta = JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8"));
      if (meta.name === "bcdice" && (name === "bcdice" || !found.has(meta.version))) {
        found.set(meta.version, join(modules, name));
      }
    } catch { /* not a package */ }
  }
  return found;
}

const packages = installed();
const main = JSON.parse(readFileSync(join(here, "node_modules", "bcdice", "package.json"), "utf8")).version;
const engines = new Map(); // version → {bcdice, loader, systems: Map(id → class)}

function engine(version) {
  const wanted = version || main;
  let found = engines.get(wanted);
  if (!found) {
    const folder = packages.get(wanted);
    if (!folder) throw new Failure("version_unavailable", `BCDice ${wanted} is not installed here`, { version: wanted });
    const bcdice = require(folder);
    found = { bcdice, loader: new bcdice.DynamicLoader(), systems: new Map() };
    engines.set(wanted, found);
  }
  return found;
}

// A failure Kiroku knows: its `code`, the numbers its sentence needs (`params`: the server
// reads it in the player's language from its catalogs), and an English `message` for logs.
class Failure extends Error {
  constructor(code, message, params = {}) { super(message); this.code = code; this.params = params; }
}

async function system(version, id) {
  const found = engine(version);
  let loaded = found.systems.get(id);
  if (!loaded) {
    if (!found.loader.listAvailableGameSystems().some((s) => s.id === id)) {
      throw new Failure("unknown_system", `BCDice has no game system ${id}`, { system: id });
    }
    loaded = await found.loader.dynamicLoad(id);
    found.systems.set(id, loaded);
  }
  return loaded;
}

class NeedMore extends Error {}

function randomizer(request, calls) {
  if (Array.isArray(request.faces)) {
    const faces = request.faces;
    return (sides) => {
      if (calls.length >= faces.length) {
        throw new Failure("faces_short", `needs more than the ${faces.length} faces given`, { given: faces.length });
      }
      let value = faces[calls.length];
      // A ten-sided die is labelled 0-9: its "0" is the face BCDice's random(10) returns as
      // 10 (systems that read a d10 as 0-9 turn the 10 into 0 themselves: roll_tens_d10,
      // Cthulhu7th's ones die). BCDice's test data writes that face 0, and so do players
      // entering a physical d10; it is taken, and recorded, as the 10 BCDice's randomizer draws.
      if (value === 0 && sides === 10) value = 10;
      if (!Number.isInteger(value) || value < 1 || value > sides) {
        throw new Failure("faces_range", `face ${calls.length + 1} (${faces[calls.length]}) is not a face of a ${sides}-sided die`,
          { index: calls.length + 1, face: String(faces[calls.length]), sides });
      }
      calls.push([value, sides]);
      return value;
    };
  }
  const words = request.words ?? [];
  let at = 0;
  return (sides) => {
    const limit = SPACE - (SPACE % sides);
    for (;;) {
      if (at >= words.length) throw new NeedMore();
      const word = words[at++];
      if (word < limit) {
        const value = (word % sides) + 1;
        calls.push([value, sides]);
        return value;
      }
    }
  };
}

async function evaluate(request) {
  const GameSystem = await system(request.version, request.system);
  const game = new GameSystem(String(request.command));
  const calls = [];
  const draw = randomizer(request, calls);
  game.randomizer.$random = (sides) => draw(Number(sides));
  let result;
  try {
    result = game.eval();
  } catch (error) {
    if (error instanceof NeedMore || error instanceof Failure) throw error;
    // Opal wraps a JS exception thrown from the randomizer; find ours inside.
    const inner = error?.cause ?? error?.$cause?.();
    if (inner instanceof NeedMore || inner instanceof Failure) throw inner;
    throw error;
  }
  if (Array.isArray(request.faces) && result && request.exact !== false && calls.length !== request.faces.length) {
    throw new Failure("faces_left", `uses ${calls.length} faces, not the ${request.faces.length} given`,
      { used: calls.length, given: request.faces.length });
  }
  if (!result) return { result: null };
  return {
    result: {
      text: result.text,
      secret: result.secret, success: result.success, failure: result.failure,
      critical: result.critical, fumble: result.fumble,
      rands: calls,
    },
  };
}

async function answer(request) {
  switch (request.op) {
    case "eval": return evaluate(request);
    case "systems": {
      const found = engine(request.version);
      const systems = found.loader.listAvailableGameSystems()
        .map((s) => ({ id: s.id, name: s.name, sort_key: s.sortKey, locale: s.locale }));
      return { version: request.version || main, bcdice: found.bcdice.Version, systems };
    }
    case "info": {
      const GameSystem = await system(request.version, request.system);
      return {
        system: GameSystem.ID, name: GameSystem.NAME, sort_key: GameSystem.SORT_KEY,
        help: GameSystem.HELP_MESSAGE,
      };
    }
    case "versions": return { main, versions: [...packages.keys()].sort() };
    default: throw new Failure("bad_request", `unknown op ${request.op}`, { op: String(request.op) });
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
lines.on("line", (line) => {
  queue = queue.then(async () => {
    let request = {};
    let reply;
    try {
      request = JSON.parse(line);
      reply = await answer(request);
    } catch (error) {
      if (error instanceof NeedMore) reply = { more: true };
      else if (error instanceof Failure) reply = { error: error.message, code: error.code, params: error.params };
      else reply = { error: String(error?.message ?? error), code: "bcdice_error" };
    }
    process.stdout.write(JSON.stringify({ id: request.id ?? null, ...reply }) + "\n");
  });
});
lines.on("close", () => { queue.then(() => process.exit(0)); });
