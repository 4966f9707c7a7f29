// What lives in web storage, never in the saves' database: the player's settings and which
// table this tab shows. Reading and writing never throw (private modes, a full quota): a
// setting not kept is only forgotten.
//
// Which table is on screen (the one-device table's save id, a shared table's marker) is kept
// in this tab's sessionStorage first, which survives a reload and keeps two tabs of one
// browser from taking each other's table or seat, and in localStorage too, to come back to
// it after the app was closed.

function quietly(storage) {
  return {
    get(key) {
      try { return storage().getItem(key); } catch { return null; }
    },
    set(key, value) {
      try { storage().setItem(key, value); } catch { /* not kept */ }
    },
    remove(key) {
      try { storage().removeItem(key); } catch { /* nothing to remove */ }
    },
  };
}

/** The player's settings (language, bots' pace, name, relays): this browser's localStorage. */
export const settings = quietly(() => localStorage);
const tab = quietly(() => sessionStorage);

/** This tab's copy first, then the browser's latest (saves.js reads the saves of versions
 * before IndexedDB the same way). */
export const tabFirst = {
  get: (key) => tab.get(key) ?? settings.get(key),
  set(key, value) {
    tab.set(key, value);
    settings.set(key, value);
  },
  remove(key) {
    tab.remove(key);
    settings.remove(key);
  },
};

const CURRENT = "taberna.current"; // the one-device table on screen: its save id
const SHARED = "taberna.shared"; // the shared table on screen: {role, table, via, seat, room, pin, onScreen}
const GUEST_SAVE = "taberna.guestSave"; // this tab's seat among the saved guest seats
const REPLAY = "taberna.replay"; // the replay on screen: its save (the record's text and step)

/** Which table this tab shows, so that a reload comes straight back to it. */
export const onScreen = {
  local: () => tabFirst.get(CURRENT),
  setLocal: (id) => tabFirst.set(CURRENT, id),
  clearLocal: () => tabFirst.remove(CURRENT),
  /** The shared table's marker, or null. */
  shared() {
    try {
      const marker = JSON.parse(tabFirst.get(SHARED));
      return marker && (marker.role === "host" || marker.role === "guest") ? marker : null;
    } catch {
      return null;
    }
  },
  setShared: (marker) => tabFirst.set(SHARED, JSON.stringify(marker)),
  clearShared: () => tabFirst.remove(SHARED),
  /** The shared table stays resumable from the lobby, but a reload no longer reopens it. */
  leaveShared() {
    const marker = onScreen.shared();
    if (marker) onScreen.setShared({ ...marker, onScreen: false });
  },
  replay: () => tabFirst.get(REPLAY),
  setReplay: (text) => tabFirst.set(REPLAY, text),
  clearReplay: () => tabFirst.remove(REPLAY),
  guestSave: () => tab.get(GUEST_SAVE),
  setGuestSave: (id) => tab.set(GUEST_SAVE, id),
};
