import type { Rng } from '../../core/packs/sdk.js';
import { BOOKING_KINDS, BILLS, PAY_DAYS, PAY_RAISE, type BookingKind } from './reference-data.js';

/**
 * What an account pays or receives every month on a fixed day: its salary from its employer and its bills. The
 * schedule is made once per account (times in milliseconds, amounts in minor units), so the row generator only
 * walks it.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Who is on the other side of a recurring booking, and what the statement says. */
export interface Payee {
  kind: BookingKind;
  name: unknown;
  iban: unknown;
  description: string;
}

/** The recurring bookings of an account in time order: when, to or from which payee, how much (minor units). */
export interface Dues {
  payees: Payee[];
  times: number[];
  payee: number[];
  amounts: number[];
}

/** The employer's terms, the same for everyone it pays: its pay day and the hour its payroll run books. */
export function employerTerms(employerName: string): { day: number | 'last'; offset: number } {
  const hash = fnv(employerName);
  let target = (hash % 1000) / 10;
  let rule = PAY_DAYS[0];
  for (const candidate of PAY_DAYS) {
    rule = candidate;
    if ((target -= candidate.weight) < 0) break;
  }
  // Payroll runs book overnight, between midnight and six in the morning.
  return { day: rule.day, offset: ((hash >>> 10) % 360) * 60_000 };
}

interface Account {
  rng: Rng;
  start: number;
  end: number;
  /** Monthly salary in minor units (0: none) and the employer paying it. */
  salary: number;
  employer: Payee;
  employerName: string;
  /** Bills apply to current accounts; `billPayee` makes the payee of a bill (its name and IBAN). */
  bills: boolean;
  billPayee: (kind: BookingKind, description: string) => Payee;
  toMinor: (euros: number) => number;
}

/** The salaries and bills an account books within [start, end). */
export function recurringDues(account: Account): Dues {
  const { rng, start, end } = account;
  const events: { time: number; payee: number; amount: number }[] = [];
  const payees: Payee[] = [];
  const months = monthsOf(start, end);
  if (account.salary > 0) {
    payees.push(account.employer);
    const terms = employerTerms(account.employerName);
    const raisedFrom = rng.chance(PAY_RAISE.share) ? rng.int(1, Math.max(1, months.length - 1)) : months.length;
    const raised = Math.round(account.salary * (1 + rng.float(PAY_RAISE.min, PAY_RAISE.max)));
    months.forEach(([year, month], i) => {
      const time = businessDay(year, month, terms.day, -1) * DAY + terms.offset;
      if (time >= start && time < end)
        events.push({ time, payee: 0, amount: i >= raisedFrom ? raised : account.salary });
    });
  }
  if (account.bills) {
    const held = new Set<string>();
    for (const bill of BILLS) {
      if ((bill.instead_of !== undefined && held.has(bill.instead_of)) || !rng.chance(bill.share)) continue;
      held.add(bill.name);
      const kind = BOOKING_KINDS.find((candidate) => candidate.type === bill.type)!;
      const payee = payees.push(account.billPayee(kind, bill.description)) - 1;
      const day = rng.int(bill.days[0], bill.days[1]);
      // Direct debits are collected in the early morning batch, between two and seven.
      const offset = 2 * HOUR + rng.int(0, 299) * 60_000;
      const amount = account.toMinor(Math.exp(rng.normal(bill.mu, bill.sigma)));
      for (const [year, month] of months) {
        const time = businessDay(year, month, day, 1) * DAY + offset;
        if (time >= start && time < end) events.push({ time, payee, amount });
      }
    }
  }
  events.sort((a, b) => a.time - b.time || a.payee - b.payee);
  return {
    payees,
    times: events.map((event) => event.time),
    payee: events.map((event) => event.payee),
    amounts: events.map((event) => event.amount),
  };
}

/** [year, month (0-11)] of every month that [start, end) touches. */
function monthsOf(start: number, end: number): [number, number][] {
  const first = new Date(start);
  const last = new Date(end - 1);
  const months: [number, number][] = [];
  const to = last.getUTCFullYear() * 12 + last.getUTCMonth();
  for (let index = first.getUTCFullYear() * 12 + first.getUTCMonth(); index <= to; index++)
    months.push([Math.floor(index / 12), index % 12]);
  return months;
}

/**
 * The day number (days since 1970-01-01) of `day` (or the last day) of a month, clipped to the month's length
 * and moved off a weekend: back to Friday (`roll` -1, as payrolls pay) or on to Monday (+1, as debits collect).
 */
function businessDay(year: number, month: number, day: number | 'last', roll: -1 | 1): number {
  const length = Math.round((Date.UTC(year, month + 1, 1) - Date.UTC(year, month, 1)) / DAY);
  let number = Date.UTC(year, month, day === 'last' ? length : Math.min(day, length)) / DAY;
  for (let weekday = (number + 4) % 7; weekday === 0 || weekday === 6; weekday = (number + 4) % 7) number += roll;
  return number;
}

/** FNV-1a: the same employer name gives the same terms in any account, worker or run. */
function fnv(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
