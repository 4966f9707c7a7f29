// The card group's libsodium for the engine worker (pyengine/shell/cardgroup.py wraps it as
// core.group's Group, with the scalar arithmetic done in Python): npm's
// libsodium-wrappers-sumo (ristretto255; the library rbcl bundles under CPython), imported by
// engine.mjs only when a fair card table first asks. The checks libsodium leaves to us (32
// bytes, the top bit clear, not the identity) are core.group.well_formed's, in Python.
//
// Python's bytes arrive as PyProxies of buffers. A batch carries a whole deck in one call:
// the 32-byte values end to end in one buffer, the answer likewise.

import sodium from "./sodium/libsodium-wrappers.mjs";

await sodium.ready;

const SIZE = 32;

// One copy out of Pyodide's memory (the proxy is Pyodide's to release after the call).
function bytesOf(buffer) {
  const view = buffer.getBuffer("u8");
  try {
    return view.data.slice();
  } finally {
    view.release();
  }
}

export const fromHash = (digest) => sodium.crypto_core_ristretto255_from_hash(bytesOf(digest));

// Whether libsodium decodes every point of the buffer (32 bytes each, end to end): a deck in one call.
export function allValidPoints(points) {
  const data = bytesOf(points);
  for (let at = 0; at < data.length; at += SIZE) {
    if (!sodium.crypto_core_ristretto255_is_valid_point(data.subarray(at, at + SIZE))) return false;
  }
  return true;
}

// s·P for every point, with the scalar of the same index (or the one scalar for all);
// undefined (Python's None) when a point is not of the group. The multiplication decodes its
// point as is_valid_point does, so only a refusal asks which it was: a bad point, or a zero
// scalar (outside the contract, thrown on as libsodium throws).
export function multiply(scalars, points) {
  [scalars, points] = [bytesOf(scalars), bytesOf(points)];
  const out = new Uint8Array(points.length);
  for (let at = 0; at < points.length; at += SIZE) {
    const point = points.subarray(at, at + SIZE);
    const scalar = scalars.length === SIZE ? scalars : scalars.subarray(at, at + SIZE);
    try {
      out.set(sodium.crypto_scalarmult_ristretto255(scalar, point), at);
    } catch (error) {
      if (!sodium.crypto_core_ristretto255_is_valid_point(point)) return undefined;
      throw error;
    }
  }
  return out;
}
