import { expect } from 'chai';
import fc from 'fast-check';
import pack from '../../../plugins/markets/index.js';
import { validateIsin } from '../../../core/generation/realism/isin.js';
import { helpers } from '../../../core/generation/helpers.js';
import { EXCHANGES } from '../../../plugins/markets/reference-data.js';
import { checkManifest } from '../../../core/packs/manifest.js';
import { checkPack } from '../../../core/packs/test-kit.js';
import { TradingCalendar } from '../../../core/packs/sdk.js';
import { generateTables, groupBy, minor } from '../support/rows.js';

const onTick = (value: unknown, currency: unknown) => {
  const digits = helpers.minorUnits(String(currency));
  return Math.abs(Number(value) * 10 ** digits - minor(value, digits)) < 1e-6;
};

describe('markets pack', () => {
  it('passes its manifest', () => {
    expect(checkManifest(pack)).to.deep.equal([]);
  });

  it('passes the pack test kit: types, nulls, keys, references, formats, same bytes with 1 and 4 workers', async function () {
    this.timeout(240_000);
    const report = await checkPack(new URL('../../../plugins/markets/index.ts', import.meta.url), { rows: 800 });
    expect(Object.keys(report.tables)).to.deep.equal(Object.keys(pack.tables));
  });

  it("gives every instrument a valid ISIN of its issuer's country (Ireland or Luxembourg for ETFs) and its exchange's currency", () => {
    fc.assert(
      fc.property(fc.nat(), (seed) => {
        const { instruments } = generateTables(pack, { seed, tables: [{ name: 'instruments', rows: 80 }] });
        const wrong = instruments.filter((i) => {
          const isin = String(i.isin);
          const domicile =
            i.asset_class === 'etf' ? ['IE', 'LU'].includes(isin.slice(0, 2)) : isin.slice(0, 2) === i.country;
          return (
            !validateIsin(isin) || !domicile || helpers.countryByCode.get(String(i.country))?.currency !== i.currency
          );
        });
        expect(wrong).to.deep.equal([]);
      }),
      { numRuns: 50 },
    );
  });

  it("writes consistent OHLC bars on consecutive trading days of the instrument's exchange: low ≤ open, close ≤ high, VWAP within, prices on the tick", () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 2000 }),
        (seed, instruments, bars) => {
          const { instruments: listed, price_bars: rows } = generateTables(pack, {
            seed,
            tables: [
              { name: 'instruments', rows: instruments },
              { name: 'price_bars', rows: bars },
            ],
          });
          // Each instrument has a bar on every trading day to the as-of date: the table is their runs, cut at `bars`.
          expect(rows.length).to.be.within(1, bars);
          const calendarOf = new Map(
            listed.map((i) => [
              i.instrument_id,
              new TradingCalendar(EXCHANGES.find((e) => e.mic === i.exchange)!.holidays),
            ]),
          );
          const inconsistent = rows.filter((bar) => {
            const [open, high, low, close, vwap] = [bar.open, bar.high, bar.low, bar.close, bar.vwap].map(Number);
            const ticks = [open, high, low, close, vwap].every((price) => onTick(price, bar.currency));
            return !(
              low > 0 &&
              low <= Math.min(open, close) &&
              Math.max(open, close) <= high &&
              low <= vwap &&
              vwap <= high &&
              ticks &&
              Number(bar.volume) >= 1
            );
          });
          expect(inconsistent).to.deep.equal([]);
          for (const [instrument, series] of groupBy(rows, 'instrument_id')) {
            const days = series.map((bar) => new Date(String(bar.date)));
            const calendar = calendarOf.get(instrument)!;
            // The next trading day of the exchange: weekends and its holidays skipped, no other day.
            const skipped = days
              .slice(1)
              .filter((day, i) => day.getTime() / 86_400_000 !== calendar.next(days[i].getTime() / 86_400_000));
            expect(days.filter((day) => day.getUTCDay() === 0 || day.getUTCDay() === 6)).to.deep.equal([]);
            expect(skipped).to.deep.equal([]);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("puts every trade within its day's bar, in the exchange's session, in time order", () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 20 }), (seed, instruments) => {
        const { price_bars: bars, trades } = generateTables(pack, {
          seed,
          tables: [
            { name: 'instruments', rows: instruments },
            { name: 'price_bars', rows: instruments * 40 },
            { name: 'trades', rows: instruments * 200, options: { trades_per_day: 25 } },
          ],
        });
        const barOf = new Map(bars.map((bar) => [`${bar.instrument_id} ${bar.date}`, bar]));
        const sessionOf = new Map(
          generateTables(pack, { seed, tables: [{ name: 'instruments', rows: instruments }] }).instruments.map((i) => [
            i.instrument_id,
            EXCHANGES.find((e) => e.mic === i.exchange)!,
          ]),
        );
        const outOfSession = trades.filter((trade) => {
          const time = new Date(String(trade.traded_at));
          const minute = time.getUTCHours() * 60 + time.getUTCMinutes();
          const { opens, closes } = sessionOf.get(trade.instrument_id)!;
          return !(opens <= minute && minute < closes) || String(trade.traded_at).slice(0, 10) !== trade.trade_date;
        });
        expect(outOfSession).to.deep.equal([]);
        let matched = 0;
        const outside = trades.filter((trade) => {
          const bar = barOf.get(`${trade.instrument_id} ${trade.trade_date}`);
          if (!bar) return false;
          matched++;
          return (
            !(Number(bar.low) <= Number(trade.price) && Number(trade.price) <= Number(bar.high)) ||
            !onTick(trade.price, trade.currency)
          );
        });
        expect(outside).to.deep.equal([]);
        expect(matched, 'trades fall on days that price_bars shows').to.be.greaterThan(0);
        for (const series of groupBy(trades, 'instrument_id').values()) {
          const times = series.map((trade) => String(trade.traded_at));
          expect(times).to.deep.equal([...times].sort());
        }
      }),
      { numRuns: 25 },
    );
  });

  it('walks the same path whatever day a table starts on: trades from a later start still lie within the bars of their day', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 30, max: 600 }), (seed, laterBy) => {
        const tradesStart = new Date(Date.UTC(2021, 0, 4) + laterBy * 86_400_000).toISOString().slice(0, 10);
        const { price_bars: bars, trades } = generateTables(pack, {
          seed,
          tables: [
            { name: 'instruments', rows: 3 },
            { name: 'price_bars', rows: 3 * 900, options: { start_date: '2021-01-04' } },
            { name: 'trades', rows: 300, options: { start_date: tradesStart, trades_per_day: 20 } },
          ],
        });
        const barOf = new Map(bars.map((bar) => [`${bar.instrument_id} ${bar.date}`, bar]));
        const compared = trades.filter((trade) => barOf.has(`${trade.instrument_id} ${trade.trade_date}`));
        const outside = compared.filter((trade) => {
          const bar = barOf.get(`${trade.instrument_id} ${trade.trade_date}`)!;
          return !(Number(bar.low) <= Number(trade.price) && Number(trade.price) <= Number(bar.high));
        });
        expect(outside).to.deep.equal([]);
        expect(compared.length).to.be.greaterThan(0);
      }),
      { numRuns: 25 },
    );
  });

  it("gives daily log-returns the instrument's long-run volatility (GARCH: on average, each within a band)", () => {
    const { instruments, price_bars: bars } = generateTables(pack, {
      seed: 9,
      tables: [
        { name: 'instruments', rows: 20 },
        { name: 'price_bars', rows: 40_000, options: { start_date: '2010-01-01' } },
      ],
    });
    const volatilityOf = new Map(instruments.map((i) => [i.instrument_id, Number(i.annual_volatility)]));
    const ratios: number[] = [];
    for (const [instrument, series] of groupBy(bars, 'instrument_id')) {
      if (series.length < 500 || Number(series[0].close) < 5) continue;
      const returns = series.slice(1).map((bar, i) => Math.log(Number(bar.close) / Number(series[i].close)));
      const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
      const sd = Math.sqrt(returns.reduce((a, b) => a + (b - mean) ** 2, 0) / (returns.length - 1));
      // Per year of trading days (a day after a holiday holds two weekdays' moves).
      ratios.push((sd * Math.sqrt((returns.length * 365.25) / daysSpanned(series))) / volatilityOf.get(instrument)!);
    }
    // GARCH volatility wanders for years at a time, so one instrument's realised volatility is only near its own;
    // the mean over instruments is close.
    expect(ratios.length).to.be.greaterThan(5);
    expect(ratios.reduce((a, b) => a + b, 0) / ratios.length).to.be.closeTo(1, 0.1);
    for (const ratio of ratios) expect(ratio).to.be.within(0.7, 1.3);
  });
});

function daysSpanned(series: Record<string, unknown>[]): number {
  return (Date.parse(String(series.at(-1)!.date)) - Date.parse(String(series[0].date))) / 86_400_000;
}
