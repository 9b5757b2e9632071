import {
  BACKWARDS,
  END,
  FORWARDS,
  NO_STREAM,
  START,
  KurrentDBClient,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendStreamState,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '../events/envelope.js';
import { GENESIS_HASH } from '../events/envelope.js';
import { verifyChain, type ChainVerification } from '../events/hash-chain.js';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type SubscribeOptions,
  type Subscription,
} from './event-store.js';
import type { StoreStorage } from './storage.js';
import { checkExpectedRevision, sealEvents } from './seal.js';
import { CountingUnexpectedErrors, type UnexpectedErrors } from '../faults/unexpected-errors.js';

/**
 * The members of our envelope that KurrentDB has no field for travel in its event metadata. Its own
 * fields carry the rest: event id, stream name, stream revision, type, data, and the commit position.
 * KurrentDB's `created` is not ours: `recorded_at` is the time the hash covers.
 * `$correlationId` and `$causationId` are copied where KurrentDB's own projections look for them.
 */
interface StoredMetadata {
  metadata: EventMetadata;
  schema_version: number;
  recorded_at: string;
  hash: string;
  $correlationId?: string;
  $causationId?: string;
  [key: string]: unknown;
}

/**
 * KurrentDB (formerly EventStoreDB), through its official gRPC client.
 *
 * Global positions are the commit positions of KurrentDB's transaction log: byte offsets, increasing but
 * not contiguous, which is all the port promises. Events appended over gRPC have equal commit and
 * prepare positions, so one number restores a full `Position` for reading on from a checkpoint. The log
 * is a single ordered file, so read-all has no in-flight gap. Revisions are bigints in the client and
 * numbers here (exact below 2^53).
 *
 * Every append is sent with the exact revision it was sealed against, whatever the caller expected: the
 * hash chain links each event to its predecessor, so an `any` append that raced another writer is sealed
 * again on the new head instead of being written after an event it does not chain to.
 */
export class KurrentDbEventStore implements EventStore {
  readonly name = 'kurrentdb';
  readonly storage: StoreStorage = { kind: 'kurrentdb' };

  /** `faults` hears the errors that no call awaits: a subscription's stream failing after it was closed. */
  constructor(
    readonly client: KurrentDBClient,
    private readonly faults: UnexpectedErrors = new CountingUnexpectedErrors(),
  ) {}

  static open(connectionString: string, faults?: UnexpectedErrors): KurrentDbEventStore {
    return new KurrentDbEventStore(KurrentDBClient.connectionString(connectionString), faults);
  }

  async append(
    stream: string,
    events: readonly NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    for (;;) {
      const head = (await this.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0];
      const lastRevision = head?.revision ?? -1;
      checkExpectedRevision(stream, expected, lastRevision);
      if (events.length === 0) return { nextRevision: lastRevision, position: await this.headPosition() };
      const sealed = sealEvents(stream, lastRevision, head?.hash ?? GENESIS_HASH, events).map(({ event }) => event);
      const streamState: AppendStreamState = lastRevision === -1 ? NO_STREAM : BigInt(lastRevision);
      try {
        const result = await this.client.appendToStream(
          stream,
          sealed.map((event) =>
            jsonEvent({
              id: event.id,
              type: event.type,
              data: event.data as Record<string, unknown>,
              metadata: toStoredMetadata(event.metadata, event.version, event.recorded_at, event.hash),
            }),
          ),
          { streamState },
        );
        if (!result.position)
          throw new Error('KurrentDB did not return the position of the append (server older than 22.6?)');
        return { nextRevision: Number(result.nextExpectedRevision), position: Number(result.position.commit) };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (typeof expected === 'number' || expected === 'no_stream') {
          const actual = error.actualState === NO_STREAM ? -1 : Number(error.actualState);
          throw new WrongExpectedRevisionError(stream, expected, actual);
        }
      }
    }
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const read = this.client.readStream(stream, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: options.fromRevision === undefined ? (backwards ? END : START) : BigInt(options.fromRevision),
      maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
    });
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? 0;
    const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const read = this.client.readAll({
      fromPosition: after === 0 ? START : { commit: BigInt(after), prepare: BigInt(after) },
      maxCount: after === 0 ? maxCount : maxCount + 1,
      filter: excludeSystemEvents(),
    });
    const events: RecordedEvent[] = [];
    for await (const resolved of read) {
      const event = toRecordedEvent(resolved);
      // Reading from a position includes the event at it; our `after` is exclusive.
      if (event && event.position > after && events.length < maxCount) events.push(event);
    }
    return events;
  }

  async headPosition(): Promise<number> {
    for await (const resolved of this.client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: 1,
      filter: excludeSystemEvents(),
    })) {
      const event = toRecordedEvent(resolved);
      if (event) return event.position;
    }
    return 0;
  }

  /** KurrentDB's own catch-up subscription: it reads from the checkpoint and turns live without polling. */
  subscribeToAll(
    handler: (event: RecordedEvent) => Promise<void> | void,
    options: SubscribeOptions = {},
  ): Subscription {
    const after = options.after ?? 0;
    const subscription = this.client.subscribeToAll({
      fromPosition: after === 0 ? START : { commit: BigInt(after), prepare: BigInt(after) },
      filter: excludeSystemEvents(),
    });
    let closing = false;
    // While the loop below reads, it receives the stream's errors (and hands them to onError); once it
    // has stopped, an 'error' of the gRPC stream would have no listener and end the process.
    subscription.on('error', (error: unknown) => {
      if (closing) this.faults.report('kurrentdb-subscription', error);
    });
    const running = (async () => {
      for await (const resolved of subscription) {
        const event = toRecordedEvent(resolved);
        if (event && event.position > after) await handler(event);
        if (closing) break;
      }
    })().catch((error: unknown) => {
      if (!closing) options.onError?.(error);
    });
    return {
      async close() {
        closing = true;
        await subscription.unsubscribe();
        await running;
      },
    };
  }

  async verifyStream(stream: string): Promise<ChainVerification> {
    return verifyChain(stream, await this.readStream(stream));
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

export function toStoredMetadata(
  metadata: EventMetadata,
  version: number,
  recordedAt: string,
  hash: string,
): StoredMetadata {
  const stored: StoredMetadata = { metadata, schema_version: version, recorded_at: recordedAt, hash };
  if (metadata.correlation_id) stored.$correlationId = metadata.correlation_id;
  if (metadata.causation_id) stored.$causationId = metadata.causation_id;
  return stored;
}

/** Undefined for what is not one of our events: links, and events written without our envelope. */
function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || !event.isJson) return undefined;
  const stored = event.metadata as Partial<StoredMetadata> | undefined;
  if (!stored || typeof stored.hash !== 'string') return undefined;
  const position = resolved.commitPosition ?? event.position?.commit;
  return {
    id: event.id,
    stream: event.streamId,
    revision: Number(event.revision),
    position: position === undefined ? 0 : Number(position),
    type: event.type,
    version: stored.schema_version ?? 1,
    data: event.data,
    metadata: stored.metadata ?? {},
    recorded_at: stored.recorded_at ?? event.created.toISOString(),
    hash: stored.hash,
  };
}
