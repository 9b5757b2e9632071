import { expect } from 'chai';
import { ActivityProfile, Rng } from '../../../core/packs/sdk.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Monday 2025-03-03 00:00 (UTC as local time). */
const MONDAY = Date.UTC(2025, 2, 3);

const flatHours = Array.from({ length: 24 }, () => 1);
const flatDays = Array.from({ length: 7 }, () => 1);
/** Nothing from 00:00 to 06:00, three times as much from 12:00 to 18:00 as in the other hours. */
const dayHours = Array.from({ length: 24 }, (_, hour) => (hour < 6 ? 0 : hour >= 12 && hour < 18 ? 3 : 1));
/** Saturday twice as busy as any other day. */
const saturdayHigh = [1, 1, 1, 1, 1, 2, 1];

describe('ActivityProfile', () => {
  it('names weekdays from Monday (0) to Sunday (6), before the epoch too', () => {
    expect(ActivityProfile.weekdayOf(MONDAY)).to.equal(0);
    expect(ActivityProfile.weekdayOf(MONDAY + 5 * DAY + 23 * HOUR)).to.equal(5);
    expect(ActivityProfile.weekdayOf(Date.UTC(1970, 0, 1))).to.equal(3);
    expect(ActivityProfile.weekdayOf(Date.UTC(1969, 11, 28, 12))).to.equal(6);
  });

  it('refuses weights it cannot use', () => {
    expect(() => new ActivityProfile(flatHours.slice(1), flatDays)).to.throw(RangeError);
    expect(() => new ActivityProfile(flatHours, [...flatDays.slice(1), -1])).to.throw(RangeError);
    expect(
      () =>
        new ActivityProfile(
          flatHours.map(() => 0),
          flatDays,
        ),
    ).to.throw(RangeError);
  });

  it('scales intensities to a mean of 1 and warps time invertibly, a week of warped time per week', () => {
    const profile = new ActivityProfile(dayHours, saturdayHigh);
    expect(profile.warp(MONDAY + 7 * DAY) - profile.warp(MONDAY)).to.be.closeTo(7 * DAY, 1e-3);
    expect(profile.rateAt(MONDAY + 3 * HOUR)).to.equal(0);
    expect(profile.rateAt(MONDAY + 5 * DAY + 13 * HOUR) / profile.rateAt(MONDAY + 13 * HOUR)).to.be.closeTo(2, 1e-12);
    for (const hours of [6.5, 12.25, 30, 24 * 5 + 17.9, -100.3]) {
      const local = MONDAY + hours * HOUR;
      expect(profile.unwarp(profile.warp(local))).to.be.closeTo(local, 1e-3);
    }
  });

  it('is uniform when every weight is equal', () => {
    const profile = new ActivityProfile(flatHours, flatDays);
    for (const hours of [0, 1.5, 100, 167.99])
      expect(profile.warp(MONDAY + hours * HOUR)).to.be.closeTo(profile.warp(MONDAY) + hours * HOUR, 1e-3);
  });

  it('draws times within the window, as often in each hour as its weight says (within 5 %, 5 seeds)', () => {
    const profile = new ActivityProfile(dayHours, saturdayHigh);
    for (const seed of [1, 2, 3, 4, 5]) {
      const rng = new Rng(seed, 0);
      const perHour = new Array<number>(24).fill(0);
      const perDay = new Array<number>(7).fill(0);
      const draws = 40_000;
      let outside = 0;
      for (let i = 0; i < draws; i++) {
        const at = profile.between(rng, MONDAY, MONDAY + 7 * DAY);
        if (!(at >= MONDAY && at < MONDAY + 7 * DAY)) outside++;
        perHour[Math.floor((at - MONDAY) / HOUR) % 24]++;
        perDay[ActivityProfile.weekdayOf(at)]++;
      }
      expect(outside).to.equal(0);
      // Night hours have no weight; each afternoon hour 3, each other day hour 1: 6 x 3 + 12 x 1 = 30 in all.
      expect(perHour.slice(0, 6).reduce((a, b) => a + b)).to.equal(0);
      expect(perHour[14] / draws).to.be.closeTo(3 / 30, 0.05 * (3 / 30));
      expect(perHour[9] / draws).to.be.closeTo(1 / 30, 0.05 * (1 / 30) * 2);
      expect(perDay[5] / draws).to.be.closeTo(2 / 8, 0.05 * (2 / 8));
      expect(perDay[2] / draws).to.be.closeTo(1 / 8, 0.05 * (1 / 8));
    }
  });

  it("draws a time within a given day by that day's hours", () => {
    const profile = new ActivityProfile(dayHours, saturdayHigh);
    const rng = new Rng(7, 0);
    for (let i = 0; i < 2000; i++) {
      const at = profile.timeInDay(rng, MONDAY + 2 * DAY);
      expect(at).to.be.within(MONDAY + 2 * DAY + 6 * HOUR, MONDAY + 3 * DAY - 1);
    }
  });

  it('walks through a number of arrivals of a window in time order, all within it, as the profile spreads them', () => {
    const profile = new ActivityProfile(dayHours, flatDays);
    for (const seed of [11, 12, 13]) {
      const rng = new Rng(seed, 0);
      const from = MONDAY + 5 * HOUR;
      const to = from + 30 * DAY;
      let afternoon = 0;
      let total = 0;
      let disordered = 0;
      for (let walk = 0; walk < 400; walk++) {
        let at = from;
        for (let left = 50; left > 0; left--) {
          const next = profile.firstOf(rng, at, to, left);
          if (!(next >= at && next < to)) disordered++;
          at = next;
          const hour = Math.floor((at - MONDAY) / HOUR) % 24;
          if (hour >= 12 && hour < 18) afternoon++;
          total++;
        }
      }
      expect(disordered).to.equal(0);
      // Afternoons hold 18 of the day's 30 weight units: 60 %, within 2 points over 20,000 arrivals.
      expect(afternoon / total).to.be.closeTo(0.6, 0.02);
    }
  });

  it('is deterministic for a given Rng stream', () => {
    const profile = new ActivityProfile(dayHours, saturdayHigh);
    const draw = (seed: number) => {
      const rng = new Rng(seed, 3);
      return Array.from({ length: 20 }, () => profile.between(rng, MONDAY, MONDAY + 14 * DAY));
    };
    expect(draw(42)).to.deep.equal(draw(42));
    expect(draw(42)).to.not.deep.equal(draw(43));
  });
});
