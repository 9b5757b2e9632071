import type { CreditsService } from '../credits/credits-service.js';
import type { OutputFormat } from '../domain/job/events.js';

/** A slice of a table's serialized rows, in order; the engine's pool yields them. */
export interface TableChunk {
  bytes: Uint8Array;
  rows: number;
}

/**
 * Generates one table of a pinned plan as ordered chunks of bytes. Stops (and rejects) when the
 * signal aborts; the same plan gives the same bytes on every call, on any instance.
 */
export type TableGenerator = (plan: Record<string, unknown>, table: string, format: OutputFormat, signal: AbortSignal) => AsyncIterable<TableChunk>;

/** The credit commands a job's life calls (CREDITS' service); all idempotent on the job id. */
export type JobCredits = Pick<CreditsService, 'reserve' | 'settle' | 'release'>;
