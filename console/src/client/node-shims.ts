/**
 * What the console's bundle gets for every `node:` module that @finsynth/client imports. The client needs one of
 * them in the browser, a random UUID for each POST's Idempotency-Key; the others serve Node-only features
 * (downloads to a file, webhook verification), which the console does not call.
 */

/** An RFC 9562 version 4 UUID; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function randomUUID(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const nodeOnly = (name: string) => (): never => {
  throw new Error(`${name} exists in Node only: in the browser, the console downloads through fetch`);
};

export const createHash = nodeOnly('createHash');
export const createHmac = nodeOnly('createHmac');
export const randomBytes = nodeOnly('randomBytes');
export const timingSafeEqual = nodeOnly('timingSafeEqual');
export const once = nodeOnly('events.once');
export const open = nodeOnly('fs.open');
export const rename = nodeOnly('fs.rename');
export const rm = nodeOnly('fs.rm');
export const basename = nodeOnly('path.basename');
export const dirname = nodeOnly('path.dirname');
export const join = nodeOnly('path.join');
