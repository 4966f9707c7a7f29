// Tabs of one browser: a BroadcastChannel per table, turned into one channel per guest tab.
//
// A BroadcastChannel reaches every tab of the origin that opened the same name, so every
// message carries its sender and its addressee and a tab ignores what is not meant for it
// (a guest tab never sees another tab's view). The guest says hello until a host tab answers
// with a welcome, and takes the first host that does (a table open in two tabs by mistake
// makes no phantom guest in the other); from then on the two are a pair.
//
// Close detection has two parts: a goodbye on ``pagehide`` (closing or reloading a tab),
// and a heartbeat for tabs that vanish without one (a crash, a discarded tab). Each side
// pings every PING_MS and the other answers from its message handler; a side that has heard
// nothing for SILENCE_MS considers its partner gone. Answering from the event handler, not
// from a timer, keeps a hidden tab (whose timers the browser slows down) from looking dead.

import { Channel, netError } from "./channel.js";

const PING_MS = 2000;
const SILENCE_MS = 8000;
const HELLO_EVERY_MS = 400;
const JOIN_TIMEOUT_MS = 3000;

// getRandomValues, unlike randomUUID, works on plain-http pages too (a LAN address).
const randomId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
const busName = (tableId) => `taberna.table.${tableId}`;

/** A BroadcastChannel with the pairing, heartbeat and goodbye shared by both ends. */
class Bus {
  constructor(tableId) {
    this.id = randomId();
    this.bus = new BroadcastChannel(busName(tableId));
    this.partners = new Map(); // partner id -> {channel, heard}
    this.bus.onmessage = (event) => this.receive(event.data);
    this.onother = null; // (message) for messages that are not from a known partner
    this.lastBeat = Date.now();
    this.timer = setInterval(() => this.beat(), PING_MS);
    // Leaving (or entering the back-forward cache): tell everyone, and drop our side too,
    // so a page restored from the cache reconnects instead of trusting stale pairs.
    this.goodbye = () => {
      this.post({ t: "bye" });
      for (const partner of [...this.partners.values()]) partner.channel.lost();
    };
    addEventListener("pagehide", this.goodbye);
  }

  post(message) {
    this.bus.postMessage({ ...message, from: this.id });
  }

  pair(partner) {
    const channel = new Channel(
      (text) => this.post({ t: "msg", to: partner, text }),
      () => {
        this.partners.delete(partner);
        this.post({ t: "bye", to: partner });
      },
    );
    channel.path = "tab";
    this.partners.set(partner, { channel, heard: Date.now() });
    return channel;
  }

  receive(message) {
    if (!message || typeof message !== "object" || typeof message.from !== "string") return;
    if (message.to !== undefined && message.to !== this.id) return;
    const partner = this.partners.get(message.from);
    if (!partner) {
      this.onother?.(message);
      return;
    }
    partner.heard = Date.now();
    if (message.t === "msg") partner.channel.deliver(message.text);
    else if (message.t === "ping") this.post({ t: "pong", to: message.from });
    else if (message.t === "bye") partner.channel.lost();
  }

  beat() {
    // A tab whose own timer ran late was asleep (hidden tabs get few timer runs): it cannot
    // tell a silent partner from its own sleep, so it only pings and judges next time.
    const now = Date.now();
    const slept = now - this.lastBeat > 2 * PING_MS;
    this.lastBeat = now;
    for (const [id, partner] of this.partners) {
      if (!slept && now - partner.heard > SILENCE_MS) partner.channel.lost();
      else this.post({ t: "ping", to: id });
    }
  }

  close() {
    clearInterval(this.timer);
    removeEventListener("pagehide", this.goodbye);
    for (const partner of [...this.partners.values()]) partner.channel.close();
    this.bus.close();
  }
}

/**
 * Hosts ``tableId`` for the other tabs of this browser: ``onChannel(peerId, channel)`` for
 * each guest tab that says hello. Returns ``{close()}``.
 */
export function hostBroadcast(tableId, onChannel) {
  const bus = new Bus(tableId);
  bus.onother = (message) => {
    if (message.t === "hello" && message.to === undefined) bus.post({ t: "welcome", to: message.from });
    else if (message.t === "take" && message.to === bus.id) onChannel(message.from, bus.pair(message.from));
  };
  return { close: () => bus.close() };
}

/**
 * A channel to the tab hosting ``tableId``; rejects when no host tab answers within
 * ``timeoutMs``.
 */
export function joinBroadcast(tableId, { timeoutMs = JOIN_TIMEOUT_MS } = {}) {
  const bus = new Bus(tableId);
  return new Promise((resolve, reject) => {
    const hello = () => bus.post({ t: "hello" });
    const repeat = setInterval(hello, HELLO_EVERY_MS);
    const expiry = setTimeout(() => {
      clearInterval(repeat);
      bus.close();
      reject(netError("net.no_host_tab", "No tab of this browser is hosting that table."));
    }, timeoutMs);
    bus.onother = (message) => {
      if (message.t !== "welcome" || bus.partners.size) return;
      clearInterval(repeat);
      clearTimeout(expiry);
      bus.post({ t: "take", to: message.from });
      const channel = bus.pair(message.from);
      // The bus serves this one channel: closing or losing it ends the bus too.
      const shutdown = channel.shutdown;
      channel.shutdown = () => {
        shutdown();
        bus.close();
      };
      resolve(channel);
    };
    hello();
  });
}
