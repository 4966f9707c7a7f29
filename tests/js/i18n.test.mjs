// The page's translator (site/i18n.js) elides Catalan as the worker's does (pyengine/i18n,
// tests/i18n/test_catalogs.py's cases): the page's own messages name players too.

import assert from "node:assert/strict";
import { test } from "node:test";

import { PageLanguage } from "../../site/i18n.js";

/** A page language ``lang`` holding ``strings`` (the settings' menu offers the five). */
function language(lang, strings) {
  const options = ["en", "pt", "es", "ca", "it"].map((value) => ({ value, lang: "" }));
  const page = new PageLanguage({ options });
  [page.lang, page.strings] = [lang, strings];
  return page;
}

const INVITE = { "sync.invite_label": "Convidar un amic al seient de {name}" };

test("Catalan elides de, la and el before a vowel sound, a silent h included", () => {
  const ca = language("ca", { ...INVITE, play: "Et toca: juga el {card}.", "the.x": "La {x} i la {y}" });
  assert.equal(ca.t("sync.invite_label", { name: "Anna" }), "Convidar un amic al seient d'Anna");
  assert.equal(ca.t("sync.invite_label", { name: "Hugo" }), "Convidar un amic al seient d'Hugo");
  assert.equal(ca.t("sync.invite_label", { name: "Berta" }), "Convidar un amic al seient de Berta");
  assert.equal(ca.t("play", { card: "A♥" }), "Et toca: juga l'A♥.");
  assert.equal(ca.t("play", { card: "K♥" }), "Et toca: juga el K♥.");
  assert.equal(ca.t("the.x", { x: "Èlia", y: "Rosa" }), "L'Èlia i la Rosa");
});

test("only a whole word before a placeholder is elided, and only in Catalan", () => {
  const ca = language("ca", { seat: "Seient {name}", sofa: "Sofade {name}", n: "de {n} punts" });
  assert.equal(ca.t("seat", { name: "Anna" }), "Seient Anna");
  assert.equal(ca.t("sofa", { name: "Anna" }), "Sofade Anna");
  assert.equal(ca.t("n", { n: 8 }), "de 8 punts");
  assert.equal(language("es", INVITE).t("sync.invite_label", { name: "Anna" }), "Convidar un amic al seient de Anna");
});
