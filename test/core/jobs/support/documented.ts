import { ResponseChecker } from '../../../support/openapi.js';
import type { TestResponse } from '../../../support/app.js';
import type { JsonBody } from '../../../support/json-body.js';

/** Headers that the jobs operations set on purpose: each one an answer has must be declared for it. */
const WATCHED_HEADERS = ['etag', 'accept-ranges', 'content-range', 'content-disposition', 'location', 'retry-after'];

/**
 * Checks a jobs exchange against the served OpenAPI document, beyond the status and body schema that
 * ResponseChecker checks: a problem's slug is one the document lists for its status, the headers the
 * document declares for the answer are there and those the operation sets are declared, and every
 * header the request sent (other than Authorization) is a parameter of the operation.
 */
export class ExchangeChecker {
  private readonly responses: ResponseChecker;

  constructor(private readonly document: JsonBody) {
    this.responses = new ResponseChecker(document);
  }

  check(method: string, template: string, response: TestResponse, sent: Record<string, string> = {}): TestResponse {
    this.responses.check(method, template, response);
    const operation = this.document.paths[template][method.toLowerCase()];
    const documented = operation.responses[String(response.status)];
    const where = `${method} ${template} ${response.status}`;
    if ((response.headers.get('content-type') ?? '').startsWith('application/problem+json')) {
      const slug = String(response.body.type).split('/').pop();
      if (!documented['x-problem-slugs'].includes(slug))
        throw new Error(`${where} answered ${slug}, documented: ${documented['x-problem-slugs'].join(', ')}`);
    }
    const declared = Object.entries(documented.headers ?? {}).map(
      ([name, header]) => [name.toLowerCase(), header] as const,
    );
    for (const [name] of declared.filter(([, header]) => !(header as { $ref?: string }).$ref)) {
      if (!response.headers.has(name)) throw new Error(`${where} lacks the header ${name} it declares`);
    }
    for (const name of WATCHED_HEADERS.filter((watched) => response.headers.has(watched))) {
      if (!declared.some(([declaredName]) => declaredName === name))
        throw new Error(`${where} has the header ${name}, which it does not declare`);
    }
    const parameters = (operation.parameters ?? [])
      .filter((parameter: { in: string }) => parameter.in === 'header')
      .map((parameter: { name: string }) => parameter.name.toLowerCase());
    for (const name of Object.keys(sent)
      .map((header) => header.toLowerCase())
      .filter((header) => header !== 'authorization')) {
      if (!parameters.includes(name))
        throw new Error(`${method} ${template} was sent the header ${name}, which it does not declare`);
    }
    return response;
  }
}
