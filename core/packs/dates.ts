/**
 * Calendar arithmetic on `YYYY-MM-DD` days, for packs that date events from other dates: instalments a month
 * apart, pay days, maturities. Days are UTC calendar days (no time zone moves them); Saturday and Sunday are the
 * non-business days (no public holidays: they differ by country).
 */

const DAY_MS = 86_400_000;

/**
 * A drawn day kept on or before `latest` (the as-of date): a day drawn later is wrapped into [earliest, latest] by
 * how far it overshoots, so a window drawn uniformly past `latest` stays about uniform up to it (clamping would
 * pile the overshoot on `latest`). `earliest` later than `latest` gives `latest`.
 */
export function onOrBefore(date: string, earliest: string, latest: string): string {
  if (date <= latest) return date;
  const from = Date.parse(earliest);
  const days = (Date.parse(latest) - from) / DAY_MS + 1;
  if (!(days > 0)) return latest;
  const overshoot = (Date.parse(date) - from) / DAY_MS;
  return new Date(from + (overshoot % days) * DAY_MS).toISOString().slice(0, 10);
}

/** `date` plus `days` (negative: before). */
export function addDays(date: string, days: number): string {
  return dayText(dayNumber(date) + days);
}

/**
 * `date` plus `months` (negative: before), on the same day of the month, or the month's last day when it has no
 * such day: addMonths('2024-01-31', 1) is '2024-02-29'.
 */
export function addMonths(date: string, months: number): string {
  const { year, month, day } = parts(date);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index - targetYear * 12 + 1;
  return text(targetYear, targetMonth, Math.min(day, daysInMonth(targetYear, targetMonth)));
}

/**
 * Dates `count` months apart from `first` on (a loan's due dates): each from `first` itself, so that a 31st stays a
 * 31st wherever the month has one (a running addMonths would stick at the 28th after February).
 */
export function monthlySchedule(first: string, count: number, everyMonths = 1): string[] {
  return Array.from({ length: count }, (_, i) => addMonths(first, i * everyMonths));
}

/** Whole months from `from` to `to` (negative when `to` comes first): '2024-01-31' to '2024-02-29' is 1. */
export function monthsBetween(from: string, to: string): number {
  const a = parts(from);
  const b = parts(to);
  let months = (b.year - a.year) * 12 + (b.month - a.month);
  const endOfB = b.day === daysInMonth(b.year, b.month);
  if (months > 0 && b.day < a.day && !endOfB) months -= 1;
  else if (months < 0 && b.day > a.day && a.day !== daysInMonth(a.year, a.month)) months += 1;
  return months;
}

/** Days from `from` to `to` (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The last day of `date`'s month. */
export function endOfMonth(date: string): string {
  const { year, month } = parts(date);
  return text(year, month, daysInMonth(year, month));
}

/** Monday to Friday. */
export function isBusinessDay(date: string): boolean {
  const weekday = (dayNumber(date) + 4) % 7; // 1970-01-01 was a Thursday (4); 0 is Sunday
  return weekday !== 0 && weekday !== 6;
}

/** `date` when it is a business day, else the business day before it (a payment due on a Sunday is made on Friday). */
export function businessDayOnOrBefore(date: string): string {
  let day = dayNumber(date);
  while (!isBusinessDay(dayText(day))) day -= 1;
  return dayText(day);
}

/** `date` when it is a business day, else the next one. */
export function businessDayOnOrAfter(date: string): string {
  let day = dayNumber(date);
  while (!isBusinessDay(dayText(day))) day += 1;
  return dayText(day);
}

/**
 * The pay day of `month` (`YYYY-MM`): its `day` (or its last day, `'last'`, or the month's last day when it is
 * shorter), moved to the business day before it (`'preceding'`, as most payrolls do) or after it (`'following'`).
 * payDay('2025-05', 25) is Friday '2025-05-23'; payDay('2025-08', 'last') is Friday '2025-08-29'.
 */
export function payDay(month: string, day: number | 'last', roll: 'preceding' | 'following' = 'preceding'): string {
  const [year, monthNumber] = month.split('-').map(Number);
  if (!Number.isInteger(year) || !(monthNumber >= 1 && monthNumber <= 12))
    throw new RangeError(`payDay: "${month}" is no month (YYYY-MM)`);
  const last = daysInMonth(year, monthNumber);
  const nominal = text(year, monthNumber, day === 'last' ? last : Math.min(Math.max(1, day), last));
  return roll === 'preceding' ? businessDayOnOrBefore(nominal) : businessDayOnOrAfter(nominal);
}

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parts(date: string): { year: number; month: number; day: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) throw new RangeError(`"${date}" is no date (YYYY-MM-DD)`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

function dayNumber(date: string): number {
  const { year, month, day } = parts(date);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function text(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
