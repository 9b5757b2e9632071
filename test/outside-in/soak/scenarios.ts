import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { Exchanges, Expected } from '../support/exchange.js';
import type { Random } from '../support/random.js';
import { jsonRequest, type WireRequest } from '../support/wire.js';
import { SCOPES } from '../../../core/auth/scopes.js';

export interface CatalogTable {
  sector: string;
  table: string;
  parents: string[];
}

export interface SoakContext {
  exchanges: Exchanges;
  random: Random;
  keys: { live: string; test: string };
  /** Every table of every pack, each with every format, handed out in turn so that all are covered. */
  nextQuickTarget(): { target: CatalogTable; accept: Accept };
  tables: CatalogTable[];
  limits: { maxRowsPerTable: number; maxRowsPerRequest: number };
}

export type Accept = 'application/json' | 'application/x-ndjson' | 'text/csv';
export const ACCEPTS: Accept[] = ['application/json', 'application/x-ndjson', 'text/csv'];
const FORMATS = ['ndjson', 'csv', 'json'] as const;
/** Polls of a job before the soak calls it stuck, and the pause between them. */
const JOB_POLLS = 600;
const POLL_PAUSE_MS = 200;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Most requests small, some up to the per-table limit, a tenth exactly at it. */
function quickRows(context: SoakContext): number {
  const { random, limits } = context;
  return random.chance(0.1) ? limits.maxRowsPerTable : random.logInt(1, limits.maxRowsPerTable);
}

function keyOf(context: SoakContext, liveShare = 0.2): string {
  return context.random.chance(liveShare) ? context.keys.live : context.keys.test;
}

/** Quick generation of the next table and format in turn, sometimes with the rest of its sector. */
export async function quick(context: SoakContext): Promise<void> {
  const { random, exchanges } = context;
  const { target, accept } = context.nextQuickTarget();
  const sectorTables = context.tables.filter((table) => table.sector === target.sector);
  const several = random.chance(0.15) && sectorTables.length > 1;
  const tables = several
    ? sectorTables.map(({ table }) => ({
        name: table,
        rows: Math.min(quickRows(context), Math.floor(context.limits.maxRowsPerRequest / sectorTables.length)),
      }))
    : [{ name: target.table, rows: quickRows(context) }];
  const body: Record<string, unknown> = { sector: target.sector, tables };
  if (random.chance(0.9)) body.seed = random.seed();
  const headers: Array<[string, string]> = [['Accept', accept]];
  if (random.chance(0.2)) headers.push(['Idempotency-Key', `soak-${random.int(0, 2 ** 30)}`]);
  // A child table whose parents decide its rows can need more parents than a quick request may walk.
  const expected =
    several && accept === 'text/csv' ? ['406 not-acceptable' as const] : [200, '400 invalid-plan' as const];
  const response = await exchanges.send(
    'generateQuick',
    jsonRequest('POST', '/v1/generate/quick', keyOf(context), body, headers),
    expected,
  );
  if (response?.status !== 200 || several) return;
  const rows = tables[0]!.rows;
  if (accept === 'application/json') {
    const returned = (response.body as { tables: Record<string, unknown[]> }).tables[target.table]?.length;
    if (returned !== rows)
      exchanges.fail(`generateQuick ${target.sector}.${target.table}: ${returned} rows in JSON, asked for ${rows}`);
  } else if (accept === 'application/x-ndjson') {
    const lines = response.text.split('\n').filter(Boolean).length;
    if (lines !== rows)
      exchanges.fail(`generateQuick ${target.sector}.${target.table}: ${lines} NDJSON lines, asked for ${rows} rows`);
  }
}

function jobConfig(context: SoakContext): Record<string, unknown> {
  const { random } = context;
  const target = random.pick(context.tables);
  const names = random.chance(0.3)
    ? [...target.parents.filter((parent) => parent !== target.table), target.table]
    : [target.table];
  return {
    version: 1,
    sector: target.sector,
    seed: random.seed(),
    tables: names.map((name) => ({ name, rows: random.logInt(50, 30_000) })),
    output: { format: random.pick(FORMATS), compression: random.pick(['none', 'gzip']) },
  };
}

/** A job created (from JSON, YAML or a saved config), cancelled or polled to its end, its results downloaded. */
export async function job(context: SoakContext): Promise<void> {
  const { random, exchanges } = context;
  const key = keyOf(context);
  const config = jobConfig(context);
  let body: Record<string, unknown>;
  const form = random.pick(['config', 'config_yaml', 'config_id']);
  if (form === 'config_id') {
    const saved = await exchanges.send(
      'saveConfig',
      jsonRequest('POST', '/v1/configs', key, { name: `soak job ${random.int(0, 1e6)}`, config }),
      [201],
    );
    if (!saved) return;
    body = { config_id: (saved.body as { id: string }).id };
  } else body = form === 'config' ? { config } : { config_yaml: stringify(config) };
  // Listed with its parents, a table whose parents decide its rows may ask for more than they hold.
  const created = await exchanges.send('createJob', jsonRequest('POST', '/v1/jobs', key, body), [
    202,
    '400 invalid-plan',
  ]);
  if (created?.status !== 202) return;
  const id = (created.body as { id: string }).id;
  if (random.chance(0.3)) {
    await exchanges.send('cancelJob', jsonRequest('POST', `/v1/jobs/${id}/cancel`, key), [
      200,
      202,
      '409 job-finished',
    ]);
  }
  let state = 'queued';
  for (let poll = 0; poll < JOB_POLLS && ['queued', 'running'].includes(state); poll++) {
    if (poll > 0) await pause(POLL_PAUSE_MS);
    const got = await exchanges.send('getJob', jsonRequest('GET', `/v1/jobs/${id}`, key), [200]);
    if (!got) return;
    state = (got.body as { state: string }).state;
  }
  if (state === 'cancelled') {
    await exchanges.send('listJobResults', jsonRequest('GET', `/v1/jobs/${id}/results`, key), [
      '409 job-results-unavailable',
    ]);
    return;
  }
  if (state !== 'succeeded') {
    exchanges.fail(
      `job ${id} of a valid config ended ${state} after at most ${JOB_POLLS} polls: ${JSON.stringify(config)}`,
    );
    return;
  }
  const results = await exchanges.send('listJobResults', jsonRequest('GET', `/v1/jobs/${id}/results`, key), [200]);
  if (!results) return;
  for (const file of (
    results.body as { data: Array<{ table: string; bytes: number; sha256: string; download_url: string }> }
  ).data) {
    await downloads(context, key, file);
  }
  await exchanges.send('downloadJobResult', jsonRequest('GET', `/v1/jobs/${id}/results/no_such_table`, key), [
    '404 job-result-table-not-found',
  ]);
}

async function downloads(
  context: SoakContext,
  key: string,
  file: { table: string; bytes: number; sha256: string; download_url: string },
): Promise<void> {
  const { random, exchanges } = context;
  const get = (headers: Array<[string, string]>, expected: Parameters<Exchanges['send']>[2]) =>
    exchanges.send('downloadJobResult', jsonRequest('GET', file.download_url, key, undefined, headers), expected);
  const whole = await get([], [200]);
  if (whole && (whole.bytes.length !== file.bytes || sha256(whole.bytes) !== file.sha256)) {
    exchanges.fail(
      `${file.download_url}: ${whole.bytes.length} bytes with another SHA-256 than the listed ${file.bytes} bytes`,
    );
  }
  const first = random.int(0, file.bytes - 1);
  const last = random.int(first, file.bytes - 1);
  const part = await get([['Range', `bytes=${first}-${last}`]], [206]);
  if (part && whole && !part.bytes.equals(whole.bytes.subarray(first, last + 1)))
    exchanges.fail(`${file.download_url} bytes=${first}-${last}: not those bytes of the file`);
  const suffix = random.int(1, file.bytes);
  const tail = await get(
    [
      ['Range', `bytes=-${suffix}`],
      ['If-Range', `"${file.sha256}"`],
    ],
    [206],
  );
  if (tail && whole && !tail.bytes.equals(whole.bytes.subarray(file.bytes - suffix)))
    exchanges.fail(`${file.download_url} bytes=-${suffix}: not the file's tail`);
  await get([['Range', `bytes=${file.bytes + random.int(0, 1000)}-`]], [416]);
  await get([['If-None-Match', `"${file.sha256}"`]], [304]);
}

/** Configs validated and estimated (JSON and YAML, some invalid), saved, overlaid, composed, listed, deleted. */
export async function configs(context: SoakContext): Promise<void> {
  const { random, exchanges } = context;
  const key = keyOf(context, 0.5);
  const config = jobConfig(context);
  const broken = { ...config, tables: [{ name: 'no_such_table', rows: 10 }] };
  const asYaml = (path: string, document: unknown): WireRequest => ({
    method: 'POST',
    path,
    headers: [
      ['Authorization', `Bearer ${key}`],
      ['Content-Type', random.pick(['application/yaml', 'text/yaml'])],
    ],
    body: Buffer.from(stringify(document)),
  });
  const validateBody = random.chance(0.3) ? broken : config;
  const validateRequest = random.chance(0.5)
    ? jsonRequest('POST', '/v1/configs/validate', key, { config: validateBody })
    : asYaml('/v1/configs/validate', validateBody);
  await exchanges.send('validateConfig', validateRequest, [200]);
  await exchanges.send(
    'estimateConfig',
    jsonRequest('POST', '/v1/configs/estimate', key, { config_yaml: stringify(config) }),
    [200],
  );
  const raw = await exchanges.send(
    'submitRawConfig',
    asYaml(`/v1/configs/raw?save=true&name=soak-raw-${random.int(0, 1e6)}`, config),
    [201],
  );
  const saved = await exchanges.send(
    'saveConfig',
    jsonRequest('POST', '/v1/configs', key, { name: `soak ${random.int(0, 1e6)}`, config }),
    [201],
  );
  const overlay = await exchanges.send(
    'saveOverlay',
    jsonRequest('POST', '/v1/overlays', key, { name: 'soak seed', overlay: { seed: random.seed() } }),
    [201],
  );
  if (!saved || !overlay) return;
  const configId = (saved.body as { id: string }).id;
  const overlayId = (overlay.body as { id: string }).id;
  await exchanges.send(
    'composeConfig',
    jsonRequest('POST', '/v1/configs/compose', key, {
      base: configId,
      overlays: [overlayId, { output: { format: 'csv' } }],
    }),
    [200],
  );
  await exchanges.send('getConfig', jsonRequest('GET', `/v1/configs/${configId}`, key), [200]);
  await exchanges.send(
    'updateConfig',
    jsonRequest('POST', `/v1/configs/${configId}`, key, { name: `soak renamed ${random.int(0, 1e6)}` }),
    [200],
  );
  await exchanges.send('getOverlay', jsonRequest('GET', `/v1/overlays/${overlayId}`, key), [200]);
  await exchanges.send(
    'updateOverlay',
    jsonRequest('POST', `/v1/overlays/${overlayId}`, key, { overlay: { seed: random.seed() } }),
    [200],
  );
  await pages(context, 'listConfigs', '/v1/configs', key);
  await pages(context, 'listOverlays', '/v1/overlays', key);
  await exchanges.send('deleteOverlay', jsonRequest('DELETE', `/v1/overlays/${overlayId}`, key), [200]);
  await exchanges.send('deleteConfig', jsonRequest('DELETE', `/v1/configs/${configId}`, key), [200]);
  await exchanges.send('getConfig', jsonRequest('GET', `/v1/configs/${configId}`, key), [404]);
  if (raw)
    await exchanges.send(
      'deleteConfig',
      jsonRequest('DELETE', `/v1/configs/${(raw.body as { saved: { id: string } }).saved.id}`, key),
      [200],
    );
}

/** Up to three pages of a list, following its cursors. */
async function pages(
  context: SoakContext,
  operationId: string,
  path: string,
  key: string,
  query = '',
  expected: readonly Expected[] = [200],
): Promise<void> {
  let cursor: string | null = null;
  for (let page = 0; page < 3; page++) {
    const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const at = `${path}?limit=${context.random.int(1, 20)}${query}${after}`;
    const response = await context.exchanges.send(operationId, jsonRequest('GET', at, key), expected);
    cursor = (response?.body as { next_cursor?: string | null } | undefined)?.next_cursor ?? null;
    if (!cursor) return;
  }
}

/** A key issued with some scopes, used within them and beyond, listed, revoked twice. */
export async function keys(context: SoakContext): Promise<void> {
  const { random, exchanges } = context;
  const key = keyOf(context, 0.5);
  const scopes = random.subset(SCOPES, 0.4);
  const body = scopes.length > 0 ? { name: `soak ${random.int(0, 1e6)}`, scopes } : {};
  const issued = await exchanges.send('issueKey', jsonRequest('POST', '/v1/keys', key, body), [201]);
  if (!issued) return;
  const { id, secret } = issued.body as { id: string; secret: string };
  const granted = scopes.length === 0 || scopes.includes('catalog:read');
  // The new key is known to this instance once its answer is sent (read-your-writes on the keys projection).
  await exchanges.send('getCatalog', jsonRequest('GET', '/v1/catalog', secret), [granted ? 200 : '403 missing-scope']);
  await pages(context, 'listKeys', '/v1/keys', key);
  await exchanges.send('revokeKey', jsonRequest('DELETE', `/v1/keys/${id}`, key), [200]);
  await exchanges.send('revokeKey', jsonRequest('DELETE', `/v1/keys/${id}`, key), [200]);
}

/** Usage, billing and the credit audit read; now and then credits bought with an approved or a declined card. */
export async function reads(context: SoakContext): Promise<void> {
  const { random, exchanges } = context;
  const key = keyOf(context, 0.5);
  const live = key === context.keys.live;
  await exchanges.send(
    'getUsage',
    jsonRequest(
      'GET',
      random.chance(0.5)
        ? '/v1/usage'
        : `/v1/usage?from=2020-01-01T00:00:00Z&to=${new Date(Date.now() + 86_400_000).toISOString()}`,
      key,
    ),
    [200],
  );
  await pages(context, 'listUsageRecords', '/v1/usage/records', key);
  // A live key may read its account's test usage; a test key may not read live usage.
  const otherMode = live
    ? (['test', [200] as Expected[]] as const)
    : (['live', ['403 live-key-required'] as Expected[]] as const);
  await exchanges.send('getUsage', jsonRequest('GET', `/v1/usage?mode=${otherMode[0]}`, key), otherMode[1]);
  await pages(context, 'listUsageRecords', '/v1/usage/records', key, `&mode=${otherMode[0]}`, otherMode[1]);
  // Billing and the credit audit are live money: a test key is refused.
  const money = live ? [200] : ['403 live-key-required' as const];
  await exchanges.send('getSubscription', jsonRequest('GET', '/v1/billing/subscription', key), money);
  await exchanges.send('getCredits', jsonRequest('GET', '/v1/billing/credits', key), money);
  await pages(context, 'listBillingHistory', '/v1/billing/history', key, '', money);
  await pages(context, 'auditCredits', '/v1/audit/credits', key, '', money);
  await pages(
    context,
    'listJobs',
    '/v1/jobs',
    key,
    random.chance(0.5) ? `&state=${random.pick(['queued', 'running', 'succeeded', 'failed', 'cancelled'])}` : '',
  );
  if (random.chance(0.1)) {
    const declined = random.chance(0.3);
    const purchase = { pack: 'small', payment_token: declined ? 'tok_chargeDeclined' : 'tok_visa' };
    const expected = !live ? ['403 live-key-required' as const] : declined ? ['402 payment-declined' as const] : [201];
    await exchanges.send(
      'purchaseCredits',
      jsonRequest('POST', '/v1/billing/credits', key, purchase, [
        ['Idempotency-Key', `soak-purchase-${random.int(0, 2 ** 30)}`],
      ]),
      expected,
    );
  }
}

/** The catalog, each view then asked again with its ETag. */
export async function catalog(context: SoakContext): Promise<void> {
  const { random, exchanges } = context;
  const key = keyOf(context, 0.5);
  const target = random.pick(context.tables);
  const views: Array<[string, string]> = [
    ['getCatalog', '/v1/catalog'],
    ['listDataTypes', '/v1/catalog/types'],
    ['getSector', `/v1/catalog/sectors/${target.sector}`],
    ['getTableSchema', `/v1/catalog/sectors/${target.sector}/tables/${target.table}`],
  ];
  const [operationId, path] = random.pick(views);
  const first = await exchanges.send(operationId, jsonRequest('GET', path, key), [200]);
  const etag = first?.headers.get('etag');
  if (etag)
    await exchanges.send(operationId, jsonRequest('GET', path, key, undefined, [['If-None-Match', etag]]), [304]);
}

/** What operators and monitors ask. */
export async function service(context: SoakContext): Promise<void> {
  const [operationId, path] = context.random.pick([
    ['health', '/healthz'],
    ['readiness', '/readyz'],
    ['metrics', '/metrics'],
    ['openApiDocument', '/v1/openapi.json'],
  ] as const);
  await context.exchanges.send(operationId, { method: 'GET', path, headers: [] }, [200]);
}
