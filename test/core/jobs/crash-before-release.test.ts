import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../core/settings/settings.js';
import { accountStream } from '../../../core/accounts/account.js';
import { jobStream } from '../../../core/jobs/job.js';
import { jobDirectory } from '../../../core/jobs/result-files.js';
import { openEventStore } from '../../../core/store/open-store.js';
import { request } from '../../support/app.js';
import { DIED, startChildApp, type ChildApp } from '../accounts/support/dying-child.js';
import { pollJob } from './support/http.js';

/** 1,000 rows of the failing pack (5 credits reserved): the runner claims the job, the generator throws. */
const tables = [{ name: 'entries', rows: 1000 }];
const config = { version: 1, sector: 'failing', seed: 1, tables, output: { format: 'csv' } };

/**
 * The process dies after the job's last event (JobFailed) and before its reservation is released: the
 * credits and the job's slot stay held. The runners' reconciler of the restarted service releases them.
 */
describe('a job whose process dies between its failure and the release of its credits', function () {
  this.timeout(120_000);
  const children: ChildApp[] = [];
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'finsynth-crash-release-'));
  });
  after(async () => {
    await Promise.all(children.map((child) => child.stop()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('has its credits released once by the restarted service, its files removed, and the audit holds', async () => {
    const dying = await startChildApp(dataDir, { diesAt: 'release', openAccount: 100 });
    children.push(dying);
    const account = dying.account!;
    const created = await request(dying, 'POST', '/v1/jobs', { key: account.live, body: { config } });
    expect(created.status, created.text).to.equal(202);
    const jobId: string = created.body.id;
    expect(await dying.exited).to.equal(DIED);

    // What the crash left: the job failed, its reservation held, its directory on disk.
    const directory = jobDirectory(loadConfig({}, { dataDir }).resultsDir, jobId);
    expect(await typesOf(jobStream(jobId))).to.include('JobFailed');
    expect(await creditTypes(account.accountId)).to.deep.equal(['CreditsGranted', 'CreditsReserved']);
    expect(existsSync(directory)).to.equal(true);

    const restarted = await startChildApp(dataDir);
    children.push(restarted);
    const failed = await pollJob(restarted, account.live, jobId, ['failed', 'succeeded']);
    expect(failed.body.state).to.equal('failed');
    await untilReleased(restarted, account.live);
    const audit = await request(restarted, 'GET', '/v1/audit/credits', { key: account.live });
    expect(audit.body.verdict, JSON.stringify(audit.body.verdict)).to.include({ holds: true });
    // Stopped gracefully: the poll that released has ended, and nothing runs on the store any more.
    await restarted.stop();

    const released = ['CreditsGranted', 'CreditsReserved', 'CreditsReleased'];
    expect(await creditTypes(account.accountId)).to.deep.equal(released);
    expect((await typesOf(jobStream(jobId))).filter((type) => type === 'JobFailed')).to.have.length(1);
    expect(existsSync(directory)).to.equal(false);
  });

  async function typesOf(stream: string): Promise<string[]> {
    const store = await openEventStore(loadConfig({}, { dataDir }));
    try {
      return (await store.readStream(stream)).map((event) => event.type);
    } finally {
      await store.close();
    }
  }

  const creditTypes = async (accountId: string) =>
    (await typesOf(accountStream(accountId))).filter((type) => type.startsWith('Credits'));
});

/** Polls the balance until nothing is reserved; bounded generously: this proves the outcome, not its speed. */
async function untilReleased(app: ChildApp, key: string, boundMs = 30_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const balance = await request(app, 'GET', '/v1/billing/credits', { key });
    if (balance.body.credits_reserved === 0 && balance.body.credits_available === 100) return;
    if (Date.now() > deadline) throw new Error(`credits still reserved after ${boundMs} ms: ${balance.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
