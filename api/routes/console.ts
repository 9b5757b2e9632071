import { Problems, problem } from '../../core/problems.js';
import { consoleAssets } from '../console/console-assets.js';
import { CONSOLE_ASSETS_PATH, CONSOLE_CONTENT_SECURITY_POLICY, consolePage } from '../console/console-page.js';
import { noneMatchHolds } from '../http/conditional.js';
import { defineRoute, type RouteGroup } from '../http/route.js';

const CACHE_FOREVER = 'public, max-age=31536000, immutable';

/** The web console, for people: a page and its built files, from this origin alone; its data calls carry the key. */
export const consoleRoutes: RouteGroup = {
  tag: 'Service',
  description: 'The web console and the files it loads.',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/console',
      operationId: 'webConsole',
      summary: 'The web console',
      description:
        'The catalog, configs, quick generation, jobs, usage, billing, keys and the audit in a browser. The ' +
        'page needs no key; the user pastes one, kept in the tab, and every call of the page carries it.',
      scope: null,
      responses: {
        200: {
          description: 'The page.',
          headers: {
            'Content-Security-Policy': {
              description: "This origin only, no inline script or style, no framing, Trusted Types: 'none'.",
              schema: { type: 'string' },
            },
            'Cache-Control': {
              description: '`no-cache`: revalidated, so that a new version shows at once.',
              schema: { type: 'string' },
            },
          },
          content: { 'text/html': { type: 'string' } },
        },
      },
      async handle(ctx) {
        const assets = await consoleAssets();
        ctx.set('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
        ctx.set('Cache-Control', 'no-cache');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Referrer-Policy', 'no-referrer');
        ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = consolePage(assets.script, assets.style);
      },
    }),
    defineRoute<{ file: string }>({
      method: 'GET',
      path: `${CONSOLE_ASSETS_PATH}/{file}`,
      operationId: 'webConsoleAsset',
      summary: 'A file of the web console',
      description:
        "A script or stylesheet of the console's build, under a name that changes with its content, so it " +
        'is cached for a year. Gzipped when the request accepts it.',
      scope: null,
      params: {
        file: { type: 'string', minLength: 1, maxLength: 64, examples: ['console.OS5QYLQW.js'] },
      },
      responses: {
        200: {
          description: 'The file.',
          headers: {
            'Cache-Control': { description: '`public, max-age=31536000, immutable`.', schema: { type: 'string' } },
            ETag: { description: 'The SHA-256 of the file.', schema: { type: 'string' } },
          },
          content: { 'text/javascript': { type: 'string' }, 'text/css': { type: 'string' } },
        },
        304: { description: 'Not modified since the ETag given in If-None-Match.' },
      },
      problems: [Problems.notFound],
      async handle(ctx, { params }) {
        const asset = (await consoleAssets()).files.get(params.file);
        if (!asset) throw problem(Problems.notFound, `the console has no file ${params.file}`);
        ctx.set('Cache-Control', CACHE_FOREVER);
        ctx.set('ETag', asset.etag);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.vary('Accept-Encoding');
        if (noneMatchHolds(ctx.get('If-None-Match'), asset.etag)) {
          ctx.status = 304;
          return;
        }
        ctx.type = asset.type;
        // A request that names no encoding (curl without --compressed) gets the file as it is.
        if (ctx.get('Accept-Encoding') !== '' && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
          ctx.set('Content-Encoding', 'gzip');
          ctx.body = asset.gzip;
        } else ctx.body = asset.identity;
      },
    }),
  ],
};
