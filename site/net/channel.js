// The channel every transport hands the driver: send(text), close(), onmessage, onclose, open,
// and ``path``, the way its texts go ("tab", "direct", "turn" through a TURN server, "brokers"
// through the MQTT brokers), with ``onpath`` told when it turns out to be another.
//
// One small class so the three transports (tabs, WebRTC, relay) agree on the same rules:
// texts only, a size limit both ways (a peer is untrusted, and the protocol's own limit for
// a host's view is 256 KiB), onclose fired once and only when the far side or the network
// ends the channel — a local close() is the caller's own decision and fires nothing, so a
// driver replacing a channel does not mistake it for a drop.

export const MAX_TEXT_BYTES = 256 * 1024;

const encoder = new TextEncoder();

/** Calls the owner's callback; a mistake there is reported but cannot break the transport
 * half-way through its own bookkeeping. */
function notify(callback, ...args) {
  try {
    callback?.(...args);
  } catch (error) {
    queueMicrotask(() => { throw error; });
  }
}

/** UTF-8 length of ``text``, computed only when the cheap bounds cannot decide. */
function textTooLarge(text) {
  if (text.length > MAX_TEXT_BYTES) return true;
  if (text.length * 3 <= MAX_TEXT_BYTES) return false;
  return encoder.encode(text).length > MAX_TEXT_BYTES;
}

export class Channel {
  /**
   * @param transmit  (text) => void: puts one checked text on the wire
   * @param shutdown  () => void: releases the transport (called once, on close or loss)
   */
  constructor(transmit, shutdown) {
    this.transmit = transmit;
    this.shutdown = shutdown;
    this.open = true;
    this.onmessage = null;
    this.onclose = null;
    this.path = "direct";
    this.onpath = null;
  }

  /** The channel's texts go another way than thought (a WebRTC pair found to use TURN). */
  setPath(path) {
    if (path === this.path) return;
    this.path = path;
    notify(this.onpath, path);
  }

  send(text) {
    if (!this.open) throw new Error("The channel is closed.");
    if (typeof text !== "string") throw new TypeError("Only text can be sent.");
    if (textTooLarge(text)) throw new RangeError(`A message is limited to ${MAX_TEXT_BYTES} bytes.`);
    this.transmit(text);
  }

  /** Ends the channel from this side; onclose is not called. */
  close() {
    if (!this.open) return;
    this.open = false;
    this.shutdown();
  }

  /** A text arrived from the far side: passed on if it is a text within the limit. */
  deliver(text) {
    if (!this.open) return;
    if (typeof text !== "string" || textTooLarge(text)) {
      console.warn("net: a message from a peer was dropped (not text, or over the size limit)");
      return;
    }
    notify(this.onmessage, text);
  }

  /** The far side went away (or the network did): close and tell the owner, once. */
  lost() {
    if (!this.open) return;
    this.open = false;
    this.shutdown();
    notify(this.onclose);
  }
}

/** "turn" when ``connection``'s selected ICE pair goes through a TURN server, else "direct". */
export async function iceRoute(connection) {
  try {
    const stats = [...(await connection.getStats()).values()];
    const pair = stats.find((report) => report.type === "candidate-pair" && report.nominated && report.state === "succeeded");
    const local = stats.find((report) => report.id === pair?.localCandidateId);
    return local?.candidateType === "relay" ? "turn" : "direct";
  } catch {
    return "direct";
  }
}

/** An Error whose ``key`` names its text in the message catalogs (the page translates it). */
export function netError(key, message) {
  const error = new Error(message);
  error.key = key;
  return error;
}

/** What to tell the player about ``error``: its catalog text when it names one (``t`` is the
 * page's translator), else its own message. */
export function errorText(error, t) {
  return error?.key ? t(error.key) : error?.message || String(error);
}
