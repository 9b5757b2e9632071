import type { CreditMovementEvent } from './credit-events.js';

/** What a credit event does to an account's balance. */
export interface BalanceChange {
  available: number;
  reserved: number;
}

export const CREDIT_MOVEMENT_TYPES: readonly CreditMovementEvent['type'][] = [
  'CreditsGranted',
  'CreditsPurchased',
  'CreditsDebited',
  'CreditsRefunded',
  'CreditsReserved',
  'CreditsSettled',
  'CreditsReleased',
];
const movementTypes = new Set<string>(CREDIT_MOVEMENT_TYPES);

export function isCreditEvent(event: { type: string }): event is CreditMovementEvent {
  return movementTypes.has(event.type);
}

/**
 * The one balance rule, shared by the decider, the ledger projection and the audit replay: how much
 * an event adds to the available and the reserved credits. Null for an event that moves nothing
 * (test mode, or not a credit event), so that the ledger lists only real movements.
 */
export function balanceChange(event: { type: string; data: unknown }): BalanceChange | null {
  if (!isCreditEvent(event)) return null;
  const e = event;
  if ('mode' in e.data && e.data.mode === 'test') return null;
  switch (e.type) {
    case 'CreditsGranted':
    case 'CreditsPurchased':
      return { available: e.data.credits, reserved: 0 };
    case 'CreditsDebited':
      return { available: -e.data.credits, reserved: 0 };
    case 'CreditsRefunded':
      return { available: e.data.credits, reserved: 0 };
    case 'CreditsReserved':
      return { available: -e.data.credits, reserved: e.data.credits };
    case 'CreditsSettled':
      return { available: e.data.released, reserved: -(e.data.credits + e.data.released) };
    case 'CreditsReleased':
      return { available: e.data.credits, reserved: -e.data.credits };
  }
}
