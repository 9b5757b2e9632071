import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`, as .ci/run does); FINSYNTH_CHROMIUM names another. */
export const chromiumPath = (): string => process.env.FINSYNTH_CHROMIUM || '/usr/bin/chromium';

/** Where each page's last look is kept, for a person to see what a test saw: test-artifacts/ is not in git. */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-artifacts/screenshots/', import.meta.url));

/** An error answer a test provokes on purpose: Chromium reports every 4xx or 5xx answer as a console error. */
export interface ExpectedAnswer {
  /** The request's path (without the query), or a pattern it matches. */
  path: string | RegExp;
  status: number;
}

export interface VisitOptions {
  /** 1400×1000 unless given: the layouts a page must fit (1280×800, a 390-wide phone). */
  viewport?: { width: number; height: number };
  /** Answers whose console report does not fail the test; any other console error still does. */
  expectedAnswers?: ExpectedAnswer[];
  /** Browser permissions granted to the page's origin (`clipboard-read`, `clipboard-write`). */
  permissions?: string[];
}

export interface BrowserKit {
  /**
   * Opens `url` in a fresh headless page and hands it to `body`. Every request to another origin than the
   * url's is aborted and recorded; console errors and page errors are recorded. After `body`, the page is
   * saved as `test-artifacts/screenshots/<name>.png` and closed; then what was recorded fails the test.
   */
  visit<T>(url: string, name: string, body: (page: Page) => Promise<T>, options?: VisitOptions): Promise<T>;
}

/** Saves what the page shows now as `test-artifacts/screenshots/<name>.png`, beside the one `visit` saves last. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
}

/** Whether a console error is Chromium's report of an answer the test expects ("Failed to load resource: …"). */
function isExpectedAnswer(message: ConsoleMessage, expected: readonly ExpectedAnswer[]): boolean {
  const status = /^Failed to load resource: the server responded with a status of (\d{3})\b/.exec(message.text())?.[1];
  if (status === undefined || !message.location().url) return false;
  const path = new URL(message.location().url).pathname;
  return expected.some(
    (answer) =>
      answer.status === Number(status) &&
      (typeof answer.path === 'string' ? answer.path === path : answer.path.test(path)),
  );
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
    async visit<T>(
      url: string,
      name: string,
      body: (page: Page) => Promise<T>,
      options: VisitOptions = {},
    ): Promise<T> {
      if (!browser) throw new Error('useBrowser() launches the browser in a before hook of the same describe');
      const origin = new URL(url).origin;
      const foreign: string[] = [];
      const errors: string[] = [];
      // Service workers could answer requests where routing does not see them.
      const context = await browser.newContext({
        serviceWorkers: 'block',
        viewport: options.viewport ?? { width: 1400, height: 1000 },
      });
      if (options.permissions) await context.grantPermissions(options.permissions, { origin });
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
        if (message.type() === 'error' && !isExpectedAnswer(message, options.expectedAnswers ?? []))
          errors.push(`console error: ${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
      // A page that opens a dialog by itself (alert(1) from injected markup) fails too.
      page.on('dialog', (dialog) => {
        errors.push(`dialog: ${dialog.type()} ${dialog.message()}`);
        return dialog.dismiss();
      });
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
