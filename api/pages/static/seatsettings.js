// What follows the player: speakers, colours, palettes and characters are the seat's settings
// on the server (GET/PUT /games/{id}/seat-settings, private to the seat), so every browser of
// the seat has them. `seatStore` keeps the table page's store interface (read/write by name:
// "speakers", "color:<speaker>", "palette:<speaker>") over them; `characterTools` imports a
// ココフォリア clipboard character and copies one back out.
import { call, el, get, post, showError } from "./api.js";
import { t } from "./i18n.js";

const SAVE_AFTER_MS = 300;

export async function seatStore(gameId) {
  const url = `/games/${gameId}/seat-settings`;
  let settings = { speakers: [], palette: "", characters: [] };
  try { settings = await get(url); } catch { /* a spectator keeps none: reads stay empty */ }
  let timer = null;
  const listeners = [];

  const save = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try { settings = await call("PUT", url, settings); } catch (error) { console.warn(error); }
    }, SAVE_AFTER_MS);
  };
  const speaker = (name) => settings.speakers.find((s) => s.name === name);
  const character = (name) => settings.characters.find((c) => c.name === name);
  const withCharacter = (name) => {
    let found = character(name);
    if (!found) {
      found = { name, color: speaker(name)?.color ?? "#222222", status: [], params: [], palette: "", fields: {} };
      settings.characters = [...settings.characters, found];
    }
    return found;
  };

  return {
    get settings() { return settings; },
    replace(next) { settings = next; for (const listener of listeners) listener(settings); },
    onChange(listener) { listeners.push(listener); },
    read(name, fallback) {
      if (name === "speakers") return settings.speakers.map((s) => s.name);
      const [kind, who] = [name.split(":", 1)[0], name.slice(name.indexOf(":") + 1)];
      if (kind === "color") return speaker(who)?.color ?? character(who)?.color ?? fallback;
      if (kind === "palette") {
        const text = character(who)?.palette ?? "";
        return text ? text.split("\n").filter((line) => line.trim()) : fallback;
      }
      return fallback;
    },
    write(name, value) {
      if (name === "speakers") {
        settings.speakers = value.map((n) => speaker(n) ?? { name: n, color: "#222222" });
      } else if (name.startsWith("color:")) {
        const who = name.slice(6);
        if (!speaker(who)) settings.speakers = [...settings.speakers, { name: who, color: value }];
        settings.speakers = settings.speakers.map((s) => (s.name === who ? { ...s, color: value } : s));
        if (character(who)) withCharacter(who).color = value;
      } else if (name.startsWith("palette:")) {
        withCharacter(name.slice(8)).palette = value.join("\n");
      } else {
        return;
      }
      save();
    },
  };
}

// The import and export of characters: paste ココフォリア's clipboard JSON, get a speaker with
// its colour and palette; copy a character back in the same format.
export function characterTools(gameId, store, onImported) {
  const url = `/games/${gameId}/seat-settings/characters`;
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const input = el("textarea", {
    rows: 3, class: "ccfolia-input", "aria-label": t("ココフォリア's clipboard JSON"),
    placeholder: t("Paste a character copied for ココフォリア here"),
  });
  const list = el("ul", { class: "characters" });
  const named = (character) => {
    const name = el("span", { class: "speaker" }, character.name);
    name.style.color = character.color; // through the CSSOM: the page's policy allows no style attribute
    return name;
  };
  const render = () => list.replaceChildren(...store.settings.characters.map((character) =>
    el("li", {},
      named(character), " ",
      el("button", {
        type: "button", class: "ccfolia-copy",
        onclick: async (event) => {
          const exported = await get(`${url}/${encodeURIComponent(character.name)}/ccfolia`);
          const text = JSON.stringify(exported);
          try { await navigator.clipboard.writeText(text); event.target.textContent = t("copied"); }
          catch { input.value = text; input.select(); event.target.textContent = t("select and copy"); }
        },
      }, t("Copy for ココフォリア")))));
  const importButton = el("button", {
    type: "button", class: "primary",
    onclick: async () => {
      error.hidden = true;
      let raw;
      try { raw = JSON.parse(input.value); }
      catch { showError(error, t("This is not JSON: copy the character again from the sheet site.")); return; }
      try {
        store.replace(await post(url, raw));
        input.value = "";
        render();
        const imported = store.settings.characters.at(-1);
        onImported?.(imported);
      } catch (problem) {
        showError(error, problem);
      }
    },
  }, t("Import"));
  store.onChange(render);
  render();
  return el("details", { class: "character-tools" },
    el("summary", {}, t("Characters (ココフォリア)")),
    input, importButton, error, list);
}
