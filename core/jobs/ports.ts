import type { CreditsService } from '../accounts/credits-service.js';
import type { Compression, OutputFormat } from './events.js';
import type { Plan } from '../generation/plan-types.js';

/**
 * Generates one table of a pinned plan as ordered chunks of bytes (the engine pool's `generate`):
 * reports the rows delivered so far after each chunk, stops (and rejects) when the signal aborts, and
 * gives the same bytes for the same plan on every call, on any instance. `recycle`: the runner is done
 * with each chunk when it asks for the next, so the generator may write a later chunk into its buffer.
 */
export type TableGenerator = (
  plan: Plan,
  table: string,
  options: {
    format: OutputFormat;
    /** Parquet: the compression of the file's pages. */
    compression?: Compression;
    signal: AbortSignal;
    onProgress: (rowsDone: number, rowsTotal: number) => void;
    recycle: boolean;
    /** Each chunk's statistics, gathered by the generator as it writes the rows, in chunk order (core/reports). */
    statistics?: { url: string; onChunk: (statistics: unknown, chunk: number) => void };
  },
) => AsyncIterable<Uint8Array>;

/** The credit commands a job's life calls (the credits service); all idempotent on the job id. */
export type JobCredits = Pick<CreditsService, 'checkReservable' | 'reserve' | 'settle' | 'release'>;
