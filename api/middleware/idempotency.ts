import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { canonicalJson } from '../../core/events/canonical-json.js';
import { ProblemError, defineProblem, problem } from '../../core/problems.js';
import { keepClaim } from '../../core/idempotency/claim-lease.js';
import { releaseLater } from '../../core/idempotency/release-later.js';
import {
  CLAIM_LEASE_MS,
  holds,
  idempotencyDecider,
  idempotencyStream,
  type IdempotencyCommand,
  type RecordedResponse,
} from '../../core/idempotency/idempotency.js';
import type { ApiContext } from '../http/context.js';
import { HttpProblems } from '../http/problems.js';
import { respondWithProblem } from '../http/problem-response.js';
import type { RouteDefinition } from '../http/route.js';

/** Larger responses (big quick generations) are not kept: a repeat is told so rather than answered twice. */
export const MAX_RECORDED_BODY_BYTES = 1024 * 1024;

export const IdempotentResponseNotKept = defineProblem({
  slug: 'idempotent-response-not-kept',
  title: 'Conflict',
  status: 409,
  description:
    `The request with this Idempotency-Key was performed, but its response was not kept: ` +
    `it exceeded ${MAX_RECORDED_BODY_BYTES} bytes, it carried a secret shown once (a new key), ` +
    `or the client left before the end of its stream. It is not performed again.`,
});

export const IdempotentReplayNotAcceptable = defineProblem({
  slug: 'idempotent-replay-not-acceptable',
  title: 'Not Acceptable',
  status: 406,
  description:
    'The request with this Idempotency-Key was answered in a format (`supported`) that the Accept of this repeat ' +
    'does not admit. A repeat is answered with the first response as it was sent, never in another format: ' +
    'repeat it with an Accept that admits that format (or none). The work is not done again.',
});

/**
 * An operation whose answer's format follows Accept (quick generation): its replay must be checked
 * against the repeat's Accept. Others answer one format whatever Accept says, and so do their replays.
 */
export const negotiatesFormat = (route: Pick<RouteDefinition<unknown, unknown, unknown>, 'responses'>): boolean =>
  Object.values(route.responses).some((response) => Object.keys(response.content ?? {}).length > 1);

/** An sf-string (`"…"`, as the draft writes it) or a bare token (as Stripe's clients send it). */
const KEY_SYNTAX = /^(?:"([\x20\x21\x23-\x5B\x5D-\x7E]{1,255})"|([\x21\x23-\x2B\x2D-\x5B\x5D-\x7E]{1,255}))$/;
/** Headers that belong to one exchange, not to the response being replayed. */
const NOT_REPLAYED = new Set([
  'request-id',
  'ratelimit',
  'ratelimit-policy',
  'date',
  'content-length',
  'connection',
  'transfer-encoding',
  'keep-alive',
]);

/** The key an Idempotency-Key header carries, unquoted; null when the header is malformed. */
export function idempotencyKeyOf(header: string): string | null {
  const syntax = KEY_SYNTAX.exec(header);
  return syntax ? (syntax[1] ?? syntax[2]!) : null;
}

/** The original request of the use of the key each claiming request continues, as its claim names it. */
const originalRequests = new WeakMap<ApiContext, string>();

/**
 * The request whose work this one does: the first attempt of its use of the Idempotency-Key, which every
 * retry of it names (after a 5xx released the claim, or after it took over the claim of an instance that
 * died), so that what must happen once for all attempts (a debit) is keyed on it. The request itself
 * without a key and on a first attempt; UNRECORDED_ORIGINAL for a use of the key begun under claims of
 * version 1.
 */
export const originalAttemptOf = (ctx: ApiContext): string => originalRequests.get(ctx) ?? ctx.state.requestId;

export interface IdempotencyOptions {
  /** False for a response that carries a secret shown once: it is never kept. */
  keepBody: boolean;
  /** The operation answers the format Accept asks for (negotiatesFormat). */
  negotiated: boolean;
}

/**
 * The Idempotency-Key header (IETF draft): a repeat with the same key and the same request gets the
 * first response again without the work being done twice; the same key for another request is 422;
 * a repeat while the first is in flight is 409. Keys are scoped to the account and the mode.
 * Responses of 5xx and 429 are not kept: the claim is released, so that a retry does the work.
 * The claim is a lease renewed until the response is kept or the claim released: a retry takes over
 * the claim of a request whose instance died once its lease runs out (CLAIM_LEASE_MS), never before.
 */
export async function idempotent(
  ctx: ApiContext,
  body: unknown,
  work: () => Promise<void>,
  { keepBody, negotiated }: IdempotencyOptions,
): Promise<void> {
  const header = ctx.get('Idempotency-Key');
  if (header === '') return work();
  const key = idempotencyKeyOf(header);
  if (key === null)
    throw problem(
      HttpProblems.invalidIdempotencyKey,
      'the Idempotency-Key header is malformed: 1 to 255 visible ASCII characters, optionally quoted',
    );
  const { accountId, mode } = ctx.state.auth;
  const stream = idempotencyStream(accountId, mode, key);
  const handle = (command: IdempotencyCommand) =>
    ctx.services.commands.handle(idempotencyDecider, stream, command, {
      metadata: { request_id: ctx.state.requestId, key_id: ctx.state.auth.keyId, mode },
    });
  const now = () => ctx.services.clock.now().toISOString();

  const { requestId } = ctx.state;
  const claim = await handle({
    type: 'ClaimKey',
    accountId,
    mode,
    fingerprint: requestFingerprint(ctx.method, ctx.path, ctx.query, body),
    requestId,
    at: now(),
  });
  if (claim.events.length === 0 && claim.state.status === 'completed') {
    return replay(ctx, claim.state.response, negotiated);
  }
  if (claim.state.status === 'in_flight') originalRequests.set(ctx, claim.state.originalRequestId);

  const lease = keepClaim({
    clock: ctx.services.clock,
    renew: async (at) => holds((await handle({ type: 'RenewClaim', requestId, at })).state, requestId),
    onLost: () =>
      ctx.logger.error(
        { request_id: requestId },
        'the idempotency claim of this request was taken over: it could not be renewed for a whole lease',
      ),
    onError: (error) =>
      ctx.logger.warn({ err: error, request_id: requestId }, 'the idempotency claim could not be renewed; retrying'),
  });
  const release = async (reason: string) => {
    await lease.stop();
    const releasing = () => handle({ type: 'ReleaseKey', requestId, reason, at: now() });
    // The failure the client hears is the request's own; the release goes on behind it until the store takes it.
    await releasing().catch(() =>
      releaseLater(releasing, CLAIM_LEASE_MS, (error) =>
        ctx.logger.warn(
          { err: error, request_id: requestId },
          'the idempotency claim could not be released; its lease will run out',
        ),
      ),
    );
  };
  try {
    await work();
  } catch (error) {
    if (!(error instanceof ProblemError) || !kept(error.type.status)) {
      await release(error instanceof ProblemError ? error.type.slug : 'unexpected error');
      throw error;
    }
    respondWithProblem(ctx, error);
  }
  if (!kept(ctx.status)) {
    await release(`status ${ctx.status}`);
    return;
  }
  // The work is done: a failure to keep its response must not turn it into an error. The claim then
  // stays in flight, and a retry meets 409 until the lease lets it take over.
  const record = (bodyBase64: string | null) =>
    lease
      .stop()
      .then(() =>
        handle({
          type: 'RecordResponse',
          requestId,
          response: { status: ctx.status, headers: replayedHeaders(ctx), body_base64: bodyBase64 },
          at: now(),
        }),
      )
      .catch((error: unknown) =>
        ctx.logger.error({ err: error, request_id: requestId }, 'the idempotent response could not be recorded'),
      );
  // A problem holds no secret: only a success of a secret-bearing operation goes unkept.
  if (!keepBody && ctx.status < 400) {
    await record(null);
  } else if (ctx.body instanceof Readable) {
    ctx.body = recordWhileStreaming(ctx.body, record, release);
  } else {
    const bytes = bodyBytes(ctx.body);
    await record(bytes.length > MAX_RECORDED_BODY_BYTES ? null : bytes.toString('base64'));
  }
}

const kept = (status: number): boolean => status < 500 && status !== 429;

/** What makes two requests the same: method, path, query (in any order) and body (members in any order). */
export function requestFingerprint(method: string, path: string, query: unknown, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${path}\n${canonicalJson(query)}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

/**
 * The first response again, byte for byte. A negotiated success is replayed only to a repeat whose Accept
 * admits its format: answering another format than asked would go unnoticed by a client that parses what
 * it asked for, and doing the work again in the new format would break the key's promise. Problems are
 * problem+json whatever Accept says, as on a first request.
 */
function replay(ctx: ApiContext, response: RecordedResponse, negotiated: boolean): void {
  if (response.body_base64 === null) {
    throw problem(
      IdempotentResponseNotKept,
      `the first request with this Idempotency-Key answered ${response.status}; ` +
        `its response was not kept (too large, a secret shown once, or its client left before the end)`,
    );
  }
  const mediaType = response.headers['content-type']?.split(';')[0]!.trim();
  if (negotiated && response.status < 400 && mediaType && ctx.accepts(mediaType) === false) {
    throw problem(
      IdempotentReplayNotAcceptable,
      `the first request with this Idempotency-Key was answered as ${mediaType}, ` +
        `which this repeat's Accept (${ctx.get('Accept')}) does not admit; repeat it accepting ${mediaType}`,
      { supported: [mediaType] },
    );
  }
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  ctx.set('Idempotent-Replayed', 'true');
  ctx.body = Buffer.from(response.body_base64, 'base64');
}

function replayedHeaders(ctx: ApiContext): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (!NOT_REPLAYED.has(name.toLowerCase()) && value !== undefined)
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/** What Koa would send for this body. */
function bodyBytes(body: unknown): Buffer {
  if (body === null || body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.from(JSON.stringify(body), 'utf8');
}

/**
 * Passes a streamed body through unchanged, keeping a copy to record once it has ended. A client that
 * leaves before the end leaves the work done and its response cut: it is recorded as not kept, so that
 * a repeat is told so (409) rather than run again.
 */
function recordWhileStreaming(
  source: Readable,
  record: (bodyBase64: string | null) => Promise<unknown>,
  release: (reason: string) => Promise<unknown>,
): Readable {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const copy = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size <= MAX_RECORDED_BODY_BYTES) chunks.push(chunk);
      done(null, chunk);
    },
    flush(done) {
      settled = true;
      record(size > MAX_RECORDED_BODY_BYTES ? null : Buffer.concat(chunks).toString('base64')).then(() => done(), done);
    },
  });
  source.on('error', (error) => {
    settled = true;
    copy.destroy(error);
    release('the response stream failed').catch(() => {});
  });
  copy.once('close', () => {
    if (settled) return;
    source.destroy();
    void record(null);
  });
  return source.pipe(copy);
}
