import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startTestApp } from '../../support/app.js';

const run = promisify(execFile);

describe('errors that nobody awaits', function () {
  this.timeout(30_000);

  it('a promise rejected unheard is reported, and the process lives on', async () => {
    const script = fileURLToPath(new URL('./support/unheard-rejection.ts', import.meta.url));
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script]);
    expect(JSON.parse(stdout)).to.deep.equal([['unhandled-rejection', 'nobody listens']]);
  });

  it("a listening server's 'error' is counted in /metrics, and the server goes on answering", async () => {
    const app = await startTestApp();
    try {
      app.server.server.emit('error', Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' }));
      const metrics = await (await fetch(`${app.url}/metrics`)).text();
      expect(metrics).to.contain('finsynth_unexpected_errors_total{source="http-server"} 1');
      expect((await fetch(`${app.url}/healthz`)).status).to.equal(200);
    } finally {
      await app.close();
    }
  });
});
