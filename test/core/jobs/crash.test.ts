import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { loadConfig } from '../../../core/settings/settings.js';
import { accountStream } from '../../../core/accounts/account.js';
import { jobStream } from '../../../core/jobs/job.js';
import { openEventStore } from '../../../core/store/open-store.js';
import { request } from '../../support/app.js';
import { tempDir } from './support/instance.js';
import { printedKeys, startChildService, type ChildService } from './support/child-service.js';
import { cardsConfig, download, pollJob, sha256 } from './support/http.js';

/**
 * A lease short enough that the restarted service takes the job over quickly; one pool worker, the fewest to
 * boot per start.
 */
const env = { FINSYNTH_JOB_LEASE_MS: '2000', FINSYNTH_POOL_SIZE: '1' };

describe('a service killed while a job runs', function () {
  this.timeout(120_000);
  const children: ChildService[] = [];
  let dataDir: string;
  before(() => {
    dataDir = tempDir('crash');
  });
  after(async () => {
    try {
      await Promise.all(children.map((child) => child.kill('SIGKILL')));
    } finally {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('restarted, finishes the job with the bytes of an uninterrupted run, charged once', async () => {
    const first = await startChildService(dataDir, env);
    children.push(first);
    const keys = printedKeys(first.output());
    const config = cardsConfig({ transactions: 100_000 }, { format: 'csv' }, 2026);

    const created = await request(first, 'POST', '/v1/jobs', { key: keys.live, body: { config } });
    expect(created.status, created.text).to.equal(202);
    const jobId = created.body.id;
    await pollJob(first, keys.live, jobId, ['running']);
    await first.kill('SIGKILL');

    const second = await startChildService(dataDir, env);
    children.push(second);
    const taken = await pollJob(second, keys.live, jobId, ['succeeded', 'failed'], 90_000);
    expect(taken.body.state, JSON.stringify(taken.body.failure)).to.equal('succeeded');
    const [file] = (await request(second, 'GET', `/v1/jobs/${jobId}/results`, { key: keys.live })).body.data;
    expect(file.rows).to.equal(100_000);
    expect(sha256((await download(second, keys.live, file.download_url)).bytes)).to.equal(file.sha256);

    const reference = await request(second, 'POST', '/v1/jobs', { key: keys.live, body: { config } });
    await pollJob(second, keys.live, reference.body.id, ['succeeded'], 90_000);
    const [referenceFile] = (await request(second, 'GET', `/v1/jobs/${reference.body.id}/results`, { key: keys.live }))
      .body.data;
    expect(referenceFile.sha256).to.equal(file.sha256);
    await second.kill('SIGTERM');

    const store = await openEventStore(loadConfig({}, { dataDir }));
    try {
      const starts = (await store.readStream(jobStream(jobId))).filter((event) => event.type === 'JobStarted');
      expect(starts.map((event) => (event.data as { attempt: number }).attempt)).to.deep.equal([1, 2]);
      const { account_id } = (await store.readStream(jobStream(jobId)))[0].data as { account_id: string };
      const settled = (await store.readStream(accountStream(account_id))).filter(
        (event) => event.type === 'CreditsSettled' && (event.data as { reference: string }).reference === jobId,
      );
      expect(settled).to.have.length(1);
      expect((settled[0].data as { credits: number }).credits).to.equal(200);
    } finally {
      await store.close();
    }
  });
});
