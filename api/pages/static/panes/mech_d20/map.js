// メカd20's battle map, drawn from a view (the table's /view or a replay frame) as its reader
// may see it: the grid and its terrain, each unit whose square the reader knows (a hidden NPC
// only for the GM, dashed), hp where the reader reads it, else 半壊/脱落. Highlighted squares
// (legal moves, reach, an area template) and click handlers come from the pane.

const SVG = "http://www.w3.org/2000/svg";
const CELL = 30;
const COLOURS = {
  blocking: "#3b3b3b", difficult: "#d9c7a0", hazardous: "#f2b3a8", square: "#ffffff",
  move: "#bfe8c3", reach: "#c9dcf7", area: "#f7d08a", pc: "#2f6fb5", npc: "#b5362f",
};

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const key = (x, y) => `${x},${y}`;
export const side = (size) => (size === "L" || size === "LL" ? 2 : 1);

// Squares a unit covers, from the view (none if its square is not the reader's to know).
export function squaresOf(u) {
  if (!u?.position) return [];
  const n = side(u.size);
  const out = [];
  for (let dy = 0; dy < n; dy++) for (let dx = 0; dx < n; dx++) out.push([u.position.x + dx, u.position.y + dy]);
  return out;
}

// L18: diagonals count one.
export function distance(a, b) {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]));
}

export function between(as, bs) {
  let best = Infinity;
  for (const a of as) for (const b of bs) best = Math.min(best, distance(a, b));
  return best;
}

function hpText(u) {
  if (typeof u.hp === "number") return `${u.hp}/${u.sheet?.max_hp ?? "?"}`;
  if (u.out) return "脱落"; // as the pane's chip says it
  return u.bloodied ? "半壊" : "";
}

// rules: a mech_d20 view; options: { highlight: Map("x,y" → "move"|"reach"|"area"),
// selected: unit id, targets: Set of ids, onSquare(x, y), onUnit(id) }.
export function drawMap(rules, options = {}) {
  const grid = rules?.grid;
  if (!grid) return null;
  const terrain = new Map();
  for (const [x, y] of grid.difficult) terrain.set(key(x, y), "difficult");
  for (const [x, y] of grid.hazardous) terrain.set(key(x, y), "hazardous");
  for (const [x, y] of grid.blocking) terrain.set(key(x, y), "blocking");
  const highlight = options.highlight ?? new Map();
  const squares = [];
  for (let y = 0; y < grid.height; y++) {
    for (let x = 0; x < grid.width; x++) {
      const kind = terrain.get(key(x, y)) ?? "square";
      const lit = highlight.get(key(x, y));
      squares.push(svg("rect", {
        x: x * CELL, y: y * CELL, width: CELL, height: CELL, class: `mech-square ${kind}${lit ? ` lit-${lit}` : ""}`,
        "data-x": x, "data-y": y, "data-terrain": kind, "data-lit": lit,
        fill: lit && kind !== "blocking" ? COLOURS[lit] : COLOURS[kind], stroke: "#999", "stroke-width": 0.5,
        onclick: options.onSquare ? () => options.onSquare(x, y) : null,
      }, svg("title", {}, `(${x}, ${y})${kind === "square" ? "" : ` ${{ blocking: "障害物", difficult: "移動困難地形", hazardous: "危険な地帯" }[kind]}`}`)));
    }
  }
  const tokens = Object.values(rules.units).filter((u) => u.position).map((u) => {
    const n = side(u.size);
    const { x, y, altitude } = u.position;
    const chosen = options.selected === u.id;
    const targeted = options.targets?.has(u.id);
    const label = u.name.length > 6 ? u.name.slice(0, 6) : u.name;
    return svg("g", {
      class: `mech-token${u.out ? " out" : ""}${u.hidden ? " hidden-unit" : ""}`, "data-unit": u.id,
      onclick: options.onUnit ? (event) => { event.stopPropagation(); options.onUnit(u.id); } : null,
    },
    svg("rect", {
      x: x * CELL + 2, y: y * CELL + 2, width: n * CELL - 4, height: n * CELL - 4, rx: 5,
      fill: u.out ? "#888" : COLOURS[u.kind] ?? "#555", opacity: u.hidden ? 0.55 : 0.9,
      stroke: targeted ? "#f0a000" : chosen ? "#111" : "none", "stroke-width": targeted || chosen ? 3 : 0,
      "stroke-dasharray": u.hidden ? "4 2" : null,
    }),
    svg("text", { x: x * CELL + (n * CELL) / 2, y: y * CELL + 12, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, label),
    svg("text", { x: x * CELL + (n * CELL) / 2, y: y * CELL + 24, "text-anchor": "middle", "font-size": 8, fill: "#fff", class: "mech-token-hp" },
      `${hpText(u)}${altitude ? ` ↑${altitude}` : ""}${u.prone ? " 伏" : ""}`),
    svg("title", {}, `${u.name}${u.hidden ? " (非公開)" : ""}`));
  });
  // The GM's picture under the grid (served by its hash from the game's log).
  const game = document.querySelector("[data-game]")?.dataset.game;
  const picture = rules.background && game ? svg("image", {
    href: `/games/${game}/pictures/${rules.background.sha256}`, x: 0, y: 0, class: "mech-background",
    width: grid.width * CELL, height: grid.height * CELL, preserveAspectRatio: "none",
  }) : null;
  if (picture) for (const square of squares) if (square.getAttribute("data-terrain") === "square") square.setAttribute("fill-opacity", "0.25");
  return svg("svg", {
    class: "mech-map", role: "img", "aria-label": `戦場マップ ${grid.width}×${grid.height}`,
    width: grid.width * CELL, height: grid.height * CELL, viewBox: `0 0 ${grid.width * CELL} ${grid.height * CELL}`,
  }, picture, svg("g", {}, squares), svg("g", {}, tokens));
}

// The squares an area power would cover (areas.py), for highlighting while it is chosen:
// 遠隔範囲 and 爆発 around `origin` (or the user), 噴射 X×X from `origin`, 直線 towards it.
export function template(grid, user, power, origin) {
  const mine = squaresOf(user);
  const out = new Set();
  const inside = (x, y) => x >= 0 && y >= 0 && x < grid.width && y < grid.height;
  const around = (centre, n) => {
    const xs = centre.map((s) => s[0]), ys = centre.map((s) => s[1]);
    for (let x = Math.min(...xs) - n; x <= Math.max(...xs) + n; x++)
      for (let y = Math.min(...ys) - n; y <= Math.max(...ys) + n; y++) if (inside(x, y)) out.add(key(x, y));
  };
  if (power.range === "遠隔範囲") {
    if (origin) around([origin], power.size);
    return out;
  }
  const shape = power.shape ?? "爆発";
  if (shape === "爆発") {
    around(mine, power.size);
    for (const [x, y] of mine) out.delete(key(x, y));
  } else if (shape === "噴射" && origin) {
    for (let i = 0; i < power.size; i++) for (let j = 0; j < power.size; j++) if (inside(origin[0] + i, origin[1] + j)) out.add(key(origin[0] + i, origin[1] + j));
  } else if (shape === "直線" && origin && mine.length) {
    const [sx, sy] = mine[0];
    const dx = Math.sign(origin[0] - sx), dy = Math.sign(origin[1] - sy);
    for (let k = 1; k <= power.size; k++) if (inside(sx + dx * k, sy + dy * k)) out.add(key(sx + dx * k, sy + dy * k));
  }
  return out;
}

// Squares within `reach` of the user (a single-target power's 間合い or 射程).
export function within(grid, user, reach) {
  const out = new Set();
  const mine = squaresOf(user);
  if (!mine.length || !reach) return out;
  for (let x = 0; x < grid.width; x++) for (let y = 0; y < grid.height; y++) {
    if (between(mine, [[x, y]]) <= reach && !mine.some(([a, b]) => a === x && b === y)) out.add(key(x, y));
  }
  return out;
}
