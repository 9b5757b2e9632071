/**
 * A dataset's as-of date: the day its data is drawn as of. No event falls after it, and what is due later
 * (an instalment, a claim's payment) is `scheduled`. The default is a fixed date, not today, so that the same
 * config and seed give the same bytes on any day.
 */
export const DEFAULT_AS_OF = '2025-12-31';

/** The range a config may set, as the config schema states it. */
export const AS_OF_MIN = '2000-01-01';
export const AS_OF_MAX = '2100-12-31';
/** The same range as a pattern on a calendar date: the years 2000 to 2100. */
export const AS_OF_PATTERN = '^(20[0-9]{2}|2100)-';

const DAY = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a YYYY-MM-DD calendar date (not 2025-02-30) within the range a config may set. */
export function isAsOfDate(value: string): boolean {
  if (!ISO_DATE.test(value) || value < AS_OF_MIN || value > AS_OF_MAX) return false;
  return new Date(`${value}T00:00:00.000Z`).toISOString().startsWith(value);
}

/** The first instant after the as-of day (milliseconds, UTC): every event of the dataset comes before it. */
export function asOfEnd(asOf: string): number {
  return Date.parse(`${asOf}T00:00:00.000Z`) + DAY;
}
