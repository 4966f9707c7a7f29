// The broker path (site/net/brokerpath.js): sealed frames, chunks, replay refusal, the flood
// limits and the host's proof, over an in-memory "broker" the test owns.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CHUNK_BYTES, EVERYONE, GuestPath, HostPath, Inbox, KIND, openFrame, pathSecrets, readHeader, sealMessage,
} from "../../site/net/brokerpath.js";
import { fingerprintOf } from "../../site/net/identity.js";
import { base64url } from "../../site/net/roomkey.js";

const SECRET = "ab".repeat(32);
const A = "0a".repeat(16);
const B = "0b".repeat(16);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A broker: every link published on reaches every link subscribed, in order, when flushed. */
function broker() {
  const links = [];
  const queue = [];
  const wire = [];
  return {
    wire,
    link() {
      const link = {
        onframe: null,
        publish: (frame) => {
          wire.push(frame);
          queue.push(frame);
        },
        close() {},
      };
      links.push(link);
      return link;
    },
    /** Delivers what was published (and what that caused) until the broker is quiet. */
    async flush() {
      for (let round = 0; round < 50; round++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (!queue.length) continue;
        for (const frame of queue.splice(0)) for (const link of links) link.onframe?.(frame.slice());
      }
    },
  };
}

const noTimers = { setInterval: () => 0, clearInterval() {}, setTimeout: () => 0, clearTimeout() {} };

async function hostIdentity() {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  const spki = await crypto.subtle.exportKey("spki", pair.publicKey);
  return { privateKey: pair.privateKey, publicKey: base64url(spki), fingerprint: await fingerprintOf(spki) };
}

test("a frame opens only under its key and with its own header", async () => {
  const { roomKey } = await pathSecrets(SECRET);
  const other = (await pathSecrets("cd".repeat(32))).roomKey;
  const [frame] = await sealMessage(roomKey, { kind: KIND.TEXT, from: A, to: B, counter: 7 }, encoder.encode("hola"));
  assert.deepEqual(readHeader(frame), { kind: KIND.TEXT, from: A, to: B, counter: 7, index: 0, count: 1 });
  assert.equal(decoder.decode(await openFrame(roomKey, frame)), "hola");
  assert.equal(await openFrame(other, frame), null);
  for (const at of [1, 2, 20, 35, 36, 40]) { // kind, sender, recipient, counter, index
    const moved = frame.slice();
    moved[at] ^= 1;
    assert.equal(await openFrame(roomKey, moved), null, `header byte ${at}`);
  }
  const [again] = await sealMessage(roomKey, { kind: KIND.TEXT, from: A, to: B, counter: 7 }, encoder.encode("hola"));
  assert.notDeepEqual(again.subarray(42), frame.subarray(42)); // a fresh nonce each time
});

test("a long text goes in chunks, comes back whole, and copies and replays are dropped", async () => {
  const { roomKey } = await pathSecrets(SECRET);
  const text = "ação🎲".repeat(5000);
  const frames = await sealMessage(roomKey, { kind: KIND.TEXT, from: A, to: B, counter: 1 }, encoder.encode(text));
  assert.equal(frames.length, Math.ceil(encoder.encode(text).length / CHUNK_BYTES));
  const inbox = new Inbox(() => 0);
  const take = async (frame) => {
    const head = readHeader(frame);
    const verdict = inbox.admit(head, frame.byteLength);
    return verdict === "pass" ? inbox.add(head, await openFrame(roomKey, frame)) : verdict;
  };
  const [first, ...rest] = frames;
  assert.equal(await take(first), null);
  assert.equal(await take(first), "drop"); // the second broker's copy
  let whole = null;
  for (const frame of rest.reverse()) whole = await take(frame);
  assert.equal(decoder.decode(whole), text);
  assert.equal(await take(first), "drop"); // replayed once delivered
  const [older] = await sealMessage(roomKey, { kind: KIND.TEXT, from: A, to: B, counter: 1 }, encoder.encode("x"));
  assert.equal(await take(older), "drop"); // the same counter again, even freshly sealed
  const [next] = await sealMessage(roomKey, { kind: KIND.TEXT, from: A, to: B, counter: 3 }, encoder.encode("y"));
  assert.equal(decoder.decode(await take(next)), "y");
  const [late] = await sealMessage(roomKey, { kind: KIND.TEXT, from: A, to: B, counter: 2 }, encoder.encode("z"));
  assert.equal(await take(late), "drop"); // overtaken: never delivered out of order
});

test("a sender past the byte budget or the limits is cut", async () => {
  const clock = { now: 0 };
  const inbox = new Inbox(() => clock.now);
  const head = (counter, index = 0, count = 1, kind = KIND.TEXT) => ({ kind, from: A, to: B, counter, index, count });
  assert.equal(inbox.admit(head(1, 0, 200), 9000), "cut"); // more chunks than any text may have
  assert.equal(inbox.admit(head(1, 0, 2, KIND.HANDSHAKE), 100), "cut"); // a handshake is one chunk
  for (let counter = 1; counter <= 8; counter++) { // first halves only: eight messages under way
    assert.equal(inbox.admit(head(counter, 0, 2), 100), "pass");
    inbox.add(head(counter, 0, 2), new Uint8Array(1));
  }
  assert.equal(inbox.admit(head(9, 0, 2), 100), "cut"); // too many messages under way
  const steady = new Inbox(() => clock.now);
  let verdict = "pass";
  let sent = 0;
  while (verdict === "pass" && sent < 10_000) {
    sent += 1;
    verdict = steady.admit(head(sent), 8 * 1024);
    if (verdict === "pass") steady.add(head(sent), new Uint8Array(1));
  }
  assert.equal(verdict, "cut");
  assert.ok(sent * 8 * 1024 > 4 * 1024 * 1024 && sent < 600, sent); // the data channel's 4 MiB burst
});

test("the host proves its key on the path; the session is the two ends' alone", async () => {
  const wire = broker();
  const secrets = await pathSecrets(SECRET);
  const identity = await hostIdentity();
  const hostChannels = [];
  const host = new HostPath(wire.link(), secrets, { table: "t1", identity, onChannel: (sid, channel) => hostChannels.push(channel) }, { clock: noTimers });
  const proved = [];
  let refused = 0;
  const guest = new GuestPath(wire.link(), secrets, {
    table: "t1",
    trusted: (key) => key.fingerprint === identity.fingerprint,
    onproved: (channel) => proved.push(channel),
    onrefused: () => { refused += 1; },
  }, { clock: noTimers });
  // Someone with the code hears everything on the topic and answers as a host with its own key.
  const impostor = new HostPath(wire.link(), secrets, { table: "t1", identity: await hostIdentity(), onChannel() {} }, { clock: noTimers });
  await wire.flush();
  assert.equal(proved.length, 1);
  assert.equal(hostChannels.length, 1);
  assert.ok(refused >= 1);
  const heard = [];
  hostChannels[0].onmessage = (text) => heard.push(text);
  proved[0].send("seat token 42");
  await wire.flush();
  assert.deepEqual(heard, ["seat token 42"]);
  const sealedText = wire.wire.filter((frame) => readHeader(frame).kind === KIND.TEXT);
  assert.equal(sealedText.length, 1);
  assert.equal(await openFrame(secrets.roomKey, sealedText[0]), null); // the room key does not open it
  assert.ok(!wire.wire.some((frame) => decoder.decode(frame).includes("seat token")));
  // A replayed frame is not delivered twice.
  host.links.onframe(sealedText[0].slice());
  await wire.flush();
  assert.deepEqual(heard, ["seat token 42"]);
  // The guest leaves: the host's channel closes.
  let closed = 0;
  hostChannels[0].onclose = () => { closed += 1; };
  proved[0].close();
  await wire.flush();
  assert.equal(closed, 1);
  for (const end of [host, guest, impostor]) end.close();
});

test("a forged frame under another peer's session id cuts nobody off", async () => {
  const wire = broker();
  const secrets = await pathSecrets(SECRET);
  const identity = await hostIdentity();
  const hostChannels = [];
  const host = new HostPath(wire.link(), secrets, { table: "t1", identity, onChannel: (sid, channel) => hostChannels.push([sid, channel]) }, { clock: noTimers });
  const guest = new GuestPath(wire.link(), secrets, { table: "t1", trusted: () => true, onproved() {} }, { clock: noTimers });
  await wire.flush();
  const [[sid, channel]] = hostChannels;
  const forger = wire.link();
  const junk = new Uint8Array(CHUNK_BYTES);
  for (let counter = 1; counter < 700; counter++) {
    const [frame] = await sealMessage(secrets.roomKey, { kind: KIND.TEXT, from: sid, to: host.sid, counter }, junk);
    forger.publish(frame);
  }
  const [flood] = await sealMessage(secrets.roomKey, { kind: KIND.HANDSHAKE, from: sid, to: EVERYONE, counter: 2 ** 32 - 1 }, encoder.encode("{}"));
  forger.publish(flood);
  await wire.flush();
  assert.equal(host.cutOff, 0);
  assert.equal(channel.open, true);
  for (const end of [host, guest]) end.close();
});

test("a host whose page reloads is taken up again on the same path, proved anew", async () => {
  const wire = broker();
  const secrets = await pathSecrets(SECRET);
  const identity = await hostIdentity();
  const first = new HostPath(wire.link(), secrets, { table: "t1", identity, onChannel() {} }, { clock: noTimers });
  const proved = [];
  const guest = new GuestPath(wire.link(), secrets, {
    table: "t1", trusted: (key) => key.fingerprint === identity.fingerprint, onproved: (channel) => proved.push(channel),
  }, { clock: noTimers });
  await wire.flush();
  assert.equal(proved.length, 1);
  first.links.onframe = null; // the page is gone, with no goodbye
  const again = [];
  const second = new HostPath(wire.link(), secrets, { table: "t1", identity, onChannel: (sid, channel) => again.push(channel) }, { clock: noTimers });
  await wire.flush();
  assert.equal(proved.length, 2);
  const heard = [];
  again[0].onmessage = (text) => heard.push(text);
  proved[1].send("rejoin");
  await wire.flush();
  assert.deepEqual(heard, ["rejoin"]);
  for (const end of [first, second, guest]) end.close();
});

/** Timers the test fires by hand: ``fire()`` runs (and forgets) every timeout set so far. */
function handClock() {
  const timeouts = new Map();
  let next = 0;
  return {
    setInterval: () => 0,
    clearInterval() {},
    setTimeout: (callback) => { next += 1; timeouts.set(next, callback); return next; },
    clearTimeout: (id) => timeouts.delete(id),
    fire() {
      const due = [...timeouts.values()];
      timeouts.clear();
      due.forEach((callback) => callback());
    },
  };
}

for (const lost of ["prove", "proof"]) {
  test(`a ${lost} the brokers lost is asked again: the guest still reaches the host`, async () => {
    const wire = broker();
    const secrets = await pathSecrets(SECRET);
    const publish = (link) => {
      const send = link.publish;
      let dropped = false;
      let order = Promise.resolve();
      link.publish = (frame) => {
        // The brokers drop frames (QoS 0, a connection that comes back): the first of this kind.
        order = order.then(async () => {
          const bytes = readHeader(frame).kind === KIND.HANDSHAKE ? await openFrame(secrets.roomKey, frame) : null;
          const data = bytes ? JSON.parse(decoder.decode(bytes)) : null;
          if (data?.kind === lost && !dropped) dropped = true;
          else send(frame);
        });
      };
      return link;
    };
    const identity = await hostIdentity();
    const hostChannels = [];
    const host = new HostPath(publish(wire.link()), secrets, { table: "t1", identity, onChannel: (sid, channel) => hostChannels.push(channel) }, { clock: noTimers });
    const proved = [];
    const clock = handClock();
    const guest = new GuestPath(publish(wire.link()), secrets, {
      table: "t1", trusted: (key) => key.fingerprint === identity.fingerprint, onproved: (channel) => proved.push(channel),
    }, { clock });
    await wire.flush();
    assert.equal(proved.length, 0);
    clock.fire(); // the guest's next hello
    await wire.flush();
    assert.equal(proved.length, 1);
    const heard = [];
    hostChannels.at(-1).onmessage = (text) => heard.push(text);
    proved[0].send("still here");
    await wire.flush();
    assert.deepEqual(heard, ["still here"]);
    for (const end of [host, guest]) end.close();
  });
}

test("a challenge sent again and again is answered a few times at most, and opens no second session", async () => {
  const wire = broker();
  const secrets = await pathSecrets(SECRET);
  const identity = await hostIdentity();
  const hostChannels = [];
  const host = new HostPath(wire.link(), secrets, { table: "t1", identity, onChannel: (sid, channel) => hostChannels.push(channel) }, { clock: noTimers });
  const clock = handClock();
  const guest = new GuestPath(wire.link(), secrets, { table: "t1", trusted: () => true, onproved() {} }, { clock });
  await wire.flush();
  const handshakes = async (kind) => {
    const opened = await Promise.all(wire.wire.filter((frame) => readHeader(frame).kind === KIND.HANDSHAKE).map((frame) => openFrame(secrets.roomKey, frame)));
    return opened.filter((bytes) => bytes && JSON.parse(decoder.decode(bytes)).kind === kind);
  };
  const [prove] = await handshakes("prove");
  // Anyone with the room code reads the challenge and sends it again under the guest's id.
  const replayer = wire.link();
  for (let counter = 1000; counter < 1010; counter++) {
    const [frame] = await sealMessage(secrets.roomKey, { kind: KIND.HANDSHAKE, from: guest.sid, to: host.sid, counter }, prove);
    replayer.publish(frame);
  }
  await wire.flush();
  assert.equal(hostChannels.length, 1);
  assert.ok((await handshakes("proof")).length <= 4);
  for (const end of [host, guest]) end.close();
});

/** A host and a guest on one broker, flushed until the guest has proved the host: the
 * guest's channel, its link, and both ends. */
async function provedPair({ onChannel = () => {}, guestOptions = {} } = {}) {
  const wire = broker();
  const secrets = await pathSecrets(SECRET);
  const host = new HostPath(wire.link(), secrets, { table: "t1", identity: await hostIdentity(), onChannel }, { clock: noTimers });
  const proved = [];
  const guestLink = wire.link();
  const guest = new GuestPath(guestLink, secrets, { table: "t1", trusted: () => true, onproved: (channel) => proved.push(channel) },
    { clock: noTimers, ...guestOptions });
  await wire.flush();
  return { wire, host, guest, guestLink, channel: proved[0] };
}

test("a guest that leaves the path learns when the host has taken its goodbye, after every text before it", async () => {
  const events = [];
  const { wire, host, guest, channel } = await provedPair({
    onChannel: (sid, hosts) => {
      hosts.onmessage = (text) => events.push(`host heard ${text}`);
      hosts.onclose = () => events.push("host saw it leave");
    },
  });
  let ended = false;
  guest.ended(channel).then(() => { ended = true; });
  channel.send("rejoin");
  await wire.flush();
  assert.equal(ended, false); // the session is still on
  channel.send("rejoin again");
  channel.close(); // to a direct channel: its texts wait for this
  guest.ended(channel).then(() => events.push("guest knows"));
  await wire.flush();
  assert.deepEqual(events, ["host heard rejoin", "host heard rejoin again", "host saw it leave", "guest knows"]);
  for (const end of [host, guest]) end.close();
});

test("a goodbye nobody takes is given up on once the host has been silent too long", async () => {
  let now = 0;
  const { wire, host, guest, channel } = await provedPair({ guestOptions: { now: () => now } });
  host.links.onframe = null; // the host's page is gone, with no goodbye
  let ended = false;
  guest.ended(channel).then(() => { ended = true; });
  channel.close();
  await wire.flush();
  now = 10_000;
  guest.heartbeat();
  await wire.flush();
  assert.equal(ended, false);
  now = 25_000;
  guest.heartbeat();
  await wire.flush();
  assert.equal(ended, true);
  for (const end of [host, guest]) end.close();
});

test("a goodbye the brokers lost is said again: the host takes it and the guest learns so", async () => {
  let left = 0;
  const { wire, host, guest, guestLink, channel } = await provedPair({
    onChannel: (sid, hosts) => { hosts.onclose = () => { left += 1; }; },
  });
  const publish = guestLink.publish;
  let lost = 0;
  guestLink.publish = (frame) => { // the brokers lose the guest's first goodbye (its only control frame so far)
    if (readHeader(frame).kind === KIND.CONTROL && !lost) lost += 1;
    else publish(frame);
  };
  let ended = false;
  guest.ended(channel).then(() => { ended = true; });
  channel.close();
  await wire.flush();
  assert.deepEqual([lost, left, ended], [1, 0, false]);
  guest.heartbeat();
  await wire.flush();
  assert.deepEqual([left, ended], [1, true]);
  for (const end of [host, guest]) end.close();
});
