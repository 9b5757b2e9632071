/**
 * The pack SDK: the only module a sector pack imports. A pack is a plain object built with `definePack`
 * (an identity function that gives it its type); the host checks it against the manifest schema when it
 * loads, compiles each table's columns, and runs the `row` generators in worker threads.
 *
 * docs/pack-author-guide.md explains every member with a complete example.
 */
import { Rng } from '../generation/random/prng.js';
import { parseInstant } from '../generation/types/parse-instant.js';
import type { ColumnDefinition, InvariantDefinition, PackDefinition } from '../generation/pack-definition.js';

export type { Row } from '../generation/types/data-type.js';
export type { Helpers } from '../generation/helpers.js';
export type {
  ColumnDefinition,
  ColumnType,
  ColumnValue,
  InvariantDefinition,
  OptionDefinition,
  PackDefinition,
  RateTarget,
  RowContext,
  RowOf,
  RowsAtRate,
  TableDefinition,
} from '../generation/pack-definition.js';
export {
  addDays,
  addMonths,
  businessDayOnOrAfter,
  businessDayOnOrBefore,
  daysBetween,
  daysInMonth,
  endOfMonth,
  isBusinessDay,
  monthlySchedule,
  monthsBetween,
  onOrBefore,
  payDay,
} from './dates.js';

/**
 * The engine's generator, for a pack that keeps streams of its own beyond `ctx.rng` and `ctx.stream`
 * (the markets pack's price path reseeds one per year of the path): `new Rng(seed, index)`.
 */
export { Rng };
export { Garch, gamma, garchKurtosis, studentT, type GarchParameters } from './garch.js';
export {
  factorLoadings,
  FactorPaths,
  type Exposure,
  type FactorBlock,
  type FactorPathOptions,
  type Loadings,
} from './factor-model.js';
export {
  dayNumberOf,
  easterSunday,
  holidaysIn,
  lunarNewYear,
  TradingCalendar,
  weekdayOf,
  yearOf,
  type HolidayRule,
  type Observance,
} from './trading-calendar.js';
export { calibrateIntercept, interceptCalibrator, logistic, logit, meanProbability } from './logistic.js';
export { peerCount, PeerPermutation, peerSeed } from './peers.js';

/** Gives a pack object its type; the host validates it against the manifest schema at load. */
export function definePack<P extends PackDefinition>(pack: P): P {
  return pack;
}

/**
 * A rule every row of a table keeps (a balance that follows its movements, a settlement after its authorisation),
 * for the table's `invariants`: the conformance report checks it on every row and names the rows that break it.
 */
export function defineInvariant(invariant: InvariantDefinition): InvariantDefinition {
  return invariant;
}

/** An instant of a row, whether a generator gave it as an ISO string or as milliseconds since the epoch. */
export function instantOf(value: unknown): number {
  return typeof value === 'number' ? value : parseInstant(String(value));
}

/**
 * Gives a table's columns their type, keeping each enum's values as literals, so that `RowOf<typeof columns>`
 * types the rows other tables look up: declare the columns beside the pack, and use them as the table's `columns`.
 */
export function defineColumns<const C extends Record<string, ColumnDefinition>>(columns: C): C {
  return columns;
}

/**
 * The day a person born on `dateOfBirth` (YYYY-MM-DD) turns `age`, as YYYY-MM-DD (1 March for a 29 February
 * birthday in a common year).
 */
export function birthday(dateOfBirth: string, age: number): string {
  // The same month and day, when the year has them, without a Date: its ISO string is a large share of a
  // holder's row, which a job makes again for every holder its child rows look up (see docs/performance.md).
  if (ISO_DATE.test(dateOfBirth)) {
    const turns = Number(dateOfBirth.slice(0, 4)) + age;
    const day = Number(dateOfBirth.slice(8, 10));
    if (
      Number.isInteger(turns) &&
      turns >= 1000 &&
      turns <= 9999 &&
      day >= 1 &&
      day <= daysInMonth(turns, Number(dateOfBirth.slice(5, 7)))
    )
      return `${turns}${dateOfBirth.slice(4, 10)}`;
  }
  const [year, month, day] = dateOfBirth.slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(year + age, month - 1, day)).toISOString().slice(0, 10);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in `month` (1-12) of `year`; 0 for a month that does not exist. */
function daysInMonth(year: number, month: number): number {
  if (month === 2 && ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0)) return 29;
  return DAYS_IN_MONTH[month] ?? 0;
}

/**
 * A date or timestamp column's value on or after `earliest` (YYYY-MM-DD), for an event that cannot come
 * before another (an account opened before its holder came of age, a card issued before the relationship
 * began): the column's own draw, repeated while it falls earlier, so that its distribution and a config's
 * override still decide it; after `tries` early draws, the start of `earliest` itself.
 */
export function drawOnOrAfter(draw: () => unknown, earliest: string, tries = 16): string {
  let value = '';
  for (let i = 0; i < tries; i++) {
    value = String(draw());
    if (value >= earliest) return value;
  }
  return value.length > earliest.length ? `${earliest}T00:00:00.000Z` : earliest;
}

export { ActivityProfile } from './activity-profile.js';
