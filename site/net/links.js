// What a shared table's links look like, and where its saves live. Kept apart from the
// driver so the page can read a link on start-up without loading any networking code.

export const SHARED_KEYS = { host: "taberna.host", guest: "taberna.guest", shared: "taberna.shared" };

/** ``#join=<table>.<seat>.<code>`` (a whole link or just its fragment) -> parts, or null. */
export function parseJoinLink(text) {
  const match = /(?:^|#)join=([A-Za-z0-9_-]{1,64})\.(\d{1,2})\.([A-Za-z0-9_.~-]+)\s*$/.exec(String(text).trim());
  if (!match) return null;
  return { table: match[1], seat: Number(match[2]), code: match[3] };
}

/** A page fragment -> ``{via: "invite"|"room"|"tab", table, seat?, code?}``, or null. */
export function parseRoute(hash) {
  const join = parseJoinLink(hash);
  if (join) return { via: "invite", ...join };
  const match = /^#(room|tab)=([A-Za-z0-9_-]{1,64})$/.exec(hash);
  if (!match) return null;
  return { via: match[1], table: match[2].toUpperCase() };
}

/** The Web Lock a tab holds while it hosts ``table`` or plays its ``seat`` there, so that a
 * second tab of the same browser does not open the same host or seat (two hosts of one
 * table, or two tabs taking one seat from each other). */
export function lockName(role, table, seat = null) {
  return role === "host" ? `taberna.host.${table}` : `taberna.seat.${table}.${seat}`;
}

/** Whether another tab of this browser holds ``name`` (false where Web Locks are missing:
 * pages on a plain-http LAN address are not a secure context). */
export async function heldElsewhere(name) {
  if (!navigator.locks?.query) return false;
  try {
    const { held } = await navigator.locks.query();
    return held.some((lock) => lock.name === name);
  } catch {
    return false;
  }
}

/** One field of a saved JSON object (a save's text), or null. */
export function savedField(text, field) {
  try {
    return JSON.parse(text)[field] ?? null;
  } catch {
    return null;
  }
}
