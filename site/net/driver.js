// A shared table on this page: the worker's net_* calls on one side, the transports on the other.
//
// The protocol (Host or Guest) runs in the worker, in Python; this file only carries texts
// between it and the channels, keeps time, paces bots and shows what the worker rendered.
// Worker calls go through one queue, in arrival order, so no network message is ever dropped
// or overtaken, and a player's click never races a message from a peer.

import { hostBroadcast, joinBroadcast } from "./bc.js";
import { errorText, netError } from "./channel.js";
import { SHARED_KEYS as KEYS, heldElsewhere, lockName, parseJoinLink, savedField } from "./links.js";
import { answerInvite, createInvite } from "./rtc.js";

const TICK_MS = 1000;
const TAB_RETRY_MS = [1000, 2000, 4000, 8000];
const TAB_PROBE_MS = 1000; // a host tab of this browser answers within one hello (400 ms)

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
    this.via = null; // guest: {via: "invite"|"room"|"tab", table, seat}
    this.closers = [];
    this.queue = Promise.resolve();
    this.queued = 0;
    this.clickPending = false;
    this.botTimer = null;
    this.invites = 0;
    this.held = null; // the Web Lock this tab holds for the table
    this.room = null; // guest: the table's room on the relays, once joined
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
  create(request) {
    return this.host("net_host_create", JSON.stringify(request));
  }

  resumeHost(save) {
    return this.host("net_host_resume", save);
  }

  /** A new or saved table from the worker; once it is ours, friends can reach it. */
  async host(call, text) {
    const reply = await this.enqueue(call, text, now());
    if (!reply?.ok) return reply;
    this.hold(lockName("host", this.tableId));
    this.remember();
    this.openHostTransports();
    return reply;
  }

  addChannel(peer, channel) {
    this.channels.get(peer)?.close();
    this.channels.set(peer, channel);
    channel.onmessage = (text) => this.enqueue("net_host_receive", peer, text, now());
    channel.onclose = () => {
      if (this.channels.get(peer) !== channel) return;
      this.channels.delete(peer);
      this.enqueue("net_host_dropped", peer, now());
    };
  }

  openHostTransports() {
    const broadcast = hostBroadcast(this.tableId, (peer, channel) => this.addChannel(`bc-${peer}`, channel));
    this.closers.push(() => broadcast.close());
    const settings = this.page.settings();
    if (!settings.useRelays) return;
    relayModule()
      .then((relay) => relay.hostRoom(
        this.tableId,
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

  roomLink() {
    return this.page.link(`room=${this.tableId}`);
  }

  /** Shows the room link and code, for friends joining through the relay network. */
  shareRoom() {
    this.page.panel.show({
      title: this.page.t("friends.share_room"),
      link: this.roomLink(),
      hint: this.page.t("friends.share_room_hint", { code: this.tableId }),
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
    const link = this.page.link(`join=${this.tableId}.${seat}.${invite.code}`);
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
   * Sits down at a table: ``via`` says how to reach the host ("invite" with its code, "room",
   * "tab"). A save for the same table means this player was here before: rejoin its seat.
   */
  async join({ via, table, seat = null, code = null, name = "" }) {
    this.via = { via, table, seat };
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
      reply = await this.enqueue("net_guest_join", JSON.stringify({ table, seat, name }), now());
    }
    if (!reply?.ok) return reply;
    this.remember({ via, seat });
    this.connect(code);
    return reply;
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
        await this.openRoom(table);
      } else if (code) {
        await this.answer(code);
      } else {
        this.fallBack();
      }
    } catch (error) {
      console.warn("connect", error);
      this.page.toast(this.page.t("friends.connect_failed", { reason: this.reason(error) }));
      if (via === "invite") this.fallBack();
      else if (via === "tab") this.reconnect();
    }
  }

  /** Joins the table's room on the relays: the host's channel is attached now and again
   * whenever the host announces itself anew (after its reload, or the room's reconnection). */
  async openRoom(table) {
    const settings = this.page.settings();
    const relay = await relayModule();
    const room = await relay.joinRoom(table, { relayUrls: settings.relays, iceServers: settings.iceServers });
    if (this.closed) {
      room.close();
      return;
    }
    this.room = room;
    this.closers.push(() => room.close());
    room.onreconnect = (channel) => this.attach(channel);
    this.attach(await room.channel);
  }

  /** An invited guest without a link to the host: a new invite always works; where room
   * codes are allowed the table's room is tried at the same time, and reconnects by itself
   * (a phone that slept, a reload) whenever the host is online. */
  fallBack() {
    this.askForInvite();
    if (!this.room && this.page.settings().useRelays) {
      this.openRoom(this.via.table).catch((error) => console.warn("room", error));
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
