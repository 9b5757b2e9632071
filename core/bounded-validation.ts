import type { ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from './json-schema.js';
import { createAjv } from './json-schema.js';

/** An answer lists at most this many errors: enough to fix a document, bounded for a hostile one. */
export const MAX_REPORTED_ERRORS = 100;

/**
 * Documents of at most this many values (objects, arrays, scalars) are checked for all their errors;
 * larger ones until their first. Ajv reporting all errors makes some for every value, and more under
 * `oneOf`: past this size the cost of the list would be the attacker's choice (see docs/performance.md).
 */
export const MAX_VALUES_CHECKED_IN_FULL = 10_000;

/** What a check found: its errors, and whether it looked for all of them (false: it stopped at the first). */
export interface FoundErrors<E> {
  errors: E[];
  complete: boolean;
}

/**
 * Errors as an answer carries them: the first MAX_REPORTED_ERRORS and, when more were found or some were
 * not looked for, a flag that says so.
 */
export interface ReportedErrors<E> {
  errors: E[];
  /** Set when `errors` is not the whole list: more were found, or the document was checked until its first error. */
  errors_truncated?: true;
  /** How many were found, when the document was checked for all of them and they were more than `errors` lists. */
  errors_total?: number;
}

export function reportErrors<E>({ errors, complete }: FoundErrors<E>): ReportedErrors<E> {
  if (complete && errors.length <= MAX_REPORTED_ERRORS) return { errors };
  const reported = errors.slice(0, MAX_REPORTED_ERRORS);
  return complete
    ? { errors: reported, errors_truncated: true, errors_total: errors.length }
    : { errors: reported, errors_truncated: true };
}

/**
 * Whether `value` holds at most MAX_VALUES_CHECKED_IN_FULL values; stops counting past that.
 * Iterative, so that a deeply nested document cannot overflow the stack.
 */
export function isCheckedInFull(value: unknown): boolean {
  const pending: unknown[] = [value];
  let count = 1;
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    const members = next as Record<string, unknown>;
    for (const key in members) {
      count += 1;
      if (count > MAX_VALUES_CHECKED_IN_FULL) return false;
      pending.push(members[key]);
    }
  }
  return true;
}

/**
 * JSON Schema checks whose cost follows the document: every value is first checked by a validator
 * that stops at the first error, so a valid document is checked once. Only an invalid document small
 * enough (`isCheckedInFull`) is checked again for all its errors.
 */
export class BoundedValidator {
  private readonly firstError: ReturnType<typeof createAjv>;
  private readonly allErrors: ReturnType<typeof createAjv>;
  private readonly compiled = new WeakMap<JsonSchema, { first: ValidateFunction; all?: ValidateFunction }>();

  constructor(options: Options = {}) {
    this.firstError = createAjv({ ...options, allErrors: false });
    this.allErrors = createAjv({ ...options, allErrors: true });
  }

  /** A check of `schema`: null for a valid value, else ajv's errors. The full check is compiled on its first use. */
  compile(schema: JsonSchema): (value: unknown) => FoundErrors<ErrorObject> | null {
    let validators = this.compiled.get(schema);
    if (!validators) {
      validators = { first: this.firstError.compile(schema) };
      this.compiled.set(schema, validators);
    }
    const entry = validators;
    return (value) => {
      if (entry.first(value)) return null;
      const first = entry.first.errors ?? [];
      if (!isCheckedInFull(value)) return { errors: first, complete: false };
      entry.all ??= this.allErrors.compile(schema);
      const all = entry.all(value) ? [] : (entry.all.errors ?? []);
      // Never an invalid value without an error, should the first pass have changed it (defaults, coercion).
      return all.length > 0 ? { errors: all, complete: true } : { errors: first, complete: false };
    };
  }
}
