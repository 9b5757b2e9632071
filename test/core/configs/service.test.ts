import { expect } from 'chai';
import { TestClock } from '../../../core/clock.js';
import { ConfigService } from '../../../core/configs/service.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { configEvents } from '../../../core/configs/config-documents.js';
import { overlayEvents } from '../../../core/configs/overlay-documents.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { ProblemError } from '../../../core/problems.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { configsProjection } from '../../../projections/configs/configs.js';
import { isLive, ownerDocuments } from '../../../projections/configs/configs-documents.js';
import { fixtureCatalog } from './fixture-catalog.js';

const live = { accountId: 'acc_1', mode: 'live' } as const;
const test = { accountId: 'acc_1', mode: 'test' } as const;
const config = { version: 1 as const, sector: 'cards', seed: 3, tables: [{ name: 'transactions', rows: 2000 }] };

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(ProblemError);
  return error as ProblemError;
}

describe('config service', () => {
  let store: MemoryEventStore;
  let service: ConfigService;
  beforeEach(() => {
    store = new MemoryEventStore();
    const registry = new EventRegistry([...configEvents, ...overlayEvents]);
    service = new ConfigService({
      catalog: fixtureCatalog,
      commands: new CommandHandler(store, registry),
      credits: { balance: async () => ({ credits_available: 3 }) },
      clock: new TestClock(),
    });
  });

  it('resolves inline JSON and inline YAML to the same normalised config and estimate', async () => {
    const fromJson = await service.resolve(live, { config });
    const fromYaml = await service.resolve(live, {
      config_yaml: 'version: 1\nsector: cards\nseed: 3\ntables:\n  - { name: transactions, rows: 2000 }\n',
    });
    expect(fromYaml).to.deep.equal(fromJson);
    expect(fromJson.config.output).to.deep.equal({
      format: 'ndjson',
      compression: 'none',
      referenced_tables: 'include',
      report: true,
    });
    // 2,000 transactions (4 credits) and the cards and merchants they reference (sized to fit), delivered too.
    expect(fromJson.estimate.tables.map((table) => table.name)).to.deep.equal([
      'transactions',
      'cards',
      'merchants',
      'cardholders',
    ]);
    expect(fromJson.estimate.credits).to.equal(7);
  });

  it('resolves a saved config with ordered overlays, visible only to its owner and mode', async () => {
    const saved = await service.savedConfigs.save(live, 'base', config);
    const bigger = await service.savedOverlays.save(live, 'bigger', { tables: [{ name: 'transactions', rows: 5000 }] });
    const seeded = await service.savedOverlays.save(live, 'seeded', {
      seed: 9,
      tables: [{ name: 'transactions', rows: 1000 }],
    });
    const resolved = await service.resolve(live, { config_id: saved.id, overlays: [bigger.id, seeded.id] });
    expect(resolved.config.seed).to.equal(9);
    expect(resolved.config.tables[0].rows).to.equal(1000);
    expect(resolved).to.include({ config_id: saved.id });
    expect((await problemOf(service.resolve(test, { config_id: saved.id }))).type.slug).to.equal('not-found');
    expect((await problemOf(service.resolve(live, { config_id: 'cfg_nope' }))).type.slug).to.equal('not-found');
  });

  it('refuses an invalid config with every issue, and a composition whose result is invalid', async () => {
    const refused = await problemOf(
      service.resolve(live, {
        config_yaml: 'version: 1\nsector: cards\ntables:\n  - { name: transactions, rows: -1 }\n',
      }),
    );
    expect(refused.type.slug).to.equal('invalid-config');
    expect(refused.extensions.errors).to.deep.equal([
      { pointer: '/tables/0/rows', message: 'must be >= 1', line: 4, column: 33 },
    ]);
    const saved = await service.savedConfigs.save(live, 'base', config);
    const broken = await service.savedOverlays.save(live, 'no tables', { tables: null });
    expect((await problemOf(service.resolve(live, { config_id: saved.id, overlays: [broken.id] }))).type.slug).to.equal(
      'invalid-config',
    );
  });

  it('estimates against the balance; test mode is always covered', async () => {
    expect(await service.estimate(live, config)).to.include({
      credits: 7,
      credits_available: 3,
      balance_covers: false,
      mode: 'live',
    });
    expect(await service.estimate(test, config)).to.include({ balance_covers: true, mode: 'test' });
  });

  it('saves, updates and deletes as events; the projection lists what is left, newest first', async () => {
    const first = await service.savedConfigs.save(live, 'first', config);
    const second = await service.savedConfigs.save(live, 'second', config);
    await service.savedConfigs.save(test, 'sandbox', config);
    const updated = await service.savedConfigs.update(live, first.id, { name: 'renamed' });
    expect(updated).to.include({ name: 'renamed', version: 2 });
    await service.savedConfigs.delete(live, second.id);
    expect((await problemOf(service.savedConfigs.get(live, second.id))).type.slug).to.equal('not-found');
    expect((await store.readStream(`config-${second.id}`)).map((event) => event.type)).to.deep.equal([
      'ConfigSaved',
      'ConfigDeleted',
    ]);

    const state = (await store.readAll()).reduce(configsProjection.apply, configsProjection.initialState());
    expect(ownerDocuments(state, live).map((document) => [document.name, isLive(document)])).to.deep.equal([
      ['second', false],
      ['renamed', true],
    ]);
    expect(ownerDocuments(state, test).map((document) => document.name)).to.deep.equal(['sandbox']);
    expect(configsProjection.fromJSON(JSON.parse(JSON.stringify(configsProjection.toJSON(state))))).to.deep.equal(
      state,
    );
  });

  it('applies racing updates one after the other (the stream revision is the lock), and a deleted config resolves no more', async () => {
    const saved = await service.savedConfigs.save(live, 'base', config);
    await Promise.all([
      service.savedConfigs.update(live, saved.id, { name: 'a' }),
      service.savedConfigs.update(live, saved.id, { content: { ...config, seed: 4 } }),
    ]);
    const current = await service.savedConfigs.get(live, saved.id);
    expect(current).to.include({ version: 3, name: 'a' });
    expect(current.content.seed).to.equal(4);
    expect((await store.readStream(`config-${saved.id}`)).map((event) => event.type)).to.deep.equal([
      'ConfigSaved',
      'ConfigUpdated',
      'ConfigUpdated',
    ]);
    await service.savedConfigs.delete(live, saved.id);
    expect((await problemOf(service.resolve(live, { config_id: saved.id }))).type.slug).to.equal('not-found');
  });

  it('composes an inline base with saved and inline overlays, validating the result', async () => {
    const overlay = await service.savedOverlays.save(live, 'csv', { output: { format: 'csv' } });
    const result = await service.compose(live, { base: config, overlays: [overlay.id, { seed: null }] });
    expect(result.sources).to.include({ '/sector': 'base', '/output/format': overlay.id });
    expect(result.validation.valid).to.equal(true);
    expect(
      (await problemOf(service.compose(live, { base: config, overlays: [{ tables: [{ rows: 5 }] }] }))).type.slug,
    ).to.equal('invalid-overlay');
  });
});
