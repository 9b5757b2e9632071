import type { Mode } from '../events/envelope.js';
import type { JsonSchema } from '../json-schema.js';
import { ReferenceIndex } from './reference-index.js';
import {
  CreditReferenceReused,
  CreditReferenceUnknown,
  ReservationClosed,
  insufficientCredits,
  concurrentJobLimit,
} from './credit-problems.js';
import { balanceChange, type BalanceChange } from './credit-movement.js';
import type { CreditsEvent, CreditsRefunded, TableCharge } from './credit-events.js';

export type * from './credit-events.js';
import { Problems, problem } from '../problems.js';
import type { Tier } from './profile.js';
import type { AccountSlice } from './slice.js';
import { eventText, fitted } from './event-text.js';

/**
 * The credit balance of an account. Every movement is an event with a reference (purchase, request or
 * job id) and is idempotent on it. The balance never goes below zero because a decision is taken on the
 * state its append follows (the stream's revision); the tier's concurrent-job limit (a held reservation
 * is a job's slot) is counted here for the same reason, so every instance of a fleet decides on one count.
 * Test-mode work goes through the same lifecycle so that usage records it, but its events carry
 * `mode: "test"` and move no credit (`credits` is what the work would have cost live).
 */

interface Debit {
  credits: number;
  mode: Mode;
  refunded: boolean;
}

interface Reservation {
  credits: number;
  mode: Mode;
  status: 'held' | 'settled' | 'released';
}

/** A settled purchase as it was sold: a retry of it is answered, and charged, with these, whatever the prices now. */
export interface SettledPurchase {
  pack: string;
  credits: number;
  amount: number;
  currency: string;
}

export interface CreditsState {
  available: number;
  reserved: number;
  grants: ReferenceIndex<number>;
  /** Purchases settled either way (credits purchased, or the payment declined), with what was sold. */
  purchases: ReferenceIndex<SettledPurchase>;
  debits: ReferenceIndex<Debit>;
  reservations: ReferenceIndex<Reservation>;
  /** Reservations reserved and not yet settled or released, per mode: the jobs that hold a slot. */
  held: Record<Mode, number>;
}

/** The tiers' concurrent-job limits (pricing.yaml `concurrent_jobs`); null: unlimited. */
export type ConcurrentJobLimits = Record<Tier, number | null>;

export type GrantCredits = { type: 'GrantCredits'; reference: string; credits: number; reason: string };
export type PurchaseCredits = {
  type: 'PurchaseCredits';
  reference: string;
  pack: string;
  credits: number;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  paymentId: string;
};
/** A payment the provider declined: recorded for the billing history, it grants nothing. */
export type RecordDeclinedPurchase = {
  type: 'RecordDeclinedPurchase';
  reference: string;
  pack: string;
  credits: number;
  amount: number;
  currency: string;
  declineCode: string;
  reason: string;
};
export type DebitCredits = {
  type: 'DebitCredits';
  reference: string;
  mode: Mode;
  keyId: string | null;
  operation: string;
  sector: string;
  tables: TableCharge[];
  credits: number;
  /**
   * Debits of earlier attempts of the same request (a retry under its Idempotency-Key): those not yet
   * refunded are refunded in the same append, before this debit is decided. The client asks again
   * because it got nothing from them; a refund of one still on its way (refund-outbox.ts) then appends
   * nothing, where a retry that took the earlier debit over as its own would have been served free.
   */
  supersedes?: readonly string[];
};
export type RefundCredits = { type: 'RefundCredits'; reference: string; reason: string };
export type ReserveCredits = {
  type: 'ReserveCredits';
  reference: string;
  mode: Mode;
  keyId: string | null;
  sector: string;
  tables: TableCharge[];
  credits: number;
  /**
   * When given, refused with 429 `concurrent-job-limit` while the account's tier holds as many
   * reservations of this mode.
   */
  concurrentJobs: ConcurrentJobLimits | null;
};
export type SettleCredits = { type: 'SettleCredits'; reference: string; tables: TableCharge[] };
export type ReleaseCredits = { type: 'ReleaseCredits'; reference: string; reason: string };
export type CreditsCommand =
  | GrantCredits
  | PurchaseCredits
  | RecordDeclinedPurchase
  | DebitCredits
  | RefundCredits
  | ReserveCredits
  | SettleCredits
  | ReleaseCredits;

const credits = { type: 'integer', minimum: 0 };
/** Money, in the currency's minor unit. */
const amount = { type: 'integer', minimum: 0 };
const currency = { type: 'string', pattern: '^[A-Z]{3}$' };
const pack = { type: 'string', minLength: 1 };
const reference = { type: 'string', minLength: 1, maxLength: 200 };
const mode = { enum: ['live', 'test'] };
const text = eventText;
const keyId = { type: ['string', 'null'] };
const tables = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'rows', 'credits'],
    additionalProperties: false,
    properties: { name: { type: 'string', minLength: 1 }, rows: { type: 'integer', minimum: 0 }, credits },
  },
};

function eventSchema(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', required: Object.keys(properties), additionalProperties: false, properties };
}

/**
 * Credits read the subscription's tier (for its concurrent-job limit), declared by shape: the subscription
 * slice reads credits in turn, and the two files must not import each other.
 */
type CreditsReads = { credits: CreditsState; subscription: { tier: Tier | null } };

export const creditsSlice: AccountSlice<CreditsState, CreditsCommand, CreditsEvent, CreditsReads> = {
  commands: [
    'GrantCredits',
    'PurchaseCredits',
    'RecordDeclinedPurchase',
    'DebitCredits',
    'RefundCredits',
    'ReserveCredits',
    'SettleCredits',
    'ReleaseCredits',
  ],
  events: [
    { type: 'CreditsGranted', version: 1, schema: eventSchema({ reference, credits, reason: text }) },
    {
      type: 'CreditsPurchased',
      version: 1,
      schema: eventSchema({ reference, pack, credits, amount, currency, payment_id: reference }),
    },
    {
      type: 'CreditPurchaseDeclined',
      version: 1,
      schema: eventSchema({ reference, pack, credits, amount, currency, decline_code: text, reason: text }),
    },
    {
      type: 'CreditsDebited',
      version: 1,
      schema: eventSchema({ reference, mode, key_id: keyId, operation: text, sector: text, tables, credits }),
    },
    { type: 'CreditsRefunded', version: 1, schema: eventSchema({ reference, mode, credits, reason: text }) },
    {
      type: 'CreditsReserved',
      version: 1,
      schema: eventSchema({ reference, mode, key_id: keyId, sector: text, tables, credits }),
    },
    {
      type: 'CreditsSettled',
      version: 1,
      schema: eventSchema({ reference, mode, tables, credits, released: credits }),
    },
    { type: 'CreditsReleased', version: 1, schema: eventSchema({ reference, mode, credits, reason: text }) },
  ],

  initialState: () => ({
    available: 0,
    reserved: 0,
    grants: ReferenceIndex.empty(),
    purchases: ReferenceIndex.empty(),
    debits: ReferenceIndex.empty(),
    reservations: ReferenceIndex.empty(),
    held: { live: 0, test: 0 },
  }),

  evolve(state, event) {
    const e = event as CreditsEvent;
    const next = applyBalanceChange(state, balanceChange(e));
    switch (e.type) {
      case 'CreditsGranted':
        return { ...next, grants: state.grants.with(e.data.reference, e.data.credits) };
      case 'CreditsPurchased':
      case 'CreditPurchaseDeclined': {
        const { reference, pack, credits, amount, currency } = e.data;
        return { ...next, purchases: state.purchases.with(reference, { pack, credits, amount, currency }) };
      }
      case 'CreditsDebited':
      case 'CreditsRefunded': {
        const refunded = e.type === 'CreditsRefunded';
        return {
          ...next,
          debits: state.debits.with(e.data.reference, { credits: e.data.credits, mode: e.data.mode, refunded }),
        };
      }
      case 'CreditsReserved': {
        const reservations = state.reservations.with(e.data.reference, {
          credits: e.data.credits,
          mode: e.data.mode,
          status: 'held',
        });
        return { ...next, reservations, held: countHeld(state.held, e.data.mode, 1) };
      }
      case 'CreditsSettled': {
        const credits = e.data.credits + e.data.released;
        const reservations = state.reservations.with(e.data.reference, {
          credits,
          mode: e.data.mode,
          status: 'settled',
        });
        return { ...next, reservations, held: countHeld(state.held, e.data.mode, -1) };
      }
      case 'CreditsReleased': {
        const reservations = state.reservations.with(e.data.reference, {
          credits: e.data.credits,
          mode: e.data.mode,
          status: 'released',
        });
        return { ...next, reservations, held: countHeld(state.held, e.data.mode, -1) };
      }
      default:
        return state;
    }
  },

  decide(command, account) {
    const { credits: state, subscription } = account;
    switch (command.type) {
      case 'GrantCredits': {
        requireCredits(command.credits);
        if (isRepeat(state.grants.get(command.reference), command.credits, command.reference)) return [];
        return [
          {
            type: 'CreditsGranted',
            data: { reference: command.reference, credits: command.credits, reason: fitted(command.reason) },
          },
        ];
      }
      case 'PurchaseCredits': {
        requireCredits(command.credits);
        if (isRepeat(state.purchases.get(command.reference)?.credits, command.credits, command.reference)) return [];
        const { reference, pack, credits, amount, currency, paymentId } = command;
        return [
          { type: 'CreditsPurchased', data: { reference, pack, credits, amount, currency, payment_id: paymentId } },
        ];
      }
      case 'RecordDeclinedPurchase': {
        if (isRepeat(state.purchases.get(command.reference)?.credits, command.credits, command.reference)) return [];
        const { reference, pack, credits, amount, currency, declineCode, reason } = command;
        return [
          {
            type: 'CreditPurchaseDeclined',
            data: { reference, pack, credits, amount, currency, decline_code: declineCode, reason: fitted(reason) },
          },
        ];
      }
      case 'DebitCredits': {
        requireCredits(command.credits);
        if (isRepeat(state.debits.get(command.reference)?.credits, command.credits, command.reference)) return [];
        const givenBack = supersededRefunds(state, command.supersedes ?? []);
        const returned = givenBack.reduce((sum, { data }) => sum + (data.mode === 'live' ? data.credits : 0), 0);
        const available = state.available + returned;
        const { reference, mode, keyId, operation, sector, tables, credits } = command;
        if (mode === 'live' && credits > available) throw insufficientCredits(credits, available);
        const data = { reference, mode, key_id: keyId, operation, sector, tables, credits };
        return [...givenBack, { type: 'CreditsDebited', data }];
      }
      case 'RefundCredits': {
        const debit = state.debits.get(command.reference);
        if (!debit) throw problem(CreditReferenceUnknown, `no debit with reference "${command.reference}"`);
        if (debit.refunded) return [];
        return [
          {
            type: 'CreditsRefunded',
            data: {
              reference: command.reference,
              mode: debit.mode,
              credits: debit.credits,
              reason: fitted(command.reason),
            },
          },
        ];
      }
      case 'ReserveCredits': {
        requireCredits(command.credits);
        if (isRepeat(state.reservations.get(command.reference)?.credits, command.credits, command.reference)) return [];
        // The tier is set when the account opens, and only open accounts decide.
        const tier = subscription.tier;
        const limit = tier === null ? null : (command.concurrentJobs?.[tier] ?? null);
        const active = state.held[command.mode];
        if (tier !== null && limit !== null && active >= limit) throw concurrentJobLimit(tier, limit, active);
        if (command.mode === 'live' && command.credits > state.available)
          throw insufficientCredits(command.credits, state.available);
        const { reference, mode, keyId, sector, tables, credits } = command;
        return [{ type: 'CreditsReserved', data: { reference, mode, key_id: keyId, sector, tables, credits } }];
      }
      case 'SettleCredits': {
        const reservation = requireReservation(state, command.reference);
        if (reservation.status === 'settled') return [];
        if (reservation.status === 'released')
          throw problem(ReservationClosed, `reservation "${command.reference}" was released`);
        const produced = command.tables.reduce((sum, table) => sum + table.credits, 0);
        // The reservation is the quote the account accepted: work is never charged above it.
        const charged = Math.min(produced, reservation.credits);
        const data = {
          reference: command.reference,
          mode: reservation.mode,
          tables: command.tables,
          credits: charged,
          released: reservation.credits - charged,
        };
        return [{ type: 'CreditsSettled', data }];
      }
      case 'ReleaseCredits': {
        const reservation = requireReservation(state, command.reference);
        // A settled reservation holds nothing any more (settling released the rest).
        if (reservation.status !== 'held') return [];
        const data = {
          reference: command.reference,
          mode: reservation.mode,
          credits: reservation.credits,
          reason: fitted(command.reason),
        };
        return [{ type: 'CreditsReleased', data }];
      }
    }
  },
};

/** The refunds of the superseded debits that hold credits still (a refunded or unknown one gives nothing back). */
function supersededRefunds(state: CreditsState, references: readonly string[]): CreditsRefunded[] {
  return [...new Set(references)].flatMap((reference): CreditsRefunded[] => {
    const debit = state.debits.get(reference);
    if (!debit || debit.refunded) return [];
    const reason = 'superseded by a retry of the same request';
    return [{ type: 'CreditsRefunded', data: { reference, mode: debit.mode, credits: debit.credits, reason } }];
  });
}

/** Settling and releasing are decided only on a held reservation, so a count never goes below zero. */
function countHeld(held: Record<Mode, number>, mode: Mode, change: 1 | -1): Record<Mode, number> {
  return { ...held, [mode]: held[mode] + change };
}

function applyBalanceChange(state: CreditsState, change: BalanceChange | null): CreditsState {
  return change
    ? { ...state, available: state.available + change.available, reserved: state.reserved + change.reserved }
    : state;
}

function requireCredits(credits: number): void {
  if (!Number.isSafeInteger(credits) || credits < 0)
    throw problem(Problems.badRequest, `credits must be a whole number ≥ 0, got ${credits}`);
}

/** True when the reference was used for the same amount (a retry: nothing to do); a different amount is a conflict. */
function isRepeat(recorded: number | undefined, credits: number, reference: string): boolean {
  if (recorded === undefined) return false;
  if (recorded !== credits)
    throw problem(CreditReferenceReused, `reference "${reference}" was used for ${recorded} credits, not ${credits}`);
  return true;
}

function requireReservation(state: CreditsState, reference: string): Reservation {
  const reservation = state.reservations.get(reference);
  if (!reservation) throw problem(CreditReferenceUnknown, `no reservation with reference "${reference}"`);
  return reservation;
}
