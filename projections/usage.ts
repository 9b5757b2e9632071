import type { Mode, RecordedEvent } from '../core/events/envelope.js';
import { accountIdOfStream } from '../core/domain/account/index.js';
import type { CreditsDebited, CreditsRefunded, CreditsReserved, CreditsSettled, TableCharge } from '../core/domain/account/credits.js';
import type { Projection } from './projection.js';

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

interface OpenReservation {
  key_id: string | null;
  sector: string;
}

export interface UsageModel {
  /** Per account, in global order. */
  records: Map<string, UsageRecord[]>;
  /** Debits by `${account} ${reference}`, for refunds. */
  debits: Map<string, UsageRecord>;
  /** Reservations not yet settled, by `${account} ${reference}`: a settlement takes its sector and key. */
  reservations: Map<string, OpenReservation>;
}

export const USAGE_PROJECTION = 'usage';

const keyOf = (accountId: string, reference: string): string => `${accountId} ${reference}`;

export const usageProjection: Projection<UsageModel> = {
  name: USAGE_PROJECTION,
  version: 1,
  handles: ['CreditsDebited', 'CreditsRefunded', 'CreditsReserved', 'CreditsSettled', 'CreditsReleased'],
  initialState: () => ({ records: new Map(), debits: new Map(), reservations: new Map() }),
  apply(state, event: RecordedEvent) {
    const accountId = accountIdOfStream(event.stream);
    if (accountId === null) return state;
    const common = { id: `usg_${event.position}`, recorded_at: event.recorded_at, position: event.position, refunded: false };
    switch (event.type) {
      case 'CreditsDebited': {
        const data = event.data as CreditsDebited['data'];
        const { reference, operation, mode, key_id, sector, tables, credits } = data;
        const record: UsageRecord = { ...common, reference, source: 'debit', operation, mode, key_id, sector, tables, rows: totalRows(tables), credits };
        append(state, accountId, record);
        state.debits.set(keyOf(accountId, reference), record);
        break;
      }
      case 'CreditsRefunded': {
        const { reference } = event.data as CreditsRefunded['data'];
        const record = state.debits.get(keyOf(accountId, reference));
        if (!record) throw new Error(`refund of unknown debit ${reference} on account ${accountId}`);
        record.refunded = true;
        break;
      }
      case 'CreditsReserved': {
        const { reference, key_id, sector } = event.data as CreditsReserved['data'];
        state.reservations.set(keyOf(accountId, reference), { key_id, sector });
        break;
      }
      case 'CreditsSettled': {
        const { reference, mode, tables, credits } = event.data as CreditsSettled['data'];
        const reservation = state.reservations.get(keyOf(accountId, reference));
        if (!reservation) throw new Error(`settlement of unknown reservation ${reference} on account ${accountId}`);
        state.reservations.delete(keyOf(accountId, reference));
        append(state, accountId, { ...common, reference, source: 'settlement', operation: 'job', mode, ...reservation, tables, rows: totalRows(tables), credits });
        break;
      }
      case 'CreditsReleased':
        state.reservations.delete(keyOf(accountId, (event.data as { reference: string }).reference));
        break;
    }
    return state;
  },
  toJSON(state) {
    return {
      records: Object.fromEntries([...state.records.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      reservations: Object.fromEntries([...state.reservations.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    };
  },
  fromJSON(json) {
    const { records, reservations } = json as { records: Record<string, UsageRecord[]>; reservations: Record<string, OpenReservation> };
    const debits = new Map<string, UsageRecord>();
    for (const [accountId, list] of Object.entries(records)) {
      for (const record of list) if (record.source === 'debit') debits.set(keyOf(accountId, record.reference), record);
    }
    return { records: new Map(Object.entries(records)), debits, reservations: new Map(Object.entries(reservations)) };
  },
};

function append(state: UsageModel, accountId: string, record: UsageRecord): void {
  const list = state.records.get(accountId);
  if (list) list.push(record);
  else state.records.set(accountId, [record]);
}

const totalRows = (tables: readonly TableCharge[]): number => tables.reduce((sum, table) => sum + table.rows, 0);
