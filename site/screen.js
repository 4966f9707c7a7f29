// What the page shows of a table: the worker's screens (HTML rendered by Python, only
// inserted here), the keyboard's place across redraws, where the screen is scrolled, news
// for screen readers, what moves and sounds when something happens, the toast.

// A hidden page gets no animation frames; a coalesced screen is then drawn at this pace.
const HIDDEN_PAINT_MS = 250;
const TOAST_MS = 6000;

/** What kind of screen the game area shows: a table's setup form, the table (playing or
 * over: "Play again" is a new game), or another screen named by its status. */
function screenOf(area) {
  const form = area.querySelector('form[data-form="setup"]');
  if (form) return `setup ${form.dataset.game}`;
  const table = area.querySelector(".tb-table");
  if (!table) return `screen ${area.dataset.status}`;
  return `table ${table.dataset.game}${area.querySelector("[data-testid=game-over]") ? " over" : ""}`;
}

/** Whether a tap at ``y`` (in the viewport) in the middle of ``el`` reaches it. */
function reachable(el, y) {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, y);
  return Boolean(hit) && el.contains(hit);
}

/** Scrolls ``el`` into view under the page's top bar, unless its top and bottom edges are
 * already in view and uncovered (nothing stuck to the screen, like a dock, lies over them). */
function bringIntoView(el) {
  const below = document.querySelector("header.bar")?.getBoundingClientRect().bottom ?? 0;
  const r = el.getBoundingClientRect();
  const edge = Math.min(8, r.height / 2);
  if (r.top >= below && r.bottom <= innerHeight && reachable(el, r.top + edge) && reachable(el, r.bottom - edge)) return;
  window.scrollBy(0, r.top - below - 8);
}

export class PageScreen {
  /**
   * @param $     (id) -> element
   * @param i18n  the page's language (i18n.js)
   * @param sounds  the table's sounds (sound.js): ``play(cue)``
   */
  constructor($, i18n, sounds) {
    this.$ = $;
    this.i18n = i18n;
    this.sounds = sounds;
    this.announced = "";
    this.shown = null; // the kind of screen last painted (screenOf)
    this.news = new Set(); // the data-news marks last painted
    this.motions = new Set(); // the data-motion marks last painted
    this.pending = null; // the latest screen waiting for its frame
    this.toastTimer = null;
    this.toasts = 0; // notices shown so far: a dismiss hides only the one it came with
  }

  /** Puts a rendered screen on the page, keeping a keyboard player's place. */
  paint(reply) {
    const { $, i18n } = this;
    const area = $("game-area");
    const key = this.focusKey(document.activeElement);
    const before = area.dataset.status;
    if (typeof reply.html === "string") area.innerHTML = reply.html;
    area.dataset.status = reply.status || "";
    const gameId = area.querySelector("[data-game]")?.dataset.game;
    $("howto-link").hidden = !gameId;
    if (gameId) $("howto-link").href = i18n.howtoPage(gameId);
    document.title = reply.title ? `${reply.title} · ${i18n.t("app.title")}` : i18n.t("app.title");
    $("game-heading").textContent = reply.title || "";
    this.announce(area);
    this.restoreFocus(key);
    const sameScreen = screenOf(area) === this.shown;
    this.playMotion(area, sameScreen);
    if (sameScreen && area.dataset.status === "human" && before !== "human") this.sounds.play("turn");
    this.placeView(area);
  }

  /** Motion (pyengine/ui/motion.py): an element whose data-motion key was not on the screen
   * painted before plays its motion (class tb-moving, drawn by CSS) and its sound, if it has
   * one (data-sound); on a screen just opened nothing moves or sounds. */
  playMotion(area, sameScreen) {
    const marked = [...area.querySelectorAll("[data-motion]")];
    const fresh = sameScreen ? marked.filter((el) => !this.motions.has(el.dataset.motion)) : [];
    this.motions = new Set(marked.map((el) => el.dataset.motion));
    for (const el of fresh) el.classList.add("tb-moving");
    for (const cue of new Set(fresh.map((el) => el.dataset.sound).filter(Boolean))) this.sounds.play(cue);
  }

  /** A new kind of screen starts at its top (on a phone the page kept the scroll of the
   * lobby, of a long setup form or of the finished game, and opened it in the middle); news
   * that was not on the screen before (a reveal, the game's end, a trick looked back at) is
   * brought into view, never left under a phone's dock or below the fold. */
  placeView(area) {
    const screen = screenOf(area);
    if (screen !== this.shown) {
      this.shown = screen;
      window.scrollTo(0, 0);
    }
    const marked = [...area.querySelectorAll("[data-news]")];
    const fresh = marked.filter((el) => !this.news.has(el.dataset.news));
    this.news = new Set(marked.map((el) => el.dataset.news));
    // The newest news, unless an alert (the host lost) came with it: that one must be seen.
    const urgent = fresh.find((el) => el.getAttribute("role") === "alert");
    if (fresh.length) bringIntoView(urgent ?? fresh[fresh.length - 1]);
  }

  /** A shared table's screens arrive as fast as peers send messages: the latest one is drawn
   * at most once per animation frame (a flood costs one paint per frame, not one each). */
  paintSoon(reply) {
    const first = this.pending === null;
    this.pending = reply;
    if (!first) return;
    const flush = () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      const latest = this.pending;
      this.pending = null;
      if (latest) this.paint(latest);
    };
    const frame = requestAnimationFrame(flush);
    const timer = setTimeout(flush, HIDDEN_PAINT_MS);
  }

  /** A screen of a table left behind must not be drawn after it. */
  dropPending() {
    this.pending = null;
  }

  busy(on) {
    if (on) this.$("game-area").setAttribute("aria-busy", "true");
    else this.$("game-area").removeAttribute("aria-busy");
  }

  /** Which control had the focus, so a keyboard player keeps their place after a re-render. */
  focusKey(el) {
    if (!el || !this.$("game-area").contains(el)) return null;
    for (const attr of ["data-testid", "id", "data-act", "data-ui"]) {
      if (el.hasAttribute(attr)) return [attr, el.getAttribute(attr)];
    }
    return null;
  }

  restoreFocus(key) {
    const area = this.$("game-area");
    let target = null;
    if (key) {
      target = [...area.querySelectorAll(`[${key[0]}]`)].find((el) => el.getAttribute(key[0]) === key[1]);
    }
    target = target || area.querySelector("[autofocus]");
    if (target && !target.disabled) target.focus();
    // The control is gone (e.g. the bid picker after a bid): keep the keyboard in the game.
    else if (key) area.focus({ preventScroll: true });
  }

  /** Turns and results for screen readers: the screen marks its news with data-announce; the
   * page's one live region (outside the redrawn area, so it is heard) reads it when it changes. */
  announce(area) {
    const news = [...area.querySelectorAll("[data-announce]")].map((el) => el.textContent.trim()).join(" ");
    if (news === this.announced) return;
    this.announced = news;
    this.$("announce").textContent = news;
  }

  /** A short notice (hidden after a while), or one with a button (kept until pressed or
   * replaced); no text hides it. Returns ``dismiss``: hides this notice if it still shows
   * (news that makes it untrue, such as a friend who left, must not hide a newer one). */
  toast(text, action) {
    const box = this.$("toast");
    box.replaceChildren();
    this.toasts += 1;
    const shown = this.toasts;
    if (!text) {
      box.hidden = true;
      return () => {};
    }
    const span = document.createElement("span");
    span.textContent = text;
    box.append(span);
    if (action) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn btn-primary";
      button.textContent = action.label;
      button.addEventListener("click", action.run);
      box.append(button);
    }
    box.hidden = false;
    clearTimeout(this.toastTimer);
    if (!action) this.toastTimer = setTimeout(() => { box.hidden = true; }, TOAST_MS);
    return () => { if (this.toasts === shown) box.hidden = true; };
  }
}
