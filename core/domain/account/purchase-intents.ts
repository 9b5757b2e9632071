import type { DomainEvent } from '../decider.js';
import type { CreditsState } from './credits.js';
import type { AccountSlice } from './slice.js';

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

export type CreditPurchaseStarted = DomainEvent<'CreditPurchaseStarted', { reference: string; pack: string; credits: number; amount: number; currency: string; at: string }>;
export type CreditPurchaseAbandoned = DomainEvent<'CreditPurchaseAbandoned', { reference: string; reason: string }>;
export type PurchaseIntentEvent = CreditPurchaseStarted | CreditPurchaseAbandoned;

/** The events that close an intent. */
const OUTCOMES = new Set(['CreditsPurchased', 'CreditPurchaseDeclined', 'CreditPurchaseAbandoned']);

const schema = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), additionalProperties: false, properties });
const reference = { type: 'string', minLength: 1, maxLength: 200 };
const count = { type: 'integer', minimum: 0 };

export const purchaseIntents: AccountSlice<PurchaseIntentsState, PurchaseIntentCommand, PurchaseIntentEvent> = {
  commands: ['StartCreditPurchase', 'AbandonCreditPurchase'],
  events: [
    {
      type: 'CreditPurchaseStarted',
      version: 1,
      schema: schema({
        reference, pack: { type: 'string', minLength: 1 }, credits: { type: 'integer', minimum: 1 }, amount: count,
        currency: { type: 'string', pattern: '^[A-Z]{3}$' }, at: { type: 'string', format: 'date-time' },
      }),
    },
    { type: 'CreditPurchaseAbandoned', version: 1, schema: schema({ reference, reason: { type: 'string', maxLength: 500 } }) },
  ],

  initialState: () => ({ pending: {} }),

  evolve(state, event) {
    if (event.type === 'CreditPurchaseStarted') {
      const { reference: ref, ...purchase } = (event as CreditPurchaseStarted).data;
      return { pending: { ...state.pending, [ref]: purchase } };
    }
    if (OUTCOMES.has(event.type)) {
      const ref = (event.data as { reference: string }).reference;
      if (!(ref in state.pending)) return state;
      const { [ref]: _closed, ...pending } = state.pending;
      return { pending };
    }
    return state;
  },

  decide(command, account) {
    const { purchaseIntents: state, credits } = account as { purchaseIntents: PurchaseIntentsState; credits: CreditsState };
    const open = command.reference in state.pending;
    switch (command.type) {
      case 'StartCreditPurchase': {
        // A retry of the same purchase (open or already settled) starts nothing new.
        if (open || credits.purchases.get(command.reference) !== undefined) return [];
        const { reference: ref, pack, credits: amountOfCredits, amount, currency, at } = command;
        return [{ type: 'CreditPurchaseStarted', data: { reference: ref, pack, credits: amountOfCredits, amount, currency, at } }];
      }
      case 'AbandonCreditPurchase':
        return open ? [{ type: 'CreditPurchaseAbandoned', data: { reference: command.reference, reason: command.reason } }] : [];
    }
  },
};
