import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import ts from 'typescript';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import type { JsonBody } from '../../support/json-body.js';
import { CLIENT_CALLS } from '../../../api/docs/client-calls.js';
import { typeCheckSamples } from '../../support/type-check.js';

interface Sample {
  lang: string;
  label: string;
  source: string;
}
interface Operation {
  method: string;
  path: string;
  operationId: string;
  samples: Sample[];
}

describe("the operations' code samples (x-codeSamples)", () => {
  let app: TestApp;
  let account: TestAccount;
  let operations: Operation[];

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
    const document: JsonBody = (await request(app, 'GET', '/v1/openapi.json')).body;
    operations = Object.entries(document.paths as Record<string, Record<string, JsonBody>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        samples: operation['x-codeSamples'],
      })),
    );
  });
  after(() => app.close());

  const sampleOf = (operation: Operation, label: string) => operation.samples.find((sample) => sample.label === label);

  it('gives every operation a curl sample, and one with @finsynth/client wherever the client can call it', () => {
    for (const operation of operations) {
      const curl = sampleOf(operation, 'curl');
      expect(curl?.lang, operation.operationId).to.equal('shell');
      const path = operation.path.replace(/\{[^}]+\}/g, '[^/?"]+').replace(/\./g, '\\.');
      expect(curl!.source, operation.operationId).to.match(
        new RegExp(`^curl (-X ${operation.method} )?"\\$\\{FINSYNTH_URL:-http://localhost:3000\\}${path}[?"]`),
      );
      const client = sampleOf(operation, '@finsynth/client');
      if (CLIENT_CALLS[operation.operationId]) expect(client?.lang, operation.operationId).to.equal('typescript');
    }
    const withClient = operations.filter((operation) => sampleOf(operation, '@finsynth/client'));
    expect(withClient.map((operation) => operation.operationId)).to.include.members(
      Object.keys(CLIENT_CALLS).filter((id) => operations.some((operation) => operation.operationId === id)),
    );
  });

  it('writes every value from the examples of the schemas: no sample holds a placeholder', () => {
    for (const operation of operations)
      for (const sample of operation.samples) expect(sample.source, operation.operationId).not.to.match(/<[a-z_]+>/);
  });

  it('writes curl samples that the shell reads', async () => {
    for (const operation of operations) {
      const curl = sampleOf(operation, 'curl')!.source;
      await promisify(execFile)('bash', ['-n', '-c', curl]).catch((error: Error) => {
        throw new Error(`${operation.operationId}: ${error.message}\n${curl}`);
      });
    }
  });

  it('writes TypeScript samples that parse', () => {
    for (const operation of operations) {
      const client = sampleOf(operation, '@finsynth/client');
      if (!client) continue;
      const { diagnostics } = ts.transpileModule(client.source, {
        reportDiagnostics: true,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      const messages = (diagnostics ?? []).map((diagnostic) =>
        ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '),
      );
      expect(messages, `${operation.operationId}:\n${client.source}`).to.deep.equal([]);
    }
  });

  it('writes TypeScript samples that type-check against the client @finsynth/client', function () {
    // One program for every sample, strict as the project is, with the package name mapped to the client's source.
    this.timeout(120_000);
    const samples = new Map<string, string>(
      operations.flatMap((operation): [string, string][] => {
        const client = sampleOf(operation, '@finsynth/client');
        return client ? [[operation.operationId, client.source]] : [];
      }),
    );
    expect(samples.size).to.be.above(40);
    expect(typeCheckSamples(samples)).to.deep.equal([]);
  });

  it('sends requests the service accepts: the curl samples of reads and checks succeed as they are written', async function () {
    this.timeout(60_000);
    const accepted = [
      'getCatalog',
      'listDataTypes',
      'getSector',
      'getTableSchema',
      'getConfigSchema',
      'generateQuick',
      'validateConfig',
      'estimateConfig',
      'saveConfig',
      'listConfigs',
      'saveOverlay',
      'issueKey',
      'listKeys',
      'listJobs',
      'health',
    ];
    for (const id of accepted) {
      const operation = operations.find((candidate) => candidate.operationId === id);
      expect(operation, id).not.to.equal(undefined);
      const curl = sampleOf(operation!, 'curl')!.source;
      // The status is printed after the body, by curl itself; the sample is run as a reader would paste it.
      const { stdout } = await promisify(execFile)(
        'bash',
        ['-c', `curl() { command curl -s -w '\\n%{http_code}' "$@"; }\n${curl}`],
        { env: { ...process.env, FINSYNTH_URL: app.url, FINSYNTH_KEY: account.test } },
      );
      const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
      expect(status, `${id}: ${stdout.slice(0, 500)}`).to.be.within(200, 299);
    }
  });
});
