// A form for any command, generated from its JSON schema (the pydantic model the server
// validates with): enums become choices, numbers and flags their inputs, and anything nested
// a JSON field with its shape as a template. The server stays the judge of what is valid.
import { el } from "./api.js";
import { t } from "./i18n.js";

function resolve(schema, root) {
  if (schema?.$ref) return resolve(root.$defs?.[schema.$ref.split("/").pop()] ?? {}, root);
  const options = schema?.anyOf?.filter((s) => s.type !== "null");
  if (options?.length === 1) return { ...resolve(options[0], root), nullable: true, default: schema.default, description: schema.description ?? options[0].description };
  return schema ?? {};
}

function example(schema, root, depth = 0) {
  const s = resolve(schema, root);
  if (s.default !== undefined) return s.default;
  if (s.enum) return s.enum[0];
  if (depth > 4) return null;
  switch (s.type) {
    case "object": return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, example(v, root, depth + 1)]));
    case "array": return s.items ? [example(s.items, root, depth + 1)] : [];
    case "integer": case "number": return s.minimum ?? 0;
    case "boolean": return false;
    case "string": return "";
    default: return null;
  }
}

function fieldFor(name, schema, root, required, hints) {
  const s = resolve(schema, root);
  const id = `f-${root.title}-${name}`;
  const title = s.title || name;
  const common = { name, id, "data-kind": "" };
  let input;
  if (s.enum || s.const !== undefined) {
    const values = s.enum ?? [s.const];
    input = el("select", common,
      !required ? el("option", { value: "" }, "—") : null,
      values.map((v) => el("option", { value: JSON.stringify(v), selected: JSON.stringify(v) === JSON.stringify(s.default) }, String(v))));
    input.dataset.kind = "json";
  } else if (s.type === "boolean") {
    input = el("input", { ...common, type: "checkbox", checked: s.default === true });
    input.dataset.kind = "boolean";
  } else if (s.type === "integer" || s.type === "number") {
    input = el("input", { ...common, type: "number", step: s.type === "integer" ? 1 : "any",
      min: s.minimum, max: s.maximum, value: s.default ?? "", required: required && !s.nullable });
    input.dataset.kind = "number";
  } else if (s.type === "string") {
    input = el("input", { ...common, type: "text", maxlength: s.maxLength, value: s.default ?? "",
      required: required && !s.nullable && !s.default, list: hints?.[name] ? `${id}-list` : undefined });
    input.dataset.kind = "string";
  } else if (s.type === "array" && ["integer", "number"].includes(resolve(s.items, root).type)) {
    input = el("input", { ...common, type: "text", inputmode: "numeric", placeholder: t("e.g. 3,5,6"), value: (s.default ?? []).join(",") });
    input.dataset.kind = "numbers";
  } else if (s.type === "array" && resolve(s.items, root).type === "string" && !resolve(s.items, root).enum) {
    input = el("input", { ...common, type: "text", placeholder: t("comma-separated"), value: (s.default ?? []).join(",") });
    input.dataset.kind = "strings";
  } else {
    input = el("textarea", { ...common, rows: 4, class: "json", spellcheck: "false" },
      JSON.stringify(example(s, root), null, 1));
    input.dataset.kind = "json";
  }
  const wrapper = el("label", { for: id, class: "field" }, el("span", {}, title), input);
  if (hints?.[name]) wrapper.append(el("datalist", { id: `${id}-list` }, hints[name].map((v) => el("option", { value: v }))));
  if (s.description) wrapper.title = s.description;
  return wrapper;
}

function readField(input) {
  const raw = input.value;
  switch (input.dataset.kind) {
    case "boolean": return input.checked;
    case "number": return raw === "" ? undefined : Number(raw);
    case "string": return raw === "" ? undefined : raw;
    case "numbers": return raw.trim() === "" ? undefined : raw.split(/[,\s]+/).filter(Boolean).map(Number);
    case "strings": return raw.trim() === "" ? undefined : raw.split(",").map((v) => v.trim()).filter(Boolean);
    default: return raw.trim() === "" ? undefined : JSON.parse(raw);
  }
}

// A <form> for one command. `hints`: field name → suggested values (e.g. my characters).
export function commandForm(command, { hints, onSubmit }) {
  const schema = command.input_schema;
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {})
    .filter(([name]) => name !== "type")
    .map(([name, field]) => fieldFor(name, field, schema, required.has(name), hints));
  const form = el("form", { class: "command-form", dataset: { type: command.type } },
    el("h3", {}, command.type.split(".").pop().replaceAll("_", " ")),
    command.summary ? el("p", { class: "summary" }, command.summary) : null,
    fields,
    el("button", { type: "submit" }, t("Send")),
    el("p", { class: "error", role: "alert", hidden: true }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { type: command.type };
    const errorBox = form.querySelector(".error");
    errorBox.hidden = true;
    try {
      for (const input of form.querySelectorAll("[name]")) {
        const value = readField(input);
        if (value !== undefined) body[input.name] = value;
      }
    } catch {
      errorBox.textContent = t("A JSON field is not valid JSON.");
      errorBox.hidden = false;
      return;
    }
    onSubmit(body, errorBox);
  });
  return form;
}
