/**
 * `npm run bench -- bodies [--json] [--only SUBSTRING]`: the worst request bodies known, each sent once to a real
 * server (the app on an ephemeral port, embedded store). For each: the answer's status, size and listed errors, the
 * time to its last byte (answer_ms), and the event loop's longest block meanwhile (block_ms, monitorEventLoopDelay
 * at 1 ms resolution), which is how long every other request waited. The client shares the server's thread, so it
 * only writes and counts bytes while measured.
 */
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { BenchOptions } from './index.js';
import { loadConfig } from '../core/settings/settings.js';
import { loadPricing, type Pricing } from '../core/pricing/pricing.js';
import { createServices } from '../core/services/services.js';
import { createAccount } from '../core/accounts/create-account.js';
import { createApp } from '../api/app.js';
import { listen, type RunningServer } from '../api/server.js';

const KiB = 1024;
const MiB = 1024 * KiB;

interface Case {
  name: string;
  path: string;
  contentType: string;
  body: string;
}

interface Measured {
  name: string;
  body_kib: number;
  status: number;
  slug: string;
  answer_kib: number;
  errors: number;
  errors_total?: number;
  answer_ms: number;
  block_ms: number;
}

const QUICK = { sector: 'cards', tables: [{ name: 'transactions', rows: 10 }] };
const CONFIG = { version: 1, sector: 'cards', tables: [{ name: 'transactions', rows: 10 }] };

/** `count` members `m0`, `m1`, … added to `into`, as JSON text spliced before its closing brace. */
function withMembers(into: object, count: number): string {
  const members = Array.from({ length: count }, (_, index) => `"m${index}":0`).join(',');
  return `${JSON.stringify(into).slice(0, -1)},${members}}`;
}

/** As many copies of `item` in a JSON array as fit in `bytes`. */
function arrayOf(item: string, bytes: number): string {
  return `[${Array.from({ length: Math.floor(bytes / (item.length + 1)) }, () => item).join(',')}]`;
}

/** YAML mapping `count` unknown members, one a line, under a valid config's members. */
function yamlMembers(count: number): string {
  return (
    `version: 1\nsector: cards\ntables:\n  - name: transactions\n    rows: 10\n` +
    `${Array.from({ length: count }, (_, index) => `m${index}: 0\n`).join('')}`
  );
}

/** The classic billion laughs: nine levels of nine aliases each. */
function billionLaughs(): string {
  const lines = ['a0: &a0 lol'];
  for (let level = 1; level <= 9; level += 1)
    lines.push(`a${level}: &a${level} [${Array.from({ length: 9 }, () => `*a${level - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

/** One block mapping nested `depth` levels, each on its own line (the deepest that fits a size). */
function yamlBlockNesting(depth: number): string {
  return `${Array.from({ length: depth }, (_, level) => `${' '.repeat(level)}a:`).join('\n')} 1\n`;
}

function cases(): Case[] {
  const json = 'application/json';
  const yaml = 'application/yaml';
  const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  return [
    {
      name: 'quick: 5,000 unknown members',
      path: '/v1/generate/quick',
      contentType: json,
      body: withMembers(QUICK, 5_000),
    },
    {
      name: 'quick: 20,000 unknown members',
      path: '/v1/generate/quick',
      contentType: json,
      body: withMembers(QUICK, 20_000),
    },
    {
      name: 'quick: 50,000 unknown members',
      path: '/v1/generate/quick',
      contentType: json,
      body: withMembers(QUICK, 50_000),
    },
    {
      name: 'quick: 1 MiB of empty tables',
      path: '/v1/generate/quick',
      contentType: json,
      body: `{"sector":"cards","tables":${arrayOf('{}', MiB - 40)}}`,
    },
    {
      name: 'quick: 1 MiB sector name',
      path: '/v1/generate/quick',
      contentType: json,
      body: JSON.stringify({ ...QUICK, sector: 'a'.repeat(MiB - 100) }),
    },
    {
      name: 'quick: 1 MiB member name',
      path: '/v1/generate/quick',
      contentType: json,
      body: JSON.stringify({ ...QUICK, ['m'.repeat(MiB - 100)]: 0 }),
    },
    {
      name: 'quick: arrays nested 500,000 deep',
      path: '/v1/generate/quick',
      contentType: json,
      body: `{"sector":"cards","tables":${deepArray(500_000)}}`,
    },
    { name: 'quick: 1 MiB of "[" (malformed)', path: '/v1/generate/quick', contentType: json, body: '['.repeat(MiB) },
    {
      name: 'keys: 100,000 distinct scopes',
      path: '/v1/keys',
      contentType: json,
      body: JSON.stringify({ scopes: Array.from({ length: 100_000 }, (_, index) => `s${index}`) }),
    },
    {
      name: 'validate: 50,000 unknown members',
      path: '/v1/configs/validate',
      contentType: json,
      body: withMembers({ config_id: 'x' }, 50_000),
    },
    {
      name: 'validate: 4 MiB of unknown members',
      path: '/v1/configs/validate',
      contentType: json,
      body: withMembers({ config_id: 'x' }, 330_000),
    },
    {
      name: 'validate: config of 4 MiB of empty tables',
      path: '/v1/configs/validate',
      contentType: json,
      body: `{"config":{"version":1,"sector":"cards","tables":${arrayOf('{}', 4 * MiB - 80)}}}`,
    },
    {
      name: 'validate: 50,000 unknown members in config',
      path: '/v1/configs/validate',
      contentType: json,
      body: `{"config":${withMembers(CONFIG, 50_000)}}`,
    },
    {
      name: 'jobs: 50,000 unknown members',
      path: '/v1/jobs',
      contentType: json,
      body: withMembers({ config_id: 'x' }, 50_000),
    },
    {
      name: 'compose: base of 50,000 unknown members',
      path: '/v1/configs/compose',
      contentType: json,
      body: `{"base":${withMembers({ config_id: 'x' }, 50_000)}}`,
    },
    {
      name: 'validate YAML: 50,000 unknown members',
      path: '/v1/configs/validate',
      contentType: yaml,
      body: yamlMembers(50_000),
    },
    { name: 'validate YAML: 1 MiB of "["', path: '/v1/configs/validate', contentType: yaml, body: '['.repeat(MiB) },
    {
      name: 'validate YAML: 2,000 "[" deep',
      path: '/v1/configs/validate',
      contentType: yaml,
      body: `${'['.repeat(2_000)}${']'.repeat(2_000)}`,
    },
    {
      name: 'validate YAML: "- " 500,000 deep',
      path: '/v1/configs/validate',
      contentType: yaml,
      body: `${'- '.repeat(500_000)}x\n`,
    },
    {
      name: 'validate YAML: 1,400 block levels',
      path: '/v1/configs/validate',
      contentType: yaml,
      body: yamlBlockNesting(1_400),
    },
    { name: 'validate YAML: billion laughs', path: '/v1/configs/validate', contentType: yaml, body: billionLaughs() },
    {
      name: 'validate YAML: 1 MiB string',
      path: '/v1/configs/validate',
      contentType: yaml,
      body: `version: 1\nsector: ${'a'.repeat(MiB - 100)}\n`,
    },
    {
      name: 'validate config_yaml: 1 MiB of "["',
      path: '/v1/configs/validate',
      contentType: json,
      body: JSON.stringify({ config_yaml: '['.repeat(MiB) }),
    },
  ];
}

/** Sends one request on its own connection; measures while the answer's bytes are only counted. */
function send(server: RunningServer, key: string, one: Case): Promise<{ status: number; bytes: Buffer; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: one.path,
        agent: false,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': one.contentType,
          'content-length': Buffer.byteLength(one.body),
          connection: 'close',
        },
      },
      (response) => {
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, bytes: Buffer.concat(chunks), ms: performance.now() - started }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(one.body);
  });
}

function unthrottled(pricing: Pricing): Pricing {
  const tiers = Object.fromEntries(
    Object.entries(pricing.tiers).map(([tier, price]) => [tier, { ...price, rate_limit_per_s: 10_000_000 }]),
  );
  return { ...pricing, tiers: tiers as Pricing['tiers'] };
}

export async function run({ json, args }: BenchOptions): Promise<{ cases: Measured[]; load_average_1m: number }> {
  const onlyIndex = args.indexOf('--only');
  const only = onlyIndex === -1 ? undefined : args[onlyIndex + 1];
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const dataDir = await mkdtemp(join(tmpdir(), 'finsynth-bench-bodies-'));
  const services = await createServices(loadConfig({}, { dataDir, port: 0, logLevel: 'silent' }), {
    pricing: unthrottled(loadPricing()),
  });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let server: RunningServer | undefined;
  const measured: Measured[] = [];
  try {
    server = await listen(createApp(services), 0);
    const account = await createAccount(services, { tier: 'scale' });
    await services.projections.waitFor(account.position);
    for (const one of cases().filter((candidate) => !only || candidate.name.includes(only))) {
      delay.reset();
      delay.enable();
      const answer = await send(server, account.keys.test, one);
      delay.disable();
      const block_ms = Math.round(delay.max / 1e6);
      const problem =
        answer.bytes[0] === 0x7b
          ? (JSON.parse(answer.bytes.toString('utf8')) as { type?: string; errors?: unknown[]; errors_total?: number })
          : {};
      const result: Measured = {
        name: one.name,
        body_kib: Math.round(Buffer.byteLength(one.body) / KiB),
        status: answer.status,
        slug: problem.type?.split('/').at(-1) ?? '',
        answer_kib: Math.round(answer.bytes.length / KiB),
        errors: problem.errors?.length ?? 0,
        ...(problem.errors_total === undefined ? {} : { errors_total: problem.errors_total }),
        answer_ms: Math.round(answer.ms),
        block_ms,
      };
      measured.push(result);
      log(
        `${result.name}: ${result.status} ${result.slug}, ${result.answer_kib} KiB, ` +
          `${result.errors} errors, answer ${result.answer_ms} ms, longest block ${block_ms} ms`,
      );
    }
  } finally {
    await server?.close(1000);
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  const load_average_1m = Math.round(loadavg()[0] * 100) / 100;
  if (!json) {
    console.log('case | body KiB | status | answer KiB | errors | answer ms | longest block ms');
    for (const m of measured)
      console.log(
        `${m.name} | ${m.body_kib} | ${m.status} ${m.slug} | ${m.answer_kib} | ` +
          `${m.errors}${m.errors_total === undefined ? '' : ` of ${m.errors_total}`}` +
          ` | ${m.answer_ms} | ${m.block_ms}`,
      );
    console.log(`load average (1 min) at the end: ${load_average_1m}`);
  }
  return { cases: measured, load_average_1m };
}
