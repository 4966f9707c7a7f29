// What relay.js needs from Trystero's MQTT strategy. build.py bundles this file with esbuild
// into net/relay-bundle.js (one self-contained module, no CDN), which relay.js imports only
// when a player opens a room, so the lobby neither downloads it nor contacts a relay.
export { defaultRelayUrls, getRelaySockets, joinRoom } from "@trystero-p2p/mqtt";
