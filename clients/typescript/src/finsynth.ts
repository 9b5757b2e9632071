import createClient from 'openapi-fetch';
import type { JsonMediaType, Paths, RawClient } from './paths.js';
import { Requester } from './requester.js';
import { Audit } from './resources/audit.js';
import { Billing } from './resources/billing.js';
import { Catalog } from './resources/catalog.js';
import { Configs } from './resources/configs.js';
import { Generate } from './resources/generate.js';
import { Jobs } from './resources/jobs.js';
import { Keys } from './resources/keys.js';
import { Overlays } from './resources/overlays.js';
import { Usage } from './resources/usage.js';
import { Webhooks } from './resources/webhooks.js';
import { retryingFetch, type FetchLike } from './transport/retrying-fetch.js';
import { VERSION } from './version.js';

export interface FinsynthOptions {
  /** `svc_live_…` or `svc_test_…`; FINSYNTH_KEY by default. */
  apiKey?: string;
  /** The service's address; FINSYNTH_URL by default, else http://localhost:3000. A trailing `/v1` is allowed. */
  baseUrl?: string;
  /** Retries of a call answered 429 or 5xx, or whose connection failed when it is safe to repeat; 2 by default. */
  maxRetries?: number;
  /** How long each attempt waits for its answer to begin; 60,000 ms by default. */
  timeoutMs?: number;
  /** The fetch that sends each attempt (globalThis.fetch by default): a proxy agent, a test double. */
  fetch?: FetchLike;
}

export const DEFAULT_BASE_URL = 'http://localhost:3000';
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 60_000;

/** The service's paths begin with `/v1`, so a base address is its origin (and any prefix before `/v1`). */
const normaliseBaseUrl = (url: string): string => url.replace(/\/+$/, '').replace(/\/v1$/, '');

/** The finsynth API: one property per group of operations, and `raw`, the typed openapi-fetch client. */
export class Finsynth {
  readonly generate: Generate;
  readonly catalog: Catalog;
  readonly jobs: Jobs;
  readonly configs: Configs;
  readonly overlays: Overlays;
  readonly usage: Usage;
  readonly billing: Billing;
  readonly keys: Keys;
  readonly audit: Audit;
  readonly webhooks: Webhooks;
  /** openapi-fetch, typed by the service's OpenAPI document: answers `{ data, error, response }`, never throws. */
  readonly raw: RawClient;
  readonly baseUrl: string;
  readonly #apiKey: string;

  constructor(options: FinsynthOptions = {}) {
    const apiKey = options.apiKey ?? process.env.FINSYNTH_KEY;
    if (!apiKey) throw new Error('no API key: pass { apiKey } or set FINSYNTH_KEY');
    this.#apiKey = apiKey;
    this.baseUrl = normaliseBaseUrl(options.baseUrl ?? process.env.FINSYNTH_URL ?? DEFAULT_BASE_URL);
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new Error('maxRetries must be an integer, 0 or more');
    const policy = { maxRetries, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
    const base: FetchLike = options.fetch ?? ((request) => fetch(request));
    this.raw = createClient<Paths, JsonMediaType>({
      baseUrl: this.baseUrl,
      fetch: retryingFetch(base, policy),
      headers: {
        Authorization: `Bearer ${apiKey}`,
        'User-Agent': `finsynth-typescript/${VERSION} node/${process.versions.node}`,
      },
    });
    const requester = new Requester(this.raw, base, policy);
    this.generate = new Generate(requester);
    this.catalog = new Catalog(requester);
    this.jobs = new Jobs(requester);
    this.configs = new Configs(requester);
    this.overlays = new Overlays(requester);
    this.usage = new Usage(requester);
    this.billing = new Billing(requester);
    this.keys = new Keys(requester);
    this.audit = new Audit(requester);
    this.webhooks = new Webhooks(requester);
  }

  /** `test` for a sandbox key (`…_test_…`: nothing is charged, test objects only), `live` otherwise. */
  get mode(): 'live' | 'test' {
    return /^[a-z0-9]+_test_/i.test(this.#apiKey) ? 'test' : 'live';
  }
}
