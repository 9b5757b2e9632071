import {
  accountDecider,
  accountEvents,
  accountStream,
  type AccountEvent,
  type AccountState,
} from '../../accounts/account.js';
import { canonicalJson } from '../../events/canonical-json.js';
import { GENESIS_HASH } from '../../events/envelope.js';
import { chainHash } from '../../events/hash-chain.js';
import type { EventDefinition } from '../../events/registry.js';
import { BUNDLE_FORMAT, type BundleBalance, type BundledEvent } from './bundle.js';
import { openCheckpoint, type SignedCheckpoint } from './checkpoint.js';
import { eventLeafHash, HASH_SIZE, type Hash } from './hashes.js';
import { InclusionChecker } from './inclusion-checker.js';
import { strictBase64, type NoteVerifier } from './note.js';
import { verifyConsistency } from './verify.js';

export interface BundleVerificationOptions {
  verifier: NoteVerifier;
  /** A checkpoint the auditor kept (its signed note): the bundle's must be the same tree or an extension of it. */
  saved?: string;
  /** Where a consistency proof the bundle lacks is fetched from (`--url`); base64 hashes. */
  fetchConsistencyProof?: (from: number, to: number) => Promise<string[]>;
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

const EVENT_MEMBERS = ['data', 'hash', 'id', 'metadata', 'recorded_at', 'revision', 'stream', 'type', 'version'];
const HEX_HASH = /^[0-9a-f]{64}$/;
const upcasters = new Map<string, EventDefinition>(accountEvents.map((definition) => [definition.type, definition]));

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
 * first; every inclusion proof in the checkpoint; the balance replayed with the account decider's evolve
 * against the balance the service showed, and never below zero; the consistency proof the bundle carries;
 * and, given a checkpoint the auditor kept, that the bundle's tree is that tree or an extension of it.
 */
export async function verifyBundle(text: string, options: BundleVerificationOptions): Promise<BundleVerification> {
  const failures: string[] = [];
  const result: BundleVerification = {
    failures,
    accountId: null,
    events: 0,
    checkpoint: null,
    balance: null,
    saved: null,
  };
  if (!text.endsWith('\n')) failures.push('FORMAT     the bundle does not end with a newline: it is cut short');
  const lines = new LineReader(text);
  const headerLine = lines.next();
  const header = headerLine === null ? null : parseLine(headerLine, 1, failures);
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

  const stream = accountStream(header.account_id);
  const inclusion = new InclusionChecker(checkpoint.size, checkpoint.root);
  let state: AccountState = accountDecider.initialState();
  let previousHash = GENESIS_HASH;
  let previousLeaf = -1;
  let revision = 0;
  let negativeReported = false;
  for (let line = lines.next(), number = 2; line !== null; line = lines.next(), number += 1) {
    const entry = parseLine(line, number, failures);
    const event = isObject(entry) ? entry.event : undefined;
    if (
      !isObject(entry) ||
      !hasMembers(entry, ['event', 'leaf_index', 'proof']) ||
      !isCount(entry.leaf_index) ||
      !Array.isArray(entry.proof) ||
      !entry.proof.every((element) => typeof element === 'string') ||
      !isObject(event) ||
      !isBundledEvent(event)
    ) {
      if (entry !== undefined) failures.push(`FORMAT     line ${number} is not an event of the bundle`);
      continue;
    }
    result.events += 1;
    const at = `line ${number} (${event.stream} revision ${event.revision})`;
    if (event.stream !== stream) failures.push(`STREAM     ${at}: not an event of account ${header.account_id}`);
    if (event.revision !== revision)
      failures.push(`CHAIN      ${at}: expected revision ${revision}; the history has a gap or is out of order`);
    else if (chainHash(previousHash, event) !== event.hash)
      failures.push(
        `HASH       ${at}: its hash is not SHA-256 of the previous hash and its content: ` +
          'the event was changed, or one before it was',
      );
    previousHash = event.hash;
    revision = event.revision + 1;
    if (entry.leaf_index <= previousLeaf)
      failures.push(`ORDER      ${at}: leaf ${entry.leaf_index} does not follow leaf ${previousLeaf}`);
    previousLeaf = entry.leaf_index;
    if (!inclusion.check(entry.leaf_index, eventLeafHash(event.hash), entry.proof as string[]))
      failures.push(
        `INCLUSION  ${at}: its proof does not put leaf ${entry.leaf_index} in the checkpoint's tree of ` +
          `${checkpoint.size}: the log does not hold this event there`,
      );
    try {
      state = accountDecider.evolve(state, upcast(event));
    } catch (error) {
      failures.push(`REPLAY     ${at}: the account decider cannot replay it: ${(error as Error).message}`);
    }
    if (!negativeReported && state.credits.available < 0) {
      negativeReported = true;
      failures.push(`BALANCE    ${at}: the replayed balance goes below zero (${state.credits.available} credits)`);
    }
  }
  const balance = { credits_available: state.credits.available, credits_reserved: state.credits.reserved };
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

function isBundledEvent(event: Record<string, unknown>): event is Record<string, unknown> & BundledEvent {
  return (
    hasMembers(event, EVENT_MEMBERS) &&
    typeof event.id === 'string' &&
    typeof event.stream === 'string' &&
    isCount(event.revision) &&
    typeof event.type === 'string' &&
    Number.isSafeInteger(event.version) &&
    (event.version as number) >= 1 &&
    isObject(event.metadata) &&
    typeof event.recorded_at === 'string' &&
    typeof event.hash === 'string' &&
    HEX_HASH.test(event.hash)
  );
}

/**
 * An event as the decider of today reads it: its data lifted from the version it was written in. Read as an
 * account event on the grounds event-of.ts states: the store validated it on append, and the hash chain and
 * the inclusion proof tie it to what the store holds (an event changed since fails those, and is reported).
 */
function upcast(event: BundledEvent): AccountEvent {
  const definition = upcasters.get(event.type);
  let data = event.data;
  for (let version = event.version; definition && version < definition.version; version += 1) {
    const upcaster = definition.upcasters?.[version];
    if (!upcaster) break;
    data = upcaster(data);
  }
  return { type: event.type, data } as AccountEvent;
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

/** The lines of a text, without splitting it all into an array at once. */
class LineReader {
  private at = 0;
  constructor(private readonly text: string) {}

  next(): string | null {
    if (this.at >= this.text.length) return null;
    let end = this.text.indexOf('\n', this.at);
    if (end === -1) end = this.text.length;
    const line = this.text.slice(this.at, end);
    this.at = end + 1;
    return line;
  }
}
