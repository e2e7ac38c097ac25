// A log line on the page: the server describes each event for its reader (domain/logline.py);
// this only lays the description out. Every text goes in as text, never as markup.
import { el } from "./api.js";

const KIND_LABEL = {
  roll: "roll", declaration: "declaration", note: "note", ruling: "ruling",
  amendment: "amendment", reveal: "reveal", phase: "phase", system: "system", rules: "rules",
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
    el("a", { class: "seq", href: `#seq-${event.seq}`, title: `event ${event.seq}` }, `#${event.seq}`),
    el("span", { class: "tab-name" }, line.tab));
  const speaker = el("span", { class: "speaker" }, line.speaker);
  if (line.color) speaker.style.color = line.color;
  const text = el("span", { class: "text" }, line.text);
  item.append(meta, speaker, text);
  if (KIND_LABEL[line.kind] && line.kind !== "rules") {
    item.append(el("span", { class: "kind-label" }, KIND_LABEL[line.kind]));
  }
  if (line.sealed_to) {
    item.append(el("span", { class: "audience", title: "who may read it" },
      line.sealed_to.length ? `→ ${line.sealed_to.join(", ")}` : "dice seed sealed until the end"));
  }
  if (line.concerns) {
    item.append(el("a", { class: "concerns", href: `#seq-${line.concerns}` }, `↪ #${line.concerns}`));
  }
  if (line.revealed) item.append(el("span", { class: "revealed-mark" }, "公開"));
  if (onLineAction) {
    item.append(el("button", {
      type: "button", class: "line-action", "aria-label": `Act on event ${event.seq}`,
      onclick: () => onLineAction(event),
    }, "⋯"));
  }
  return item;
}

export function markVerified(item, ok) {
  item.querySelector(".verify-mark")?.remove();
  item.append(el("span", {
    class: `verify-mark ${ok ? "ok" : "bad"}`,
    title: ok ? "the revealed body matches its commitment" : "the revealed body does NOT match its commitment",
  }, ok ? "revealed ✓ matches its commitment" : "✗ does not match its commitment"));
}
