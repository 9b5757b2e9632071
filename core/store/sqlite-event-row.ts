import type { RecordedEvent } from '../events/envelope.js';

/**
 * An event read from sqlite as one text value per row: better-sqlite3 hands back a plucked column without
 * building an array per row, and one value costs less to hand over than ten (see docs/performance.md).
 * The numbers come first, so they are whole even when a text column holds the separator; the data comes
 * last, so that V8 decodes the columns before it (ASCII in practice) on its fast path.
 */
export const EVENT_ROW =
  'concat_ws(char(31), position, revision, version, id, stream, type, recorded_at, hash, metadata, data)';

/** The same columns one by one, in the same order: for the rows whose text holds the separator. */
export const EVENT_COLUMNS = 'position, revision, version, id, stream, type, recorded_at, hash, metadata, data';

export type EventColumns = [
  position: number,
  revision: number,
  version: number,
  id: string,
  stream: string,
  type: string,
  recorded_at: string,
  hash: string,
  metadata: string,
  data: string,
];

/** A control character that canonical JSON always escapes, so only an id, stream or type may hold it raw. */
export const SEPARATOR = '\x1f';
const ZERO = 0x30;
const COLUMNS = 10;

export function eventFromColumns(
  position: number,
  revision: number,
  version: number,
  id: string,
  stream: string,
  type: string,
  recorded_at: string,
  hash: string,
  metadata: string,
  data: string,
): RecordedEvent {
  return {
    position,
    id,
    stream,
    revision,
    type,
    version,
    data: JSON.parse(data),
    metadata: metadata === '{}' ? {} : JSON.parse(metadata),
    recorded_at,
    hash,
  };
}

/**
 * The event of an `EVENT_ROW`, or undefined when a text column held the separator (the row then holds more
 * than ten columns; never fewer, they are NOT NULL). Cut by `indexOf` rather than `split`, which builds an
 * array: this runs for every event read. `eventFromRowPlainly` is the same read spelled simply; a test holds
 * the two equal.
 */
export function eventFromRow(row: string): RecordedEvent | undefined {
  let from = 0;
  let to = row.indexOf(SEPARATOR);
  const position = digits(row, from, to);
  from = to + 1;
  to = row.indexOf(SEPARATOR, from);
  const revision = digits(row, from, to);
  from = to + 1;
  to = row.indexOf(SEPARATOR, from);
  const version = digits(row, from, to);
  from = to + 1;
  to = row.indexOf(SEPARATOR, from);
  const id = row.slice(from, to);
  from = to + 1;
  to = row.indexOf(SEPARATOR, from);
  const stream = row.slice(from, to);
  from = to + 1;
  to = row.indexOf(SEPARATOR, from);
  const type = row.slice(from, to);
  from = to + 1;
  to = row.indexOf(SEPARATOR, from);
  const recordedAt = row.slice(from, to);
  from = to + 1;
  to = row.indexOf(SEPARATOR, from);
  const hash = row.slice(from, to);
  from = to + 1;
  to = row.indexOf(SEPARATOR, from);
  const metadata = row.slice(from, to);
  const data = row.slice(to + 1);
  // A separator left in the last column means one of the columns before it held one.
  if (data.includes(SEPARATOR)) return undefined;
  return eventFromColumns(position, revision, version, id, stream, type, recordedAt, hash, metadata, data);
}

export function eventFromRowPlainly(row: string): RecordedEvent | undefined {
  const columns = row.split(SEPARATOR);
  if (columns.length !== COLUMNS) return undefined;
  const [position, revision, version, id, stream, type, recordedAt, hash, metadata, data] = columns;
  return eventFromColumns(
    Number(position),
    Number(revision),
    Number(version),
    id,
    stream,
    type,
    recordedAt,
    hash,
    metadata,
    data,
  );
}

/** The position a row starts with, whole whatever its text columns hold. */
export function positionOfRow(row: string): number {
  return Number(row.slice(0, row.indexOf(SEPARATOR)));
}

/**
 * The non-negative integer written in `row` between `from` and `to`: positions, revisions and versions
 * are never negative. Spares the short string `Number(row.slice(from, to))` would allocate for each.
 */
function digits(row: string, from: number, to: number): number {
  let value = 0;
  // The digit's value added, not its code then less ZERO: near 2^53 the sum in between would round.
  for (let at = from; at < to; at++) value = value * 10 + (row.charCodeAt(at) - ZERO);
  return value;
}
