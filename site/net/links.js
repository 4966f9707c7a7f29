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
