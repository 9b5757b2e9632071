/** How long one request to the log may take before the auditor's tool gives up on it. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * What the auditor's tools (verify --url, witness) ask of a finsynth service: the latest checkpoint, the
 * verifier key, consistency proofs. Plain fetch: they load no part of the service.
 */
export class LogClient {
  private readonly base: string;

  constructor(
    url: string,
    private readonly key: string | undefined,
  ) {
    this.base = url.replace(/\/+$/, '');
  }

  async checkpoint(): Promise<string> {
    return (await this.get('/v1/audit/checkpoint', false)).text();
  }

  async publicKey(): Promise<string> {
    return (await (await this.get('/v1/audit/public-key', false)).text()).trim();
  }

  /** The proof that the tree of `to` events extends the tree of `from` (base64 hashes); needs a key with audit:read. */
  async consistencyProof(from: number, to: number): Promise<string[]> {
    const response = await this.get(`/v1/audit/proofs/consistency?from=${from}&to=${to}`, true);
    const body = (await response.json()) as { proof?: unknown };
    if (!Array.isArray(body.proof) || !body.proof.every((hash) => typeof hash === 'string'))
      throw new Error(`${this.base} answered a consistency proof without its hashes`);
    return body.proof;
  }

  private async get(path: string, keyed: boolean): Promise<Response> {
    if (keyed && !this.key)
      throw new Error('asking the log for a consistency proof needs a key with audit:read: --key or FINSYNTH_KEY');
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        headers: keyed ? { authorization: `Bearer ${this.key}` } : {},
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`cannot reach ${this.base}: ${(error as Error).message}`, { cause: error });
    }
    if (!response.ok) {
      const text = await response.text();
      let detail = text.slice(0, 300);
      try {
        detail = (JSON.parse(text) as { detail?: string }).detail ?? detail;
      } catch {
        // Not a problem document: its text says what went wrong.
      }
      throw new Error(`${this.base}${path} answered ${response.status}: ${detail}`);
    }
    return response;
  }
}
