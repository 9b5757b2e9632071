import { expect } from 'chai';
import { DocumentedAnswers, operationsOf, type OpenApiDocument } from './support/documented.js';
import { Exchanges } from './support/exchange.js';
import { Random, runSeed } from './support/random.js';
import { EXAMPLE_PACK, startServerProcess, type ServerProcess } from './support/server-process.js';
import { Tally } from './support/tally.js';
import { jsonRequest, WireClient } from './support/wire.js';
import {
  ACCEPTS,
  catalog,
  configs,
  job,
  keys,
  quick,
  reads,
  service,
  type CatalogTable,
  type SoakContext,
} from './soak/scenarios.js';

/** Requests of the run (a scenario under way finishes past it), clients sending at once, the seed of every choice. */
const REQUESTS = Number(process.env.SOAK_REQUESTS ?? 3000);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 6);
const SEED = runSeed('SOAK_SEED');
/**
 * RSS after the run may exceed RSS before it (taken after a warm-up that loaded every pack in every
 * worker) by this factor plus this margin: garbage not yet collected and allocator slack come and go;
 * a leak that keeps a tenth of a megabyte per request (a response body, a request's state) does not fit.
 */
const RSS_FACTOR = 1.5;
const RSS_MARGIN_BYTES = 128 * 1024 * 1024;

/**
 * Scenario weights. A quick generation is one request, a job or a config's life a dozen: these
 * weights make about a third of the requests quick generations.
 */
const SCENARIOS: Array<[number, (context: SoakContext) => Promise<void>]> = [
  [200, quick],
  [10, job],
  [8, configs],
  [6, keys],
  [10, reads],
  [10, catalog],
  [7, service],
];

function pickScenario(random: Random): (context: SoakContext) => Promise<void> {
  let at = random.next() * SCENARIOS.reduce((sum, [weight]) => sum + weight, 0);
  for (const [weight, scenario] of SCENARIOS) {
    at -= weight;
    if (at < 0) return scenario;
  }
  return SCENARIOS[0]![1];
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

describe('soak: a real server (`finsynth serve`) under a few thousand mixed requests', function () {
  this.timeout(15 * 60_000);
  let server: ServerProcess;
  let client: WireClient;

  before(async function () {
    this.timeout(180_000);
    server = await startServerProcess({ env: { FINSYNTH_PACKS: EXAMPLE_PACK, FINSYNTH_POOL_SIZE: '2' } });
    client = new WireClient(server.port, CLIENTS);
  });

  after(async () => {
    client?.close();
    await server?.cleanup();
  });

  it('answers every request as documented, never 5xx, stays alive, keeps its memory, and its audit holds', async () => {
    const started = performance.now();
    console.log(
      `    soak seed ${SEED} (SOAK_SEED=${SEED} repeats the run's choices), ${REQUESTS} requests, ${CLIENTS} clients`,
    );
    const document = (await client.send({ method: 'GET', path: '/v1/openapi.json', headers: [] }))
      .body as OpenApiDocument;
    const operations = new Map(operationsOf(document).map((operation) => [operation.id, operation]));
    const tally = new Tally();
    const exchanges = new Exchanges(client, new DocumentedAnswers(document), operations, tally);
    const catalogAnswer = await exchanges.send(
      'getCatalog',
      jsonRequest('GET', '/v1/catalog', server.keys.test),
      [200],
    );
    const index = catalogAnswer!.body as {
      sectors: Array<{ name: string; tables: Array<{ name: string; parents: string[] }> }>;
      limits: { quick: { max_rows_per_table: number; max_rows_per_request: number } };
    };
    const tables: CatalogTable[] = index.sectors.flatMap((sector) =>
      sector.tables.map((table) => ({ sector: sector.name, table: table.name, parents: table.parents })),
    );
    expect(tables.map(({ sector }) => sector)).to.include.members([
      'banking',
      'cards',
      'insurance',
      'lending',
      'markets',
      'loyalty',
    ]);
    const targets = tables.flatMap((target) => ACCEPTS.map((accept) => ({ target, accept })));
    let turn = 0;
    const random = new Random(SEED);
    const context = (clientRandom: Random): SoakContext => ({
      exchanges,
      random: clientRandom,
      keys: server.keys,
      tables,
      limits: {
        maxRowsPerTable: index.limits.quick.max_rows_per_table,
        maxRowsPerRequest: index.limits.quick.max_rows_per_request,
      },
      nextQuickTarget: () => targets[turn++ % targets.length]!,
    });

    // Warm-up: every table in every format once, small, so that RSS before counts the loaded packs.
    const warm = context(new Random(SEED ^ 0x5eed));
    for (const { target, accept } of targets) {
      await exchanges.send(
        'generateQuick',
        jsonRequest(
          'POST',
          '/v1/generate/quick',
          server.keys.test,
          { sector: target.sector, tables: [{ name: target.table, rows: 10 }], seed: 1 },
          [['Accept', accept]],
        ),
        [200],
      );
    }
    await job(warm);
    // A child table asking for more rows than its listed parents hold, refused before any work: each run
    // sends one, so that its answer is checked against the document whatever the random configs draw.
    const overdrawn = {
      version: 1,
      sector: 'insurance',
      tables: [
        { name: 'policies', rows: 10 },
        { name: 'premiums', rows: 10_000 },
      ],
    };
    await exchanges.send('createJob', jsonRequest('POST', '/v1/jobs', server.keys.test, { config: overdrawn }), [
      '400 invalid-plan',
    ]);
    turn = 0;
    const rssBefore = await server.rssBytes();
    const warmSent = exchanges.sent;

    // Each client draws its own choices from a seed of the run's generator, so that a run repeats.
    const clients = Array.from({ length: CLIENTS }, () => new Random(Math.floor(random.next() * 2 ** 32)));
    await Promise.all(
      clients.map(async (clientRandom) => {
        const own = context(clientRandom);
        while (exchanges.sent - warmSent < REQUESTS && server.alive()) await pickScenario(clientRandom)(own);
      }),
    );
    const runSeconds = (performance.now() - started) / 1000;
    const rssAfter = await server.rssBytes().catch(() => Number.NaN);
    const rssBound = rssBefore * RSS_FACTOR + RSS_MARGIN_BYTES;
    const alive = server.alive();
    const health = alive ? await client.send({ method: 'GET', path: '/healthz', headers: [] }) : undefined;
    const metrics = alive ? (await client.send({ method: 'GET', path: '/metrics', headers: [] })).text : '';
    const unexpected = metrics
      .split('\n')
      .filter((line) => /^finsynth_unexpected_errors_total\{/.test(line) && !/ 0$/.test(line));
    const errorLines = server.errorLines();
    client.close();
    const exitCode = await server.stop();
    const audit = await server.cli(['audit', '--json']);

    console.log(
      `    sent ${exchanges.sent} requests (${warmSent} of them warm-up) in ${runSeconds.toFixed(1)} s`,
      `\n${tally.report()}`,
    );
    console.log(
      `    RSS before ${mib(rssBefore)}, after ${mib(rssAfter)} ` +
        `(bound ${RSS_FACTOR} x before + ${mib(RSS_MARGIN_BYTES)} = ${mib(rssBound)})`,
    );
    console.log(
      `    exit code after SIGTERM ${exitCode}; audit exit ${audit.code}: ${audit.stdout.trim().slice(0, 300)}`,
    );

    expect(alive, `the server died: ${JSON.stringify(server.exit())}\n${server.lastLines()}`).to.equal(true);
    expect(exchanges.failures, exchanges.failures.slice(0, 20).join('\n\n')).to.deep.equal([]);
    expect(health?.status).to.equal(200);
    expect(unexpected, 'unexpected errors counted in /metrics').to.deep.equal([]);
    expect(errorLines, 'error lines in the server log').to.deep.equal([]);
    expect(exchanges.sent - warmSent).to.be.at.least(REQUESTS);
    for (const operationId of [
      'generateQuick',
      'createJob',
      'cancelJob',
      'downloadJobResult',
      'validateConfig',
      'saveConfig',
      'composeConfig',
      'issueKey',
      'revokeKey',
      'getUsage',
      'listUsageRecords',
      'listBillingHistory',
    ]) {
      expect(tally.requests(operationId), `requests of ${operationId}`).to.be.greaterThan(0);
    }
    expect(rssAfter).to.be.at.most(rssBound);
    expect(exitCode, 'exit code after SIGTERM').to.equal(0);
    expect(audit.code, audit.stderr).to.equal(0);
    expect((JSON.parse(audit.stdout) as { holds: boolean }).holds).to.equal(true);
  });
});
