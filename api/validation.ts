import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../core/json-schema.js';
import type { JsonSchema } from '../core/events/registry.js';
import { Problems, problem } from '../core/problems.js';

export type Location = 'path' | 'query' | 'body';

/** One failing field: where it is (a JSON pointer into that part of the request) and what is wrong. */
export interface FieldError {
  in: Location;
  pointer: string;
  message: string;
}

/**
 * The ajv instances that validate requests against the schemas the OpenAPI document publishes.
 * Path and query values arrive as strings and are coerced to the schema's types; bodies are not.
 */
export class RequestValidator {
  private readonly strictAjv = createAjv({ useDefaults: true });
  private readonly coercingAjv = createAjv({ useDefaults: true, coerceTypes: true });

  compile(location: Location, schema: JsonSchema): (value: unknown) => void {
    const validate = (location === 'body' ? this.strictAjv : this.coercingAjv).compile(schema);
    return (value) => {
      if (!validate(value)) throw validationProblem(fieldErrors(location, validate));
    };
  }
}


function fieldErrors(location: Location, validate: ValidateFunction): FieldError[] {
  return (validate.errors ?? []).map((error) => ({ in: location, pointer: pointerOf(error), message: error.message ?? 'is invalid' }));
}

/** Points at the offending member itself, also for errors ajv reports on its parent (missing, unknown). */
function pointerOf(error: ErrorObject): string {
  const member = (error.params as { missingProperty?: string; additionalProperty?: string; propertyName?: string }) ;
  const name = member.missingProperty ?? member.additionalProperty ?? (error.keyword === 'propertyNames' ? member.propertyName : undefined);
  return name === undefined ? error.instancePath : `${error.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

export function validationProblem(errors: FieldError[]) {
  const summary = errors.slice(0, 3).map((error) => `${error.in} ${error.pointer || '/'} ${error.message}`).join('; ');
  return problem(Problems.validation, `${errors.length} field${errors.length === 1 ? '' : 's'} failed validation: ${summary}${errors.length > 3 ? '; …' : ''}`, { errors });
}
