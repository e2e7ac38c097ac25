// The pages' message lookup: `t("English source {name}", {name})` in the page's language
// (<html lang>, chosen by the server: the language switch's cookie, else Accept-Language,
// else Japanese). The catalog is the app's JSON of the same .po files the templates use
// (api/pages/i18n/); a key missing from it reads as its source text.
export const lang = document.documentElement.lang || "ja";

const response = await fetch(`/i18n/${lang}.json`, { credentials: "same-origin" });
const catalog = response.ok ? await response.json() : {};

export function t(key, params = {}) {
  const text = catalog[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
