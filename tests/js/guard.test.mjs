// The room's arrival checks (site/net/guard.js) on Trystero's frames, with a clock the test owns.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";

import { InboundGate, readLimits, roomToken } from "../../site/net/guard.js";

const encoder = new TextEncoder();
const TOKEN = "ab".repeat(32);

/** A Trystero room frame: one chunk of ``bytes`` payload bytes on action ``name``. */
function frame(name, { nonce = 0, last = true, bytes = 0, token = TOKEN } = {}) {
  const tokenBytes = encoder.encode(token);
  const chunk = 3 + tokenBytes.length;
  const out = new Uint8Array(chunk + 36 + bytes);
  out.set([1, tokenBytes.length >> 8, tokenBytes.length & 255]);
  out.set(tokenBytes, 3);
  out.set(encoder.encode(name), chunk);
  out.set([nonce >> 8, nonce & 255, last ? 1 : 0], chunk + 32);
  return out.buffer;
}

/** A gate of a host (it reads ``prove`` and texts) and its clock, in ms. */
function hostGate() {
  const clock = { now: 0 };
  return { gate: new InboundGate(TOKEN, readLimits(["prove"]), () => clock.now), clock };
}

test("only what this side reads, of this room, passes; the rest is dropped unread", () => {
  const { gate } = hostGate();
  assert.equal(gate.check(frame("prove", { bytes: 100 })), "pass");
  assert.equal(gate.check(frame("text", { bytes: 100 })), "pass");
  assert.equal(gate.check(frame("@_hsdata", { bytes: 100 })), "pass");
  assert.equal(gate.check(frame("proof", { bytes: 100 })), "drop"); // a guest's action
  assert.equal(gate.check(frame("@_stream", { bytes: 100 })), "drop"); // media: never used
  assert.equal(gate.check(frame("prove", { token: "cd".repeat(32) })), "drop"); // another room
  const presence = new Uint8Array([2, 1, 0, 64, ...encoder.encode(TOKEN)]).buffer;
  assert.equal(gate.check(presence), "pass");
});

test("a message over its action's size, a frame too big or malformed, cuts the peer off", () => {
  const { gate, clock } = hostGate();
  assert.equal(gate.check(frame("prove", { last: false, bytes: 10_000 })), "pass");
  assert.equal(gate.check(frame("prove", { bytes: 10_000 })), "cut"); // 20,000 > 16 KiB
  let chunks = 0;
  let verdict;
  do {
    clock.now += 1000; // never short of budget
    verdict = gate.check(frame("text", { nonce: 1, last: false, bytes: 16_000 }));
    chunks += 1;
  } while (verdict === "pass");
  assert.equal(verdict, "cut");
  assert.equal(chunks, Math.floor((1024 * 1024) / 16_000) + 1); // a text may reach 1 MiB
  assert.equal(hostGate().gate.check(new ArrayBuffer(20 * 1024)), "cut");
  assert.equal(hostGate().gate.check("text"), "cut");
  assert.equal(hostGate().gate.check(new Uint8Array([7, 0, 0, 0]).buffer), "cut");
});

test("at most 8 messages may be under way on one connection", () => {
  const { gate } = hostGate();
  for (let nonce = 0; nonce < 8; nonce += 1) assert.equal(gate.check(frame("text", { nonce, last: false, bytes: 10 })), "pass");
  assert.equal(gate.check(frame("text", { nonce: 3, bytes: 10 })), "pass"); // one ends
  assert.equal(gate.check(frame("text", { nonce: 8, last: false, bytes: 10 })), "pass");
  assert.equal(gate.check(frame("text", { nonce: 9, last: false, bytes: 10 })), "cut");
});

test("a connection has 4 MiB at once and 1 MiB a second, unread chunks included", () => {
  const steady = hostGate();
  for (let i = 0; i < 1000; i += 1) {
    steady.clock.now += 16; // 16,000 bytes every 16 ms: just under 1 MiB a second
    assert.equal(steady.gate.check(frame("proof", { bytes: 16_000 - 36 - 67 })), "drop");
  }
  const { gate } = hostGate(); // the clock stands still
  let sent = 0;
  while (gate.check(frame("proof", { bytes: 16_000 - 36 - 67 })) === "drop") sent += 16_000;
  assert.ok(sent <= 4 * 1024 * 1024 && sent > 4 * 1024 * 1024 - 16_000, sent);
  const tiny = hostGate().gate;
  let count = 0;
  while (tiny.check(frame("text")) === "pass") count += 1;
  assert.equal(count, (4 * 1024 * 1024) / 256); // each chunk counts at least 256 bytes
});

test("the room's token is Trystero's: the SHA-256 of its library name, app id and room id", async () => {
  const expected = createHash("sha256").update("Trystero:taberna:room-xyz").digest("hex");
  assert.equal(await roomToken("taberna", "room-xyz"), expected);
});
