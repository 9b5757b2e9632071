import type { EventDefinition } from '../events/registry.js';
import type { DomainEvent } from '../commands/decider.js';

/**
 * The account stream carries several concerns (profile, keys, credits, subscription). Each is a
 * slice: its own commands, events, state and pure decide/evolve, in a file of its own. The account
 * decider (account.ts) composes them; a slice's decide sees the whole account, its evolve only its part.
 * `Reads` declares what decide reads of the account (its own part among it): a slice coupled to another
 * names that coupling in its type, and the account decider checks that the account state holds it.
 */
export interface AccountSlice<SliceState, Command extends { type: string }, Event extends DomainEvent, Reads> {
  /** Command types this slice decides. */
  commands: readonly Command['type'][];
  events: readonly EventDefinition<Event['type']>[];
  initialState(): SliceState;
  evolve(state: SliceState, event: DomainEvent): SliceState;
  decide(command: Command, account: Reads): Event[];
}
