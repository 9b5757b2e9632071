import { Problems, problem } from '../../core/problems.js';
import { noneMatchHolds } from '../http/conditional.js';
import { defineRoute, type RouteGroup } from '../http/route.js';
import { rendererBundle } from '../docs/renderer-bundle.js';
import { ASSETS_PATH, CONTENT_SECURITY_POLICY, referencePage } from '../docs/reference-page.js';

const CACHE_FOREVER = 'public, max-age=31536000, immutable';

const pageHeaders = {
  'Content-Security-Policy': {
    description: 'Everything from this origin only; inline styles, which the renderer writes.',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: '`no-cache`: revalidated, so that a new version shows at once.',
    schema: { type: 'string' },
  },
};

/** The API reference page, for people: rendered in the browser from GET /v1/openapi.json, nothing from elsewhere. */
export const docsRoutes: RouteGroup = {
  tag: 'Service',
  description: 'The API reference page and the renderer it loads.',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/docs',
      operationId: 'apiReference',
      summary: 'The API reference page',
      description:
        'Every operation of this document with its parameters, schemas, problems and scope, and its request ' +
        'as curl and as a call of the TypeScript client `@finsynth/client`. Open it in a browser.',
      scope: null,
      responses: {
        200: { description: 'The page.', headers: pageHeaders, content: { 'text/html': { type: 'string' } } },
      },
      async handle(ctx) {
        const bundle = await rendererBundle();
        ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
        ctx.set('Cache-Control', 'no-cache');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Referrer-Policy', 'no-referrer');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = referencePage(bundle.name);
      },
    }),
    defineRoute<{ file: string }>({
      method: 'GET',
      path: `${ASSETS_PATH}/{file}`,
      operationId: 'apiReferenceAsset',
      summary: 'A file of the API reference page',
      description:
        "The renderer of the page (Scalar's standalone bundle, from its npm package), under a name that " +
        'changes with its content, so it is cached for a year. Gzipped when the request accepts it.',
      scope: null,
      params: {
        file: { type: 'string', minLength: 1, maxLength: 64, examples: ['api-reference.3f8a09c2d4b7e615.js'] },
      },
      responses: {
        200: {
          description: 'The file.',
          headers: {
            'Cache-Control': { description: '`public, max-age=31536000, immutable`.', schema: { type: 'string' } },
            ETag: { description: 'The SHA-256 of the file.', schema: { type: 'string' } },
          },
          content: { 'text/javascript': { type: 'string' } },
        },
        304: { description: 'Not modified since the ETag given in If-None-Match.' },
      },
      problems: [Problems.notFound],
      async handle(ctx, { params }) {
        const bundle = await rendererBundle();
        if (params.file !== bundle.name)
          throw problem(Problems.notFound, `the reference page has no file ${params.file}`);
        ctx.set('Cache-Control', CACHE_FOREVER);
        ctx.set('ETag', bundle.etag);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.vary('Accept-Encoding');
        if (noneMatchHolds(ctx.get('If-None-Match'), bundle.etag)) {
          ctx.status = 304;
          return;
        }
        ctx.type = 'text/javascript; charset=utf-8';
        // A request that names no encoding (curl without --compressed) gets the file as it is.
        if (ctx.get('Accept-Encoding') !== '' && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
          ctx.set('Content-Encoding', 'gzip');
          ctx.body = bundle.gzip;
        } else ctx.body = bundle.identity;
      },
    }),
  ],
};
