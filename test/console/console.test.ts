import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { get } from 'node:http';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import type { Page } from 'playwright-core';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../support/app.js';
import { screenshot, useBrowser, type ExpectedAnswer } from '../support/browser.js';
import { MARKUP } from './fixtures/markup-pack/index.js';

/** A pack whose generated strings are markup (fixtures/markup-pack). */
const MARKUP_PACK = fileURLToPath(new URL('fixtures/markup-pack', import.meta.url));

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const FIRST_PAGE_BUDGET_BYTES = 150 * 1024;

/** The bytes of an answer as sent gzipped: what a browser downloads. */
function gzippedSize(app: TestApp, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${app.url}${path}`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      let size = 0;
      response.on('data', (chunk: Buffer) => (size += chunk.length));
      response.on('end', () => resolve(size));
      response.on('error', reject);
    }).on('error', reject);
  });
}

async function signIn(page: Page, app: TestApp, key: string): Promise<void> {
  await page.goto(`${app.url}/console`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
}

/** Opens a page of the console by its address, as a click on its link does, and waits for its heading. */
async function open(page: Page, name: string, heading: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(`#/${name}`)}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('the web console in a browser', function () {
  // Chromium's start and a job's run take seconds on a shared machine; nothing here waits for a fixed time.
  this.timeout(120_000);
  const browser = useBrowser();
  let app: TestApp;
  let account: TestAccount;
  const logged: string[] = [];

  before(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString('utf8'));
        done();
      },
    });
    app = await startTestApp({ logger: pino({ level: 'debug' }, sink), config: { packs: [MARKUP_PACK] } });
    account = await openAccount(app);
  });
  after(() => app?.close());

  it('signs in with a key kept in the tab only, shows the test banner, and loads at most 150 KB of script first', async () => {
    await browser.visit(
      app.url,
      'console-catalog',
      async (page) => {
        const requested: string[] = [];
        const scripts: string[] = [];
        page.on('request', (sent) => {
          requested.push(sent.url());
          if (sent.resourceType() === 'script') scripts.push(new URL(sent.url()).pathname);
        });
        await signIn(page, app, account.test);
        await page.getByRole('note', { name: 'Test mode' }).getByText('Test mode').waitFor();
        const sectors = page.getByRole('navigation', { name: 'Sectors and tables' });
        await sectors.getByRole('region', { name: 'cards' }).getByRole('link', { name: 'transactions' }).click();
        await page.getByRole('heading', { name: 'cards / transactions' }).waitFor();
        await page.getByRole('table', { name: 'Columns of transactions' }).getByText('merchant_country').waitFor();

        await page.getByRole('button', { name: 'Preview 20 rows' }).click();
        const preview = page.getByRole('table', { name: /^Preview: 20 rows of transactions/ });
        await preview.waitFor();
        expect(await preview.locator('tbody tr').count()).to.equal(20);

        // The key is in this tab's sessionStorage, and nowhere else.
        expect(await page.evaluate('Object.values(sessionStorage)')).to.deep.equal([account.test]);
        expect(await page.evaluate('localStorage.length')).to.equal(0);
        expect(await page.context().cookies()).to.deep.equal([]);
        expect(requested.filter((url) => url.includes(account.test))).to.deep.equal([]);
        expect(page.url()).not.to.include(account.test);

        // A reload keeps the session of the tab.
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Catalog' }).waitFor();

        expect(scripts.some((path) => path.includes('yaml-editor'))).to.equal(false);
        let total = 0;
        for (const path of new Set(scripts)) total += await gzippedSize(app, path);
        expect(total).to.be.above(0).and.at.most(FIRST_PAGE_BUDGET_BYTES);
      },
      { viewport: DESKTOP },
    );
    expect(logged.join('')).to.include('/v1/catalog').and.not.include(account.test);
  });

  it('checks a config as it is typed, marks the error at its line, estimates it, saves it, composes it with an overlay and deletes it', async () => {
    await browser.visit(
      app.url,
      'console-configs',
      async (page) => {
        await signIn(page, app, account.test);
        await open(page, 'configs', 'Configs');
        const editor = page.getByRole('textbox', { name: 'Config YAML' });
        // A config is pasted over the editor's text, as a user pastes one: CodeMirror reads the paste itself.
        const replaceText = async (text: string) => {
          await editor.click();
          await page.keyboard.press('ControlOrMeta+a');
          await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`);
          await page.keyboard.press('ControlOrMeta+v');
        };
        await replaceText('version: 1\nsector: cards\nseed: 42\ntables:\n  - name: transactions\n    rows: -5\n');
        const check = page.getByRole('status', { name: 'Check' });
        await check.getByText('line 6, column 11: must be >= 1 (/tables/0/rows)').waitFor();
        // The editor underlines the value on line 6, and nothing on the other lines.
        const lines = page.locator('.cm-content .cm-line');
        await lines.nth(5).locator('.cm-lintRange-error').waitFor();
        expect(await page.locator('.cm-lintRange-error').count()).to.equal(1);
        await screenshot(page, 'console-configs-error');

        await replaceText('version: 1\nsector: cards\nseed: 42\ntables:\n  - name: transactions\n    rows: 2000\n');
        await check.getByText(/^Valid\. Estimate: \d+ credits? for [\d,]+ rows/).waitFor();
        expect(await page.locator('.cm-lintRange-error').count()).to.equal(0);

        await page.getByLabel('Name', { exact: true }).fill('nightly cards');
        await page.getByRole('button', { name: 'Save config' }).click();
        await page
          .getByRole('status')
          .getByText(/^Saved as nightly cards \(cfg_/)
          .waitFor();
        const saved = page.getByRole('listitem').filter({ hasText: 'nightly cards' });
        await saved.waitFor();

        // An overlay over the saved config: the composed config names the layer each field came from.
        await page.getByLabel('Overlay name').fill('seed seven');
        await page.getByLabel('Overlay YAML (a partial config)').fill('seed: 7\n');
        await page.getByRole('button', { name: 'Save overlay' }).click();
        await page.getByRole('checkbox', { name: /seed seven/ }).check();
        await page.getByRole('button', { name: 'Compose' }).click();
        const sources = page.getByRole('table', { name: 'Where each field came from' });
        const field = (pointer: string) =>
          sources.getByRole('row').filter({ has: page.getByText(pointer, { exact: true }) });
        await field('/seed')
          .getByRole('cell', { name: /^overlay seed seven \(ovl_/ })
          .waitFor();
        expect(await field('/seed').getByRole('cell').first().textContent()).to.equal('7');
        const sector = await field('/sector').getByRole('cell').allTextContents();
        expect(sector[0]).to.equal('cards');
        expect(sector[1]).to.match(/^config nightly cards \(cfg_/);
        await screenshot(page, 'console-configs-composed');

        await saved.getByRole('button', { name: 'Delete nightly cards' }).click();
        await saved.waitFor({ state: 'detached' });
        await page.getByText('Save a config to compose it with overlays.').waitFor();
      },
      { viewport: DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] },
    );
  });

  it("shows generated strings that hold markup as text, never as HTML, and sends a config's options and as-of date", async () => {
    await browser.visit(
      app.url,
      'console-playground',
      async (page) => {
        await signIn(page, app, account.test);
        await open(page, 'playground', 'Playground');
        await page
          .getByLabel('Config YAML')
          .fill('version: 1\nsector: markup\nseed: 3\ntables:\n  - name: notes\n    rows: 12\n');
        await page.getByRole('button', { name: 'Generate' }).click();
        const rows = page.getByRole('table', { name: 'notes: 12 rows' });
        await rows.waitFor();
        const texts = await rows.locator('tbody td:nth-child(2)').allTextContents();
        expect(texts).to.have.length(12);
        expect(new Set(texts)).to.deep.equal(new Set(MARKUP));
        const cell = rows.getByRole('cell', { name: MARKUP[0], exact: true }).first();
        expect(await cell.innerHTML()).to.equal('&lt;img src=x onerror=alert(1)&gt;');
        await screenshot(page, 'console-playground');
        expect(await page.locator('main img, main b, main script').count()).to.equal(0);
        // A table's options and the as-of date reach the request: 50 motifs per 1,000 of 200 accounts are 10.
        await page
          .getByLabel('Config YAML')
          .fill(
            'version: 1\nsector: banking\nseed: 3\nas_of: 2024-06-30\ntables:\n  - name: accounts\n    rows: 200\n' +
              '  - name: aml_motifs\n    rows: 100\n    options: { per_1000_accounts: 50 }\n',
          );
        await page.getByRole('button', { name: 'Generate' }).click();
        const motifs = page.getByRole('table', { name: 'aml_motifs: 10 rows' });
        await motifs.waitFor();
        const opened = await page
          .getByRole('table', { name: 'accounts: 200 rows' })
          .locator('tbody tr')
          .allTextContents();
        expect(opened.join(' ')).to.not.match(/2024-(0[7-9]|1[0-2])-|202[5-9]-/);
      },
      { viewport: DESKTOP },
    );
  });

  it('runs a job to success with live progress, downloads its result checked against its SHA-256, and its report', async () => {
    await browser.visit(
      app.url,
      'console-job',
      async (page) => {
        await signIn(page, app, account.test);
        await open(page, 'jobs', 'Jobs');
        await page.getByRole('button', { name: 'Create job' }).click();
        const created = page.getByRole('status').getByRole('link', { name: /^job_/ });
        await created.click();
        await page.getByRole('heading', { level: 2, name: 'State: succeeded' }).waitFor({ timeout: 60_000 });
        const files = page.getByRole('table', { name: 'Result files' });
        const row = files.getByRole('row').filter({ hasText: 'transactions' });
        const listed = (await row.locator('code.hash').textContent())!;
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          row.getByRole('button', { name: 'Download transactions.csv.gz' }).click(),
        ]);
        expect(download.suggestedFilename()).to.equal('transactions.csv.gz');
        const bytes = await readFile((await download.path())!);
        expect(sha256(bytes)).to.equal(listed);
        await row.getByText('SHA-256 checked').waitFor();
        // Every job makes its conformance report unless its config turns it off: its score, and its page to keep.
        await page.getByRole('heading', { level: 2, name: /^Conformance report: score \d/ }).waitFor();
        await page.getByText(/^transactions: score [\d.]+ · 500 rows · /).waitFor();
        const [reportPage] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download the report page' }).click(),
        ]);
        expect(reportPage.suggestedFilename()).to.match(/^job_\w+-report\.html$/);
        const html = await readFile((await reportPage.path())!, 'utf8');
        expect(html).to.match(/^<!doctype html>/i);
        expect(html).to.contain('transactions');
        await open(page, 'jobs', 'Jobs');
        await page.getByRole('table', { name: 'Jobs' }).getByText('succeeded').first().waitFor();
        await screenshot(page, 'console-jobs');
      },
      { viewport: DESKTOP },
    );
  });

  it('draws credits per day, and the chart changes when usage does', async () => {
    await browser.visit(
      app.url,
      'console-usage',
      async (page) => {
        await signIn(page, app, account.test);
        await open(page, 'usage', 'Usage');
        const chart = page.getByRole('img', { name: /^Credits per day/ });
        await chart.locator('canvas').waitFor();
        const before = Number(await chart.getAttribute('data-total'));
        const drawnBefore = await chart.locator('canvas').screenshot();

        const generated = await request(app, 'POST', '/v1/generate/quick', {
          key: account.test,
          body: { sector: 'banking', tables: [{ name: 'accounts', rows: 5000 }] },
        });
        expect(generated.status).to.equal(200);
        await page.getByRole('button', { name: 'Refresh' }).click();
        await page.locator(`[role=img][data-total]:not([data-total="${before}"])`).waitFor();
        expect(Number(await chart.getAttribute('data-total'))).to.be.above(before);
        await chart.locator('canvas').waitFor();
        expect((await chart.locator('canvas').screenshot()).equals(drawnBefore)).to.equal(false);
        await page.getByRole('table', { name: 'By table' }).getByText('banking/accounts').waitFor();
      },
      { viewport: DESKTOP },
    );
  });

  it('issues a key with chosen scopes, shows its secret once with a copy button, and revokes it', async () => {
    let secret = '';
    await browser.visit(
      app.url,
      'console-keys',
      async (page) => {
        await signIn(page, app, account.live);
        await open(page, 'keys', 'Keys');
        await page.getByLabel('Name', { exact: true }).fill('reporting');
        const chosen = ['catalog:read', 'usage:read'];
        for (const checkbox of await page.getByRole('group', { name: 'Scopes' }).getByRole('checkbox').all()) {
          const scope = await checkbox.getAttribute('id');
          await checkbox.setChecked(chosen.includes(scope!.slice('scope-'.length)));
        }
        await page.getByRole('button', { name: 'Issue key' }).click();
        const shown = page.getByRole('region', { name: 'New key' });
        secret = await shown.getByLabel('New key secret').inputValue();
        expect(secret).to.match(/^svc_live_[0-9A-Za-z]{32}$/);
        await shown.getByRole('button', { name: 'Copy' }).click();
        await shown.getByRole('status').getByText('Copied.').waitFor();
        expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(secret);
        const issued = await request(app, 'GET', '/v1/keys/current', { key: account.live });
        expect(issued.status).to.equal(200);

        const row = page.getByRole('table', { name: 'Keys' }).getByRole('row').filter({ hasText: 'reporting' });
        await row.getByText('catalog:read, usage:read').waitFor();
        await shown.getByRole('button', { name: 'Done' }).click();
        expect(await page.locator('body').textContent()).not.to.include(secret);
        await screenshot(page, 'console-keys');

        await row.getByRole('button', { name: 'Revoke reporting' }).click();
        await row.getByRole('button', { name: 'Confirm revoking reporting' }).click();
        await row.getByText(/^revoked /).waitFor();
      },
      { viewport: DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] },
    );
    expect((await request(app, 'GET', '/v1/catalog', { key: secret })).status).to.equal(401);
  });

  it('shows the balance, buys credits with a sandbox card, shows a decline as its problem, and the audit holds', async () => {
    await browser.visit(
      app.url,
      'console-audit',
      async (page) => {
        await signIn(page, app, account.live);
        expect(await page.getByRole('note', { name: 'Test mode' }).count()).to.equal(0);
        await open(page, 'billing', 'Billing');
        const balance = page.getByRole('definition').first();
        const available = async () => Number((await balance.textContent())!.replace(/\D/g, ''));
        await balance.getByText(/credits$/).waitFor();
        const before = await available();
        await page.getByLabel('Sandbox card').first().selectOption('tok_visa');
        await page.getByRole('button', { name: 'Buy credits' }).click();
        await page
          .getByRole('status')
          .getByText(/^Bought [\d,]+ credits for/)
          .waitFor();
        await balance.filter({ hasNotText: `${before.toLocaleString('en')} credits` }).waitFor();
        expect(await available()).to.be.above(before);
        await page.getByRole('table', { name: 'Billing history' }).getByRole('row').nth(1).waitFor();

        await page.getByLabel('Sandbox card').first().selectOption('tok_chargeDeclined');
        await page.getByRole('button', { name: 'Buy credits' }).click();
        const declined = page.getByRole('alert', { name: 'Purchase problem' });
        await declined.getByText('Payment Required').waitFor();
        expect(await declined.locator('.problem-detail').textContent()).to.match(/declined/i);
        await screenshot(page, 'console-billing');

        await open(page, 'audit', 'Audit');
        await page
          .getByRole('status')
          .getByText(/^The audit holds: \d+ events replayed/)
          .waitFor();
        await page.getByRole('table', { name: 'Credit movements' }).getByText('valid').first().waitFor();
      },
      {
        viewport: DESKTOP,
        expectedAnswers: [{ path: '/v1/billing/credits', status: 402 }],
      },
    );
  });

  it('offers only what the key may do, and shows a 403 as its problem when it cannot know', async () => {
    const narrow = await request(app, 'POST', '/v1/keys', {
      key: account.test,
      body: { name: 'reader', scopes: ['catalog:read', 'jobs:read', 'keys:read'] },
    });
    const blind = await request(app, 'POST', '/v1/keys', {
      key: account.test,
      body: { name: 'blind', scopes: ['jobs:read'] },
    });
    const forbidden: ExpectedAnswer[] = [
      { path: '/v1/keys/current', status: 403 },
      // Signed in again on the Keys page, which the second key may not read.
      { path: '/v1/keys', status: 403 },
      { path: '/v1/usage', status: 403 },
    ];
    await browser.visit(
      app.url,
      'console-scopes',
      async (page) => {
        await signIn(page, app, narrow.body.secret);
        const nav = page.getByRole('navigation', { name: 'Pages' });
        expect(await nav.getByRole('link').allTextContents()).to.deep.equal(['Catalog', 'Jobs', 'Keys']);
        await open(page, 'jobs', 'Jobs');
        await page.getByRole('heading', { level: 2, name: 'Jobs' }).waitFor();
        expect(await page.getByRole('button', { name: 'Create job' }).count()).to.equal(0);
        await open(page, 'keys', 'Keys');
        await page.getByRole('table', { name: 'Keys' }).waitFor();
        expect(await page.getByRole('button', { name: 'Issue key' }).count()).to.equal(0);
        expect(await page.getByRole('button', { name: /^Revoke/ }).count()).to.equal(0);
        await page.getByRole('button', { name: 'Sign out' }).click();
        expect(await page.evaluate('sessionStorage.length')).to.equal(0);

        // A key that may not read itself is offered every page; the service's 403 says what it lacks.
        await page.getByLabel('API key').fill(blind.body.secret);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await nav.getByRole('link', { name: 'Usage' }).click();
        // The page signed in on (Keys) shows its own 403 until the Usage page replaces it: the alert looked for is
        // the Usage page's.
        await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
        const problem = page.getByRole('alert');
        await problem.getByText('Forbidden').waitFor();
        expect(await problem.locator('.problem-detail').textContent()).to.include('usage:read');
        await nav.getByRole('link', { name: 'Jobs' }).waitFor();
        expect(await nav.getByRole('link', { name: 'Usage' }).count()).to.equal(0);
      },
      { viewport: DESKTOP, expectedAnswers: forbidden },
    );
  });

  it('works with the keyboard alone: sign in, move between pages, focus on each page heading', async () => {
    await browser.visit(
      app.url,
      'console-keyboard',
      async (page) => {
        await page.goto(`${app.url}/console`);
        await page.keyboard.press('Tab');
        expect(await page.evaluate('document.activeElement?.id')).to.equal('api-key');
        await page.keyboard.type(account.test);
        await page.keyboard.press('Enter');
        await page.getByRole('navigation', { name: 'Pages' }).waitFor();
        const focused = () => page.evaluate<string>("document.activeElement?.textContent ?? ''");
        // The focus is on the page's heading: the pages' links are just before it.
        for (let presses = 0; presses < 10 && (await focused()) !== 'Jobs'; presses++)
          await page.keyboard.press('Shift+Tab');
        expect(await focused()).to.equal('Jobs');
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
        await page.locator('h1:focus').waitFor();
        expect(await focused()).to.equal('Jobs');
      },
      { viewport: DESKTOP },
    );
  });

  it('fits a 390-wide phone on every page, without scrolling sideways', async () => {
    const pages = [
      ['catalog', 'Catalog'],
      ['configs', 'Configs'],
      ['playground', 'Playground'],
      ['jobs', 'Jobs'],
      ['usage', 'Usage'],
      ['billing', 'Billing'],
      ['keys', 'Keys'],
      ['audit', 'Audit'],
    ];
    await browser.visit(
      app.url,
      'console-phone-audit',
      async (page) => {
        await signIn(page, app, account.live);
        for (const [name, heading] of pages) {
          await open(page, name!, heading!);
          if (name === 'catalog') await page.getByRole('link', { name: 'transactions' }).first().click();
          if (name === 'configs') await page.locator('.cm-content').waitFor();
          if (name === 'usage') await page.locator('canvas').first().waitFor();
          if (name === 'billing') await page.getByRole('table', { name: 'Billing history' }).waitFor();
          if (name === 'keys') await page.getByRole('table', { name: 'Keys, newest first' }).waitFor();
          if (name === 'audit') await page.getByRole('table', { name: 'Credit movements' }).waitFor();
          expect(await page.evaluate('document.documentElement.scrollWidth'), name).to.be.at.most(PHONE.width);
          await screenshot(page, `console-phone-${name}`);
        }
      },
      { viewport: PHONE },
    );
  });
});
