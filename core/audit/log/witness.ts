import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openCheckpoint, type SignedCheckpoint } from './checkpoint.js';
import type { LogClient } from './log-client.js';
import { parseVerifierKey, strictBase64, type NoteVerifier } from './note.js';
import { verifyConsistency } from './verify.js';

/** The witness's folder: the verifier key it trusts, the last checkpoint it verified, and any evidence. */
const KEY_FILE = 'public-key';
const CHECKPOINT_FILE = 'checkpoint';
const EVIDENCE_DIR = 'evidence';

/** What the witness asks of the log: its client (log-client.ts), or a stand-in in tests. */
export type LogSource = Pick<LogClient, 'checkpoint' | 'publicKey' | 'consistencyProof'>;

export interface WitnessOptions {
  client: LogSource;
  stateDir: string;
  /** The verifier key given; without one, the one kept, else the log's own (trusted on first use). */
  publicKey?: string;
}

export interface WitnessResult {
  /** False on a fork, a rewrite, or a checkpoint that does not verify: the log misbehaved, or cannot be trusted. */
  holds: boolean;
  lines: string[];
}

/**
 * `finsynth audit witness`: fetches the log's latest checkpoint, verifies its signature and that it extends
 * (or is) the checkpoint kept from the last run, and keeps it. A checkpoint of the kept size with another
 * root is a fork; one that does not extend the kept one is a rewrite: both notes are kept as evidence, two
 * signed statements that cannot both be true, and the kept checkpoint is not replaced.
 */
export async function witness(options: WitnessOptions): Promise<WitnessResult> {
  const lines: string[] = [];
  const failed = (line: string): WitnessResult => ({ holds: false, lines: [...lines, line] });
  await mkdir(options.stateDir, { recursive: true });
  const keptKey = await readText(join(options.stateDir, KEY_FILE));
  if (options.publicKey && keptKey && options.publicKey.trim() !== keptKey.trim())
    return failed(
      `KEY        the key given is not the key this state was kept with (${keptKey.trim()}): ` +
        'a log that changed its key is another log to its witnesses',
    );
  let key = options.publicKey ?? keptKey;
  if (!key) {
    key = await options.client.publicKey();
    lines.push(`trusting the log's key on first use: ${key} (pass --public-key to pin the key you were given)`);
  }
  let verifier: NoteVerifier;
  try {
    verifier = parseVerifierKey(key);
  } catch (error) {
    return failed(`KEY        ${(error as Error).message}`);
  }
  if (!keptKey) await writeAtomically(join(options.stateDir, KEY_FILE), `${key.trim()}\n`);

  const note = await options.client.checkpoint();
  const opened = openCheckpoint(note, verifier);
  if (!opened.verified) return failed(`SIGNATURE  the log's checkpoint does not verify: ${opened.reason}`);
  const latest = opened.checkpoint;
  const keptNote = await readText(join(options.stateDir, CHECKPOINT_FILE));
  if (keptNote === null) {
    await writeAtomically(join(options.stateDir, CHECKPOINT_FILE), note);
    return { holds: true, lines: [...lines, `kept the first checkpoint: ${describe(latest)}`] };
  }
  const keptOpened = openCheckpoint(keptNote, verifier);
  if (!keptOpened.verified)
    return failed(`STATE      the kept checkpoint no longer verifies with the kept key: ${keptOpened.reason}`);
  const kept = keptOpened.checkpoint;

  if (latest.size === kept.size) {
    if (latest.root.equals(kept.root)) return { holds: true, lines: [...lines, `no new events: ${describe(latest)}`] };
    const evidence = await keepEvidence(options.stateDir, kept, latest);
    return failed(
      `FORK       the log signed two trees of ${kept.size} events with different roots ` +
        `(${kept.root.toString('base64')} kept, ${latest.root.toString('base64')} now): ` +
        `its history was changed; both notes are kept in ${evidence}`,
    );
  }
  const [older, newer] = kept.size < latest.size ? [kept, latest] : [latest, kept];
  const proof = (await options.client.consistencyProof(older.size, newer.size)).map(strictBase64);
  const extends_ =
    proof.every((hash): hash is Buffer => hash !== null) &&
    verifyConsistency(older.size, newer.size, proof, older.root, newer.root);
  if (!extends_) {
    const evidence = await keepEvidence(options.stateDir, kept, latest);
    return failed(
      `REWRITE    the log's tree of ${newer.size} events does not extend its tree of ${older.size} ` +
        `(${older === kept ? 'the checkpoint kept' : 'the checkpoint it serves now'}): ` +
        `events logged before were changed or removed; both notes are kept in ${evidence}`,
    );
  }
  if (latest.size < kept.size)
    return {
      holds: true,
      lines: [
        ...lines,
        `the log served an older checkpoint (${latest.size} events, consistent with the ${kept.size} kept); ` +
          'kept the newer one',
      ],
    };
  await writeAtomically(join(options.stateDir, CHECKPOINT_FILE), note);
  return { holds: true, lines: [...lines, `consistent: ${kept.size} → ${describe(latest)}, kept`] };
}

const describe = (checkpoint: SignedCheckpoint): string =>
  `${checkpoint.origin}, ${checkpoint.size} events, root ${checkpoint.root.toString('base64')}`;

async function keepEvidence(stateDir: string, kept: SignedCheckpoint, latest: SignedCheckpoint): Promise<string> {
  const dir = join(stateDir, EVIDENCE_DIR, new Date().toISOString().replace(/[:.]/g, '-'));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `kept-${kept.size}.note`), kept.note);
  await writeFile(join(dir, `served-${latest.size}.note`), latest.note);
  return dir;
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Written beside, then renamed: a run cut short never leaves a half-written checkpoint behind. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const partial = `${file}.partial`;
  await writeFile(partial, text);
  await rename(partial, file);
}
