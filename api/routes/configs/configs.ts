import { configSchema } from '../../../core/configs/config-schema.js';
import type { ConfigInput } from '../../../core/configs/config-input.js';
import { ConfigProblems } from '../../../core/configs/problems.js';
import { refusalOf } from '../../../core/configs/validate.js';
import { parseYamlSource } from '../../../core/configs/yaml-source.js';
import { Problems, problem } from '../../../core/problems.js';
import { requireScope } from '../../middleware/authenticate.js';
import { defineRoute, type RouteGroup } from '../../http/route.js';
import { configInput, documentId, MAX_CONFIG_BODY_BYTES, yamlBody } from './config-input-schema.js';
import { embeddedConfig, estimateSchema, name, validationSchema, YAML_TYPES } from './config-schemas.js';
import { configProblems, savedConfigRoutes, savedOverlayRoutes } from './document-kinds.js';
import { documentBody, documentView, metadataOf, owner } from './saved-documents.js';

/*
 * Request bodies take a config as a plain object: the config's own rules are checked by the configs
 * module, so that every config issue is one `invalid-config` problem with pointers into the config
 * (and YAML line and column), whatever the route. The config's schema is published in full by
 * GET /v1/configs/schema and in every answer that holds one (config-schemas.ts).
 */

/** Fixed paths (`/v1/configs/compose`) come before `/v1/configs/{id}`, which would match them too. */
export const configsRoutes: RouteGroup = {
  tag: 'Configuration',
  description: "Generation configs (the engine's YAML format): validate, estimate, save, compose from overlay layers.",
  routes: [
    defineRoute({
      method: 'GET',
      path: '/v1/configs/schema',
      operationId: 'getConfigSchema',
      summary: 'The JSON Schema of generation configs',
      description:
        'The JSON Schema (2020-12) that configs are validated with. Sectors, ' +
        'tables, columns and options are further checked against the catalog.',
      scope: 'configs:read',
      responses: {
        200: {
          description: 'The config JSON Schema.',
          // The answer is a schema document: published here as the one value it takes.
          content: {
            'application/schema+json': {
              type: 'object',
              description: 'The JSON Schema (2020-12) of generation configs.',
              const: configSchema,
            },
          },
        },
      },
      handle(ctx) {
        ctx.type = 'application/schema+json';
        ctx.body = JSON.stringify(configSchema);
      },
    }),
    defineRoute<Record<string, never>, { save?: boolean; name?: string }, string>({
      method: 'POST',
      path: '/v1/configs/raw',
      operationId: 'submitRawConfig',
      summary: 'Submit a raw YAML config',
      description:
        'Reads a YAML config and answers its normalised JSON form, ' +
        'the validation result (each error with its line and column) and the credit estimate. ' +
        'With `?save=true&name=…` a valid config is also saved (needs `configs:write`; ' +
        '201, with `saved`); an invalid one is then refused with 400. ' +
        'Several documents, custom tags, aliases that expand too far: ' +
        '400 `invalid-yaml`. More than 1 MiB: 413 `yaml-too-large`.',
      scope: 'configs:read',
      query: {
        properties: {
          save: { type: 'boolean', default: false, description: 'Save the config when it is valid.' },
          name: { ...name, description: 'The name to save it under (required with save=true).' },
        },
      },
      body: {
        content: Object.fromEntries(YAML_TYPES.map((type) => [type, yamlBody])),
        maxBytes: MAX_CONFIG_BODY_BYTES,
      },
      responses: {
        200: { description: 'The validation result.', content: { 'application/json': validationSchema } },
        201: {
          description: 'Valid and saved.',
          content: {
            'application/json': {
              ...validationSchema,
              properties: { ...validationSchema.properties, saved: documentView('config', embeddedConfig) },
            },
          },
        },
      },
      problems: configProblems,
      async handle(ctx, { query, body }) {
        const source = parseYamlSource(body);
        if (!query.save) {
          ctx.body = await ctx.services.configs.report(owner(ctx), ctx.services.configs.check(source.value, source));
          return;
        }
        requireScope(ctx, 'configs:write');
        if (!query.name) {
          const message = 'a name is required to save';
          throw problem(Problems.validation, `the query is invalid: ${message}`, {
            errors: [{ in: 'query', pointer: '/name', message }],
          });
        }
        const result = ctx.services.configs.check(source.value, source);
        if (!result.valid) throw refusalOf(result);
        const saved = await ctx.services.configs.savedConfigs.save(
          owner(ctx),
          query.name,
          result.config,
          metadataOf(ctx),
        );
        ctx.status = 201;
        ctx.body = { ...(await ctx.services.configs.report(owner(ctx), result)), saved: documentBody(saved, 'config') };
      },
    }),
    defineRoute<Record<string, never>, Record<string, never>, ConfigInput | string>({
      method: 'POST',
      path: '/v1/configs/validate',
      operationId: 'validateConfig',
      summary: 'Validate a config',
      description:
        'Validates a config given as JSON (`config`), YAML (`config_yaml`, or a YAML body), ' +
        'or a saved config with overlays. ' +
        'An invalid config is a 200 answer with `valid: false` and its `errors`; YAML that cannot be read is a 400.',
      scope: 'configs:read',
      body: {
        content: { 'application/json': configInput, ...Object.fromEntries(YAML_TYPES.map((type) => [type, yamlBody])) },
        maxBytes: MAX_CONFIG_BODY_BYTES,
      },
      responses: {
        200: {
          description: 'The validation result, with the normal form and estimate when valid.',
          content: { 'application/json': validationSchema },
        },
      },
      problems: [ConfigProblems.invalidYaml, ConfigProblems.yamlTooLarge, Problems.notFound],
      async handle(ctx, { body, source }) {
        const input: ConfigInput = typeof body === 'string' ? { config_yaml: body } : body;
        ctx.body = await ctx.services.configs.report(
          owner(ctx),
          await ctx.services.configs.validate(owner(ctx), input, source),
        );
      },
    }),
    defineRoute<Record<string, never>, Record<string, never>, ConfigInput | string>({
      method: 'POST',
      path: '/v1/configs/estimate',
      operationId: 'estimateConfig',
      summary: 'Estimate the credits of a config',
      description:
        "Credits in total and per table, rows, and whether the account's balance covers it. " +
        'The config is named as for validate; an invalid one is a 400 `invalid-config`.',
      scope: 'configs:read',
      body: {
        content: { 'application/json': configInput, ...Object.fromEntries(YAML_TYPES.map((type) => [type, yamlBody])) },
        maxBytes: MAX_CONFIG_BODY_BYTES,
      },
      responses: { 200: { description: 'The estimate.', content: { 'application/json': estimateSchema } } },
      problems: [...configProblems, Problems.notFound],
      async handle(ctx, { body, source }) {
        const input: ConfigInput = typeof body === 'string' ? { config_yaml: body } : body;
        const resolved = await ctx.services.configs.resolve(owner(ctx), input, source);
        ctx.body = await ctx.services.configs.estimate(owner(ctx), resolved.config);
      },
    }),
    defineRoute<
      Record<string, never>,
      Record<string, never>,
      { base: string | Record<string, unknown>; overlays?: (string | Record<string, unknown>)[] }
    >({
      method: 'POST',
      path: '/v1/configs/compose',
      operationId: 'composeConfig',
      summary: 'Compose a config from a base and overlays',
      description:
        'Applies the overlays in order over the base: maps merge deeply, ' +
        'tables merge by name (new ones are appended), lists of scalars are replaced, `null` removes a member, ' +
        'and a table `{ "name": …, "remove": true }` removes the table of that name. ' +
        '`sources` gives, for every field of the result (by JSON pointer), ' +
        'the layer that set it: a saved id, `base`, or `overlays[i]` for inline ones; ' +
        '`removed` lists what a layer removed and no later layer gave back (a table by its `name`). ' +
        'The result is validated and estimated.',
      scope: 'configs:read',
      body: {
        content: {
          'application/json': {
            type: 'object',
            required: ['base'],
            additionalProperties: false,
            properties: {
              base: {
                oneOf: [documentId, { type: 'object' }],
                description: 'A saved config id, or an inline (partial) config.',
              },
              overlays: {
                type: 'array',
                maxItems: 20,
                items: { oneOf: [documentId, { type: 'object' }] },
                description: 'Saved overlay ids or inline overlays.',
              },
            },
          },
        },
      },
      responses: {
        200: {
          description: 'The composed config, where each field comes from, and its validation.',
          content: {
            'application/json': {
              type: 'object',
              required: ['composed', 'sources', 'removed', ...validationSchema.required],
              properties: {
                composed: { type: 'object' },
                sources: {
                  type: 'object',
                  additionalProperties: { type: 'string' },
                  description: 'JSON pointer of each leaf of `composed` → the layer that set it.',
                },
                removed: {
                  type: 'array',
                  description:
                    'What a layer removed (`null`, or a table with `remove: true`) ' +
                    "and is absent from `composed`; a parent's before its children's.",
                  items: {
                    type: 'object',
                    required: ['pointer', 'layer'],
                    additionalProperties: false,
                    properties: {
                      pointer: {
                        type: 'string',
                        description: 'Where the member would be; for a table, its list (`/tables`).',
                      },
                      name: { type: 'string', description: 'The name of a removed table.' },
                      layer: { type: 'string' },
                    },
                  },
                },
                ...validationSchema.properties,
              },
            },
          },
        },
      },
      problems: [ConfigProblems.invalidOverlay, Problems.notFound],
      async handle(ctx, { body, source }) {
        const result = await ctx.services.configs.compose(
          owner(ctx),
          { base: body.base, overlays: body.overlays ?? [] },
          source,
        );
        ctx.body = {
          composed: result.config,
          sources: result.sources,
          removed: result.removed,
          ...(await ctx.services.configs.report(owner(ctx), result.validation)),
        };
      },
    }),
    ...savedConfigRoutes,
    ...savedOverlayRoutes,
  ],
};
