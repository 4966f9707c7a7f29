// WebRTC data channels with manual signalling: an invite code out, a reply code back.
//
// No server of ours takes part, so the two descriptions travel inside a link and a pasted
// (or scanned) code. That is why signalling is not trickled: each side waits until ICE
// gathering completes (or GATHER_MS passes), then keeps only what a data-channel session
// needs — ICE ufrag and password, the DTLS fingerprint, the DTLS role and the UDP
// candidates — packed in bytes with a checksum and written in base64url after a version
// digit. The other side rebuilds a complete SDP from them. Measured on a LAN-like host
// (two IPv4 and two IPv6 host candidates, or two mDNS names) an invite is 140 to 165
// characters: with the site's address, a link that fits one QR code comfortably.
//
// The code is untrusted input: decoding checks every length and value and rejects with an
// Error (``key`` names its catalog text) before anything reaches the RTCPeerConnection.
//
// Both ends open the same pre-negotiated data channel (id 0), so neither waits for the
// other's announcement. Texts bigger than one SCTP message a browser accepts everywhere
// are sent in chunks: each piece starts with "+" (more follows) or "." (last piece).

import { Channel, iceRoute, MAX_TEXT_BYTES, netError } from "./channel.js";

const VERSION = "1";
const OFFER = 0;
const ANSWER = 1;
const SETUPS = ["actpass", "active", "passive"];
const TYPES = ["host", "srflx", "prflx", "relay"];
const TYPE_PREFERENCE = { host: 126, prflx: 110, srflx: 100, relay: 0 };
const ADDR_IPV4 = 0;
const ADDR_IPV6 = 1;
const ADDR_MDNS = 2; // "<uuid>.local", as browsers hide host addresses
const ADDR_NAME = 3;
const MAX_CANDIDATES = 8;
const MAX_CODE = 1500;
const GATHER_MS = 4000;
const CONNECT_MS = 30_000; // the host has pasted the reply: ICE should finish quickly
const ANSWER_WAIT_MS = 15 * 60_000; // the guest waits while the host finds and pastes the reply
const DISCONNECT_GRACE_MS = 5000;
const CHUNK = 16_000; // characters: at most 48 KB of UTF-8, below every browser's SCTP limit

// --- the code ------------------------------------------------------------------------------
const ICE_CHARS = /^[A-Za-z0-9+/]{4,256}$/;
const UUID_LOCAL = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/i;
const HOSTNAME = /^[A-Za-z0-9.-]{1,253}$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function malformed(why) {
  return netError("net.code_malformed", `This code is damaged or incomplete (${why}). Copy it again, whole.`);
}

function ipv6Bytes(text) {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const words = (part) => (part ? part.split(":") : []);
  const head = words(halves[0]);
  const tail = halves.length === 2 ? words(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const all = [...head, ...Array(missing).fill("0"), ...tail];
  const bytes = [];
  for (const word of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(word)) return null;
    const value = parseInt(word, 16);
    bytes.push(value >> 8, value & 255);
  }
  return bytes;
}

/** A candidate's address -> [kind, bytes], or null for what a code cannot carry. */
function addressBytes(address) {
  let match = IPV4.exec(address);
  if (match) {
    const bytes = match.slice(1).map(Number);
    return bytes.every((b) => b <= 255) ? [ADDR_IPV4, bytes] : null;
  }
  match = UUID_LOCAL.exec(address);
  if (match) return [ADDR_MDNS, hexBytes(match.slice(1).join(""))];
  if (address.includes(":")) {
    const bytes = ipv6Bytes(address);
    return bytes && [ADDR_IPV6, bytes];
  }
  if (HOSTNAME.test(address)) return [ADDR_NAME, [address.length, ...[...address].map((c) => c.charCodeAt(0))]];
  return null;
}

function hexBytes(hex) {
  const bytes = [];
  for (let i = 0; i < hex.length; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
  return bytes;
}

const hex = (bytes) => bytes.map((b) => b.toString(16).padStart(2, "0"));

function addressText(kind, bytes) {
  if (kind === ADDR_IPV4) return bytes.join(".");
  if (kind === ADDR_IPV6) {
    const h = hex(bytes);
    return Array.from({ length: 8 }, (_, i) => h[2 * i] + h[2 * i + 1]).join(":");
  }
  if (kind === ADDR_MDNS) {
    const h = hex(bytes).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}.local`;
  }
  return String.fromCharCode(...bytes);
}

/** The parts of a local SDP a code carries. */
function parseSdp(sdp) {
  const lines = sdp.split(/\r?\n/);
  const value = (prefix) => lines.find((line) => line.startsWith(prefix))?.slice(prefix.length).trim();
  const fingerprint = value("a=fingerprint:sha-256 ");
  if (!fingerprint) throw new Error("This browser offered no SHA-256 DTLS fingerprint.");
  const candidates = [];
  const seen = new Set();
  for (const line of lines) {
    if (!line.startsWith("a=candidate:")) continue;
    // foundation component protocol priority address port "typ" type ...
    const [, component, protocol, , address, port, typ, type] = line.slice(12).split(" ");
    const key = `${address} ${port}`;
    if (component !== "1" || protocol.toLowerCase() !== "udp" || typ !== "typ" || seen.has(key)) continue;
    if (!TYPES.includes(type) || candidates.length >= MAX_CANDIDATES) continue;
    const packed = addressBytes(address);
    if (!packed) continue;
    seen.add(key);
    candidates.push({ type, address, port: Number(port), packed });
  }
  return {
    ufrag: value("a=ice-ufrag:"),
    pwd: value("a=ice-pwd:"),
    setup: value("a=setup:"),
    mid: value("a=mid:") ?? "0",
    fingerprint: hexBytes(fingerprint.replaceAll(":", "")),
    candidates,
  };
}

const ascii = (text) => [text.length, ...[...text].map((c) => c.charCodeAt(0))];

/** Fletcher-16: catches a code mistyped or cut by hand before it reaches WebRTC. */
function checksum(bytes) {
  let low = 0;
  let high = 0;
  for (const byte of bytes) {
    low = (low + byte) % 255;
    high = (high + low) % 255;
  }
  return [high, low];
}

function toBase64Url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function encode(kind, local, tag = "") {
  const bytes = [(kind << 2) | SETUPS.indexOf(local.setup), ...local.fingerprint, ...ascii(local.ufrag), ...ascii(local.pwd)];
  if (kind === ANSWER) bytes.push(...ascii(tag));
  bytes.push(local.candidates.length);
  for (const { type, port, packed } of local.candidates) {
    const [addressKind, address] = packed;
    bytes.push((TYPES.indexOf(type) << 2) | addressKind, ...address, port >> 8, port & 255);
  }
  return VERSION + toBase64Url([...bytes, ...checksum(bytes)]);
}

/** Reads a code into its parts; throws a ``net.code_*`` Error for anything off. */
function decode(code, kind) {
  if (typeof code !== "string") throw malformed("not text");
  code = code.trim();
  if (!code) throw malformed("empty");
  if (code.length > MAX_CODE) throw malformed("too long");
  if (code[0] !== VERSION) throw netError("net.code_version", "This code comes from another version of Taberna.");
  const body = code.slice(1);
  if (!/^[A-Za-z0-9_-]+$/.test(body) || body.length % 4 === 1) throw malformed("unexpected characters");
  let raw;
  try {
    raw = Array.from(atob(body.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
  } catch {
    throw malformed("unexpected characters");
  }
  if (raw.length < 3) throw malformed("cut short");
  const sum = raw.splice(-2);
  if (sum[0] !== checksum(raw)[0] || sum[1] !== checksum(raw)[1]) throw malformed("checksum");
  let at = 0;
  const byte = () => {
    if (at >= raw.length) throw malformed("cut short");
    return raw[at++];
  };
  const take = (n) => Array.from({ length: n }, byte);
  const text = (pattern) => {
    const value = String.fromCharCode(...take(byte()));
    if (!pattern.test(value)) throw malformed("bad ICE credentials");
    return value;
  };
  const head = byte();
  const found = head >> 2;
  if (found !== kind) {
    if (found === OFFER) throw netError("net.code_is_invite", "This is an invite code, not a reply code.");
    if (found === ANSWER) throw netError("net.code_is_reply", "This is a reply code, not an invite.");
    throw malformed("unknown kind");
  }
  const setup = SETUPS[head & 3];
  if (!setup || (kind === OFFER) !== (setup === "actpass")) throw malformed("bad DTLS role");
  const parts = { setup, fingerprint: take(32), ufrag: text(ICE_CHARS), pwd: text(ICE_CHARS), tag: "" };
  if (parts.pwd.length < 22) throw malformed("bad ICE credentials");
  if (kind === ANSWER) parts.tag = text(ICE_CHARS);
  const count = byte();
  if (count > MAX_CANDIDATES) throw malformed("too many candidates");
  parts.candidates = [];
  for (let i = 0; i < count; i++) {
    const flags = byte();
    const type = TYPES[flags >> 2];
    const addressKind = flags & 3;
    if (!type) throw malformed("unknown candidate type");
    const size = { [ADDR_IPV4]: 4, [ADDR_IPV6]: 16, [ADDR_MDNS]: 16 }[addressKind] ?? byte();
    const address = addressText(addressKind, take(size));
    if (addressKind === ADDR_NAME && !HOSTNAME.test(address)) throw malformed("bad address");
    const port = (byte() << 8) | byte();
    if (port === 0) throw malformed("bad port");
    parts.candidates.push({ type, address, port });
  }
  if (at !== raw.length) throw malformed("trailing data");
  return parts;
}

/** A complete SDP for a data-channel-only session, from the parts a code carried. */
function expand(parts, mid) {
  const fingerprint = hex(parts.fingerprint).join(":").toUpperCase();
  const candidates = parts.candidates.map(({ type: kind, address, port }, i) => {
    const priority = TYPE_PREFERENCE[kind] * 2 ** 24 + (65535 - i) * 256 + 255;
    const related = kind === "host" ? "" : " raddr 0.0.0.0 rport 0";
    return `a=candidate:${i + 1} 1 udp ${priority} ${address} ${port} typ ${kind}${related}`;
  });
  const session = Math.floor(Math.random() * 2 ** 52);
  return [
    "v=0",
    `o=- ${session} 2 IN IP4 127.0.0.1`,
    "s=-",
    "t=0 0",
    `a=group:BUNDLE ${mid}`,
    "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0",
    ...candidates,
    "a=end-of-candidates",
    `a=ice-ufrag:${parts.ufrag}`,
    `a=ice-pwd:${parts.pwd}`,
    `a=fingerprint:sha-256 ${fingerprint}`,
    `a=setup:${parts.setup}`,
    `a=mid:${mid}`,
    "a=sctp-port:5000",
    "a=max-message-size:262144",
    "",
  ].join("\r\n");
}

// --- the connection ------------------------------------------------------------------------
function gathered(pc) {
  // Non-trickle: the code must carry every candidate. A STUN server that never answers
  // must not hold the invite up forever, hence the deadline.
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const done = () => {
      clearTimeout(timer);
      pc.removeEventListener("icegatheringstatechange", check);
      resolve();
    };
    const check = () => pc.iceGatheringState === "complete" && done();
    const timer = setTimeout(done, GATHER_MS);
    pc.addEventListener("icegatheringstatechange", check);
  });
}

function connection(iceServers) {
  const pc = new RTCPeerConnection({ iceServers: iceServers ?? [] });
  const dc = pc.createDataChannel("taberna", { negotiated: true, id: 0, ordered: true });
  return { pc, dc };
}

async function describe(pc, type, sdp) {
  try {
    await pc.setRemoteDescription({ type, sdp });
  } catch (error) {
    throw malformed(error.message || "refused by the browser");
  }
}

/** A Channel once ``dc`` opens; rejects if the connection fails or ``timeoutMs`` passes. */
function opened(pc, dc, timeoutMs) {
  return new Promise((resolve, reject) => {
    const fail = (error) => {
      clearTimeout(timer);
      pc.close();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(netError("net.connect_timeout", "The connection could not be made in time.")),
      timeoutMs,
    );
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") {
        fail(netError("net.connect_failed", "The two devices could not reach each other."));
      }
    };
    const ready = () => {
      clearTimeout(timer);
      resolve(wrap(pc, dc));
    };
    if (dc.readyState === "open") ready();
    else dc.onopen = ready;
  });
}

/** The data channel as a driver channel: chunked texts, close and drop detection. */
function wrap(pc, dc) {
  let grace = null;
  const channel = new Channel(
    (text) => {
      let at = 0;
      do {
        let end = Math.min(at + CHUNK, text.length);
        // Never cut between the two halves of a surrogate pair (an emoji): each half alone
        // would reach the other side as U+FFFD.
        if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end -= 1;
        dc.send((end >= text.length ? "." : "+") + text.slice(at, end));
        at = end;
      } while (at < text.length);
    },
    () => {
      clearTimeout(grace);
      dc.close();
      pc.close();
    },
  );
  iceRoute(pc).then((path) => channel.setPath(path));
  let pending = "";
  let oversize = false;
  dc.onmessage = (event) => {
    const data = event.data;
    if (typeof data !== "string" || !data) return;
    if (!oversize) pending += data.slice(1);
    if (pending.length > MAX_TEXT_BYTES) {
      oversize = true; // a hostile peer: drop this text whole, keep no more of it
      pending = "";
    }
    if (data[0] === ".") {
      if (!oversize) channel.deliver(pending);
      else console.warn("net: a message over the size limit was dropped");
      pending = "";
      oversize = false;
    }
  };
  dc.onclose = () => channel.lost();
  pc.onconnectionstatechange = () => {
    const state = pc.connectionState;
    if (state === "failed" || state === "closed") channel.lost();
    else if (state === "disconnected") {
      // ICE often recovers from a short outage (a phone switching networks): wait a little.
      clearTimeout(grace);
      grace = setTimeout(() => pc.connectionState !== "connected" && channel.lost(), DISCONNECT_GRACE_MS);
    } else if (state === "connected") clearTimeout(grace);
  };
  return channel;
}

/**
 * The host's half: an invite code for one guest, and ``accept(replyCode)`` resolving to the
 * channel once the guest's reply code is pasted.
 */
export async function createInvite({ iceServers } = {}) {
  const { pc, dc } = connection(iceServers);
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  const local = parseSdp(pc.localDescription.sdp);
  let accepted = null;
  return {
    code: encode(OFFER, local),
    /** Gives up an invite nobody answered (its connection would otherwise linger). */
    cancel() {
      if (!accepted) pc.close();
    },
    async accept(replyCode) {
      const reply = decode(replyCode, ANSWER);
      if (reply.tag !== local.ufrag) {
        throw netError("net.code_other_invite", "This reply code answers another invite.");
      }
      if (!accepted) {
        // Set at once, so a second paste while the first is being applied waits for it; a
        // reply the browser refuses leaves the invite open for the right one.
        const described = describe(pc, "answer", expand(reply, local.mid));
        accepted = described.then(() => opened(pc, dc, CONNECT_MS));
        described.catch(() => { accepted = null; });
      }
      return accepted;
    },
  };
}

/**
 * The guest's half: ``reply`` is the code to give back to the host; ``channel`` resolves
 * once the host has pasted it and the connection is up.
 */
export async function answerInvite(code, { iceServers } = {}) {
  const offer = decode(code, OFFER);
  const { pc, dc } = connection(iceServers);
  let local;
  try {
    await describe(pc, "offer", expand(offer, "0"));
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc);
    local = parseSdp(pc.localDescription.sdp);
  } catch (error) {
    pc.close();
    throw error;
  }
  return { reply: encode(ANSWER, local, offer.ufrag), channel: opened(pc, dc, ANSWER_WAIT_MS) };
}
