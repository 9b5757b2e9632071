import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../core/json-schema.js';
import type { JsonSchema } from '../core/events/registry.js';
import { Problems, problem } from '../core/problems.js';
import { locateNearest, type SourceMap } from '../core/configs/source-map.js';

export type Location = 'path' | 'query' | 'body';

/** One failing field: where it is (a JSON pointer into that part of the request; line and column in a JSON body) and what is wrong. */
export interface FieldError {
  in: Location;
  pointer: string;
  message: string;
  line?: number;
  column?: number;
}

/**
 * The ajv instances that validate requests against the schemas the OpenAPI document publishes.
 * Path and query values arrive as strings and are coerced to the schema's types; bodies are not.
 */
export class RequestValidator {
  private readonly strictAjv = createAjv({ useDefaults: true });
  private readonly coercingAjv = createAjv({ useDefaults: true, coerceTypes: true });

  /** `source`: where the value stands in its text (a JSON body), so that each error also says its line and column. */
  compile(location: Location, schema: JsonSchema): (value: unknown, source?: SourceMap) => void {
    const validate = (location === 'body' ? this.strictAjv : this.coercingAjv).compile(schema);
    return (value, source) => {
      if (!validate(value)) throw validationProblem(fieldErrors(location, validate, source));
    };
  }
}

function fieldErrors(location: Location, validate: ValidateFunction, source: SourceMap | undefined): FieldError[] {
  return (validate.errors ?? []).map((error) => {
    const { pointer, unknownMember } = pointerOf(error);
    const position = source && locateNearest(source, pointer, unknownMember);
    return { in: location, pointer, message: error.message ?? 'is invalid', ...position };
  });
}

/**
 * Points at the offending member itself, also for errors ajv reports on its parent (missing, unknown).
 * An unknown member is placed at its name, a missing one at the object that lacks it.
 */
function pointerOf(error: ErrorObject): { pointer: string; unknownMember: boolean } {
  const member = error.params as { missingProperty?: string; additionalProperty?: string; propertyName?: string };
  const unknown = member.additionalProperty ?? (error.keyword === 'propertyNames' ? member.propertyName : undefined);
  const name = member.missingProperty ?? unknown;
  const pointer = name === undefined ? error.instancePath : `${error.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return { pointer, unknownMember: unknown !== undefined };
}

export function validationProblem(errors: FieldError[]) {
  const where = (error: FieldError) => (error.line === undefined ? '' : ` (line ${error.line}, column ${error.column})`);
  const summary = errors.slice(0, 3).map((error) => `${error.in} ${error.pointer || '/'}${where(error)} ${error.message}`).join('; ');
  return problem(Problems.validation, `${errors.length} field${errors.length === 1 ? '' : 's'} failed validation: ${summary}${errors.length > 3 ? '; …' : ''}`, { errors });
}
