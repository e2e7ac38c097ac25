// RFC 8785 canonical JSON for the values Kiroku writes (strings, integers, booleans, null,
// arrays, objects), and the commitment check of docs/reference/verification.md:
// commitment = sha256(salt ‖ canonical(body)).

const QUOTED = new Map(); // a key's JSON, once: a log repeats a few dozen keys

function quoted(key) {
  let text = QUOTED.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (QUOTED.size < 65536) QUOTED.set(key, text);
  }
  return text;
}

export function canonical(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + canonical(value[i]);
    return out + "]";
  }
  const keys = Object.keys(value).sort(); // UTF-16 code unit order, as RFC 8785 asks
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    out += (i ? "," : "") + quoted(keys[i]) + ":" + canonical(value[keys[i]]);
  }
  return out + "}";
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

// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) computed here, synchronously: the session
// log's verifier hashes every event and every draw, and Web Crypto's answer to each small
// message is a promise (a task and a copy each): for a long log that cost more than the
// hashing itself.
const SHA_K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const SHA_W = new Int32Array(64);
const SHA_H = new Int32Array(8);
const SHA_TAIL = new Uint8Array(128);
const SHA_START = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

function compress(bytes, offset) {
  const w = SHA_W;
  for (let i = 0; i < 16; i++) {
    const o = offset + 4 * i;
    w[i] = (bytes[o] << 24) | (bytes[o + 1] << 16) | (bytes[o + 2] << 8) | bytes[o + 3];
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15], b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  const H = SHA_H;
  let a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + SHA_K[i] + w[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  H[0] = (H[0] + a) | 0; H[1] = (H[1] + b) | 0; H[2] = (H[2] + c) | 0; H[3] = (H[3] + d) | 0;
  H[4] = (H[4] + e) | 0; H[5] = (H[5] + f) | 0; H[6] = (H[6] + g) | 0; H[7] = (H[7] + h) | 0;
}

export function sha256(bytes) {
  const length = bytes.length;
  SHA_H.set(SHA_START);
  const whole = length - (length % 64);
  for (let offset = 0; offset < whole; offset += 64) compress(bytes, offset);
  const tail = SHA_TAIL;
  tail.fill(0);
  tail.set(bytes.subarray(whole));
  tail[length - whole] = 0x80;
  const end = length - whole < 56 ? 64 : 128; // the padding and the 8-byte length
  const bits = length * 8;
  const high = Math.floor(bits / 0x100000000);
  const low = bits >>> 0;
  tail[end - 8] = high >>> 24; tail[end - 7] = high >>> 16; tail[end - 6] = high >>> 8; tail[end - 5] = high;
  tail[end - 4] = low >>> 24; tail[end - 3] = low >>> 16; tail[end - 2] = low >>> 8; tail[end - 1] = low;
  compress(tail, 0);
  if (end === 128) compress(tail, 64);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const word = SHA_H[i];
    out[4 * i] = word >>> 24; out[4 * i + 1] = word >>> 16; out[4 * i + 2] = word >>> 8; out[4 * i + 3] = word;
  }
  return out;
}

export function toHexString(bytes) {
  let hex = "";
  for (const byte of bytes) hex += HEX[byte];
  return hex;
}

let scratch = new Uint8Array(4096); // a text's UTF-8, written in place (no copy per hash)

export function sha256HexNow(text) {
  if (scratch.length < 3 * text.length) scratch = new Uint8Array(3 * text.length + 1024);
  const { written } = UTF8.encodeInto(text, scratch);
  return toHexString(sha256(scratch.subarray(0, written)));
}

// HMAC-SHA-256 with a key of at most 64 bytes (the dice seed's 32): sign(message) → 32 bytes.
export function hmacSha256(key) {
  const inner = new Uint8Array(64).fill(0x36);
  const outer = new Uint8Array(64).fill(0x5c);
  key.forEach((byte, i) => { inner[i] ^= byte; outer[i] ^= byte; });
  return (message) => {
    const first = new Uint8Array(64 + message.length);
    first.set(inner);
    first.set(message, 64);
    const second = new Uint8Array(96);
    second.set(outer);
    second.set(sha256(first), 64);
    return sha256(second);
  };
}

export const utf8 = (text) => UTF8.encode(text);
