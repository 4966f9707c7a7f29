// The host's identity: a key pair per shared table, and the proof a guest asks for.
//
// Anyone who knows a room code can enter its room and say "I am the host". So a host owns an
// ECDSA P-256 key pair (Web Crypto), made when the table is created and kept in this
// browser's IndexedDB beside the table's save; the private key is a non-extractable
// CryptoKey: script can sign with it but never read it. Room links and invite links carry
// the SHA-256 fingerprint of the public key, and the room code itself names the key (its
// first 60 bits of a labelled hash, roomkey.js codeOfKey): a guest who typed the code trusts
// only a key the code names, then pins that key's whole fingerprint. Tables made before codes
// named keys (random codes) still reopen: their room links and the guests who pinned their
// key go on as before, but their typed code finds no host it trusts. Before a guest sends anything (its seat token
// first of all) the host must sign the guest's fresh challenge together with the DTLS
// fingerprints of the very WebRTC connection they share: a peer that forwards the challenge
// to the real host gets a signature naming another connection, which the guest refuses. On
// the broker path (brokerpath.js) the ends are that path's session ids and key shares.

import { base64url, codeOfKey, roomSecrets } from "./roomkey.js";

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256" };
const SIGNING = { name: "ECDSA", hash: "SHA-256" };
const DB_NAME = "taberna-keys";
const STORE = "hosts";
const encoder = new TextEncoder();

function fromBase64url(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}

function openStore() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore(mode, work) {
  const db = await openStore();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

/** The SHA-256 fingerprint of a public key (SPKI bytes), base64url: 43 characters. */
export async function fingerprintOf(spki) {
  return base64url(await crypto.subtle.digest("SHA-256", spki));
}

async function identityFrom(record) {
  return {
    privateKey: record.privateKey,
    publicKey: base64url(record.spki),
    fingerprint: await fingerprintOf(record.spki),
  };
}

// Key pairs made in this page, by table: they last as long as the page when IndexedDB
// cannot keep them.
const madeHere = new Map();

async function keep(table, record) {
  madeHere.set(table, record);
  try {
    await withStore("readwrite", (store) => store.put(record, table));
  } catch (error) {
    console.warn("host key store", error);
  }
}

async function newRecord() {
  const pair = await crypto.subtle.generateKey(ALGORITHM, false, ["sign", "verify"]);
  return { privateKey: pair.privateKey, spki: await crypto.subtle.exportKey("spki", pair.publicKey) };
}

/** A new shared table's ``{code, table}``: a new key pair, the room code it names, and the
 * table id derived from that code, under which the pair is kept. */
export async function newRoom() {
  const record = await newRecord();
  const code = await codeOfKey(record.spki);
  const { table } = await roomSecrets(code);
  await keep(table, record);
  return { code, table };
}

/** ``{privateKey, publicKey (SPKI, base64url), fingerprint}`` of the host of ``table``: the
 * kept pair, or a new one (a table hosted by invite links only, or whose key was lost:
 * guests who pinned the old key, or typed the code, will refuse it). */
export async function hostIdentity(table) {
  try {
    const stored = await withStore("readonly", (store) => store.get(table));
    if (stored?.privateKey && stored.spki) return identityFrom(stored);
  } catch (error) {
    console.warn("host key store", error);
  }
  if (!madeHere.has(table)) await keep(table, await newRecord());
  return identityFrom(madeHere.get(table));
}

/** Forgets the key of a table that is over. */
export async function forgetIdentity(table) {
  madeHere.delete(table);
  try {
    await withStore("readwrite", (store) => store.delete(table));
  } catch { /* nothing stored */ }
}

/** The DTLS certificate fingerprint an SDP names (``sha-256 AB:CD:…``), or null. */
export function sdpFingerprint(description) {
  const match = /^a=fingerprint:(\S+) ([0-9A-Fa-f:]+)\s*$/m.exec(description?.sdp || "");
  return match ? `${match[1].toLowerCase()} ${match[2].toUpperCase()}` : null;
}

/** What the host signs: the table, the guest's challenge, and both ends of the connection. */
function proofText(table, nonce, hostEnd, guestEnd) {
  return encoder.encode(`taberna host proof v1\n${table}\n${nonce}\n${hostEnd}\n${guestEnd}`);
}

/** A fresh challenge (256 random bits, base64url). */
export function newChallenge() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The host's answer to ``nonce`` on ``connection`` (its RTCPeerConnection to the guest). */
export async function signProof(identity, table, nonce, connection) {
  const mine = sdpFingerprint(connection?.localDescription);
  const theirs = sdpFingerprint(connection?.remoteDescription);
  if (!mine || !theirs) throw new Error("The connection has no DTLS fingerprints yet.");
  return signBinding(identity, table, nonce, mine, theirs);
}

/** The host's answer to ``nonce`` on a path whose two ends are named ``hostEnd`` and
 * ``guestEnd`` (the DTLS fingerprints of a WebRTC connection, or the broker path's session
 * ids and key shares: brokerpath.js). */
export async function signBinding(identity, table, nonce, hostEnd, guestEnd) {
  const signature = await crypto.subtle.sign(SIGNING, identity.privateKey, proofText(table, nonce, hostEnd, guestEnd));
  return base64url(signature);
}

/** Whether ``signature`` proves that the holder of ``publicKey`` (SPKI, base64url) answered
 * ``nonce`` on this guest's ``connection`` to it. Anything malformed is simply false. */
export async function checkProof(publicKey, table, nonce, signature, connection) {
  const hostDtls = sdpFingerprint(connection?.remoteDescription);
  const guestDtls = sdpFingerprint(connection?.localDescription);
  return Boolean(hostDtls && guestDtls) && checkBinding(publicKey, table, nonce, signature, hostDtls, guestDtls);
}

/** Whether ``signature`` is the holder of ``publicKey``'s answer to ``nonce`` on the path
 * whose ends are ``hostEnd`` and ``guestEnd`` (signBinding). Anything malformed is false. */
export async function checkBinding(publicKey, table, nonce, signature, hostEnd, guestEnd) {
  try {
    if (typeof signature !== "string") return false;
    const key = await crypto.subtle.importKey("spki", fromBase64url(publicKey), ALGORITHM, false, ["verify"]);
    return await crypto.subtle.verify(SIGNING, key, fromBase64url(signature), proofText(table, nonce, hostEnd, guestEnd));
  } catch {
    return false;
  }
}

/** ``{fingerprint, code}`` of a public key announced as base64url SPKI (``code``: the room
 * code it names), or null if it is not one. */
export async function announcedKey(publicKey) {
  if (typeof publicKey !== "string" || !/^[A-Za-z0-9_-]{40,200}$/.test(publicKey)) return null;
  try {
    const spki = fromBase64url(publicKey);
    await crypto.subtle.importKey("spki", spki, ALGORITHM, false, ["verify"]);
    return { fingerprint: await fingerprintOf(spki), code: await codeOfKey(spki) };
  } catch {
    return null;
  }
}
