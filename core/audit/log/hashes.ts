import { hash } from 'node:crypto';

/**
 * The hashes of the log's Merkle tree, as RFC 9162 section 2.1 (and RFC 6962 before it) defines them:
 * SHA-256 with a one-byte prefix that keeps a leaf from ever passing for an interior node.
 */
export type Hash = Buffer;

export const HASH_SIZE = 32;

/** MTH of the empty tree: SHA-256 of no bytes. */
export const EMPTY_ROOT: Hash = hash('sha256', Buffer.alloc(0), 'buffer');

// One-shot hashing of a reused buffer: a Hash object per hash costs more than the hash itself (measured).
const leafInput = Buffer.alloc(1 + HASH_SIZE);
const nodeInput = Buffer.alloc(1 + 2 * HASH_SIZE);
nodeInput[0] = 0x01;

/** SHA-256(0x00 ‖ data): the hash of one leaf. */
export function leafHash(data: Uint8Array): Hash {
  if (data.length !== HASH_SIZE) return hash('sha256', Buffer.concat([Buffer.from([0x00]), data]), 'buffer');
  leafInput.set(data, 1);
  return hash('sha256', leafInput, 'buffer');
}

/** SHA-256(0x01 ‖ left ‖ right): the hash of an interior node. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Hash {
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE)
    return hash('sha256', Buffer.concat([Buffer.from([0x01]), left, right]), 'buffer');
  nodeInput.set(left, 1);
  nodeInput.set(right, 1 + HASH_SIZE);
  return hash('sha256', nodeInput, 'buffer');
}

/** A stored event's leaf: its own hash (the 32 bytes its 64 hex digits spell) hashed as a leaf. */
export function eventLeafHash(eventHashHex: string): Hash {
  // Anything but 64 hex digits writes fewer bytes: hashed as what it decodes to, never with a stale byte.
  if (leafInput.write(eventHashHex, 1, HASH_SIZE, 'hex') !== HASH_SIZE)
    return leafHash(Buffer.from(eventHashHex, 'hex'));
  return hash('sha256', leafInput, 'buffer');
}

/**
 * eventLeafHash of an event hash given as its 32 bytes in latin1, the leaf in latin1 too: a hash's bytes as a
 * string cost a third of what a Buffer does to get from `hash` (measured), and the bundle's checker works in them.
 */
export function leafHashOfBytes(eventHash: string): string {
  leafInput.write(eventHash, 1, HASH_SIZE, 'latin1');
  return hash('sha256', leafInput, 'binary');
}
