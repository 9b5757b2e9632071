import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { TestResponse } from './app.js';
import type { JsonBody } from './json-body.js';

const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks real responses against the response schemas of the served OpenAPI document: the status
 * must be documented for the operation, and the body must match the schema of its media type.
 */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  constructor(private readonly document: JsonBody) {
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema(document, 'openapi.json');
  }

  /** `path` is the template (`/v1/keys/{id}`). Throws with the mismatch when the response is not as documented. */
  check(method: string, path: string, response: TestResponse): void {
    const operation = this.document.paths[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${method} ${path} is not in the document`);
    const documented = operation.responses[String(response.status)];
    if (!documented) throw new Error(`${method} ${path} answered ${response.status}, which the document does not list`);
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!documented.content) {
      if (response.text !== '') throw new Error(`${method} ${path} ${response.status} has a body, the document none`);
      return;
    }
    if (!documented.content[mediaType])
      throw new Error(
        `${method} ${path} ${response.status} answered ${mediaType}, ` +
          `documented: ${Object.keys(documented.content).join(', ')}`,
      );
    const pointer = [
      'paths',
      path,
      method.toLowerCase(),
      'responses',
      String(response.status),
      'content',
      mediaType,
      'schema',
    ]
      .map(escapePointer)
      .join('/');
    const validate = this.ajv.getSchema(`openapi.json#/${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    if (!validate(response.body)) {
      throw new Error(
        `${method} ${path} ${response.status} does not match its schema: ${this.ajv.errorsText(validate.errors)}\n` +
          response.text.slice(0, 500),
      );
    }
  }
}
