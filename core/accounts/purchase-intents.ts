import { defineProblem, problem } from '../problems.js';
import type { DomainEvent } from '../commands/decider.js';
import type { CreditsState } from './credits.js';
import type { AccountSlice } from './slice.js';
import { eventText, fitted } from './event-text.js';
import { ownMember } from '../own-member.js';

/**
 * A credit purchase is recorded before the payment provider is asked (the intent), and closed by its
 * outcome: `CreditsPurchased` (approved), `CreditPurchaseDeclined`, or `CreditPurchaseAbandoned` (the
 * provider holds no payment for it: nothing was charged). An intent left open by a process that died
 * between the provider's approval and the append is what the billing service's recovery finds and
 * completes, by asking the provider about the intent's reference (its idempotency key there).
 */

export interface PendingPurchase {
  pack: string;
  credits: number;
  amount: number;
  currency: string;
  at: string;
}

export interface PurchaseIntentsState {
  /** Intents without an outcome, by reference. */
  pending: Readonly<Record<string, PendingPurchase>>;
}

export type StartCreditPurchase = { type: 'StartCreditPurchase'; reference: string } & PendingPurchase;
export type AbandonCreditPurchase = { type: 'AbandonCreditPurchase'; reference: string; reason: string };
export type PurchaseIntentCommand = StartCreditPurchase | AbandonCreditPurchase;

export type CreditPurchaseStarted = DomainEvent<
  'CreditPurchaseStarted',
  { reference: string; pack: string; credits: number; amount: number; currency: string; at: string }
>;
export type CreditPurchaseAbandoned = DomainEvent<'CreditPurchaseAbandoned', { reference: string; reason: string }>;
export type PurchaseIntentEvent = CreditPurchaseStarted | CreditPurchaseAbandoned;

export const PurchaseConflict = defineProblem({
  slug: 'purchase-conflict',
  title: 'Conflict',
  status: 409,
  description:
    'This purchase was started for another credit pack: a retry completes the purchase as it was started. ' +
    'Buy another pack as a new purchase (a new Idempotency-Key).',
});

/** The open purchase of that reference, if any (an own member only: the record is keyed by reference). */
export const openPurchase = (state: PurchaseIntentsState, reference: string): PendingPurchase | undefined =>
  ownMember(state.pending, reference);

/** The events that close an intent. */
const OUTCOMES = new Set(['CreditsPurchased', 'CreditPurchaseDeclined', 'CreditPurchaseAbandoned']);

const schema = (properties: Record<string, unknown>) => ({
  type: 'object',
  required: Object.keys(properties),
  additionalProperties: false,
  properties,
});
const reference = { type: 'string', minLength: 1, maxLength: 200 };
const count = { type: 'integer', minimum: 0 };

type PurchaseIntentsReads = { purchaseIntents: PurchaseIntentsState; credits: CreditsState };

export const purchaseIntents: AccountSlice<
  PurchaseIntentsState,
  PurchaseIntentCommand,
  PurchaseIntentEvent,
  PurchaseIntentsReads
> = {
  commands: ['StartCreditPurchase', 'AbandonCreditPurchase'],
  events: [
    {
      type: 'CreditPurchaseStarted',
      version: 1,
      schema: schema({
        reference,
        pack: { type: 'string', minLength: 1 },
        credits: { type: 'integer', minimum: 1 },
        amount: count,
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
        at: { type: 'string', format: 'date-time' },
      }),
    },
    { type: 'CreditPurchaseAbandoned', version: 1, schema: schema({ reference, reason: eventText }) },
  ],

  initialState: () => ({ pending: {} }),

  evolve(state, event) {
    if (event.type === 'CreditPurchaseStarted') {
      const { reference: ref, ...purchase } = (event as CreditPurchaseStarted).data;
      return { pending: { ...state.pending, [ref]: purchase } };
    }
    if (OUTCOMES.has(event.type)) {
      const ref = (event.data as { reference: string }).reference;
      if (!openPurchase(state, ref)) return state;
      const { [ref]: _closed, ...pending } = state.pending;
      return { pending };
    }
    return state;
  },

  decide(command, account) {
    const { purchaseIntents: state, credits } = account;
    switch (command.type) {
      case 'StartCreditPurchase': {
        // A retry of the same purchase (open or already settled) starts nothing new, and never buys another
        // pack than the one started: the provider was asked for that one's price.
        const begun = openPurchase(state, command.reference) ?? credits.purchases.get(command.reference);
        if (begun && begun.pack !== command.pack) {
          throw problem(
            PurchaseConflict,
            `purchase ${command.reference} was started for the ${begun.pack} pack, not the ${command.pack} pack; ` +
              'a new purchase needs a new Idempotency-Key',
            { purchase_id: command.reference },
          );
        }
        if (begun) return [];
        const { reference: ref, pack, credits: amountOfCredits, amount, currency, at } = command;
        return [
          {
            type: 'CreditPurchaseStarted',
            data: { reference: ref, pack, credits: amountOfCredits, amount, currency, at },
          },
        ];
      }
      case 'AbandonCreditPurchase':
        return openPurchase(state, command.reference)
          ? [
              {
                type: 'CreditPurchaseAbandoned',
                data: { reference: command.reference, reason: fitted(command.reason) },
              },
            ]
          : [];
    }
  },
};
