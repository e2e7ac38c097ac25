// A readable rendering of a view's data: objects as definition lists, lists of like objects
// as tables, everything else as text. It shows what the server sent for this reader, no more.
import { el } from "./api.js";
import { t } from "./i18n.js";

// A game's status in words (the server's status ids are not for people).
export function statusText(status) {
  return { setup: t("waiting to start"), started: t("in play"), ended: t("ended") }[status] ?? status;
}

// A field's name in words; where the catalog has those words (a ruleset with no pane of its own
// shows its view here: freeform's "phase"), in the page's language.
const label = (key) => t(String(key).replaceAll("_", " "));

function scalar(value) {
  if (value === null || value === undefined) return el("span", { class: "none" }, "—");
  if (typeof value === "boolean") return el("span", {}, value ? t("yes") : t("no"));
  // an id a ruleset's state holds (teban_start, save_ends) reads as its words from the catalog
  if (typeof value === "string" && /^[a-z]+(?:_[a-z0-9]+)+$/.test(value)) return el("span", {}, t(value.replaceAll("_", " ")));
  return el("span", {}, String(value));
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const ACTOR = /^(?:seat:\d+|gm|host|public|system)$/;
// object → the keys `withNames` made people's names: shown as the players typed them, never
// looked up in the catalog (a seat named 「手番」 or "phase" is not a field's label).
const NAME_KEYS = new WeakMap();

// A value with every actor id in it (a value or a key: seat:1, gm) as `nameOf` names it: the
// generic views show people by name, never by id.
export function withNames(value, nameOf) {
  if (typeof value === "string") return ACTOR.test(value) ? nameOf(value) : value;
  if (Array.isArray(value)) return value.map((item) => withNames(item, nameOf));
  if (value !== null && typeof value === "object") {
    const names = new Set();
    const named = Object.fromEntries(Object.entries(value).map(([key, item]) => {
      if (!ACTOR.test(key)) return [key, withNames(item, nameOf)];
      names.add(nameOf(key));
      return [nameOf(key), withNames(item, nameOf)];
    }));
    if (names.size) NAME_KEYS.set(named, names);
    return named;
  }
  return value;
}

// A key as a heading: a person's name as it is, a field's name in words.
const heading = (owners, key) => (owners.some((o) => NAME_KEYS.get(o)?.has(key)) ? key : label(key));

export function renderValue(value, depth = 0) {
  if (Array.isArray(value)) {
    if (!value.length) return el("span", { class: "none" }, t("none"));
    if (value.every(isPlainObject) && depth < 4) return renderTable(value, depth);
    if (value.every((v) => !isPlainObject(v) && !Array.isArray(v))) {
      return el("span", {}, value.map((v) => (v === null ? "—" : String(v))).join(", "));
    }
    return el("ol", { class: "plain" }, value.map((v) => el("li", {}, renderValue(v, depth + 1))));
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (!entries.length) return el("span", { class: "none" }, "—");
    return el("dl", { class: `view depth-${depth}` },
      entries.flatMap(([key, item]) => [el("dt", {}, heading([value], key)), el("dd", {}, renderValue(item, depth + 1))]));
  }
  return scalar(value);
}

function renderTable(rows, depth) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return el("div", { class: "table-scroll" }, el("table", { class: "view" },
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", { scope: "col" }, heading(rows, c))))),
    el("tbody", {}, rows.map((row) => el("tr", {},
      columns.map((c) => el("td", {}, renderValue(row[c], depth + 1))))))));
}
