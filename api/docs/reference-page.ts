/**
 * The API reference page: an HTML shell that Scalar's bundle renders the OpenAPI document into. It holds no
 * script of its own: the bundle reads its configuration from the data attributes of `#api-reference`.
 */

export const DOCUMENT_PATH = '/v1/openapi.json';
export const ASSETS_PATH = '/docs/assets';

/**
 * Scalar's options (https://scalar.com, "Configuration"): nothing is fetched from another origin (no default
 * fonts, no proxy, no telemetry, no assistant), the code samples are the document's own `x-codeSamples`
 * (curl and @finsynth/client) rather than generated ones, and the page never asks for a key: it documents,
 * and requests are sent with curl or the client.
 */
export const RENDERER_OPTIONS = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  hideTestRequestButton: true,
  hiddenClients: true,
  defaultOpenAllTags: true,
  showOperationId: true,
  documentDownloadType: 'json',
  metaData: { title: 'finsynth API reference' },
};

/**
 * Only this origin, for everything; styles also inline, since the renderer writes its styles into a
 * `<style>` element and `style` attributes at run time. `data:` images are its icons.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeAttribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page, loading the renderer served under `bundleName`. */
export function referencePage(bundleName: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>finsynth API reference</title>
    <link rel="icon" href="data:,">
  </head>
  <body>
    <noscript>This page renders <a href="${DOCUMENT_PATH}">the OpenAPI document</a> with JavaScript.</noscript>
    <script id="api-reference" type="application/json" data-url="${DOCUMENT_PATH}"
      data-configuration="${escapeAttribute(JSON.stringify(RENDERER_OPTIONS))}"></script>
    <script src="${ASSETS_PATH}/${bundleName}"></script>
  </body>
</html>
`;
}
