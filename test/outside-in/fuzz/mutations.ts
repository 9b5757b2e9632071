import type { Random } from '../support/random.js';
import { bodyBytes, fragment, isJsonMediaType, type Draft } from './draft.js';

/** What the mutations need to know of the server under test. */
export interface MutationContext {
  /** The body limit of each operation that takes a body, as its 413 tells it. */
  bodyLimits: ReadonlyMap<string, number>;
  /** Authorization values that must be refused (none, malformed, unknown, revoked) or lack the scope. */
  badAuthorizations: (operationScope: string | undefined) => string[];
}

type Mutation = (draft: Draft, random: Random, context: MutationContext) => void;

type Json = null | boolean | number | string | Json[] | { [member: string]: Json };
interface Place {
  parent: Json[] | { [member: string]: Json } | undefined;
  key: string | number;
}

/** Every place in the body where a value stands (the root included, as parent undefined). */
function places(value: Json, parent?: Place['parent'], key: string | number = ''): Place[] {
  const here: Place[] = [{ parent, key }];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => places(item, value, index))];
  if (value !== null && typeof value === 'object')
    return [...here, ...Object.entries(value).flatMap(([name, member]) => places(member, value, name))];
  return here;
}

const valueAt = (draft: Draft, place: Place): Json =>
  place.parent === undefined ? (draft.body as Json) : (place.parent as Record<string | number, Json>)[place.key]!;

function setAt(draft: Draft, place: Place, value: Json): void {
  if (place.parent === undefined) draft.body = value;
  else (place.parent as Record<string | number, Json>)[place.key] = value;
}

const jsonBody = (draft: Draft): boolean =>
  isJsonMediaType(draft.mediaType) && draft.body !== undefined && draft.bytes === undefined;

function objectsOf(draft: Draft): Array<{ [member: string]: Json }> {
  const found = places(draft.body as Json).map((place) => valueAt(draft, place));
  return found.filter(
    (value): value is { [member: string]: Json } =>
      value !== null && typeof value === 'object' && !Array.isArray(value),
  );
}

/** Strings no field of the API takes, and some it should take: scripts, emoji, joiners, controls, a BOM. */
const UNICODE = [
  '😀🎉',
  'Ünïcödé',
  'مرحبا',
  '\u202Eevil',
  'e\u0301',
  '\uFEFF',
  '\u2028\u2029',
  '𝓯𝓾𝔃𝔃',
  'Z̸̢͎a̵l̷g̶o̶',
  '\u200B',
  'ＦＵＬＬ',
  '\t\r\n',
  '',
];
/** Raw JSON texts of strings that decode to what the service refuses (a NUL, lone surrogates). */
const UNICODE_ESCAPES = ['"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"\\udfff"', '"\\udc00\\ud800"', '"\\uFFFF"'];
const HUGE_NUMBERS = [
  '1e400',
  '-1e400',
  '9007199254740993',
  '1e308',
  '-0',
  '123456789012345678901234567890',
  '5e-324',
  '1E+2',
  '1.0',
  '-9007199254740993',
];
const DEPTHS = [63, 64, 65, 200, 5_000, 100_000];
const PATH_VALUES = [
  '..',
  '../',
  '../../etc/passwd',
  '..\\..\\windows',
  '%00',
  'a\u0000b',
  '%2e%2e%2f',
  '.',
  ' ',
  '%',
  '😀',
  'x'.repeat(65),
  'x'.repeat(4000),
  'job_',
  'job_zz',
  'job_00',
  'cfg_../..',
  '?a=1',
  '#frag',
];
/**
 * Sent without encoding: only characters a request line may carry (0x21-0xFF; those above 0x7F go as
 * latin1 bytes, invalid UTF-8).
 */
const RAW_PATH_VALUES = [
  '..',
  '.',
  '%00',
  '%',
  '%zz',
  '%FF',
  '%C0%AF',
  '%ED%A0%80',
  '\xff',
  '\xc3\x28',
  'a%2F..%2F..',
  '~',
  ';x=1',
];
const CURSORS = [
  '',
  'x',
  '../../etc/passwd',
  '%00',
  'null',
  '-1',
  '0',
  'Zm9vYmFy',
  '{"id":1}',
  'key_' + 'A'.repeat(20),
  'cfg_0000',
  'c'.repeat(512),
  'c'.repeat(513),
  '😀',
  '\u0000',
];
const LIMITS = ['0', '-1', '101', '1.5', '1e3', 'abc', '', ' 1', '9999999999999999999999', 'true', '0x10'];
const CONTENT_TYPES = [
  null,
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json;charset="utf-8"',
  'application/merge-patch+json',
  'application/yaml',
  'text/yaml',
  '*/*',
  'json',
  'application/',
  ';;',
  'application/json, text/plain',
  'application/x-ndjson',
  'text/csv',
];
const ACCEPTS = [
  'application/xml',
  'text/csv',
  'application/x-ndjson',
  '*/*;q=0',
  'text/*',
  'application/json;q=0, text/csv',
  ';;;',
  'image/png',
  '',
  'a'.repeat(2000),
];
const IDEMPOTENCY_KEYS = [
  '',
  ' ',
  '"quoted"',
  '"unterminated',
  'a,b',
  'back\\slash',
  'x'.repeat(255),
  'x'.repeat(256),
  '\t',
  '\xe9t\xe9',
  'fuzz-1',
  'fuzz-2',
  'fuzz-3',
];
const RANGES = [
  'bytes=0-0',
  'bytes=-0',
  'bytes=5-1',
  'bytes=0-1,3-4',
  'items=0-1',
  'bytes=99999999999999999999-',
  'bytes=',
  'bytes=-',
  'bytes=abc',
  '\xff',
];
const ETAGS = ['"etag"', '*', 'W/"x"', '"', 'garbage', '"a", "b"', ''];
const MEMBER_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  'extra',
  '$ref',
  '😀',
  'a'.repeat(1000),
];
const INVALID_UTF8 = [
  [0xff],
  [0xc3, 0x28],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
  [0xfe, 0xfe, 0xff, 0xff],
];

/** A path parameter's new value, sent as it is (`raw`) or percent-encoded, whatever an earlier mutation chose. */
function setParam(draft: Draft, name: string, value: string, raw: boolean): void {
  draft.params[name] = value;
  draft.rawParams = draft.rawParams.filter((other) => other !== name);
  if (raw) draft.rawParams.push(name);
}

export const MUTATIONS: Record<string, Mutation> = {
  wrongType(draft, random) {
    if (!jsonBody(draft)) return;
    const place = random.pick(places(draft.body as Json));
    const current = valueAt(draft, place);
    const others: Json[] = [42, -1, 1.5, 'text', true, false, null, [], {}, [1, 'a'], { a: 1 }];
    setAt(
      draft,
      place,
      random.pick(
        others.filter((other) => typeof other !== typeof current || Array.isArray(other) !== Array.isArray(current)),
      ),
    );
  },
  hugeNumber(draft, random) {
    if (jsonBody(draft) && random.chance(0.7)) {
      setAt(draft, random.pick(places(draft.body as Json)), fragment(draft, random.pick(HUGE_NUMBERS)));
    } else if (draft.query.length > 0) {
      const index = random.int(0, draft.query.length - 1);
      draft.query[index] = [draft.query[index]![0], random.pick(HUGE_NUMBERS)];
    } else draft.query.push(['limit', random.pick(HUGE_NUMBERS)]);
  },
  unicode(draft, random) {
    const where = random.pick(['body', 'member', 'query', 'param']);
    if (where === 'body' && jsonBody(draft)) {
      const value = random.chance(0.5) ? random.pick(UNICODE) : fragment(draft, random.pick(UNICODE_ESCAPES));
      setAt(draft, random.pick(places(draft.body as Json)), value);
    } else if (where === 'member' && jsonBody(draft) && objectsOf(draft).length > 0) {
      const target = random.pick(objectsOf(draft));
      const name = random.chance(0.5) ? random.pick(UNICODE) : fragment(draft, random.pick(UNICODE_ESCAPES));
      target[name] = 1;
    } else if (where === 'query')
      draft.query.push([random.pick(draft.query.map(([name]) => name).concat('limit')), random.pick(UNICODE)]);
    else if (Object.keys(draft.params).length > 0)
      setParam(draft, random.pick(Object.keys(draft.params)), random.pick(UNICODE.filter(Boolean)), false);
  },
  deepNesting(draft, random) {
    if (!jsonBody(draft)) return;
    const depth = random.pick(DEPTHS);
    const text = random.chance(0.5)
      ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    setAt(draft, random.pick(places(draft.body as Json)), fragment(draft, text));
  },
  missingField(draft, random) {
    const objects = jsonBody(draft) ? objectsOf(draft).filter((value) => Object.keys(value).length > 0) : [];
    if (objects.length > 0 && random.chance(0.8)) {
      const target = random.pick(objects);
      delete target[random.pick(Object.keys(target))];
    } else if (draft.mediaType !== undefined) {
      draft.body = undefined;
      draft.contentType = random.chance(0.5) ? draft.mediaType : null;
    }
  },
  extraField(draft, random) {
    const objects = jsonBody(draft) ? objectsOf(draft) : [];
    if (objects.length > 0 && random.chance(0.7)) {
      const target = random.pick(objects);
      const existing = Object.keys(target);
      // A member named twice, or one the API has nowhere (among them the names every object inherits).
      const name = existing.length > 0 && random.chance(0.3) ? random.pick(existing) : random.pick(MEMBER_NAMES);
      target[fragment(draft, JSON.stringify(name))] = random.pick<Json>([1, 'x', null, { a: 1 }, []]);
    } else if (random.chance(0.5))
      draft.query.push([
        random.pick(['extra', '__proto__', 'constructor', 'api_key', 'limit[]', '']),
        random.pick(['1', '', 'x']),
      ]);
    else
      draft.headers.push([
        random.pick(['X-Extra', 'X-Forwarded-For', 'Forwarded', 'X-HTTP-Method-Override', 'Transfer-Encoding-X']),
        random.pick(['1', 'DELETE', '127.0.0.1, 10.0.0.1']),
      ]);
  },
  manyMembers(draft, random) {
    if (!jsonBody(draft)) return;
    const count = random.pick([100, 1_000, 5_000, 20_000]);
    const members = Array.from({ length: count }, (_, index) => `"m${index}":${index}`).join(',');
    const objects = objectsOf(draft);
    const text = `{${members}}`;
    if (objects.length > 0 && random.chance(0.5)) {
      const target = random.pick(objects);
      target[fragment(draft, '"m"')] = fragment(draft, text);
    } else draft.body = fragment(draft, text);
  },
  invalidCursor(draft, random) {
    const takes = (name: string) =>
      draft.operation.spec.parameters?.some((parameter) => parameter.in === 'query' && parameter.name === name);
    if (takes('cursor') && random.chance(0.7))
      draft.query = [...draft.query.filter(([name]) => name !== 'cursor'), ['cursor', random.pick(CURSORS)]];
    else if (takes('limit'))
      draft.query = [...draft.query.filter(([name]) => name !== 'limit'), ['limit', random.pick(LIMITS)]];
    else draft.query.push(['cursor', random.pick(CURSORS)]);
  },
  pathParam(draft, random) {
    const names = Object.keys(draft.params);
    if (names.length === 0) return;
    const name = random.pick(names);
    if (random.chance(0.3)) setParam(draft, name, random.pick(RAW_PATH_VALUES), true);
    else setParam(draft, name, random.pick(PATH_VALUES), false);
  },
  longHeader(draft, random) {
    const kind = random.pick(['custom', 'idempotency', 'authorization', 'many', 'accept', 'cookie']);
    const size = random.int(1_000, 12_000);
    if (kind === 'custom') draft.headers.push(['X-Fuzz', 'a'.repeat(size)]);
    else if (kind === 'idempotency')
      draft.headers = [
        ...draft.headers.filter(([name]) => name !== 'Idempotency-Key'),
        ['Idempotency-Key', 'k'.repeat(random.int(250, 4_000))],
      ];
    else if (kind === 'authorization') draft.authorization = `${draft.authorization ?? 'Bearer '}${'x'.repeat(size)}`;
    else if (kind === 'many')
      for (let index = 0; index < 80; index++) draft.headers.push([`X-Many-${index}`, 'v'.repeat(100)]);
    else if (kind === 'accept') draft.headers.push(['Accept', `${'text/plain;q=0.1, '.repeat(size / 20)}*/*`]);
    else draft.headers.push(['Cookie', `session=${'c'.repeat(size)}`]);
  },
  invalidUtf8(draft, random) {
    const where = random.pick(['body', 'body', 'param', 'query', 'header']);
    const bad = Buffer.from(random.pick(INVALID_UTF8));
    const bytes = bodyBytes(draft);
    if (where === 'body' && bytes !== undefined) {
      const quote = bytes.indexOf('"', random.int(0, Math.max(0, bytes.length - 1)));
      const at = quote >= 0 ? quote + 1 : random.int(0, bytes.length);
      draft.bytes = Buffer.concat([bytes.subarray(0, at), bad, bytes.subarray(at)]);
    } else if (where === 'param' && Object.keys(draft.params).length > 0) {
      const name = random.pick(Object.keys(draft.params));
      setParam(draft, name, bad.toString('latin1'), true);
    } else if (where === 'query')
      draft.rawQuery.push(
        random.chance(0.5)
          ? `limit=${bad.toString('latin1')}`
          : `cursor=${[...bad].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('')}`,
      );
    else
      draft.headers.push([
        random.pick(['Idempotency-Key', 'X-Fuzz', 'Accept', 'If-None-Match']),
        `v${bad.toString('latin1')}`,
      ]);
  },
  contentType(draft, random) {
    if (random.chance(0.8)) draft.contentType = random.pick(CONTENT_TYPES);
    else draft.headers.push(['Content-Encoding', random.pick(['gzip', 'br', 'identity', 'deflate, gzip'])]);
  },
  sizeLimit(draft, random, context) {
    const limit = context.bodyLimits.get(draft.operation.id);
    const bytes = bodyBytes(draft);
    if (limit === undefined || bytes === undefined) return;
    const target = random.pick([
      limit - 1,
      limit,
      limit + 1,
      limit + random.int(2, 65_536),
      random.int(Math.floor(limit / 2), limit),
    ]);
    const extra = Math.max(0, target - bytes.length);
    const text = bytes.toString('utf8');
    if (isJsonMediaType(draft.mediaType) && text.startsWith('{') && random.chance(0.5)) {
      // One long string member: the same document with a member more, as long as the limit allows.
      const member = `"pad":"${'p'.repeat(Math.max(0, extra - 9))}"${text === '{}' ? '' : ','}`;
      draft.bytes = Buffer.from(`{${member}${text.slice(1)}`);
    } else {
      // JSON may end in whitespace, YAML in a comment: the same document, padded.
      const tail = isJsonMediaType(draft.mediaType) ? ' '.repeat(extra) : `\n#${'p'.repeat(Math.max(0, extra - 2))}`;
      draft.bytes = Buffer.concat([bytes, Buffer.from(tail)]);
    }
  },
  malformedJson(draft, random) {
    const bytes = bodyBytes(draft);
    if (bytes === undefined) return;
    const text = bytes.toString('utf8');
    const kind = random.pick([
      'truncate',
      'garbage',
      'nan',
      'trailing-comma',
      'comment',
      'single-quotes',
      'bom',
      'two-documents',
    ]);
    const edits: Record<string, () => string> = {
      truncate: () => text.slice(0, random.int(0, Math.max(0, text.length - 1))),
      garbage: () => `${text}${random.pick(['}', ',', ']', 'x', '\u0000', '{}'])}`,
      nan: () => text.replace(/\d+/, 'NaN'),
      'trailing-comma': () => text.replace(/}$/, ',}'),
      comment: () => `/* c */${text}`,
      'single-quotes': () => text.replace(/"/g, "'"),
      bom: () => `\uFEFF${text}`,
      'two-documents': () => `${text}\n${text}`,
    };
    draft.bytes = Buffer.from(edits[kind]!());
  },
  authorization(draft, random, context) {
    const scope = draft.operation.spec['x-required-scope'];
    const choice = random.pick(context.badAuthorizations(scope).concat(['none', 'twice', 'query']));
    if (choice === 'none') draft.authorization = undefined;
    else if (choice === 'twice') draft.headers.push(['Authorization', random.pick(context.badAuthorizations(scope))]);
    else if (choice === 'query') draft.query.push(['api_key', (draft.authorization ?? '').replace(/^Bearer /, '')]);
    else draft.authorization = choice;
  },
  bodyOnBodyless(draft, random) {
    if (draft.operation.spec.requestBody) return;
    draft.mediaType = random.pick(['application/json', 'text/plain', 'application/yaml']);
    draft.body = random.pick<Json>([{ a: 1 }, [], 'text', { limit: 1 }]);
    if (draft.mediaType !== 'application/json') draft.body = JSON.stringify(draft.body);
  },
  chunked(draft) {
    draft.chunked = true;
  },
  accept(draft, random) {
    draft.headers.push(['Accept', random.pick(ACCEPTS)]);
  },
  idempotencyKey(draft, random) {
    draft.headers = [
      ...draft.headers.filter(([name]) => name !== 'Idempotency-Key'),
      ['Idempotency-Key', random.pick(IDEMPOTENCY_KEYS)],
    ];
  },
  conditional(draft, random) {
    if (random.chance(0.5)) draft.headers.push(['Range', random.pick(RANGES)]);
    if (random.chance(0.5)) draft.headers.push(['If-Range', random.pick(ETAGS)]);
    if (random.chance(0.5)) draft.headers.push(['If-None-Match', random.pick(ETAGS)]);
  },
  queryJunk(draft, random) {
    const kind = random.pick(['repeat', 'empty-name', 'no-value', 'long', 'encoded-name', 'plus']);
    const raw: Record<string, string> = {
      repeat: 'limit=1&limit=2',
      'empty-name': '=1',
      'no-value': random.pick(['limit', 'cursor', 'state', 'save', 'mode']),
      long: `x=${'q'.repeat(random.int(1_000, 8_000))}`,
      'encoded-name': random.pick(['%00=1', '%FF=1', '__proto__%5Bx%5D=1', 'a%26b=1']),
      plus: 'name=a+b&save=tru%65',
    };
    draft.rawQuery.push(raw[kind]!);
  },
};

export const MUTATION_NAMES = Object.keys(MUTATIONS);
