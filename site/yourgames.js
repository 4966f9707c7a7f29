// Your games in the lobby: the buttons that open the finished games and the statistics
// (GamesSession, session.js), and the backup of everything on this device as one file
// (saves.js: every saved table and finished game; the settings) and its import.

/**
 * @param ctx {$, t, page (download), shelf() -> SaveShelf, settings (storage.js), keys: the
 *             settings' keys, open(view), refresh() (the lobby's list of saved games)}
 */
export function wireYourGames({ $, t, page, shelf, settings, keys, open, refresh }) {
  for (const button of document.querySelectorAll("[data-games]")) {
    button.addEventListener("click", () => open(button.dataset.games));
  }
  $("backup-export").addEventListener("click", () => {
    if (!shelf()) return;
    const kept = Object.fromEntries(keys.map((key) => [key, settings.get(key)]).filter(([, value]) => value !== null));
    page.download("taberna-backup.json", shelf().backup(kept));
  });
  $("backup-file").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    if (!file || !shelf()) return;
    const kept = await shelf().restore(await file.text());
    for (const [key, value] of Object.entries(kept ?? {})) {
      if (keys.includes(key) && typeof value === "string") settings.set(key, value);
    }
    const status = $("backup-status");
    status.hidden = false;
    status.textContent = t(kept ? "backup.done" : "backup.bad");
    event.target.value = "";
    refresh();
  });
}
