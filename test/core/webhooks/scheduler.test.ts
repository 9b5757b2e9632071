import { expect } from 'chai';
import { TestClock } from '../../../core/clock.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import type { SchedulerCheckpoints } from '../../../core/webhooks/ports.js';
import { WebhookScheduler } from '../../../core/webhooks/scheduler.js';
import { EventLog } from './support/events.js';

/** A checkpoint store in memory, as snapshots are kept for the memory and KurrentDB stores. */
function memoryCheckpoints(): SchedulerCheckpoints & { saved?: { position: number; state: unknown } } {
  const checkpoints: SchedulerCheckpoints & { saved?: { position: number; state: unknown } } = {
    load: async () => checkpoints.saved && JSON.parse(JSON.stringify(checkpoints.saved)),
    save: async (position, state) => {
      checkpoints.saved = { position, state: JSON.parse(JSON.stringify(state)) };
    },
  };
  return checkpoints;
}

/** Resolves once the scheduler has read to the store's head, its own appends included; the test's timeout bounds it. */
async function caughtUp(scheduler: WebhookScheduler, store: MemoryEventStore): Promise<void> {
  while (scheduler.checkpoint() < (await store.headPosition())) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the webhook scheduler', () => {
  const registry = new EventRegistry(eventDefinitions);
  const clock = new TestClock('2026-03-01T12:00:00.000Z');
  let store: MemoryEventStore;
  const running: WebhookScheduler[] = [];
  const scheduler = async (checkpoints: SchedulerCheckpoints = memoryCheckpoints()) => {
    const started = new WebhookScheduler({
      store,
      registry,
      // Each instance has its own command handler, as each process of a fleet does.
      commands: new CommandHandler(store, registry),
      clock,
      checkpoints,
      errorTypeBase: 'https://errors.finsynth.dev',
      saveIntervalMs: 0,
    });
    await started.start();
    running.push(started);
    return started;
  };

  beforeEach(async () => {
    store = new MemoryEventStore();
    const log = new EventLog();
    log.endpoint('we_1', 'acc_1', 'live', ['job.succeeded']);
    log.endpoint('we_2', 'acc_1', 'live', ['job.succeeded']);
    for (const job of ['job_1', 'job_2', 'job_3']) {
      log.job(job, 'acc_1', 'live');
      log.jobSucceeded(job);
    }
    for (const event of log.events)
      await store.append(event.stream, [{ type: event.type, data: event.data, version: event.version }]);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((started) => started.stop()));
  });

  const scheduled = async () => (await store.readAll()).filter((event) => event.type === 'WebhookDeliveryScheduled');

  it('schedules each delivery once, though two instances see every event', async () => {
    const [first, second] = await Promise.all([scheduler(), scheduler()]);
    await Promise.all([caughtUp(first!, store), caughtUp(second!, store)]);
    const deliveries = await scheduled();
    expect(deliveries).to.have.length(6);
    expect(new Set(deliveries.map((event) => event.stream)).size).to.equal(6);
    expect(new Set(deliveries.map((event) => (event.data as { event_id: string }).event_id)).size).to.equal(3);
  });

  it('schedules nothing again when it replays from the first event, or resumes from its checkpoint', async () => {
    const checkpoints = memoryCheckpoints();
    const first = await scheduler(checkpoints);
    await caughtUp(first, store);
    await first.stop();
    running.splice(running.indexOf(first), 1);
    expect(checkpoints.saved?.position).to.equal(await store.headPosition());
    const before = await store.headPosition();

    const fromZero = await scheduler();
    await caughtUp(fromZero, store);
    const resumed = await scheduler(checkpoints);
    await caughtUp(resumed, store);
    expect(await store.headPosition()).to.equal(before);
    expect(await scheduled()).to.have.length(6);
  });
});
