import { definePack, defineInvariant, TradingCalendar, type Row, type RowContext } from '../../core/packs/sdk.js';
import { dayOf, loadingsOf, PricePath, type Bar } from './price-path.js';
import {
  ETF_DOMICILES,
  ETF_EXPOSURES,
  ETF_PROVIDERS,
  EXCHANGES,
  GICS_SECTORS,
  PRICE_LEVEL,
  type Exchange,
} from './reference-data.js';

/**
 * Capital markets: listed instruments (shares and ETFs, with valid ISINs), their daily price bars on their
 * exchange's trading days (a factor model of GARCH returns with fat tails, volatility clustering and
 * comovement, and consistent OHLC), and trades that lie within their day's range. Nothing is dated after the
 * as-of date. Written with the SDK exactly as a third-party pack would be.
 */

interface SeriesOptions {
  start_date: string;
}

interface TradeOptions extends SeriesOptions {
  trades_per_day: number;
}

interface TradeState {
  path: PricePath;
  exchange: Exchange;
  currency: string;
  tick: number;
  /** Trading days the trades span, the days stepped so far, and the session's length in minutes. */
  days: number;
  day_index: number;
  session: number;
  /** Where the last trade fell, as a share of the span's session time, and the trades placed so far. */
  position: number;
  placed: number;
}

/** The days a per-instrument table shows: its exchange's trading days from `first` to `last`. */
interface Window {
  instrument: Row;
  calendar: TradingCalendar;
  first: number;
  last: number;
}

const DAY = 86_400_000;
const MINUTE = 60_000;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const exchangeByMic = new Map(EXCHANGES.map((exchange) => [exchange.mic, exchange]));
const calendarByMic = new Map(EXCHANGES.map((exchange) => [exchange.mic, new TradingCalendar(exchange.holidays)]));

/**
 * The trading days a per-instrument table shows: from the start date (or the listing day, when later) to the
 * as-of date, on the instrument's exchange's calendar. A start after the as-of date shows its last trading day,
 * so that every instrument has rows and a plan never walks parents in search of some.
 */
function windowOf(ctx: RowContext<SeriesOptions>): Window {
  const instrument = ctx.lookup('instruments', ctx.parent);
  const calendar = calendarByMic.get(String(instrument.exchange))!;
  const last = calendar.onOrBefore(dayOf(ctx.asOf));
  const start = Math.max(dayOf(String(instrument.listed_on)), dayOf(ctx.options.start_date));
  return { instrument, calendar, first: Math.min(calendar.onOrAfter(start), last), last };
}

/** The instrument's price path from its listing day up to `first`. */
function pathOf(ctx: RowContext<SeriesOptions>, { instrument, calendar }: Window, first: number) {
  const currency = String(instrument.currency);
  const tick = 10 ** -ctx.helpers.minorUnits(currency);
  const path = new PricePath({
    // The named stream is the instrument's in both per-instrument tables: bars and trades walk one path.
    seed: ctx.stream('price_path').u32(),
    // A key of the plan: every instrument's path draws the market and sector factors from the same streams.
    scope: ctx.key('instruments', 0),
    sector: instrument.sector === null ? null : String(instrument.sector),
    market_beta: Number(instrument.market_beta),
    reference_price: Number(instrument.reference_price),
    first_day: dayOf(String(instrument.listed_on)),
    annual_drift: Number(instrument.annual_drift),
    annual_volatility: Number(instrument.annual_volatility),
    tick,
    average_volume: Number(instrument.average_daily_volume),
    calendar,
  });
  path.advanceTo(first);
  return { path, tick };
}

/**
 * A listing day on or before the as-of date: the column's own draw (its distribution, a config's override),
 * drawn again while it falls later, then moved onto one of the exchange's trading days.
 */
function listingDay(draw: () => unknown, calendar: TradingCalendar, asOf: string): string {
  let listed = String(draw());
  for (let i = 0; i < 16 && listed > asOf; i++) listed = String(draw());
  const day = Math.min(calendar.onOrAfter(dayOf(listed)), calendar.onOrBefore(dayOf(asOf)));
  return new Date(day * DAY).toISOString().slice(0, 10);
}

const startDate = {
  description:
    'First day shown (YYYY-MM-DD, 2000 to 2100); an instrument listed later starts on its listing day, and a ' +
    'start after the as-of date shows its last trading day. Prices before it are simulated, not shown.',
  schema: { type: 'string', format: 'date', formatMinimum: '2000-01-01', formatMaximum: '2100-12-31' },
  default: '2024-01-01',
};

export default definePack({
  name: 'markets',
  version: '1.2.0',
  description:
    'Capital markets: shares and ETFs on nine exchanges (valid ISINs, MICs, trading currencies), ' +
    "daily OHLCV price bars on each exchange's trading days (GARCH returns with fat tails, volatility " +
    'clustering, market and sector comovement, volume up on large moves) with consistent OHLC, ' +
    "and trades within each day's range during the exchange's session, none after the as-of date.",
  tables: {
    instruments: {
      description: 'Listed shares and exchange-traded funds, with the parameters of their price paths.',
      default_rows: 500,
      credits_per_1000_rows: 1,
      columns: {
        instrument_id: { type: 'id', prefix: 'inst', description: 'Key of the instrument.' },
        isin: {
          type: 'isin',
          description:
            "ISIN (ISO 6166) with a valid check digit: the issuer's country for shares, " +
            'Ireland or Luxembourg for UCITS ETFs.',
          example: 'US0378331005',
        },
        ticker: {
          type: 'string',
          description: 'Ticker symbol on its exchange: letters, or four digits in Tokyo and Hong Kong.',
          example: 'KLMR',
        },
        name: { type: 'company', description: 'Issuer (shares) or fund name (ETFs).' },
        asset_class: {
          type: 'enum',
          values: ['equity', 'etf'],
          weights: { equity: 82, etf: 18 },
          description: 'Share or exchange-traded fund.',
        },
        sector: {
          type: 'string',
          values: [...GICS_SECTORS],
          nullable: true,
          description: "GICS sector of a share (its sector factor's returns move it); null for ETFs.",
          example: 'Information Technology',
        },
        exchange: {
          type: 'enum',
          values: EXCHANGES.map((e) => e.mic),
          weights: Object.fromEntries(EXCHANGES.map((e) => [e.mic, e.weight])),
          description: 'Listing exchange (ISO 10383 MIC).',
          example: 'XNYS',
        },
        country: { type: 'country', description: "The exchange's country (ISO 3166-1 alpha-2)." },
        currency: { type: 'currency', description: 'Trading currency (ISO 4217); prices tick in its minor units.' },
        listed_on: {
          type: 'date',
          from: '2005-01-03',
          to: '2023-12-29',
          business_days: true,
          description: "First trading day, one of its exchange's, on or before the as-of date.",
        },
        market_beta: {
          type: 'decimal',
          scale: 3,
          distribution: 'normal',
          mean: 1,
          sd: 0.3,
          min: 0.2,
          max: 2.5,
          // Lowered where the instrument's volatility cannot hold it.
          draw_reshaped: true,
          description:
            "Loading of the daily returns on the market factor, drawn around 1 (lower where the instrument's " +
            'volatility is too low to hold it).',
          example: 1.084,
        },
        reference_price: {
          type: 'money',
          currency_column: 'currency',
          distribution: 'lognormal',
          mu: 3.6,
          sigma: 1,
          min: 1,
          // Drawn in dollar terms, scaled to the currency.
          draw_reshaped: true,
          description:
            'Price on the listing day, the start of the price path (drawn in dollar terms, scaled to the currency).',
          example: 36.5,
        },
        annual_drift: {
          type: 'decimal',
          scale: 4,
          distribution: 'normal',
          mean: 0.07,
          sd: 0.06,
          description: 'Expected log-price growth μ per year (before the variance term).',
          example: 0.0712,
        },
        annual_volatility: {
          type: 'decimal',
          scale: 4,
          distribution: 'lognormal',
          mu: -1.27,
          sigma: 0.35,
          min: 0.06,
          max: 1.2,
          // Halved for ETFs.
          draw_reshaped: true,
          description: "Long-run volatility σ of the daily returns, per year (ETFs at half a share's).",
          example: 0.2815,
        },
        average_daily_volume: {
          type: 'integer',
          distribution: 'lognormal',
          mu: 12.5,
          sigma: 1.3,
          min: 1000,
          description: 'Typical shares traded per day.',
          example: 268000,
        },
      },
      row: (ctx) => {
        const { rng, helpers } = ctx;
        const exchange = exchangeByMic.get(String(ctx.draw.exchange()))!;
        const etf = ctx.draw.asset_class() === 'etf';
        const issuerCountry = etf ? rng.pick(ETF_DOMICILES) : exchange.country;
        const calendar = calendarByMic.get(exchange.mic)!;
        const sector = etf ? null : ctx.draw.sector();
        const annualVolatility = etf
          ? Math.round(Number(ctx.draw.annual_volatility()) * 5000) / 10_000
          : Number(ctx.draw.annual_volatility());
        // The beta the price path uses: the path scales it down the same way from the same stream.
        const pathSeed = ctx.stream('price_path').u32();
        const beta = loadingsOf(
          pathSeed,
          annualVolatility,
          Number(ctx.draw.market_beta()),
          sector === null ? null : String(sector),
        ).beta;
        return {
          isin: helpers.isin(rng, issuerCountry),
          ticker: exchange.ticker === 'digits' ? rng.digits(4) : rng.chars(LETTERS, rng.int(2, 4)),
          name: etf
            ? `${rng.pick(ETF_PROVIDERS)} ${rng.pick(ETF_EXPOSURES)}${exchange.country === 'US' ? '' : ' UCITS'} ETF`
            : ctx.draw.name(),
          asset_class: etf ? 'etf' : 'equity',
          sector,
          exchange: exchange.mic,
          country: exchange.country,
          currency: exchange.currency,
          listed_on: listingDay(ctx.draw.listed_on, calendar, ctx.asOf),
          market_beta: Math.round(beta * 1000) / 1000,
          reference_price: Number(ctx.draw.reference_price()) * (PRICE_LEVEL[exchange.currency] ?? 1),
          annual_volatility: annualVolatility,
        };
      },
    },
    price_bars: {
      description:
        "Daily OHLCV bars per instrument on each of its exchange's trading days from the start date to the " +
        'as-of date (no weekend or exchange holiday): log returns load on a market and a sector factor, with ' +
        'GARCH volatility and fat tails; low ≤ open, close ≤ high, and the VWAP lies within the range.',
      default_rows: 125_000,
      credits_per_1000_rows: 1,
      per_parent: 'instruments',
      // An instrument's bars are all its trading days in the window, so that none is dated after the as-of date.
      rows_per_parent: (ctx: RowContext<SeriesOptions>) => {
        const { calendar, first, last } = windowOf(ctx);
        return calendar.count(first, last);
      },
      invariants: [
        defineInvariant({
          name: 'ohlc-consistent',
          description: "A bar's low is at most its open and close, and its high at least both.",
          holds: (row) => {
            const [open, high, low, close] = [row.open, row.high, row.low, row.close].map(Number);
            return low <= Math.min(open, close) && Math.max(open, close) <= high;
          },
        }),
      ],
      options: { start_date: startDate },
      columns: {
        instrument_id: { type: 'reference', table: 'instruments', description: 'The instrument.' },
        date: {
          type: 'date',
          from: '2000-01-03',
          to: '2025-12-31',
          business_days: true,
          description: "Trading day of the instrument's exchange.",
        },
        open: { type: 'money', currency_column: 'currency', description: 'First price of the day.', example: 101.25 },
        high: { type: 'money', currency_column: 'currency', description: 'Highest price of the day.', example: 103.1 },
        low: { type: 'money', currency_column: 'currency', description: 'Lowest price of the day.', example: 100.4 },
        close: { type: 'money', currency_column: 'currency', description: 'Last price of the day.', example: 102.7 },
        vwap: {
          type: 'money',
          currency_column: 'currency',
          description: 'Volume-weighted average price (approximated by the typical price, within the range).',
          example: 102.07,
        },
        volume: { type: 'integer', description: 'Shares traded: higher on days with large moves.', example: 312000 },
        currency: { type: 'currency', description: 'Trading currency (ISO 4217).' },
      },
      start: (ctx: RowContext<SeriesOptions>) => {
        const window = windowOf(ctx);
        return { path: pathOf(ctx, window, window.first).path, currency: window.instrument.currency };
      },
      row: (ctx: RowContext<SeriesOptions>, series: { path: PricePath; currency: unknown }) => {
        if (ctx.position > 0) series.path.step();
        const bar = series.path.currentBar();
        return {
          date: ctx.helpers.isoDate(bar.day * DAY),
          ...prices(bar),
          volume: bar.volume,
          currency: series.currency,
        };
      },
    },
    trades: {
      description:
        "Trades per instrument in time order during the exchange's regular session on its trading days, " +
        "each at a price within that day's low and high (the same path as price_bars), none after the as-of date.",
      default_rows: 200_000,
      credits_per_1000_rows: 2,
      per_parent: 'instruments',
      options: {
        start_date: startDate,
        trades_per_day: {
          description:
            "Average trades per instrument per trading day: with the table's rows, it sets how many days the " +
            'trades span (up to the as-of date: trades that would run past it come denser).',
          schema: { type: 'number', minimum: 0.1, maximum: 100_000 },
          default: 40,
        },
      },
      columns: {
        trade_id: { type: 'id', prefix: 'trd', description: 'Key of the trade.' },
        instrument_id: { type: 'reference', table: 'instruments', description: 'The instrument traded.' },
        traded_at: {
          type: 'timestamp',
          from: '2000-01-03T00:00:00Z',
          to: '2025-12-31T23:59:59Z',
          description: "Execution time (UTC), within the exchange's regular session.",
        },
        trade_date: {
          type: 'date',
          from: '2000-01-03',
          to: '2025-12-31',
          business_days: true,
          description: "Trading day of the instrument's exchange.",
        },
        price: {
          type: 'money',
          currency_column: 'currency',
          description: "Execution price, on the currency's tick, within the day's low and high.",
          example: 102.31,
        },
        quantity: {
          type: 'integer',
          distribution: 'lognormal',
          mu: 4.6,
          sigma: 1.4,
          min: 1,
          description: 'Shares traded: heavy-tailed (many small prints, a few blocks).',
          example: 100,
        },
        notional: { type: 'money', currency_column: 'currency', description: 'Price times quantity.', example: 10231 },
        currency: { type: 'currency', description: 'Trading currency (ISO 4217).' },
        side: {
          type: 'enum',
          values: ['buy', 'sell'],
          description: 'Side of the aggressor (the order that took liquidity).',
        },
        venue: {
          type: 'string',
          description: 'Execution venue: the listing exchange (ISO 10383 MIC).',
          example: 'XNYS',
        },
      },
      start: (ctx: RowContext<TradeOptions>): TradeState => {
        const window = windowOf(ctx);
        const { calendar, instrument, first, last } = window;
        const { path, tick } = pathOf(ctx, window, first);
        const exchange = exchangeByMic.get(String(instrument.exchange))!;
        let end = first;
        for (let day = 1; day < Math.ceil(ctx.count / ctx.options.trades_per_day) && end < last; day++)
          end = calendar.next(end);
        return {
          path,
          exchange,
          currency: String(instrument.currency),
          tick,
          days: calendar.count(first, end),
          day_index: 0,
          session: exchange.closes - exchange.opens,
          position: 0,
          placed: 0,
        };
      },
      row: (ctx: RowContext<TradeOptions>, trade: TradeState) => {
        const { rng, helpers } = ctx;
        // The parent's trades are a Poisson process over the span's session time given their count: uniform
        // order statistics, drawn in order, each the least of the uniforms left (1 − U^(1/n) of what remains).
        const left = ctx.count - trade.placed++;
        trade.position += (1 - trade.position) * (1 - (1 - rng.next()) ** (1 / left));
        const at = trade.position * trade.days;
        const dayIndex = Math.min(trade.days - 1, Math.floor(at));
        const minute = Math.min(trade.session - 1e-6, (at - dayIndex) * trade.session);
        for (; trade.day_index < dayIndex; trade.day_index++) trade.path.step();
        const bar = trade.path.currentBar();
        // Prints cluster mid-range: the mean of two uniforms is triangular over [low, high].
        const exact = bar.low + ((rng.next() + rng.next()) / 2) * (bar.high - bar.low);
        const price = Math.round(exact / trade.tick) * trade.tick;
        const quantity = Number(ctx.draw.quantity());
        const time = bar.day * DAY + (trade.exchange.opens + minute) * MINUTE;
        return {
          traded_at: helpers.isoTimestamp(time),
          trade_date: helpers.isoDate(time),
          price,
          quantity,
          notional: helpers.fromMinor(helpers.toMinor(price, trade.currency) * quantity, trade.currency),
          currency: trade.currency,
          venue: trade.exchange.mic,
        };
      },
    },
  },
});

function prices(bar: Bar) {
  return { open: bar.open, high: bar.high, low: bar.low, close: bar.close, vwap: bar.vwap };
}
