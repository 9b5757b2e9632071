import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { RecordedEvent } from '../../../core/events/envelope.js';
import { SqliteEventStore } from '../../../core/store/sqlite-store.js';

const child = fileURLToPath(new URL('./append-in-child.ts', import.meta.url));

describe('sqlite store shared by processes (the CLI writing while the server runs)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'finsynth-processes-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a subscription sees every event of two other processes and this one, exactly once, in position order', async function () {
    this.timeout(60_000); // two Node processes start, each loading TypeScript through tsx
    const file = join(dir, 'events.db');
    const store = new SqliteEventStore(file);
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeToAll((event) => {
      seen.push(event);
    });

    const appendInChild = (stream: string) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', child, file, stream, '40']);
    await Promise.all([
      appendInChild('cli-a'),
      appendInChild('cli-b'),
      (async () => {
        for (let n = 0; n < 40; n += 1) await store.append('server', [{ type: 'Noted', data: { n } }]);
      })(),
    ]);
    const deadline = Date.now() + 10_000;
    while (seen.length < 120 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await subscription.close();

    expect(seen.map((e) => e.position)).to.deep.equal(Array.from({ length: 120 }, (_, i) => i + 1));
    for (const stream of ['cli-a', 'cli-b', 'server']) {
      expect(seen.filter((e) => e.stream === stream).map((e) => (e.data as { n: number }).n)).to.deep.equal(
        Array.from({ length: 40 }, (_, n) => n),
      );
      expect((await store.verifyStream(stream)).intact).to.equal(true);
    }
    await store.close();
  });
});
