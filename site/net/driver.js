// A shared table on this page: the worker's net_* calls on one side, the transports on the other.
//
// The protocol (Host or Guest) runs in the worker, in Python; this file only carries texts
// between it and the channels, keeps time, paces bots and shows what the worker rendered.
// Worker calls go through one queue, in arrival order, so no network message is ever dropped
// or overtaken, and a player's click never races a message from a peer.

import { hostBroadcast, joinBroadcast } from "./bc.js";
import { errorText, netError } from "./channel.js";
import { forgetIdentity, hostIdentity } from "./identity.js";
import {
  SHARED_KEYS as KEYS, heldElsewhere, joinFragment, lockName, parseJoinLink, roomFragment, savedField,
} from "./links.js";
import { canDerive, newRoomCode, roomSecrets, showRoomCode } from "./roomkey.js";
import { answerInvite, createInvite } from "./rtc.js";

const TICK_MS = 1000;
const TAB_RETRY_MS = [1000, 2000, 4000, 8000];
const TAB_PROBE_MS = 1000; // a host tab of this browser answers within one hello (400 ms)
// Flood limits on the host (a guest sends a ping every 5 s, an intent per click): each peer
// may send PEER_BURST messages at once and PEER_RATE a second after that; what comes faster
// is dropped before it costs the worker anything, and a peer that keeps it up for
// PEER_STRIKES more messages is disconnected with a reason. However many peers talk, at most
// INBOUND_QUEUE of their messages wait for the worker (the protocol resends what matters).
const PEER_RATE = 20;
const PEER_BURST = 40;
const PEER_STRIKES = 200;
const INBOUND_QUEUE = 64;

const now = () => Date.now();

function relayModule() {
  // Loaded only when a room is used: the lobby never contacts a relay.
  return import("./relay.js");
}

export class SharedTable {
  /**
   * @param page  what the page offers: call(name, ...args) -> reply object, paint(reply),
   *              toast(text), store, t(key, params), lang(), settings() -> {relays, useRelays, roomsOff,
   *              iceServers}, panel -> SharePanel
   * @param role  "host" | "guest"
   */
  constructor(page, role) {
    this.page = page;
    this.role = role;
    this.tableId = null;
    this.channels = new Map(); // host: peer id -> channel
    this.channel = null; // guest: the channel to the host
    this.via = null; // guest: {via: "invite"|"room"|"tab", table, seat, room, pin}
    this.closers = [];
    this.queue = Promise.resolve();
    this.queued = 0;
    this.clickPending = false;
    this.botTimer = null;
    this.invites = 0;
    this.held = null; // the Web Lock this tab holds for the table
    this.room = null; // guest: the table's room on the relays, once joined
    this.roomCode = null; // host: the table's room code (null where the page cannot derive)
    this.identity = null; // host: its key pair (identity.js), once loaded
    this.buckets = new Map(); // host: peer id -> {tokens, at, strikes}
    this.inbound = 0; // host: peers' messages waiting for the worker
    this.status = null;
    this.closed = false;
    this.ticker = setInterval(() => this.tick(), TICK_MS);
  }

  reason(error) {
    return errorText(error, this.page.t);
  }

  // --- the worker ----------------------------------------------------------------------------
  /** Queues one worker call; its reply is applied (outbox, save, screen) before the next. */
  enqueue(name, ...args) {
    this.queued += 1;
    const job = this.queue.then(async () => {
      if (this.closed) return null;
      const reply = await this.page.call(name, ...args, this.page.lang());
      this.apply(reply);
      return reply;
    });
    this.queue = job.catch((error) => {
      console.error(name, error);
      this.page.toast(this.page.t("game.failed", { reason: this.reason(error) }));
    }).finally(() => { this.queued -= 1; });
    return job;
  }

  apply(reply) {
    if (!reply || this.closed) return;
    if (reply.table) this.tableId = reply.table;
    if (reply.save) {
      this.page.store.set(KEYS[this.role], reply.save);
      if (this.role === "guest") this.hold(lockName("guest", this.tableId, savedField(reply.save, "seat")));
    }
    for (const [peer, text] of reply.outbox || []) this.deliver(peer, text);
    if (!reply.ok && reply.message) this.page.toast(reply.message);
    if (typeof reply.html === "string") {
      this.status = reply.status;
      this.page.paint(reply);
    }
    if (this.role === "host") this.paceBots(reply);
    // A table its host closed is over for everyone: nothing to resume after a reload.
    if (reply.status === "closed") this.forget();
  }

  deliver(peer, text) {
    // A closed or unknown channel loses the text; the protocol resends or resyncs.
    const channel = this.role === "host" ? this.channels.get(peer) : this.channel;
    if (!channel || !channel.open) return;
    try {
      channel.send(text);
    } catch (error) {
      console.warn("send failed", error);
    }
  }

  tick() {
    // A slow worker must not pile up ticks behind itself.
    if (this.closed || this.queued > 2 || !this.tableId) return;
    this.enqueue(this.role === "host" ? "net_host_tick" : "net_guest_tick", now());
  }

  /** A click on a game button: one at a time, later clicks ignored while it is on its way. */
  async click(name, ...args) {
    if (this.clickPending) return;
    this.clickPending = true;
    try {
      await this.enqueue(name, ...args, now());
    } finally {
      this.clickPending = false;
    }
  }

  act(actionJson) {
    return this.click(this.role === "host" ? "net_host_act" : "net_guest_act", actionJson);
  }

  ui(changeJson) {
    return this.click(this.role === "host" ? "net_host_ui" : "net_guest_ui", changeJson);
  }

  /** The same screen again (after a language change). */
  render() {
    return this.enqueue(this.role === "host" ? "net_host_ui" : "net_guest_ui", "{}", now());
  }

  command(commandJson) {
    return this.click("net_host_command", commandJson);
  }

  paceBots(reply) {
    if (typeof reply.html !== "string") return;
    clearTimeout(this.botTimer);
    if (reply.status !== "bot") return;
    const delay = Math.round((reply.delay_ms || 0) * this.page.botSpeed());
    this.botTimer = setTimeout(() => this.enqueue("net_host_bot_step", now()), delay);
  }

  /** Leaves the table on this page (the save stays unless ``forget``). */
  close(forget = false) {
    this.closed = true;
    clearInterval(this.ticker);
    clearTimeout(this.botTimer);
    for (const closer of this.closers) {
      try { closer(); } catch { /* already closed */ }
    }
    for (const channel of this.channels.values()) channel.close();
    this.channel?.close();
    this.page.panel.hide();
    if (forget) this.forget();
  }

  forget() {
    if (this.role === "host" && this.tableId) forgetIdentity(this.tableId);
    this.page.store.remove(KEYS[this.role]);
    this.page.store.remove(KEYS.shared);
  }

  /** Marks this table as the one on screen: a reload comes straight back to it. */
  remember(extra = {}) {
    const marker = { role: this.role, table: this.tableId, ...extra, onScreen: true };
    this.page.store.set(KEYS.shared, JSON.stringify(marker));
  }

  /** Holds this tab's Web Lock on ``name`` until the table is closed here (see lockName). */
  hold(name) {
    if (!navigator.locks?.request || this.held === name) return;
    this.held = name;
    navigator.locks.request(name, { ifAvailable: true }, (lock) => {
      if (!lock || this.closed) return null;
      return new Promise((release) => this.closers.push(release));
    }).catch(() => { /* no lock, no guard */ });
  }

  // --- host ----------------------------------------------------------------------------------
  /** A new table: the room code is made here and the table's id derived from it (roomkey.js);
   * a page without Web Crypto (plain http on a LAN) hosts by invite links only. */
  async create(request) {
    let room = null;
    if (canDerive()) {
      const code = newRoomCode();
      room = { code, table: (await roomSecrets(code)).table };
    }
    return this.host("net_host_create", JSON.stringify({ ...request, room }));
  }

  resumeHost(save) {
    return this.host("net_host_resume", save);
  }

  /** A new or saved table from the worker; once it is ours, friends can reach it. */
  async host(call, text) {
    const reply = await this.enqueue(call, text, now());
    if (!reply?.ok) return reply;
    this.roomCode = savedField(reply.save ?? text, "room");
    this.hold(lockName("host", this.tableId));
    this.remember({ room: this.roomCode });
    await this.openHostTransports();
    return reply;
  }

  addChannel(peer, channel) {
    this.channels.get(peer)?.close();
    this.channels.set(peer, channel);
    channel.onmessage = (text) => {
      if (this.admit(peer, channel)) this.receiveFrom(peer, text);
    };
    channel.onclose = () => {
      if (this.channels.get(peer) !== channel) return;
      this.channels.delete(peer);
      this.buckets.delete(peer);
      this.enqueue("net_host_dropped", peer, now());
    };
  }

  /** A peer's message for the worker, unless too many already wait (then it is dropped:
   * guests resend intents and resync by themselves). */
  receiveFrom(peer, text) {
    if (this.inbound >= INBOUND_QUEUE) return;
    this.inbound += 1;
    this.enqueue("net_host_receive", peer, text, now()).finally(() => { this.inbound -= 1; });
  }

  /** Whether ``peer`` may send one more message now (a token bucket per peer); a peer that
   * floods on is told why and disconnected. */
  admit(peer, channel) {
    const at = now();
    const bucket = this.buckets.get(peer) ?? { tokens: PEER_BURST, at, strikes: 0 };
    bucket.tokens = Math.min(PEER_BURST, bucket.tokens + ((at - bucket.at) * PEER_RATE) / 1000);
    bucket.at = at;
    this.buckets.set(peer, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return true;
    }
    bucket.strikes += 1;
    if (bucket.strikes >= PEER_STRIKES) this.disconnect(peer, channel, "sync_flooded", "Too many messages: the host disconnected you.");
    return false;
  }

  /** Ends ``peer``'s channel after telling it why (a protocol ``error``, translated on its side). */
  disconnect(peer, channel, code, reason) {
    const error = { v: 1, kind: "error", table: this.tableId, code, reason, params: {}, ref: null };
    try {
      channel.send(JSON.stringify(error));
    } catch { /* already gone */ }
    channel.close();
    if (this.channels.get(peer) === channel) {
      this.channels.delete(peer);
      this.enqueue("net_host_dropped", peer, now());
    }
  }

  async openHostTransports() {
    const broadcast = hostBroadcast(this.tableId, (peer, channel) => this.addChannel(`bc-${peer}`, channel));
    this.closers.push(() => broadcast.close());
    if (canDerive()) {
      try {
        this.identity = await hostIdentity(this.tableId);
      } catch (error) {
        console.warn("host identity", error);
      }
    }
    const settings = this.page.settings();
    if (!settings.useRelays || !this.roomCode || !this.identity || this.closed) return;
    relayModule()
      .then((relay) => relay.hostRoom(
        this.roomCode,
        { table: this.tableId, identity: this.identity },
        { relayUrls: settings.relays, iceServers: settings.iceServers },
        (peer, channel) => this.addChannel(`relay-${peer}`, channel),
      ))
      .then((room) => {
        if (this.closed) room.close();
        else this.closers.push(() => room.close());
      })
      .catch((error) => {
        console.warn("relay", error);
        this.page.toast(this.page.t("friends.relay_failed", { reason: this.reason(error) }));
      });
  }

  /** The room link: the room code and the fingerprint of the host's key (a guest who opens
   * it trusts only that key). */
  roomLink() {
    return this.page.link(roomFragment(this.roomCode, this.identity.fingerprint));
  }

  /** Shows the room link and code, for friends joining through the relay network. */
  shareRoom() {
    if (!this.roomCode || !this.identity) return;
    this.page.panel.show({
      title: this.page.t("friends.share_room"),
      link: this.roomLink(),
      hint: this.page.t("friends.share_room_hint", { code: showRoomCode(this.roomCode) }),
    });
  }

  /** An invite for one seat: a link carrying a WebRTC offer; the friend answers with a code. */
  async invite(seat) {
    const panel = this.page.panel;
    panel.show({ title: this.page.t("friends.invite_title", { seat: seat + 1 }), busy: true });
    let invite;
    try {
      invite = await createInvite({ iceServers: this.page.settings().iceServers });
    } catch (error) {
      panel.show({ title: this.page.t("friends.invite_failed"), hint: this.reason(error) });
      return;
    }
    const link = this.page.link(joinFragment(this.tableId, seat, this.identity?.fingerprint, invite.code));
    panel.show({
      title: this.page.t("friends.invite_title", { seat: seat + 1 }),
      link,
      hint: this.page.t("friends.invite_hint"),
      reply: async (code) => {
        const channel = await invite.accept(code.trim());
        this.invites += 1;
        this.addChannel(`rtc-${this.invites}`, channel);
        panel.hide();
        this.page.toast(this.page.t("friends.connected"));
      },
      ondismiss: () => invite.cancel(),
    });
  }

  // --- guest ---------------------------------------------------------------------------------
  /**
   * Sits down at a table: ``via`` says how to reach the host ("invite" with its code, "room"
   * with the room code, "tab"); ``pin`` is the fingerprint of the host's key when known (room
   * and invite links). A save for the same table means this player was here before: rejoin
   * its seat.
   */
  async join({ via, table = null, seat = null, code = null, name = "", room = null, pin = null }) {
    if (via === "room") {
      if (!room) return { ok: false, message: this.page.t("friends.bad_code") }; // a marker from before room codes were derived
      if (!canDerive()) return { ok: false, message: this.page.t(this.page.settings().roomsOff ?? "net.relays_insecure") };
      table = (await roomSecrets(room)).table;
    }
    this.via = { via, table, seat, room, pin };
    // A seat saved here for this table is taken back, unless another tab is playing it.
    const saved = this.page.store.get(KEYS.guest);
    const savedSeat = savedField(saved, "seat");
    let reply = null;
    if (savedField(saved, "table") === table && (seat === null || seat === savedSeat)
        && !(await heldElsewhere(lockName("guest", table, savedSeat)))) {
      reply = await this.enqueue("net_guest_resume", saved, now());
      if (reply?.ok) this.hold(lockName("guest", table, savedSeat));
    }
    if (!reply?.ok) {
      reply = await this.enqueue("net_guest_join", JSON.stringify({ table, seat, name, room }), now());
    }
    if (!reply?.ok) return reply;
    this.rememberGuest();
    this.connect(code);
    return reply;
  }

  /** The guest's marker: how to find the host again after a reload (room code, pinned key). */
  rememberGuest() {
    const { via, seat, room, pin } = this.via;
    this.remember({ via, seat, room, pin });
  }

  attach(channel) {
    this.channel?.close();
    this.channel = channel;
    this.page.panel.hide(); // a reply code or a plea for a new invite is moot now
    channel.onmessage = (text) => this.enqueue("net_guest_receive", text, now());
    channel.onclose = () => {
      if (this.channel !== channel) return;
      this.channel = null;
      this.enqueue("net_guest_dropped", now());
      this.reconnect();
    };
    this.enqueue("net_guest_connected", now());
  }

  async connect(code) {
    const { via, table } = this.via;
    const settings = this.page.settings();
    try {
      if (via === "tab") {
        this.attach(await joinBroadcast(table));
      } else if (via === "room" && (await this.tryTab(table))) {
        // The host is another tab of this browser: no network needed.
      } else if (via === "room") {
        if (!settings.useRelays) throw netError(settings.roomsOff, "Room codes cannot be used here.");
        await this.openRoom();
      } else if (code) {
        await this.answer(code);
      } else {
        this.fallBack();
      }
    } catch (error) {
      console.warn("connect", error);
      if (via === "room") {
        // Said where it stays: why, and what to do (issue 14: within 20 s, never "Connecting…" forever).
        this.page.panel.show({ title: this.page.t("friends.room_failed"), hint: this.reason(error) });
      } else this.page.toast(this.page.t("friends.connect_failed", { reason: this.reason(error) }));
      if (via === "invite") this.fallBack();
      else if (via === "tab") this.reconnect();
    }
  }

  /** Joins the table's room on the relays: the host's channel is attached once the host has
   * proved its key (relay.js), and again whenever it announces itself anew (after its
   * reload, or the room's reconnection) and proves it again. A typed code pins the first
   * key that proves itself. */
  async openRoom() {
    const settings = this.page.settings();
    const relay = await relayModule();
    const { room: code, table, pin } = this.via;
    const room = await relay.joinRoom(code, { table, pin }, { relayUrls: settings.relays, iceServers: settings.iceServers });
    if (this.closed) {
      room.close();
      return;
    }
    this.room = room;
    this.closers.push(() => room.close());
    room.onpin = (fingerprint) => {
      this.via.pin = fingerprint;
      if (!this.closed) this.rememberGuest();
    };
    room.onreconnect = (channel) => this.attach(channel);
    try {
      this.attach(await room.channel);
    } catch (error) {
      this.room = null;
      throw error;
    }
  }

  /** An invited guest without a link to the host: a new invite always works; where room
   * codes are allowed the table's room is tried at the same time (the host told the room
   * code to the seated guest; the invite link pinned its key), and reconnects by itself (a
   * phone that slept, a reload) whenever the host is online. */
  fallBack() {
    this.askForInvite();
    const code = this.via.room ?? savedField(this.page.store.get(KEYS.guest), "room");
    if (!this.room && code && this.via.pin && canDerive() && this.page.settings().useRelays) {
      this.via.room = code;
      this.openRoom().catch((error) => console.warn("room", error));
    }
  }

  /** A room code typed in a tab of the host's own browser: join that tab directly. */
  async tryTab(table) {
    try {
      this.attach(await joinBroadcast(table, { timeoutMs: TAB_PROBE_MS }));
    } catch {
      return false;
    }
    this.via = { ...this.via, via: "tab" };
    return true;
  }

  /** The invite flow's second half: show our reply code until the host has pasted it. */
  async answer(code) {
    const answer = await answerInvite(code, { iceServers: this.page.settings().iceServers });
    this.page.panel.show({
      title: this.page.t("friends.reply_title"),
      code: answer.reply,
      hint: this.page.t("friends.reply_hint"),
    });
    const channel = await answer.channel;
    this.page.panel.hide();
    this.attach(channel);
  }

  /** An invite link works once: after a drop or a reload, the host must send a new one. */
  askForInvite() {
    this.page.panel.show({
      title: this.page.t("friends.need_invite"),
      hint: this.page.t("friends.need_invite_hint"),
      paste: async (text) => {
        const parsed = parseJoinLink(text);
        if (!parsed || parsed.table !== this.via.table) throw new Error(this.page.t("friends.bad_link"));
        await this.answer(parsed.code);
      },
    });
  }

  reconnect() {
    if (this.closed || !this.via) return;
    if (this.via.via === "invite") this.fallBack();
    else if (this.via.via === "tab") {
      // Another tab of this browser: try again with back-off until the host tab is back.
      const attempt = async (n) => {
        if (this.closed || this.channel) return;
        try {
          this.attach(await joinBroadcast(this.via.table));
        } catch {
          setTimeout(() => attempt(n + 1), TAB_RETRY_MS[Math.min(n, TAB_RETRY_MS.length - 1)]);
        }
      };
      attempt(0);
    }
    // A room (and an invited guest's fallback room) reconnects by itself through
    // room.onreconnect when the host announces itself again.
  }
}
