import { ResponseChecker } from '../../support/openapi.js';
import type { WireResponse } from './wire.js';

/** One operation of the served OpenAPI document. */
export interface Operation {
  id: string;
  method: string;
  /** The path template, `/v1/jobs/{id}`. */
  path: string;
  spec: OperationSpec;
}

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Record<string, unknown>;
}

export interface OperationSpec {
  operationId: string;
  'x-required-scope'?: string;
  parameters?: ParameterSpec[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, unknown>; 'x-problem-slugs'?: string[] }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationSpec>>;
  'x-problem-types': Array<{ slug: string; status: number; type: string }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/**
 * 5xx problems that report another service's failure, not this one's: the payment provider's, which
 * the sandbox token `tok_processingError` simulates. Documented, and the right answer then.
 */
const UPSTREAM_FAILURES = ['payment-provider-unavailable'];
const PROBLEM_MEDIA_TYPE = 'application/problem+json';

export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, spec]) => ({ id: spec.operationId, method: method.toUpperCase(), path, spec })),
  );
}

/**
 * What every answer of every operation must be, from outside: never a 5xx (but a documented failure
 * of the payment provider); a status the document
 * lists for the operation, with a body its schema accepts; an error as problem details whose status
 * is the answer's and whose slug the document lists for that operation and status.
 */
export class DocumentedAnswers {
  private readonly checker: ResponseChecker;

  constructor(private readonly document: OpenApiDocument) {
    this.checker = new ResponseChecker(document);
  }

  /** Throws, naming what is wrong, when the answer is not as documented. */
  check(operation: Operation, response: WireResponse): void {
    const what = `${operation.method} ${operation.path} answered ${response.status}`;
    const upstream = UPSTREAM_FAILURES.includes(DocumentedAnswers.slugOf(response) ?? '');
    if (response.status >= 500 && !upstream) throw new Error(`${what}: a server error\n${response.text.slice(0, 500)}`);
    this.checker.check(operation.method, operation.path, this.asDocumented(operation, response));
    if (response.status < 400) return;
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (mediaType !== PROBLEM_MEDIA_TYPE) throw new Error(`${what} as ${mediaType}, not ${PROBLEM_MEDIA_TYPE}`);
    const problem = response.body as { type: string; status: number };
    if (problem.status !== response.status) throw new Error(`${what} with a problem of status ${problem.status}`);
    const slug = problem.type.slice(problem.type.lastIndexOf('/') + 1);
    const slugs = operation.spec.responses[String(response.status)]?.['x-problem-slugs'] ?? [];
    if (!slugs.includes(slug))
      throw new Error(
        `${what} ${slug}, which the document does not list for it (${slugs.join(', ')})\n` +
          response.text.slice(0, 500),
      );
  }

  /** A body documented as a string (a file, NDJSON, CSV) is checked as its text, even when it is JSON. */
  private asDocumented(operation: Operation, response: WireResponse): WireResponse {
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const content = operation.spec.responses[String(response.status)]?.content as
      Record<string, { schema?: { type?: unknown } }> | undefined;
    return content?.[mediaType]?.schema?.type === 'string' ? { ...response, body: response.text } : response;
  }

  /** The problem slug of an error answer, for the tallies. */
  static slugOf(response: WireResponse): string | undefined {
    const type = (response.body as { type?: unknown } | undefined)?.type;
    return response.status >= 400 && typeof type === 'string' ? type.slice(type.lastIndexOf('/') + 1) : undefined;
  }
}
