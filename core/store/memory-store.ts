import type { NewEvent, RecordedEvent } from '../events/envelope.js';
import { GENESIS_HASH } from '../events/envelope.js';
import { verifyChain, type ChainVerification } from '../events/hash-chain.js';
import type {
  AppendResult,
  EventHash,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  SubscribeOptions,
  Subscription,
} from './event-store.js';
import type { StoreStorage } from './storage.js';
import { checkExpectedRevision, sealEvents } from './seal.js';
import { readStreamSlice } from './read-stream-slice.js';
import { pollingSubscription } from './polling-subscription.js';
import { wakeOrTimeout } from './wake-or-timeout.js';

/** The store for unit tests: one process, nothing kept. Appends are synchronous, hence atomic. */
export class MemoryEventStore implements EventStore {
  readonly name = 'memory';
  readonly storage: StoreStorage = { kind: 'memory' };
  private readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly appended = new EventTarget();

  async append(
    stream: string,
    events: readonly NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const existing = this.streams.get(stream) ?? [];
    const last = existing.at(-1);
    checkExpectedRevision(stream, options.expectedRevision ?? 'any', last?.revision ?? -1);
    if (events.length === 0) return { nextRevision: last?.revision ?? -1, position: this.log.length };
    const sealed = sealEvents(stream, last?.revision ?? -1, last?.hash ?? GENESIS_HASH, events);
    for (const { event } of sealed) {
      const recorded = { ...event, position: this.log.length + 1 };
      this.log.push(recorded);
      existing.push(recorded);
    }
    this.streams.set(stream, existing);
    this.appended.dispatchEvent(new Event('append'));
    return { nextRevision: existing.at(-1)!.revision, position: this.log.length };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return readStreamSlice(this.streams.get(stream) ?? [], options).map((event) => structuredClone(event));
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? 0;
    return this.log
      .slice(after, after + (options.maxCount ?? Number.MAX_SAFE_INTEGER))
      .map((event) => structuredClone(event));
  }

  async readAllHashes(options: ReadAllOptions = {}): Promise<EventHash[]> {
    const after = options.after ?? 0;
    return this.log
      .slice(after, after + (options.maxCount ?? Number.MAX_SAFE_INTEGER))
      .map(({ position, hash }) => ({ position, hash }));
  }

  async headPosition(): Promise<number> {
    return this.log.length;
  }

  subscribeToAll(
    handler: (event: RecordedEvent) => Promise<void> | void,
    options: SubscribeOptions = {},
  ): Subscription {
    return pollingSubscription(this, handler, options, (signal) => wakeOrTimeout(this.appended, signal, 50));
  }

  async verifyStream(stream: string): Promise<ChainVerification> {
    return verifyChain(stream, this.streams.get(stream) ?? []);
  }

  /** Test seam for the contract suite's tamper test: changes stored data in place, as an attacker would. */
  tamper(stream: string, revision: number, data: unknown): void {
    const event = this.streams.get(stream)?.[revision];
    if (!event) throw new Error(`no event ${stream}@${revision}`);
    event.data = data;
  }

  async close(): Promise<void> {}
}
