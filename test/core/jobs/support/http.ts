import { createHash } from 'node:crypto';
import { request, type TestApp, type TestResponse } from '../../../support/app.js';

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** GETs the job until it reaches one of `states`; bounded generously: this proves the outcome, not its speed. */
export async function pollJob(
  app: Pick<TestApp, 'url'>,
  key: string,
  jobId: string,
  states: string[],
  boundMs = 60_000,
): Promise<TestResponse> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const response = await request(app, 'GET', `/v1/jobs/${jobId}`, { key });
    if (response.status !== 200) throw new Error(`GET /v1/jobs/${jobId}: ${response.status} ${response.text}`);
    if (states.includes(response.body.state)) return response;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${response.body.state} after ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Downloads a result as raw bytes; `text` and `body` (a problem parsed) as `request` gives them, for the
 * OpenAPI checks.
 */
export async function download(
  app: Pick<TestApp, 'url'>,
  key: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<TestResponse & { bytes: Buffer }> {
  const response = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString();
  const problem = (response.headers.get('content-type') ?? '').startsWith('application/problem+json');
  return { status: response.status, headers: response.headers, bytes, text, body: problem ? JSON.parse(text) : text };
}

/** Rows in a downloaded CSV (header excluded) or NDJSON text. */
export function countRows(text: string, format: 'csv' | 'ndjson'): number {
  const lines = text.split('\n').filter((line) => line.length > 0).length;
  return format === 'csv' ? lines - 1 : lines;
}

export function cardsConfig(
  tables: Record<string, number>,
  output: { format: 'csv' | 'ndjson' | 'json'; compression?: 'none' | 'gzip'; referenced_tables?: 'include' | 'omit' },
  seed = 42,
) {
  return {
    version: 1,
    sector: 'cards',
    seed,
    tables: Object.entries(tables).map(([name, rows]) => ({ name, rows })),
    // Exactly the tables listed: these jobs count rows, files and credits of those (the default adds referenced ones).
    output: { referenced_tables: 'omit' as const, ...output },
  };
}
