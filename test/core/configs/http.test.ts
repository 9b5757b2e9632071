import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MAX_YAML_BYTES } from '../../../core/configs/yaml-source.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

const ERRORS = 'https://errors.finsynth.dev';
const YAML = `version: 1
sector: cards
seed: 42
tables:
  - name: transactions
    rows: 2500
    columns:
      amount: { distribution: lognormal, mu: 3.2, sigma: 1.1 }
    options: { fraud_rate: 0.01 }
`;
const config = { version: 1, sector: 'cards', seed: 1, tables: [{ name: 'cards', rows: 100 }] };

describe('configuration API over HTTP', () => {
  let app: TestApp;
  let account: TestAccount;
  const yaml = (path: string, body: string, key = account.live, type = 'application/yaml') =>
    request(app, 'POST', path, { key, body, headers: { 'content-type': type } });

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app, { credits: 3 });
  });
  after(() => app.close());

  it('serves the config JSON Schema, also inside the OpenAPI document', async () => {
    const schema = await request(app, 'GET', '/v1/configs/schema', { key: account.test });
    expect(schema.status).to.equal(200);
    expect(schema.headers.get('content-type')).to.match(/^application\/schema\+json/);
    const body = JSON.parse(schema.text);
    expect(body).to.include({ $id: 'https://finsynth.dev/schemas/generation-config.json' });
    const openapi = JSON.parse((await request(app, 'GET', '/v1/openapi.json', { key: account.test })).text);
    expect(
      openapi.paths['/v1/configs/schema'].get.responses['200'].content['application/schema+json'].schema.const,
    ).to.deep.equal(body);
    expect(Object.keys(openapi.paths)).to.include.members([
      '/v1/configs/raw',
      '/v1/configs/compose',
      '/v1/overlays/{id}',
    ]);
  });

  it('POST /v1/configs/raw answers the normal form, validation and estimate (application/yaml and text/yaml)', async () => {
    for (const type of ['application/yaml', 'text/yaml']) {
      const response = await yaml('/v1/configs/raw', YAML, account.live, type);
      expect(response.status).to.equal(200);
      expect(response.body.valid).to.equal(true);
      expect(response.body.errors).to.deep.equal([]);
      expect(response.body.config).to.deep.include({
        version: 1,
        sector: 'cards',
        seed: 42,
        locale: 'en_GB',
        output: { format: 'ndjson', compression: 'none', referenced_tables: 'include', report: true },
      });
      // 2,500 transactions (5 credits), and the cards, merchants and cardholders they reference (1 credit each).
      const tables: { name: string; rows: number }[] = response.body.estimate.tables;
      expect(tables.map((table) => table.name)).to.deep.equal(['transactions', 'cards', 'merchants', 'cardholders']);
      expect(response.body.estimate).to.deep.include({
        rows: tables.reduce((sum, table) => sum + table.rows, 0),
        credits: 8,
        mode: 'live',
        credits_available: 3,
        balance_covers: false,
      });
    }
    const sandbox = await yaml('/v1/configs/raw', YAML, account.test);
    expect(sandbox.body.estimate).to.include({ mode: 'test', balance_covers: true });
  });

  it('POST /v1/configs/raw reports an invalid config with lines and columns', async () => {
    const response = await yaml(
      '/v1/configs/raw',
      'version: 1\nsector: cards\ntables:\n  - name: transactions\n    rows: lots\n',
    );
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      valid: false,
      errors: [{ pointer: '/tables/0/rows', message: 'must be integer', line: 5, column: 11 }],
      config: null,
      estimate: null,
    });
  });

  it('refuses hostile or unreadable YAML with clear problems', async () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x]']
      .concat(
        ['b', 'c', 'd', 'e', 'f'].map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcde'[i]}`).join(', ')}]`),
      )
      .join('\n');
    const cases: [string, number, string][] = [
      [laughs, 400, 'invalid-yaml'],
      ['version: !!python/object:os.system 1\n', 400, 'invalid-yaml'],
      ['version: 1\n---\nversion: 1\n', 400, 'invalid-yaml'],
      ['tables: [\n', 400, 'invalid-yaml'],
      [`# ${'x'.repeat(1024 * 1024)}\n`, 413, 'yaml-too-large'],
      [`# ${'x'.repeat(4 * 1024 * 1024)}\n`, 413, 'payload-too-large'],
    ];
    for (const [body, status, slug] of cases) {
      const response = await yaml('/v1/configs/raw', body);
      expect(response.status, slug).to.equal(status);
      expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(response.body).to.include({ type: `${ERRORS}/${slug}`, status, instance: '/v1/configs/raw' });
    }
    const tag = await yaml('/v1/configs/raw', 'version: 1\nsector: !secret cards\n');
    expect(tag.body.errors[0]).to.include({ line: 2, column: 9 });
    // Line 5 is `e: &e [*d, …`: its first alias brings the total past the limit.
    const exploding = await yaml('/v1/configs/raw', laughs);
    expect(exploding.body.errors).to.deep.equal([
      {
        pointer: '',
        message: 'the aliases expand to 15670 nodes up to this one; at most 10000 are allowed',
        line: 5,
        column: 8,
      },
    ]);
  });

  it('refuses a YAML config over 1 MiB given as a JSON string with 413 yaml-too-large, wherever one is taken', async () => {
    // Newlines and quotes: the JSON string is larger than the YAML, yet the YAML's size is what is refused.
    const large = `version: 1\n${'# "x"\n'.repeat(MAX_YAML_BYTES / 6)}`;
    expect(Buffer.byteLength(large)).to.be.above(MAX_YAML_BYTES);
    const cases: [string, string, Record<string, string>][] = [
      ['POST', '/v1/configs/validate', { config_yaml: large }],
      ['POST', '/v1/configs/estimate', { config_yaml: large }],
      ['POST', '/v1/configs', { name: 'large', config_yaml: large }],
      ['POST', '/v1/overlays', { name: 'large', overlay_yaml: large }],
    ];
    for (const [method, path, body] of cases) {
      const response = await request(app, method, path, { key: account.test, body });
      expect(response.status, path).to.equal(413);
      expect(response.body, path).to.include({ type: `${ERRORS}/yaml-too-large`, status: 413, instance: path });
      expect(response.body.detail, path).to.equal(
        `the YAML is ${Buffer.byteLength(large)} bytes; at most ${MAX_YAML_BYTES} are accepted`,
      );
    }
  });

  it('POST /v1/configs/raw?save=true saves a valid config under its name, and refuses to save an invalid one', async () => {
    const saved = await yaml('/v1/configs/raw?save=true&name=daily%20cards', YAML);
    expect(saved.status).to.equal(201);
    expect(saved.body.saved).to.include({ name: 'daily cards', mode: 'live', version: 1 });
    expect(saved.body.saved.config).to.deep.equal(saved.body.config);
    const fetched = await request(app, 'GET', `/v1/configs/${saved.body.saved.id}`, { key: account.live });
    expect(fetched.body).to.deep.equal(saved.body.saved);

    expect((await yaml('/v1/configs/raw?save=true', YAML)).status).to.equal(400);
    const invalid = await yaml('/v1/configs/raw?save=true&name=x', 'version: 1\nsector: cards\ntables: []\n');
    expect(invalid.status).to.equal(400);
    expect(invalid.body.type).to.equal(`${ERRORS}/invalid-config`);
  });

  it('validates JSON, YAML and saved configs; estimates them against the balance', async () => {
    const fromJson = await request(app, 'POST', '/v1/configs/validate', { key: account.live, body: { config } });
    expect(fromJson.body).to.deep.include({ valid: true, errors: [] });
    const fromYaml = await request(app, 'POST', '/v1/configs/validate', {
      key: account.live,
      body: { config_yaml: 'version: 1\nsector: cards\ntables: [{ name: loans, rows: 1 }]\n' },
    });
    expect(fromYaml.body.valid).to.equal(false);
    expect(fromYaml.body.errors[0]).to.include({ pointer: '/tables/0/name', line: 3, column: 18 });
    const yamlBody = await yaml('/v1/configs/validate', YAML);
    expect(yamlBody.body.valid).to.equal(true);

    const estimate = await request(app, 'POST', '/v1/configs/estimate', { key: account.live, body: { config } });
    expect(estimate.status).to.equal(200);
    // The cards reference their cardholders, which the config does not list: they are delivered and priced too.
    expect(estimate.body).to.deep.equal({
      rows: 167,
      credits: 2,
      tables: [
        { name: 'cards', rows: 100, credits_per_1000_rows: 1, credits: 1 },
        { name: 'cardholders', rows: 67, credits_per_1000_rows: 1, credits: 1 },
      ],
      mode: 'live',
      credits_available: 3,
      balance_covers: true,
    });
    const refused = await request(app, 'POST', '/v1/configs/estimate', {
      key: account.live,
      body: { config: { ...config, sector: 'crypto' } },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.errors).to.have.length(1);
    expect(refused.body.errors[0]).to.include({ pointer: '/sector' });
    expect(refused.body.errors[0].message).to.match(/^unknown sector "crypto"; known: .*cards/);
    // A table named twice is refused at the repeated name, here as by quick generation and jobs (the same rules).
    const twice = await request(app, 'POST', '/v1/configs/estimate', {
      key: account.live,
      body: {
        config: {
          ...config,
          tables: [
            { name: 'cards', rows: 1 },
            { name: 'cards', rows: 2 },
          ],
        },
      },
    });
    expect(twice.status).to.equal(400);
    expect(twice.body.errors).to.have.length(1);
    expect(twice.body.errors[0]).to.include({
      pointer: '/tables/1/name',
      message: 'the table "cards" is listed twice',
    });
    const neither = await request(app, 'POST', '/v1/configs/validate', { key: account.live, body: { something: 1 } });
    expect(neither.status).to.equal(400);
  });

  it('saves, lists with cursors, gets, updates and deletes configs, apart per mode', async () => {
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      const saved = await request(app, 'POST', '/v1/configs', { key: account.test, body: { name, config } });
      expect(saved.status).to.equal(201);
      ids.push(saved.body.id);
    }
    const first = await request(app, 'GET', '/v1/configs?limit=2', { key: account.test });
    expect(first.body.data.map((c: { name: string }) => c.name)).to.deep.equal(['three', 'two']);
    expect(first.body.has_more).to.equal(true);
    const second = await request(app, 'GET', `/v1/configs?limit=2&cursor=${first.body.next_cursor}`, {
      key: account.test,
    });
    expect(second.body).to.deep.include({ has_more: false, next_cursor: null });
    expect(second.body.data.map((c: { name: string }) => c.name)).to.deep.equal(['one']);

    expect((await request(app, 'GET', `/v1/configs/${ids[0]}`, { key: account.live })).status).to.equal(404);
    const live = await request(app, 'GET', '/v1/configs', { key: account.live });
    expect(live.body.data.map((c: { id: string }) => c.id)).to.not.include.members(ids);

    const updated = await request(app, 'POST', `/v1/configs/${ids[0]}`, {
      key: account.test,
      body: { name: 'renamed', config_yaml: 'version: 1\nsector: cards\ntables: [{ name: merchants, rows: 7 }]\n' },
    });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ name: 'renamed', version: 2 });
    expect(updated.body.config.tables).to.deep.equal([{ name: 'merchants', rows: 7, options: {} }]);

    const deleted = await request(app, 'DELETE', `/v1/configs/${ids[1]}`, { key: account.test });
    expect(deleted.body).to.deep.equal({ id: ids[1], deleted: true });
    expect((await request(app, 'GET', `/v1/configs/${ids[1]}`, { key: account.test })).status).to.equal(404);
    expect((await request(app, 'DELETE', `/v1/configs/${ids[1]}`, { key: account.test })).status).to.equal(404);
    const after = await request(app, 'GET', '/v1/configs', { key: account.test });
    expect(after.body.data.map((c: { name: string }) => c.name)).to.deep.equal(['three', 'renamed']);
    expect(first.body.data[1].id, "the first page's cursor is the config deleted since").to.equal(ids[1]);
    const afterDeleted = await request(app, 'GET', `/v1/configs?limit=2&cursor=${first.body.next_cursor}`, {
      key: account.test,
    });
    expect(afterDeleted.status).to.equal(200);
    expect(afterDeleted.body.data.map((c: { name: string }) => c.name)).to.deep.equal(['renamed']);
    const history = await app.services.store.readStream(`config-${ids[1]}`);
    expect(history.map((event) => event.type)).to.deep.equal(['ConfigSaved', 'ConfigDeleted']);
  });

  it("saves overlays and composes a config from a saved base and ordered overlays, naming each field's layer", async () => {
    const base = await request(app, 'POST', '/v1/configs', {
      key: account.live,
      body: { name: 'base', config: { ...config, output: { format: 'csv' } } },
    });
    const bigger = await request(app, 'POST', '/v1/overlays', {
      key: account.live,
      body: {
        name: 'bigger',
        overlay: {
          tables: [
            { name: 'cards', rows: 500 },
            { name: 'merchants', rows: 20 },
          ],
        },
      },
    });
    const noSeed = await request(app, 'POST', '/v1/overlays', {
      key: account.live,
      body: { name: 'no seed', overlay_yaml: 'seed: null\noutput: { compression: gzip }\n' },
    });
    expect(bigger.status).to.equal(201);
    expect(noSeed.body.overlay).to.deep.equal({ seed: null, output: { compression: 'gzip' } });

    const composed = await request(app, 'POST', '/v1/configs/compose', {
      key: account.live,
      body: { base: base.body.id, overlays: [bigger.body.id, noSeed.body.id, { locale: 'de' }] },
    });
    expect(composed.status, JSON.stringify(composed.body)).to.equal(200);
    expect(composed.body.composed).to.deep.equal({
      version: 1,
      sector: 'cards',
      locale: 'de',
      as_of: '2025-12-31',
      tables: [
        { name: 'cards', rows: 500, options: {} },
        { name: 'merchants', rows: 20 },
      ],
      output: { format: 'csv', compression: 'gzip', referenced_tables: 'include', report: true },
    });
    expect(composed.body.sources).to.deep.equal({
      '/version': base.body.id,
      '/sector': base.body.id,
      '/locale': 'overlays[2]',
      '/as_of': base.body.id,
      '/tables/0/name': base.body.id,
      '/tables/0/rows': bigger.body.id,
      '/tables/1/name': bigger.body.id,
      '/tables/1/rows': bigger.body.id,
      '/output/format': base.body.id,
      '/output/referenced_tables': base.body.id,
      '/output/report': base.body.id,
      '/output/compression': noSeed.body.id,
    });
    expect(composed.body.removed).to.deep.equal([{ pointer: '/seed', layer: noSeed.body.id }]);
    expect(composed.body.valid).to.equal(true);
    // 500 cards and 20 merchants, and the cardholders the cards reference.
    expect(composed.body.estimate.tables.map((table: { name: string }) => table.name)).to.deep.equal([
      'cards',
      'merchants',
      'cardholders',
    ]);
    expect(composed.body.estimate).to.include({ rows: 854, credits: 3 });

    const listed = await request(app, 'GET', '/v1/overlays', { key: account.live });
    expect(listed.body.data.map((o: { name: string }) => o.name)).to.deep.equal(['no seed', 'bigger']);
    expect((await request(app, 'GET', `/v1/overlays/${bigger.body.id}`, { key: account.test })).status).to.equal(404);
    const badOverlay = await request(app, 'POST', '/v1/overlays', {
      key: account.live,
      body: { name: 'bad', overlay: { tables: [{ rows: 5 }] } },
    });
    expect(badOverlay.status).to.equal(400);
    expect(badOverlay.body.type).to.equal(`${ERRORS}/invalid-overlay`);
    expect((await request(app, 'DELETE', `/v1/overlays/${bigger.body.id}`, { key: account.live })).body).to.deep.equal({
      id: bigger.body.id,
      deleted: true,
    });
  });

  it('an overlay removes a table with `remove: true`: compose says which layer removed it, and estimates without it', async () => {
    const twoTables = {
      ...config,
      tables: [
        { name: 'cards', rows: 100 },
        { name: 'merchants', rows: 1000 },
      ],
    };
    const base = await request(app, 'POST', '/v1/configs', {
      key: account.test,
      body: { name: 'two tables', config: twoTables },
    });
    const dropped = await request(app, 'POST', '/v1/overlays', {
      key: account.test,
      body: { name: 'no merchants', overlay_yaml: 'tables:\n  - name: merchants\n    remove: true\n' },
    });
    expect(dropped.status, JSON.stringify(dropped.body)).to.equal(201);
    expect(dropped.body.overlay).to.deep.equal({ tables: [{ name: 'merchants', remove: true }] });

    const composed = await request(app, 'POST', '/v1/configs/compose', {
      key: account.test,
      body: { base: base.body.id, overlays: [dropped.body.id] },
    });
    expect(composed.status).to.equal(200);
    expect(composed.body.composed.tables).to.deep.equal([{ name: 'cards', rows: 100, options: {} }]);
    expect(composed.body.removed).to.deep.equal([{ pointer: '/tables', name: 'merchants', layer: dropped.body.id }]);
    expect(Object.keys(composed.body.sources).some((pointer) => pointer.startsWith('/tables/1'))).to.equal(false);
    expect(composed.body.valid).to.equal(true);

    const estimate = await request(app, 'POST', '/v1/configs/estimate', {
      key: account.test,
      body: { config_id: base.body.id, overlays: [dropped.body.id] },
    });
    // Without merchants; with the cardholders that the cards reference.
    expect(estimate.body.tables.map((table: { name: string }) => table.name)).to.deep.equal(['cards', 'cardholders']);

    const contradictory = await request(app, 'POST', '/v1/overlays', {
      key: account.test,
      body: { name: 'both', overlay: { tables: [{ name: 'merchants', remove: true, rows: 5 }] } },
    });
    expect(contradictory.status).to.equal(400);
    expect(contradictory.body.type).to.equal(`${ERRORS}/invalid-overlay`);
    expect(contradictory.body.errors).to.deep.equal([
      { pointer: '/tables/0/rows', message: 'not allowed together with "remove"', line: 1, column: 71 },
    ]);
    const schema = JSON.parse((await request(app, 'GET', '/v1/openapi.json', { key: account.test })).text);
    const published = JSON.stringify(
      schema.paths['/v1/overlays/{id}'].get.responses['200'].content['application/json'].schema,
    );
    expect(published).to.contain('"remove":{"const":true');
  });

  it('needs configs:write to save, and configs:read to read', async () => {
    const readOnly = await request(app, 'POST', '/v1/keys', { key: account.live, body: { scopes: ['configs:read'] } });
    const refused = await yaml('/v1/configs/raw?save=true&name=x', YAML, readOnly.body.secret);
    expect(refused.status).to.equal(403);
    expect(refused.body.required_scope).to.equal('configs:write');
    expect((await yaml('/v1/configs/raw', YAML, readOnly.body.secret)).status).to.equal(200);
  });
});

describe('saved configs and overlays over HTTP: members in schema order in every answer', () => {
  // Members given out of order, as a client may send them: every answer shows them in schema order.
  const scrambled = {
    tables: [
      {
        options: { fraud_rate: 0.01 },
        columns: { amount: { sigma: 1.1, mu: 3.2, distribution: 'lognormal' } },
        rows: 10,
        name: 'transactions',
      },
    ],
    output: { compression: 'gzip', format: 'csv' },
    seed: 5,
    sector: 'cards',
    version: 1,
  };
  const inOrder = JSON.stringify({
    version: 1,
    sector: 'cards',
    seed: 5,
    locale: 'en_GB',
    as_of: '2025-12-31',
    tables: [
      {
        name: 'transactions',
        rows: 10,
        columns: { amount: { distribution: 'lognormal', mu: 3.2, sigma: 1.1 } },
        options: { fraud_rate: 0.01 },
      },
    ],
    output: { format: 'csv', compression: 'gzip', referenced_tables: 'include', report: true },
  });
  const overlayInOrder = JSON.stringify({ seed: null, tables: [{ name: 'cards', rows: 5 }] });
  const everyAnswer = {
    config: inOrder,
    listedConfig: inOrder,
    overlay: overlayInOrder,
    listedOverlay: overlayInOrder,
  };
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'finsynth-configs-order-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  /** Each answer's content as JSON text, whose member order is what is asserted. */
  async function answers(app: TestApp, key: string, ids: { config: string; overlay: string }) {
    const get = async (path: string) => (await request(app, 'GET', path, { key })).body;
    return {
      config: JSON.stringify((await get(`/v1/configs/${ids.config}`)).config),
      listedConfig: JSON.stringify((await get('/v1/configs')).data[0].config),
      overlay: JSON.stringify((await get(`/v1/overlays/${ids.overlay}`)).overlay),
      listedOverlay: JSON.stringify((await get('/v1/overlays')).data[0].overlay),
    };
  }

  it('saved, read, listed, and read again after a restart (the store keeps canonical JSON)', async () => {
    let app = await startTestApp({ dataDir });
    let ids: { config: string; overlay: string };
    let account: TestAccount;
    try {
      account = await openAccount(app);
      const saved = await request(app, 'POST', '/v1/configs', {
        key: account.test,
        body: { name: 'scrambled', config: scrambled },
      });
      const overlay = await request(app, 'POST', '/v1/overlays', {
        key: account.test,
        body: { name: 'scrambled', overlay: { tables: [{ rows: 5, name: 'cards' }], seed: null } },
      });
      expect(saved.status, saved.text).to.equal(201);
      expect(overlay.status, overlay.text).to.equal(201);
      expect(JSON.stringify(saved.body.config)).to.equal(inOrder);
      expect(JSON.stringify(overlay.body.overlay)).to.equal(overlayInOrder);
      ids = { config: saved.body.id, overlay: overlay.body.id };
      expect(await answers(app, account.test, ids)).to.deep.equal(everyAnswer);
    } finally {
      await app.close();
    }
    app = await startTestApp({ dataDir });
    try {
      expect(await answers(app, account.test, ids), 'after a restart').to.deep.equal(everyAnswer);
    } finally {
      await app.close();
    }
  });
});
