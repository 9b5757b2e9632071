import { hash } from 'node:crypto';
import { accountEvents, type AccountEvent } from '../../accounts/account.js';
import { balanceChange, isCreditEvent } from '../../accounts/credit-movement.js';
import type { EventDefinition } from '../../events/registry.js';
import { wholeProof, type BundledEvent } from './bundle.js';
import { parseEntry } from './bundle-entry.js';
import { EventLineParts, integerAt, isStringOf, scanEventLine } from './event-line-scan.js';
import { eventLeafHash, HASH_SIZE, leafHashOfBytes } from './hashes.js';
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
const TEST_MODE = Uint8Array.from('test', (character) => character.charCodeAt(0));
const definitions = new Map<string, EventDefinition>(accountEvents.map((definition) => [definition.type, definition]));

/**
 * Checks a range of the bundle's event lines (verify-bundle.ts splits a large bundle in two, one range per
 * core): each line's form, its event's hash over the line's own bytes and its place in the hash chain, its
 * leaf's order and inclusion proof, and the credits it moves, replayed with the account decider's balance rule
 * (`balanceChange`, which its evolve applies and the replay audit uses): the evolve's other bookkeeping, of
 * idempotency references, moves no credit and costs ten times as much per event (measured). A line in the
 * export's own spelling is read by scanning its bytes; any other by `JSON.parse`, with the same verdict.
 */
export function verifyRange(task: RangeTask): RangeResult {
  return new RangeChecker(task, true).run();
}

/** verifyRange with every line read by `JSON.parse`: the reference the scanning path is held to. */
export function verifyRangePlain(task: RangeTask): RangeResult {
  return new RangeChecker(task, false).run();
}

/** A range's check, which may be done a part at a time (verify-bundle.ts checks between looks at its worker). */
export class RangeChecker {
  private readonly outcome: RangeResult = { failures: [], events: 0, available: 0, reserved: 0, lowest: null };
  private at = 0;
  private line: number;
  private end: number;
  private readonly inclusion: InclusionChecker;
  private readonly bytes: Buffer;
  private readonly streamBytes: Buffer;
  /** The previous hash, or null while it is the first `previousLength` bytes of `chainInput` (a scanned line's). */
  private previousHash: string | null;
  private previousLength = 0;
  private revision: number;
  private previousLeaf: number;
  private previousProof: string[];
  /** What a scanned line's hash covers is copied after the previous hash and a newline, then hashed at once. */
  private chainInput = Buffer.alloc(4096);
  private readonly parts = new EventLineParts();

  constructor(
    private readonly task: RangeTask,
    private readonly scan = true,
  ) {
    this.inclusion = new InclusionChecker(task.treeSize, Buffer.from(task.treeRoot, 'base64'));
    ({ previousHash: this.previousHash, revision: this.revision, previousLeaf: this.previousLeaf } = task.start);
    this.previousProof = task.start.previousProof;
    this.streamBytes = Buffer.from(task.stream, 'utf8');
    const { lines } = task;
    this.bytes =
      lines instanceof Uint8Array
        ? Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength)
        : Buffer.from(lines.shared, lines.from, lines.to - lines.from);
    this.line = task.firstLine;
    this.end = this.bytes.length;
  }

  /** The range checked whole. */
  run(): RangeResult {
    this.checkUntil(Infinity);
    return this.result;
  }

  /** Checks the lines that start before `limit` (a byte offset in the range); true once the range is checked. */
  checkUntil(limit: number): boolean {
    const { bytes } = this;
    const stop = Math.min(limit, this.end);
    let { at, line } = this;
    while (at < stop) {
      let to = bytes.indexOf(NEWLINE, at);
      if (to === -1) to = bytes.length;
      if (!this.scan || !this.scannedLine(at, to, line))
        // Decoded line by line: one string of tens of megabytes costs several times what its lines do (measured).
        this.parsedLine(bytes.toString('utf8', at, to), line);
      at = to + 1;
      line += 1;
    }
    this.at = at;
    this.line = line;
    return at >= this.end;
  }

  /** Where the next line to check starts, and its number in the bundle. */
  get position(): { at: number; line: number } {
    return { at: this.at, line: this.line };
  }

  /** Ends the range before `end` (the start of a line not checked yet), left to another range. */
  endAt(end: number): void {
    this.end = Math.max(end, this.at);
  }

  get result(): RangeResult {
    return this.outcome;
  }

  private fail(line: number, text: string): void {
    this.outcome.failures.push({ line, text });
  }

  private parsedLine(line: string, number: number): void {
    const parsed = parseEntry(line);
    if (parsed === 'not JSON') return this.fail(number, `FORMAT     line ${number} is not JSON`);
    if (parsed === null) return this.fail(number, `FORMAT     line ${number} is not an event of the bundle`);
    const { event } = parsed;
    this.outcome.events += 1;
    if (event.stream !== this.task.stream)
      this.fail(number, `STREAM     ${where(number, event)}: not an event of account ${this.task.accountId}`);
    const content = hashedContent(line, event.hash);
    if (event.revision !== this.revision) this.fail(number, chainFailure(number, event, this.revision));
    else if (content === null || hash('sha256', `${this.previousText()}\n${content}`, 'hex') !== event.hash)
      this.fail(number, hashFailure(number, event));
    this.previousHash = event.hash;
    this.revision = event.revision + 1;
    this.includes(number, event, parsed.leaf_index, parsed.proof, parsed.shared, eventLeafHash(event.hash));
    this.replay(number, upcast(event));
  }

  /** A line in the export's own spelling, checked from its bytes; false (nothing done) for any other. */
  private scannedLine(from: number, to: number, number: number): boolean {
    const { bytes, parts } = this;
    if (!scanEventLine(bytes, from, to, parts)) return false;
    const type = bytes.toString('latin1', parts.typeFrom, parts.typeTo);
    const definition = definitions.get(type);
    // An event written in an older version is upcast from its data parsed whole, as the plain path does.
    if (definition && definition.version > parts.version) return false;
    this.outcome.events += 1;
    const event = new ScannedEvent(bytes, parts);
    if (!this.isStream(parts.streamFrom, parts.streamTo))
      this.fail(number, `STREAM     ${where(number, event)}: not an event of account ${this.task.accountId}`);
    let digest: string | null = null;
    if (parts.revision !== this.revision) this.fail(number, chainFailure(number, event, this.revision));
    else {
      digest = this.chainDigest(from, parts);
      if (!sameHash(digest, bytes, parts.hash)) {
        digest = null;
        this.fail(number, hashFailure(number, event));
      }
    }
    bytes.copy(this.chainInput, 0, parts.hash, parts.hash + 64);
    this.previousHash = null;
    this.previousLength = 64;
    this.revision = parts.revision + 1;
    const proof: string[] = [];
    for (let i = 0; i < parts.proofCount; i += 1)
      proof.push(bytes.toString('latin1', parts.proof[2 * i], parts.proof[2 * i + 1]));
    // Hashed from the digest just computed when it is the line's hash: the same 32 bytes as its hex.
    const leaf = digest === null ? eventLeafHash(event.hash) : leafHashOfBytes(digest);
    this.includes(number, event, parts.leafIndex, proof, parts.shared, leaf);
    this.replay(number, isCreditEvent({ type }) ? scannedCredits(bytes, parts, type) : null);
    return true;
  }

  private isStream(from: number, to: number): boolean {
    const expected = this.streamBytes;
    if (to - from !== expected.length) return false;
    for (let i = 0; i < expected.length; i += 1) if (this.bytes[from + i] !== expected[i]) return false;
    return true;
  }

  /** The previous hash as text (written once in bytes, for a scanned line). */
  private previousText(): string {
    return this.previousHash ?? this.chainInput.toString('latin1', 0, this.previousLength);
  }

  /** SHA-256 over the previous hash, a newline and the scanned line's event without its hash: 32 bytes, latin1. */
  private chainDigest(from: number, parts: EventLineParts): string {
    const first = parts.hashMember - (from + '{"event":'.length);
    const second = parts.eventEnd - parts.idMember;
    if (this.previousHash !== null) {
      this.previousLength = Buffer.byteLength(this.previousHash, 'utf8');
      this.ensureInput(this.previousLength);
      this.chainInput.write(this.previousHash, 0, 'utf8');
    }
    const at = this.previousLength + 1;
    this.ensureInput(at + first + second);
    const input = this.chainInput;
    input[this.previousLength] = NEWLINE;
    this.bytes.copy(input, at, from + '{"event":'.length, parts.hashMember);
    this.bytes.copy(input, at + first, parts.idMember, parts.eventEnd);
    return hash('sha256', input.subarray(0, at + first + second), 'binary');
  }

  private ensureInput(length: number): void {
    if (length <= this.chainInput.length) return;
    const larger = Buffer.alloc(Math.max(length, 2 * this.chainInput.length));
    this.chainInput.copy(larger);
    this.chainInput = larger;
  }

  private includes(
    number: number,
    event: Pick<BundledEvent, 'stream' | 'revision'>,
    leafIndex: number,
    start: string[],
    shared: number,
    leaf: Buffer | string,
  ): void {
    if (leafIndex <= this.previousLeaf)
      this.fail(
        number,
        `ORDER      ${where(number, event)}: leaf ${leafIndex} does not follow leaf ${this.previousLeaf}`,
      );
    this.previousLeaf = leafIndex;
    const proof = wholeProof(start, shared, this.previousProof);
    this.previousProof = proof ?? [];
    if (proof === null || !this.inclusion.check(leafIndex, leaf, proof))
      this.fail(
        number,
        `INCLUSION  ${where(number, event)}: its proof does not put leaf ${leafIndex} in the ` +
          `checkpoint's tree of ${this.task.treeSize}: the log does not hold this event there`,
      );
  }

  private replay(number: number, event: { type: string; data: unknown } | null): void {
    const change = event && balanceChange(event);
    if (!change) return;
    const result = this.outcome;
    result.available += change.available;
    result.reserved += change.reserved;
    if (result.lowest === null || !(result.available >= result.lowest.available))
      result.lowest = { available: result.available, line: number };
  }
}

/** A scanned line's event as its failures name it: the stream and revision, read only when one is written. */
class ScannedEvent {
  constructor(
    private readonly bytes: Buffer,
    private readonly parts: EventLineParts,
  ) {}

  get stream(): string {
    return this.bytes.toString('latin1', this.parts.streamFrom, this.parts.streamTo);
  }

  get revision(): number {
    return this.parts.revision;
  }

  get hash(): string {
    return this.bytes.toString('latin1', this.parts.hash, this.parts.hash + 64);
  }
}

/**
 * What the balance rule reads of a scanned credit event: its type, and of its data only the members the rule
 * reads, when they are integers and the data an object; otherwise the data parsed whole, as the plain path has it.
 */
function scannedCredits(bytes: Buffer, parts: EventLineParts, type: string): { type: string; data: unknown } {
  const credits = parts.creditsFrom === -1 ? undefined : integerAt(bytes, parts.creditsFrom, parts.creditsTo);
  const released = parts.releasedFrom === -1 ? undefined : integerAt(bytes, parts.releasedFrom, parts.releasedTo);
  if (bytes[parts.dataFrom] !== 0x7b || credits === null || released === null)
    return { type, data: JSON.parse(bytes.toString('latin1', parts.dataFrom, parts.dataTo)) as unknown };
  const test = parts.modeFrom !== -1 && isStringOf(bytes, parts.modeFrom, parts.modeTo, TEST_MODE);
  return { type, data: { mode: test ? 'test' : undefined, credits, released } };
}

/** Whether a digest (32 bytes, latin1) is what the 64 lowercase hex digits at `at` spell. */
function sameHash(digest: string, bytes: Buffer, at: number): boolean {
  for (let i = 0; i < HASH_SIZE; i += 1) {
    const byte = digest.charCodeAt(i);
    if (bytes[at + 2 * i] !== HEX[byte >> 4] || bytes[at + 2 * i + 1] !== HEX[byte & 0x0f]) return false;
  }
  return true;
}
const HEX = Uint8Array.from('0123456789abcdef', (character) => character.charCodeAt(0));

/** How a failure names its line: a function apart, so that no closure is made per line. */
const where = (number: number, event: Pick<BundledEvent, 'stream' | 'revision'>): string =>
  `line ${number} (${event.stream} revision ${event.revision})`;

const chainFailure = (number: number, event: Pick<BundledEvent, 'stream' | 'revision'>, expected: number): string =>
  `CHAIN      ${where(number, event)}: expected revision ${expected}; the history has a gap or is out of order`;

const hashFailure = (number: number, event: Pick<BundledEvent, 'stream' | 'revision'>): string =>
  `HASH       ${where(number, event)}: its hash is not SHA-256 of the previous hash and its content: ` +
  'the event was changed, or one before it was';

/**
 * An event as the account decider of today reads it: its data lifted from the version it was written in. Read
 * as an account event on the grounds event-of.ts states: the store validated it on append, and the hash chain
 * and the inclusion proof tie it to what the store holds (an event changed since fails those, and is reported).
 */
function upcast(event: Pick<BundledEvent, 'type' | 'version' | 'data'>): AccountEvent {
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
