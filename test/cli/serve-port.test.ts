import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../core/settings/settings.js';
import { createServices } from '../../core/services/services.js';

const bin = fileURLToPath(new URL('../../bin/finsynth.js', import.meta.url));
/** The embedded store, whatever the environment of the test run says (CI sets postgres and redis). */
const env = {
  ...process.env,
  FINSYNTH_POSTGRES_URL: '',
  FINSYNTH_KURRENTDB_URL: '',
  FINSYNTH_REDIS_URL: '',
  FINSYNTH_LOG_LEVEL: 'warn',
};

describe('finsynth serve on a port it cannot have', function () {
  this.timeout(60_000);
  let dataDir: string;
  let taken: Server;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'finsynth-serve-port-'));
    // Taken as serve takes it (every interface), so that serve's own listen is refused.
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
  });
  afterEach(async () => {
    await new Promise((resolve) => taken.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('exits 1 with a clear message, before it opens the store or an account, and prints no key', async () => {
    const { port } = taken.address() as { port: number };
    const child = spawn(process.execPath, [bin, 'serve', '--port', String(port), '--data', dataDir], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(code, stderr).to.equal(1);
    expect(stdout).to.equal('');
    expect(stderr).to.contain(
      `finsynth serve: port ${port} is already in use (another finsynth, or another program); ` +
        'stop it, or serve on another port with --port or PORT',
    );
    expect(stderr).not.to.match(/key/);
    expect(await readdir(dataDir), 'the store was never opened').to.deep.equal([]);
    const services = await createServices(loadConfig({}, { dataDir, logLevel: 'silent' }), { background: false });
    try {
      expect(await services.store.headPosition(), 'no event, no account').to.equal(0);
    } finally {
      await services.close();
    }
  });
});
