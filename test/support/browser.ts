import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`, as .ci/run does); FINSYNTH_CHROMIUM names another. */
export const chromiumPath = (): string => process.env.FINSYNTH_CHROMIUM || '/usr/bin/chromium';

/** Where each page's last look is kept, for a person to see what a test saw: test-artifacts/ is not in git. */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-artifacts/screenshots/', import.meta.url));

export interface BrowserKit {
  /**
   * Opens `url` in a fresh headless page and hands it to `body`. Every request to another origin than the
   * url's is aborted and recorded; console errors and page errors are recorded. After `body`, the page is
   * saved as `test-artifacts/screenshots/<name>.png` and closed; then what was recorded fails the test.
   */
  visit<T>(url: string, name: string, body: (page: Page) => Promise<T>): Promise<T>;
}

/**
 * A headless Chromium for the tests of the enclosing `describe`, launched before them and closed after.
 * Where no browser is installed they are pending, unless CI is set: there they fail, since CI must have one.
 */
export function useBrowser(): BrowserKit {
  let browser: Browser | undefined;

  before(async function () {
    const executablePath = chromiumPath();
    if (!existsSync(executablePath)) {
      if (process.env.CI) throw new Error(`no browser at ${executablePath}: CI installs chromium (.ci/run)`);
      this.skip();
    }
    browser = await chromium.launch({ executablePath, headless: true });
  });

  after(async () => {
    await browser?.close();
  });

  return {
    async visit<T>(url: string, name: string, body: (page: Page) => Promise<T>): Promise<T> {
      if (!browser) throw new Error('useBrowser() launches the browser in a before hook of the same describe');
      const origin = new URL(url).origin;
      const foreign: string[] = [];
      const errors: string[] = [];
      // Service workers could answer requests where routing does not see them.
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1400, height: 1000 } });
      await context.route('**/*', async (route) => {
        const requested = route.request().url();
        if (new URL(requested).origin === origin) return route.continue();
        foreign.push(requested);
        return route.abort('blockedbyclient');
      });
      await context.routeWebSocket(
        (socket) => new URL(socket).origin.replace(/^ws/, 'http') !== origin,
        (socket) => {
          foreign.push(socket.url());
          return socket.close();
        },
      );
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
      let result: T;
      try {
        result = await body(page);
      } finally {
        await mkdir(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
        await context.close();
      }
      if (foreign.length > 0) throw new Error(`the page reached other origins than ${origin}:\n${foreign.join('\n')}`);
      if (errors.length > 0) throw new Error(`the page reported errors:\n${errors.join('\n')}`);
      return result;
    },
  };
}
