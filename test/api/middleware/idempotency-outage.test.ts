import { expect } from 'chai';
import { idempotencyStream } from '../../../core/idempotency/idempotency.js';
import type { EventStore } from '../../../core/store/event-store.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

/** A store whose appends are refused, as by a server gone away, from a chosen moment until it is back. */
class StoreThatGoesAway extends MemoryEventStore {
  /** Appends still taken before the store goes away; null: it stays up. */
  appendsLeft: number | null = null;

  override append(...args: Parameters<EventStore['append']>) {
    if (this.appendsLeft !== null && this.appendsLeft-- <= 0) {
      return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    }
    return super.append(...args);
  }
}

describe('an idempotent request that met a store outage', function () {
  this.timeout(30_000);
  const store = new StoreThatGoesAway();
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp({ services: { store } });
    account = await openAccount(app, { credits: 1000 });
  });
  after(() => app?.close());

  const quick = (key: string) =>
    fetch(`${app.url}/v1/generate/quick`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.live}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ sector: 'cards', tables: [{ name: 'merchants', rows: 5 }], seed: 9 }),
    });

  it('has its claim released once the store is back, so that a retry does the work instead of meeting 409', async () => {
    store.appendsLeft = 1; // the claim is taken; the debit and the release are refused
    const failed = await quick('outage-1');
    expect(failed.status).to.equal(503);
    expect(((await failed.json()) as { type: string }).type).to.match(/\/store-unavailable$/);
    store.appendsLeft = null;
    const stream = idempotencyStream(account.accountId, 'live', 'outage-1');
    // The release is retried in the background each second; the test's time limit bounds the wait.
    while (!(await store.readStream(stream)).some((event) => event.type === 'IdempotencyKeyReleased')) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const retried = await quick('outage-1');
    expect(retried.status).to.equal(200);
    const body = (await retried.json()) as { tables: { merchants: unknown[] } };
    expect(body.tables.merchants).to.have.length(5);
  });
});
