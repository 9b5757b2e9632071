/**
 * Monthly billing periods, anchored on the day the account opened: period n runs from anchor + n
 * months to anchor + n + 1 months (UTC). Counting from the anchor, not from the previous period,
 * keeps a 31st-of-the-month account on the 31st (or the month's last day) forever.
 */
export function periodStart(anchor: string, index: number): string {
  return addMonths(new Date(anchor), index).toISOString();
}

export function periodEnd(anchor: string, index: number): string {
  return periodStart(anchor, index + 1);
}

/** The part of the period [start, end) still ahead at `at`, between 0 and 1. */
export function remainingFraction(start: string, end: string, at: string): number {
  const total = Date.parse(end) - Date.parse(start);
  return Math.min(1, Math.max(0, (Date.parse(end) - Date.parse(at)) / total));
}

function addMonths(date: Date, months: number): Date {
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  target.setUTCHours(date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds());
  return target;
}
