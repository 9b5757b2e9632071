import type { RecordedEvent } from '../../core/events/envelope.js';
import type { Mode } from '../../core/events/envelope.js';
import type { Scope } from '../../core/auth/scopes.js';
import type { Tier } from '../../core/accounts/profile.js';
import type { AccountOpened } from '../../core/accounts/profile.js';
import type { KeyIssued, KeyRevoked } from '../../core/accounts/keys.js';
import type { SubscriptionRenewed, SubscriptionUpgraded } from '../../core/accounts/subscription.js';
import type { Projection } from '../runner/projection.js';

export interface KeyRecord {
  key_id: string;
  account_id: string;
  mode: Mode;
  scopes: Scope[];
  name: string | null;
  prefix: string;
  secret_sha256: string;
  issued_at: string;
  /** The global position of its KeyIssued: keys issued in the same millisecond still have an order. */
  issued_position: number;
  revoked_at: string | null;
}

/**
 * Every key by the hash of its secret, and every account's tier: what authentication needs, held in
 * memory so that a request costs no store read. A revocation reaches every instance as soon as its
 * projection runner has read the KeyRevoked event.
 */
export interface KeysModel {
  bySha256: Map<string, KeyRecord>;
  byId: Map<string, KeyRecord>;
  tiers: Map<string, Tier>;
}

export const KEYS_PROJECTION = 'keys';

/** Subscription events carry no account id: the stream (`account-<id>`) names the account. */
const accountIdOf = (event: RecordedEvent): string => event.stream.slice('account-'.length);

export const keysProjection: Projection<KeysModel> = {
  name: KEYS_PROJECTION,
  version: 3,
  handles: ['AccountOpened', 'SubscriptionUpgraded', 'SubscriptionRenewed', 'KeyIssued', 'KeyRevoked'],
  initialState: () => ({ bySha256: new Map(), byId: new Map(), tiers: new Map() }),
  apply(state, event: RecordedEvent) {
    switch (event.type) {
      case 'AccountOpened': {
        const data = event.data as AccountOpened['data'];
        state.tiers.set(data.account_id, data.tier);
        break;
      }
      // The rate limit follows the tier from the moment the change takes effect.
      case 'SubscriptionUpgraded':
        state.tiers.set(accountIdOf(event), (event.data as SubscriptionUpgraded['data']).to_tier);
        break;
      case 'SubscriptionRenewed':
        state.tiers.set(accountIdOf(event), (event.data as SubscriptionRenewed['data']).tier);
        break;
      case 'KeyIssued': {
        const data = event.data as KeyIssued['data'];
        const record: KeyRecord = { ...data, issued_position: event.position, revoked_at: null };
        state.bySha256.set(record.secret_sha256, record);
        state.byId.set(record.key_id, record);
        break;
      }
      case 'KeyRevoked': {
        const data = event.data as KeyRevoked['data'];
        const record = state.byId.get(data.key_id);
        if (!record) throw new Error(`KeyRevoked for unknown key ${data.key_id}`);
        record.revoked_at = data.revoked_at;
        break;
      }
    }
    return state;
  },
  toJSON(state) {
    return {
      keys: [...state.byId.values()].sort((a, b) => a.key_id.localeCompare(b.key_id)),
      tiers: Object.fromEntries([...state.tiers.entries()].sort(([a], [b]) => a.localeCompare(b))),
    };
  },
  fromJSON(json) {
    const { keys, tiers } = json as { keys: KeyRecord[]; tiers: Record<string, Tier> };
    return {
      bySha256: new Map(keys.map((key) => [key.secret_sha256, key])),
      byId: new Map(keys.map((key) => [key.key_id, key])),
      tiers: new Map(Object.entries(tiers)),
    };
  },
};

/** The keys of one account in one mode, newest first: in the order they were issued, so pages are stable. */
export function accountKeys(state: KeysModel, accountId: string, mode: Mode): KeyRecord[] {
  return [...state.byId.values()]
    .filter((key) => key.account_id === accountId && key.mode === mode)
    .sort((a, b) => b.issued_position - a.issued_position);
}
