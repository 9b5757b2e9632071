import { createHash } from 'node:crypto';
import { Problems } from '../../core/problems.js';
import type { ApiContext } from '../http/context.js';
import { noneMatchHolds } from '../http/conditional.js';
import { defineRoute, type RouteGroup } from '../http/route.js';
import { identifierPattern } from '../../core/configs/config-schema.js';
import { LIMITS, type Catalog } from '../../core/catalog/catalog.js';
import { publicRefusal } from '../../core/packs/public-refusal.js';

/**
 * Catalog answers carry an ETag (a hash of the body) and `Cache-Control: private, no-cache`: clients
 * keep them and revalidate with If-None-Match, getting 304 and no body while the packs are the same.
 */
function cacheable(ctx: ApiContext, path: string, view: (catalog: Catalog) => unknown): void {
  const { json, etag } = serialized(ctx.services.catalog, path, view);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.set('ETag', etag);
  if (noneMatchHolds(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = json;
}

/**
 * The catalog does not change while the service runs: each view is serialized, encoded and hashed once, so a
 * request pays for none of it.
 */
const serializedViews = new WeakMap<Catalog, Map<string, { json: Buffer; etag: string }>>();

function serialized(
  catalog: Catalog,
  path: string,
  view: (catalog: Catalog) => unknown,
): { json: Buffer; etag: string } {
  let views = serializedViews.get(catalog);
  if (!views) serializedViews.set(catalog, (views = new Map()));
  let entry = views.get(path);
  if (!entry) {
    const json = Buffer.from(JSON.stringify(view(catalog)));
    entry = { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
    views.set(path, entry);
  }
  return entry;
}

const name = { type: 'string', pattern: identifierPattern };
const etagHeaders = {
  ETag: { description: 'Changes when the catalog does.', schema: { type: 'string' } },
  'Cache-Control': {
    description: '`private, no-cache`: keep it, revalidate with If-None-Match.',
    schema: { type: 'string' },
  },
};
const notModified = { description: 'Not modified since the ETag given in If-None-Match.' };

const limitsSchema = {
  type: 'object',
  description:
    'Bounds of one request. Quick generation answers in the exchange; above its bounds, use a job (POST /v1/jobs).',
  properties: {
    quick: {
      type: 'object',
      properties: {
        max_rows_per_table: { const: LIMITS.quick.max_rows_per_table },
        max_rows_per_request: { const: LIMITS.quick.max_rows_per_request },
        max_tables: { const: LIMITS.quick.max_tables },
        max_walked_parents: {
          const: LIMITS.quick.max_walked_parents,
          description:
            'Parent rows a table whose parents decide its row count (insurance claims per policy) ' +
            'may reach through: more is a job.',
        },
      },
    },
    jobs: {
      type: 'object',
      properties: {
        max_rows_per_table: { const: LIMITS.jobs.max_rows_per_table },
        max_tables: { const: LIMITS.jobs.max_tables },
      },
    },
  },
};
const columnSchema = {
  type: 'object',
  required: ['name', 'type', 'nullable', 'description', 'params', 'computed', 'overridable'],
  properties: {
    name: { type: 'string' },
    type: { type: 'string', description: 'A data type of GET /v1/catalog/types.' },
    nullable: { type: 'boolean' },
    parquet_type: {
      type: 'string',
      description:
        'The type of its values in a Parquet result file: INT32, INT64, DECIMAL(18,s), TIMESTAMP(MICROS,UTC), DATE, ' +
        'BOOLEAN, STRING or STRING (dictionary).',
    },
    description: { type: 'string' },
    example: {},
    params: { type: 'object', description: "The type's parameters as the pack sets them." },
    computed: {
      type: 'boolean',
      description: "Set by the table's generator rather than drawn: a config may override only its null_rate.",
    },
    overridable: {
      type: 'array',
      items: { type: 'string' },
      description: 'What a generation config may override for this column.',
    },
  },
};
const tableSchema = {
  type: 'object',
  required: [
    'name',
    'description',
    'default_rows',
    'credits_per_1000_rows',
    'generated_per',
    'rows_per_parent',
    'columns',
    'references',
    'parents',
    'options',
  ],
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    default_rows: { type: 'integer' },
    credits_per_1000_rows: {
      type: 'number',
      description: 'The row cost: credits per 1,000 rows, rounded up per table, at least 1.',
    },
    generated_per: { type: ['string', 'null'], description: 'Generated per row of this parent table.' },
    rows_per_parent: {
      type: 'boolean',
      description:
        "True when each parent row decides how many rows it has here (a loan's term): " +
        "the table is the parents' complete runs in order, up to the rows requested. " +
        'False: the requested rows are spread over the parents.',
    },
    columns: { type: 'array', items: columnSchema },
    references: {
      type: 'array',
      items: {
        type: 'object',
        required: ['column', 'table'],
        properties: { column: { type: 'string' }, table: { type: 'string' } },
      },
    },
    parents: { type: 'array', items: { type: 'string' }, description: 'The tables this one references.' },
    options: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'description', 'schema', 'default'],
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          schema: { type: 'object' },
          default: {},
        },
      },
    },
  },
};
const sectorProperties = { name: { type: 'string' }, version: { type: 'string' }, description: { type: 'string' } };
const sectorSchema = {
  type: 'object',
  required: ['name', 'version', 'description', 'tables'],
  properties: { ...sectorProperties, tables: { type: 'array', items: tableSchema } },
};
const tableSummarySchema = {
  type: 'object',
  required: ['name', 'description', 'credits_per_1000_rows', 'default_rows', 'generated_per', 'parents'],
  properties: Object.fromEntries(
    Object.entries(tableSchema.properties).filter(([name]) =>
      ['name', 'description', 'credits_per_1000_rows', 'default_rows', 'generated_per', 'parents'].includes(name),
    ),
  ),
};
const sectorSummarySchema = {
  ...sectorSchema,
  properties: { ...sectorProperties, tables: { type: 'array', items: tableSummarySchema } },
};
const typeSummarySchema = {
  type: 'object',
  required: ['name', 'description', 'json_type', 'format'],
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    json_type: { type: 'string' },
    format: { type: ['string', 'null'] },
  },
};
const typeSchema = {
  type: 'object',
  required: ['name', 'description', 'json_type', 'params', 'overridable'],
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    json_type: { type: 'string' },
    format: { type: ['string', 'null'] },
    params: { type: 'object', description: 'JSON Schema of the parameters a column of this type takes.' },
    overridable: {
      type: 'array',
      items: { type: 'string' },
      description: 'Parameters a generation config may override per column.',
    },
    example: {},
  },
};

export const catalogRoutes: RouteGroup = {
  tag: 'Catalog',
  description: 'The sector packs, their table schemas and the data types: what a generation request may name.',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/v1/catalog',
      operationId: 'getCatalog',
      summary: 'List sector packs and data types',
      description:
        'Every sector pack (name, version, description, tables with their row cost), ' +
        'the data types by name, and the request limits. Table schemas: ' +
        'GET /v1/catalog/sectors/{sector}; type parameters: GET /v1/catalog/types.',
      scope: 'catalog:read',
      responses: {
        200: {
          description: 'The catalog.',
          headers: etagHeaders,
          content: {
            'application/json': {
              type: 'object',
              required: ['sectors', 'types', 'limits', 'default_locale', 'default_as_of'],
              properties: {
                sectors: { type: 'array', items: sectorSummarySchema },
                types: { type: 'array', items: typeSummarySchema },
                limits: limitsSchema,
                default_locale: { type: 'string' },
                default_as_of: {
                  type: 'string',
                  format: 'date',
                  description: 'The as-of date of a config or quick request that gives none.',
                },
                refused_packs: {
                  type: 'array',
                  description:
                    'Sector packs the operator installed that the service refused (not served): each name and why.',
                  items: {
                    type: 'object',
                    required: ['name', 'reasons'],
                    properties: {
                      name: { type: ['string', 'null'] },
                      reasons: { type: 'array', items: { type: 'string' } },
                    },
                  },
                },
              },
            },
          },
        },
        304: notModified,
      },
      handle(ctx) {
        const refused_packs = ctx.services.packs.refused
          .map(publicRefusal)
          .map(({ name, reasons }) => ({ name, reasons }));
        cacheable(ctx, ctx.path, (catalog) => ({ ...catalog.overview(), refused_packs }));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/catalog/types',
      operationId: 'listDataTypes',
      summary: 'List the data types',
      description:
        'Each column type: what it generates, its JSON type and format, ' +
        'its parameters (JSON Schema) and which of them a config may override.',
      scope: 'catalog:read',
      responses: {
        200: {
          description: 'All data types (one page).',
          headers: etagHeaders,
          content: {
            'application/json': {
              type: 'object',
              required: ['data', 'has_more', 'next_cursor'],
              properties: {
                data: { type: 'array', items: typeSchema },
                has_more: { const: false },
                next_cursor: { type: 'null' },
              },
            },
          },
        },
        304: notModified,
      },
      handle(ctx) {
        cacheable(ctx, ctx.path, (catalog) => ({ data: catalog.types(), has_more: false, next_cursor: null }));
      },
    }),
    defineRoute<{ sector: string }>({
      method: 'GET',
      path: '/v1/catalog/sectors/{sector}',
      operationId: 'getSector',
      summary: 'Get one sector pack',
      scope: 'catalog:read',
      params: { sector: { ...name, examples: ['cards'] } },
      responses: {
        200: {
          description: 'The sector pack and its tables.',
          headers: etagHeaders,
          content: { 'application/json': sectorSchema },
        },
        304: notModified,
      },
      problems: [Problems.notFound],
      handle(ctx, { params }) {
        cacheable(ctx, ctx.path, (catalog) => catalog.sector(params.sector));
      },
    }),
    defineRoute<{ sector: string; table: string }>({
      method: 'GET',
      path: '/v1/catalog/sectors/{sector}/tables/{table}',
      operationId: 'getTableSchema',
      summary: "Get one table's schema",
      description:
        'Columns (type, description, nullability, example, parameters), ' +
        'references, and options with their JSON Schemas and defaults.',
      scope: 'catalog:read',
      params: { sector: { ...name, examples: ['cards'] }, table: { ...name, examples: ['transactions'] } },
      responses: {
        200: { description: 'The table schema.', headers: etagHeaders, content: { 'application/json': tableSchema } },
        304: notModified,
      },
      problems: [Problems.notFound],
      handle(ctx, { params }) {
        cacheable(ctx, ctx.path, (catalog) => catalog.table(params.sector, params.table));
      },
    }),
  ],
};
