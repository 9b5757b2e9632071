import type { RecordedEvent } from './envelope.js';

/**
 * A recorded event carries a type name and data of unknown type; deciders and projections fold their own
 * union of typed events. What makes reading one as the other sound is stated here, once: events enter the
 * store only through the command handler, which has the registry validate each event's data against its
 * type's schema, and whatever folds events (the command handler, the projection runner) has the registry
 * upcast them to their type's current version first. So an event's type name says what its data is, and
 * these functions take the event's data to be the data of the type it names.
 */

/** Whether the event is one of `types`: if it is, it is the member of the union E that its type names. */
export function isEventOf<E extends { type: string; data: unknown }>(
  event: RecordedEvent,
  types: readonly E['type'][],
): event is RecordedEvent & E {
  return types.some((type) => type === event.type);
}

/**
 * An event read from a stream that only the producer of E writes (a decider's own stream), as a member
 * of E. Nothing is checked: the decider folds every event of its stream, whatever its type.
 */
export function eventOf<E extends { type: string; data: unknown }>(event: RecordedEvent): RecordedEvent & E {
  // Sound as stated above: the stream holds only E's events (its decider wrote them), each validated
  // against its type's schema when it was appended and upcast to the current version when read.
  return event as RecordedEvent & E;
}
