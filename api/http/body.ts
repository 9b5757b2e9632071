import getRawBody from 'raw-body';
import { problem } from '../../core/problems.js';
import { documentFlaw } from '../../core/configs/document-flaws.js';
import type { SourceMap } from '../../core/configs/source-map.js';
import type { ApiContext } from './context.js';
import { whenAnnouncedOver } from './chunked-bodies.js';
import { jsonSourceMap, jsonSyntaxError, tooDeepAt, type TooDeep } from './json-source.js';
import { HttpProblems } from './problems.js';
import { isJsonMediaType, type RouteDefinition } from './route.js';

/** Default body limit; a route may set its own `maxBytes`. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Deeper JSON is refused before any code walks it recursively (validation, hashing, cloning). */
export const MAX_JSON_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface ReadBody {
  mediaType: string | undefined;
  value: unknown;
  /** For a JSON body: where each of its parts stands in the text, to place errors by line and column. */
  source?: SourceMap;
}

/**
 * Reads the body of a route that takes one: checks the media type before reading, the size while
 * reading, the encoding (strict UTF-8), then parses JSON media types. Each failure is its own problem;
 * a JSON syntax error says its line and column.
 */
export async function readBody(ctx: ApiContext, route: RouteDefinition<unknown, unknown, unknown>): Promise<ReadBody> {
  const spec = route.body;
  if (!spec) return { mediaType: undefined, value: undefined };
  const supported = Object.keys(spec.content);
  // Media types are case-insensitive (RFC 9110 8.3.1); Koa gives the header's text before any `;` as sent.
  const mediaType = ctx.request.type.trim().toLowerCase() || undefined;
  const hasBody = ctx.request.length > 0 || ctx.get('Transfer-Encoding') !== '';
  // An empty body is no body, also under a Content-Type (clients that set one on every request).
  if (!hasBody && spec.required === false) return { mediaType: undefined, value: undefined };
  const coding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (coding !== '' && coding !== 'identity') {
    // Its bytes would otherwise be read as text, and fail as a malformed body that the client sent well-formed.
    throw problem(
      HttpProblems.unsupportedMediaType,
      `bodies are read without a content coding, not ${coding}; send it uncompressed`,
      { supported },
      { 'Accept-Encoding': 'identity' },
    );
  }
  if (!mediaType || !supported.includes(mediaType)) {
    throw problem(
      HttpProblems.unsupportedMediaType,
      mediaType
        ? `this operation does not read ${mediaType}; send one of: ${supported.join(', ')}`
        : `the Content-Type header is missing; send one of: ${supported.join(', ')}`,
      { supported },
      { 'Accept-Post': supported.join(', ') },
    );
  }
  const charset = ctx.request.charset;
  if (charset && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
    throw problem(HttpProblems.unsupportedMediaType, `bodies are read as UTF-8, not ${charset}`, { supported });
  }
  const text = utf8Text(await rawBody(ctx, spec.maxBytes ?? DEFAULT_MAX_BODY_BYTES));
  if (!isJsonMediaType(mediaType)) return { mediaType, value: text };
  return { mediaType, value: parseJson(text), source: jsonSourceMap(text) };
}

async function rawBody(ctx: ApiContext, limit: number): Promise<Buffer> {
  // The rest of the body is left unread: the connection is closed after the answer, or the client would go
  // on sending into a socket nobody reads, and the connection (with the client's next request) would hang.
  const tooLarge = () =>
    problem(
      HttpProblems.payloadTooLarge,
      `the body exceeds ${limit} bytes`,
      { limit_bytes: limit },
      { Connection: 'close' },
    );
  const declared = ctx.get('Content-Length');
  if (declared && Number(declared) > limit) throw tooLarge();
  // A chunked body is refused as soon as its chunks announce more than the limit, not once that much has come.
  let stopWatching = () => {};
  const announcedOver = new Promise<never>((_resolve, reject) => {
    stopWatching = whenAnnouncedOver(ctx.req, limit, () => reject(tooLarge()));
  });
  try {
    return await Promise.race([getRawBody(ctx.req, { length: declared || undefined, limit }), announcedOver]);
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw tooLarge();
    if (type === 'request.size.invalid')
      throw problem(HttpProblems.malformedJson, 'the body is shorter or longer than its Content-Length');
    throw error;
  } finally {
    stopWatching();
  }
}

function utf8Text(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw problem(HttpProblems.invalidEncoding, 'the body is not valid UTF-8');
  }
}

function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Too deep for the parser that places syntax errors: the depth is the problem to answer.
    const deep = tooDeepAt(text, MAX_JSON_DEPTH);
    if (deep) throw tooDeep(deep);
    const syntax = jsonSyntaxError(text);
    if (!syntax) throw problem(HttpProblems.malformedJson, `the body is not valid JSON: ${(error as Error).message}`);
    const where = syntax.line === undefined ? '' : ` (line ${syntax.line}, column ${syntax.column})`;
    throw problem(HttpProblems.malformedJson, `the body is not valid JSON: ${syntax.message}${where}`, {
      errors: [{ in: 'body', ...syntax }],
    });
  }
  // The text, not the value: a member given twice keeps its last value, and a deep first one would still
  // overflow the parser that later places an error in the text.
  const deep = tooDeepAt(text, MAX_JSON_DEPTH);
  if (deep) throw tooDeep(deep);
  const flaw = documentFlaw(value, Infinity);
  if (flaw?.kind === 'reserved-member') {
    throw problem(
      HttpProblems.reservedMember,
      `the body has a member named "__proto__" (at ${flaw.pointer}), which no document of this API has`,
      { pointer: flaw.pointer },
    );
  }
  if (flaw?.kind === 'invalid-text') {
    throw problem(
      HttpProblems.invalidText,
      `the body has text with U+0000 or a lone surrogate (at ${flaw.pointer}), which no field of this API takes`,
      { pointer: flaw.pointer },
    );
  }
  return value;
}

/** Nesting too deep, at the bracket that opens the level too many. */
function tooDeep(at: TooDeep) {
  const message = `nested deeper than ${MAX_JSON_DEPTH} levels`;
  return problem(HttpProblems.nestingTooDeep, `the body is ${message} (line ${at.line}, column ${at.column})`, {
    max_depth: MAX_JSON_DEPTH,
    errors: [{ in: 'body', message, ...at }],
  });
}
