import type { EventMetadata } from '../events/envelope.js';
import { eventOf } from '../events/event-of.js';
import type { EventRegistry } from '../events/registry.js';
import { WrongExpectedRevisionError, type EventStore } from '../store/event-store.js';
import type { Decider, DomainEvent } from './decider.js';

export interface CommandResult<State, Event> {
  events: Event[];
  state: State;
  /** Global position of the last appended event; the stream's head position when nothing was appended. */
  position: number;
  revision: number;
}

export interface HandleOptions {
  metadata?: EventMetadata;
  /** How often a lost race on the stream's revision is retried from a fresh read. */
  maxRetries?: number;
}

interface Folded<State> {
  state: State;
  revision: number;
  position: number;
}

/** Streams whose folded state is kept per decider; the least recently used go first. */
const CACHED_STREAMS = 10_000;

/**
 * Read the stream, fold it, decide, append with the revision that was read. A concurrent writer makes
 * the append fail with WrongExpectedRevisionError and the whole cycle runs again on fresh state, so a
 * decision is always taken on the state it is appended after (the balance can never go negative).
 *
 * The folded state of each stream is kept with its revision, and a later command reads only the events
 * after it, so a command on a long-lived account does not re-read its whole history (see
 * docs/performance.md). The cache is only an optimisation: the expected revision still decides, and
 * events appended by other processes are read as the delta. It relies on evolve being pure (decider.ts):
 * a cached state is shared, never changed in place.
 */
export class CommandHandler {
  private readonly folded = new WeakMap<object, Map<string, Folded<unknown>>>();

  constructor(
    private readonly store: EventStore,
    private readonly registry: EventRegistry,
  ) {}

  async handle<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    stream: string,
    command: Command,
    options: HandleOptions = {},
  ): Promise<CommandResult<State, Event>> {
    const maxRetries = options.maxRetries ?? 50;
    for (let attempt = 0; ; attempt += 1) {
      const { state, revision, position } = await this.load(decider, stream);
      const events = decider.decide(command, state);
      if (events.length === 0) return { events, state, position, revision };
      for (const event of events) this.registry.validate(event.type, event.data);
      try {
        const appended = await this.store.append(
          stream,
          events.map((event) => ({
            type: event.type,
            version: this.registry.currentVersion(event.type),
            data: event.data,
            metadata: options.metadata,
          })),
          { expectedRevision: revision === -1 ? 'no_stream' : revision },
        );
        const folded = {
          state: events.reduce(decider.evolve, state),
          position: appended.position,
          revision: appended.nextRevision,
        };
        this.remember(decider, stream, folded);
        return { events, ...folded };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxRetries) throw error;
        await backoff(attempt);
      }
    }
  }

  /** The stream folded into the decider's state, with its revision (-1: no stream) and head position. */
  async load<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    stream: string,
  ): Promise<Folded<State>> {
    const cached = this.streamsOf(decider).get(stream) as Folded<State> | undefined;
    const recorded = await this.store.readStream(stream, { fromRevision: (cached?.revision ?? -1) + 1 });
    if (cached && recorded.length === 0) return cached;
    let state = cached?.state ?? decider.initialState();
    for (const event of recorded) state = decider.evolve(state, eventOf<Event>(this.registry.upcast(event)));
    const last = recorded.at(-1);
    const folded = { state, revision: last?.revision ?? -1, position: last?.position ?? 0 };
    if (last) this.remember(decider, stream, folded);
    return folded;
  }

  private streamsOf(decider: object): Map<string, Folded<unknown>> {
    let streams = this.folded.get(decider);
    if (!streams) this.folded.set(decider, (streams = new Map()));
    return streams;
  }

  private remember(decider: object, stream: string, folded: Folded<unknown>): void {
    const streams = this.streamsOf(decider);
    const known = streams.get(stream);
    // Concurrent commands may finish out of order: never replace a newer fold with an older one.
    if (known && known.revision >= folded.revision) return;
    streams.delete(stream);
    streams.set(stream, folded);
    if (streams.size > CACHED_STREAMS) streams.delete(streams.keys().next().value!);
  }
}

/** Jittered, so that racing writers do not collide again in lockstep. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(50, 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
