// The broker path: host and guest talk through the room's MQTT topic when no WebRTC path
// opens between them (two phones behind carrier-grade NAT, no TURN server).
//
// Every frame is AES-GCM with a fresh random nonce, and its header (version, kind, sender,
// recipient, the sender's message counter, the chunk's index and count) is the authenticated
// data: a frame cannot be moved to another sender, recipient or place. A receiver keeps, per
// sender, the last message it delivered and takes only later ones, so a frame replayed or
// delivered late (a second broker's copy) is dropped. Two keys:
//
// * the room key (HKDF of the room code's slow derivation, roomkey.js ``broker``) seals the
//   handshake frames: the brokers see a topic and sealed bytes, never the code or the keys;
// * each host–guest pair's session key seals their texts: HKDF of an ECDH P-256 exchange of
//   fresh key shares, salted with the room secret and bound to both session ids. The room key
//   alone is known to everyone who has the code; the session key only to the two ends, and
//   the host signs both ends' session ids and key shares with its identity key (identity.js
//   signBinding) before the guest sends anything: someone with the code who reads the topic
//   or poses as the host learns nothing (as a WebRTC proof is bound to the DTLS fingerprints).
//
// Frames are chunked under every public broker's size limit (CHUNK_BYTES of text each); a
// peer is held to the data channel's byte budget and limits (guard.js) and cut off past them,
// once its frames are proved to be its own (under its session key), so nobody can have
// another peer cut off by forging its session id. Every frame goes out on every broker the
// page reaches (Trystero's relay redundancy): a broker lost mid-game loses nothing.

import { Channel } from "./channel.js";
import { ByteBudget, MAX_UNFINISHED, TEXT_CUTOFF_BYTES } from "./guard.js";
import { announcedKey, checkBinding, newChallenge, signBinding } from "./identity.js";
import { base64url } from "./roomkey.js";

export const CHUNK_BYTES = 8 * 1024; // well under the smallest public broker's message limit
export const KIND = Object.freeze({ HANDSHAKE: 1, TEXT: 2, CONTROL: 3 });
const VERSION = 1;
const SID_BYTES = 16;
export const HEADER_BYTES = 2 + 2 * SID_BYTES + 4 + 2 + 2;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const MAX_FRAME_BYTES = HEADER_BYTES + NONCE_BYTES + CHUNK_BYTES + TAG_BYTES;
const MAX_CHUNKS = Math.ceil(TEXT_CUTOFF_BYTES / CHUNK_BYTES);
export const EVERYONE = "0".repeat(2 * SID_BYTES); // the recipient of a frame for the whole room
const MAX_PROOFS_PER_PEER = 4;
const MAX_SENDERS = 64; // senders whose counters are kept; the oldest is forgotten first
const ALIVE_MS = 5000; // each end says it is there this often on a quiet session
const LOST_MS = 20_000; // and takes the other end for gone after this long without a frame
const HELLO_MS = [1000, 2000, 4000, 8000, 15_000, 30_000]; // a guest's hellos, backing off
const NONCE = /^[A-Za-z0-9_-]{43}$/;
const SHARE = /^[A-Za-z0-9_-]{87}$/; // an uncompressed P-256 point, base64url

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const hex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

function unhex(text) {
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function fromBase64url(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}

const hkdf = (info, salt = new Uint8Array()) => ({ name: "HKDF", hash: "SHA-256", salt, info: encoder.encode(info) });
const AES = { name: "AES-GCM", length: 256 };
const ECDH = { name: "ECDH", namedCurve: "P-256" };

/** ``{topic, roomKey, salt}`` of the room whose broker secret (hex) is ``secret``. */
export async function pathSecrets(secret) {
  const salt = unhex(secret);
  const material = await crypto.subtle.importKey("raw", salt, "HKDF", false, ["deriveKey", "deriveBits"]);
  const topic = new Uint8Array(await crypto.subtle.deriveBits(hkdf("taberna/broker-topic/v1"), material, 128));
  const roomKey = await crypto.subtle.deriveKey(hkdf("taberna/broker-room/v1"), material, AES, false, ["encrypt", "decrypt"]);
  return { topic: `taberna/${hex(topic)}`, roomKey, salt };
}

/** A fresh ECDH key pair and its public share (base64url). */
async function keyShare() {
  const pair = await crypto.subtle.generateKey(ECDH, false, ["deriveBits"]);
  return { pair, share: base64url(await crypto.subtle.exportKey("raw", pair.publicKey)) };
}

/** The session key of a host–guest pair: ECDH of ``own`` and ``theirShare``, salted with the
 * room secret, bound to both session ids. */
async function sessionKey(own, theirShare, salt, hostSid, guestSid) {
  const theirs = await crypto.subtle.importKey("raw", fromBase64url(theirShare), ECDH, false, []);
  const shared = await crypto.subtle.deriveBits({ name: "ECDH", public: theirs }, own.pair.privateKey, 256);
  const material = await crypto.subtle.importKey("raw", shared, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(hkdf(`taberna/broker-session/v1\n${hostSid}\n${guestSid}`, salt), material, AES, false, ["encrypt", "decrypt"]);
}

/** What the host's proof names as one end of the broker path. */
const pathEnd = (sid, share) => `broker ${sid} ${share}`;

// --- frames ----------------------------------------------------------------------------------
function header({ kind, from, to, counter, index, count }) {
  const head = new Uint8Array(HEADER_BYTES);
  const view = new DataView(head.buffer);
  head[0] = VERSION;
  head[1] = kind;
  head.set(unhex(from), 2);
  head.set(unhex(to), 2 + SID_BYTES);
  view.setUint32(2 + 2 * SID_BYTES, counter);
  view.setUint16(6 + 2 * SID_BYTES, index);
  view.setUint16(8 + 2 * SID_BYTES, count);
  return head;
}

/** A frame's header fields, or null for what cannot be a frame of this version. */
export function readHeader(frame) {
  if (!(frame instanceof Uint8Array) || frame.byteLength < HEADER_BYTES + NONCE_BYTES + TAG_BYTES) return null;
  if (frame.byteLength > MAX_FRAME_BYTES || frame[0] !== VERSION || !Object.values(KIND).includes(frame[1])) return null;
  const view = new DataView(frame.buffer, frame.byteOffset, HEADER_BYTES);
  return {
    kind: frame[1],
    from: hex(frame.subarray(2, 2 + SID_BYTES)),
    to: hex(frame.subarray(2 + SID_BYTES, 2 + 2 * SID_BYTES)),
    counter: view.getUint32(2 + 2 * SID_BYTES),
    index: view.getUint16(6 + 2 * SID_BYTES),
    count: view.getUint16(8 + 2 * SID_BYTES),
  };
}

/** The frames of one message: ``bytes`` in chunks, each sealed under ``key`` with its header. */
export async function sealMessage(key, { kind, from, to, counter }, bytes) {
  const count = Math.max(1, Math.ceil(bytes.byteLength / CHUNK_BYTES));
  const frames = [];
  for (let index = 0; index < count; index++) {
    const head = header({ kind, from, to, counter, index, count });
    const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
    const chunk = bytes.subarray(index * CHUNK_BYTES, (index + 1) * CHUNK_BYTES);
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce, additionalData: head }, key, chunk));
    const frame = new Uint8Array(HEADER_BYTES + NONCE_BYTES + sealed.byteLength);
    frame.set(head);
    frame.set(nonce, HEADER_BYTES);
    frame.set(sealed, HEADER_BYTES + NONCE_BYTES);
    frames.push(frame);
  }
  return frames;
}

/** A frame's chunk if ``key`` sealed it with this very header, else null. */
export async function openFrame(key, frame) {
  try {
    const head = frame.subarray(0, HEADER_BYTES);
    const nonce = frame.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce, additionalData: head }, key, frame.subarray(HEADER_BYTES + NONCE_BYTES));
    return new Uint8Array(plain);
  } catch {
    return null;
  }
}

/**
 * One sender's messages as they arrive: ``admit(head, bytes)`` says "pass", "drop" (a copy,
 * a replay, a late frame) or "cut" (past the byte budget or the limits); ``add(head, chunk)``
 * keeps an opened chunk and returns the whole message once its last chunk is in.
 */
export class Inbox {
  constructor(now = () => performance.now()) {
    this.budget = new ByteBudget(now);
    this.delivered = 0; // the counter of the last message delivered
    this.partial = new Map(); // counter -> {count, chunks}
  }

  admit(head, bytes) {
    if (!this.budget.spend(bytes)) return "cut";
    const limit = head.kind === KIND.TEXT ? MAX_CHUNKS : 1;
    if (head.count < 1 || head.count > limit || head.index >= head.count) return "cut";
    if (head.counter <= this.delivered) return "drop";
    const partial = this.partial.get(head.counter);
    if (partial) return partial.count !== head.count ? "cut" : partial.chunks[head.index] ? "drop" : "pass";
    return this.partial.size >= MAX_UNFINISHED ? "cut" : "pass";
  }

  add(head, chunk) {
    if (head.counter <= this.delivered) return null;
    let partial = this.partial.get(head.counter);
    if (!partial) this.partial.set(head.counter, (partial = { count: head.count, chunks: [], got: 0 }));
    if (partial.chunks[head.index]) return null;
    partial.chunks[head.index] = chunk;
    partial.got += 1;
    if (partial.got < partial.count) return null;
    this.delivered = head.counter;
    for (const counter of this.partial.keys()) if (counter <= head.counter) this.partial.delete(counter);
    const message = new Uint8Array(partial.chunks.reduce((sum, piece) => sum + piece.byteLength, 0));
    let at = 0;
    for (const piece of partial.chunks) {
      message.set(piece, at);
      at += piece.byteLength;
    }
    return message;
  }
}

// --- the brokers -------------------------------------------------------------------------------
/**
 * The room's topic on every broker client (mqtt.js) given: subscribed on each (again after
 * each reconnection), every frame published on each that is connected, ``onframe(bytes)``
 * for each frame from each broker (copies are the inbox's to drop).
 */
export function brokerLinks(clients, topic) {
  const links = {
    onframe: null,
    bytes: { sent: 0, received: 0 },
    /** How many brokers are connected now. */
    get reachable() {
      return clients.filter((client) => client.connected).length;
    },
    publish(frame) {
      for (const client of clients) {
        if (!client.connected) continue;
        client.publish(topic, frame);
        links.bytes.sent += frame.byteLength;
      }
    },
    close() {
      for (const [client, subscribe] of hooks) {
        client.removeListener("message", receive);
        client.removeListener("connect", subscribe);
        if (client.connected) client.unsubscribe(topic);
      }
    },
  };
  const receive = (arrived, payload) => {
    if (arrived !== topic) return;
    links.bytes.received += payload.byteLength;
    links.onframe?.(new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength));
  };
  const hooks = clients.map((client) => {
    const subscribe = () => client.subscribe(topic);
    client.on("message", receive);
    client.on("connect", subscribe);
    if (client.connected) subscribe();
    return [client, subscribe];
  });
  return links;
}

// --- one end of the path ---------------------------------------------------------------------
/**
 * What both ends share: this page's session id and message counter, the inboxes of the
 * senders it hears, its sessions (peer sid -> {key, channel, heard}), and the handshake
 * frames it hands to ``onhandshake(sid, data)``.
 */
class PathEnd {
  constructor(links, secrets, { now = () => performance.now(), clock = globalThis } = {}) {
    this.links = links;
    this.secrets = secrets;
    this.now = now;
    this.clock = clock;
    this.sid = hex(crypto.getRandomValues(new Uint8Array(SID_BYTES)));
    this.counter = 0;
    this.sending = Promise.resolve();
    this.receiving = Promise.resolve();
    this.inboxes = new Map();
    this.sessions = new Map();
    // Sessions this end left (sid -> session) until the other end says "gone": it took our
    // goodbye, so every text we sent before it too (ended()).
    this.leaving = new Map();
    this.ends = new WeakMap(); // channel -> {promise, resolve}: settled once its session is over
    this.cut = new Set();
    this.cutOff = 0; // peers cut off for flooding
    this.oncutoff = null;
    this.onended = null; // (channel): a session ended, from either side
    this.share = keyShare();
    this.closed = false;
    links.onframe = (frame) => this.arrive(frame);
    this.alive = clock.setInterval(() => this.heartbeat(), ALIVE_MS);
  }

  /** Seals and publishes one message, in the order of the calls. */
  send(kind, to, bytes, key = this.secrets.roomKey) {
    this.counter += 1;
    const counter = this.counter;
    this.sending = this.sending
      .then(() => sealMessage(key, { kind, from: this.sid, to, counter }, bytes))
      .then((frames) => frames.forEach((frame) => this.links.publish(frame)))
      .catch((error) => console.warn("broker send", error));
    return this.sending;
  }

  sendHandshake(to, data) {
    return this.send(KIND.HANDSHAKE, to, encoder.encode(JSON.stringify(data)));
  }

  arrive(frame) {
    const head = readHeader(frame);
    if (!head || this.closed || head.from === this.sid || this.cut.has(head.from)) return;
    if (head.to !== this.sid && head.to !== EVERYONE) return;
    this.receiving = this.receiving.then(() => this.take(head, frame)).catch((error) => console.warn("broker receive", error));
  }

  /**
   * Opens a frame and, once its message is whole, hands it on. Handshake frames, which
   * anyone with the code can make, have inboxes of their own and are only ever dropped; a
   * sender is held to its budget, and cut off past it, under its session key alone (frames
   * it alone can make), so a forged frame can neither cut a peer off nor hold its texts up.
   */
  async take(head, frame) {
    const handshake = head.kind === KIND.HANDSHAKE;
    const session = this.sessions.get(head.from) ?? this.leaving.get(head.from);
    if (!handshake && !session) return;
    const chunk = await openFrame(handshake ? this.secrets.roomKey : session.key, frame);
    if (!chunk || this.closed) return;
    const inbox = this.inbox(`${handshake ? "handshake" : "session"} ${head.from}`);
    const verdict = inbox.admit(head, frame.byteLength);
    if (verdict === "cut" && !handshake) {
      this.cutOffPeer(head.from);
      return;
    }
    if (verdict !== "pass") return;
    const message = inbox.add(head, chunk);
    if (!message) return;
    if (this.sessions.has(head.from)) session.heard = this.now(); // one left is not kept up by its frames
    if (head.kind === KIND.HANDSHAKE) {
      let data = null;
      try {
        data = JSON.parse(decoder.decode(message));
      } catch { /* not ours */ }
      if (data && typeof data === "object") await this.onhandshake(head.from, data);
    } else if (head.kind === KIND.TEXT) session.channel.deliver(decoder.decode(message));
    else this.control(head.from, session, decoder.decode(message));
  }

  /** "bye": the other end leaves (we say we took it: "gone"); "gone": it took our goodbye. */
  control(sid, session, word) {
    if (word === "bye") {
      this.send(KIND.CONTROL, sid, encoder.encode("gone"), session.key);
      this.drop(sid);
    } else if (word === "gone" && this.leaving.has(sid)) this.drop(sid);
  }

  /** The inbox named ``name``; past MAX_SENDERS, the oldest handshake inbox is forgotten. */
  inbox(name) {
    let inbox = this.inboxes.get(name);
    if (!inbox) {
      if (this.inboxes.size >= MAX_SENDERS) {
        this.inboxes.delete([...this.inboxes.keys()].find((other) => other.startsWith("handshake")));
      }
      this.inboxes.set(name, (inbox = new Inbox(this.now)));
    }
    return inbox;
  }

  cutOffPeer(sid) {
    this.cut.add(sid);
    this.cutOff += 1;
    this.drop(sid);
    this.oncutoff?.();
  }

  /** A session whose key is ``key`` with the peer ``sid``: its channel carries texts. */
  open(sid, key) {
    const channel = new Channel(
      (text) => this.send(KIND.TEXT, sid, encoder.encode(text), key),
      () => {
        const session = this.sessions.get(sid);
        if (session?.channel === channel) {
          this.sessions.delete(sid);
          this.leaving.set(sid, session);
          this.send(KIND.CONTROL, sid, encoder.encode("bye"), key);
        }
        this.onended?.(channel);
      },
    );
    channel.path = "brokers";
    let resolve;
    this.ends.set(channel, { promise: new Promise((done) => { resolve = done; }), resolve });
    this.sessions.set(sid, { key, channel, heard: this.now() });
    return channel;
  }

  /**
   * Settles once ``channel``'s session is over: the other end took our goodbye (and every
   * text before it), said its own, fell silent or was cut off. A guest's texts through
   * another path wait for it: a rejoin still on its way here would otherwise reach the host
   * after the new path's and take the seat from it.
   */
  ended(channel) {
    return this.ends.get(channel)?.promise ?? Promise.resolve();
  }

  /** The peer ``sid`` is gone (said goodbye or took ours, fell silent or was cut off). */
  drop(sid) {
    const session = this.sessions.get(sid) ?? this.leaving.get(sid);
    if (!session) return;
    this.sessions.delete(sid);
    this.leaving.delete(sid);
    session.channel.lost();
    this.ends.get(session.channel).resolve();
  }

  heartbeat() {
    const at = this.now();
    for (const [sid, session] of [...this.leaving]) {
      if (at - session.heard > LOST_MS) this.drop(sid);
      else this.send(KIND.CONTROL, sid, encoder.encode("bye"), session.key); // the brokers may have lost it
    }
    for (const [sid, session] of [...this.sessions]) {
      if (at - session.heard > LOST_MS) this.drop(sid);
      else this.send(KIND.CONTROL, sid, encoder.encode("alive"), session.key);
    }
  }

  /** Ends every session (saying goodbye) and lets the brokers go: no answer is waited for. */
  close() {
    if (this.closed) return;
    this.closed = true;
    for (const session of [...this.sessions.values()]) session.channel.close();
    for (const session of this.leaving.values()) this.ends.get(session.channel).resolve();
    this.leaving.clear();
    this.clock.clearInterval(this.alive);
    this.sending.finally(() => this.links.close());
  }
}

/**
 * The host's end: announces ``table`` and ``identity``'s public key to the room, answers each
 * guest's challenge with a proof bound to both ends, and hands each proved guest's channel to
 * ``onChannel(sid, channel)``.
 */
export class HostPath extends PathEnd {
  constructor(links, secrets, { table, identity, onChannel }, options) {
    super(links, secrets, options);
    this.table = table;
    this.identity = identity;
    this.onChannel = onChannel;
    this.proofs = new Map(); // sid -> challenges answered
    this.proved = new Map(); // sid -> the proof its session was opened with
    this.greeted = new Map(); // sid -> hellos answered
    this.announce(EVERYONE);
  }

  async announce(to) {
    const { share } = await this.share;
    return this.sendHandshake(to, { kind: "host", table: this.table, key: this.identity.publicKey, share });
  }

  async onhandshake(sid, data) {
    const answered = this.proofs.get(sid) ?? 0;
    if (this.sessions.has(sid)) {
      // The guest asks again with the same challenge: the brokers lost the proof. The same
      // answer goes again (a few times at most); the session stays the one it opened.
      const proof = this.proved.get(sid);
      if (data.kind === "prove" && data.nonce === proof?.nonce && answered < MAX_PROOFS_PER_PEER) {
        this.proofs.set(sid, answered + 1);
        await this.sendHandshake(sid, proof);
      }
      return;
    }
    const greeted = this.greeted.get(sid) ?? 0;
    if (data.kind === "hello" && greeted < MAX_PROOFS_PER_PEER) {
      this.greeted.set(sid, greeted + 1);
      await this.announce(sid);
    } else if (answered >= MAX_PROOFS_PER_PEER) return;
    else if (data.kind === "prove" && NONCE.test(data.nonce ?? "") && SHARE.test(data.share ?? "")) {
      this.proofs.set(sid, answered + 1);
      const own = await this.share;
      const key = await sessionKey(own, data.share, this.secrets.salt, this.sid, sid);
      const sig = await signBinding(this.identity, this.table, data.nonce, pathEnd(this.sid, own.share), pathEnd(sid, data.share));
      const proof = { kind: "proof", nonce: data.nonce, sig };
      this.proved.set(sid, proof);
      await this.sendHandshake(sid, proof);
      if (!this.closed) this.onChannel(sid, this.open(sid, key));
    }
  }
}

/**
 * A guest's end: says hello until a host answers (backing off), challenges each announcer of
 * ``table`` whose key ``trusted(key)`` accepts, and hands the channel of each host that
 * proved its key on this very path to ``onproved(channel, key)`` (a later one: the host's
 * page reloaded and announced itself anew); ``onrefused()`` hears of the others.
 */
export class GuestPath extends PathEnd {
  constructor(links, secrets, { table, trusted, onproved, onrefused }, options) {
    super(links, secrets, options);
    this.table = table;
    this.trusted = trusted;
    this.onproved = onproved;
    this.onrefused = onrefused;
    this.asked = new Map(); // sid -> {nonce, share, key, fingerprint, code}
    this.refused = new Set();
    this.hellos = 0;
    this.helloTimer = null;
    this.hello();
  }

  hello() {
    if (this.closed || this.sessions.size) return;
    this.sendHandshake(EVERYONE, { kind: "hello" });
    // A challenge still unanswered goes again: the brokers may have lost it or its proof,
    // and a host answers each guest's announcement request only while it has no session.
    for (const [sid, challenge] of this.asked) if (challenge) this.sendHandshake(sid, challenge.prove);
    this.helloTimer = this.clock.setTimeout(() => this.hello(), HELLO_MS[Math.min(this.hellos, HELLO_MS.length - 1)]);
    this.hellos += 1;
  }

  async onhandshake(sid, data) {
    if (data.kind === "host") await this.challenge(sid, data);
    else if (data.kind === "proof") await this.check(sid, data);
  }

  async challenge(sid, data) {
    if (data.table !== this.table || this.asked.has(sid) || this.sessions.has(sid) || this.refused.has(sid)) return;
    if (!SHARE.test(data.share ?? "")) return;
    this.asked.set(sid, null);
    const key = await announcedKey(data.key);
    if (!key || !this.trusted(key)) {
      this.refuse(sid);
      return;
    }
    const nonce = newChallenge();
    const prove = { kind: "prove", nonce, share: (await this.share).share };
    if (this.closed) return;
    this.asked.set(sid, { nonce, share: data.share, key: data.key, ...key, prove });
    await this.sendHandshake(sid, prove);
  }

  async check(sid, data) {
    const challenge = this.asked.get(sid);
    if (!challenge || data.nonce !== challenge.nonce) return;
    this.asked.delete(sid);
    const own = await this.share;
    const good = await checkBinding(challenge.key, this.table, challenge.nonce, data.sig,
      pathEnd(sid, challenge.share), pathEnd(this.sid, own.share));
    if (!good || !this.trusted(challenge)) {
      this.refuse(sid);
      return;
    }
    const key = await sessionKey(own, challenge.share, this.secrets.salt, sid, this.sid);
    if (this.closed) return;
    this.clock.clearTimeout(this.helloTimer);
    this.onproved(this.open(sid, key), challenge);
  }

  refuse(sid) {
    this.asked.delete(sid);
    this.refused.add(sid);
    this.onrefused?.();
  }

  close() {
    this.clock.clearTimeout(this.helloTimer);
    super.close();
  }
}
