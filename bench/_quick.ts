import autocannon from 'autocannon';

/**
 * The quick-generation scenario, run by bench/api.ts against a running app: POST /v1/generate/quick for 1,000 rows
 * of cards transactions as JSON, at 16 connections, after a warm-up. Each account is rate-limited by its tier, so
 * the requests take the given keys in turn: give enough sandbox keys (no credit spent) that the limiter is never what
 * is measured. Any non-2xx answer fails the run, since a refusal's latency is not a generation's.
 */
export interface QuickScenarioOptions {
  url: string;
  keys: readonly string[];
  connections?: number;
  durationSeconds?: number;
}

export interface QuickScenarioResult {
  quick_rps: number;
  quick_p50_ms: number;
  quick_p99_ms: number;
}

export const QUICK_BODY = JSON.stringify({ sector: 'cards', tables: [{ name: 'transactions', rows: 1000 }], seed: 1 });

/** Seconds of load before measuring: the pool's workers load the packs on their first chunk. */
const WARM_UP_SECONDS = 3;

export async function quickScenario({
  url,
  keys,
  connections = 16,
  durationSeconds = 10,
}: QuickScenarioOptions): Promise<QuickScenarioResult> {
  if (keys.length === 0) throw new Error('quickScenario needs at least one key');
  await load(url, keys, connections, WARM_UP_SECONDS);
  const result = await load(url, keys, connections, durationSeconds);
  if (result.non2xx > 0 || result.errors > 0) {
    const codes = Object.entries(result.statusCodeStats ?? {})
      .map(([code, stats]) => `${code}: ${stats.count}`)
      .join(', ');
    throw new Error(
      `quick scenario: ${result.non2xx} non-2xx answers and ${result.errors} errors (${codes}); give more keys if 429`,
    );
  }
  return {
    quick_rps: Math.round(result.requests.average),
    quick_p50_ms: result.latency.p50,
    quick_p99_ms: result.latency.p99,
  };
}

/**
 * One prebuilt request per key, which each connection cycles through: the client shares the server's main thread,
 * so a request built per send would count the client's work against the server.
 */
function load(
  url: string,
  keys: readonly string[],
  connections: number,
  durationSeconds: number,
): Promise<autocannon.Result> {
  return autocannon({
    url: `${url.replace(/\/$/, '')}/v1/generate/quick`,
    connections,
    duration: durationSeconds,
    requests: keys.map((key) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${key}` },
      body: QUICK_BODY,
    })),
  });
}
