import autocannon from 'autocannon';

/**
 * The quick-generation scenario of issue 4, run by bench/api.ts against a running app: POST
 * /v1/generate/quick for 1,000 rows of cards transactions, at 16 connections, as JSON.
 *
 * Each account is rate-limited by its tier (100 requests/s at scale), so the scenario spreads its
 * requests over the keys it is given, each connection taking them in turn: give enough keys (scale,
 * sandbox keys, so that no credit is spent) that the limiter is never what is measured. Any non-2xx
 * answer fails the run: latencies of refusals are not latencies of generation. A warm-up run comes
 * first and is not measured.
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

export async function quickScenario({ url, keys, connections = 16, durationSeconds = 10 }: QuickScenarioOptions): Promise<QuickScenarioResult> {
  if (keys.length === 0) throw new Error('quickScenario needs at least one key');
  await load(url, keys, connections, WARM_UP_SECONDS);
  const result = await load(url, keys, connections, durationSeconds);
  if (result.non2xx > 0 || result.errors > 0) {
    const codes = Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => `${code}: ${stats.count}`).join(', ');
    throw new Error(`quick scenario: ${result.non2xx} non-2xx answers and ${result.errors} errors (${codes}); give more keys if 429`);
  }
  return {
    quick_rps: Math.round(result.requests.average),
    quick_p50_ms: result.latency.p50,
    quick_p99_ms: result.latency.p99,
  };
}

/**
 * One prebuilt request per key: each connection cycles through them, so the keys take turns as before,
 * but the client builds no request while measuring. The client shares the server's main thread; a
 * request built per send (a `setupRequest` hook: headers copied, the request cloned and serialized
 * again) was client work counted against the server.
 */
function load(url: string, keys: readonly string[], connections: number, durationSeconds: number): Promise<autocannon.Result> {
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
