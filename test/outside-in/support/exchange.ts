import { DocumentedAnswers, type Operation } from './documented.js';
import type { Tally } from './tally.js';
import { NoAnswer, type WireClient, type WireRequest, type WireResponse } from './wire.js';

/** A status, or a status and the problem slug it must carry (`'400 invalid-plan'`). */
export type Expected = number | `${number} ${string}`;

/** A 429 asks the client to wait: the request is sent again after Retry-After, this many times at most. */
const RATE_LIMITED_RETRIES = 5;

const describeRequest = (request: WireRequest): string => {
  const body = request.body ? ` body ${request.body.length} B: ${request.body.subarray(0, 300).toString('utf8')}` : '';
  return `${request.method} ${request.path}${body}`;
};

/**
 * Sends requests of known operations, checks every answer against the document and against what
 * the caller expects, counts them, and collects what went wrong instead of stopping at the first.
 */
export class Exchanges {
  readonly failures: string[] = [];
  sent = 0;

  constructor(
    private readonly client: WireClient,
    private readonly answers: DocumentedAnswers,
    private readonly operations: ReadonlyMap<string, Operation>,
    private readonly tally: Tally,
  ) {}

  fail(message: string): void {
    this.failures.push(message);
  }

  /** The answer, or undefined when there was none or it was not as documented (a failure is then recorded). */
  async send(
    operationId: string,
    request: WireRequest,
    expected: readonly Expected[],
  ): Promise<WireResponse | undefined> {
    const operation = this.operations.get(operationId);
    if (!operation) throw new Error(`no operation ${operationId} in the document`);
    for (let attempt = 0; ; attempt++) {
      this.sent++;
      let response: WireResponse;
      try {
        response = await this.client.send(request);
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
        this.fail(`${operationId}: no answer (${error.message}) to ${describeRequest(request)}`);
        return undefined;
      }
      const slug = DocumentedAnswers.slugOf(response);
      this.tally.count(operationId, response.status, slug);
      try {
        this.answers.check(operation, response);
      } catch (error) {
        this.fail(`${operationId}: ${(error as Error).message}\n  request: ${describeRequest(request)}`);
        return undefined;
      }
      if (response.status === 429 && slug === 'rate-limited' && attempt < RATE_LIMITED_RETRIES) {
        await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
        continue;
      }
      if (
        !expected.some((what) =>
          typeof what === 'number' ? what === response.status : what === `${response.status} ${slug}`,
        )
      ) {
        this.fail(
          `${operationId}: expected ${expected.join(' or ')}, got ${response.status} ${slug ?? ''}\n` +
            `  request: ${describeRequest(request)}\n  answer: ${response.text.slice(0, 400)}`,
        );
        return undefined;
      }
      return response;
    }
  }
}
