import type { Worker } from 'node:worker_threads';
import { accountStream } from '../../accounts/account.js';
import { canonicalJson } from '../../events/canonical-json.js';
import { GENESIS_HASH } from '../../events/envelope.js';
import { BUNDLE_FORMAT, type BundleBalance } from './bundle.js';
import { openCheckpoint, type SignedCheckpoint } from './checkpoint.js';
import { HASH_SIZE, type Hash } from './hashes.js';
import { strictBase64, type NoteVerifier } from './note.js';
import { verifyConsistency } from './verify.js';
import { parseEntry } from './bundle-entry.js';
import { RangeChecker, verifyRange, type RangeResult, type RangeStart, type RangeTask } from './verify-range.js';

export interface BundleVerificationOptions {
  verifier: NoteVerifier;
  /** A checkpoint the auditor kept (its signed note): the bundle's must be the same tree or an extension of it. */
  saved?: string;
  /** Where a consistency proof the bundle lacks is fetched from (`--url`); base64 hashes. */
  fetchConsistencyProof?: (from: number, to: number) => Promise<string[]>;
  /** Bundles of this many bytes of events or more are checked on two threads (default 16 MB; Infinity: one). */
  parallelFrom?: number;
}

export interface BundleVerification {
  /** One line per failure; the bundle holds only if there is none. */
  failures: string[];
  accountId: string | null;
  events: number;
  checkpoint: { origin: string; size: number; root: string } | null;
  /** The balance replayed from the events. */
  balance: BundleBalance | null;
  /** What was checked against the kept checkpoint, when one was given. */
  saved: { size: number; relation: 'same tree' | 'extended' | 'older' } | null;
}

/**
 * From this size on, the second half of the event lines is checked by a worker thread while this one checks the
 * first: the worker's start (tens of milliseconds) is then well paid for.
 */
const PARALLEL_FROM_BYTES = 16 * 1024 * 1024;
/** The worker's module, bundled once per process (core/workers/bundled-worker.ts). */
const WORKER_ENTRY = new URL('./verify-range-worker.ts', import.meta.url);
const NEWLINE = 0x0a;
/** The end of a line whose proof is written whole: where a second thread may start. */
const WHOLE_PROOF_END = Buffer.from(',"shared":0}\n');

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const hasMembers = (value: Record<string, unknown>, members: readonly string[], optional: readonly string[] = []) =>
  members.every((member) => member in value) &&
  Object.keys(value).every((member) => members.includes(member) || optional.includes(member));
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isBalance = (value: unknown): value is BundleBalance =>
  isObject(value) &&
  hasMembers(value, ['credits_available', 'credits_reserved']) &&
  Number.isSafeInteger(value.credits_available) &&
  Number.isSafeInteger(value.credits_reserved);

/**
 * Verifies an export bundle with nothing but the log's verifier key (docs/audit.md): the checkpoint's
 * signature; every line's form; every event's hash and its place in the account's hash chain from the
 * first; every inclusion proof in the checkpoint; the balance replayed with the account decider's balance
 * rule against the balance the service showed, and never below zero; the consistency proof the bundle
 * carries; and, given a checkpoint the auditor kept, that the bundle's tree is that tree or an extension of it.
 */
export async function verifyBundle(
  input: string | Uint8Array,
  options: BundleVerificationOptions,
): Promise<BundleVerification> {
  const bytes =
    typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input.buffer, input.byteOffset, input.length);
  const parallelFrom = options.parallelFrom ?? PARALLEL_FROM_BYTES;
  // Bundled while the header is read and its checkpoint verified.
  // Loaded only then: the bundler is not what a small bundle's check should wait for.
  const worker =
    bytes.length >= parallelFrom
      ? import('../../workers/bundled-worker.js').then(async ({ bundledWorker, startBundled }) => ({
          url: await bundledWorker(WORKER_ENTRY),
          startBundled,
        }))
      : null;
  worker?.catch(() => undefined);
  const failures: string[] = [];
  const result: BundleVerification = {
    failures,
    accountId: null,
    events: 0,
    checkpoint: null,
    balance: null,
    saved: null,
  };
  if (bytes.at(-1) !== NEWLINE) failures.push('FORMAT     the bundle does not end with a newline: it is cut short');
  const headerEnd = bytes.indexOf(NEWLINE);
  const header = parseLine(bytes.toString('utf8', 0, headerEnd === -1 ? bytes.length : headerEnd), 1, failures);
  if (!isObject(header)) {
    failures.push('FORMAT     line 1 is not the bundle header');
    return result;
  }
  if (
    !hasMembers(header, ['format', 'account_id', 'checkpoint', 'balance'], ['consistency']) ||
    header.format !== BUNDLE_FORMAT ||
    typeof header.account_id !== 'string' ||
    typeof header.checkpoint !== 'string' ||
    !isBalance(header.balance)
  ) {
    failures.push(`FORMAT     line 1 is not a ${BUNDLE_FORMAT} header`);
    return result;
  }
  result.accountId = header.account_id;
  const opened = openCheckpoint(header.checkpoint, options.verifier);
  if (!opened.verified) {
    failures.push(`SIGNATURE  the bundle's checkpoint does not verify with the key given: ${opened.reason}`);
    return result;
  }
  const checkpoint = opened.checkpoint;
  result.checkpoint = { origin: checkpoint.origin, size: checkpoint.size, root: checkpoint.root.toString('base64') };

  const accountId = header.account_id;
  const task = (lines: RangeTask['lines'], firstLine: number, start: RangeTask['start']): RangeTask => ({
    lines,
    firstLine,
    start,
    stream: accountStream(accountId),
    accountId,
    treeSize: checkpoint.size,
    treeRoot: checkpoint.root.toString('base64'),
  });
  const bodyStart = headerEnd === -1 ? bytes.length : headerEnd + 1;
  const first: RangeStart = { previousHash: GENESIS_HASH, revision: 0, previousLeaf: -1, previousProof: [] };
  const ranges = worker
    ? await checkedOnTwoThreads(bytes, bodyStart, first, worker, task)
    : [verifyRange(task(bytes.subarray(bodyStart), 2, first))];
  const balance: BundleBalance = { credits_available: 0, credits_reserved: 0 };
  // The lowest the available credits go over all ranges, first where they do: what one range over all would find.
  let lowest: { available: number; line: number } | null = null;
  for (const range of ranges) {
    for (const failure of range.failures) failures.push(failure.text);
    const low = range.lowest && balance.credits_available + range.lowest.available;
    if (range.lowest && low !== null && (lowest === null || !(low >= lowest.available)))
      lowest = { available: low, line: range.lowest.line };
    balance.credits_available += range.available;
    balance.credits_reserved += range.reserved;
    result.events += range.events;
  }
  if (lowest && !(lowest.available >= 0))
    failures.push(`BALANCE    line ${lowest.line}: the replayed balance goes below zero (${lowest.available} credits)`);
  result.balance = balance;
  if (result.events === 0) failures.push('FORMAT     the bundle holds no event');
  if (
    balance.credits_available !== header.balance.credits_available ||
    balance.credits_reserved !== header.balance.credits_reserved
  )
    failures.push(
      `BALANCE    the events replay to ${JSON.stringify(balance)}, ` +
        `the service showed ${JSON.stringify(header.balance)}`,
    );
  const carried = header.consistency === undefined ? null : checkCarriedProof(header.consistency, checkpoint, failures);
  if (options.saved !== undefined) result.saved = await checkSaved(options, checkpoint, carried, failures);
  return result;
}

/** The consistency proof the bundle carries: it must lead from the root it names to the checkpoint's. */
function checkCarriedProof(
  consistency: unknown,
  checkpoint: SignedCheckpoint,
  failures: string[],
): { size: number; root: Hash; proof: Hash[] } | null {
  const root =
    isObject(consistency) && typeof consistency.from_root === 'string' && strictBase64(consistency.from_root);
  const proof =
    isObject(consistency) && Array.isArray(consistency.proof)
      ? consistency.proof.map((element) => (typeof element === 'string' ? strictBase64(element) : null))
      : null;
  if (
    !isObject(consistency) ||
    !hasMembers(consistency, ['from_size', 'from_root', 'proof']) ||
    !isCount(consistency.from_size) ||
    !root ||
    root.length !== HASH_SIZE ||
    !proof ||
    !proof.every((hash): hash is Buffer => hash !== null)
  ) {
    failures.push('FORMAT     the header\'s "consistency" is not a consistency proof');
    return null;
  }
  if (!verifyConsistency(consistency.from_size, checkpoint.size, proof, root, checkpoint.root)) {
    failures.push(
      `CONSISTENCY the bundle's proof does not lead from the tree of ${consistency.from_size} it names ` +
        `to its checkpoint's tree of ${checkpoint.size}`,
    );
    return null;
  }
  return { size: consistency.from_size, root, proof };
}

/** The kept checkpoint against the bundle's: the same tree, or one of them an extension of the other. */
async function checkSaved(
  options: BundleVerificationOptions,
  checkpoint: SignedCheckpoint,
  carried: { size: number; root: Hash } | null,
  failures: string[],
): Promise<BundleVerification['saved']> {
  const opened = openCheckpoint(options.saved!, options.verifier);
  if (!opened.verified) {
    failures.push(`SIGNATURE  the kept checkpoint does not verify with the key given: ${opened.reason}`);
    return null;
  }
  const saved = opened.checkpoint;
  if (saved.size === checkpoint.size) {
    if (saved.root.equals(checkpoint.root)) return { size: saved.size, relation: 'same tree' };
    failures.push(
      `FORK       the kept checkpoint and the bundle's are both of size ${saved.size} with different roots ` +
        `(${saved.root.toString('base64')} kept, ${checkpoint.root.toString('base64')} now): ` +
        'the log signed two histories; keep both notes as evidence',
    );
    return null;
  }
  const [older, newer] = saved.size < checkpoint.size ? [saved, checkpoint] : [checkpoint, saved];
  let proof: Hash[] | null = null;
  if (carried && older === saved && carried.size === saved.size) {
    if (!carried.root.equals(saved.root)) {
      failures.push(
        `REWRITE    the bundle says the tree of ${saved.size} had root ${carried.root.toString('base64')}, ` +
          `the kept checkpoint says ${saved.root.toString('base64')}: the history was rewritten`,
      );
      return null;
    }
    return { size: saved.size, relation: 'extended' };
  }
  if (options.fetchConsistencyProof) {
    const fetched = (await options.fetchConsistencyProof(older.size, newer.size)).map(strictBase64);
    proof = fetched.every((hash): hash is Buffer => hash !== null) ? fetched : null;
  }
  if (proof === null) {
    failures.push(
      `CONSISTENCY no consistency proof from size ${older.size} to ${newer.size}: ` +
        `export with ?consistency_from=${older.size}, or give --url to fetch it`,
    );
    return null;
  }
  if (!verifyConsistency(older.size, newer.size, proof, older.root, newer.root)) {
    failures.push(
      `REWRITE    the log's tree of ${newer.size} does not extend its tree of ${older.size} ` +
        `(${older === saved ? 'the checkpoint you kept' : "the bundle's checkpoint"}): ` +
        'its history was rewritten; keep both notes as evidence',
    );
    return null;
  }
  return { size: saved.size, relation: older === saved ? 'extended' : 'older' };
}

/**
 * A line's value. Every line is written as canonical JSON; one that holds an escape is checked to be so,
 * since that is where one byte can spell the same value another way (`\u001f`, `\u001F`).
 */
function parseLine(line: string, number: number, failures: string[]): unknown {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    failures.push(`FORMAT     line ${number} is not JSON`);
    return undefined;
  }
  if (line.includes('\\u') && canonicalJson(value) !== line) {
    failures.push(`FORMAT     line ${number} is not in its canonical form (RFC 8785)`);
    return undefined;
  }
  return value;
}

/** The worker's bundle and what starts it, both loaded only for a bundle large enough to check on two threads. */
interface BundledEntry {
  url: URL;
  startBundled: typeof import('../../workers/bundled-worker.js').startBundled;
}

/** A range's lines, from `from` to `to` of the bundle's bytes, given where the one before them ended. */
type Task = (lines: RangeTask['lines'], firstLine: number, start: RangeStart) => RangeTask;

/**
 * The event lines checked on two threads: this one checks them from the first, a chunk at a time while the worker
 * is bundled and starts; once the worker is ready it takes the later part of what is left. Ranges start only where
 * `boundaryFrom` allows, so that every range's verdict is the one a single range would give there.
 */
async function checkedOnTwoThreads(
  bytes: Buffer,
  bodyStart: number,
  first: RangeStart,
  worker: Promise<BundledEntry>,
  task: Task,
): Promise<RangeResult[]> {
  const state: { worker: Worker | null; ready: boolean; done: boolean } = { worker: null, ready: false, done: false };
  worker.then(
    ({ url, startBundled }) => {
      if (state.done) return;
      const started = startBundled(url);
      state.worker = started;
      started.once('message', () => (state.ready = true));
      started.once('error', () => (state.worker = null));
    },
    () => undefined,
  );
  const checker = new RangeChecker(task(bytes.subarray(bodyStart), 2, first));
  let handed: Promise<RangeResult> | null = null;
  for (;;) {
    const { at, line } = checker.position;
    if (state.ready && state.worker && handed === null) {
      const split = boundaryFrom(
        bytes,
        bodyStart + at + Math.floor((bytes.length - bodyStart - at) * (1 - WORKER_SHARE)),
        bodyStart,
      );
      if (split) {
        const lines = sharedCopy(bytes, split.at, bytes.length);
        handed = inWorker(state.worker, task(lines, line + linesIn(bytes, bodyStart + at, split.at), split.start));
        checker.endAt(split.at - bodyStart);
      }
    }
    // Once the worker has its range, the rest of this thread's is checked at once.
    if (checker.checkUntil(handed ? Infinity : at + STEP_BYTES)) break;
    // Lets the worker's bundling (its steps call back into this thread) and start be heard of.
    await new Promise((resolve) => setImmediate(resolve));
  }
  state.done = true;
  const ranges = [checker.result];
  if (handed) ranges.push(await handed);
  await state.worker?.terminate();
  return ranges;
}

/** The worker's share of what is left when it is ready: a little less than half, since its code starts cold. */
const WORKER_SHARE = 0.45;
/** How much this thread checks between looks at whether the worker is ready. */
const STEP_BYTES = 256 * 1024;

function linesIn(bytes: Buffer, from: number, to: number): number {
  let lines = 0;
  for (let at = bytes.indexOf(NEWLINE, from); at !== -1 && at < to; at = bytes.indexOf(NEWLINE, at + 1)) lines += 1;
  return lines;
}

/** The bytes from `from` to `to` in memory the worker shares: copied there, unless they are already. */
function sharedCopy(bytes: Buffer, from: number, to: number): RangeTask['lines'] {
  if (bytes.buffer instanceof SharedArrayBuffer)
    return { shared: bytes.buffer, from: bytes.byteOffset + from, to: bytes.byteOffset + to };
  const shared = new SharedArrayBuffer(to - from);
  bytes.copy(new Uint8Array(shared), 0, from, to);
  return { shared, from: 0, to: shared.byteLength };
}

/**
 * The first line at or after `from` where a range may start, with what the line before it leaves: a line whose
 * proof is written whole (`shared` 0: the export writes one every 1,024 lines) after a line that is an event of the
 * bundle, so that the range starts from what checking every line before would have left. Null when there is none.
 */
function boundaryFrom(bytes: Buffer, from: number, bodyStart: number): { at: number; start: RangeStart } | null {
  for (
    let found = bytes.indexOf(WHOLE_PROOF_END, from);
    found !== -1;
    found = bytes.indexOf(WHOLE_PROOF_END, found + 1)
  ) {
    const at = bytes.lastIndexOf(NEWLINE, found) + 1;
    const before = bytes.lastIndexOf(NEWLINE, at - 2) + 1;
    if (at <= bodyStart || before < bodyStart) continue;
    const previous = parseEntry(bytes.toString('utf8', before, at - 1));
    if (previous === null || previous === 'not JSON') continue;
    const { event, leaf_index: previousLeaf } = previous;
    return { at, start: { previousHash: event.hash, revision: event.revision + 1, previousLeaf, previousProof: [] } };
  }
  return null;
}

/** A range checked by the ready worker; by this thread instead if the worker fails. */
function inWorker(worker: Worker, task: RangeTask): Promise<RangeResult> {
  return new Promise<RangeResult>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the verifying worker exited with code ${code}`)));
    worker.postMessage(task);
  }).catch(() => verifyRange(task));
}
