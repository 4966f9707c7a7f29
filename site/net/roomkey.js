// Room codes, and what a slow key derivation makes of them.
//
// A room code names its host's key: it is the first 60 bits of a labelled SHA-256 of the
// public key (codeOfKey), so a guest who typed it trusts only a host that proves a key the
// code names, as a room link's whole fingerprint does (an impostor would need a 60-bit second
// preimage). The label keeps the code out of the key's fingerprint, which invite links carry.
//
// The code is also the only secret a friend types, and the public MQTT brokers see the room's
// topic, derived from it; so whoever watches a broker can test guesses offline. Two things
// make that hopeless: codes of 12 characters from a 32-letter alphabet (2^60 of them) and
// PBKDF2-SHA-256 with KDF_ITERATIONS rounds before anything a broker sees (the figures are
// in the README's threat model). From the derived key come, each through its own label:
//
// * ``table``: the table's id, used in the protocol's messages, invite links, tab channels
//   and saves: never the code itself (an invite link does not give the room away);
// * ``roomId`` and ``password``: Trystero's room id (its broker topic is a hash of it) and
//   its password (which encrypts the WebRTC handshakes the brokers carry);
// * ``broker``: the secret of the broker path (brokerpath.js: its topic and the key of its
//   handshake frames), for friends with no direct path between them.
//
// Codes use Crockford's base 32: digits and letters without I, L, O and U; reading them
// back, I and L count as 1, O as 0, case, spaces and dashes are ignored.

export const ROOM_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const ROOM_CODE_LENGTH = 12;
export const KDF_ITERATIONS = 600_000;
const KDF_SALT = "taberna/room-code/v1";

const encoder = new TextEncoder();

/** The room code a SHA-256 ``digest`` names: its first 60 bits, five to a character. */
function roomCodeOf(digest) {
  const bytes = new Uint8Array(digest);
  let code = "";
  for (let bit = 0; bit < ROOM_CODE_LENGTH * 5; bit += 5) {
    const pair = (bytes[bit >> 3] << 8) | bytes[(bit >> 3) + 1];
    code += ROOM_ALPHABET[(pair >> (11 - (bit & 7))) & 31];
  }
  return code;
}

/** What a player typed -> the canonical code, or null if it cannot be one. */
export function normalizeRoomCode(text) {
  const code = String(text ?? "")
    .toUpperCase()
    .replace(/[\s-]/g, "")
    .replace(/[IL]/g, "1")
    .replace(/O/g, "0");
  if (code.length !== ROOM_CODE_LENGTH) return null;
  for (const char of code) if (!ROOM_ALPHABET.includes(char)) return null;
  return code;
}

/** ``ABCD-EFGH-JKMN``: groups of four, to read aloud and to type. */
export function showRoomCode(code) {
  return code.match(/.{1,4}/g).join("-");
}

function base64url(bytes) {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function labelled(key, label) {
  const data = new Uint8Array([...encoder.encode(`taberna/${label}\0`), ...new Uint8Array(key)]);
  return crypto.subtle.digest("SHA-256", data);
}

/** The room code of the host key whose public part is ``spki`` (its bytes). */
export async function codeOfKey(spki) {
  return roomCodeOf(await labelled(spki, "room-code"));
}

const derived = new Map(); // code -> Promise: one derivation per code and page

/** ``{table, roomId, password, broker, ms}`` for a canonical ``code`` (``ms``: the derivation's cost
 * on this device). Needs Web Crypto, so a secure context (https or localhost). */
export function roomSecrets(code) {
  if (!derived.has(code)) {
    derived.set(code, (async () => {
      const started = performance.now();
      const material = await crypto.subtle.importKey("raw", encoder.encode(code), "PBKDF2", false, ["deriveBits"]);
      const key = await crypto.subtle.deriveBits(
        { name: "PBKDF2", hash: "SHA-256", salt: encoder.encode(KDF_SALT), iterations: KDF_ITERATIONS },
        material,
        256, // one SHA-256 block: a longer output would cost a whole second run
      );
      const ms = performance.now() - started;
      return {
        table: base64url(await labelled(key, "table")).slice(0, 22),
        roomId: hex(await labelled(key, "room")),
        password: hex(await labelled(key, "password")),
        broker: hex(await labelled(key, "broker-path")),
        ms,
      };
    })());
    derived.get(code).catch(() => derived.delete(code));
  }
  return derived.get(code);
}

/** Whether this page can use room codes at all (Web Crypto is only in secure contexts). */
export function canDerive() {
  return Boolean(globalThis.crypto?.subtle);
}

export { base64url };
