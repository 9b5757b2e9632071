import { expect } from 'chai';
import {
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
} from '../../../core/packs/sdk.js';

describe('the SDK date helpers', () => {
  it('adds days across months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).to.equal('2024-02-29');
    expect(addDays('2023-02-28', 1)).to.equal('2023-03-01');
    expect(addDays('2024-12-31', 1)).to.equal('2025-01-01');
    expect(addDays('2025-01-01', -1)).to.equal('2024-12-31');
    expect(daysBetween('2024-01-01', '2025-01-01')).to.equal(366);
    expect(daysBetween('2025-01-01', '2024-01-01')).to.equal(-366);
  });

  it("adds months on the same day, or the month's last day when it is shorter", () => {
    expect(addMonths('2024-01-31', 1)).to.equal('2024-02-29');
    expect(addMonths('2023-01-31', 1)).to.equal('2023-02-28');
    expect(addMonths('2024-03-15', -3)).to.equal('2023-12-15');
    expect(addMonths('2024-11-30', 14)).to.equal('2026-01-30');
    expect(addMonths('2024-05-31', -1)).to.equal('2024-04-30');
    expect(endOfMonth('2024-02-10')).to.equal('2024-02-29');
    expect(daysInMonth(2100, 2)).to.equal(28);
    expect(daysInMonth(2000, 2)).to.equal(29);
  });

  it('keeps a schedule on its first day wherever the month has it, and counts whole months between days', () => {
    expect(monthlySchedule('2024-01-31', 4)).to.deep.equal(['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30']);
    expect(monthlySchedule('2024-01-15', 3, 3)).to.deep.equal(['2024-01-15', '2024-04-15', '2024-07-15']);
    expect(monthsBetween('2024-01-31', '2024-02-29')).to.equal(1);
    expect(monthsBetween('2024-01-15', '2024-02-14')).to.equal(0);
    expect(monthsBetween('2024-01-15', '2025-01-15')).to.equal(12);
    expect(monthsBetween('2025-01-15', '2024-01-15')).to.equal(-12);
    for (let months = 0; months < 40; months++)
      expect(monthsBetween('2023-08-31', addMonths('2023-08-31', months)), `${months}`).to.equal(months);
  });

  it('tells business days and rolls dates to them, and finds pay days', () => {
    expect(isBusinessDay('2025-05-23')).to.equal(true); // a Friday
    expect(isBusinessDay('2025-05-24')).to.equal(false);
    expect(isBusinessDay('2025-05-25')).to.equal(false);
    expect(businessDayOnOrBefore('2025-05-25')).to.equal('2025-05-23');
    expect(businessDayOnOrAfter('2025-05-24')).to.equal('2025-05-26');
    expect(businessDayOnOrAfter('2025-05-27')).to.equal('2025-05-27');
    expect(payDay('2025-05', 25)).to.equal('2025-05-23');
    expect(payDay('2025-05', 25, 'following')).to.equal('2025-05-26');
    expect(payDay('2025-08', 'last')).to.equal('2025-08-29');
    expect(payDay('2025-02', 30)).to.equal('2025-02-28');
    expect(() => payDay('2025-13', 1)).to.throw(RangeError);
    expect(() => addDays('tomorrow', 1)).to.throw(RangeError);
  });

  it('keeps a day on or before the latest, wrapping an overshoot into the window rather than piling it on the end', () => {
    expect(onOrBefore('2025-06-01', '2025-01-01', '2025-12-31')).to.equal('2025-06-01');
    expect(onOrBefore('2025-12-31', '2025-01-01', '2025-12-31')).to.equal('2025-12-31');
    // 2026-01-01 overshoots by one day past a 365-day window: the window's first day.
    expect(onOrBefore('2026-01-01', '2025-01-01', '2025-12-31')).to.equal('2025-01-01');
    expect(onOrBefore('2026-02-10', '2025-01-01', '2025-12-31')).to.equal('2025-02-10');
    expect(onOrBefore('2026-02-10', '2026-01-05', '2025-12-31')).to.equal('2025-12-31');
    // Overshoots spread evenly: a year drawn day by day past a 100-day window lands on every day of it.
    const landed = new Set<string>();
    for (let day = 0; day < 400; day++) landed.add(onOrBefore(addDays('2025-04-11', day), '2025-01-01', '2025-04-10'));
    expect(landed.size).to.equal(100);
    for (const day of landed) expect(day >= '2025-01-01' && day <= '2025-04-10', day).to.equal(true);
  });
});
