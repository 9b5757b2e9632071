import { configSchema, type GenerationConfig } from '../../core/configs/config-schema.js';
import type { ConfigInput } from '../../core/configs/config-input.js';
import { requireValidOverlay } from '../../core/configs/config-input.js';
import { overlaySchema } from '../../core/configs/overlay-schema.js';
import { ConfigProblems } from '../../core/configs/problems.js';
import type { SavedDocument } from '../../core/configs/service.js';
import { issuesProblem } from '../../core/configs/validate.js';
import { MAX_YAML_BYTES, parseYamlSource } from '../../core/configs/yaml-source.js';
import { MAX_NAME_LENGTH, type Owner } from '../../core/domain/config/document-decider.js';
import { Problems } from '../../core/problems.js';
import { CONFIGS_PROJECTION } from '../../projections/configs.js';
import { OVERLAYS_PROJECTION } from '../../projections/overlays.js';
import { ownedDocuments, type DocumentsState } from '../../projections/configs-documents.js';
import type { ApiContext } from '../context.js';
import { requireScope } from '../middleware/authenticate.js';
import { paginate } from '../pagination.js';
import { defineRoute, type RouteGroup } from '../route.js';
import { listQuery, pageSchema, type ListQuery } from '../schemas.js';
import { anyConfig, configInput, configYaml, documentId } from './config-input-schema.js';

/*
 * Request bodies take a config as a plain object: the config's own rules are checked by the configs
 * module, so that every config issue is one `invalid-config` problem with pointers into the config
 * (and YAML line and column), whatever the route. The config's schema is published in full by
 * GET /v1/configs/schema and in the views below.
 */

const { $id: _configId, $schema: _configDialect, ...embeddedConfig } = configSchema;
const { $id: _overlayId, $schema: _overlayDialect, ...embeddedOverlay } = overlaySchema;

const YAML_TYPES = ['application/yaml', 'text/yaml'] as const;
const yamlBody = { type: 'string', maxLength: MAX_YAML_BYTES, description: 'A generation config in YAML (GET /v1/configs/schema).' };
const name = { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH };

const issue = {
  type: 'object',
  required: ['pointer', 'message'],
  properties: { pointer: { type: 'string' }, message: { type: 'string' }, line: { type: 'integer' }, column: { type: 'integer' } },
};

const estimateSchema = {
  type: 'object',
  required: ['rows', 'credits', 'tables'],
  properties: {
    rows: { type: 'integer' },
    credits: { type: 'integer', description: 'What a live key is charged.' },
    tables: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'rows', 'credits_per_1000_rows', 'credits'],
        properties: { name: { type: 'string' }, rows: { type: 'integer' }, credits_per_1000_rows: { type: 'number' }, credits: { type: 'integer' } },
      },
    },
    mode: { enum: ['live', 'test'] },
    credits_available: { type: 'integer' },
    balance_covers: { type: 'boolean', description: 'Whether the balance covers it; always true with a test key, which is never charged.' },
  },
};

const validationSchema = {
  type: 'object',
  required: ['valid', 'errors', 'config', 'estimate'],
  properties: {
    valid: { type: 'boolean' },
    errors: { type: 'array', items: issue },
    config: { oneOf: [embeddedConfig, { type: 'null' }], description: 'The normalised config (defaults explicit); null when invalid.' },
    estimate: { oneOf: [estimateSchema, { type: 'null' }] },
  },
};

const documentView = (member: 'config' | 'overlay', content: object) => ({
  type: 'object',
  required: ['id', 'name', 'mode', 'version', member, 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    mode: { enum: ['live', 'test'] },
    version: { type: 'integer', description: '1 when saved, +1 on every update.' },
    [member]: content,
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
});
const savedConfigSchema = documentView('config', embeddedConfig);
const savedOverlaySchema = documentView('overlay', embeddedOverlay);
const deletedSchema = { type: 'object', required: ['id', 'deleted'], properties: { id: { type: 'string' }, deleted: { const: true } } };

const owner = (ctx: ApiContext): Owner => ({ accountId: ctx.state.auth.accountId, mode: ctx.state.auth.mode });

function documentBody(document: SavedDocument | Omit<SavedDocument, 'position'>, member: 'config' | 'overlay') {
  return { id: document.id, name: document.name, mode: document.mode, version: document.version, [member]: document.content, created_at: document.created_at, updated_at: document.updated_at };
}

/** A config given inline as JSON or YAML, refused with `invalid-config` unless valid. */
function inlineConfig(ctx: ApiContext, body: { config?: unknown; config_yaml?: string }): GenerationConfig {
  return ctx.services.configs.requireValid('config_yaml' in body && body.config_yaml !== undefined ? { config_yaml: body.config_yaml } : { config: body.config });
}

/** An overlay given inline as JSON or YAML, refused with `invalid-overlay` unless it is a partial config. */
function inlineOverlay(body: { overlay?: unknown; overlay_yaml?: string }): Record<string, unknown> {
  if (body.overlay_yaml === undefined) return requireValidOverlay(body.overlay);
  const source = parseYamlSource(body.overlay_yaml);
  return requireValidOverlay(source.value, source);
}

/** The owner's documents from the projection, once it has read everything written so far (a list right after a save shows it). */
async function listed(ctx: ApiContext, projection: string): Promise<ReturnType<typeof ownedDocuments>> {
  await ctx.services.projections.waitFor(await ctx.services.store.headPosition());
  return ownedDocuments(ctx.services.projections.state<DocumentsState>(projection), owner(ctx));
}

const metadataOf = (ctx: ApiContext) => ({ request_id: ctx.state.requestId, key_id: ctx.state.auth.keyId, mode: ctx.state.auth.mode });

const configProblems = [ConfigProblems.invalidConfig, ConfigProblems.invalidYaml, ConfigProblems.yamlTooLarge];

/** Fixed paths (`/v1/configs/compose`) come before `/v1/configs/{id}`, which would match them too. */
export const configsRoutes: RouteGroup = {
  tag: 'Configuration',
  description: 'Generation configs (the engine\'s YAML format): validate, estimate, save, compose from overlay layers.',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/v1/configs/schema',
      operationId: 'getConfigSchema',
      summary: 'The JSON Schema of generation configs',
      description: 'The JSON Schema (2020-12) that configs are validated with. Sectors, tables, columns and options are further checked against the catalog.',
      scope: 'configs:read',
      responses: {
        200: {
          description: 'The config JSON Schema.',
          // The answer is a schema document: published here as the one value it takes.
          content: { 'application/schema+json': { type: 'object', description: 'The JSON Schema (2020-12) of generation configs.', const: configSchema } },
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
        'Reads a YAML config and answers its normalised JSON form, the validation result (each error with its line and column) and the credit estimate. ' +
        'With `?save=true&name=…` a valid config is also saved (needs `configs:write`; 201, with `saved`); an invalid one is then refused with 400. ' +
        'Several documents, custom tags, aliases that expand beyond 100 nodes: 400 `invalid-yaml`. More than 1 MiB: 413.',
      scope: 'configs:read',
      query: {
        properties: {
          save: { type: 'boolean', default: false, description: 'Save the config when it is valid.' },
          name: { ...name, description: 'The name to save it under (required with save=true).' },
        },
      },
      body: { content: Object.fromEntries(YAML_TYPES.map((type) => [type, yamlBody])), maxBytes: MAX_YAML_BYTES },
      responses: {
        200: { description: 'The validation result.', content: { 'application/json': validationSchema } },
        201: { description: 'Valid and saved.', content: { 'application/json': { ...validationSchema, properties: { ...validationSchema.properties, saved: savedConfigSchema } } } },
      },
      problems: configProblems,
      async handle(ctx, { query, body }) {
        const source = parseYamlSource(body);
        if (!query.save) {
          ctx.body = await ctx.services.configs.report(owner(ctx), ctx.services.configs.check(source.value, source));
          return;
        }
        requireScope(ctx, 'configs:write');
        if (!query.name) throw issuesProblem(Problems.badRequest, 'the query', [{ pointer: '/name', message: 'a name is required to save' }]);
        const result = ctx.services.configs.check(source.value, source);
        if (!result.valid) throw issuesProblem(ConfigProblems.invalidConfig, 'the config', result.errors);
        const saved = await ctx.services.configs.saveConfig(owner(ctx), query.name, result.config, metadataOf(ctx));
        ctx.status = 201;
        ctx.body = { ...(await ctx.services.configs.report(owner(ctx), result)), saved: documentBody(saved, 'config') };
      },
    }),
    defineRoute<Record<string, never>, Record<string, never>, ConfigInput | string>({
      method: 'POST',
      path: '/v1/configs/validate',
      operationId: 'validateConfig',
      summary: 'Validate a config',
      description: 'Validates a config given as JSON (`config`), YAML (`config_yaml`, or a YAML body), or a saved config with overlays. An invalid config is a 200 answer with `valid: false` and its `errors`; YAML that cannot be read is a 400.',
      scope: 'configs:read',
      body: { content: { 'application/json': configInput, ...Object.fromEntries(YAML_TYPES.map((type) => [type, yamlBody])) }, maxBytes: MAX_YAML_BYTES },
      responses: { 200: { description: 'The validation result, with the normal form and estimate when valid.', content: { 'application/json': validationSchema } } },
      problems: [ConfigProblems.invalidYaml, ConfigProblems.yamlTooLarge, Problems.notFound],
      async handle(ctx, { body }) {
        const input: ConfigInput = typeof body === 'string' ? { config_yaml: body } : body;
        ctx.body = await ctx.services.configs.report(owner(ctx), await ctx.services.configs.validate(owner(ctx), input));
      },
    }),
    defineRoute<Record<string, never>, Record<string, never>, ConfigInput | string>({
      method: 'POST',
      path: '/v1/configs/estimate',
      operationId: 'estimateConfig',
      summary: 'Estimate the credits of a config',
      description: 'Credits in total and per table, rows, and whether the account\'s balance covers it. The config is named as for validate; an invalid one is a 400 `invalid-config`.',
      scope: 'configs:read',
      body: { content: { 'application/json': configInput, ...Object.fromEntries(YAML_TYPES.map((type) => [type, yamlBody])) }, maxBytes: MAX_YAML_BYTES },
      responses: { 200: { description: 'The estimate.', content: { 'application/json': estimateSchema } } },
      problems: [...configProblems, Problems.notFound],
      async handle(ctx, { body }) {
        const input: ConfigInput = typeof body === 'string' ? { config_yaml: body } : body;
        const resolved = await ctx.services.configs.resolve(owner(ctx), input);
        ctx.body = await ctx.services.configs.estimate(owner(ctx), resolved.config);
      },
    }),
    defineRoute<Record<string, never>, Record<string, never>, { base: string | Record<string, unknown>; overlays?: (string | Record<string, unknown>)[] }>({
      method: 'POST',
      path: '/v1/configs/compose',
      operationId: 'composeConfig',
      summary: 'Compose a config from a base and overlays',
      description:
        'Applies the overlays in order over the base: maps merge deeply, tables merge by name (new ones are appended), lists of scalars are replaced, `null` removes a member. ' +
        '`sources` gives, for every field of the result (by JSON pointer), the layer that set it: a saved id, `base`, or `overlays[i]` for inline ones. The result is validated and estimated.',
      scope: 'configs:read',
      body: {
        content: {
          'application/json': {
            type: 'object',
            required: ['base'],
            additionalProperties: false,
            properties: {
              base: { oneOf: [documentId, { type: 'object' }], description: 'A saved config id, or an inline (partial) config.' },
              overlays: { type: 'array', maxItems: 20, items: { oneOf: [documentId, { type: 'object' }] }, description: 'Saved overlay ids or inline overlays.' },
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
              required: ['composed', 'sources', ...validationSchema.required],
              properties: { composed: { type: 'object' }, sources: { type: 'object', additionalProperties: { type: 'string' } }, ...validationSchema.properties },
            },
          },
        },
      },
      problems: [ConfigProblems.invalidOverlay, Problems.notFound],
      async handle(ctx, { body }) {
        const result = await ctx.services.configs.compose(owner(ctx), { base: body.base, overlays: body.overlays ?? [] });
        ctx.body = { composed: result.config, sources: result.sources, ...(await ctx.services.configs.report(owner(ctx), result.validation)) };
      },
    }),
    defineRoute<Record<string, never>, Record<string, never>, { name: string; config?: unknown; config_yaml?: string }>({
      method: 'POST',
      path: '/v1/configs',
      operationId: 'saveConfig',
      summary: 'Save a config',
      description: 'Saves a valid config (JSON or YAML) under a name, in its normal form. It belongs to the account and the mode of the key (test configs are seen by test keys only).',
      scope: 'configs:write',
      body: {
        content: {
          'application/json': {
            oneOf: [
              { type: 'object', required: ['name', 'config'], additionalProperties: false, properties: { name, config: anyConfig } },
              { type: 'object', required: ['name', 'config_yaml'], additionalProperties: false, properties: { name, config_yaml: configYaml } },
            ],
          },
        },
        maxBytes: MAX_YAML_BYTES,
      },
      responses: { 201: { description: 'The saved config.', content: { 'application/json': savedConfigSchema } } },
      problems: configProblems,
      async handle(ctx, { body }) {
        const saved = await ctx.services.configs.saveConfig(owner(ctx), body.name, inlineConfig(ctx, body), metadataOf(ctx));
        ctx.status = 201;
        ctx.body = documentBody(saved, 'config');
      },
    }),
    defineRoute<Record<string, never>, ListQuery>({
      method: 'GET',
      path: '/v1/configs',
      operationId: 'listConfigs',
      summary: 'List saved configs',
      description: 'The saved configs of the account in the key\'s mode, newest first; deleted ones are not listed.',
      scope: 'configs:read',
      query: listQuery,
      responses: { 200: { description: 'A page of configs.', content: { 'application/json': pageSchema(savedConfigSchema) } } },
      async handle(ctx, { query }) {
        const page = paginate(await listed(ctx, CONFIGS_PROJECTION), (document) => document.id, query);
        ctx.body = { ...page, data: page.data.map((document) => documentBody(document, 'config')) };
      },
    }),
    defineRoute<{ id: string }>({
      method: 'GET',
      path: '/v1/configs/{id}',
      operationId: 'getConfig',
      summary: 'Get a saved config',
      scope: 'configs:read',
      params: { id: documentId },
      responses: { 200: { description: 'The config.', content: { 'application/json': savedConfigSchema } } },
      problems: [Problems.notFound],
      async handle(ctx, { params }) {
        ctx.body = documentBody(await ctx.services.configs.getConfig(owner(ctx), params.id), 'config');
      },
    }),
    defineRoute<{ id: string }, Record<string, never>, { name?: string; config?: unknown; config_yaml?: string }>({
      method: 'POST',
      path: '/v1/configs/{id}',
      operationId: 'updateConfig',
      summary: 'Update a saved config',
      description: 'Renames it, replaces its config, or both (Stripe\'s convention: POST to the object). Its version goes up by one; the previous versions stay in its history.',
      scope: 'configs:write',
      params: { id: documentId },
      body: {
        content: {
          'application/json': {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            not: { required: ['config', 'config_yaml'] },
            properties: { name, config: anyConfig, config_yaml: configYaml },
          },
        },
        maxBytes: MAX_YAML_BYTES,
      },
      responses: { 200: { description: 'The updated config.', content: { 'application/json': savedConfigSchema } } },
      problems: [...configProblems, Problems.notFound],
      async handle(ctx, { params, body }) {
        const config = body.config !== undefined || body.config_yaml !== undefined ? inlineConfig(ctx, body) : undefined;
        const updated = await ctx.services.configs.updateConfig(owner(ctx), params.id, { name: body.name, config }, metadataOf(ctx));
        ctx.body = documentBody(updated, 'config');
      },
    }),
    defineRoute<{ id: string }>({
      method: 'DELETE',
      path: '/v1/configs/{id}',
      operationId: 'deleteConfig',
      summary: 'Delete a saved config',
      description: 'It is no longer listed nor usable; its history (saved, updated, deleted events) stays.',
      scope: 'configs:write',
      params: { id: documentId },
      responses: { 200: { description: 'Deleted.', content: { 'application/json': deletedSchema } } },
      problems: [Problems.notFound],
      async handle(ctx, { params }) {
        await ctx.services.configs.deleteConfig(owner(ctx), params.id, metadataOf(ctx));
        ctx.body = { id: params.id, deleted: true };
      },
    }),
    defineRoute<Record<string, never>, Record<string, never>, { name: string; overlay?: unknown; overlay_yaml?: string }>({
      method: 'POST',
      path: '/v1/overlays',
      operationId: 'saveOverlay',
      summary: 'Save an overlay layer',
      description: 'A named partial config (JSON or YAML), to compose over saved configs. `null` members remove what the base sets.',
      scope: 'configs:write',
      body: {
        content: {
          'application/json': {
            oneOf: [
              { type: 'object', required: ['name', 'overlay'], additionalProperties: false, properties: { name, overlay: { type: 'object' } } },
              { type: 'object', required: ['name', 'overlay_yaml'], additionalProperties: false, properties: { name, overlay_yaml: configYaml } },
            ],
          },
        },
        maxBytes: MAX_YAML_BYTES,
      },
      responses: { 201: { description: 'The saved overlay.', content: { 'application/json': savedOverlaySchema } } },
      problems: [ConfigProblems.invalidOverlay, ConfigProblems.invalidYaml],
      async handle(ctx, { body }) {
        const saved = await ctx.services.configs.saveOverlay(owner(ctx), body.name, inlineOverlay(body), metadataOf(ctx));
        ctx.status = 201;
        ctx.body = documentBody(saved, 'overlay');
      },
    }),
    defineRoute<Record<string, never>, ListQuery>({
      method: 'GET',
      path: '/v1/overlays',
      operationId: 'listOverlays',
      summary: 'List overlay layers',
      description: 'The overlays of the account in the key\'s mode, newest first.',
      scope: 'configs:read',
      query: listQuery,
      responses: { 200: { description: 'A page of overlays.', content: { 'application/json': pageSchema(savedOverlaySchema) } } },
      async handle(ctx, { query }) {
        const page = paginate(await listed(ctx, OVERLAYS_PROJECTION), (document) => document.id, query);
        ctx.body = { ...page, data: page.data.map((document) => documentBody(document, 'overlay')) };
      },
    }),
    defineRoute<{ id: string }>({
      method: 'GET',
      path: '/v1/overlays/{id}',
      operationId: 'getOverlay',
      summary: 'Get an overlay layer',
      scope: 'configs:read',
      params: { id: documentId },
      responses: { 200: { description: 'The overlay.', content: { 'application/json': savedOverlaySchema } } },
      problems: [Problems.notFound],
      async handle(ctx, { params }) {
        ctx.body = documentBody(await ctx.services.configs.getOverlay(owner(ctx), params.id), 'overlay');
      },
    }),
    defineRoute<{ id: string }, Record<string, never>, { name?: string; overlay?: unknown; overlay_yaml?: string }>({
      method: 'POST',
      path: '/v1/overlays/{id}',
      operationId: 'updateOverlay',
      summary: 'Update an overlay layer',
      scope: 'configs:write',
      params: { id: documentId },
      body: {
        content: {
          'application/json': {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            not: { required: ['overlay', 'overlay_yaml'] },
            properties: { name, overlay: { type: 'object' }, overlay_yaml: configYaml },
          },
        },
        maxBytes: MAX_YAML_BYTES,
      },
      responses: { 200: { description: 'The updated overlay.', content: { 'application/json': savedOverlaySchema } } },
      problems: [ConfigProblems.invalidOverlay, ConfigProblems.invalidYaml, Problems.notFound],
      async handle(ctx, { params, body }) {
        const overlay = body.overlay !== undefined || body.overlay_yaml !== undefined ? inlineOverlay(body) : undefined;
        ctx.body = documentBody(await ctx.services.configs.updateOverlay(owner(ctx), params.id, { name: body.name, overlay }, metadataOf(ctx)), 'overlay');
      },
    }),
    defineRoute<{ id: string }>({
      method: 'DELETE',
      path: '/v1/overlays/{id}',
      operationId: 'deleteOverlay',
      summary: 'Delete an overlay layer',
      scope: 'configs:write',
      params: { id: documentId },
      responses: { 200: { description: 'Deleted.', content: { 'application/json': deletedSchema } } },
      problems: [Problems.notFound],
      async handle(ctx, { params }) {
        await ctx.services.configs.deleteOverlay(owner(ctx), params.id, metadataOf(ctx));
        ctx.body = { id: params.id, deleted: true };
      },
    }),
  ],
};
