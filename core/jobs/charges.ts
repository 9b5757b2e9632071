import type { TableCharge } from '../accounts/credits.js';
import type { JobEstimate, ResultFile } from './events.js';

/**
 * What a succeeded job is charged for: each table at its estimate, with the rows its file holds
 * (settling never charges above the reservation). Both the runner that completes a job and the
 * reconciliation of a job completed without its settlement charge exactly this.
 */
export function chargesFor(estimate: JobEstimate, files: readonly Pick<ResultFile, 'table' | 'rows'>[]): TableCharge[] {
  return estimate.tables.map((table) => ({
    ...table,
    rows: files.find((file) => file.table === table.name)?.rows ?? 0,
  }));
}
