import { expect } from 'chai';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import type { Decider, DomainEvent } from '../../../core/commands/decider.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import type { ReadStreamOptions } from '../../../core/store/event-store.js';

type Added = DomainEvent<'Added', { amount: number }>;
type Add = { type: 'Add'; amount: number; max: number };

/** A counter that refuses to pass `max`: the smallest decider whose decisions depend on all history. */
const counter: Decider<number, Add, Added> = {
  initialState: () => 0,
  decide: (command, total) => {
    if (total + command.amount > command.max) throw new Error(`over ${command.max}`);
    return [{ type: 'Added', data: { amount: command.amount } }];
  },
  evolve: (total, event) => total + event.data.amount,
};

const registry = () =>
  new EventRegistry([{ type: 'Added', version: 1, schema: { type: 'object', required: ['amount'] } }]);

/** A memory store that counts how many events stream reads hand back. */
class CountingStore extends MemoryEventStore {
  eventsRead = 0;
  override async readStream(stream: string, options?: ReadStreamOptions) {
    const events = await super.readStream(stream, options);
    this.eventsRead += events.length;
    return events;
  }
}

describe('CommandHandler', () => {
  it('reads only the events after the state it folded before', async () => {
    const store = new CountingStore();
    const handler = new CommandHandler(store, registry());
    for (let i = 0; i < 50; i += 1) await handler.handle(counter, 'counter-1', { type: 'Add', amount: 1, max: 1000 });
    expect(store.eventsRead).to.equal(0);
    expect((await handler.load(counter, 'counter-1')).state).to.equal(50);
  });

  it('folds events another process appended before deciding', async () => {
    const store = new MemoryEventStore();
    const [first, second] = [new CommandHandler(store, registry()), new CommandHandler(store, registry())];
    await first.handle(counter, 'counter-2', { type: 'Add', amount: 6, max: 10 });
    await second.handle(counter, 'counter-2', { type: 'Add', amount: 3, max: 10 });
    let refused: unknown;
    await first.handle(counter, 'counter-2', { type: 'Add', amount: 2, max: 10 }).catch((error) => (refused = error));
    expect(String(refused)).to.contain('over 10');
    expect((await first.handle(counter, 'counter-2', { type: 'Add', amount: 1, max: 10 })).state).to.equal(10);
  });

  it('never passes the limit when many commands race on one stream through two handlers', async () => {
    const store = new MemoryEventStore();
    const handlers = [new CommandHandler(store, registry()), new CommandHandler(store, registry())];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        handlers[i % 2]!.handle(counter, 'counter-3', { type: 'Add', amount: 1, max: 25 }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(25);
    expect((await store.readStream('counter-3')).length).to.equal(25);
  });
});
