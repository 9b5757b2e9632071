import { expect } from 'chai';
import fc from 'fast-check';
import Mocha from 'mocha';
import { DocumentedAnswers, operationsOf, type OpenApiDocument, type Operation } from './support/documented.js';
import { runSeed, Random } from './support/random.js';
import { EXAMPLE_PACK, startServerProcess, type ServerProcess } from './support/server-process.js';
import { Tally } from './support/tally.js';
import { jsonRequest, NoAnswer, WireClient, type WireRequest, type WireResponse } from './support/wire.js';
import { describeWire, toWire } from './fuzz/draft.js';
import { draftArbitrary } from './fuzz/draft-arbitrary.js';
import { createKnownObjects, hintsFor, type KnownObjects } from './fuzz/known-objects.js';
import { MUTATION_NAMES, MUTATIONS, type MutationContext } from './fuzz/mutations.js';

/** Generated requests per operation, and the seed they all derive from (printed; FUZZ_SEED= repeats a run). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = runSeed('FUZZ_SEED');
/** A 429 asks the client to wait: the same request is sent again after Retry-After, this many times at most. */
const RATE_LIMITED_RETRIES = 5;
/** Bodies above this size may meet a reset when the server refuses them early; smaller ones fit the socket buffers. */
const RESET_TOLERATED_BODY_BYTES = 1024 * 1024;
/** Mutations applied to one generated request: none (a valid request) to this many. */
const MAX_MUTATIONS = 3;

const MONEY_SCOPES = /^(billing|audit)/;
/** FUZZ_OPERATIONS=getSector,listJobs fuzzes those operations only, with the seeds a whole run gives them. */
const ONLY = process.env.FUZZ_OPERATIONS ? process.env.FUZZ_OPERATIONS.split(',') : undefined;

describe('fuzz: every operation of the OpenAPI document, against `finsynth serve`', function () {
  this.timeout(10 * 60_000);
  let server: ServerProcess;
  let client: WireClient;
  let answers: DocumentedAnswers;
  let operations: Operation[];
  let known: KnownObjects;
  let context: MutationContext;
  const tally = new Tally();
  const started = performance.now();

  before(async function () {
    this.timeout(240_000);
    console.log(`    fuzz seed ${SEED} (FUZZ_SEED=${SEED} repeats the run), ${RUNS} requests per operation`);
    server = await startServerProcess({ env: { FINSYNTH_PACKS: EXAMPLE_PACK, FINSYNTH_POOL_SIZE: '2' } });
    client = new WireClient(server.port, 2);
    const document = (await client.send({ method: 'GET', path: '/v1/openapi.json', headers: [] }))
      .body as OpenApiDocument;
    answers = new DocumentedAnswers(document);
    operations = operationsOf(document);
    known = await createKnownObjects(server, client);
    context = { bodyLimits: await bodyLimits(), badAuthorizations };
  });

  after(async () => {
    client?.close();
    await server?.cleanup();
  });

  /** Each operation's body limit, as its 413 states it for a body announced far larger than any limit. */
  async function bodyLimits(): Promise<Map<string, number>> {
    const limits = new Map<string, number>();
    for (const operation of operations.filter(({ spec }) => spec.requestBody)) {
      const path = operation.path.replace(/\{\w+\}/g, 'x');
      const mediaType = Object.keys(operation.spec.requestBody!.content)[0]!;
      const request: WireRequest = {
        method: operation.method,
        path,
        headers: [
          ['Authorization', `Bearer ${known.keys.test}`],
          ['Content-Type', mediaType],
          ['Content-Length', String(2 ** 30)],
        ],
      };
      const response = await client.send(request);
      const limit = (response.body as { limit_bytes?: number }).limit_bytes;
      if (response.status !== 413 || typeof limit !== 'number')
        throw new Error(
          `setup: ${operation.id} answered a 1 GiB body with ${response.status}: ${response.text.slice(0, 300)}`,
        );
      limits.set(operation.id, limit);
    }
    return limits;
  }

  function badAuthorizations(scope: string | undefined): string[] {
    const lacking = scope === 'generate' ? known.onlyCatalog : known.onlyGenerate;
    return [
      'Bearer',
      'Bearer ',
      'Basic dXNlcjpwYXNz',
      `bearer ${known.keys.test}`,
      `Bearer ${known.keys.test} extra`,
      `Bearer svc_test_${'A'.repeat(32)}`,
      'Bearer svc_live_short',
      `Bearer ${known.revoked}`,
      `Bearer ${lacking}`,
      'Bearer 😀',
    ];
  }

  /** The keys an operation is called with: mostly the sandbox; live money through the second account. */
  function authorizations(operation: Operation): fc.Arbitrary<string | undefined> {
    const scope = operation.spec['x-required-scope'];
    if (scope === undefined) return fc.constant(undefined);
    const bearer = (key: string) => `Bearer ${key}`;
    if (MONEY_SCOPES.test(scope))
      return fc.oneof(
        { arbitrary: fc.constant(bearer(known.keys.billingLive)), weight: 3 },
        fc.constant(bearer(known.keys.test)),
      );
    return fc.oneof(
      { arbitrary: fc.constant(bearer(known.keys.test)), weight: 4 },
      fc.constant(bearer(known.keys.live)),
    );
  }

  /**
   * Sends the request (again after a 429's Retry-After), and throws unless the answer is as documented
   * and the server lives.
   */
  const died = () => `exited ${JSON.stringify(server.exit())}:\n${server.lastLines()}`;
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const largeBody = (request: WireRequest) => (request.body?.length ?? 0) > RESET_TOLERATED_BODY_BYTES;

  async function exchange(operation: Operation, request: WireRequest): Promise<WireResponse | undefined> {
    for (let attempt = 0; ; attempt++) {
      let response: WireResponse;
      try {
        response = await client.send(request);
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
        // A request refused before its body is read (a body over the limit, a request line Node cannot
        // parse) has its connection closed at once: a client still sending a body larger than the socket
        // buffers may see the reset before the answer (RFC 9112 9.6). Counted, not failed.
        if (largeBody(request) && /EPIPE|ECONNRESET/.test(error.message) && server.alive()) {
          tally.count(operation.id, 'reset');
          return undefined;
        }
        throw new Error(`no answer (${error.message}); the server ${server.alive() ? 'lives' : died()}`, {
          cause: error,
        });
      }
      const slug = DocumentedAnswers.slugOf(response);
      tally.count(operation.id, response.status, slug);
      answers.check(operation, response);
      if (!server.alive()) throw new Error(`the server ${died()}`);
      if (response.status !== 429 || slug !== 'rate-limited' || attempt === RATE_LIMITED_RETRIES) return response;
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
    }
  }

  /** A job the fuzzer created is cancelled at once: it would otherwise hold the workers for a long config. */
  async function undo(operation: Operation, request: WireRequest, response: WireResponse | undefined): Promise<void> {
    if (operation.id !== 'createJob' || response?.status !== 202) return;
    const authorization = request.headers.find(([name]) => name === 'Authorization')![1];
    const cancel = operations.find(({ id }) => id === 'cancelJob')!;
    const id = (response.body as { id: string }).id;
    await exchange(cancel, {
      method: 'POST',
      path: `/v1/jobs/${id}/cancel`,
      headers: [['Authorization', authorization]],
    });
  }

  /** One operation: RUNS requests generated from its schemas, mutated, each answered as documented. */
  async function fuzz(operation: Operation, index: number): Promise<void> {
    const drafts = draftArbitrary(operation, hintsFor(operation, known), authorizations(operation));
    const mutations = fc.array(fc.constantFrom(...MUTATION_NAMES), { maxLength: MAX_MUTATIONS });
    const property = fc.asyncProperty(drafts, mutations, fc.nat(), async (generated, chosen, mutationSeed) => {
      const draft = { ...structuredClone(generated), operation };
      const random = new Random(mutationSeed);
      for (const name of chosen) MUTATIONS[name]!(draft, random, context);
      const request = toWire(draft);
      try {
        await undo(operation, request, await exchange(operation, request));
      } catch (error) {
        throw new Error(
          [
            (error as Error).message,
            `mutations: ${chosen.join(', ') || 'none'}`,
            `request: ${describeWire(request)}`,
          ].join('\n  '),
          { cause: error },
        );
      }
    });
    const details = await fc.check(property, { numRuns: RUNS, seed: SEED + index, endOnFailure: true });
    if (details.failed) {
      const cause =
        details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      throw new Error(
        `${operation.id}: ${cause}\n  fuzz seed ${SEED} (FUZZ_SEED=${SEED} FUZZ_OPERATIONS=${operation.id} ` +
          `repeats it; this operation's fast-check seed ${SEED + index}, run ${details.numRuns})`,
      );
    }
    expect(tally.requests(operation.id)).to.be.at.least(RUNS);
  }

  // The operations are known once the server serves its document: one test each is added then, before the last.
  before(function () {
    expect(operations.length, 'operations in the document').to.be.at.least(40);
    const suite = this.test!.parent!;
    const last = suite.tests.pop()!;
    operations.forEach((operation, index) => {
      if (ONLY && !ONLY.includes(operation.id)) return;
      suite.addTest(
        new Mocha.Test(
          `${operation.method} ${operation.path} (${operation.id}): ` +
            `${RUNS} generated and mutated requests, each answered as documented`,
          () => fuzz(operation, index),
        ),
      );
    });
    suite.addTest(last);
  });

  it('is alive at the end, logged and counted no unexpected error, stops, and its audit holds', async () => {
    const alive = server.alive();
    const health = alive ? await client.send({ method: 'GET', path: '/healthz', headers: [] }) : undefined;
    const metrics = alive ? (await client.send(jsonRequest('GET', '/metrics', undefined))).text : '';
    const unexpected = metrics
      .split('\n')
      .filter((line) => /^finsynth_unexpected_errors_total\{/.test(line) && !/ 0$/.test(line));
    client.close();
    const exitCode = await server.stop();
    const audit = await server.cli(['audit', '--json']);
    console.log(
      `    fuzz: ${tally.requests()} requests in ${seconds(performance.now() - started)} s\n${tally.report()}`,
    );
    expect(alive, `the server ${died()}`).to.equal(true);
    expect(health?.status).to.equal(200);
    expect(unexpected, 'unexpected errors counted in /metrics').to.deep.equal([]);
    expect(server.errorLines(), 'error lines in the server log').to.deep.equal([]);
    expect(exitCode, 'exit code after SIGTERM').to.equal(0);
    expect(audit.code, audit.stderr).to.equal(0);
    expect((JSON.parse(audit.stdout) as { holds: boolean }).holds).to.equal(true);
  });
});
