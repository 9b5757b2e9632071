import type { DomainEvent } from '../commands/decider.js';
import type { Mode } from '../events/envelope.js';

/** One table of a charge: the rows produced and the credits they cost. */
export interface TableCharge {
  name: string;
  rows: number;
  credits: number;
}

export type CreditsGranted = DomainEvent<'CreditsGranted', { reference: string; credits: number; reason: string }>;
export type CreditsPurchased = DomainEvent<
  'CreditsPurchased',
  { reference: string; pack: string; credits: number; amount: number; currency: string; payment_id: string }
>;
export type CreditPurchaseDeclined = DomainEvent<
  'CreditPurchaseDeclined',
  {
    reference: string;
    pack: string;
    credits: number;
    amount: number;
    currency: string;
    decline_code: string;
    reason: string;
  }
>;
export type CreditsDebited = DomainEvent<
  'CreditsDebited',
  {
    reference: string;
    mode: Mode;
    key_id: string | null;
    operation: string;
    sector: string;
    tables: TableCharge[];
    credits: number;
  }
>;
export type CreditsRefunded = DomainEvent<
  'CreditsRefunded',
  { reference: string; mode: Mode; credits: number; reason: string }
>;
export type CreditsReserved = DomainEvent<
  'CreditsReserved',
  { reference: string; mode: Mode; key_id: string | null; sector: string; tables: TableCharge[]; credits: number }
>;
/** `credits`: charged (what was produced, at most what was reserved); `released`: the rest of the reservation. */
export type CreditsSettled = DomainEvent<
  'CreditsSettled',
  { reference: string; mode: Mode; tables: TableCharge[]; credits: number; released: number }
>;
export type CreditsReleased = DomainEvent<
  'CreditsReleased',
  { reference: string; mode: Mode; credits: number; reason: string }
>;
/** The events that move credits (a declined purchase moves none). */
export type CreditMovementEvent =
  | CreditsGranted
  | CreditsPurchased
  | CreditsDebited
  | CreditsRefunded
  | CreditsReserved
  | CreditsSettled
  | CreditsReleased;
export type CreditsEvent = CreditMovementEvent | CreditPurchaseDeclined;
