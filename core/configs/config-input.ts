import type { Owner } from './document-decider.js';
import { Problems, problem } from '../problems.js';
import { compose, type Layer } from './compose.js';
import type { ConfigIssue } from './issues.js';
import { overlaySchema } from './overlay-schema.js';
import { ConfigProblems } from './problems.js';
import { schemaIssues } from './schema-issues.js';
import { within, type SourceMap } from './source-map.js';
import { issuesProblem, locateIssues } from './validate.js';
import { parseYamlSource } from './yaml-source.js';
import { isCheckedInFull } from '../bounded-validation.js';

/**
 * The three ways a request names a config (docs/configs.md): inline JSON, inline YAML, or a saved
 * config with ordered overlays (ids). The same forms are accepted by jobs, validate and estimate.
 */
export type ConfigInput = InlineConfig | { config_id: string; overlays?: string[] };
/** A config given in the request itself. */
export type InlineConfig = { config: unknown } | { config_yaml: string };

/**
 * A config document as read, not yet validated: its plain value and, when it was given as text, where
 * each part stands in it.
 */
export interface ReadDocument {
  value: unknown;
  source?: SourceMap;
}

/**
 * Loads saved documents as their owner may see them, as the JSON objects composition reads as layers; a
 * missing or foreign id is a 404 problem.
 */
export interface DocumentLoader {
  config(owner: Owner, id: string): Promise<Record<string, unknown>>;
  overlay(owner: Owner, id: string): Promise<Record<string, unknown>>;
}

/**
 * `inputSource`: where the input itself stands in the request's text (a JSON body), so that an inline
 * `config` is located in it.
 */
export async function readConfigInput(
  input: ConfigInput,
  owner: Owner,
  documents: DocumentLoader,
  inputSource?: SourceMap,
): Promise<ReadDocument> {
  if ('config_id' in input) {
    const layers: Layer[] = [{ ref: input.config_id, content: await documents.config(owner, input.config_id) }];
    for (const id of input.overlays ?? []) layers.push({ ref: id, content: await documents.overlay(owner, id) });
    return { value: compose(layers).config };
  }
  return readInlineConfig(input, inputSource);
}

export function readInlineConfig(input: InlineConfig, inputSource?: SourceMap): ReadDocument {
  if ('config_yaml' in input) {
    const source = parseYamlSource(input.config_yaml);
    return { value: source.value, source };
  }
  if ('config' in input) return { value: input.config, source: within(inputSource, '/config') };
  throw problem(
    Problems.badRequest,
    'name the config with one of `config`, `config_yaml`, or `config_id` (with optional `overlays`)',
  );
}

/**
 * A layer's content (an overlay, or an inline base), refused with 400 `invalid-overlay` unless it is a
 * partial config.
 */
export function requireValidOverlay(
  value: unknown,
  source?: SourceMap,
  subject = 'the overlay',
): Record<string, unknown> {
  const issues: ConfigIssue[] = schemaIssues(overlaySchema, value);
  if (issues.length > 0)
    throw issuesProblem(ConfigProblems.invalidOverlay, subject, locateIssues(issues, source, isCheckedInFull(value)));
  return value as Record<string, unknown>;
}
