import type { SavedDocument, SavedDocuments } from '../../../core/configs/saved-documents.js';
import type { ConfigService } from '../../../core/configs/service.js';
import type { SourceMap } from '../../../core/configs/source-map.js';
import type { Owner } from '../../../core/configs/document-decider.js';
import type { JsonSchema } from '../../../core/json-schema.js';
import { Problems, type ProblemType } from '../../../core/problems.js';
import { isLive, ownerDocuments, type DocumentsState } from '../../../projections/configs/configs-documents.js';
import type { ApiContext } from '../../http/context.js';
import { paginate } from '../../http/pagination.js';
import { defineRoute, type RouteDefinition } from '../../http/route.js';
import { listQuery, pageSchema, type ListQuery } from '../../http/schemas.js';
import { configYaml, documentId, MAX_CONFIG_BODY_BYTES } from './config-input-schema.js';
import { name } from './config-schemas.js';

/** The prefix of each kind's ids (core/configs/*-documents.ts), for the examples of the documentation. */
const ID_PREFIXES = { config: 'cfg', overlay: 'ovl' } as const;

const exampleOf = (schema: JsonSchema): unknown => (Array.isArray(schema.examples) ? schema.examples[0] : undefined);

/** Content given inline in a request: as JSON (`config`) or as YAML (`config_yaml`). */
type Inline = { json: unknown } | { yaml: string };
type Operation = 'save' | 'list' | 'get' | 'update' | 'delete';

/** A kind of saved document, as its five routes differ: everything else about them is the same. */
export interface DocumentRoutes<Content extends object> {
  /** The JSON member that holds the content (its YAML twin is `<member>_yaml`), and the word in answers. */
  member: 'config' | 'overlay';
  /** As in the operationIds: saveConfig, listConfigs. */
  Noun: string;
  path: string;
  projection: string;
  /** The content as a request gives it in JSON, and as an answer shows it. */
  given: JsonSchema;
  shown: JsonSchema;
  /**
   * Inline content, refused with one of `problems` unless valid; `bodySource` places its errors in a JSON body
   * (under `/<member>`).
   */
  read(ctx: ApiContext, inline: Inline, bodySource: SourceMap | undefined): Content;
  problems: ProblemType[];
  documents(configs: ConfigService): SavedDocuments<Content>;
  docs: Record<Operation, { summary: string; description?: string }>;
}

export const owner = (ctx: ApiContext): Owner => ({ accountId: ctx.state.auth.accountId, mode: ctx.state.auth.mode });
export const metadataOf = (ctx: ApiContext) => ({
  request_id: ctx.state.requestId,
  key_id: ctx.state.auth.keyId,
  mode: ctx.state.auth.mode,
});

export function documentBody(document: Omit<SavedDocument, 'position'>, member: 'config' | 'overlay') {
  return {
    id: document.id,
    name: document.name,
    mode: document.mode,
    version: document.version,
    [member]: document.content,
    created_at: document.created_at,
    updated_at: document.updated_at,
  };
}

export const documentView = (member: 'config' | 'overlay', content: JsonSchema) => ({
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
const deletedSchema = {
  type: 'object',
  required: ['id', 'deleted'],
  properties: { id: { type: 'string' }, deleted: { const: true } },
};

/** The owner's documents once the projection has read all that was written, so a list right after a save shows it. */
async function listed(ctx: ApiContext, projection: string): Promise<ReturnType<typeof ownerDocuments>> {
  await ctx.services.projections.waitForHead();
  return ownerDocuments(ctx.services.projections.state<DocumentsState>(projection), owner(ctx));
}

/** Save, list, get, update (Stripe's convention: POST to the object) and delete of one kind of document. */
export function documentRoutes<Content extends object>(
  kind: DocumentRoutes<Content>,
): RouteDefinition<unknown, unknown, unknown>[] {
  const { member, Noun, path, docs } = kind;
  const yamlMember = `${member}_yaml`;
  type Body = { name?: string } & Record<string, unknown>;
  const given = (body: Body) => body[member] !== undefined || body[yamlMember] !== undefined;
  const content = (ctx: ApiContext, body: Body, source: SourceMap | undefined) =>
    kind.read(ctx, typeof body[yamlMember] === 'string' ? { yaml: body[yamlMember] } : { json: body[member] }, source);
  const documents = (ctx: ApiContext) => kind.documents(ctx.services.configs);
  const view = documentView(member, kind.shown);
  const idParameter = { ...documentId, examples: [`${ID_PREFIXES[member]}_3b9d0f6a2c8e4b7d1a5f9e20`] };
  const json = (schema: JsonSchema) => ({ 'application/json': schema });
  return [
    defineRoute<Record<string, never>, Record<string, never>, Body & { name: string }>({
      method: 'POST',
      path,
      operationId: `save${Noun}`,
      ...docs.save,
      scope: 'configs:write',
      body: {
        content: json({
          oneOf: [
            {
              type: 'object',
              required: ['name', member],
              additionalProperties: false,
              properties: { name, [member]: kind.given },
            },
            {
              type: 'object',
              required: ['name', yamlMember],
              additionalProperties: false,
              properties: { name, [yamlMember]: configYaml },
            },
          ],
        }),
        maxBytes: MAX_CONFIG_BODY_BYTES,
      },
      responses: { 201: { description: `The saved ${member}.`, content: json(view) } },
      problems: kind.problems,
      async handle(ctx, { body, source }) {
        const saved = await documents(ctx).save(owner(ctx), body.name, content(ctx, body, source), metadataOf(ctx));
        ctx.status = 201;
        ctx.body = documentBody(saved, member);
      },
    }),
    defineRoute<Record<string, never>, ListQuery>({
      method: 'GET',
      path,
      operationId: `list${Noun}s`,
      ...docs.list,
      scope: 'configs:read',
      query: listQuery,
      responses: { 200: { description: `A page of ${member}s.`, content: json(pageSchema(view)) } },
      async handle(ctx, { query }) {
        const page = paginate(await listed(ctx, kind.projection), (document) => document.id, query, isLive);
        const { show } = documents(ctx);
        ctx.body = {
          ...page,
          data: page.data.map((document) => documentBody({ ...document, content: show(document.content) }, member)),
        };
      },
    }),
    defineRoute<{ id: string }>({
      method: 'GET',
      path: `${path}/{id}`,
      operationId: `get${Noun}`,
      ...docs.get,
      scope: 'configs:read',
      params: { id: idParameter },
      responses: { 200: { description: `The ${member}.`, content: json(view) } },
      problems: [Problems.notFound],
      async handle(ctx, { params }) {
        ctx.body = documentBody(await documents(ctx).get(owner(ctx), params.id), member);
      },
    }),
    defineRoute<{ id: string }, Record<string, never>, Body>({
      method: 'POST',
      path: `${path}/{id}`,
      operationId: `update${Noun}`,
      ...docs.update,
      scope: 'configs:write',
      params: { id: idParameter },
      body: {
        content: json({
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          // Not both forms of the content; the members are named here too, as the documentation's linters ask.
          not: { required: [member, yamlMember], properties: { [member]: true, [yamlMember]: true } },
          properties: { name, [member]: kind.given, [yamlMember]: configYaml },
          examples: [{ name: 'nightly cards, v2', [member]: exampleOf(kind.given) }],
        }),
        maxBytes: MAX_CONFIG_BODY_BYTES,
      },
      responses: { 200: { description: `The updated ${member}.`, content: json(view) } },
      problems: [...kind.problems, Problems.notFound],
      async handle(ctx, { params, body, source }) {
        const changes = { name: body.name, content: given(body) ? content(ctx, body, source) : undefined };
        ctx.body = documentBody(await documents(ctx).update(owner(ctx), params.id, changes, metadataOf(ctx)), member);
      },
    }),
    defineRoute<{ id: string }>({
      method: 'DELETE',
      path: `${path}/{id}`,
      operationId: `delete${Noun}`,
      ...docs.delete,
      scope: 'configs:write',
      params: { id: idParameter },
      responses: { 200: { description: 'Deleted.', content: json(deletedSchema) } },
      problems: [Problems.notFound],
      async handle(ctx, { params }) {
        await documents(ctx).delete(owner(ctx), params.id, metadataOf(ctx));
        ctx.body = { id: params.id, deleted: true };
      },
    }),
  ];
}
