// A friend's link names the game and the host (site/net/links.js) for the join screen: what
// it says is read back, and anything else a link may carry is not taken at its word.

import assert from "node:assert/strict";
import { test } from "node:test";

import { joinFragment, parseJoinLink, parseRoute, roomFragment } from "../../site/net/links.js";

const PIN = "A".repeat(43);

test("an invite link carries the game and the host's name next to the seat, and reads back", () => {
  const fragment = joinFragment("T1abc", 2, PIN, "off.er~1", { game: "botifarra", host: "Ana Pérez" });
  assert.deepEqual(parseRoute(`#${fragment}`), {
    via: "invite", table: "T1abc", seat: 2, pin: PIN, code: "off.er~1", game: "botifarra", host: "Ana Pérez",
  });
  // Pasted whole, from a page address with a query of its own.
  assert.equal(parseJoinLink(`https://example.org/t/?a=1&b=2#${fragment}`).host, "Ana Pérez");
});

test("a room link names them too; links from before (and a host with no name) name nothing", () => {
  const fragment = roomFragment("7K3QWX9TPM2D", PIN, { game: "perudo", host: null });
  assert.deepEqual(parseRoute(`#${fragment}`), { via: "room", room: "7K3QWX9TPM2D", pin: PIN, table: null, game: "perudo", host: null });
  assert.deepEqual(parseRoute("#join=T1.0.-.code"), { via: "invite", table: "T1", seat: 0, pin: null, code: "code", game: null, host: null });
  assert.equal(joinFragment("T1", 0, null, "code", null), "join=T1.0.-.code");
});

test("what a link says is only words: no markup game, no control or bidi characters, a seat name's length", () => {
  const hostile = "#join=T1.1.-.code&game=<img src=x>&host=%E2%80%AEevil%0A%20%20" + "x".repeat(40);
  const route = parseRoute(hostile);
  assert.equal(route.game, null);
  assert.equal(route.host, `evil ${"x".repeat(19)}`);
  assert.equal(parseRoute("#join=T1.1.-.code&host=%20%E2%80%8B%20").host, null); // blank once cleaned
});

test("a long name in many-byte letters is shortened so the link stays one small QR code", () => {
  const fragment = joinFragment("T1", 1, PIN, "code", { game: "bog", host: "😀".repeat(24) });
  const { host } = parseRoute(`#${fragment}`);
  assert.ok(host.length > 0 && encodeURIComponent(host).length <= 96, host);
  assert.ok(fragment.length < 200, fragment);
});
