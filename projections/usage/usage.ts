import type { Mode, RecordedEvent } from '../../core/events/envelope.js';
import { accountIdOfStream } from '../../core/accounts/account.js';
import type { CreditsDebited, CreditsRefunded, CreditsSettled } from '../../core/accounts/credits.js';
import type { Projection } from '../runner/projection.js';

/**
 * Every account's consumed credits, live and test apart (refunded work consumed nothing): what the
 * audit recomputes from the events and compares. One entry per account, so the state and its snapshot
 * stay small however much work is done; the usage records themselves, which grow with every operation,
 * live in a table of the store's database (usage-records.ts).
 */
export type UsageModel = Map<string, Record<Mode, number>>;

export const USAGE_PROJECTION = 'usage';

export const usageProjection: Projection<UsageModel> = {
  name: USAGE_PROJECTION,
  version: 2,
  handles: ['CreditsDebited', 'CreditsRefunded', 'CreditsSettled'],
  initialState: () => new Map(),
  apply(state, event: RecordedEvent) {
    const accountId = accountIdOfStream(event.stream);
    if (accountId === null) return state;
    const { mode, credits } = event.data as (CreditsDebited | CreditsRefunded | CreditsSettled)['data'];
    const totals = state.get(accountId) ?? { live: 0, test: 0 };
    totals[mode] += event.type === 'CreditsRefunded' ? -credits : credits;
    state.set(accountId, totals);
    return state;
  },
  toJSON: (state) => Object.fromEntries([...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  fromJSON: (json) => new Map(Object.entries(json as Record<string, Record<Mode, number>>)),
};
