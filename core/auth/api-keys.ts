import { createHash, randomBytes } from 'node:crypto';
import type { Mode } from '../events/envelope.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 32 base62 characters: about 190 bits, beyond any guessing. */
const SECRET_LENGTH = 32;
/** Characters of the secret kept in the visible prefix, so that a key can be told apart in a list. */
const VISIBLE_CHARACTERS = 4;

/** Uniform base62 by rejection sampling: taking bytes modulo 62 would favour some characters. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export interface IssuedSecret {
  /** `${keyPrefix}_${mode}_<secret>`: shown to its owner once, never stored. */
  secret: string;
  /** What is stored and looked up: the SHA-256 (hex) of the whole key. */
  sha256: string;
  /** `${keyPrefix}_${mode}_` and the first characters of the secret. */
  prefix: string;
}

export function newKeySecret(keyPrefix: string, mode: Mode): IssuedSecret {
  const secret = `${keyPrefix}_${mode}_${randomBase62(SECRET_LENGTH)}`;
  return {
    secret,
    sha256: hashKey(secret),
    prefix: secret.slice(0, keyPrefix.length + mode.length + 2 + VISIBLE_CHARACTERS),
  };
}

/** A secret of 190 random bits needs no slow hash: SHA-256 cannot be brute-forced back to it. */
export function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

const patterns = new Map<string, RegExp>();

/** The shape of a key, checked before any look-up: `<prefix>_<live|test>_<32 base62>`. Compiled once per prefix. */
export function keyPattern(keyPrefix: string): RegExp {
  let pattern = patterns.get(keyPrefix);
  if (!pattern) {
    const escaped = keyPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    pattern = new RegExp(`^${escaped}_(live|test)_[0-9A-Za-z]{${SECRET_LENGTH}}$`);
    patterns.set(keyPrefix, pattern);
  }
  return pattern;
}

export const newKeyId = (): string => `key_${randomBase62(20)}`;
export const newAccountId = (): string => `acc_${randomBase62(20)}`;
