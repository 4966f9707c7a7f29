// What relay.js needs from Trystero's MQTT strategy. build.py bundles this file with esbuild
// into net/relay-bundle.js (one self-contained module, no CDN), which relay.js imports only
// when a player opens a room, so the lobby neither downloads it nor contacts a relay.
//
// The strategy is @trystero-p2p/mqtt 0.25.4's own (MIT, Dan Motzenbecker), made here from the
// same core parts for two changes: mqtt.js retries a lost broker every second for ever (≈ 600
// failed WebSockets in ten minutes for each broker that is down), so its retries back off
// (RETRY_MS); and the broker path (brokerpath.js) publishes on the very same connections, so
// the clients are kept by URL (brokerClients). Every broker given is used at once (Trystero's
// relay redundancy: the settings' list whole, else DEFAULT_REDUNDANCY public ones).
import { createRelayManager, createTopicStrategy, getRelays, toJson } from "@trystero-p2p/core";
import mqtt from "mqtt";

const DEFAULT_REDUNDANCY = 4;
const RETRY_MS = [1000, 2000, 4000, 8000, 15_000, 30_000, 60_000];

export const defaultRelayUrls = [
  "test.mosquitto.org:8081/mqtt",
  "broker.emqx.io:8084/mqtt",
  "public:public@public.cloud.shiftr.io",
  "broker-cn.emqx.io:8084/mqtt",
  "broker.hivemq.com:8884/mqtt",
].map((url) => `wss://${url}`);

const relayManager = createRelayManager((client) => client.stream?.socket);
const msgHandlers = relayManager.scoped();
const subscriptionRefs = relayManager.scoped();
const announcementMessages = relayManager.scoped();
const clients = new Map(); // broker URL -> its mqtt.js client
const hooked = new WeakSet(); // the clients whose messages reach the strategy's handlers

/** An mqtt.js client whose retries back off while its broker stays out of reach. */
function backingOff(url) {
  const client = mqtt.connect(url, { queueQoSZero: false, resubscribe: false, reconnectPeriod: RETRY_MS[0] });
  let failures = 0;
  client.on("reconnect", () => {
    failures += 1;
    client.options.reconnectPeriod = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
  });
  client.on("connect", () => {
    failures = 0;
    client.options.reconnectPeriod = RETRY_MS[0];
  });
  clients.set(url, client);
  return client;
}

export const joinRoom = createTopicStrategy({
  init: (config) => getRelays(config, defaultRelayUrls, DEFAULT_REDUNDANCY).map((url) => {
    const client = relayManager.register(url, () => backingOff(url));
    const handlers = msgHandlers.forRelay(client);
    if (!hooked.has(client)) {
      hooked.add(client);
      client.on("message", (topic, buffer) => handlers[topic]?.(topic, buffer.toString()));
      client.on("connect", () => {
        const topics = Object.keys(subscriptionRefs.forRelay(client));
        if (!topics.length) return;
        client.subscribeAsync(topics).then(() => {
          for (const [topic, message] of Object.entries(announcementMessages.forRelay(client))) client.publish(topic, message);
        }).catch(console.error);
      });
      client.on("error", console.error);
    }
    return client.connected ? Promise.resolve(client) : new Promise((resolve) => client.once("connect", () => resolve(client)));
  }),
  subscribeTopic: async (client, topic, onMessage) => {
    const handlers = msgHandlers.forRelay(client);
    const refs = subscriptionRefs.forRelay(client);
    const handler = (arrived, data) => onMessage(arrived, data);
    handlers[topic] = handler;
    refs[topic] = (refs[topic] ?? 0) + 1;
    if (refs[topic] === 1) await client.subscribeAsync(topic);
    return () => {
      refs[topic] = Math.max(0, (refs[topic] ?? 1) - 1);
      if (refs[topic] === 0) {
        client.unsubscribe(topic);
        delete refs[topic];
        delete announcementMessages.forRelay(client)[topic];
      }
      if (handlers[topic] === handler) delete handlers[topic];
    };
  },
  publishTopic: (client, topic, message, { kind }) => {
    const payload = typeof message === "string" ? message : toJson(message);
    if (kind === "announce") announcementMessages.forRelay(client)[topic] = payload;
    if (client.connected) client.publish(topic, payload);
  },
});

export const getRelaySockets = relayManager.getSockets;

/** The clients made for the brokers ``urls`` (those made so far). */
export function brokerClients(urls) {
  return urls.map((url) => clients.get(url)).filter(Boolean);
}
