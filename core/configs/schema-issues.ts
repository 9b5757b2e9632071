import type { ErrorObject } from 'ajv/dist/2020.js';
import { BoundedValidator } from '../bounded-validation.js';
import type { JsonSchema } from '../json-schema.js';
import { toPointer, type ConfigIssue } from './issues.js';

const validator = new BoundedValidator();

/**
 * Each failing field of `value` against `schema`, as issues whose pointers start at `at`; for a value
 * too large to be checked in full (`isCheckedInFull`), those up to its first error.
 */
export function schemaIssues(schema: JsonSchema, value: unknown, at: readonly (string | number)[] = []): ConfigIssue[] {
  const found = validator.compile(schema)(value);
  if (!found) return [];
  const prefix = toPointer(at);
  const informative = found.errors.filter(isInformative);
  // An invalid value always has an issue, even one that only repeats what its branches said.
  return dedupe((informative.length > 0 ? informative : found.errors).map((error) => toIssue(error, prefix)));
}

/**
 * `if` and combinator failures repeat what their branches already said; and an overlay's `null`
 * alternative (remove the member) is no news next to what is wrong with the value given.
 */
function isInformative(error: ErrorObject): boolean {
  if (error.keyword === 'type' && (error.params as { type?: unknown }).type === 'null') return false;
  return !['if', 'anyOf', 'oneOf', 'allOf'].includes(error.keyword);
}

function toIssue(error: ErrorObject, prefix: string): ConfigIssue {
  const pointer = prefix + error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        pointer: `${pointer}/${String(params.missingProperty)}`,
        message: `the member "${String(params.missingProperty)}" is required`,
      };
    case 'additionalProperties':
      return {
        pointer: `${pointer}/${String(params.additionalProperty)}`,
        message: `unknown member "${String(params.additionalProperty)}"`,
        key: true,
      };
    case 'dependentRequired':
      return { pointer, message: `"${String(params.property)}" needs "${String(params.missingProperty)}"` };
    case 'enum':
      return {
        pointer,
        message: `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { pointer, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'false schema': {
      // The one use of `false` in these schemas: a member that another one excludes (`dependentSchemas`).
      const excludedBy = /\/dependentSchemas\/([^/]+)\//.exec(error.schemaPath)?.[1];
      return {
        pointer,
        message: excludedBy ? `not allowed together with "${excludedBy}"` : 'not allowed here',
        key: true,
      };
    }
    case 'propertyNames':
      return {
        pointer: `${pointer}/${String(params.propertyName)}`,
        message: `"${String(params.propertyName)}" is not a valid name`,
        key: true,
      };
    default:
      return { pointer, message: error.message ?? `fails ${error.keyword}` };
  }
}

function dedupe(issues: ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.pointer}\n${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
