import { configSchema } from './config-schema.js';
import { documentModel } from './document-decider.js';

/**
 * Saved generation configs: streams `config-<id>`, events ConfigSaved, ConfigUpdated, ConfigDeleted.
 * Content: a normalised, valid config.
 */
export const savedConfigs = documentModel({
  noun: 'Config',
  idPrefix: 'cfg',
  streamPrefix: 'config',
  contentSchema: configSchema,
});
export const configEvents = savedConfigs.events;
