// The network a shared table's session talks through (session.js `page.net`): tabs of this
// browser, WebRTC invites, the relays' rooms, and the host's key. Loaded only when a table is
// shared; the relay library only when a room is used (the lobby never contacts a relay).

export { hostBroadcast, joinBroadcast } from "./bc.js";
export { forgetIdentity, hostIdentity, newRoom } from "./identity.js";
export { canDerive, roomSecrets } from "./roomkey.js";
export { answerInvite, createInvite } from "./rtc.js";

export const relay = () => import("./relay.js");
