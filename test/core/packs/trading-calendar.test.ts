import { expect } from 'chai';
import {
  dayNumberOf,
  easterSunday,
  holidaysIn,
  lunarNewYear,
  TradingCalendar,
  weekdayOf,
  yearOf,
  type HolidayRule,
} from '../../../core/packs/sdk.js';

const DAY = 86_400_000;
const day = (date: string) => Date.parse(date) / DAY;
const text = (dayNumber: number) => new Date(dayNumber * DAY).toISOString().slice(0, 10);
const holidays = (rules: readonly HolidayRule[], year: number) => [...holidaysIn(rules, year)].map(text).sort();

const US: HolidayRule[] = [
  { name: "New Year's Day", kind: 'fixed', month: 1, day: 1, observance: 'sunday-to-monday' },
  { name: 'Martin Luther King Jr. Day', kind: 'nth-weekday', month: 1, weekday: 1, nth: 3 },
  { name: 'Good Friday', kind: 'easter', offset: -2 },
  { name: 'Memorial Day', kind: 'nth-weekday', month: 5, weekday: 1, nth: -1 },
  { name: 'Juneteenth', kind: 'fixed', month: 6, day: 19, observance: 'nearest', from_year: 2022 },
  { name: 'Independence Day', kind: 'fixed', month: 7, day: 4, observance: 'nearest' },
  { name: 'Thanksgiving Day', kind: 'nth-weekday', month: 11, weekday: 4, nth: 4 },
  { name: 'Christmas Day', kind: 'fixed', month: 12, day: 25, observance: 'nearest' },
];
const UK_CHRISTMAS: HolidayRule[] = [
  { name: 'Christmas Day', kind: 'fixed', month: 12, day: 25, observance: 'next-free-weekday' },
  { name: 'Boxing Day', kind: 'fixed', month: 12, day: 26, observance: 'next-free-weekday' },
];

describe('the SDK trading calendar', () => {
  it('computes Easter Sunday by the Gregorian rule', () => {
    const easters = {
      2000: '2000-04-23',
      2019: '2019-04-21',
      2024: '2024-03-31',
      2025: '2025-04-20',
      2038: '2038-04-25',
    };
    for (const [year, date] of Object.entries(easters)) expect(text(easterSunday(Number(year)))).to.equal(date);
  });

  it('knows the year and weekday of a day number as Date does, from 1900 to 2100', () => {
    for (let d = day('1900-01-01'); d <= day('2100-12-31'); d += 31) {
      expect(yearOf(d)).to.equal(new Date(d * DAY).getUTCFullYear());
      expect(weekdayOf(d)).to.equal(new Date(d * DAY).getUTCDay());
    }
    expect(dayNumberOf(2024, 2, 29)).to.equal(day('2024-02-29'));
  });

  it('gives the NYSE holidays of 2024: nth and last weekdays, Easter, fixed dates', () => {
    expect(holidays(US, 2024)).to.deep.equal([
      '2024-01-01',
      '2024-01-15',
      '2024-03-29',
      '2024-05-27',
      '2024-06-19',
      '2024-07-04',
      '2024-11-28',
      '2024-12-25',
    ]);
  });

  it('observes a weekend holiday by its rule, and a rule only in its years', () => {
    // 2022: New Year on Saturday is lost, Juneteenth (first year) and Christmas on Sunday move to Monday.
    expect(holidays(US, 2022)).to.include.members(['2022-06-20', '2022-12-26']).and.not.include('2021-12-31');
    expect(holidays(US, 2022).filter((d) => d.startsWith('2022-01'))).to.deep.equal(['2022-01-17']);
    // 2026: Independence Day on Saturday is observed on Friday.
    expect(holidays(US, 2026)).to.include('2026-07-03');
    expect(holidays(US, 2021)).to.not.include('2021-06-18');
    // UK: Christmas on Saturday and Boxing Day on Sunday close Monday and Tuesday; on Sunday and Monday, the same.
    expect(holidays(UK_CHRISTMAS, 2021)).to.deep.equal(['2021-12-27', '2021-12-28']);
    expect(holidays(UK_CHRISTMAS, 2022)).to.deep.equal(['2022-12-26', '2022-12-27']);
  });

  it("computes Japan's equinox days and Qingming", () => {
    const rules: HolidayRule[] = [
      { name: 'Vernal Equinox Day', kind: 'equinox', month: 3 },
      { name: 'Autumnal Equinox Day', kind: 'equinox', month: 9, observance: 'sunday-to-next-free' },
      { name: 'Qingming', kind: 'qingming' },
    ];
    // 2024's autumnal equinox fell on a Sunday: the holiday was the Monday after.
    expect(holidays(rules, 2024)).to.deep.equal(['2024-03-20', '2024-04-04', '2024-09-23']);
    expect(holidays(rules, 2025)).to.deep.equal(['2025-03-20', '2025-04-04', '2025-09-23']);
    expect(holidays(rules, 2023)).to.include('2023-04-05');
  });

  it('computes the Lunar New Year from the new moons, 1990 to 2050', () => {
    const known = {
      1990: '1990-01-27',
      1996: '1996-02-19',
      2004: '2004-01-22',
      2012: '2012-01-23',
      2015: '2015-02-19',
      2020: '2020-01-25',
      2021: '2021-02-12',
      2023: '2023-01-22',
      2024: '2024-02-10',
      2025: '2025-01-29',
      2026: '2026-02-17',
      2033: '2033-01-31',
      2050: '2050-01-23',
    };
    for (const [year, date] of Object.entries(known)) expect(text(lunarNewYear(Number(year))), year).to.equal(date);
    // 2023's first day was a Sunday: Hong Kong's three days off were the 23rd to the 25th (a substitute on the 4th).
    const days = [0, 1, 2];
    const rules: HolidayRule[] = [
      ...days.map((offset): HolidayRule => ({ name: 'Lunar New Year', kind: 'lunar-new-year', offset })),
      ...days.map((offset): HolidayRule => ({
        name: 'Substitute',
        kind: 'lunar-new-year',
        offset,
        observance: 'sunday-to-next-free',
      })),
    ];
    expect(holidays(rules, 2023)).to.deep.equal(['2023-01-23', '2023-01-24', '2023-01-25']);
  });

  it('walks trading days: next and previous skip weekends and holidays; count counts them', () => {
    const calendar = new TradingCalendar(US);
    expect(text(calendar.next(day('2024-03-28')))).to.equal('2024-04-01');
    expect(text(calendar.previous(day('2024-04-01')))).to.equal('2024-03-28');
    expect(text(calendar.onOrAfter(day('2024-12-25')))).to.equal('2024-12-26');
    expect(text(calendar.onOrBefore(day('2024-12-29')))).to.equal('2024-12-27');
    expect(calendar.isTradingDay(day('2024-11-28'))).to.equal(false);
    expect(calendar.isTradingDay(day('2024-11-29'))).to.equal(true);
    // January 2024 had 23 weekdays; New Year's Day and Martin Luther King Jr. Day leave 21 sessions.
    expect(calendar.count(day('2024-01-01'), day('2024-01-31'))).to.equal(21);
    expect(calendar.count(day('2024-02-01'), day('2024-01-31'))).to.equal(0);
  });

  it("closes on a holiday another year's rule moves across New Year: 1 January 2022, a Saturday, on 31 December", () => {
    const federal = new TradingCalendar([
      { name: "New Year's Day", kind: 'fixed', month: 1, day: 1, observance: 'nearest' },
    ]);
    expect(federal.isTradingDay(day('2021-12-31'))).to.equal(false);
    expect(federal.isTradingDay(day('2021-12-30'))).to.equal(true);
    expect([...federal.holidays(2021)].map(text)).to.deep.equal(['2021-01-01', '2021-12-31']);
    expect([...federal.holidays(2022)].map(text)).to.deep.equal([]);
  });
});
