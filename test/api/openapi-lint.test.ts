import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { request, startTestApp, type TestApp } from '../support/app.js';

const REDOCLY = fileURLToPath(new URL('../../node_modules/.bin/redocly', import.meta.url));

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

describe('the OpenAPI document, linted by a third party', () => {
  let app: TestApp;
  let folder: string;

  before(async () => {
    app = await startTestApp();
    folder = await mkdtemp(join(tmpdir(), 'finsynth-lint-'));
  });
  after(async () => {
    await app.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("passes Redocly's recommended rules with no error and no warning", async function () {
    this.timeout(60_000);
    const file = join(folder, 'openapi.json');
    await writeFile(file, (await request(app, 'GET', '/v1/openapi.json')).text);
    // In a folder of its own, so that no redocly.yaml around changes the rules; nothing sent anywhere.
    const { stdout } = await promisify(execFile)(REDOCLY, ['lint', file, '--extends=recommended', '--format=json'], {
      cwd: folder,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; message: string }) => {
      // It exits 1 when it finds errors: the report is still on stdout.
      if (error.stdout) return { stdout: error.stdout };
      throw error;
    });
    const report = JSON.parse(stdout) as { totals: Record<string, number>; problems: LintProblem[] };
    const problems = report.problems.map(
      (problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    expect(problems).to.deep.equal([]);
    expect(report.totals).to.include({ errors: 0, warnings: 0 });
  });
});
