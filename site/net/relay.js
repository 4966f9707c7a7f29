// Matchmaking by room code over public MQTT brokers (Trystero's MQTT strategy), then WebRTC.
//
// The brokers only carry the WebRTC handshake between the peers of a room (appId "taberna",
// room id and password derived from the room code); the game's texts then go peer to peer. Trystero is bundled by
// the build (net/relay-bundle.js) and imported here on first use, so the lobby never
// downloads it nor contacts a broker.
//
// A Trystero room is a full mesh: everyone who knows the code connects to everyone. The host
// turns it into a star: it announces itself ("host" action: the table id and its public key)
// to each peer that joins and treats each peer as its own channel. A guest challenges every
// announcer ("prove"), and sends protocol texts only to a peer whose answer ("proof") it
// checked, ignoring everyone else. When that peer leaves (the host's tab reloads or dies)
// the guest's channel closes, the room stays open, and the next proved announcement (the
// host back with the same room code) hands a new channel to ``room.onreconnect(channel)``.
//
// Threat model (more in the README): the room code is the only secret a guest types. The
// brokers see a topic and a password-encrypted handshake derived from it by a slow key
// derivation (roomkey.js), never the code. Anyone who has the code can join as a spectator
// or claim an open seat, and learns the network addresses of the room's peers, as WebRTC
// requires; but nobody can pose as the host: a guest talks to a peer only after it proved
// the host's key (identity.js) on that very connection, and the key is the one the room or
// invite link names, or for a typed code one that the code names (roomkey.js codeOfKey),
// pinned from then on. Every new announcement (the host's reload, a new channel) is proved again.
//
// Joining reports failure within JOIN_WAIT_MS with the reason: offline, no broker reachable,
// nobody answered the code, or only peers that could not prove to be the host.
//
// When no direct path opens (no WebRTC channel within DIRECT_WAIT_MS, or the one there was
// closed and none came back), the guest and host talk through the brokers themselves
// (brokerpath.js: sealed end to end, the host's key proved on that path too); the guest goes
// back to a direct channel the moment one proves itself (its texts there wait until the host
// has taken its goodbye on the brokers, and so every text sent there before). Either way
// the driver gets the same Channel, whose ``path`` says which way it goes ("direct", "turn"
// or "brokers").

import { brokerLinks, GuestPath, HostPath, pathSecrets } from "./brokerpath.js";
import { Channel, iceRoute, netError } from "./channel.js";
import { gatedPeerConnection, readLimits, roomToken } from "./guard.js";
import { announcedKey, checkProof, newChallenge, signProof } from "./identity.js";
import { roomSecrets } from "./roomkey.js";

const APP_ID = "taberna";
const RELAY_WAIT_MS = 10_000;
const RELAY_POLL_MS = 200;
// A guest learns within this time whether the code leads anywhere: with the key derivation
// before it (0.3–1 s, longer on a slow phone), within 20 s of tapping "join".
export const JOIN_WAIT_MS = 15_000;
// A guest with no direct channel this long after joining (or after losing one) goes through
// the brokers: ICE on a network where a direct path opens takes well under a second.
export const DIRECT_WAIT_MS = 4000;
const MAX_PROOFS_PER_PEER = 4; // a host signs a few challenges per connection, no more
const NONCE = /^[A-Za-z0-9_-]{43}$/;

let bundle = null;
const library = () => (bundle ??= import("./relay-bundle.js"));

// Rooms this page is still leaving. Trystero's leave takes a moment (it tells the peers, then
// waits 99 ms), and joining the same room meanwhile returns the room being left, dead a
// moment later: the host back from the lobby at once would be left alone in it. So a join
// waits for the leaves under way.
let leaving = Promise.resolve();

const warn = (what) => (error) => console.warn(what, error);

const offline = () => netError("net.offline", "This device is offline.");

/** Resolves once a broker's WebSocket is open; rejects after ``waitMs``. */
function reachable(lib, waitMs) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      const sockets = Object.values(lib.getRelaySockets());
      if (sockets.some((socket) => socket.readyState === WebSocket.OPEN)) resolve();
      else if (Date.now() - started > waitMs) {
        reject(navigator.onLine === false
          ? offline()
          : netError("net.relay_unreachable", "No relay server could be reached."));
      } else setTimeout(poll, RELAY_POLL_MS);
    };
    poll();
  });
}

/** The brokers to use: the settings' list (WebSocket URLs only), or Trystero's public ones. */
function brokers(lib, relayUrls) {
  if (!relayUrls?.length) return lib.defaultRelayUrls;
  for (const url of relayUrls) {
    let protocol = null;
    try {
      protocol = new URL(url).protocol;
    } catch { /* reported below */ }
    if (protocol !== "wss:" && protocol !== "ws:") {
      throw netError("net.relay_bad_url", `A relay server must be a ws:// or wss:// address: ${url}`);
    }
  }
  return relayUrls;
}

/** The brokers a room uses with the settings' ``relayUrls`` (for the connection check). */
export async function brokerUrls(relayUrls) {
  return brokers(await library(), relayUrls);
}

/**
 * Joins the room of ``code`` and registers the actions before any peer can talk: ``sends``
 * and ``reads`` name this side's actions besides the protocol's texts; a peer's message on
 * any other action is dropped unread, and every message is size-checked on arrival
 * (guard.js). ``cutOff.count`` counts the peers cut off for flooding, ``cutOff.onchange()``
 * hears of each.
 */
async function enter(code, { relayUrls, iceServers } = {}, { sends, reads, waitMs = RELAY_WAIT_MS }) {
  if (navigator.onLine === false) throw offline();
  const lib = await library();
  const urls = brokers(lib, relayUrls);
  const { roomId, password, broker } = await roomSecrets(code);
  const cutOff = { count: 0, onchange: null };
  const token = await roomToken(APP_ID, roomId);
  const rtcPolyfill = gatedPeerConnection(token, readLimits(reads), () => {
    cutOff.count += 1;
    cutOff.onchange?.();
  });
  await leaving;
  const room = lib.joinRoom(
    { appId: APP_ID, password, relayConfig: { urls }, rtcConfig: { iceServers: iceServers ?? [] }, rtcPolyfill },
    roomId,
  );
  const actions = Object.fromEntries([...sends, ...reads, "text"].map((name) => [name, room.makeAction(name)]));
  try {
    await reachable(lib, Math.min(RELAY_WAIT_MS, waitMs));
  } catch (error) {
    leave(room);
    throw error;
  }
  const secrets = await pathSecrets(broker);
  const links = () => brokerLinks(lib.brokerClients(urls), secrets.topic);
  const countCut = () => {
    cutOff.count += 1;
    cutOff.onchange?.();
  };
  return { room, cutOff, countCut, secrets, links, ...actions };
}

/**
 * Leaves ``room``, then closes the WebRTC connections it had. Trystero keeps a connection
 * open for two minutes after its last room is left, to reuse it on a quick rejoin; a table
 * that is closed should leave nothing connected, and a rejoin in the same page (the host
 * back from the lobby) then starts afresh, as after a reload.
 */
function leave(room) {
  const connections = Object.values(room.getPeers());
  const left = room.leave()
    .finally(() => connections.forEach((connection) => connection.close()))
    .catch(warn("relay leave"));
  leaving = Promise.all([leaving, left]);
}

/** A channel to ``peer``; its texts go once ``before`` (a promise) has settled, in order. */
function channelTo(text, peer, shutdown, before = null) {
  const send = (message) => text.send(message, { target: peer }).catch(warn("relay send"));
  return new Channel(before ? (message) => before.then(() => send(message)) : send, shutdown);
}

/**
 * Hosts the room of ``code`` for ``table`` as ``identity`` (identity.js hostIdentity):
 * ``onChannel(peerId, channel)`` for every peer that joins. ``relayUrls`` empty or absent:
 * Trystero's public brokers. Resolves to ``{cutOff, oncutoff, close()}`` once a broker is
 * reachable (``oncutoff()``: a peer was cut off for flooding).
 */
export async function hostRoom(code, { table, identity }, options, onChannel) {
  const { room, cutOff, countCut, secrets, links, host, prove, proof, text } = await enter(code, options, { sends: ["host", "proof"], reads: ["prove"] });
  const channels = new Map();
  const proofs = new Map(); // peer -> challenges signed for it
  const overBrokers = new HostPath(links(), secrets, {
    table, identity, onChannel: (sid, channel) => onChannel(`broker-${sid}`, channel),
  });
  overBrokers.oncutoff = countCut;
  room.onPeerJoin = (peer) => {
    host.send({ table, key: identity.publicKey }, { target: peer }).catch(warn("relay announce"));
    const channel = channelTo(text, peer, () => {
      if (channels.get(peer) === channel) channels.delete(peer);
    });
    channels.set(peer, channel);
    onChannel(peer, channel);
    iceRoute(room.getPeers()[peer]).then((path) => channel.setPath(path));
  };
  room.onPeerLeave = (peer) => {
    proofs.delete(peer);
    channels.get(peer)?.lost();
  };
  prove.onMessage = async (data, { peerId }) => {
    const signed = proofs.get(peerId) ?? 0;
    if (!channels.has(peerId) || signed >= MAX_PROOFS_PER_PEER || !NONCE.test(data?.nonce ?? "")) return;
    proofs.set(peerId, signed + 1);
    try {
      const sig = await signProof(identity, table, data.nonce, room.getPeers()[peerId]);
      await proof.send({ nonce: data.nonce, sig }, { target: peerId });
    } catch (error) {
      console.warn("relay proof", error);
    }
  };
  text.onMessage = (data, { peerId }) => channels.get(peerId)?.deliver(data);
  return {
    /** How many peers were cut off for flooding (guard.js). */
    get cutOff() {
      return cutOff.count;
    },
    set oncutoff(handler) {
      cutOff.onchange = handler;
    },
    close() {
      for (const channel of [...channels.values()]) channel.close();
      overBrokers.close();
      leave(room);
    },
  };
}

/**
 * Joins the room of ``code`` as a guest of ``table`` (the id derived from the code), trusting
 * only a host that proves the key whose fingerprint is ``pin`` (or, with no pin, a key that
 * ``code`` names: ``onpin(fingerprint)`` tells the caller, to pin it from then on).
 * Resolves (once a broker is reachable) to ``{channel, onreconnect, onpin, impostors, cutOff, close()}``:
 * ``channel`` resolves when a host has proved itself, or rejects after ``waitMs`` with the
 * reason; later proved hosts (after the host's reload) come through ``onreconnect(channel)``.
 * With no direct channel for ``directWaitMs``, the host is looked for through the brokers.
 */
export async function joinRoom(code, { table, pin = null, waitMs = JOIN_WAIT_MS, directWaitMs = DIRECT_WAIT_MS }, options) {
  const started = Date.now();
  const { room, cutOff, countCut, secrets, links, host, prove, proof, text } = await enter(code, options, { sends: ["prove"], reads: ["host", "proof"], waitMs });
  let pinned = pin;
  let current = null; // {peer, channel, ended}: the accepted host (peer null: through the brokers)
  let overBrokers = null; // the broker path, while no direct channel is up
  let directTimer = null;
  let settle = null; // {resolve, reject} until the first host is accepted or the wait ends
  let impostors = 0; // announcers that could not prove the pinned key
  const asked = new Map(); // peer -> {nonce, key, fingerprint, code}: challenged, not answered yet
  const refused = new Set(); // peers that failed once: never asked again
  // Peers that proved the key and are still in the room, newest last. A reloaded host's
  // announcement can arrive before the room notices that its old page has gone; it waits
  // here and is taken up the moment the old one leaves.
  const proved = new Set();
  const trusted = (key) => (pinned ? key.fingerprint === pinned : key.code === code);
  const result = {
    channel: new Promise((resolve, reject) => { settle = { resolve, reject }; }),
    onreconnect: null,
    onpin: null,
    /** How many announcers failed to prove the host's key (for the tests and the reason). */
    get impostors() {
      return impostors;
    },
    /** How many peers were cut off for flooding (guard.js). */
    get cutOff() {
      return cutOff.count;
    },
    close() {
      clearTimeout(timer);
      clearTimeout(directTimer);
      current?.channel.close();
      overBrokers?.close();
      leave(room);
    },
  };
  const timer = setTimeout(() => {
    if (!settle) return;
    const error = navigator.onLine === false ? offline()
      : impostors ? netError("net.host_unproved", "Someone answered this code but could not prove to be the table's host.")
        : netError("net.room_unknown", "No table answered this room code.");
    settle.reject(error);
    settle = null;
    result.close();
  }, Math.max(0, waitMs - (Date.now() - started)));
  const handOver = (peer, channel, ended = null) => {
    const previous = current;
    current = { peer, channel, ended };
    previous?.channel.close();
    if (settle) {
      clearTimeout(timer);
      settle.resolve(channel);
      settle = null;
    } else result.onreconnect?.(channel);
  };
  const forget = (channel) => () => {
    if (current?.channel !== channel) return;
    current = null;
    waitForDirect();
  };
  const accept = (peerId) => {
    clearTimeout(directTimer);
    // From the brokers to a direct channel, a text of ours (a rejoin) may still be on its
    // way through the brokers: it would reach the host after this channel's and take the
    // seat back from it. This channel's texts wait until the host has taken our goodbye
    // there (and so everything before it).
    const channel = channelTo(text, peerId, () => forget(channel)(), current?.ended);
    handOver(peerId, channel);
    overBrokers?.close(); // a broker path still looking for the host
    overBrokers = null;
    iceRoute(room.getPeers()[peerId]).then((path) => channel.setPath(path));
  };
  const pinKey = (fingerprint) => {
    if (pinned) return;
    pinned = fingerprint;
    result.onpin?.(pinned);
  };
  // No direct channel for DIRECT_WAIT_MS: the host is looked for through the brokers.
  const waitForDirect = () => {
    clearTimeout(directTimer);
    directTimer = setTimeout(() => {
      if (current || overBrokers) return;
      const path = new GuestPath(links(), secrets, {
        table,
        trusted,
        onproved: (channel, key) => {
          pinKey(key.fingerprint);
          if (!current || current.peer === null) handOver(null, channel, path.ended(channel)); // first, or the host back
          else channel.close();
        },
        onrefused: () => { impostors += 1; },
      });
      path.oncutoff = countCut;
      path.onended = (channel) => {
        forget(channel)();
        if (path.sessions.size) return;
        if (overBrokers === path) overBrokers = null;
        path.ended(channel).then(() => path.close()); // once the host took our goodbye
      };
      overBrokers = path;
    }, directWaitMs);
  };
  waitForDirect();
  const refuse = (peerId) => {
    impostors += 1;
    refused.add(peerId);
  };
  host.onMessage = async (data, { peerId }) => {
    if (data?.table !== table || asked.has(peerId) || proved.has(peerId) || refused.has(peerId)) return;
    asked.set(peerId, null); // one announcement per peer is looked at
    const key = await announcedKey(data.key);
    if (!key || !trusted(key)) {
      asked.delete(peerId);
      refuse(peerId);
      return;
    }
    const nonce = newChallenge();
    asked.set(peerId, { nonce, key: data.key, fingerprint: key.fingerprint, code: key.code });
    prove.send({ nonce }, { target: peerId }).catch(warn("relay challenge"));
  };
  proof.onMessage = async (data, { peerId }) => {
    const challenge = asked.get(peerId);
    if (!challenge || data?.nonce !== challenge.nonce) return;
    asked.delete(peerId);
    const good = await checkProof(challenge.key, table, challenge.nonce, data.sig, room.getPeers()[peerId]);
    if (!good || !trusted(challenge)) {
      refuse(peerId);
      return;
    }
    pinKey(challenge.fingerprint);
    proved.add(peerId);
    if (!current || current.peer === null) accept(peerId);
  };
  text.onMessage = (data, { peerId }) => {
    if (current?.peer === peerId) current.channel.deliver(data);
  };
  room.onPeerLeave = (peer) => {
    asked.delete(peer);
    proved.delete(peer);
    if (current?.peer === peer) current.channel.lost();
    const newest = [...proved].pop();
    if ((!current || current.peer === null) && newest) accept(newest);
  };
  return result;
}
