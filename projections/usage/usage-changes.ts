import type { Mode, RecordedEvent } from '../../core/events/envelope.js';
import type { EventRegistry } from '../../core/events/registry.js';
import { accountIdOfStream } from '../../core/accounts/account.js';
import type {
  CreditsDebited,
  CreditsRefunded,
  CreditsReserved,
  CreditsSettled,
  TableCharge,
} from '../../core/accounts/credits.js';

/** One charged (live) or sandbox (test) operation: a quick generation's debit or a job's settlement. */
export interface UsageRecord {
  /** `usg_<position>`: stable across rebuilds, since positions are. */
  id: string;
  reference: string;
  /** `debit` (quick generation) or `settlement` (a job); a refund applies to a debit. */
  source: 'debit' | 'settlement';
  operation: string;
  mode: Mode;
  key_id: string | null;
  sector: string;
  tables: TableCharge[];
  rows: number;
  /** Live: credits charged. Test: what the work would have cost live. */
  credits: number;
  refunded: boolean;
  recorded_at: string;
  position: number;
}

/** What one event does to the usage records. A settlement takes its key and sector from its reservation. */
export type UsageChange =
  | { kind: 'record'; accountId: string; record: UsageRecord }
  | { kind: 'settle'; accountId: string; record: Omit<UsageRecord, 'key_id' | 'sector'> }
  | { kind: 'refund'; accountId: string; reference: string }
  | { kind: 'reserve'; accountId: string; reference: string; key_id: string | null; sector: string }
  | { kind: 'release'; accountId: string; reference: string };

/** The event types that change the usage records; `usageChanges` of any other is empty. */
const USAGE_EVENT_TYPES: ReadonlySet<string> = new Set([
  'CreditsDebited',
  'CreditsRefunded',
  'CreditsReserved',
  'CreditsSettled',
  'CreditsReleased',
]);

/** What a page of events does to the usage records, added to `changes`; only those events are upcast. */
export function addUsageChanges(
  changes: UsageChange[],
  events: readonly RecordedEvent[],
  registry: EventRegistry,
): void {
  for (const event of events)
    if (USAGE_EVENT_TYPES.has(event.type))
      for (const change of usageChanges(registry.upcast(event))) changes.push(change);
}

export function usageChanges(event: RecordedEvent): UsageChange[] {
  const accountId = accountIdOfStream(event.stream);
  if (accountId === null) return [];
  // Each record written out whole, not spread from common members: this runs for every charge of a rebuild.
  switch (event.type) {
    case 'CreditsDebited': {
      const { reference, operation, mode, key_id, sector, tables, credits } = event.data as CreditsDebited['data'];
      const record: UsageRecord = {
        id: `usg_${event.position}`,
        reference,
        source: 'debit',
        operation,
        mode,
        key_id,
        sector,
        tables,
        rows: totalRows(tables),
        credits,
        refunded: false,
        recorded_at: event.recorded_at,
        position: event.position,
      };
      return [{ kind: 'record', accountId, record }];
    }
    case 'CreditsRefunded':
      return [{ kind: 'refund', accountId, reference: (event.data as CreditsRefunded['data']).reference }];
    case 'CreditsReserved': {
      const { reference, key_id, sector } = event.data as CreditsReserved['data'];
      return [{ kind: 'reserve', accountId, reference, key_id, sector }];
    }
    case 'CreditsSettled': {
      const { reference, mode, tables, credits } = event.data as CreditsSettled['data'];
      const record: Omit<UsageRecord, 'key_id' | 'sector'> = {
        id: `usg_${event.position}`,
        reference,
        source: 'settlement',
        operation: 'job',
        mode,
        tables,
        rows: totalRows(tables),
        credits,
        refunded: false,
        recorded_at: event.recorded_at,
        position: event.position,
      };
      return [{ kind: 'settle', accountId, record }];
    }
    case 'CreditsReleased':
      return [{ kind: 'release', accountId, reference: (event.data as { reference: string }).reference }];
    default:
      return [];
  }
}

/** A loop rather than `reduce`: this runs for every charge of a rebuild. */
function totalRows(tables: readonly TableCharge[]): number {
  let rows = 0;
  for (let i = 0; i < tables.length; i++) rows += tables[i].rows;
  return rows;
}
