import { expect } from 'chai';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { accountDecider, accountEvents, accountStream } from '../../../core/accounts/account.js';
import { ProblemError } from '../../../core/problems.js';

describe('account decider on the memory store', () => {
  it('given no events, when OpenAccount, then AccountOpened; a second open is refused', async () => {
    const store = new MemoryEventStore();
    const handler = new CommandHandler(store, new EventRegistry(accountEvents));
    const command = { type: 'OpenAccount', accountId: 'acc_1', tier: 'free', at: '2026-01-01T00:00:00.000Z' } as const;
    const result = await handler.handle(accountDecider, accountStream('acc_1'), command);
    expect(result.events.map((e) => e.type)).to.deep.equal(['AccountOpened']);
    expect(result.state.profile.tier).to.equal('free');
    let refused: unknown;
    await handler.handle(accountDecider, accountStream('acc_1'), command).catch((e) => (refused = e));
    expect(refused).to.be.instanceOf(ProblemError);
    expect((await store.verifyStream(accountStream('acc_1'))).intact).to.equal(true);
  });
});
