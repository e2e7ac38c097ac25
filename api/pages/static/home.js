// The home page: create a game, sign the creator in as its GM (or, in a game without a
// referee, its host, who may also play a seat), and show the links.
import { el, get, post, showError } from "./api.js";
import { lang, t } from "./i18n.js";

const form = document.getElementById("create-game");
const seats = document.getElementById("seat-list");
const errorBox = document.getElementById("create-error");
const rulesetSelect = form.elements.ruleset;
const hostSeat = document.getElementById("host-seat");

// Who runs the table: the ruleset's default (超人ロック has no referee); a ruleset whose GM
// must see every secret offers only the GM.
function refereeChanged() {
  const host = form.elements.referee.value === "host";
  document.getElementById("host-seat-label").hidden = !host;
  const current = hostSeat.value;
  hostSeat.replaceChildren(el("option", { value: "" }, t("none (I only host)")),
    ...seatInputs().map((input, index) => el("option", { value: String(index + 1) }, `${index + 1}: ${input.value}`)));
  if ([...hostSeat.options].some((o) => o.value === current)) hostSeat.value = current;
}

function rulesetChanged() {
  const option = rulesetSelect.selectedOptions[0];
  const hosted = option?.dataset.hosted === "yes";
  const hostRadio = form.querySelector("input[name=referee][value=host]");
  hostRadio.disabled = !hosted;
  form.querySelector(`input[name=referee][value=${option?.dataset.referee === "host" ? "host" : "gm"}]`).checked = true;
  refereeChanged();
}
rulesetSelect.addEventListener("change", rulesetChanged);

// The game system picker: BCDice's list, searched by Japanese name, reading (sort key) or id,
// as ココフォリア's picker is. A ruleset keeps its own system (ニンジャスレイヤー: NinjaSlayer2).
const systemSelect = document.getElementById("system");
const systemSearch = document.getElementById("system-search");
const RULESET_SYSTEMS = { ninja_slayer: "NinjaSlayer2" };
let systems = [{ id: "DiceBot", name: t("DiceBot (generic dice bot)"), sort_key: "" }];
function renderSystems(pickFirst = false) {
  const query = systemSearch.value.trim().toLowerCase();
  // before BCDice's list arrives the select holds DiceBot alone: a ruleset chosen meanwhile
  // keeps its own system (it is not among the options yet, so the select forgot it)
  const chosen = systemSelect.value && systemSelect.value !== "DiceBot"
    ? systemSelect.value
    : RULESET_SYSTEMS[rulesetSelect.value] ?? "DiceBot";
  const matches = systems.filter((s) => !query
    || [s.name, s.id, s.sort_key].some((text) => String(text).toLowerCase().includes(query)));
  const shown = matches.length ? matches : systems.filter((s) => s.id === chosen);
  // names in words (the search still finds a system by its BCDice id)
  systemSelect.replaceChildren(...shown.map((s) => el("option", { value: s.id }, s.name)));
  // as one types, the first match is picked, as in ココフォリア's picker
  systemSelect.value = pickFirst && matches.length ? matches[0].id : chosen;
  if (!systemSelect.value && shown.length) systemSelect.value = shown[0].id;
}
systemSearch.addEventListener("input", () => renderSystems(true));
rulesetSelect.addEventListener("change", () => {
  systemSearch.value = "";
  renderSystems();
  systemSelect.value = RULESET_SYSTEMS[rulesetSelect.value] ?? "DiceBot";
});
get("/systems").then((listed) => {
  systems = listed.systems.map((s) => (s.id === "DiceBot" ? { ...s, name: t("DiceBot (generic dice bot)") } : s));
  renderSystems();
}).catch(() => { /* the engine is down: DiceBot is still offered, and creation says why */ });
for (const radio of form.querySelectorAll("input[name=referee]")) radio.addEventListener("change", refereeChanged);
seats.addEventListener("input", refereeChanged);

function seatInputs() {
  return [...seats.querySelectorAll("input[name=seat]")];
}

document.getElementById("add-seat").addEventListener("click", () => {
  const number = seatInputs().length + 1;
  if (number > 16) return;
  seats.append(el("li", {}, el("input", {
    name: "seat", required: true, maxlength: 40, "aria-label": t("Seat {number} name", { number }),
    value: t("Player {number}", { number }),
  })));
  refereeChanged();
});
document.getElementById("remove-seat").addEventListener("click", () => {
  const inputs = seatInputs();
  if (inputs.length > 1) inputs.at(-1).closest("li").remove();
  refereeChanged();
});
rulesetChanged();

function copyButton(text) {
  return el("button", {
    type: "button", class: "copy",
    onclick: async (event) => {
      try { await navigator.clipboard.writeText(text); event.target.textContent = t("copied"); }
      catch { event.target.textContent = t("select and copy"); }
    },
  }, t("copy"));
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  const data = new FormData(form);
  let rulesetOptions = {};
  const rawOptions = String(data.get("ruleset_options") || "").trim();
  if (rawOptions) {
    try { rulesetOptions = JSON.parse(rawOptions); }
    catch { showError(errorBox, t("Ruleset options must be a JSON object.")); return; }
  }
  const body = {
    title: data.get("title"),
    ruleset: data.get("ruleset"),
    seats: seatInputs().map((input) => input.value),
    options: { dice_policy: data.get("dice_policy"), spectators: data.get("spectators") === "on" },
    ruleset_options: rulesetOptions,
    referee: data.get("referee"),
    // none picked (BCDice's list not here yet): the ruleset's own (NinjaSlayer2), as the API says
    system: data.get("system") || undefined,
  };
  if (body.referee === "host" && data.get("host_seat")) body.host_seat = Number(data.get("host_seat"));
  try {
    const created = await post("/games", body);
    const host = created.referee === "host";
    const token = host ? created.host_token : created.gm_token;
    const link = host ? created.host_link : created.gm_link;
    // Sign this browser in as the creator (GM or host), then forget the token.
    await post(`/games/${created.game_id}/session`, undefined, { token });
    const seated = created.seats.find((seat) => `seat:${seat.seat}` === created.creator);
    const links = document.getElementById("links");
    links.replaceChildren(
      ...created.seats.filter((seat) => seat.link).map((seat) => el("li", {},
        el("strong", {}, t("Seat {number}: {name}", { number: seat.seat, name: seat.name })), " ",
        el("input", { readonly: true, value: seat.link, "aria-label": t("Link for {name}", { name: seat.name }), class: "link" }),
        copyButton(seat.link))),
      el("li", { class: "gm-link" },
        el("strong", {}, seated
          ? t("Host, seat {number}: {name} (you, on another device)", { number: seated.seat, name: seated.name })
          : (host ? t("Host (you, on another device)") : t("GM (you, on another device)"))), " ",
        el("input", { readonly: true, value: link, "aria-label": host ? t("Host link") : t("GM link"), class: "link" }),
        copyButton(link)),
    );
    document.getElementById("open-table").textContent = host ? t("Open the table as host") : t("Open the table as GM");
    if (body.options.spectators) {
      document.getElementById("spectator-link").value = `${location.origin}/g/${created.game_id}`;
      document.getElementById("spectator").hidden = false;
    }
    // The creator's recovery code, once, to write down: it gets the GM (or host) seat back on
    // any browser from the join page, once (only its hash is stored; docs/how-to).
    document.getElementById("recovery-code").textContent = created.recovery_code;
    document.getElementById("recovery").hidden = false;
    document.getElementById("open-table").href = `/g/${created.game_id}`;
    form.hidden = true;
    document.getElementById("created").hidden = false;
  } catch (error) {
    showError(errorBox, error);
  }
});

// "My tables": the games this browser holds a session for, to come back next week.
async function showMyTables() {
  let tables = [];
  try { tables = await get("/my/tables"); } catch { return; }
  if (!tables.length) return;
  const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  document.getElementById("my-tables-body").replaceChildren(...tables.map((table) => el("tr", {},
    el("td", {}, el("a", { href: `/g/${table.game_id}` }, table.title)),
    el("td", {}, table.system),
    el("td", {}, table.status),
    el("td", {}, table.last_activity ? when.format(new Date(table.last_activity)) : ""),
    el("td", {}, table.you))));
  document.getElementById("my-tables").hidden = false;
}
showMyTables();
