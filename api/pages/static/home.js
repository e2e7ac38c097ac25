// The home page: create a game, sign the creator in as its GM, and show the links.
import { el, post, showError } from "./api.js";

const form = document.getElementById("create-game");
const seats = document.getElementById("seat-list");
const errorBox = document.getElementById("create-error");

function seatInputs() {
  return [...seats.querySelectorAll("input[name=seat]")];
}

document.getElementById("add-seat").addEventListener("click", () => {
  const number = seatInputs().length + 1;
  if (number > 16) return;
  seats.append(el("li", {}, el("input", {
    name: "seat", required: true, maxlength: 40, "aria-label": `Seat ${number} name`,
    value: `Player ${number}`,
  })));
});
document.getElementById("remove-seat").addEventListener("click", () => {
  const inputs = seatInputs();
  if (inputs.length > 1) inputs.at(-1).closest("li").remove();
});

function copyButton(text) {
  return el("button", {
    type: "button", class: "copy",
    onclick: async (event) => {
      try { await navigator.clipboard.writeText(text); event.target.textContent = "copied"; }
      catch { event.target.textContent = "select and copy"; }
    },
  }, "copy");
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  const data = new FormData(form);
  let rulesetOptions = {};
  const rawOptions = String(data.get("ruleset_options") || "").trim();
  if (rawOptions) {
    try { rulesetOptions = JSON.parse(rawOptions); }
    catch { showError(errorBox, "Ruleset options must be a JSON object."); return; }
  }
  try {
    const created = await post("/games", {
      title: data.get("title"),
      ruleset: data.get("ruleset"),
      seats: seatInputs().map((input) => input.value),
      options: { dice_policy: data.get("dice_policy"), spectators: data.get("spectators") === "on" },
      ruleset_options: rulesetOptions,
    });
    // The creator is the GM: sign this browser in with the GM token, then forget the token.
    await post(`/games/${created.game_id}/session`, undefined, { token: created.gm_token });
    const links = document.getElementById("links");
    links.replaceChildren(
      ...created.seats.map((seat) => el("li", {},
        el("strong", {}, `Seat ${seat.seat}: ${seat.name}`), " ",
        el("input", { readonly: true, value: seat.link, "aria-label": `Link for ${seat.name}`, class: "link" }),
        copyButton(seat.link))),
      el("li", { class: "gm-link" },
        el("strong", {}, "GM (you, on another device)"), " ",
        el("input", { readonly: true, value: created.gm_link, "aria-label": "GM link", class: "link" }),
        copyButton(created.gm_link)),
    );
    document.getElementById("open-table").href = `/g/${created.game_id}`;
    form.hidden = true;
    document.getElementById("created").hidden = false;
  } catch (error) {
    showError(errorBox, error);
  }
});
