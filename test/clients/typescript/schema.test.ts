import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { GENERATE_COMMAND, SCHEMA_FILE, schemaSource } from '../../../clients/typescript/scripts/generate-schema.js';
import { request, startTestApp, type TestApp } from '../../support/app.js';

describe('@finsynth/client: the generated types', function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
  });
  after(() => app?.close());

  it('are those of the OpenAPI document the service serves', async () => {
    const served = await request(app, 'GET', '/v1/openapi.json');
    expect(served.status).to.equal(200);
    const generated = await schemaSource(served.body);
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    // The whole files are not printed on a mismatch: the first line that differs says enough.
    const [generatedLines, committedLines] = [generated.split('\n'), committed.split('\n')];
    const first = generatedLines.findIndex((line, index) => line !== committedLines[index]);
    const where = first === -1 ? committedLines.length : first;
    expect(
      generated === committed,
      `clients/typescript/src/schema.ts is not what the served document gives (line ${where + 1}: ` +
        `${JSON.stringify(committedLines[where])} should be ${JSON.stringify(generatedLines[where])}); ` +
        `run \`${GENERATE_COMMAND}\``,
    ).to.equal(true);
  });
});
