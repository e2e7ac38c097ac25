// A form for any command, generated from its JSON schema (the pydantic model the server
// validates with): nested objects become fieldsets, lists rows to add and remove, maps key/value
// rows, enums choices, numbers their inputs with the schema's bounds. A command that carries a
// sheet also brings its ruleset's form hints (GET /rulesets: `form`, from
// domain/rulesets/<id>/forms.py): the rulebook's labels (catalog keys), starting values, names
// offered for a map's keys, words for id-like choices. An optional part starts absent, with a
// button to add it. The server stays the judge of what is valid (the form does not block on
// the browser's checks: the refusal comes back in words, naming the field by its label), and
// the JSON stays one fold away for those who prefer it.
import { el } from "./api.js";
import { t } from "./i18n.js";

let counter = 0;
const nextId = (stem) => `f-${stem}-${++counter}`;

// The controls that offer names from the page (seats, characters, units, fighters): drawn
// again when the view changes (refreshReferences), keeping what is chosen.
const referenceControls = new Set();
export function refreshReferences() {
  for (const fill of referenceControls) fill();
}

function resolve(schema, root) {
  if (schema?.$ref) return resolve(root.$defs?.[schema.$ref.split("/").pop()] ?? {}, root);
  const options = schema?.anyOf?.filter((s) => s.type !== "null");
  if (options?.length === 1 && options.length < schema.anyOf.length) {
    return { ...resolve(options[0], root), nullable: true, default: schema.default, description: schema.description ?? options[0].description };
  }
  return schema ?? {};
}

const clone = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

// What one command's form knows beyond the schema (all optional).
class Hints {
  constructor(form, suggestions, references) {
    this.labels = form?.labels ?? {};
    this.defaults = form?.defaults ?? {};
    this.keys = form?.keys ?? {};
    this.choices = form?.choices ?? {};
    this.hidden = new Set(form?.hidden ?? []);
    this.suggestions = suggestions ?? {};
    this.references = references ?? (() => null);
  }
  // The names a field that refers to someone may take (a seat, a character, a unit, a
  // fighter), from the page: null if it refers to no one, else { options: [{ value, label }],
  // blank: the words for leaving it out, hide: nothing to choose (the server decides) }.
  refers(name, schema) {
    if (!["string", "integer"].includes(schema.type) || schema.enum) return null;
    return this.references(name, schema.type) ?? null;
  }
  label(path, schema, name) {
    const key = this.labels[path];
    if (key) return t(key);
    return schema.title ? t(schema.title) : name;
  }
  start(path, schema) {
    return clone(path in this.defaults ? this.defaults[path] : schema.default);
  }
  choice(path, value) {
    const word = this.choices[path]?.[value];
    return word ? t(word) : String(value);
  }
}

// A part of the form: its element, and read() → the value to send (undefined: leave it out).
function part(element, read) {
  return { element, read };
}

function field(labelText, control, id, schema) {
  const wrapper = el("label", { for: id, class: "field" }, el("span", {}, labelText), control);
  if (schema.description && !/[A-Za-z]{4}/.test(schema.description)) wrapper.title = schema.description;
  return wrapper;
}

function enumInput(path, s, ctx, { optional, id, name, start }) {
  const values = s.enum ?? [s.const];
  const select = el("select", { id, name, "data-path": path },
    optional ? el("option", { value: "" }, "—") : null,
    values.map((v, index) => el("option", {
      value: String(index),
      selected: start !== undefined && JSON.stringify(v) === JSON.stringify(start),
    }, ctx.hints.choice(path, v))));
  return part(select, () => (select.value === "" ? undefined : values[Number(select.value)]));
}

function scalar(path, name, s, ctx, required, start) {
  const id = nextId(name);
  const optional = !required || s.nullable;
  const label = ctx.hints.label(path, s, name);
  if (s.enum || s.const !== undefined) {
    const made = enumInput(path, s, ctx, { optional: optional && s.default == null, id, name, start });
    return part(field(label, made.element, id, s), made.read);
  }
  const refers = ctx.hints.refers(name, s);
  if (refers?.hide) return part(null, () => undefined);
  if (refers) return reference(path, name, s, ctx, { optional, id, label, start });
  if (s.type === "boolean") {
    const box = el("input", { id, name, type: "checkbox", checked: start === true, "data-path": path });
    // A flag whose default is "not given" (null) is sent only when ticked.
    return part(field(label, box, id, s), () => (s.default === null && !box.checked ? undefined : box.checked));
  }
  if (s.type === "integer" || s.type === "number") {
    const input = el("input", { id, name, type: "number", step: s.type === "integer" ? 1 : "any",
      min: s.minimum, max: s.maximum, value: start ?? "", "data-path": path, inputmode: "numeric" });
    return part(field(label, input, id, s), () => (input.value.trim() === "" ? undefined : Number(input.value)));
  }
  if (s.type === "string") {
    const suggestions = ctx.hints.suggestions[path];
    const input = el("input", { id, name, type: "text", value: start ?? "", "data-path": path,
      list: suggestions ? `${id}-list` : undefined });
    const wrapper = field(label, input, id, s);
    if (suggestions) wrapper.append(el("datalist", { id: `${id}-list` }, suggestions.map((v) => el("option", { value: v }))));
    return part(wrapper, () => (input.value === "" ? undefined : input.value));
  }
  // Anything else (a union of shapes): its JSON, starting empty.
  const area = el("textarea", { id, name, rows: 3, class: "json", spellcheck: "false", "data-path": path });
  return part(field(label, area, id, s), () => {
    if (area.value.trim() === "") return undefined;
    try { return JSON.parse(area.value); } catch { throw new FormError(t("{field} is not valid JSON.", { field: label })); }
  });
}

class FormError extends Error {}

// A field that names someone: a choice of their names (the value sent stays the id the
// server knows); with no one to offer yet, the plain input.
function reference(path, name, s, ctx, { optional, id, label, start }) {
  const number = s.type === "integer";
  const select = el("select", { id, name, "data-path": path, class: "reference" });
  const input = el("input", { id: `${id}-typed`, name, type: number ? "number" : "text", value: start ?? "",
    "data-path": path, hidden: true, "aria-label": label });
  const fill = () => {
    const refers = ctx.hints.refers(name, s) ?? { options: [] };
    const chosen = select.options.length ? select.value : start === undefined ? "" : String(start);
    const blank = optional || refers.blank ? [el("option", { value: "" }, refers.blank ?? "—")] : [];
    select.replaceChildren(...blank, ...refers.options.map((o) => el("option", { value: String(o.value) }, o.label)));
    if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
    const none = refers.options.length === 0 && !refers.blank;
    select.hidden = none;
    input.hidden = !none;
    wrapper.setAttribute("for", none ? input.id : select.id);
  };
  const wrapper = field(label, el("span", { class: "reference-control" }, select, input), id, s);
  fill();
  referenceControls.add(fill);
  return part(wrapper, () => {
    const raw = select.hidden ? input.value.trim() : select.value;
    if (raw === "") return undefined;
    return number ? Number(raw) : raw;
  });
}

function removeButton(onClick, what) {
  return el("button", { type: "button", class: "remove", "aria-label": t("Remove {what}", { what }), onclick: onClick }, "×");
}

// A list: one row per item (each with its remove button), an add button below.
function list(path, name, s, ctx, required, start) {
  const label = ctx.hints.label(path, s, name);
  const items = resolve(s.items ?? {}, ctx.root);
  const refers = ctx.hints.refers(name, items);
  if (refers && !refers.hide) return referenceList(path, name, items, ctx, { required, label, start });
  if (items.enum) {
    // A list of choices (conditions, …): one tick box per choice.
    const ticked = start ?? [];
    const boxes = items.enum.map((v) => {
      const id = nextId(name);
      const box = el("input", { type: "checkbox", id, checked: ticked.includes(v), "data-path": path, value: String(v) });
      return { v, box, element: el("label", { for: id, class: "choice" }, box, ctx.hints.choice(path, v)) };
    });
    const set = el("fieldset", { class: "form-list choices", "data-path": path }, el("legend", {}, label), boxes.map((b) => b.element));
    return part(set, () => {
      const chosen = boxes.filter((b) => b.box.checked).map((b) => b.v);
      return chosen.length || required ? chosen : undefined;
    });
  }
  const rows = [];
  const body = el("div", { class: "form-rows" });
  const set = el("fieldset", { class: "form-list", "data-path": path }, el("legend", {}, label), body);
  const add = (value) => {
    const row = render(path, name, items, ctx, true, value, { inList: true });
    const entry = { row };
    const line = el("div", { class: "form-row" }, row.element, removeButton(() => {
      rows.splice(rows.indexOf(entry), 1);
      line.remove();
    }, label));
    entry.line = line;
    rows.push(entry);
    body.append(line);
  };
  for (const value of start ?? []) add(value);
  set.append(el("button", { type: "button", class: "add", onclick: () => add(undefined) }, t("Add {what}", { what: label })));
  return part(set, () => {
    const values = rows.map((r) => r.row.read()).filter((v) => v !== undefined);
    return values.length || required ? values : undefined;
  });
}

// A list of people (participants, characters…): one tick box per name the page knows.
function referenceList(path, name, items, ctx, { required, label, start }) {
  const set = el("fieldset", { class: "form-list choices", "data-path": path }, el("legend", {}, label));
  const body = el("span", { class: "choices-body" });
  set.append(body);
  let boxes = [];
  const fill = () => {
    const ticked = new Set(boxes.length ? boxes.filter((b) => b.box.checked).map((b) => String(b.value)) : (start ?? []).map(String));
    const refers = ctx.hints.refers(name, items) ?? { options: [] };
    boxes = refers.options.map((o) => {
      const id = nextId(name);
      const box = el("input", { type: "checkbox", id, checked: ticked.has(String(o.value)), "data-path": path, value: String(o.value) });
      return { value: o.value, box, element: el("label", { for: id, class: "choice" }, box, o.label) };
    });
    body.replaceChildren(...boxes.map((b) => b.element));
  };
  fill();
  referenceControls.add(fill);
  return part(set, () => {
    const chosen = boxes.filter((b) => b.box.checked).map((b) => b.value);
    return chosen.length || required ? chosen : undefined;
  });
}

// A map of names to values (メカd20's 【出力】【敏捷力】…): key/value rows, the usual names offered.
function map(path, name, s, ctx, required, start) {
  const label = ctx.hints.label(path, s, name);
  const valueSchema = resolve(s.additionalProperties === true ? {} : s.additionalProperties ?? {}, ctx.root);
  const listId = nextId(`${name}-keys`);
  const offered = ctx.hints.keys[path] ?? [];
  const rows = [];
  const body = el("div", { class: "form-rows" });
  const set = el("fieldset", { class: "form-map", "data-path": path }, el("legend", {}, label), body,
    offered.length ? el("datalist", { id: listId }, offered.map((k) => el("option", { value: k }))) : null);
  const add = (key, value) => {
    const keyInput = el("input", { type: "text", class: "map-key", value: key ?? "", list: offered.length ? listId : undefined, "aria-label": t("Name"), "data-path": `${path}.key` });
    const isNumber = ["integer", "number"].includes(valueSchema.type);
    const valueInput = el("input", { type: isNumber ? "number" : "text", class: "map-value", value: value ?? "", "aria-label": key ? `${label} ${key}` : t("Value"), "data-path": `${path}.value` });
    keyInput.addEventListener("input", () => valueInput.setAttribute("aria-label", `${label} ${keyInput.value}`));
    const entry = { keyInput, valueInput, isNumber };
    const line = el("div", { class: "form-row map-row" }, keyInput, valueInput, removeButton(() => {
      rows.splice(rows.indexOf(entry), 1);
      line.remove();
    }, label));
    rows.push(entry);
    body.append(line);
  };
  for (const [key, value] of Object.entries(start ?? {})) add(key, value);
  set.append(el("button", { type: "button", class: "add", onclick: () => add("", "") }, t("Add {what}", { what: label })));
  return part(set, () => {
    const out = {};
    for (const r of rows) {
      const key = r.keyInput.value.trim();
      if (!key) continue;
      const raw = r.valueInput.value.trim();
      out[key] = r.isNumber ? (raw === "" ? null : Number(raw)) : raw;
    }
    return Object.keys(out).length || required ? out : undefined;
  });
}

// An object: a fieldset of its fields. An optional one starts absent, with a button to add it.
function object(path, name, s, ctx, required, start, { inList } = {}) {
  const label = ctx.hints.label(path, s, name);
  const build = (value) => {
    const need = new Set(s.required ?? []);
    const parts = Object.entries(s.properties ?? {}).map(([key, sub]) => {
      const subPath = path ? `${path}.${key}` : key;
      return [key, render(subPath, key, sub, ctx, need.has(key), value?.[key])];
    });
    const read = () => {
      const out = {};
      for (const [key, p] of parts) {
        const v = p.read();
        if (v !== undefined) out[key] = v;
      }
      return out;
    };
    return { parts, read };
  };
  if (inList) {
    const built = build(start);
    return part(el("div", { class: "form-object", "data-path": path }, built.parts.map(([, p]) => p.element)), built.read);
  }
  const set = el("fieldset", { class: "form-object", "data-path": path }, el("legend", {}, label));
  let built = null;
  const optional = !required || s.nullable;
  const addButton = el("button", { type: "button", class: "add", onclick: () => open(undefined) }, t("Add {what}", { what: label }));
  const open = (value) => {
    built = build(value);
    const close = optional ? removeButton(() => { built = null; body.remove(); close.remove(); addButton.hidden = false; }, label) : null;
    const body = el("div", { class: "form-fields" }, built.parts.map(([, p]) => p.element));
    set.append(body);
    if (close) set.querySelector(":scope > legend").append(" ", close);
    addButton.hidden = true;
  };
  set.append(addButton);
  if (!optional || start !== undefined) open(start);
  return part(set, () => (built ? built.read() : undefined));
}

// One field. `start`: the value it starts with — given by the list or object around it, else
// the ruleset's hint, else the schema's default; a list's new row starts from the item's own.
function render(path, name, schema, ctx, required, start, options = {}) {
  if (ctx.hints.hidden.has(path)) return part(null, () => undefined);
  const s = resolve(schema, ctx.root);
  let first = start !== undefined ? start : options.inList ? clone(s.default) : ctx.hints.start(path, s);
  const usual = ctx.hints.start(path, s);
  if (start && s.type === "object" && !s.properties && usual && typeof usual === "object") {
    first = { ...usual, ...start }; // a map given in part (an import): the usual names kept
  }
  if (s.type === "object" && s.properties) return object(path, name, s, ctx, required, start, options);
  if (s.type === "object") return map(path, name, s, ctx, required, first);
  if (s.type === "array") return list(path, name, s, ctx, required, first);
  return scalar(path, name, s, ctx, required, first);
}

// The input a refusal's `loc` names (["body", "<type>", "sheet", "weapons", 0, "name"]): the
// path's names lead down the form's data-path marks, a list index to that row, a map's key to
// the row of that name; a fieldset named stands for its first input. null: not in this form.
function fieldAt(form, type, loc) {
  const parts = [...loc];
  const start = parts.indexOf(type);
  if (start >= 0) parts.splice(0, start + 1);
  else while (["body", "query", "path"].includes(parts[0])) parts.shift();
  let scope = form;
  let path = "";
  let found = null;
  for (const part of parts) {
    if (typeof part === "number") {
      const rows = found?.querySelectorAll(":scope > .form-rows > .form-row");
      if (!rows?.[part]) break;
      scope = rows[part];
      continue;
    }
    const next = path ? `${path}.${part}` : String(part);
    const here = scope.querySelector(`[data-path="${CSS.escape(next)}"]`);
    if (here) {
      path = next;
      found = scope = here;
      continue;
    }
    if (found?.classList.contains("form-map")) {
      const row = [...found.querySelectorAll(".map-row")].find((r) => r.querySelector(".map-key").value.trim() === String(part));
      if (row) return row.querySelector(".map-value");
    }
    break;
  }
  if (!found) return null;
  return found.matches("input, select, textarea") ? found : found.querySelector("input, select, textarea");
}

// A <form> for one command. `hints`: field name → suggested values (e.g. my characters).
// `references(name, type)`: the names a field that refers to someone may take (Hints.refers).
// `initial`: a body to start from (importedStart), else each field's usual start.
export function commandForm(command, { hints, references, onSubmit, initial, note }) {
  const schema = command.input_schema;
  const ctx = { root: schema, hints: new Hints(command.form, hints, references) };
  const required = new Set(schema.required ?? []);
  const parts = Object.entries(schema.properties ?? {})
    .filter(([name]) => name !== "type")
    .map(([name, field]) => [name, render(name, name, field, ctx, required.has(name), initial?.[name])]);
  const read = () => {
    const body = { type: command.type };
    for (const [name, p] of parts) {
      const value = p.read();
      if (value !== undefined) body[name] = value;
    }
    return body;
  };
  const errorBox = el("p", { class: "error", role: "alert", hidden: true });
  const json = el("textarea", { rows: 8, class: "json", spellcheck: "false", "aria-label": "JSON" });
  const jsonFold = el("details", { class: "json-fold" }, el("summary", {}, "JSON"), json,
    el("button", { type: "button", onclick: () => {
      let body;
      try { body = JSON.parse(json.value); } catch { return fail(t("The JSON is not valid.")); }
      errorBox.hidden = true;
      onSubmit({ ...body, type: command.type }, errorBox);
    } }, t("Send the JSON")));
  jsonFold.addEventListener("toggle", () => {
    if (!jsonFold.open) return;
    try { json.value = JSON.stringify(read(), null, 1); } catch { json.value = JSON.stringify({ type: command.type }); }
  });
  const form = el("form", { class: "command-form", novalidate: true, dataset: { type: command.type } },
    // A sheet's form is titled in words by its ruleset (the hints' label of the empty path).
    el("h3", {}, command.form?.labels?.[""] ? t(command.form.labels[""]) : t(command.type.split(".").pop().replaceAll("_", " "))),
    command.summary && !command.form ? el("p", { class: "summary" }, command.summary) : null,
    note ? el("p", { class: "hint form-note" }, note) : null,
    parts.map(([, p]) => p.element),
    el("button", { type: "submit" }, t("Send")),
    errorBox,
    jsonFold);
  function fail(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }
  errorBox.id = nextId("error");
  // A refusal that names fields (a 422's `errors`, each with its `loc`): those inputs are
  // marked invalid, described by the sentence, and the first one takes the focus.
  form.addEventListener("kiroku-problem", (event) => {
    const marked = (event.detail?.body?.errors ?? [])
      .map((e) => fieldAt(form, command.type, e.loc ?? []))
      .filter(Boolean);
    for (const input of marked) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", errorBox.id);
      input.closest("label.field, .form-row")?.classList.add("invalid");
    }
    if (marked.length) {
      marked[0].scrollIntoView({ block: "center" });
      marked[0].focus();
    }
  });
  const unmark = () => {
    for (const input of form.querySelectorAll("[aria-invalid=true]")) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
    for (const node of form.querySelectorAll(".invalid")) node.classList.remove("invalid");
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    unmark();
    errorBox.hidden = true;
    let body;
    try { body = read(); } catch (error) { return fail(error instanceof FormError ? error.message : String(error)); }
    onSubmit(body, errorBox);
  });
  return form;
}

// Whether `path` (dot-separated, from the command down) is a field of the schema; a free map
// takes any key.
function reaches(schema, path) {
  let s = resolve(schema, schema);
  for (const part of path.split(".")) {
    if (s.type === "object" && s.properties) s = resolve(s.properties[part], schema);
    else if (s.type === "object") return Boolean(part);
    else return false;
    if (!s || Object.keys(s).length === 0) return false;
  }
  return true;
}

// A character imported from ココフォリア (seatsettings.js: its `fields`, the sheet paths its
// labels name) as the start of this command's form: its name, and those fields under the
// command's `sheet` (or at its root, for a sheet without one). null: none of them fits.
export function importedStart(command, character) {
  const schema = command.input_schema;
  const under = schema.properties?.sheet ? "sheet." : "";
  const body = {};
  let fitted = 0;
  for (const [path, value] of Object.entries(character?.fields ?? {})) {
    const full = `${under}${path}`;
    if (!reaches(schema, full)) continue;
    const names = full.split(".");
    let at = body;
    for (const name of names.slice(0, -1)) at = at[name] ??= {};
    at[names.at(-1)] = value;
    fitted += 1;
  }
  if (!fitted) return null;
  if (schema.properties?.name) body.name = character.name;
  return { body, fitted };
}
