import type { EventMetadata, RecordedEvent } from '../events/envelope.js';
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

/**
 * Read the stream, fold it, decide, append with the revision that was read. A concurrent writer makes
 * the append fail with WrongExpectedRevisionError and the whole cycle runs again on fresh state, so a
 * decision is always taken on the state it is appended after (the balance can never go negative).
 */
export class CommandHandler {
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
        return {
          events,
          state: events.reduce(decider.evolve, state),
          position: appended.position,
          revision: appended.nextRevision,
        };
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
  ): Promise<{ state: State; revision: number; position: number }> {
    const recorded = await this.store.readStream(stream);
    let state = decider.initialState();
    for (const event of recorded) state = decider.evolve(state, this.registry.upcast(event) as RecordedEvent as unknown as Event);
    const last = recorded.at(-1);
    return { state, revision: last?.revision ?? -1, position: last?.position ?? 0 };
  }
}

/** Jittered, so that racing writers do not collide again in lockstep. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(50, 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
