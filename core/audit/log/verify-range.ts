import { hash } from 'node:crypto';
import { accountEvents, type AccountEvent } from '../../accounts/account.js';
import { balanceChange } from '../../accounts/credit-movement.js';
import type { EventDefinition } from '../../events/registry.js';
import { wholeProof, type BundledEvent } from './bundle.js';
import { eventLeafHash } from './hashes.js';
import { InclusionChecker } from './inclusion-checker.js';

/** Where a range of event lines starts: what the line before it left (for the first range, the stream's start). */
export interface RangeStart {
  /** The hash the first event chains to. */
  previousHash: string;
  /** The revision the first event must have. */
  revision: number;
  /** The leaf the first event's must follow (-1: none). */
  previousLeaf: number;
  /** The whole proof of the line before, which the first line's may share the end of. */
  previousProof: string[];
}

/** What a range of the bundle's event lines checks against. */
export interface RangeTask {
  /**
   * The lines, each ending with a newline; the first is line `firstLine` of the bundle. As UTF-8 bytes, or as bytes
   * of memory shared with the thread that read them (a worker's range).
   */
  lines: Uint8Array | { shared: SharedArrayBuffer; from: number; to: number };
  firstLine: number;
  start: RangeStart;
  stream: string;
  accountId: string;
  treeSize: number;
  /** The checkpoint's root, base64. */
  treeRoot: string;
}

export interface RangeResult {
  failures: { line: number; text: string }[];
  events: number;
  /** The credits the range's events move, replayed from nothing. */
  available: number;
  reserved: number;
  /** The lowest the available credits go within the range, from nothing, and the first line where they do. */
  lowest: { available: number; line: number } | null;
}

const NEWLINE = 0x0a;
const EVENT_MEMBERS = ['data', 'hash', 'id', 'metadata', 'recorded_at', 'revision', 'stream', 'type', 'version'];
const ENTRY_MEMBERS = ['event', 'leaf_index', 'proof', 'shared'];
const definitions = new Map<string, EventDefinition>(accountEvents.map((definition) => [definition.type, definition]));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function isStrings(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (const element of value) if (typeof element !== 'string') return false;
  return true;
}

/** Exactly these members: counted in one pass, with no array of keys built per line. */
function hasExactly(value: Record<string, unknown>, members: readonly string[]): boolean {
  let count = 0;
  for (const key in value) {
    if (!members.includes(key)) return false;
    count += 1;
  }
  return count === members.length;
}

/**
 * Checks a range of the bundle's event lines (verify-bundle.ts splits a large bundle in two, one range per
 * core): each line's form, its event's hash over the line's own bytes and its place in the hash chain, its
 * leaf's order and inclusion proof, and the credits it moves, replayed with the account decider's balance rule
 * (`balanceChange`, which its evolve applies and the replay audit uses): the evolve's other bookkeeping, of
 * idempotency references, moves no credit and costs ten times as much per event (measured).
 */
export function verifyRange(task: RangeTask): RangeResult {
  const result: RangeResult = { failures: [], events: 0, available: 0, reserved: 0, lowest: null };
  const fail = (line: number, text: string) => result.failures.push({ line, text });
  const inclusion = new InclusionChecker(task.treeSize, Buffer.from(task.treeRoot, 'base64'));
  let { previousHash, revision, previousLeaf, previousProof } = task.start;
  const bytes =
    task.lines instanceof Uint8Array
      ? Buffer.from(task.lines.buffer, task.lines.byteOffset, task.lines.byteLength)
      : Buffer.from(task.lines.shared, task.lines.from, task.lines.to - task.lines.from);
  // Decoded line by line: one string of tens of megabytes costs several times what its lines do (measured).
  for (let from = 0, number = task.firstLine; from < bytes.length; number += 1) {
    let to = bytes.indexOf(NEWLINE, from);
    if (to === -1) to = bytes.length;
    const line = bytes.toString('utf8', from, to);
    from = to + 1;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      fail(number, `FORMAT     line ${number} is not JSON`);
      continue;
    }
    const event = isObject(entry) ? entry.event : undefined;
    if (
      !isObject(entry) ||
      !hasExactly(entry, ENTRY_MEMBERS) ||
      !isCount(entry.leaf_index) ||
      !isCount(entry.shared) ||
      !isStrings(entry.proof) ||
      !isObject(event) ||
      !isBundledEvent(event)
    ) {
      fail(number, `FORMAT     line ${number} is not an event of the bundle`);
      continue;
    }
    result.events += 1;
    if (event.stream !== task.stream)
      fail(number, `STREAM     ${where(number, event)}: not an event of account ${task.accountId}`);
    const content = hashedContent(line, event.hash);
    if (event.revision !== revision)
      fail(
        number,
        `CHAIN      ${where(number, event)}: expected revision ${revision}; the history has a gap or is out of order`,
      );
    else if (content === null || hash('sha256', `${previousHash}\n${content}`, 'hex') !== event.hash)
      fail(
        number,
        `HASH       ${where(number, event)}: its hash is not SHA-256 of the previous hash and its content: ` +
          'the event was changed, or one before it was',
      );
    previousHash = event.hash;
    revision = event.revision + 1;
    if (entry.leaf_index <= previousLeaf)
      fail(number, `ORDER      ${where(number, event)}: leaf ${entry.leaf_index} does not follow leaf ${previousLeaf}`);
    previousLeaf = entry.leaf_index;
    const proof = wholeProof(entry.proof, entry.shared, previousProof);
    previousProof = proof ?? [];
    if (proof === null || !inclusion.check(entry.leaf_index, eventLeafHash(event.hash), proof))
      fail(
        number,
        `INCLUSION  ${where(number, event)}: its proof does not put leaf ${entry.leaf_index} in the ` +
          `checkpoint's tree of ${task.treeSize}: the log does not hold this event there`,
      );
    const change = balanceChange(upcast(event));
    if (change) {
      result.available += change.available;
      result.reserved += change.reserved;
      if (result.lowest === null || !(result.available >= result.lowest.available))
        result.lowest = { available: result.available, line: number };
    }
  }
  return result;
}

/** How a failure names its line: a function apart, so that no closure is made per line. */
const where = (number: number, event: BundledEvent): string =>
  `line ${number} (${event.stream} revision ${event.revision})`;

function isBundledEvent(event: Record<string, unknown>): event is Record<string, unknown> & BundledEvent {
  return (
    hasExactly(event, EVENT_MEMBERS) &&
    typeof event.id === 'string' &&
    typeof event.stream === 'string' &&
    isCount(event.revision) &&
    typeof event.type === 'string' &&
    Number.isSafeInteger(event.version) &&
    (event.version as number) >= 1 &&
    isObject(event.metadata) &&
    typeof event.recorded_at === 'string' &&
    // Anything but 64 lowercase hex digits fails the hash check below: no SHA-256 is spelled otherwise.
    typeof event.hash === 'string' &&
    event.hash.length === 64
  );
}

/**
 * An event as the account decider of today reads it: its data lifted from the version it was written in. Read
 * as an account event on the grounds event-of.ts states: the store validated it on append, and the hash chain
 * and the inclusion proof tie it to what the store holds (an event changed since fails those, and is reported).
 */
function upcast(event: BundledEvent): AccountEvent {
  const definition = definitions.get(event.type);
  if (!definition || definition.version <= event.version) return event as BundledEvent & AccountEvent;
  let data = event.data;
  for (let version = event.version; version < definition.version; version += 1) {
    const upcaster = definition.upcasters?.[version];
    if (!upcaster) break;
    data = upcaster(data);
  }
  return { type: event.type, data } as AccountEvent;
}

/**
 * The text an event's hash covers, cut from the line as written: the event's canonical JSON without its
 * `hash` member (docs/audit.md). Hashing the bytes of the line, rather than the value parsed from them, makes
 * every byte count: a line spelled otherwise than the log's event, even as the same value, hashes otherwise.
 * The member is found by its own value: text holding an event's hash cannot hash to it.
 */
function hashedContent(line: string, eventHash: string): string | null {
  const prefix = '{"event":{"data":';
  const end = line.lastIndexOf(',"leaf_index":');
  const member = `,"hash":"${eventHash}","id":`;
  const at = line.indexOf(member, prefix.length);
  if (!line.startsWith(prefix) || at === -1 || at > end) return null;
  return line.slice('{"event":'.length, at) + line.slice(at + member.length - ',"id":'.length, end);
}
