// The join page: the invite (or a token) arrives in the URL fragment, which browsers never
// send to a server. It is posted once, exchanged for an HttpOnly session cookie, and dropped.
import { el, get, post, showError } from "./api.js";
import { t } from "./i18n.js";

const root = document.getElementById("join");
const gameId = root.dataset.game;
const form = document.getElementById("join-form");
const errorBox = document.getElementById("join-error");
const fragment = new URLSearchParams(location.hash.slice(1));
const invite = fragment.get("invite");
const token = fragment.get("token");
// Out of the address bar and the history at once: a shared screen must not show it.
history.replaceState(null, "", location.pathname);

function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function signIn(secretToken) {
  await post(`/games/${gameId}/session`, undefined, { token: secretToken });
  location.replace(`/g/${gameId}`);
}

async function alreadySeated() {
  try {
    const me = await get(`/games/${gameId}/session`);
    return me.actor !== "public";
  } catch {
    return false;
  }
}

async function main() {
  if (token) {
    try { await signIn(token); } catch (error) { showError(errorBox, error); }
    return;
  }
  if (!invite) {
    if (await alreadySeated()) { location.replace(`/g/${gameId}`); return; }
    showError(errorBox, t("This link has no invite in it. Ask the GM for your seat's link."));
    showRecovery();
    return;
  }
  form.elements.client_seed.value = randomSeed();
  form.hidden = false;
  form.querySelector("button").focus();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.hidden = true;
    try {
      const seed = form.elements.client_seed.value.trim();
      const joined = await post(`/games/${gameId}/join`, { invite, client_seed: seed || null });
      await signIn(joined.token);
    } catch (error) {
      if (error.code === "invalid_invite" && await alreadySeated()) {
        location.replace(`/g/${gameId}`);
        return;
      }
      showError(errorBox, error.code === "invalid_invite"
        ? t("This link was already used (links work once, on one device). Open the table on the device you joined with, or ask the GM for a new link.")
        : error);
    }
  });
}

// The GM (or host) who lost the link: the recovery code shown at creation signs this browser
// in, once. The seat's other browsers and its old link are signed out, and the next code is
// shown here, once, to write down before going to the table.
function showRecovery() {
  const recover = document.getElementById("recover-form");
  recover.hidden = false;
  recover.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.hidden = true;
    try {
      const recovered = await post(`/games/${gameId}/recover`, { code: recover.elements.code.value.trim() });
      recover.replaceChildren(
        el("p", {}, t("You have your seat back. Your other browsers and your old link are signed out.")),
        el("p", {}, t("Your next recovery code (shown once: write it down):"), " ",
          el("code", { id: "next-recovery-code" }, recovered.recovery_code)),
        el("a", { class: "button primary", id: "to-table", href: `/g/${gameId}` }, t("Open the table")));
    } catch (error) { showError(errorBox, error); }
  });
}

main();
