import { expect } from 'chai';
import pack from '../../../plugins/markets/index.js';
import { EXCHANGES } from '../../../plugins/markets/reference-data.js';
import { dayNumberOf, easterSunday, TradingCalendar } from '../../../core/packs/sdk.js';
import { generateTables, groupBy, type Rows } from '../support/rows.js';

/**
 * What makes the price bars look like a market's, held over several seeds: fat tails, volatility clustering,
 * comovement (more within a sector), exchange calendars, volume with the size of the move, and nothing after the
 * as-of date. Each seed is 40 instruments' complete bars over the default window (about 500 trading days each).
 */
const SEEDS = [1, 2, 3, 4, 5];
const INSTRUMENTS = 40;
const DAY = 86_400_000;

interface Series {
  instrument: Record<string, unknown>;
  bars: Rows;
  /** Daily log returns by date (the bar's date; the first bar has none). */
  returns: Map<string, number>;
}

interface Sample {
  instruments: Rows;
  bars: Rows;
  /** Instruments priced at 5 or more with at least 400 returns: a penny's tick would dominate their returns. */
  series: Series[];
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function correlation(xs: number[], ys: number[]): number {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

function excessKurtosis(values: number[]): number {
  const m = mean(values);
  const variance = mean(values.map((v) => (v - m) ** 2));
  return mean(values.map((v) => (v - m) ** 4)) / variance ** 2 - 3;
}

function autocorrelation(values: number[], lag: number): number {
  const m = mean(values);
  let numerator = 0;
  let denominator = 0;
  for (let i = 0; i < values.length; i++) {
    denominator += (values[i] - m) ** 2;
    if (i >= lag) numerator += (values[i] - m) * (values[i - lag] - m);
  }
  return numerator / denominator;
}

function sampleOf(seed: number): Sample {
  const { instruments, price_bars: bars } = generateTables(pack, {
    seed,
    tables: [
      { name: 'instruments', rows: INSTRUMENTS },
      { name: 'price_bars', rows: INSTRUMENTS * 600 },
    ],
  });
  const byId = new Map(instruments.map((i) => [i.instrument_id, i]));
  const series: Series[] = [];
  for (const [id, rows] of groupBy(bars, 'instrument_id')) {
    if (rows.length < 401 || Number(rows[0].close) < 5) continue;
    const returns = new Map<string, number>();
    for (let i = 1; i < rows.length; i++)
      returns.set(String(rows[i].date), Math.log(Number(rows[i].close) / Number(rows[i - 1].close)));
    series.push({ instrument: byId.get(id)!, bars: rows, returns });
  }
  return { instruments, bars, series };
}

describe('markets pack: realism', function () {
  this.timeout(120_000);
  const samples = new Map<number, Sample>();
  before(() => {
    for (const seed of SEEDS) samples.set(seed, sampleOf(seed));
  });

  it('has fat-tailed daily returns: mean excess kurtosis over instruments above 1 for every seed', () => {
    for (const seed of SEEDS) {
      const { series } = samples.get(seed)!;
      expect(series.length, `seed ${seed}`).to.be.greaterThan(20);
      const kurtosis = mean(series.map((s) => excessKurtosis([...s.returns.values()])));
      expect(kurtosis, `seed ${seed}`).to.be.greaterThan(1);
    }
  });

  it('clusters volatility: the mean autocorrelation of |r| at lags 1 to 5 is above 0.05 for every seed', () => {
    for (const seed of SEEDS) {
      const { series } = samples.get(seed)!;
      const acf = mean(
        series.map((s) => {
          const absolute = [...s.returns.values()].map(Math.abs);
          return mean([1, 2, 3, 4, 5].map((lag) => autocorrelation(absolute, lag)));
        }),
      );
      expect(acf, `seed ${seed}`).to.be.greaterThan(0.05);
    }
  });

  it('moves instruments together: mean pairwise correlation within [0.15, 0.5], higher within a sector', () => {
    for (const seed of SEEDS) {
      const { series } = samples.get(seed)!;
      const within: number[] = [];
      const across: number[] = [];
      for (let a = 0; a < series.length; a++)
        for (let b = a + 1; b < series.length; b++) {
          const xs: number[] = [];
          const ys: number[] = [];
          for (const [date, x] of series[a].returns) {
            const y = series[b].returns.get(date);
            if (y !== undefined) {
              xs.push(x);
              ys.push(y);
            }
          }
          if (xs.length < 200) continue;
          const sector = series[a].instrument.sector;
          (sector !== null && sector === series[b].instrument.sector ? within : across).push(correlation(xs, ys));
        }
      const all = mean([...within, ...across]);
      expect(all, `seed ${seed}`).to.be.within(0.15, 0.5);
      expect(within.length, `seed ${seed}`).to.be.greaterThan(5);
      expect(mean(within), `seed ${seed}`).to.be.greaterThan(mean(across));
    }
  });

  it("dates no bar on a weekend, 1 January, 25 December (but in Tokyo) or a holiday of the instrument's exchange", () => {
    const calendars = new Map(EXCHANGES.map((e) => [e.mic, new TradingCalendar(e.holidays)]));
    const goodFridays = [2024, 2025].map((year) => easterSunday(year) - 2);
    let nonUsThanksgiving = 0;
    for (const seed of SEEDS) {
      const { instruments, bars } = samples.get(seed)!;
      const exchangeOf = new Map(instruments.map((i) => [i.instrument_id, String(i.exchange)]));
      const wrong = bars.filter((bar) => {
        const date = String(bar.date);
        const day = Date.parse(date) / DAY;
        const weekday = new Date(date).getUTCDay();
        const mic = exchangeOf.get(bar.instrument_id)!;
        if (mic !== 'XNYS' && mic !== 'XNAS' && date === '2024-11-28') nonUsThanksgiving++;
        return (
          weekday === 0 ||
          weekday === 6 ||
          date.endsWith('-01-01') ||
          // Tokyo trades on Christmas Day; every other venue here closes.
          (mic !== 'XTKS' && date.endsWith('-12-25')) ||
          (mic === 'XLON' && goodFridays.includes(day)) ||
          (mic === 'XNYS' && date === '2024-11-28') ||
          calendars
            .get(mic)!
            .holidays(Number(date.slice(0, 4)))
            .has(day)
        );
      });
      expect(wrong, `seed ${seed}`).to.deep.equal([]);
    }
    // Holidays are the venue's own: US Thanksgiving is a trading day in London, Frankfurt or Tokyo.
    expect(nonUsThanksgiving).to.be.greaterThan(0);
  });

  it("raises volume with the day's move: mean corr(volume, |r|) above 0.2 for every seed", () => {
    for (const seed of SEEDS) {
      const { series } = samples.get(seed)!;
      const correlations = series.map((s) => {
        const bars = s.bars.slice(1);
        return correlation(
          bars.map((bar) => Number(bar.volume)),
          bars.map((bar) => Math.abs(s.returns.get(String(bar.date))!)),
        );
      });
      expect(mean(correlations), `seed ${seed}`).to.be.greaterThan(0.2);
    }
  });

  it('dates no instrument, bar or trade after an earlier as_of, and ends every run of bars on its last trading day', () => {
    const asOf = '2024-06-30';
    for (const seed of SEEDS.slice(0, 3)) {
      const {
        instruments,
        price_bars: bars,
        trades,
      } = generateTables(pack, {
        seed,
        as_of: asOf,
        tables: [
          { name: 'instruments', rows: 12 },
          { name: 'price_bars', rows: 12 * 2000, options: { start_date: '2020-01-01' } },
          // Few trades a day for many rows: at the asked density they would run for years past the as-of date.
          { name: 'trades', rows: 12 * 400, options: { start_date: '2024-03-01', trades_per_day: 0.5 } },
        ],
      });
      expect(instruments.filter((i) => String(i.listed_on) > asOf)).to.deep.equal([]);
      expect(bars.filter((bar) => String(bar.date) > asOf)).to.deep.equal([]);
      expect(trades.filter((trade) => String(trade.traded_at) >= '2024-07-01')).to.have.length(0);
      expect(trades.length).to.equal(12 * 400);
      const exchangeOf = new Map(instruments.map((i) => [i.instrument_id, String(i.exchange)]));
      for (const [id, rows] of groupBy(bars, 'instrument_id')) {
        const calendar = new TradingCalendar(EXCHANGES.find((e) => e.mic === exchangeOf.get(id))!.holidays);
        const lastTradingDay = calendar.onOrBefore(dayNumberOf(2024, 6, 30));
        if (rows.length === 1 + calendar.count(Date.parse(String(rows[0].date)) / DAY, lastTradingDay))
          expect(Date.parse(String(rows.at(-1)!.date)) / DAY).to.equal(lastTradingDay);
      }
    }
  });

  it('keeps bars and trades within the default as-of date from an early start and many rows', () => {
    const { price_bars: bars, trades } = generateTables(pack, {
      seed: 4,
      tables: [
        { name: 'instruments', rows: 5 },
        { name: 'price_bars', rows: 5 * 8000, options: { start_date: '2005-01-03' } },
        { name: 'trades', rows: 5 * 1000, options: { start_date: '2025-12-01', trades_per_day: 2 } },
      ],
    });
    expect(bars.filter((bar) => String(bar.date) > '2025-12-31')).to.deep.equal([]);
    expect(trades.filter((trade) => String(trade.traded_at) >= '2026-01-01')).to.deep.equal([]);
    // Runs reach the as-of date: the last bar of each is within the last week of 2025.
    const lastDays = [...groupBy(bars, 'instrument_id').values()].map((rows) => String(rows.at(-1)!.date));
    expect(lastDays.filter((day) => day < '2025-12-24')).to.deep.equal([]);
  });

  it('shows the last trading day on or before as_of for a start date after it', () => {
    const { price_bars: bars, trades } = generateTables(pack, {
      seed: 2,
      as_of: '2024-06-30',
      tables: [
        { name: 'instruments', rows: 6 },
        { name: 'price_bars', rows: 6, options: { start_date: '2030-01-01' } },
        { name: 'trades', rows: 60, options: { start_date: '2030-01-01' } },
      ],
    });
    expect(bars).to.have.length(6);
    expect(new Set(bars.map((bar) => bar.instrument_id)).size).to.equal(6);
    // 30 June 2024 was a Sunday: Friday 28 June was every exchange's last trading day.
    expect([...new Set(bars.map((bar) => bar.date))]).to.deep.equal(['2024-06-28']);
    expect([...new Set(trades.map((trade) => trade.trade_date))]).to.deep.equal(['2024-06-28']);
  });

  it("lets a config's sector column decide a share's sector (ETFs have none)", () => {
    for (const seed of SEEDS.slice(0, 3)) {
      const { instruments } = generateTables(pack, {
        seed,
        tables: [{ name: 'instruments', rows: 200, columns: { sector: { values: ['Energy'] } } }],
      });
      const sectors = new Set(instruments.filter((i) => i.asset_class === 'equity').map((i) => i.sector));
      expect([...sectors], `seed ${seed}`).to.deep.equal(['Energy']);
      expect(instruments.filter((i) => i.asset_class === 'etf' && i.sector !== null)).to.deep.equal([]);
    }
  });
});
