import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Signed notes as C2SP signed-note defines them (golang.org/x/mod/sumdb/note's format): a text ending in a
 * newline, a blank line, then lines `— <key name> base64(key ID ‖ signature)`. Keys are Ed25519 (signature
 * type 0x01); a key's ID is the first four bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key).
 */

const ED25519 = 0x01;
const EM_DASH = '\u2014';
/** Far above a checkpoint's few hundred bytes; a verifier must bound what it reads. */
const MAX_NOTE_BYTES = 64 * 1024;
const MAX_SIGNATURES = 100;
// DER prefixes that wrap a raw Ed25519 seed or public key as PKCS #8 or SPKI, which node:crypto imports.
const PKCS8_SEED_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface NoteSigner {
  readonly name: string;
  readonly keyId: number;
  /** The verifier key to publish: `<name>+<key ID in hex>+base64(0x01 ‖ public key)`. */
  readonly verifierKey: string;
  sign(text: string): Buffer;
}

export interface NoteVerifier {
  readonly name: string;
  readonly keyId: number;
  verify(text: string, signature: Buffer): boolean;
}

/** A key name: non-empty, with no space and no plus sign (the separators of the key encodings). */
export function isKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name) && !hasControlCharacter(name);
}

function keyId(name: string, publicKey: Buffer): number {
  return createHash('sha256')
    .update(`${name}\n`)
    .update(Buffer.from([ED25519]))
    .update(publicKey)
    .digest()
    .readUInt32BE(0);
}

const hex8 = (id: number): string => id.toString(16).padStart(8, '0');

/** The signer key encoding of Go's note package: `PRIVATE+KEY+<name>+<key ID>+base64(0x01 ‖ seed)`. */
export function signerKeyFromSeed(name: string, seed: Buffer): string {
  if (!isKeyName(name)) throw new Error(`"${name}" cannot name a note key: no spaces, no plus signs`);
  const publicKey = publicKeyOf(privateKeyOf(seed));
  const key = Buffer.concat([Buffer.from([ED25519]), seed]).toString('base64');
  return `PRIVATE+KEY+${name}+${hex8(keyId(name, publicKey))}+${key}`;
}

export function parseSignerKey(encoded: string): NoteSigner {
  const parts = splitKey(encoded.trim(), 5);
  if (!parts || parts[0] !== 'PRIVATE' || parts[1] !== 'KEY')
    throw new Error('not a note signer key (PRIVATE+KEY+name+id+key)');
  const [, , name, id, key] = parts;
  const bytes = strictBase64(key);
  if (!isKeyName(name) || bytes === null || bytes.length !== 33 || bytes[0] !== ED25519)
    throw new Error('not an Ed25519 note signer key');
  const privateKey = privateKeyOf(bytes.subarray(1));
  const publicKey = publicKeyOf(privateKey);
  const computed = keyId(name, publicKey);
  if (hex8(computed) !== id) throw new Error('the signer key ID does not match its key');
  return {
    name,
    keyId: computed,
    verifierKey: `${name}+${id}+${Buffer.concat([Buffer.from([ED25519]), publicKey]).toString('base64')}`,
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), privateKey),
  };
}

export function parseVerifierKey(encoded: string): NoteVerifier {
  const parts = splitKey(encoded.trim(), 3);
  if (!parts) throw new Error('not a note verifier key (name+id+key)');
  const [name, id, key] = parts;
  const bytes = strictBase64(key);
  if (!isKeyName(name) || !/^[0-9a-f]{8}$/.test(id) || bytes === null || bytes.length !== 33 || bytes[0] !== ED25519)
    throw new Error('not an Ed25519 note verifier key');
  const raw = bytes.subarray(1);
  if (hex8(keyId(name, raw)) !== id) throw new Error('the verifier key ID does not match its key');
  const publicKey = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  return {
    name,
    keyId: Number.parseInt(id, 16),
    verify: (text, signature) => verify(null, Buffer.from(text, 'utf8'), publicKey, signature),
  };
}

/** A key's `+`-separated fields; the last one, base64, may hold `+` itself. */
function splitKey(encoded: string, fields: number): string[] | null {
  const parts = encoded.split('+');
  if (parts.length < fields) return null;
  return [...parts.slice(0, fields - 1), parts.slice(fields - 1).join('+')];
}

/** The note: the text (which must end in a newline), a blank line, and the signer's signature line. */
export function signNote(text: string, signer: NoteSigner): string {
  const problem = textProblem(text);
  if (problem) throw new Error(`cannot sign: ${problem}`);
  const id = Buffer.alloc(4);
  id.writeUInt32BE(signer.keyId);
  return `${text}\n${EM_DASH} ${signer.name} ${Buffer.concat([id, signer.sign(text)]).toString('base64')}\n`;
}

export type OpenedNote = { verified: true; text: string } | { verified: false; reason: string };

/**
 * The note's text, if the verifier's key signed it. Signatures of other keys are ignored (witnesses may
 * cosign); one of this key that fails rejects the note whole, as the specification asks.
 */
export function openNote(note: string, verifier: NoteVerifier): OpenedNote {
  if (Buffer.byteLength(note, 'utf8') > MAX_NOTE_BYTES) return { verified: false, reason: 'the note is too long' };
  if (note.includes('\uFFFD')) return { verified: false, reason: 'the note is not valid UTF-8' };
  if (!note.endsWith('\n')) return { verified: false, reason: 'the note does not end with a newline' };
  const split = note.lastIndexOf('\n\n');
  if (split === -1) return { verified: false, reason: 'the note has no signature block' };
  const text = note.slice(0, split + 1);
  const problem = textProblem(text);
  if (problem) return { verified: false, reason: problem };
  const lines = note.slice(split + 2, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) return { verified: false, reason: 'the note has too many signatures' };
  let verified = false;
  /** A key ID the note is signed with under the verifier's name, when not the verifier's. */
  let otherKeyId: number | undefined;
  for (const line of lines) {
    const match = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/u.exec(line);
    const bytes = match && strictBase64(match[2]);
    if (!match || !bytes || bytes.length < 5) return { verified: false, reason: `malformed signature line "${line}"` };
    if (match[1] !== verifier.name) continue;
    if (bytes.readUInt32BE(0) !== verifier.keyId) {
      otherKeyId = bytes.readUInt32BE(0);
      continue;
    }
    if (!verifier.verify(text, bytes.subarray(4)))
      return { verified: false, reason: `the signature of ${verifier.name} does not verify` };
    verified = true;
  }
  if (verified) return { verified, text };
  const hex = (id: number) => id.toString(16).padStart(8, '0');
  return {
    verified,
    reason:
      otherKeyId === undefined
        ? `the note carries no signature of ${verifier.name}`
        : `the note is signed by another key named ${verifier.name} (key ID ${hex(otherKeyId)}, not the given ` +
          `key's ${hex(verifier.keyId)}): check you were given the log's key`,
  };
}

/** Base64 with its padding, as the standard (RFC 4648 section 4) writes it; null for anything else. */
export function strictBase64(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

function textProblem(text: string): string | null {
  if (text.length === 0 || !text.endsWith('\n')) return 'the note text must end with a newline';
  if (hasControlCharacter(text.replaceAll('\n', ''))) return 'the note text holds a control character';
  return null;
}

// eslint-disable-next-line no-control-regex -- the control characters are what is looked for.
const hasControlCharacter = (text: string): boolean => /[\u0000-\u001f]/.test(text);

function privateKeyOf(seed: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_SEED_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

function publicKeyOf(privateKey: KeyObject): Buffer {
  return createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
}
