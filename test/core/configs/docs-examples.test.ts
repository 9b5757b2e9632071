import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

const GUIDES = ['docs/configs.md', 'README.md'];

/** The complete configs a guide shows: its YAML blocks that begin with `version: 1`. */
async function configsIn(file: string): Promise<string[]> {
  const text = await readFile(new URL(`../../../${file}`, import.meta.url), 'utf8');
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((match) => match[1])
    .filter((y) => y.startsWith('version: 1'));
}

describe('the configs the guides show are valid', () => {
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app.close());

  it('docs/configs.md shows at least one complete config with column overrides', async () => {
    const configs = await configsIn('docs/configs.md');
    expect(configs.some((config) => /\n\s+columns:\n/.test(config))).to.equal(true);
  });

  for (const file of GUIDES) {
    it(`every complete config in ${file} validates`, async () => {
      const configs = await configsIn(file);
      expect(configs).to.have.length.above(0);
      for (const config of configs) {
        const answer = await request(app, 'POST', '/v1/configs/validate', {
          key: account.test,
          body: { config_yaml: config },
        });
        expect(answer.status).to.equal(200);
        expect(answer.body.errors, config).to.deep.equal([]);
        expect(answer.body.valid).to.equal(true);
      }
    });
  }
});
