import { createHash } from 'node:crypto';

/**
 * The hashes of the log's Merkle tree, as RFC 9162 section 2.1 (and RFC 6962 before it) defines them:
 * SHA-256 with a one-byte prefix that keeps a leaf from ever passing for an interior node.
 */
export type Hash = Buffer;

export const HASH_SIZE = 32;

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

/** MTH of the empty tree: SHA-256 of no bytes. */
export const EMPTY_ROOT: Hash = createHash('sha256').digest();

/** SHA-256(0x00 ‖ data): the hash of one leaf. */
export function leafHash(data: Uint8Array): Hash {
  return createHash('sha256').update(LEAF_PREFIX).update(data).digest();
}

/** SHA-256(0x01 ‖ left ‖ right): the hash of an interior node. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Hash {
  return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
}

/** A stored event's leaf: its own hash (the 32 bytes its 64 hex digits spell) hashed as a leaf. */
export function eventLeafHash(eventHashHex: string): Hash {
  return leafHash(Buffer.from(eventHashHex, 'hex'));
}
