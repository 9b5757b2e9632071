/** The first retry waits about this long; each later one twice as long as the one before. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** The exponential part of a wait never exceeds this. */
export const MAX_RETRY_DELAY_MS = 8_000;
/** A Retry-After beyond this is not waited for: the error is thrown, and the caller decides. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * What `Retry-After` asks, in milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when the header is absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // The three date formats of HTTP begin with the day's name; Date.parse would take `-1` for a year.
  if (!/^[A-Za-z]/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `retry` (0 for the first): exponential backoff with "equal jitter",
 * between half and all of the exponential delay, so that clients refused together do not come back
 * together; and never less than the Retry-After the service asked for, which the jitter is added to.
 */
export function retryDelayMs(retry: number, retryAfter: number | undefined, random: () => number): number {
  const exponential = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS);
  const jitter = random() * (exponential / 2);
  return Math.max(retryAfter ?? 0, exponential / 2) + jitter;
}
