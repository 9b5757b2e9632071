import { isoDateOfDay, isoTimestamp } from './time-format.js';
import { defineDataType } from './data-type.js';

const DAY_MS = 86_400_000;

const dateRange = {
  required: ['from', 'to'],
  properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } },
} as const;

/** Moves a weekend day to the Friday before or the Monday after (half each), keeping weekday density even. */
function toBusinessDay(day: number, towardsMonday: boolean): number {
  const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  if (weekday === 6) return towardsMonday ? day + 2 : day - 1;
  if (weekday === 0) return towardsMonday ? day + 1 : day - 2;
  return day;
}

export const date = defineDataType<{ from: string; to: string; business_days?: boolean }>({
  name: 'date',
  description:
    'A calendar date (ISO 8601, YYYY-MM-DD) between `from` and `to` inclusive; ' +
    '`business_days: true` keeps to Monday–Friday.',
  json_type: 'string',
  format: 'date',
  params: { ...dateRange, properties: { ...dateRange.properties, business_days: { type: 'boolean' } } },
  overridable: ['from', 'to', 'business_days'],
  example: '2025-03-14',
  compile: ({ from, to, business_days }) => {
    const first = Date.parse(from) / DAY_MS;
    const last = Date.parse(to) / DAY_MS;
    if (!(last >= first)) throw new Error(`date range ${from}..${to} is empty`);
    return (rng) => {
      let day = rng.int(first, last);
      if (business_days) day = Math.min(last, Math.max(first, toBusinessDay(day, rng.next() < 0.5)));
      return isoDateOfDay(day);
    };
  },
});

export const timestamp = defineDataType<{ from: string; to: string }>({
  name: 'timestamp',
  description: 'An instant (ISO 8601 in UTC, millisecond precision) uniformly between `from` and `to`.',
  json_type: 'string',
  format: 'date-time',
  params: { required: ['from', 'to'], properties: { from: { type: 'string' }, to: { type: 'string' } } },
  overridable: ['from', 'to'],
  example: '2025-03-14T09:26:53.589Z',
  compile: ({ from, to }) => {
    const start = Date.parse(from);
    const end = Date.parse(to);
    if (!(end >= start)) throw new Error(`timestamp range ${from}..${to} is empty or not ISO 8601`);
    return (rng) => isoTimestamp(start + Math.floor(rng.next() * (end - start)));
  },
});
