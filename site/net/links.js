// What a shared table's links look like, and the Web Locks that keep a table in one tab.
// Kept apart from the networking code so the page can read a link on start-up without it.

import { normalizeRoomCode } from "./roomkey.js";

const FINGERPRINT = "[A-Za-z0-9_-]{43}"; // identity.js fingerprintOf: SHA-256, base64url
const HOST_NAME_MAX = 24; // a seat name's limit (pyengine/core/table.py MAX_NAME)
const HOST_NAME_ENCODED_MAX = 96; // characters of the name in a link: one QR code stays small

/** What a link says about its table for the join screen, ``&game=<id>&host=<name>`` after
 * its fragment: ``{game, host}``, each null when absent. Anyone can write a link, so both are
 * only words to show (as text): a game id the page cannot name is not named, and the host's
 * name loses control and format characters and is cut to a seat name's length. */
function readAbout(tail) {
  const params = new URLSearchParams(tail);
  const game = /^[a-z][a-z0-9_]{0,31}$/.exec(params.get("game") ?? "")?.[0] ?? null;
  const spaced = (params.get("host") ?? "").normalize("NFC").replace(/\p{C}/gu, "").replace(/\s+/gu, " ");
  const host = [...spaced.trim()].slice(0, HOST_NAME_MAX).join("").trim();
  return { game, host: host || null };
}

/** ``about`` ({game, host}) as a link's tail (see readAbout); a long name in many-byte
 * letters is shortened until the link stays short. */
function aboutTail(about) {
  const params = new URLSearchParams();
  if (about?.game) params.set("game", about.game);
  let name = [...(about?.host ?? "")];
  while (name.length && encodeURIComponent(name.join("")).length > HOST_NAME_ENCODED_MAX) name = name.slice(0, -1);
  if (name.length) params.set("host", name.join(""));
  const tail = params.toString();
  return tail ? `&${tail}` : "";
}

/** A link or fragment split at the first ``&`` of its fragment: ``[link, about]`` (see
 * readAbout; a page address's own query may hold an ``&`` too). */
function splitAbout(text) {
  const trimmed = String(text).trim();
  const at = trimmed.indexOf("&", Math.max(0, trimmed.indexOf("#")));
  return at < 0 ? [trimmed, readAbout("")] : [trimmed.slice(0, at), readAbout(trimmed.slice(at + 1))];
}

/** ``#join=<table>.<seat>.<host key's fingerprint, or "-">.<invite code>[&game=…&host=…]``
 * (a whole link or just its fragment) -> ``{table, seat, pin, code, game, host}``, or null.
 * The room code is not in it. */
export function parseJoinLink(text) {
  const [fragment, about] = splitAbout(text);
  const match = new RegExp(
    `(?:^|#)join=([A-Za-z0-9_-]{1,64})\\.(\\d{1,2})\\.(${FINGERPRINT}|-)\\.([A-Za-z0-9_.~-]+)$`,
  ).exec(fragment);
  if (!match) return null;
  return { table: match[1], seat: Number(match[2]), pin: match[3] === "-" ? null : match[3], code: match[4], ...about };
}

/** The fragment of an invite link (see parseJoinLink); ``about``: ``{game, host}``. */
export function joinFragment(table, seat, pin, code, about) {
  return `join=${table}.${seat}.${pin ?? "-"}.${code}${aboutTail(about)}`;
}

/** The fragment of a room link: the room code and the host key's fingerprint, and ``about``. */
export function roomFragment(roomCode, pin, about) {
  return `room=${roomCode}.${pin}${aboutTail(about)}`;
}

/** A page fragment -> ``{via: "invite", table, seat, pin, code, game, host}``, ``{via:
 * "room", room, pin, game, host}`` (the table id is derived from the room code later) or
 * ``{via: "tab", table}``; null if it is none of these. */
export function parseRoute(hash) {
  const join = parseJoinLink(hash);
  if (join) return { via: "invite", ...join };
  const [fragment, about] = splitAbout(hash);
  const room = new RegExp(`^#room=([0-9A-Za-z-]{12,20})(?:\\.(${FINGERPRINT}))?$`).exec(fragment);
  if (room) {
    const code = normalizeRoomCode(room[1]);
    return code ? { via: "room", room: code, pin: room[2] ?? null, table: null, ...about } : null;
  }
  const tab = /^#tab=([A-Za-z0-9_-]{1,64})$/.exec(hash);
  return tab ? { via: "tab", table: tab[1] } : null;
}

// A shared replay's link: the page's address, then this and the record (pyengine/records/link.py).
export const REPLAY_FRAGMENT = "replay=";

/** The record's part of a page fragment ``#replay=…``, or null for any other fragment. */
export function replayFragment(hash) {
  const text = String(hash ?? "");
  return text.startsWith(`#${REPLAY_FRAGMENT}`) ? text.slice(REPLAY_FRAGMENT.length + 1) : null;
}

/** The Web Lock a tab holds while it hosts ``table`` or plays its ``seat`` there, so that a
 * second tab of the same browser does not open the same host or seat (two hosts of one
 * table, or two tabs taking one seat from each other). */
export function lockName(role, table, seat = null) {
  return role === "host" ? `taberna.host.${table}` : `taberna.seat.${table}.${seat}`;
}
