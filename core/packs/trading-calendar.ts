/**
 * A venue's trading days: Monday to Friday less its public holidays, computed from rules (a fixed date, the nth
 * weekday of a month, a day relative to Easter or to the Lunar New Year, an equinox) rather than listed per year,
 * so that a calendar holds for any year. Days are day numbers (whole days since 1970-01-01, UTC), so a generator
 * walks them with integer arithmetic and no Date per row.
 */

/** What a holiday falling on a weekend (or on another holiday) becomes. */
export type Observance =
  /** Nothing: the day is lost when it falls on a weekend (continental Europe). */
  | 'none'
  /** Saturday to the Friday before, Sunday to the Monday after (US federal holidays). */
  | 'nearest'
  /** Sunday to the Monday after; Saturday is lost (New Year's Day at the NYSE). */
  | 'sunday-to-monday'
  /** A weekend or already-taken day to the next free weekday (UK substitute days: Boxing Day can land on Tuesday). */
  | 'next-free-weekday'
  /** Sunday to the next free weekday; Saturday is lost (Japanese substitute holidays). */
  | 'sunday-to-next-free';

interface RuleBase {
  name: string;
  observance?: Observance;
  /** First and last years the rule applies (inclusive); without them, every year. */
  from_year?: number;
  to_year?: number;
}

export type HolidayRule = RuleBase &
  (
    | { kind: 'fixed'; month: number; day: number }
    /** `nth` 1-5 counts from the month's start; -1 is the month's last such weekday. Weekday 0 is Sunday. */
    | { kind: 'nth-weekday'; month: number; weekday: number; nth: number }
    /** Days from Easter Sunday (Gregorian): -2 Good Friday, 1 Easter Monday, 39 Ascension, 50 Whit Monday. */
    | { kind: 'easter'; offset: number }
    /** The day of the March or September equinox (Japan's Vernal and Autumnal Equinox Days). */
    | { kind: 'equinox'; month: 3 | 9 }
    /** Qingming (Ching Ming), when the sun reaches 15° longitude: 4 or 5 April. */
    | { kind: 'qingming' }
    /** Days from the Lunar New Year (the first day of the Chinese lunar year): 0, 1 and 2 are its three days. */
    | { kind: 'lunar-new-year'; offset: number }
  );

const DAY_MS = 86_400_000;

/** The day number of a calendar date (month 1-12). */
export function dayNumberOf(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** 0 for Sunday to 6 for Saturday (1970-01-01, day 0, was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** The calendar year a day number falls in (Hinnant's days-to-civil, integer arithmetic only). */
export function yearOf(day: number): number {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  return yearOfEra + era * 400 + (shiftedMonth >= 10 ? 1 : 0);
}

/** Easter Sunday of a Gregorian year, as a day number (the anonymous Gregorian algorithm). */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return dayNumberOf(year, month, ((h + l - 7 * m + 114) % 31) + 1);
}

const DEGREE = Math.PI / 180;
/** Julian Ephemeris Day of 1970-01-01T00:00Z (the gap of about a minute between TT and UT is ignored). */
const UNIX_EPOCH_JD = 2_440_587.5;

/**
 * The instant of the new moon of lunation `k` (k = 0 is January 2000's), as a Julian Ephemeris Day: the mean
 * lunation and its main periodic terms (Meeus, Astronomical Algorithms, chapter 49), within minutes.
 */
function newMoon(k: number): number {
  const t = k / 1236.85;
  const e = 1 - 0.002516 * t - 0.0000074 * t * t;
  const sun = (2.5534 + 29.1053567 * k - 0.0000014 * t * t) * DEGREE;
  const moon = (201.5643 + 385.81693528 * k + 0.0107582 * t * t) * DEGREE;
  const latitude = (160.7108 + 390.67050284 * k - 0.0016118 * t * t) * DEGREE;
  const node = (124.7746 - 1.56375588 * k + 0.0020672 * t * t) * DEGREE;
  return (
    2_451_550.09766 +
    29.530588861 * k +
    0.00015437 * t * t -
    0.4072 * Math.sin(moon) +
    0.17241 * e * Math.sin(sun) +
    0.01608 * Math.sin(2 * moon) +
    0.01039 * Math.sin(2 * latitude) +
    0.00739 * e * Math.sin(moon - sun) -
    0.00514 * e * Math.sin(moon + sun) +
    0.00208 * e * e * Math.sin(2 * sun) -
    0.00111 * Math.sin(moon - 2 * latitude) -
    0.00057 * Math.sin(moon + 2 * latitude) +
    0.00056 * e * Math.sin(2 * moon + sun) -
    0.00042 * Math.sin(3 * moon) +
    0.00042 * e * Math.sin(sun + 2 * latitude) +
    0.00038 * e * Math.sin(sun - 2 * latitude) -
    0.00024 * e * Math.sin(2 * moon - sun) -
    0.00017 * Math.sin(node)
  );
}

/**
 * The Lunar New Year of a year, as a day number: the day, in China's time (UTC+8), of the first new moon from
 * 21 January on, which is the rule's outcome from 1986 to 2100 (the winter-solstice rule it stands for differs
 * in rare years outside them, such as 1985).
 */
export function lunarNewYear(year: number): number {
  const earliest = dayNumberOf(year, 1, 21);
  for (let k = Math.floor((year - 2000) * 12.3685); ; k++) {
    const day = Math.floor(newMoon(k) - UNIX_EPOCH_JD + 8 / 24);
    if (day >= earliest) return day;
  }
}

/** The day a rule names in a year, before observance; undefined when the rule does not apply that year. */
function ruleDay(rule: HolidayRule, year: number): number | undefined {
  if ((rule.from_year !== undefined && year < rule.from_year) || (rule.to_year !== undefined && year > rule.to_year))
    return undefined;
  switch (rule.kind) {
    case 'fixed':
      return dayNumberOf(year, rule.month, rule.day);
    case 'nth-weekday': {
      if (rule.nth > 0) {
        const first = dayNumberOf(year, rule.month, 1);
        return first + ((rule.weekday - weekdayOf(first) + 7) % 7) + 7 * (rule.nth - 1);
      }
      const last = dayNumberOf(year, rule.month + 1, 0);
      return last - ((weekdayOf(last) - rule.weekday + 7) % 7) + 7 * (rule.nth + 1);
    }
    case 'easter':
      return easterSunday(year) + rule.offset;
    case 'equinox': {
      // The Japanese Cabinet's formula, good from 1980 to 2099 (within a day of the astronomical equinox).
      const base = rule.month === 3 ? 20.8431 : 23.2488;
      const dayOfMonth = Math.floor(base + 0.242194 * (year - 1980) - Math.floor((year - 1980) / 4));
      return dayNumberOf(year, rule.month, dayOfMonth);
    }
    case 'qingming': {
      // The almanac formula [Y·D + C] − [Y/4] on the year's last two digits, good from 1900 to 2099.
      const y = year % 100;
      const constant = year >= 2000 ? 4.81 : 5.59;
      return dayNumberOf(year, 4, Math.floor(y * 0.2422 + constant) - Math.floor(y / 4));
    }
    case 'lunar-new-year':
      return lunarNewYear(year) + rule.offset;
  }
}

/** The day a holiday is observed on, given the holidays of the year taken so far; undefined when it is lost. */
function observed(day: number, observance: Observance, taken: ReadonlySet<number>): number | undefined {
  const weekday = weekdayOf(day);
  switch (observance) {
    case 'none':
      return weekday === 0 || weekday === 6 ? undefined : day;
    case 'nearest':
      return weekday === 6 ? day - 1 : weekday === 0 ? day + 1 : day;
    case 'sunday-to-monday':
      return weekday === 6 ? undefined : weekday === 0 ? day + 1 : day;
    case 'next-free-weekday':
    case 'sunday-to-next-free': {
      if (observance === 'sunday-to-next-free' && weekday === 6) return undefined;
      if (observance === 'sunday-to-next-free' && weekday !== 0) return day;
      let next = day;
      while (weekdayOf(next) === 0 || weekdayOf(next) === 6 || taken.has(next)) next++;
      return next;
    }
  }
}

/** The holidays a set of rules gives in a year (weekdays only: a weekend is closed anyway), in rule order. */
export function holidaysIn(rules: readonly HolidayRule[], year: number): Set<number> {
  const days = new Set<number>();
  for (const rule of rules) {
    const day = ruleDay(rule, year);
    if (day === undefined) continue;
    const moved = observed(day, rule.observance ?? 'none', days);
    if (moved !== undefined) days.add(moved);
  }
  return days;
}

/**
 * A venue's trading days from its holiday rules. Each year's holidays are computed once, when a day of that year is
 * first asked about; `isTradingDay`, `next` and `previous` then cost a weekday test and a set lookup.
 */
export class TradingCalendar {
  private readonly years = new Map<number, Set<number>>();
  private lastYear = Number.NaN;
  private lastHolidays: ReadonlySet<number> = new Set<number>();
  private lastStart = 0;
  private lastEnd = -1;

  constructor(readonly rules: readonly HolidayRule[]) {}

  /**
   * The public holidays observed in a calendar year on weekdays (the venue's closures besides weekends), with those
   * a neighbouring year's rules move into it: 1 January on a Saturday, observed on the Friday before.
   */
  holidays(year: number): ReadonlySet<number> {
    let days = this.years.get(year);
    if (!days) {
      const first = dayNumberOf(year, 1, 1);
      const last = dayNumberOf(year, 12, 31);
      days = new Set<number>();
      for (const ruleYear of [year - 1, year, year + 1])
        for (const day of holidaysIn(this.rules, ruleYear)) if (day >= first && day <= last) days.add(day);
      this.years.set(year, days);
    }
    return days;
  }

  isTradingDay(day: number): boolean {
    const weekday = weekdayOf(day);
    if (weekday === 0 || weekday === 6) return false;
    if (day < this.lastStart || day > this.lastEnd) {
      this.lastYear = yearOf(day);
      this.lastHolidays = this.holidays(this.lastYear);
      this.lastStart = dayNumberOf(this.lastYear, 1, 1);
      this.lastEnd = dayNumberOf(this.lastYear, 12, 31);
    }
    return !this.lastHolidays.has(day);
  }

  /** The first trading day after `day`. */
  next(day: number): number {
    let next = day + 1;
    while (!this.isTradingDay(next)) next++;
    return next;
  }

  /** The last trading day before `day`. */
  previous(day: number): number {
    let previous = day - 1;
    while (!this.isTradingDay(previous)) previous--;
    return previous;
  }

  /** `day` when it is a trading day, else the next one. */
  onOrAfter(day: number): number {
    return this.isTradingDay(day) ? day : this.next(day);
  }

  /** `day` when it is a trading day, else the one before. */
  onOrBefore(day: number): number {
    return this.isTradingDay(day) ? day : this.previous(day);
  }

  /** Trading days from `from` to `to`, both inclusive (0 when `to` comes first). */
  count(from: number, to: number): number {
    let days = 0;
    for (let day = from; day <= to; day++) if (this.isTradingDay(day)) days++;
    return days;
  }
}
