/** When a failed attempt is tried again: doubling from `firstMs`, capped at `maxMs`, for `forMs` after scheduling. */
export interface RetrySchedule {
  firstMs: number;
  maxMs: number;
  /** After this long since the delivery was scheduled, no attempt is made again: it has failed. */
  forMs: number;
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = { firstMs: 30_000, maxMs: 3_600_000, forMs: 24 * 3_600_000 };

/** The time of the attempt after attempt `attempt` failed at `at`; null once that is past the schedule's end. */
export function nextAttemptAt(
  schedule: RetrySchedule,
  scheduledAt: string,
  attempt: number,
  at: string,
): string | null {
  const wait = Math.min(schedule.firstMs * 2 ** Math.min(attempt - 1, 40), schedule.maxMs);
  const next = Date.parse(at) + wait;
  return next - Date.parse(scheduledAt) > schedule.forMs ? null : new Date(next).toISOString();
}
