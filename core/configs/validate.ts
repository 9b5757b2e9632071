import { problem, type ProblemType } from '../problems.js';
import { configSchema, type GenerationConfig } from './config-schema.js';
import type { ConfigIssue } from './issues.js';
import type { PackCatalog } from './ports.js';
import { isOnlyUnknownSector, packIssues } from './pack-rules.js';
import { GenerationProblems } from '../generation/problems.js';
import { ConfigProblems } from './problems.js';
import { schemaIssues } from './schema-issues.js';
import { locateNearest, type SourceMap } from './source-map.js';
import { isCheckedInFull, reportErrors, type ReportedErrors } from '../bounded-validation.js';

/** The issues of a config as answers carry them: the first MAX_REPORTED_ERRORS, and whether there were more. */
export type ConfigIssues = ReportedErrors<ConfigIssue>;

export type ConfigValidation =
  { valid: true; config: GenerationConfig; errors: [] } | ({ valid: false } & ConfigIssues);

/**
 * Checks a config (the plain value of its JSON or YAML form) against its JSON Schema, then against
 * the loaded packs. With its source (the YAML text, or the JSON request body it came in), each issue
 * also says its line and column.
 */
export function validateConfig(value: unknown, catalog: PackCatalog, source?: SourceMap): ConfigValidation {
  let issues = schemaIssues(configSchema, value);
  if (issues.length === 0) issues = packIssues(value as GenerationConfig, catalog);
  if (issues.length === 0) return { valid: true, config: value as GenerationConfig, errors: [] };
  return { valid: false, ...locateIssues(issues, source, isCheckedInFull(value)) };
}

/** The config, or a 400 problem listing what is wrong (`refusalOf` says which). */
export function requireValidConfig(value: unknown, catalog: PackCatalog, source?: SourceMap): GenerationConfig {
  const validation = validateConfig(value, catalog, source);
  if (validation.valid) return validation.config;
  throw refusalOf(validation);
}

/** An invalid config's problem, listing its issues: `unknown-sector` when that is all, else `invalid-config`. */
export function refusalOf(issues: ConfigIssues) {
  const type = isOnlyUnknownSector(issues.errors) ? GenerationProblems.unknownSector : ConfigProblems.invalidConfig;
  return issuesProblem(type, 'the config', issues);
}

/** A problem listing the issues (`errors`, and `errors_truncated`, `errors_total` when they are not all listed). */
export function issuesProblem(type: ProblemType, subject: string, issues: ConfigIssues) {
  const { errors, errors_truncated: truncated, errors_total: total } = issues;
  const first = errors[0];
  const where =
    first.line !== undefined
      ? ` (line ${first.line}, column ${first.column})`
      : first.pointer
        ? ` (at ${first.pointer})`
        : '';
  const others = (total ?? errors.length) - 1;
  const more =
    truncated && total === undefined
      ? ', and maybe more (a document this large is checked until its first error)'
      : others > 0
        ? `, and ${others} more`
        : '';
  return problem(type, `${subject} is invalid: ${first.message}${where}${more}`, { ...issues });
}

/**
 * Keeps the issues reported (the first MAX_REPORTED_ERRORS; `complete`: whether the document was
 * checked for all of them) and gives each the line and column of the node it is about: the member's
 * name for an issue about a name, else its value; a member that is missing is located at the nearest
 * node that exists.
 */
export function locateIssues(issues: ConfigIssue[], source?: SourceMap, complete = true): ConfigIssues {
  const reported = reportErrors({ errors: issues, complete });
  return {
    ...reported,
    errors: reported.errors.map(({ key, ...issue }) => {
      const position = source && locateNearest(source, issue.pointer, key);
      return position ? { ...issue, ...position } : issue;
    }),
  };
}
