// What the page shows of a table: the worker's screens (HTML rendered by Python, only
// inserted here), the keyboard's place across redraws, news for screen readers, the toast.

// A hidden page gets no animation frames; a coalesced screen is then drawn at this pace.
const HIDDEN_PAINT_MS = 250;
const TOAST_MS = 6000;

export class PageScreen {
  /**
   * @param $     (id) -> element
   * @param i18n  the page's language (i18n.js)
   */
  constructor($, i18n) {
    this.$ = $;
    this.i18n = i18n;
    this.announced = "";
    this.pending = null; // the latest screen waiting for its frame
    this.toastTimer = null;
  }

  /** Puts a rendered screen on the page, keeping a keyboard player's place. */
  paint(reply) {
    const { $, i18n } = this;
    const area = $("game-area");
    const key = this.focusKey(document.activeElement);
    if (typeof reply.html === "string") area.innerHTML = reply.html;
    area.dataset.status = reply.status || "";
    const gameId = area.querySelector("[data-game]")?.dataset.game;
    $("howto-link").hidden = !gameId;
    if (gameId) $("howto-link").href = i18n.howtoPage(gameId);
    document.title = reply.title ? `${reply.title} · ${i18n.t("app.title")}` : i18n.t("app.title");
    $("game-heading").textContent = reply.title || "";
    this.announce(area);
    this.restoreFocus(key);
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
   * replaced); no text hides it. */
  toast(text, action) {
    const box = this.$("toast");
    box.replaceChildren();
    if (!text) {
      box.hidden = true;
      return;
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
  }
}
