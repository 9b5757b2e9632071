import { problem, type ProblemType } from '../problems.js';
import { configSchema, type GenerationConfig } from './config-schema.js';
import type { ConfigIssue } from './issues.js';
import type { PackCatalog } from './pack-catalog.js';
import { packIssues } from './pack-rules.js';
import { ConfigProblems } from './problems.js';
import { schemaIssues } from './schema-issues.js';
import { locateNearest, type SourceMap } from './source-map.js';

/** At most this many issues are reported: enough to fix a document, bounded for a hostile one. */
export const MAX_ISSUES = 50;

export type ConfigValidation = { valid: true; config: GenerationConfig; errors: [] } | { valid: false; errors: ConfigIssue[] };

/**
 * Checks a config (the plain value of its JSON or YAML form) against its JSON Schema, then against
 * the loaded packs. With its source (the YAML text, or the JSON request body it came in), each issue
 * also says its line and column.
 */
export function validateConfig(value: unknown, catalog: PackCatalog, source?: SourceMap): ConfigValidation {
  let issues = schemaIssues(configSchema, value);
  if (issues.length === 0) issues = packIssues(value as GenerationConfig, catalog);
  if (issues.length === 0) return { valid: true, config: value as GenerationConfig, errors: [] };
  return { valid: false, errors: locateIssues(issues, source) };
}

/** The config, or a 400 `invalid-config` problem listing what is wrong. */
export function requireValidConfig(value: unknown, catalog: PackCatalog, source?: SourceMap): GenerationConfig {
  const validation = validateConfig(value, catalog, source);
  if (validation.valid) return validation.config;
  throw issuesProblem(ConfigProblems.invalidConfig, 'the config', validation.errors);
}

export function issuesProblem(type: ProblemType, subject: string, errors: ConfigIssue[]) {
  const first = errors[0];
  const where = first.line !== undefined ? ` (line ${first.line}, column ${first.column})` : first.pointer ? ` (at ${first.pointer})` : '';
  const more = errors.length > 1 ? `, and ${errors.length - 1} more` : '';
  return problem(type, `${subject} is invalid: ${first.message}${where}${more}`, { errors });
}

/**
 * Gives each issue the line and column of the node it is about: the member's name for an issue
 * about a name, else its value; a member that is missing is located at the nearest node that exists.
 */
export function locateIssues(issues: ConfigIssue[], source?: SourceMap): ConfigIssue[] {
  return issues.slice(0, MAX_ISSUES).map(({ key, ...issue }) => {
    const position = source && locateNearest(source, issue.pointer, key);
    return position ? { ...issue, ...position } : issue;
  });
}
