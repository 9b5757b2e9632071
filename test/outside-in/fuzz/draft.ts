import { stringify } from 'yaml';
import type { Operation } from '../support/documented.js';
import type { WireRequest } from '../support/wire.js';

/**
 * A request of an operation before it goes on the wire: the generated valid parts, which the
 * mutations then bend. JSON bodies are values until sent; `fragments` are raw texts that replace
 * placeholder strings in the serialized body (what JSON.stringify cannot write: 1e400, a nesting
 * 100,000 deep, a member named twice, a lone surrogate's escape).
 */
export interface Draft {
  operation: Operation;
  /** Path parameters, decoded; those in `rawParams` go out as they are, the others percent-encoded. */
  params: Record<string, string>;
  rawParams: string[];
  /** Query parameters, decoded; `rawQuery` is appended as it is. */
  query: Array<[string, string]>;
  rawQuery: string[];
  headers: Array<[string, string]>;
  /** The Authorization header's value; none when undefined. */
  authorization: string | undefined;
  /** The body's media type, and its value (a JSON value, or a YAML text); no body when undefined. */
  mediaType: string | undefined;
  body: unknown;
  /** The Content-Type sent: the media type unless set here; null sends none. */
  contentType?: string | null;
  fragments: string[];
  /** The body's bytes, once a mutation works on bytes rather than on the value. */
  bytes?: Buffer;
  chunked?: boolean;
}

const PLACEHOLDER = /"@@fragment(\d+)@@"/g;

/** A placeholder for a raw JSON text, to be put where a value (or, as a string, a member name) goes. */
export function fragment(draft: Draft, text: string): string {
  draft.fragments.push(text);
  return `@@fragment${draft.fragments.length - 1}@@`;
}

export const isJsonMediaType = (mediaType: string | undefined): boolean =>
  mediaType !== undefined && /^application\/(?:[\w.-]+\+)?json$/.test(mediaType);

/** The body's bytes as they go out. */
export function bodyBytes(draft: Draft): Buffer | undefined {
  if (draft.bytes) return draft.bytes;
  if (draft.mediaType === undefined || draft.body === undefined) return undefined;
  if (!isJsonMediaType(draft.mediaType))
    return Buffer.from(typeof draft.body === 'string' ? draft.body : stringify(draft.body));
  return Buffer.from(
    JSON.stringify(draft.body).replace(PLACEHOLDER, (_, index: string) => draft.fragments[Number(index)]!),
  );
}

const encodeQuery = (text: string) => encodeURIComponent(text);

/**
 * Text as a client would put it on the wire: characters above 0xFF as their UTF-8 bytes (node:http
 * writes a request's head as latin1), and what the head cannot carry at all (control characters in a
 * header value, spaces in the request line) escaped, since node:http refuses to send them.
 */
const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
/* eslint-disable no-control-regex -- these find the control characters a request's head cannot carry */
const headerValue = (text: string) =>
  (/[^\x00-\xff]/.test(text) ? latin1(text) : text).replace(/[\x00-\x08\x0a-\x1f\x7f]/g, '?');
const rawInPath = (text: string) =>
  (/[^\x00-\xff]/.test(text) ? latin1(text) : text).replace(
    /[\x00-\x20]/g,
    (char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
/* eslint-enable no-control-regex */

export function toWire(draft: Draft): WireRequest {
  let path = draft.operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    draft.rawParams.includes(name) ? rawInPath(draft.params[name]!) : encodeURIComponent(draft.params[name] ?? ''),
  );
  const query = [
    ...draft.query.map(([name, value]) => `${encodeQuery(name)}=${encodeQuery(value)}`),
    ...draft.rawQuery.map(rawInPath),
  ];
  if (query.length > 0) path += `?${query.join('&')}`;
  const headers: Array<[string, string]> = draft.headers.map(([name, value]) => [name, headerValue(value)]);
  if (draft.authorization !== undefined) headers.push(['Authorization', headerValue(draft.authorization)]);
  const body = bodyBytes(draft);
  const contentType = draft.contentType === undefined ? draft.mediaType : draft.contentType;
  if (contentType !== null && contentType !== undefined && (body !== undefined || draft.contentType !== undefined))
    headers.push(['Content-Type', contentType]);
  return { method: draft.operation.method, path, headers, body, chunked: draft.chunked };
}

const start = (body: Buffer) => body.subarray(0, 400).toString('latin1');

/** The request in a few lines, for a failure message: what to send again. */
export function describeWire(request: WireRequest): string {
  const headers = request.headers
    .map(
      ([name, value]) => `${name}: ${value.length > 120 ? `${value.slice(0, 120)}… (${value.length} chars)` : value}`,
    )
    .join('\n    ');
  const body = request.body
    ? `\n  body (${request.body.length} bytes${request.chunked ? ', chunked' : ''}): ` +
      JSON.stringify(start(request.body))
    : '';
  const path =
    request.path.length > 300 ? `${request.path.slice(0, 300)}… (${request.path.length} chars)` : request.path;
  return `${request.method} ${JSON.stringify(path)}\n    ${headers}${body}`;
}
