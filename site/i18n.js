// The page's language: its catalog (i18n/<code>.json, compiled from pyengine/i18n by the
// build), t(), the static text of the page in that language, and numbers and dates written
// as the language writes them.

// Catalan elides "de", "la" and "el" before a placeholder whose value starts with a vowel
// sound ("de {name}" with Anna: "d'Anna"): pyengine/i18n/__init__.py's rule (ELIDED), which
// makes the worker's text, kept the same for the page's own messages.
const ELIDED = {
  ca: [/(?<![\p{L}\p{N}_])(de|De|la|La|el|El) \{(\w+)\}/gu, { d: "d'", D: "D'", l: "l'", L: "L'", e: "l'", E: "L'" }],
};
const VOWEL_SOUND = /^h?[aeiouàèéíïòóúü]/i;

/** ``template`` with its words elided in ``lang`` before the placeholders ``shown`` fills. */
export function elide(lang, template, shown) {
  if (!ELIDED[lang]) return template;
  const [before, elided] = ELIDED[lang];
  return template.replace(before, (whole, word, name) =>
    (name in shown && VOWEL_SOUND.test(shown[name]) ? `${elided[word[0]]}{${name}}` : whole));
}

import { settings } from "./storage.js";

// Resolves in a task of its own: long work split this way leaves the page responsive.
export const nextTask = () => new Promise((resolve) => setTimeout(resolve));

// The player's choice of language, among the settings.
export const LANG_KEY = "taberna.lang";

// Catalogs requested before a load() asked for them: code -> the response's promise.
const requested = new Map();

export class PageLanguage {
  /** ``select``: the settings' language menu, each option with the page's lang attribute in
   * its language (pt: pt-BR), written by the build from the engine's languages. */
  constructor(select) {
    this.tags = new Map([...select.options].map((option) => [option.value, option.lang || option.value]));
    this.codes = [...this.tags.keys()];
    this.lang = "en";
    this.strings = null; // the catalog of `lang`, once it has arrived
    this.keysShown = false; // t() ran before any catalog had arrived: the page may show keys
    this.formatters = new Map();
  }

  tag(code) {
    return this.tags.get(code) ?? code;
  }

  /** The saved choice, else the browser's first preference we have, else English. */
  pick(saved) {
    if (this.codes.includes(saved)) return saved;
    for (const tag of navigator.languages || [navigator.language || "en"]) {
      const base = String(tag).split("-")[0].toLowerCase();
      if (this.codes.includes(base)) return base;
    }
    return "en";
  }

  /** Intl's formatters are slow to make (the page's first number format loads the language's
   * data: 10-35 ms of the main thread), so each kind is made once per language. */
  formatter(Kind, options = {}) {
    const key = `${Kind.name} ${this.lang} ${JSON.stringify(options)}`;
    if (!this.formatters.has(key)) this.formatters.set(key, new Kind(this.lang, options));
    return this.formatters.get(key);
  }

  /** A plural message is an object of CLDR categories, picked by the number in params.count;
   * numbers are written as the language writes them. */
  t(key, params = {}) {
    if (!this.strings) this.keysShown = true;
    let template = this.strings?.[key] ?? key;
    if (typeof template === "object") {
      template = template[this.formatter(Intl.PluralRules).select(Number(params.count))] ?? template.other;
    }
    const write = (value) => (typeof value === "number" ? this.formatter(Intl.NumberFormat).format(value) : String(value));
    const shown = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, write(value)]));
    return elide(this.lang, template, shown).replace(/\{(\w+)\}/g, (whole, name) => (name in shown ? shown[name] : whole));
  }

  has(key) {
    return Boolean(this.strings?.[key]);
  }

  /** A game's how-to-play page in this language (static, built from its howto/*.md). */
  howtoPage(gameId) {
    return `howto/${gameId}.${this.lang}.html`;
  }

  /** Switches to ``code`` once its catalog has arrived; false if another language was
   * chosen meanwhile. */
  async load(code) {
    const early = requested.get(code);
    requested.delete(code);
    const response = await (early ?? fetch(`i18n/${code}.json`));
    if (!response.ok) throw new Error(`i18n/${code}.json: ${response.status}`);
    [this.strings, this.lang] = [await response.json(), code];
    if (this.tag(code) !== document.documentElement.lang || this.keysShown) await this.translatePage(code);
    return this.lang === code;
  }

  /** Writes language ``code`` into the page's static text (built in English, ``<html lang="en">``),
   * in tasks of their own: the language's formatters first, then the page, only what differs. */
  async translatePage(code) {
    this.formatter(Intl.PluralRules);
    this.formatter(Intl.NumberFormat);
    await nextTask();
    if (this.lang !== code) return; // another language was chosen meanwhile
    document.documentElement.lang = this.tag(code);
    const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
    const setAttribute = (el, name, value) => { if (el.getAttribute(name) !== value) el.setAttribute(name, value); };
    for (const el of document.querySelectorAll("[data-i18n]")) {
      const { i18nLow: low, i18nHigh: high, i18nCount: count } = el.dataset;
      setText(el, this.t(el.dataset.i18n, count === undefined ? { low, high } : { count: Number(count) }));
    }
    for (const el of document.querySelectorAll("a[data-howto]")) setAttribute(el, "href", this.howtoPage(el.dataset.howto));
    for (const el of document.querySelectorAll("[data-i18n-placeholder]")) {
      setAttribute(el, "placeholder", this.t(el.dataset.i18nPlaceholder));
    }
    for (const el of document.querySelectorAll("[data-i18n-aria]")) {
      setAttribute(el, "aria-label", this.t(el.dataset.i18nAria));
    }
  }

  /** "3 minutes ago" today, a date and time before. */
  when(ms) {
    const minutes = Math.round((ms - Date.now()) / 60000);
    try {
      const relative = this.formatter(Intl.RelativeTimeFormat, { numeric: "auto" });
      if (Math.abs(minutes) < 60) return relative.format(minutes, "minute");
      if (Math.abs(minutes) < 24 * 60) return relative.format(Math.round(minutes / 60), "hour");
      return this.formatter(Intl.DateTimeFormat, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
    } catch {
      return new Date(ms).toLocaleString();
    }
  }
}

// index.html runs this module on its own as soon as the page is parsed, before app.js's
// imports have all arrived: the catalog of the language the page opens in is requested
// then, and the lobby's first load() takes that request instead of waiting for app.js.
const menu = globalThis.document?.getElementById("lang");
if (menu) {
  const code = new PageLanguage(menu).pick(settings.get(LANG_KEY));
  const early = fetch(`i18n/${code}.json`);
  early.catch(() => {}); // a failure is load()'s to report
  requested.set(code, early);
}
