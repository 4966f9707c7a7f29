// The share panel: the one place where links and codes travel between friends' phones.
//
// It shows a link or a code as text (copy, the phone's share sheet) and as a QR code made
// locally by the worker (no request leaves the site), and takes a code or link back (typed,
// pasted or, where the browser can, scanned with the camera). It knows nothing of tables:
// the driver hands it texts and callbacks.

import { errorText } from "./channel.js";

const MAX_INPUT = 4096;

// The ways a table's texts can go (channel.js ``path``), the most direct first.
const PATHS = ["tab", "direct", "turn", "brokers"];

export class SharePanel {
  /**
   * @param element  the (empty) container, shown and hidden by the panel
   * @param page     {t(key, params), qr(text) -> Promise<svg string>, toast(text)}
   * @param pathLine the (empty) element that says which way the table's texts go
   */
  constructor(element, page, pathLine) {
    this.element = element;
    this.page = page;
    this.pathLine = pathLine;
    this.shown = 0; // each show() bumps it, so a late QR never lands in a newer panel
    this.ondismiss = null;
    this.noticeLine = null; // the notice above the panel, once there was one
    this.warning = null; // the warning that stays until dismissed, once there was one
  }

  /** Says which way the table's texts go: ``paths`` of its open channels (none: hidden).
   * ``data-path`` names the slowest, for the page's styles. */
  showPaths(paths) {
    const ways = PATHS.filter((path) => paths.includes(path));
    this.pathLine.hidden = !ways.length;
    this.pathLine.dataset.path = ways.at(-1) ?? "";
    this.pathLine.textContent = ways.map((path) => this.page.t(`net.path_${path}`)).join(" · ");
  }

  /** Says ``text`` above the panel until the player dismisses it (a hidden panel
   * or a toast does not take it away; no text does): what a player must know before inviting. */
  warn(text) {
    if (!text) {
      if (this.warning) this.warning.hidden = true;
      return;
    }
    if (!this.warning) {
      this.warning = document.createElement("div");
      this.warning.className = "net-notice net-warning";
      this.warning.setAttribute("role", "alert");
      this.warning.dataset.testid = "net-warning";
      const dismiss = button(this.page.t("friends.dismiss"), "btn");
      dismiss.dataset.testid = "net-warning-dismiss";
      dismiss.addEventListener("click", () => { this.warning.hidden = true; });
      this.warning.append(paragraph("", "net-warning-text"), dismiss);
      this.element.before(this.warning);
    }
    this.warning.firstChild.textContent = text;
    this.warning.hidden = false;
  }

  /** Says ``text`` in a line just above the panel, in the page's flow: it covers no control,
   * as a toast over a phone's dock would. It stays until the panel is next hidden. */
  notice(text) {
    if (!this.noticeLine) {
      this.noticeLine = paragraph("", "net-notice");
      this.noticeLine.setAttribute("role", "status");
      this.noticeLine.dataset.testid = "net-notice";
      this.element.before(this.noticeLine);
    }
    this.noticeLine.textContent = text;
    this.noticeLine.hidden = false;
  }

  /** Hides the panel and the notice; whatever the panel was showing is told it is gone
   * (``ondismiss``). */
  hide() {
    if (this.noticeLine) this.noticeLine.hidden = true;
    this.dismiss();
    this.shown += 1;
    this.element.hidden = true;
    this.element.replaceChildren();
  }

  dismiss() {
    const ondismiss = this.ondismiss;
    this.ondismiss = null;
    ondismiss?.();
  }

  /**
   * ``{title, hint, busy, link, code, reply(text), paste(text), ondismiss()}``: every part
   * optional; ``ondismiss`` runs when this content is hidden or replaced.
   */
  show(spec) {
    this.dismiss();
    this.ondismiss = spec.ondismiss || null;
    const id = (this.shown += 1);
    const { t } = this.page;
    const box = this.element;
    box.replaceChildren();
    box.hidden = false;
    const title = document.createElement("h2");
    title.textContent = spec.title || "";
    box.append(title);
    if (spec.hint) box.append(paragraph(spec.hint, "net-hint"));
    if (spec.busy) box.append(paragraph(t("friends.preparing"), "net-busy"));
    const shared = spec.link || spec.code;
    if (shared) {
      box.append(this.textWithCopy(shared, spec.link ? "share-link" : "share-code"));
      const qr = document.createElement("div");
      qr.className = "net-qr";
      qr.dataset.testid = "share-qr";
      box.append(qr);
      this.page.qr(shared).then((svg) => {
        if (this.shown === id && svg) qr.innerHTML = svg;
      }).catch((error) => console.warn("qr", error));
    }
    if (spec.reply) box.append(this.input("reply", t("friends.reply_label"), t("friends.connect"), spec.reply));
    if (spec.paste) box.append(this.input("paste", t("friends.paste_label"), t("friends.open_link"), spec.paste));
    const close = button(t("friends.close"), "btn");
    close.dataset.testid = "share-close";
    close.addEventListener("click", () => this.hide());
    box.append(close);
    (box.querySelector("input, textarea, button") || box).focus({ preventScroll: false });
  }

  textWithCopy(text, testid) {
    const { t } = this.page;
    const row = document.createElement("div");
    row.className = "net-share";
    const field = document.createElement("textarea");
    field.readOnly = true;
    field.rows = 3;
    field.value = text;
    field.dataset.testid = testid;
    field.setAttribute("aria-label", t(testid === "share-link" ? "friends.link_label" : "friends.code_label"));
    field.addEventListener("focus", () => field.select());
    row.append(field);
    const copy = button(t("friends.copy"), "btn btn-primary");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(text);
        this.page.toast(t("friends.copied"));
      } catch {
        field.select(); // the player copies by hand
      }
    });
    row.append(copy);
    if (navigator.share) {
      const share = button(t("friends.share"), "btn");
      share.addEventListener("click", () => navigator.share({ text }).catch(() => {}));
      row.append(share);
    }
    return row;
  }

  /** A field for a code or link coming back, with a button that hands it to ``accept``. */
  input(name, label, action, accept) {
    const { t } = this.page;
    const form = document.createElement("form");
    form.className = "net-input";
    const caption = document.createElement("label");
    caption.textContent = label;
    const field = document.createElement("textarea");
    field.name = name;
    field.rows = 3;
    field.maxLength = MAX_INPUT;
    field.dataset.testid = `${name}-input`;
    field.setAttribute("autocomplete", "off");
    field.spellcheck = false;
    caption.append(field);
    const submit = button(action, "btn btn-primary");
    submit.type = "submit";
    submit.dataset.testid = `${name}-submit`;
    const problem = paragraph("", "net-problem");
    problem.setAttribute("role", "alert");
    form.append(caption, submit, problem);
    if ("BarcodeDetector" in window && navigator.mediaDevices?.getUserMedia) {
      const scan = button(t("friends.scan"), "btn");
      scan.addEventListener("click", () => scanInto(field, problem, t));
      form.insertBefore(scan, problem);
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const text = field.value.trim();
      if (!text) {
        problem.textContent = t("friends.empty_code");
        return;
      }
      submit.disabled = true;
      problem.textContent = t("friends.connecting");
      try {
        await accept(text);
      } catch (error) {
        problem.textContent = errorText(error, t);
      } finally {
        submit.disabled = false;
      }
    });
    return form;
  }
}

function paragraph(text, className) {
  const p = document.createElement("p");
  p.className = className;
  p.textContent = text;
  return p;
}

function button(text, className) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = className;
  b.textContent = text;
  return b;
}

/** Reads one QR code from the camera into ``field`` (browsers with BarcodeDetector only). */
async function scanInto(field, problem, t) {
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
  } catch {
    problem.textContent = t("friends.no_camera");
    return;
  }
  const video = document.createElement("video");
  video.className = "net-camera";
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  field.closest("form").insertBefore(video, problem);
  await video.play();
  const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
  const stop = () => {
    stream.getTracks().forEach((track) => track.stop());
    video.remove();
  };
  const started = Date.now();
  const look = async () => {
    try {
      const codes = await detector.detect(video);
      if (codes.length) {
        field.value = codes[0].rawValue;
        stop();
        return;
      }
    } catch { /* a frame that could not be read: try the next */ }
    if (Date.now() - started > 60_000) stop();
    else requestAnimationFrame(look);
  };
  look();
}
