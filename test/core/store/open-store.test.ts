import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../core/settings/settings.js';
import { openEventStore } from '../../../core/store/open-store.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../../support/external-services.js';

describe('openEventStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'finsynth-open-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('opens the embedded sqlite store at <data dir>/events.db, creating the directory, and keeps what was written', async () => {
    const config = loadConfig({}, { dataDir: join(dir, 'nested', 'data') });
    const store = await openEventStore(config);
    expect(store.name).to.equal('sqlite');
    await store.append('account-1', [{ type: 'Noted', data: { n: 1 } }]);
    await store.close();
    expect(existsSync(join(dir, 'nested', 'data', 'events.db'))).to.equal(true);

    const reopened = await openEventStore(config);
    expect((await reopened.readStream('account-1')).map((e) => e.data)).to.deep.equal([{ n: 1 }]);
    await reopened.close();
  });

  it('refuses a configuration that names two servers', async () => {
    const config = loadConfig(
      {},
      { dataDir: dir, postgresUrl: 'postgres://localhost/x', kurrentdbUrl: 'kurrentdb://localhost:2113' },
    );
    const error = await openEventStore(config).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(String(error)).to.match(/not both/);
  });

  describe('with FINSYNTH_POSTGRES_URL', () => {
    let url: string;
    const schema = uniquePostgresSchema('open');
    before(async function () {
      url = await requirePostgres(this);
    });
    after(async () => {
      if (url) await dropPostgresSchema(url, schema);
    });

    it('opens postgres, migrating the schema idempotently', async () => {
      const config = loadConfig({}, { dataDir: dir, postgresUrl: url });
      const first = await openEventStore(config, { postgresSchema: schema });
      const second = await openEventStore(config, { postgresSchema: schema });
      expect(first.name).to.equal('postgres');
      const { position } = await first.append('account-1', [{ type: 'Noted', data: { n: 1 } }]);
      expect((await second.readAll()).map((e) => e.position)).to.deep.equal([position]);
      await first.close();
      await second.close();
      expect(existsSync(join(dir, 'events.db'))).to.equal(false);
    });
  });
});
