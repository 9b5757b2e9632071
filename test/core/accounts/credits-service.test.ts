import { expect } from 'chai';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { accountDecider, accountStream } from '../../../core/accounts/account.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { CreditsService, type DebitRequest } from '../../../core/accounts/credits-service.js';
import { ProblemError } from '../../../core/problems.js';

const tables = [{ name: 'transactions', rows: 1500, credits: 3 }];

async function openAccount(credits: number) {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store, new EventRegistry(eventDefinitions));
  await commands.handle(accountDecider, accountStream('acc_1'), {
    type: 'OpenAccount',
    accountId: 'acc_1',
    tier: 'free',
    at: '2026-01-01T00:00:00.000Z',
  });
  const service = new CreditsService(commands);
  await service.grant({ accountId: 'acc_1', amount: credits, reference: 'initial', reason: 'initial grant' });
  return { store, commands, service };
}

const debit = (reference: string, mode: 'live' | 'test' = 'live'): DebitRequest => ({
  accountId: 'acc_1',
  mode,
  keyId: 'key_1',
  reference,
  operation: 'quick',
  sector: 'cards',
  tables,
  credits: 3,
});

function outcomes(results: PromiseSettledResult<unknown>[]) {
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  for (const { reason } of refused) {
    expect(reason).to.be.instanceOf(ProblemError);
    expect((reason as ProblemError).type.slug).to.equal('insufficient-credits');
    expect((reason as ProblemError).extensions.credits_required).to.equal(3);
  }
  return { succeeded: results.length - refused.length, refused: refused.length };
}

describe('credits service', () => {
  it('200 concurrent debits on a balance that covers exactly 37: 37 succeed, 163 get 402, the balance ends at zero', async () => {
    const { service, store } = await openAccount(37 * 3);
    const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => service.debit(debit(`req_${i}`))));
    expect(outcomes(results)).to.deep.equal({ succeeded: 37, refused: 163 });
    expect(await service.balance('acc_1')).to.deep.equal({ credits_available: 0, credits_reserved: 0 });
    const events = await store.readStream(accountStream('acc_1'));
    expect(events.filter((e) => e.type === 'CreditsDebited')).to.have.length(37);
    expect((await store.verifyStream(accountStream('acc_1'))).intact).to.equal(true);
  });

  it('holds across two services on one store (two processes): the stream revision is the lock', async () => {
    const { service, commands, store } = await openAccount(37 * 3);
    const other = new CreditsService(commands);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? service : other).debit(debit(`req_${i}`))),
    );
    expect(outcomes(results)).to.deep.equal({ succeeded: 37, refused: 163 });
    expect(await service.balance('acc_1')).to.deep.equal({ credits_available: 0, credits_reserved: 0 });
    const debited = (await store.readStream(accountStream('acc_1'))).filter((e) => e.type === 'CreditsDebited');
    expect(debited).to.have.length(37);
  });

  it('concurrent retries of the same references charge each once', async () => {
    const { service, store } = await openAccount(100);
    const attempts = Array.from({ length: 120 }, (_, i) => service.debit(debit(`req_${i % 10}`)));
    await Promise.all(attempts);
    expect(await service.balance('acc_1')).to.deep.equal({ credits_available: 70, credits_reserved: 0 });
    const debited = (await store.readStream(accountStream('acc_1'))).filter((e) => e.type === 'CreditsDebited');
    expect(debited.map((e) => (e.data as { reference: string }).reference).sort()).to.deep.equal(
      Array.from({ length: 10 }, (_, i) => `req_${i}`).sort(),
    );
  });

  it('a refused debit appends nothing and says how many credits are needed and available', async () => {
    const { service, store } = await openAccount(2);
    const before = await store.headPosition();
    const refused = await service.debit(debit('req_x')).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(ProblemError);
    const problem = refused as ProblemError;
    expect(problem.type).to.include({ slug: 'insufficient-credits', title: 'Insufficient Credits', status: 402 });
    expect(problem.extensions).to.deep.equal({ credits_required: 3, credits_available: 2 });
    expect(problem.detail).to.equal('This request needs 3 credits; the account has 2 available.');
    expect(await store.headPosition()).to.equal(before);
  });

  it('test mode records the work and moves no credit, even on an empty balance', async () => {
    const { service, store } = await openAccount(0);
    const result = await service.debit(debit('req_t', 'test'));
    expect(result).to.include({ credits_available: 0, credits_reserved: 0 });
    const [last] = await store.readStream(accountStream('acc_1'), { direction: 'backwards', maxCount: 1 });
    expect(last.type).to.equal('CreditsDebited');
    expect(last.data).to.include({ mode: 'test', credits: 3 });
    expect(last.metadata).to.include({ mode: 'test', key_id: 'key_1' });
  });

  it('reserve, settle and release move the balance as the contract says, and return the append position', async () => {
    const { service, store } = await openAccount(100);
    const reservation = {
      accountId: 'acc_1',
      mode: 'live' as const,
      keyId: 'key_1',
      sector: 'cards',
      tables,
      credits: 40,
    };
    const held = await service.reserve({ ...reservation, reference: 'job_1' });
    expect(held).to.include({ credits_available: 60, credits_reserved: 40 });
    expect(held.position).to.equal(await store.headPosition());
    await service.reserve({ ...reservation, reference: 'job_2' });
    expect(await service.balance('acc_1')).to.deep.equal({ credits_available: 20, credits_reserved: 80 });
    const settled = await service.settle('acc_1', 'job_1', {
      tables: [{ name: 'transactions', rows: 5000, credits: 10 }],
    });
    expect(settled).to.include({ credits_available: 50, credits_reserved: 40 });
    const released = await service.release('acc_1', 'job_2', 'cancelled');
    expect(released).to.include({ credits_available: 90, credits_reserved: 0 });
    const again = await service.release('acc_1', 'job_2', 'cancelled');
    expect(again.position).to.equal(released.position);
    const refused = await service.reserve({ ...reservation, reference: 'job_3', credits: 91 }).catch((e: unknown) => e);
    expect((refused as ProblemError).extensions).to.deep.equal({ credits_required: 91, credits_available: 90 });
  });

  it('refunds a failed quick generation once', async () => {
    const { service } = await openAccount(10);
    await service.debit(debit('req_1'));
    expect(await service.refund('acc_1', 'req_1', 'generation failed')).to.include({ credits_available: 10 });
    expect(await service.refund('acc_1', 'req_1', 'generation failed')).to.include({ credits_available: 10 });
  });
});
