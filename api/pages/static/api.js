// The one way the pages talk to the server: JSON over fetch, signed in by the session cookie.
// State-changing requests carry X-Kiroku: 1, which a cross-site form cannot add.

export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || "http_error";
    this.body = body;
  }
}

export async function call(method, path, body, { token } = {}) {
  const headers = { "X-Kiroku": "1", Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    cache: "no-store",
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Problem(response.status, data);
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body, options) => call("POST", path, body, options);

// Elements built from data: text always goes in through textContent, never as markup.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A <details> a pane draws again on every event keeps the state its reader left it in. The click
// on its summary is remembered at once: the toggle event comes a task later, and a redraw in
// between would otherwise draw it closed again under the reader's click.
export function keepOpenState(details, remember) {
  details.querySelector(":scope > summary")?.addEventListener("click", () => remember(!details.open));
  details.addEventListener("toggle", () => remember(details.open));
  return details;
}

// A refusal as a player reads it: the server's sentence alone. Its stable code stays on the
// node (data-code) and in the console, for a bug report; a form listening for "kiroku-problem"
// marks the fields the problem names (forms.js).
export function showError(node, error) {
  if (error instanceof Problem) {
    node.textContent = error.message;
    node.dataset.code = error.code;
    console.info("kiroku", error.code, error.status);
    node.dispatchEvent(new CustomEvent("kiroku-problem", { detail: error, bubbles: true }));
  } else {
    node.textContent = error instanceof Error ? error.message : String(error);
    delete node.dataset.code;
  }
  node.hidden = false;
}
