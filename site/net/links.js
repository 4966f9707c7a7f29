// What a shared table's links look like, and the Web Locks that keep a table in one tab.
// Kept apart from the networking code so the page can read a link on start-up without it.

import { normalizeRoomCode } from "./roomkey.js";

const FINGERPRINT = "[A-Za-z0-9_-]{43}"; // identity.js fingerprintOf: SHA-256, base64url

/** ``#join=<table>.<seat>.<host key's fingerprint, or "-">.<invite code>`` (a whole link or
 * just its fragment) -> ``{table, seat, pin, code}``, or null. The room code is not in it. */
export function parseJoinLink(text) {
  const match = new RegExp(
    `(?:^|#)join=([A-Za-z0-9_-]{1,64})\\.(\\d{1,2})\\.(${FINGERPRINT}|-)\\.([A-Za-z0-9_.~-]+)\\s*$`,
  ).exec(String(text).trim());
  if (!match) return null;
  return { table: match[1], seat: Number(match[2]), pin: match[3] === "-" ? null : match[3], code: match[4] };
}

/** The fragment of an invite link (see parseJoinLink). */
export function joinFragment(table, seat, pin, code) {
  return `join=${table}.${seat}.${pin ?? "-"}.${code}`;
}

/** The fragment of a room link: the room code and the host key's fingerprint. */
export function roomFragment(roomCode, pin) {
  return `room=${roomCode}.${pin}`;
}

/** A page fragment -> ``{via: "invite", table, seat, pin, code}``, ``{via: "room", room,
 * pin}`` (the table id is derived from the room code later) or ``{via: "tab", table}``;
 * null if it is none of these. */
export function parseRoute(hash) {
  const join = parseJoinLink(hash);
  if (join) return { via: "invite", ...join };
  const room = new RegExp(`^#room=([0-9A-Za-z-]{12,20})(?:\\.(${FINGERPRINT}))?$`).exec(hash);
  if (room) {
    const code = normalizeRoomCode(room[1]);
    return code ? { via: "room", room: code, pin: room[2] ?? null, table: null } : null;
  }
  const tab = /^#tab=([A-Za-z0-9_-]{1,64})$/.exec(hash);
  return tab ? { via: "tab", table: tab[1] } : null;
}

/** The Web Lock a tab holds while it hosts ``table`` or plays its ``seat`` there, so that a
 * second tab of the same browser does not open the same host or seat (two hosts of one
 * table, or two tabs taking one seat from each other). */
export function lockName(role, table, seat = null) {
  return role === "host" ? `taberna.host.${table}` : `taberna.seat.${table}.${seat}`;
}
