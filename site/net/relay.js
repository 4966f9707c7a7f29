// Matchmaking by room code over public MQTT brokers (Trystero's MQTT strategy), then WebRTC.
//
// The brokers only carry the WebRTC handshake between the peers of a room (appId "taberna",
// room id = the room code); the game's texts then go peer to peer. Trystero is bundled by
// the build (net/relay-bundle.js) and imported here on first use, so the lobby never
// downloads it nor contacts a broker.
//
// A Trystero room is a full mesh: everyone who knows the code connects to everyone. The host
// turns it into a star: it announces itself ("host" action carrying the table id) to each
// peer that joins and treats each peer as its own channel. A guest sends protocol texts only
// to the peer that announced itself as host of its table and ignores everyone else. When
// that peer leaves (the host's tab reloads or dies) the guest's channel closes, the room
// stays open, and the next announcement (the host back with the same room code) hands a
// new channel to ``room.onreconnect(channel)``.
//
// Threat model: the room code is the only secret. Anyone who has it can join as a spectator
// or claim an open seat (the host's protocol decides what they get), and learns the network
// addresses of the room's peers, as WebRTC requires. A guest's seat token goes only to the
// peer it accepted as host; a guest accepts a new host only once the previous one has left
// (the newest peer that announced itself meanwhile), so a peer that knows the code could pose
// as host while the real host is away (or before the guest hears it). The invite link (rtc.js) is the stronger path: its code pins the
// host's DTLS fingerprint. Brokers see the room's topic (derived from the code) and the
// WebRTC handshakes, not the game's texts.

import { Channel, netError } from "./channel.js";

const APP_ID = "taberna";
const RELAY_WAIT_MS = 10_000;
const RELAY_POLL_MS = 200;

let bundle = null;
const library = () => (bundle ??= import("./relay-bundle.js"));

/** Resolves once a broker's WebSocket is open; rejects after ``RELAY_WAIT_MS``. */
function reachable(lib) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      const sockets = Object.values(lib.getRelaySockets());
      if (sockets.some((socket) => socket.readyState === WebSocket.OPEN)) resolve();
      else if (Date.now() - started > RELAY_WAIT_MS) {
        reject(netError("net.relay_unreachable", "No relay server could be reached."));
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

/** Joins the room and registers the two actions before any peer can talk. */
async function enter(roomCode, { relayUrls, iceServers } = {}) {
  const lib = await library();
  const room = lib.joinRoom(
    { appId: APP_ID, relayConfig: { urls: brokers(lib, relayUrls) }, rtcConfig: { iceServers: iceServers ?? [] } },
    roomCode,
  );
  const host = room.makeAction("host");
  const text = room.makeAction("text");
  try {
    await reachable(lib);
  } catch (error) {
    room.leave();
    throw error;
  }
  return { room, host, text };
}

function channelTo(text, peer, shutdown) {
  return new Channel(
    (message) => text.send(message, { target: peer }).catch((error) => console.warn("relay send", error)),
    shutdown,
  );
}

/**
 * Hosts the room ``roomCode``: ``onChannel(peerId, channel)`` for every peer that joins.
 * ``relayUrls`` empty or absent: Trystero's public brokers.
 * Resolves to ``{close()}`` once a broker is reachable.
 */
export async function hostRoom(roomCode, options, onChannel) {
  const { room, host, text } = await enter(roomCode, options);
  const channels = new Map();
  room.onPeerJoin = (peer) => {
    host.send(roomCode, { target: peer }).catch((error) => console.warn("relay announce", error));
    const channel = channelTo(text, peer, () => {
      if (channels.get(peer) === channel) channels.delete(peer);
    });
    channels.set(peer, channel);
    onChannel(peer, channel);
  };
  room.onPeerLeave = (peer) => channels.get(peer)?.lost();
  text.onMessage = (data, { peerId }) => channels.get(peerId)?.deliver(data);
  return {
    close() {
      for (const channel of [...channels.values()]) channel.close();
      room.leave();
    },
  };
}

/**
 * Joins the room ``roomCode`` as a guest. Resolves (once a broker is reachable) to
 * ``{channel, onreconnect, close()}``: ``channel`` resolves when the host announces itself;
 * later hosts (after the host's reload) come through ``onreconnect(channel)``, set by the
 * caller.
 */
export async function joinRoom(roomCode, options) {
  const { room, host, text } = await enter(roomCode, options);
  let current = null; // {peer, channel}: the accepted host
  let first;
  // Peers that announced themselves as host and are still in the room, newest last. A
  // reloaded host's announcement can arrive before the room notices that its old page has
  // gone; it waits here and is taken up the moment the old one leaves.
  const announced = new Set();
  const result = {
    channel: new Promise((resolve) => { first = resolve; }),
    onreconnect: null,
    close() {
      current?.channel.close();
      room.leave();
    },
  };
  const accept = (peerId) => {
    const channel = channelTo(text, peerId, () => {
      if (current?.channel === channel) current = null;
    });
    current = { peer: peerId, channel };
    if (first) {
      first(channel);
      first = null;
    } else result.onreconnect?.(channel);
  };
  host.onMessage = (table, { peerId }) => {
    if (table !== roomCode) return;
    announced.delete(peerId);
    announced.add(peerId);
    if (!current) accept(peerId);
  };
  text.onMessage = (data, { peerId }) => {
    if (current?.peer === peerId) current.channel.deliver(data);
  };
  room.onPeerLeave = (peer) => {
    announced.delete(peer);
    if (current?.peer === peer) current.channel.lost();
    const newest = [...announced].pop();
    if (!current && newest) accept(newest);
  };
  return result;
}
