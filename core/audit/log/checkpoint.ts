import { HASH_SIZE, type Hash } from './hashes.js';
import { openNote, signNote, strictBase64, type NoteSigner, type NoteVerifier } from './note.js';

/**
 * Checkpoints as C2SP tlog-checkpoint defines them: a signed note whose text is the log's origin, its tree
 * size in decimal and its root hash in base64, one per line. The key that signs is named after the origin.
 */
export interface Checkpoint {
  origin: string;
  size: number;
  root: Hash;
}

/** A checkpoint with the signed note it was read from or written as. */
export interface SignedCheckpoint extends Checkpoint {
  note: string;
}

export function checkpointText({ origin, size, root }: Checkpoint): string {
  return `${origin}\n${size}\n${root.toString('base64')}\n`;
}

export function signCheckpoint(checkpoint: Checkpoint, signer: NoteSigner): SignedCheckpoint {
  return { ...checkpoint, note: signNote(checkpointText(checkpoint), signer) };
}

export type OpenedCheckpoint = { verified: true; checkpoint: SignedCheckpoint } | { verified: false; reason: string };

/** The checkpoint a note holds, if the verifier's key signed it and its text is a checkpoint of that key's log. */
export function openCheckpoint(note: string, verifier: NoteVerifier): OpenedCheckpoint {
  const opened = openNote(note, verifier);
  if (!opened.verified) return opened;
  const parsed = parseCheckpointText(opened.text);
  if (typeof parsed === 'string') return { verified: false, reason: parsed };
  if (parsed.origin !== verifier.name)
    return { verified: false, reason: `the checkpoint is of the log "${parsed.origin}", not "${verifier.name}"` };
  return { verified: true, checkpoint: { ...parsed, note } };
}

/** The checkpoint of a note's text, or why it is not one. Extension lines are allowed and ignored. */
export function parseCheckpointText(text: string): Checkpoint | string {
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3 || lines.some((line) => line.length === 0))
    return 'a checkpoint is at least three non-empty lines';
  const [origin, size, root] = lines;
  if (!/^(0|[1-9][0-9]{0,15})$/.test(size) || !Number.isSafeInteger(Number(size)))
    return `the tree size "${size}" is not a decimal number`;
  const hash = strictBase64(root);
  if (hash === null || hash.length !== HASH_SIZE) return 'the root hash is not 32 bytes in base64';
  return { origin, size: Number(size), root: hash };
}
