// The connection check of the friends panel: what works from this network, before a player
// invites anyone. Nothing leaves the page but what a table would send anyway: one WebSocket
// to each broker (opened, then closed) and one ICE gathering with the settings' STUN and TURN
// servers (no peer is contacted).
//
// What the candidates say: a TURN ("relay") candidate means the TURN server works, so friends
// connect from any network; a server-reflexive one means a public address was learnt through
// STUN, so a direct path usually opens (not between two carrier-grade NATs, which only the
// TURN server or the brokers get through); host candidates alone mean only devices on the same
// network can connect directly; none at all, no direct path.

const WAIT_MS = 5000;

/** Whether a WebSocket to ``url`` opens within WAIT_MS (brokers speak MQTT over it). */
function brokerAnswers(url) {
  return new Promise((resolve) => {
    let socket;
    try {
      socket = new WebSocket(url, "mqtt");
    } catch {
      resolve(false);
      return;
    }
    const done = (open) => {
      clearTimeout(timer);
      socket.onopen = socket.onerror = null;
      socket.close();
      resolve(open);
    };
    const timer = setTimeout(() => done(false), WAIT_MS);
    socket.onopen = () => done(true);
    socket.onerror = () => done(false);
  });
}

/** The types of the ICE candidates this device gathers with ``iceServers``. */
async function candidateTypes(iceServers) {
  const pc = new RTCPeerConnection({ iceServers });
  const types = new Set();
  try {
    pc.createDataChannel("check");
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, WAIT_MS);
      pc.onicecandidate = (event) => {
        if (event.candidate?.type) types.add(event.candidate.type);
        if (!event.candidate) {
          clearTimeout(timer);
          resolve();
        }
      };
      pc.createOffer().then((offer) => pc.setLocalDescription(offer)).catch(resolve);
    });
  } finally {
    pc.close();
  }
  return types;
}

/**
 * ``{brokers: {reachable, total}, direct}`` for the settings' ``relays`` (broker URLs) and
 * ``iceServers``: ``direct`` is "relay" (through the TURN server), "likely", "local" (same
 * network only) or "unlikely".
 */
export async function checkConnection({ relays, iceServers }) {
  const [answers, types] = await Promise.all([Promise.all(relays.map(brokerAnswers)), candidateTypes(iceServers)]);
  const direct = types.has("relay") ? "relay" : types.has("srflx") ? "likely" : types.has("host") ? "local" : "unlikely";
  return { brokers: { reachable: answers.filter(Boolean).length, total: relays.length }, direct };
}
