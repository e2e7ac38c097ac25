// The pages' message lookup: `t("English source {name}", {name})` in the page's language
// (<html lang>, chosen by the server: the language switch's cookie, else Accept-Language,
// else Japanese). The catalog is the app's JSON of the same .po files the templates use
// (api/pages/i18n/); a key missing from it reads as its source text.
export const lang = document.documentElement.lang || "ja";

const response = await fetch(`/i18n/${lang}.json`, { credentials: "same-origin" });
const catalog = response.ok ? await response.json() : {};

export function t(key, params = {}) {
  // a key with a context (`C_`, domain/model/messages.py) reads as its text when missing
  const text = catalog[key] ?? key.split("\u0004").pop();
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? argument(params[name]) : whole));
}

// A message's argument as the server encodes it (domain/model/messages.py, `encode`): a text as
// it is; a term, a message or a list of them read in the page's language too.
function argument(value) {
  if (value && typeof value === "object") {
    if (Array.isArray(value.list)) return value.list.map(argument).join(t(value.sep ?? "・"));
    if ("term" in value) return t(String(value.term));
    if ("msg" in value) return t(String(value.msg), value.args || {});
  }
  return String(value);
}

// The tabs every game opens with (domain/model/game.py, DEFAULT_TABS) are the catalog's words, read
// in the page's language; a tab someone opened reads as it was typed.
const DEFAULT_TABS = new Set(["メイン", "情報", "雑談"]);

export function tabName(tab) {
  return DEFAULT_TABS.has(tab) ? t(tab) : tab;
}
