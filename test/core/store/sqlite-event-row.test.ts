import Database from 'better-sqlite3';
import { expect } from 'chai';
import fc from 'fast-check';
import { canonicalJson } from '../../../core/events/canonical-json.js';
import { EVENT_ROW, eventFromRow, eventFromRowPlainly, positionOfRow } from '../../../core/store/sqlite-event-row.js';

// The rows are built by SQLite itself, with the store's own expression, from columns as the store writes them.
describe('an event row of the sqlite store, read by indexOf and read plainly', () => {
  let db: Database.Database;
  let row: Database.Statement<unknown[], string>;
  before(() => {
    db = new Database(':memory:');
    db.exec(`CREATE TABLE events (
      position INTEGER PRIMARY KEY, id TEXT NOT NULL, stream TEXT NOT NULL, revision INTEGER NOT NULL,
      type TEXT NOT NULL, version INTEGER NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL,
      recorded_at TEXT NOT NULL, hash TEXT NOT NULL) STRICT`);
    row = db.prepare<unknown[], string>(`SELECT ${EVENT_ROW} FROM events WHERE position = ?`).pluck();
  });
  after(() => db.close());

  interface Columns {
    position: number;
    id: string;
    stream: string;
    revision: number;
    type: string;
    version: number;
    data: unknown;
    metadata: Record<string, unknown>;
    recorded_at: string;
    hash: string;
  }

  function stored(columns: Columns): string {
    db.prepare('DELETE FROM events').run();
    db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      columns.position,
      columns.id,
      columns.stream,
      columns.revision,
      columns.type,
      columns.version,
      canonicalJson(columns.data),
      canonicalJson(columns.metadata),
      columns.recorded_at,
      columns.hash,
    );
    const text = row.get(columns.position);
    if (text === undefined) throw new Error('the row just written is not there');
    return text;
  }

  const plain: Columns = {
    position: 9_007_199_254_740_991,
    id: '0b3f3c9e-6d2a-4a53-9f55-2f1c1d0e7a10',
    stream: 'account-acc_1',
    revision: 41,
    type: 'CreditsDebited',
    version: 2,
    data: { amount_minor: 1250, merchant: { name: 'Bäckerei Schmidt € 🥨' }, note: 'a\u001fb', list: [1, null, true] },
    metadata: { request_id: 'req_1', mode: 'live' },
    recorded_at: '2026-11-22T10:15:30.123Z',
    hash: 'ab'.repeat(32),
  };

  it('reads every column of a row back as written, the numbers as numbers and the JSON parsed', () => {
    const text = stored(plain);
    const event = eventFromRow(text);
    expect(event).to.deep.equal({ ...plain });
    expect(Object.keys(event!)).to.deep.equal(Object.keys(eventFromRowPlainly(text)!));
    expect(positionOfRow(text)).to.equal(plain.position);
  });

  it('reads empty metadata as a new empty object each time', () => {
    const text = stored({ ...plain, metadata: {} });
    const [first, second] = [eventFromRow(text)!, eventFromRow(text)!];
    expect(first.metadata).to.deep.equal({});
    expect(first.metadata).to.not.equal(second.metadata);
  });

  it('hands a row whose id, stream or type holds the separator back as unreadable, its position whole', () => {
    for (const odd of [{ id: 'i\u001fd' }, { stream: '\u001f' }, { type: 'T\u001f\u001f' }]) {
      const text = stored({ ...plain, ...odd, position: 7 });
      expect(eventFromRow(text), JSON.stringify(odd)).to.equal(undefined);
      expect(eventFromRowPlainly(text), JSON.stringify(odd)).to.equal(undefined);
      expect(positionOfRow(text)).to.equal(7);
    }
  });

  it('reads any row as the plain read does', () => {
    // Text from every code point, and text often holding the separator, characters V8 stores in two bytes and JSON.
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom('a', '1', '\u001f', 'ä', '€', '🥨', '{}', '"', '\\') }),
    );
    const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);
    const columns = fc.record({
      position: fc.maxSafeNat().filter((n) => n > 0),
      id: text,
      stream: text,
      revision: fc.maxSafeNat(),
      type: text,
      version: fc.nat(),
      data: json,
      metadata: fc.dictionary(text, json),
      recorded_at: text,
      hash: text,
    });
    fc.assert(
      fc.property(columns, (written) => {
        const text = stored(written);
        expect(eventFromRow(text)).to.deep.equal(eventFromRowPlainly(text));
        expect(positionOfRow(text)).to.equal(written.position);
      }),
      { numRuns: 500 },
    );
  });
});
