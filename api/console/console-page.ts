/**
 * The console's page: an HTML shell that loads the built script and stylesheet from this origin. It holds
 * no script of its own and no key: the key is pasted into the page and kept in the tab's sessionStorage.
 */

export const CONSOLE_ASSETS_PATH = '/console/assets';

/**
 * A key sits in this page, so everything comes from this origin only, no inline script or style, no framing,
 * and Trusted Types refuse any string written into the DOM as HTML (values are shown as text). The editor's
 * styles are a constructed stylesheet in its shadow root, which style-src does not need to allow; `data:`
 * images are the editor's lint markers and the page's empty icon.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** The page, loading the built files named `script` and `style`. */
export function consolePage(script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>finsynth console</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${CONSOLE_ASSETS_PATH}/${style}">
    <script type="module" src="${CONSOLE_ASSETS_PATH}/${script}"></script>
  </head>
  <body>
    <div id="app"></div>
    <noscript>The finsynth console needs JavaScript.</noscript>
  </body>
</html>
`;
}
