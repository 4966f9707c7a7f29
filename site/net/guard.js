// Every room message is checked the moment it arrives, before Trystero reassembles or keeps it.
//
// Trystero (0.25) sends frames on a connection it may share between rooms: a room frame (1,
// the room's token's length in 2 bytes, the token, a chunk) or a presence frame (2, present or
// not, the token's length, the token). It splits each action's message into chunks of at most
// 16 KiB (a 36-byte header: the action's name in 32 bytes, a 2-byte message number, a tag byte
// whose lowest bit marks the last chunk, a progress byte) and keeps every chunk until the last
// one comes, with no limit; it keeps whole messages of actions nobody listens to, and frames
// for rooms it has not joined. A peer that knows the room code
// could so fill the page's memory (issue 30: 400 MB sent on an unread action stayed in the
// tab). Here the page's own listener sees every chunk first (it is added before Trystero's)
// and lets through only chunks of an action this side reads, of a message within that
// action's size limit, at a pace within the connection's byte budget; a chunk of an action
// this side does not read is dropped (it still counts against the budget). A peer that sends
// an oversized chunk or message, or exceeds the budget, is cut off: the data channel and the
// connection are closed, and nothing more from it reaches Trystero.

import { MAX_TEXT_BYTES } from "./channel.js";

const ROOM_FRAME = 1;
const PRESENCE_FRAME = 2;
const HEADER_BYTES = 36;
const NAME_BYTES = 32;
const TAG_AT = 34;
const LAST_CHUNK = 1;
const MAX_CHUNK_BYTES = 16 * 1024;
const MAX_TOKEN_BYTES = 64; // a hex SHA-256
const MAX_FRAME_BYTES = 4 + MAX_TOKEN_BYTES + MAX_CHUNK_BYTES;
// A text somewhat over the channel's limit is dropped by the channel (channel.js); this far
// over it, the sender is flooding.
export const TEXT_CUTOFF_BYTES = 4 * MAX_TEXT_BYTES;
// Trystero's own messages (handshake, WebRTC renegotiation, leaving, pings) are small.
const TRYSTERO_BYTES = 64 * 1024;
const TRYSTERO_READS = ["@_hsdata", "@_hsready", "@_signal", "@_leave", "@_ping", "@_pong"];
// Messages under way (first chunk in, last not yet) per connection.
export const MAX_UNFINISHED = 8;
// A connection's byte budget: BUDGET_BURST at once, BUDGET_RATE a second after that; every
// chunk costs at least CHUNK_FLOOR_BYTES, so a flood of tiny chunks is bounded too.
const BUDGET_BURST = 4 * 1024 * 1024;
const BUDGET_RATE = 1024 * 1024;
const CHUNK_FLOOR_BYTES = 256;

const decoder = new TextDecoder();

/** The token by which Trystero names the room ``roomId`` of ``appId`` on a shared connection. */
export async function roomToken(appId, roomId) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`Trystero:${appId}:${roomId}`));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The size limits of what a side reads, ``{action: maxBytes}``: the protocol's texts,
 * Trystero's own actions and the ``small`` ones (one chunk at most). */
export function readLimits(small) {
  const limits = Object.fromEntries(TRYSTERO_READS.map((name) => [name, TRYSTERO_BYTES]));
  for (const name of small) limits[name] = MAX_CHUNK_BYTES;
  limits.text = TEXT_CUTOFF_BYTES;
  return limits;
}

/** A peer's byte budget: BUDGET_BURST at once, BUDGET_RATE a second after that, every chunk
 * costing at least CHUNK_FLOOR_BYTES. The data channel's gate and the broker path
 * (brokerpath.js) hold a peer to the same one. */
export class ByteBudget {
  constructor(now = () => performance.now()) {
    this.now = now;
    this.budget = BUDGET_BURST;
    this.at = now();
  }

  /** Takes ``bytes`` from the budget; false once it is spent. */
  spend(bytes) {
    const at = this.now();
    this.budget = Math.min(BUDGET_BURST, this.budget + ((at - this.at) * BUDGET_RATE) / 1000);
    this.at = at;
    this.budget -= Math.max(CHUNK_FLOOR_BYTES, bytes);
    return this.budget >= 0;
  }
}

/** One connection's inbound bookkeeping: ``check(data)`` says "pass", "drop" or "cut". */
export class InboundGate {
  /** ``token``: the room's (roomToken); ``limits``: readLimits. */
  constructor(token, limits, now = () => performance.now()) {
    this.token = token;
    this.limits = limits;
    this.unfinished = new Map(); // "name/number" -> bytes so far
    this.budget = new ByteBudget(now);
  }

  check(data) {
    if (!(data instanceof ArrayBuffer) || data.byteLength > MAX_FRAME_BYTES || !this.budget.spend(data.byteLength)) return "cut";
    const bytes = new Uint8Array(data);
    const presence = bytes[0] === PRESENCE_FRAME;
    if (!presence && bytes[0] !== ROOM_FRAME) return "cut";
    const tokenAt = presence ? 4 : 3;
    const tokenBytes = (bytes[tokenAt - 2] << 8) | bytes[tokenAt - 1];
    const chunkAt = tokenAt + tokenBytes;
    if (tokenBytes > MAX_TOKEN_BYTES || bytes.byteLength < chunkAt) return "cut";
    if (decoder.decode(bytes.subarray(tokenAt, chunkAt)) !== this.token) return "drop"; // another room's
    return presence ? "pass" : this.chunk(bytes.subarray(chunkAt));
  }

  chunk(bytes) {
    if (bytes.byteLength < HEADER_BYTES) return "cut";
    const name = decoder.decode(bytes.subarray(0, NAME_BYTES)).replaceAll("\0", "");
    const limit = Object.hasOwn(this.limits, name) ? this.limits[name] : 0;
    if (!limit) return "drop";
    const key = `${name}/${bytes[NAME_BYTES]}/${bytes[NAME_BYTES + 1]}`;
    const size = (this.unfinished.get(key) ?? 0) + bytes.byteLength - HEADER_BYTES;
    if (size > limit) return "cut";
    if (bytes[TAG_AT] & LAST_CHUNK) this.unfinished.delete(key);
    else {
      if (!this.unfinished.has(key) && this.unfinished.size >= MAX_UNFINISHED) return "cut";
      this.unfinished.set(key, size);
    }
    return "pass";
  }
}

/**
 * An RTCPeerConnection class for Trystero's ``rtcPolyfill``: every data channel of it is
 * gated by an InboundGate of the room's ``token`` and ``limits``; ``onCutOff(connection)`` is told of each peer cut off.
 */
export function gatedPeerConnection(token, limits, onCutOff) {
  const gate = (channel, connection) => {
    const inbound = new InboundGate(token, limits);
    let cut = false;
    channel.addEventListener("message", (event) => {
      const verdict = cut ? "drop" : inbound.check(event.data);
      if (verdict === "pass") return;
      event.stopImmediatePropagation();
      if (verdict !== "cut") return;
      cut = true;
      channel.close();
      connection.close();
      onCutOff?.(connection);
    });
  };
  return class GatedPeerConnection extends RTCPeerConnection {
    constructor(...args) {
      super(...args);
      // Listened to before Trystero's ondatachannel runs, so the gate comes first.
      this.addEventListener("datachannel", (event) => gate(event.channel, this));
    }

    createDataChannel(...args) {
      const channel = super.createDataChannel(...args);
      gate(channel, this);
      return channel;
    }
  };
}
