import type { ErrorObject } from 'ajv/dist/2020.js';
import {
  BoundedValidator,
  MAX_VALUES_CHECKED_IN_FULL,
  reportErrors,
  type FoundErrors,
  type ReportedErrors,
} from '../../core/bounded-validation.js';
import type { JsonSchema } from '../../core/json-schema.js';
import { Problems, problem } from '../../core/problems.js';
import { locateNearest, type SourceMap } from '../../core/configs/source-map.js';

export type Location = 'path' | 'query' | 'body';

/** One failing field: where it is (a JSON pointer; line and column too in a JSON body) and what is wrong. */
export interface FieldError {
  in: Location;
  pointer: string;
  message: string;
  line?: number;
  column?: number;
}

/**
 * The validators of requests against the schemas the OpenAPI document publishes (bounded: see
 * core/bounded-validation.ts). Path and query values arrive as strings and are coerced to the
 * schema's types; bodies are not.
 */
export class RequestValidator {
  private readonly strict = new BoundedValidator({ useDefaults: true });
  private readonly coercing = new BoundedValidator({ useDefaults: true, coerceTypes: true });

  /** `source`: where the value stands in its text (a JSON body), so that each error also says its line and column. */
  compile(location: Location, schema: JsonSchema): (value: unknown, source?: SourceMap) => void {
    const validate = (location === 'body' ? this.strict : this.coercing).compile(schema);
    return (value, source) => {
      const found = validate(value);
      if (found) throw validationProblem(fieldErrors(location, found, source));
    };
  }
}

/** Only the errors reported are placed in the text. */
function fieldErrors(
  location: Location,
  found: FoundErrors<ErrorObject>,
  source: SourceMap | undefined,
): ReportedErrors<FieldError> {
  const reported = reportErrors(found);
  return {
    ...reported,
    errors: reported.errors.map((error) => {
      const { pointer, unknownMember } = pointerOf(error);
      const position = source && locateNearest(source, pointer, unknownMember);
      return { in: location, pointer, message: error.message ?? 'is invalid', ...position };
    }),
  };
}

/**
 * Points at the offending member itself, also for errors ajv reports on its parent (missing, unknown).
 * An unknown member is placed at its name, a missing one at the object that lacks it.
 */
function pointerOf(error: ErrorObject): { pointer: string; unknownMember: boolean } {
  const member = error.params as { missingProperty?: string; additionalProperty?: string; propertyName?: string };
  const unknown = member.additionalProperty ?? (error.keyword === 'propertyNames' ? member.propertyName : undefined);
  const name = member.missingProperty ?? unknown;
  const pointer =
    name === undefined ? error.instancePath : `${error.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return { pointer, unknownMember: unknown !== undefined };
}

function validationProblem(reported: ReportedErrors<FieldError>) {
  const { errors, errors_truncated: truncated, errors_total: total } = reported;
  const where = (error: FieldError) =>
    error.line === undefined ? '' : ` (line ${error.line}, column ${error.column})`;
  const summary = errors
    .slice(0, 3)
    .map((error) => `${error.in} ${error.pointer || '/'}${where(error)} ${error.message}`)
    .join('; ');
  const fields = (count: number) => `${count} field${count === 1 ? '' : 's'}`;
  const what = !truncated
    ? `${fields(errors.length)} failed validation`
    : total === undefined
      ? `validation failed (a document of more than ` +
        `${MAX_VALUES_CHECKED_IN_FULL} values is checked until its first error)`
      : `${fields(total)} failed validation (the first ${errors.length} are listed)`;
  return problem(Problems.validation, `${what}: ${summary}${errors.length > 3 || truncated ? '; …' : ''}`, {
    ...reported,
  });
}
