// A log line on the page: the server describes each event for its reader (domain/model/logline.py);
// this only lays the description out. Every text goes in as text, never as markup.
import { el } from "./api.js";
import { lang, t, tabName } from "./i18n.js";

const KIND_LABEL = {
  roll: t("roll"), declaration: t("declaration"), note: t("note"), ruling: t("ruling"),
  amendment: t("amendment"), reveal: t("reveal"), phase: t("phase"), system: t("system"), rules: t("rules"),
};

export function renderLine(event, { onLineAction } = {}) {
  const line = event.line;
  const classes = ["line", `kind-${line.kind}`];
  if (line.hidden) classes.push("sealed");
  if (line.sealed_to && !line.hidden) classes.push("secret");
  if (line.outcome) classes.push(line.outcome);
  if (line.quiet) classes.push("quiet");
  const item = el("li", {
    class: classes.join(" "),
    id: `seq-${event.seq}`,
    dataset: { seq: event.seq, tab: line.tab, kind: line.kind, hash: event.hash },
  });
  const meta = el("span", { class: "meta" },
    el("a", { class: "seq", href: `#seq-${event.seq}`, title: t("event {seq}", { seq: event.seq }) }, `#${event.seq}`),
    el("span", { class: "tab-name" }, tabName(line.tab)));
  const speaker = el("span", { class: "speaker" }, line.speaker);
  if (line.color) speaker.style.color = line.color;
  const text = el("span", { class: "text" }, lineWords(line));
  item.append(meta, speaker, text);
  if (KIND_LABEL[line.kind] && line.kind !== "rules") {
    item.append(el("span", { class: "kind-label" }, KIND_LABEL[line.kind]));
  }
  if (line.sealed_to) {
    item.append(el("span", { class: "audience", title: t("who may read it") },
      `→ ${audienceWords(line)}`));
  }
  if (line.concerns) {
    item.append(el("a", { class: "concerns", href: `#seq-${line.concerns}` }, `↪ #${line.concerns}`));
  }
  if (line.revealed) item.append(el("span", { class: "revealed-mark" }, t("公開")));
  if (onLineAction) {
    item.append(el("button", {
      type: "button", class: "line-action", "aria-label": t("Act on event {seq}", { seq: event.seq }),
      onclick: () => onLineAction(event),
    }, "⋯"));
  }
  return item;
}

// A line's words in the page's language: a line with a catalog key (a lifecycle line, a
// ruleset's message: its key is its Japanese) read through the catalog; any other as it is.
export function lineWords(line) {
  return line.msg && lang !== "ja" ? t(line.msg, line.args || {}) : line.text;
}

// Who may read a sealed line: the server's words in Japanese (「GMとベンだけ」), the names in
// the page's own words otherwise.
function audienceWords(line) {
  if (lang === "ja" || !line.audience_names) return line.audience_text ?? "";
  if (!line.audience_names.length) return t("nobody can read it until the end");
  return t("only {names}", { names: line.audience_names.join(", ") });
}

export function markVerified(item, ok) {
  item.querySelector(".verify-mark")?.remove();
  item.append(el("span", {
    class: `verify-mark ${ok ? "ok" : "bad"}`,
    title: ok ? t("the revealed body matches its commitment") : t("the revealed body does NOT match its commitment"),
  }, ok ? t("revealed ✓ matches its commitment") : t("✗ does not match its commitment")));
}
