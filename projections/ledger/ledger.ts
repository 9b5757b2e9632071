import type { RecordedEvent } from '../../core/events/envelope.js';
import { accountIdOfStream } from '../../core/accounts/account.js';
import { CREDIT_MOVEMENT_TYPES, balanceChange } from '../../core/accounts/credit-movement.js';
import type { Projection } from '../runner/projection.js';

export interface LedgerAccount {
  credits_available: number;
  credits_reserved: number;
  /** Credit movements applied (test-mode work moves nothing and is not one). */
  movements: number;
  /** Global position of the last movement. */
  position: number;
}

export type LedgerModel = Map<string, LedgerAccount>;

export const LEDGER_PROJECTION = 'ledger';

/** Every account's balance, as the credit events say: what the audit compares its replay with. */
export const ledgerProjection: Projection<LedgerModel> = {
  name: LEDGER_PROJECTION,
  version: 1,
  handles: CREDIT_MOVEMENT_TYPES,
  initialState: () => new Map(),
  apply(state, event: RecordedEvent) {
    const change = balanceChange(event);
    const accountId = accountIdOfStream(event.stream);
    if (!change || accountId === null) return state;
    const account = state.get(accountId) ?? { credits_available: 0, credits_reserved: 0, movements: 0, position: 0 };
    account.credits_available += change.available;
    account.credits_reserved += change.reserved;
    account.movements += 1;
    account.position = event.position;
    state.set(accountId, account);
    return state;
  },
  toJSON: (state) => Object.fromEntries([...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  fromJSON: (json) => new Map(Object.entries(json as Record<string, LedgerAccount>)),
};

export const ledgerBalance = (state: LedgerModel, accountId: string): LedgerAccount =>
  state.get(accountId) ?? { credits_available: 0, credits_reserved: 0, movements: 0, position: 0 };
