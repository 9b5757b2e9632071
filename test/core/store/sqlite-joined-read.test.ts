import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { SqliteEventStore } from '../../../core/store/sqlite-store.js';

// The sqlite store reads a row's text columns joined by the unit separator (U+001F) and splits them
// in JavaScript; canonical JSON escapes that character, but a stream, type or id may hold it raw.
describe('the sqlite store, reading text that holds the character its reads join columns with', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'finsynth-joined-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands every column back as written, in read-all, stream reads and reads as stored', async () => {
    const stream = 'odd\u001fstream';
    await store.append('plain', [{ type: 'Noted', data: { n: 1 } }]);
    await store.append(stream, [
      { id: 'id\u001f1', type: 'Odd\u001fType', data: { text: 'a\u001fb' }, metadata: { request_id: 'r\u001f' } },
    ]);

    const [plain, odd] = await store.readAll();
    expect(plain).to.include({ stream: 'plain', type: 'Noted', revision: 0 });
    expect(odd).to.include({ id: 'id\u001f1', stream, type: 'Odd\u001fType', revision: 0, position: 2 });
    expect(odd.data).to.deep.equal({ text: 'a\u001fb' });
    expect(odd.metadata).to.deep.equal({ request_id: 'r\u001f' });
    expect(await store.readStream(stream)).to.deep.equal([odd]);

    const [, stored] = await store.readAllStored();
    expect(stored).to.deep.include({
      id: 'id\u001f1',
      stream,
      type: 'Odd\u001fType',
      data: '{"text":"a\\u001fb"}',
      hash: odd.hash,
    });
    expect(await store.verifyStream(stream)).to.include({ intact: true });
  });
});
