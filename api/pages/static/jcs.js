// RFC 8785 canonical JSON for the values Kiroku writes (strings, integers, booleans, null,
// arrays, objects), and the commitment check of docs/reference/verification.md:
// commitment = sha256(salt ‖ canonical(body)).

export function canonical(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort(); // UTF-16 code unit order, as RFC 8785 asks
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
}

const UTF8 = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

export async function sha256Hex(text) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", UTF8.encode(text)));
  let hex = "";
  for (const byte of digest) hex += HEX[byte];
  return hex;
}

// null when this browser cannot check (Web Crypto needs https or localhost).
export async function commitmentMatches(commitment, salt, body) {
  if (!globalThis.crypto?.subtle) return null;
  return (await sha256Hex(salt + canonical(body))) === commitment;
}
