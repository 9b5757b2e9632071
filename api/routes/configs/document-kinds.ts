import type { GenerationConfig } from '../../../core/configs/config-schema.js';
import { requireValidOverlay } from '../../../core/configs/config-input.js';
import { ConfigProblems } from '../../../core/configs/problems.js';
import { GenerationProblems } from '../../../core/generation/problems.js';
import { within } from '../../../core/configs/source-map.js';
import { parseYamlSource } from '../../../core/configs/yaml-source.js';
import { CONFIGS_PROJECTION } from '../../../projections/configs/configs.js';
import { OVERLAYS_PROJECTION } from '../../../projections/configs/overlays.js';
import { anyConfig } from './config-input-schema.js';
import { embeddedConfig, embeddedOverlay } from './config-schemas.js';
import { documentRoutes } from './saved-documents.js';

/* The two kinds of saved document: configs (valid, kept normalised) and overlay layers (partial configs). */

export const configProblems = [
  ConfigProblems.invalidConfig,
  GenerationProblems.unknownSector,
  ConfigProblems.invalidYaml,
  ConfigProblems.yamlTooLarge,
];

export const savedConfigRoutes = documentRoutes<GenerationConfig>({
  member: 'config',
  Noun: 'Config',
  path: '/v1/configs',
  projection: CONFIGS_PROJECTION,
  given: anyConfig,
  shown: embeddedConfig,
  read: (ctx, inline, bodySource) =>
    ctx.services.configs.requireValid(
      'yaml' in inline ? { config_yaml: inline.yaml } : { config: inline.json },
      bodySource,
    ),
  problems: configProblems,
  documents: (configs) => configs.savedConfigs,
  docs: {
    save: {
      summary: 'Save a config',
      description:
        'Saves a valid config (JSON or YAML) under a name, in its normal form. ' +
        'It belongs to the account and the mode of the key (test configs are seen by test keys only).',
    },
    list: {
      summary: 'List saved configs',
      description: "The saved configs of the account in the key's mode, newest first; deleted ones are not listed.",
    },
    get: { summary: 'Get a saved config' },
    update: {
      summary: 'Update a saved config',
      description:
        "Renames it, replaces its config, or both (Stripe's convention: POST to the object). " +
        'Its version goes up by one; the previous versions stay in its history.',
    },
    delete: {
      summary: 'Delete a saved config',
      description: 'It is no longer listed nor usable; its history (saved, updated, deleted events) stays.',
    },
  },
});

export const savedOverlayRoutes = documentRoutes<Record<string, unknown>>({
  member: 'overlay',
  Noun: 'Overlay',
  path: '/v1/overlays',
  projection: OVERLAYS_PROJECTION,
  given: { type: 'object', examples: [{ seed: 7 }] },
  shown: embeddedOverlay,
  read(_ctx, inline, bodySource) {
    if ('json' in inline) return requireValidOverlay(inline.json, within(bodySource, '/overlay'));
    const source = parseYamlSource(inline.yaml);
    return requireValidOverlay(source.value, source);
  },
  problems: [ConfigProblems.invalidOverlay, ConfigProblems.invalidYaml, ConfigProblems.yamlTooLarge],
  documents: (configs) => configs.savedOverlays,
  docs: {
    save: {
      summary: 'Save an overlay layer',
      description:
        'A named partial config (JSON or YAML), to compose over saved configs. ' +
        '`null` members remove what the base sets.',
    },
    list: {
      summary: 'List overlay layers',
      description: "The overlays of the account in the key's mode, newest first.",
    },
    get: { summary: 'Get an overlay layer' },
    update: { summary: 'Update an overlay layer' },
    delete: { summary: 'Delete an overlay layer' },
  },
});
