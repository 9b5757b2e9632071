import type { BundledEvent } from './bundle.js';

/** An event line of the bundle as `JSON.parse` reads it, once its form is checked. */
export interface ParsedEntry {
  event: BundledEvent;
  leaf_index: number;
  proof: string[];
  shared: number;
}

const EVENT_MEMBERS = ['data', 'hash', 'id', 'metadata', 'recorded_at', 'revision', 'stream', 'type', 'version'];
const ENTRY_MEMBERS = ['event', 'leaf_index', 'proof', 'shared'];

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
    // Anything but 64 lowercase hex digits fails the hash check: no SHA-256 is spelled otherwise.
    typeof event.hash === 'string' &&
    event.hash.length === 64
  );
}

/** A line's entry; 'not JSON', or null when it is JSON but not an event line of the bundle. */
export function parseEntry(line: string): ParsedEntry | 'not JSON' | null {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (
    !isObject(entry) ||
    !hasExactly(entry, ENTRY_MEMBERS) ||
    !isCount(entry.leaf_index) ||
    !isCount(entry.shared) ||
    !isStrings(entry.proof) ||
    !isObject(entry.event) ||
    !isBundledEvent(entry.event)
  )
    return null;
  return { event: entry.event, leaf_index: entry.leaf_index, proof: entry.proof, shared: entry.shared };
}
