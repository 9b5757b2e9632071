import { expect } from 'chai';
import type { Mode } from '../../../core/events/envelope.js';
import { openAccount, request, startTestApp } from '../../support/app.js';
import type { TestAccount, TestApp, TestResponse } from '../../support/app.js';
import { ExchangeChecker } from '../../core/jobs/support/documented.js';
import { cardsConfig, pollJob } from '../../core/jobs/support/http.js';

const ERRORS = 'https://errors.finsynth.dev';
const MODES = ['live', 'test'] as const;
const otherMode = (mode: Mode): Mode => (mode === 'live' ? 'test' : 'live');

/** What each mode's key made: one of every object a read endpoint shows. */
interface Made {
  job: string;
  config: string;
  overlay: string;
  key: string;
  quick: string;
}

describe('test and live modes kept apart on every read endpoint', function () {
  // A bound, not an assertion: a job runs in each mode, and the pool's workers start slowly on a loaded machine.
  this.timeout(120_000);
  let app: TestApp;
  let account: TestAccount;
  let checker: ExchangeChecker;
  const made = {} as Record<Mode, Made>;

  /** A GET with the key of `mode`, checked against the OpenAPI document (status, schema, problem slug). */
  async function read(mode: Mode, path: string, template = path): Promise<TestResponse> {
    return checker.check('GET', template, await request(app, 'GET', path, { key: account[mode] }));
  }

  async function make(mode: Mode): Promise<Made> {
    const key = account[mode];
    const post = async (path: string, body: unknown, status: number) => {
      const response = await request(app, 'POST', path, { key, body });
      expect(response.status, `${mode} POST ${path}: ${response.text}`).to.equal(status);
      return response;
    };
    const quick = await post('/v1/generate/quick', { sector: 'cards', tables: [{ name: 'merchants', rows: 10 }] }, 200);
    const job = (await post('/v1/jobs', { config: cardsConfig({ merchants: 50 }, { format: 'csv' }) }, 202)).body.id;
    expect((await pollJob(app, key, job, ['succeeded', 'failed', 'cancelled'])).body.state).to.equal('succeeded');
    const saved = { name: `${mode} config`, config: cardsConfig({ merchants: 5 }, { format: 'csv' }) };
    const config = (await post('/v1/configs', saved, 201)).body.id;
    const overlay = (await post('/v1/overlays', { name: `${mode} overlay`, overlay: { seed: 7 } }, 201)).body.id;
    const issued = (await post('/v1/keys', { name: `${mode} key`, scopes: ['usage:read'] }, 201)).body.id;
    return { job, config, overlay, key: issued, quick: quick.headers.get('request-id')! };
  }

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app, { credits: 1000 });
    checker = new ExchangeChecker((await request(app, 'GET', '/v1/openapi.json')).body);
    for (const mode of MODES) made[mode] = await make(mode);
  });
  after(() => app?.close());

  for (const mode of MODES) {
    const other = otherMode(mode);

    it(`a ${mode} key lists its own mode's jobs, configs, overlays and keys, never the other's`, async () => {
      const lists = [
        ['/v1/jobs', 'job'],
        ['/v1/configs', 'config'],
        ['/v1/overlays', 'overlay'],
        ['/v1/keys', 'key'],
      ] as const;
      for (const [path, id] of lists) {
        const listed = await read(mode, `${path}?limit=100`, path);
        expect(listed.status, path).to.equal(200);
        const items = listed.body.data as { id: string; mode: Mode }[];
        expect(
          items.map((item) => item.id),
          path,
        )
          .to.include(made[mode][id])
          .and.not.include(made[other][id]);
        expect(new Set(items.map((item) => item.mode)), path).to.deep.equal(new Set([mode]));
      }
    });

    it(`a ${mode} key reads its own jobs, results, configs and overlays; the other mode's are 404`, async () => {
      const paths = (of: Made) =>
        [
          [`/v1/jobs/${of.job}`, '/v1/jobs/{id}', 'job-not-found'],
          [`/v1/jobs/${of.job}/results`, '/v1/jobs/{id}/results', 'job-not-found'],
          [`/v1/jobs/${of.job}/results/merchants`, '/v1/jobs/{id}/results/{table}', 'job-not-found'],
          [`/v1/configs/${of.config}`, '/v1/configs/{id}', 'not-found'],
          [`/v1/overlays/${of.overlay}`, '/v1/overlays/{id}', 'not-found'],
        ] as const;
      for (const [path, template] of paths(made[mode])) {
        expect((await read(mode, path, template)).status, path).to.equal(200);
      }
      for (const [path, template, slug] of paths(made[other])) {
        const refused = await read(mode, path, template);
        expect(refused.status, path).to.equal(404);
        expect(refused.body.type, path).to.equal(`${ERRORS}/${slug}`);
      }
    });

    it(`a ${mode} key reads its own mode's usage by default`, async () => {
      const records = await read(mode, '/v1/usage/records');
      expect(records.status).to.equal(200);
      const listed = records.body.data as { reference: string; mode: Mode }[];
      expect(listed.map((record) => record.reference)).to.have.members([made[mode].quick, made[mode].job]);
      expect(new Set(listed.map((record) => record.mode))).to.deep.equal(new Set([mode]));
      const summary = await read(mode, '/v1/usage');
      expect(summary.status).to.equal(200);
      expect(summary.body).to.include({ mode, operations: 2 });
      expect(summary.body.by_key.map((entry: { key_id: string }) => entry.key_id)).to.have.length(1);
    });
  }

  it("a live key reads its account's test usage when it asks for it (?mode=test), as a test key sees it", async () => {
    for (const path of ['/v1/usage', '/v1/usage/records']) {
      const asked = await read('live', `${path}?mode=test`, path);
      const own = await read('test', `${path}?mode=test`, path);
      expect(asked.status, path).to.equal(200);
      expect(asked.body, path).to.deep.equal(own.body);
    }
    expect((await read('live', '/v1/usage?mode=test', '/v1/usage')).body).to.include({ mode: 'test', operations: 2 });
    expect((await read('live', '/v1/usage?mode=live', '/v1/usage')).body).to.include({ mode: 'live', operations: 2 });
  });

  it('a test key asking for live usage is refused with 403 live-key-required', async () => {
    for (const path of ['/v1/usage', '/v1/usage/records']) {
      const refused = await read('test', `${path}?mode=live`, path);
      expect(refused.status, path).to.equal(403);
      expect(refused.body.type, path).to.equal(`${ERRORS}/live-key-required`);
    }
  });

  it('billing and the credit audit are live money: live keys read them, test keys get 403', async () => {
    const money = ['/v1/billing/subscription', '/v1/billing/credits', '/v1/billing/history', '/v1/audit/credits'];
    for (const path of money) {
      expect((await read('live', path)).status, path).to.equal(200);
      const refused = await read('test', path);
      expect(refused.status, path).to.equal(403);
      expect(refused.body.type, path).to.equal(`${ERRORS}/live-key-required`);
    }
    // The live balance counts the live work only: a quick generation and a job.
    const { body } = await read('live', '/v1/audit/credits?limit=100', '/v1/audit/credits');
    const types = (body.data as { type: string }[]).map((movement) => movement.type);
    const spent = types.filter((type) => type === 'CreditsDebited' || type === 'CreditsSettled');
    expect(spent).to.have.length(2);
  });

  it('the catalog and the config schema, which belong to no mode, answer both keys alike', async () => {
    const shared = [
      ['/v1/catalog', '/v1/catalog'],
      ['/v1/catalog/types', '/v1/catalog/types'],
      ['/v1/catalog/sectors/cards', '/v1/catalog/sectors/{sector}'],
      ['/v1/catalog/sectors/cards/tables/merchants', '/v1/catalog/sectors/{sector}/tables/{table}'],
      ['/v1/configs/schema', '/v1/configs/schema'],
    ];
    for (const [path, template] of shared) {
      const [live, test] = [await read('live', path, template), await read('test', path, template)];
      expect(live.status, path).to.equal(200);
      expect(test.body, path).to.deep.equal(live.body);
    }
  });

  it('documents the mode parameter where a read takes one', async () => {
    const { body: document } = await request(app, 'GET', '/v1/openapi.json');
    for (const path of ['/v1/usage', '/v1/usage/records']) {
      const { parameters } = document.paths[path].get;
      const parameter = parameters.find((candidate: { name: string }) => candidate.name === 'mode');
      expect(parameter, path).to.deep.include({ in: 'query', required: false });
      expect(parameter.schema.enum, path).to.deep.equal(['live', 'test']);
      expect(document.paths[path].get.responses['403']['x-problem-slugs'], path).to.include('live-key-required');
    }
  });
});
