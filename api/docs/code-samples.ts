import type { JsonSchema } from '../../core/json-schema.js';
import { isJsonMediaType, type RouteDefinition } from '../http/route.js';
import { CLIENT_CALLS, type ClientCall } from './client-calls.js';
import { exampleValue } from './example-value.js';
import { LINE_WIDTH, tsLiteral } from './ts-literal.js';

/** One entry of an operation's `x-codeSamples`, as Redoc, Scalar and other renderers read it. */
export interface CodeSample {
  lang: 'shell' | 'typescript';
  label: string;
  source: string;
}

export const CURL_LABEL = 'curl';
export const CLIENT_LABEL = '@finsynth/client';

/** Where a sample sends its request: the client's default, so that both samples need the same environment. */
const BASE_URL = '${FINSYNTH_URL:-http://localhost:3000}';
/** Operations whose answer is a file: curl saves it under this name rather than printing it. */
const SAVED_AS: Record<string, (params: Record<string, string>) => string> = {
  downloadJobResult: (params) => `${params.table}.csv.gz`,
};

type AnyRoute = RouteDefinition<unknown, unknown, unknown>;

interface ExampleRequest {
  params: Record<string, string>;
  query: Record<string, unknown> | undefined;
  mediaType: string | undefined;
  body: unknown;
}

const isIllustrated = (schema: JsonSchema): boolean => Array.isArray(schema.examples) || 'example' in schema;

/** The request both samples send: every path parameter, and the query members and body the schemas illustrate. */
function exampleRequest(route: AnyRoute): ExampleRequest {
  const params = Object.fromEntries(
    Object.entries(route.params ?? {}).map(([name, schema]) => [name, String(exampleValue(schema, name))]),
  );
  const required = new Set(route.query?.required ?? []);
  const queryMembers = Object.entries(route.query?.properties ?? {})
    .filter(([name, schema]) => required.has(name) || isIllustrated(schema))
    .map(([name, schema]) => [name, exampleValue(schema, name)]);
  const mediaTypes = Object.keys(route.body?.content ?? {});
  const mediaType = mediaTypes.find(isJsonMediaType) ?? mediaTypes[0];
  return {
    params,
    query: queryMembers.length > 0 ? Object.fromEntries(queryMembers) : undefined,
    mediaType,
    body: mediaType === undefined ? undefined : exampleValue(route.body!.content[mediaType], 'body'),
  };
}

/** A body on one line while it is short, else indented, as a reader would type it. */
const jsonText = (body: unknown): string => {
  const flat = JSON.stringify(body);
  return flat.length <= 72 ? flat : JSON.stringify(body, null, 2);
};

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

function pathOf(route: AnyRoute, example: ExampleRequest): string {
  const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) => example.params[name]!);
  const query = new URLSearchParams(
    Object.entries(example.query ?? {}).map(([name, value]): [string, string] => [name, String(value)]),
  );
  return query.size > 0 ? `${path}?${query}` : path;
}

function curlSample(route: AnyRoute, example: ExampleRequest): string {
  const method = route.method === 'GET' ? '' : `-X ${route.method} `;
  const lines = [`curl ${method}"${BASE_URL}${pathOf(route, example)}"`];
  if (route.scope !== null) lines.push(`-H "Authorization: Bearer $FINSYNTH_KEY"`);
  if (example.mediaType !== undefined) {
    lines.push(`-H ${shellQuote(`Content-Type: ${example.mediaType}`)}`);
    lines.push(
      isJsonMediaType(example.mediaType) ? `-d ${shellQuote(jsonText(example.body))}` : '--data-binary @config.yaml',
    );
  }
  const savedAs = SAVED_AS[route.operationId];
  if (savedAs) lines.push(`-o ${savedAs(example.params)}`);
  return lines.join(' \\\n  ');
}

/** `callee(args)`, its last argument spread over lines when the call does not fit on one. */
function invocation(callee: string, args: unknown[], lead: number, tail: number): string {
  const written = args.map((arg) => tsLiteral(arg, '', -Infinity));
  const flat = `${callee}(${written.join(', ')})`;
  if (lead + flat.length + tail <= LINE_WIDTH || args.length === 0) return flat;
  const start = `${callee}(${[...written.slice(0, -1), ''].join(', ')}`;
  return `${start}${tsLiteral(args.at(-1), '', lead + start.length, tail + 1)})`;
}

function clientCall(call: ClientCall, example: ExampleRequest): string {
  const args = call.args({ params: example.params, query: example.query, body: example.body });
  const [before, after] =
    call.result === null
      ? ['await ', ';']
      : 'item' in call.result
        ? [`for await (const ${call.result.item} of `, `) console.log(${call.result.item});`]
        : [`const ${call.result.name} = await `, `;\nconsole.log(${call.result.name});`];
  return `${before}${invocation(`finsynth.${call.method}`, args, before.length, after.split('\n')[0]!.length)}${after}`;
}

/** An operation the client has no method for, through its typed openapi-fetch client. */
function rawCall(route: AnyRoute, example: ExampleRequest): string {
  const params = {
    ...(route.params ? { path: example.params } : {}),
    ...(example.query ? { query: example.query } : {}),
  };
  const options = {
    ...(Object.keys(params).length > 0 ? { params } : {}),
    ...(example.mediaType !== undefined && isJsonMediaType(example.mediaType) ? { body: example.body } : {}),
  };
  const args = [route.path, ...(Object.keys(options).length > 0 ? [options] : [])];
  const before = 'const { data, error } = await ';
  return `${before}${invocation(`finsynth.raw.${route.method}`, args, before.length, 1)};\nconsole.log(error ?? data);`;
}

function clientSample(route: AnyRoute, example: ExampleRequest): string {
  const call = CLIENT_CALLS[route.operationId];
  const reads = example.mediaType !== undefined && !isJsonMediaType(example.mediaType);
  return [
    ...(reads ? ["import { readFile } from 'node:fs/promises';"] : []),
    "import { Finsynth } from '@finsynth/client';",
    '',
    '// Reads FINSYNTH_KEY, and FINSYNTH_URL (default http://localhost:3000).',
    'const finsynth = new Finsynth();',
    ...(reads ? ["const yaml = await readFile('config.yaml', 'utf8');"] : []),
    call ? clientCall(call, example) : rawCall(route, example),
  ].join('\n');
}

/** Whether the client has a call for the operation: a method of its own, or a raw call that answers JSON. */
const clientCalls = (route: AnyRoute): boolean =>
  CLIENT_CALLS[route.operationId] !== undefined ||
  Object.values(route.responses).some((response) => Object.keys(response.content ?? {}).some(isJsonMediaType));

/**
 * The operation's request as curl and, where the client calls it, as a call of the TypeScript client; both
 * from the examples of its schemas.
 */
export function codeSamples(route: AnyRoute): CodeSample[] {
  const example = exampleRequest(route);
  return [
    { lang: 'shell', label: CURL_LABEL, source: curlSample(route, example) },
    ...(clientCalls(route)
      ? [{ lang: 'typescript' as const, label: CLIENT_LABEL, source: clientSample(route, example) }]
      : []),
  ];
}
