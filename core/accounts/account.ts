import type { EventDefinition } from '../events/registry.js';
import type { Decider, DomainEvent } from '../commands/decider.js';
import type { AccountSlice } from './slice.js';
import { profile, requireOpen, type ProfileCommand, type ProfileEvent } from './profile.js';
import { keys, type KeysCommand, type KeysEvent } from './keys.js';
import { creditsSlice, type CreditsCommand, type CreditsEvent } from './credits.js';
import { subscriptionSlice, type SubscriptionCommand, type SubscriptionEvent } from './subscription.js';
import { purchaseIntents, type PurchaseIntentCommand, type PurchaseIntentEvent } from './purchase-intents.js';

/**
 * The account decider: the composition of its slices. To add a slice, write it in a file of its own
 * (see slice.ts), then list it in `slices` and add its command and event unions below.
 */
const slices = { profile, keys, credits: creditsSlice, subscription: subscriptionSlice, purchaseIntents } as const;

type Slices = typeof slices;
export type AccountState = { [Name in keyof Slices]: ReturnType<Slices[Name]['initialState']> };
export type AccountCommand =
  ProfileCommand | KeysCommand | CreditsCommand | SubscriptionCommand | PurchaseIntentCommand;
export type AccountEvent = ProfileEvent | KeysEvent | CreditsEvent | SubscriptionEvent | PurchaseIntentEvent;

/**
 * The slices as the account runs them: any account command, given the whole account state. A slice whose
 * `Reads` asks for a part the account state lacks, or of another type, does not type-check here.
 */
const deciders: readonly AccountSlice<unknown, AccountCommand, AccountEvent, AccountState>[] = Object.values(slices);

export const accountEvents: EventDefinition[] = Object.values(slices).flatMap(
  (slice): readonly EventDefinition[] => slice.events,
);

export { accountStream, accountIdOfStream } from './stream-name.js';

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = {
  initialState() {
    return Object.fromEntries(
      Object.entries(slices).map(([name, slice]) => [name, slice.initialState()]),
    ) as AccountState;
  },
  evolve(state, event: DomainEvent) {
    const next = {} as Record<string, unknown>;
    for (const [name, slice] of Object.entries(slices)) {
      next[name] = (slice.evolve as (s: unknown, e: DomainEvent) => unknown)(state[name as keyof Slices], event);
    }
    return next as AccountState;
  },
  decide(command, state) {
    const owner = deciders.find((slice) => slice.commands.includes(command.type));
    if (!owner) throw new Error(`no account slice decides ${command.type}`);
    if (command.type !== 'OpenAccount') requireOpen(state);
    return owner.decide(command, state);
  },
};
