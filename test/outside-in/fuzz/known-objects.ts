import fc from 'fast-check';
import { stringify } from 'yaml';
import type { Operation } from '../support/documented.js';
import type { Hints, Schema } from '../support/schema-arbitrary.js';
import { arbitraryOf } from '../support/schema-arbitrary.js';
import type { ServerProcess } from '../support/server-process.js';
import { jsonRequest, type WireClient, type WireResponse } from '../support/wire.js';

/** What exists on the server before the fuzzing starts, so that generated requests can name it. */
export interface KnownObjects {
  /** The operator's account (first-start keys) and a second, live one whose subscription the fuzzer may change. */
  keys: { live: string; test: string; billingLive: string };
  /** Keys holding a single scope, and a revoked one: requests that must be refused. */
  onlyGenerate: string;
  onlyCatalog: string;
  revoked: string;
  /** Ids to use in paths and bodies. */
  jobIds: string[];
  jobTables: string[];
  configIds: string[];
  overlayIds: string[];
  keyIds: string[];
  tables: Array<{ sector: string; table: string }>;
  configSchema: Schema;
}

const JOB_POLLS = 300;

async function ok(
  client: WireClient,
  request: Parameters<WireClient['send']>[0],
  status: number,
): Promise<WireResponse> {
  const response = await client.send(request);
  if (response.status !== status)
    throw new Error(
      `setup: ${request.method} ${request.path} answered ${response.status}: ${response.text.slice(0, 300)}`,
    );
  return response;
}

const idOf = (response: WireResponse) => (response.body as { id: string }).id;

async function issueKey(client: WireClient, key: string, scopes?: string[]): Promise<{ id: string; secret: string }> {
  return (await ok(client, jsonRequest('POST', '/v1/keys', key, scopes ? { scopes } : {}), 201)).body as {
    id: string;
    secret: string;
  };
}

export async function createKnownObjects(server: ServerProcess, client: WireClient): Promise<KnownObjects> {
  const test = server.keys.test;
  const opened = await server.cli(['accounts', 'create', '--tier', 'scale', '--json']);
  if (opened.code !== 0) throw new Error(`setup: accounts create exited ${opened.code}: ${opened.stderr}`);
  const billingLive = (JSON.parse(opened.stdout) as { keys: { live: string } }).keys.live;

  const config = {
    version: 1,
    sector: 'cards',
    seed: 7,
    tables: [
      { name: 'cardholders', rows: 20 },
      { name: 'cards', rows: 30 },
    ],
    output: { format: 'csv', compression: 'none' },
  };
  const job = idOf(await ok(client, jsonRequest('POST', '/v1/jobs', test, { config }), 202));
  for (let poll = 0, state = 'queued'; state !== 'succeeded'; poll++) {
    if (poll === JOB_POLLS) throw new Error(`setup: job ${job} did not succeed (${state})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    state = ((await ok(client, jsonRequest('GET', `/v1/jobs/${job}`, test), 200)).body as { state: string }).state;
  }
  const configIds = [
    idOf(await ok(client, jsonRequest('POST', '/v1/configs', test, { name: 'fuzz base', config }), 201)),
  ];
  const overlayIds = [
    idOf(
      await ok(client, jsonRequest('POST', '/v1/overlays', test, { name: 'fuzz overlay', overlay: { seed: 9 } }), 201),
    ),
  ];
  const throwaway = await Promise.all([issueKey(client, test), issueKey(client, test)]);
  const revoked = await issueKey(client, test);
  await ok(client, jsonRequest('DELETE', `/v1/keys/${revoked.id}`, test), 200);
  const catalog = (await ok(client, jsonRequest('GET', '/v1/catalog', test), 200)).body as {
    sectors: Array<{ name: string; tables: Array<{ name: string }> }>;
  };
  const configSchema = (await ok(client, jsonRequest('GET', '/v1/configs/schema', test), 200)).body as Schema;
  return {
    keys: { live: server.keys.live, test, billingLive },
    onlyGenerate: (await issueKey(client, test, ['generate'])).secret,
    onlyCatalog: (await issueKey(client, test, ['catalog:read'])).secret,
    revoked: revoked.secret,
    jobIds: [job],
    jobTables: ['cardholders', 'cards'],
    configIds,
    overlayIds,
    keyIds: throwaway.map(({ id }) => id),
    tables: catalog.sectors.flatMap((sector) =>
      sector.tables.map((table) => ({ sector: sector.name, table: table.name })),
    ),
    configSchema,
  };
}

/** Path ids by the collection they stand under. */
function idsFor(operation: Operation, known: KnownObjects): string[] {
  if (operation.path.startsWith('/v1/jobs/')) return known.jobIds;
  if (operation.path.startsWith('/v1/configs/')) return known.configIds;
  if (operation.path.startsWith('/v1/overlays/')) return known.overlayIds;
  if (operation.path.startsWith('/v1/keys/')) return known.keyIds;
  return [];
}

/**
 * Values by member and parameter name that reach past the first check: sectors and tables of the
 * catalog (not always of each other), small row counts, saved ids, sandbox payment tokens, and whole
 * configs that are valid as often as not.
 */
export function hintsFor(operation: Operation, known: KnownObjects): Hints {
  const sectors = [...new Set(known.tables.map(({ sector }) => sector))];
  const tableNames = [...new Set(known.tables.map(({ table }) => table))];
  const rows = fc.integer({ min: 1, max: 300 });
  const seed = fc.integer({ min: 0, max: 1_000_000 });
  const small: Hints = { sector: fc.constantFrom(...sectors), name: fc.constantFrom(...tableNames), rows, seed };
  const plausible = fc
    .tuple(fc.constantFrom(...known.tables), rows, seed, fc.constantFrom('ndjson', 'csv', 'json'))
    .map(([{ sector, table }, count, chosen, format]) => ({
      version: 1,
      sector,
      seed: chosen,
      tables: [{ name: table, rows: count }],
      output: { format },
    }));
  const config = fc.oneof(plausible, arbitraryOf(known.configSchema, small));
  const overlay = fc.record(
    {
      seed,
      locale: fc.constantFrom('en_GB', 'de', 'fr', 'xx_YY'),
      output: fc.record({ format: fc.constantFrom('csv', 'json') }),
    },
    { requiredKeys: [] },
  );
  const quick = fc
    .tuple(fc.constantFrom(...known.tables), rows, seed)
    .map(([{ sector, table }, count, chosen]) => ({ sector, tables: [{ name: table, rows: count }], seed: chosen }));
  const ids = idsFor(operation, known);
  return {
    ...small,
    config,
    config_yaml: config.map((value) => stringify(value)),
    overlay,
    overlay_yaml: overlay.map((value) => stringify(value)),
    base: fc.oneof(fc.constantFrom(...known.configIds), config),
    config_id: fc.constantFrom(...known.configIds),
    'overlays[]': fc.oneof(fc.constantFrom(...known.overlayIds), overlay),
    pack: fc.constantFrom('small', 'medium', 'large', 'huge'),
    payment_token: fc.constantFrom(
      'tok_visa',
      'tok_mastercard',
      'tok_chargeDeclined',
      'tok_chargeDeclinedFraudulent',
      'tok_processingError',
      'tok_unknown',
    ),
    locale: fc.constantFrom('en_GB', 'de', 'fr', 'xx_YY'),
    table: fc.constantFrom(...known.jobTables, 'transactions'),
    // Mostly fresh keys, so that requests reach the work; now and then one used before, by this operation or another.
    'Idempotency-Key': fc.oneof(
      { arbitrary: fc.uuid(), weight: 4 },
      fc.constantFrom('fuzz-1', `fuzz-1-${operation.id}`),
    ),
    cursor: fc.constantFrom(
      ...[...known.jobIds, ...known.configIds, ...known.overlayIds, ...known.keyIds].map((id) =>
        Buffer.from(id).toString('base64url'),
      ),
    ),
    'body:generateQuick': quick,
    'body:yaml': config.map((value) => stringify(value)),
    ...(ids.length > 0 ? { id: fc.constantFrom(...ids) } : {}),
  };
}
