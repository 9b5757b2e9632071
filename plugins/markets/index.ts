import { definePack, defineInvariant, type Row, type RowContext } from '../../core/packs/sdk.js';
import { dayOf, PricePath, type Bar } from './price-path.js';
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
 * Capital markets: listed instruments (shares and ETFs, with valid ISINs), their daily price bars by
 * geometric Brownian motion with consistent OHLC, and trades that lie within their day's range. Written
 * with the SDK exactly as a third-party pack would be.
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
  /** Minutes into the current day's session, and the mean gap between trades. */
  minute: number;
  mean_gap: number;
}

const DAY = 86_400_000;
const MINUTE = 60_000;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const exchangeByMic = new Map(EXCHANGES.map((exchange) => [exchange.mic, exchange]));

/** The instrument's price path from its listing day up to the first day a table shows. */
function pathOf(ctx: RowContext<SeriesOptions>): { path: PricePath; instrument: Row; tick: number } {
  const instrument = ctx.lookup('instruments', ctx.parent);
  const currency = String(instrument.currency);
  const tick = 10 ** -ctx.helpers.minorUnits(currency);
  const listed = dayOf(String(instrument.listed_on));
  const path = new PricePath({
    // The named stream is the instrument's in both per-instrument tables: bars and trades walk one path.
    seed: ctx.stream('price_path').u32(),
    reference_price: Number(instrument.reference_price),
    first_day: listed,
    annual_drift: Number(instrument.annual_drift),
    annual_volatility: Number(instrument.annual_volatility),
    tick,
    average_volume: Number(instrument.average_daily_volume),
  });
  path.advanceTo(Math.max(listed, dayOf(ctx.options.start_date)));
  return { path, instrument, tick };
}

const startDate = {
  description:
    'First day shown (YYYY-MM-DD, 2000 to 2100); an instrument listed later starts on its listing day. ' +
    'Prices before it are simulated, not shown.',
  schema: { type: 'string', format: 'date', formatMinimum: '2000-01-01', formatMaximum: '2100-12-31' },
  default: '2024-01-01',
};

export default definePack({
  name: 'markets',
  version: '1.1.0',
  description:
    'Capital markets: shares and ETFs on nine exchanges (valid ISINs, MICs, trading currencies), ' +
    'daily OHLCV price bars by geometric Brownian motion with consistent OHLC, ' +
    "and trades within each day's range during the exchange's session.",
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
          description: 'GICS sector of a share; null for ETFs.',
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
          description: 'First trading day.',
        },
        reference_price: {
          type: 'money',
          currency_column: 'currency',
          distribution: 'lognormal',
          mu: 3.6,
          sigma: 1,
          min: 1,
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
          description: 'Drift μ of the geometric Brownian motion, per year.',
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
          description: "Volatility σ of the geometric Brownian motion, per year (ETFs at half a share's).",
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
        return {
          isin: helpers.isin(rng, issuerCountry),
          ticker: exchange.ticker === 'digits' ? rng.digits(4) : rng.chars(LETTERS, rng.int(2, 4)),
          name: etf
            ? `${rng.pick(ETF_PROVIDERS)} ${rng.pick(ETF_EXPOSURES)}${exchange.country === 'US' ? '' : ' UCITS'} ETF`
            : ctx.draw.name(),
          asset_class: etf ? 'etf' : 'equity',
          sector: etf ? null : rng.pick(GICS_SECTORS),
          exchange: exchange.mic,
          country: exchange.country,
          currency: exchange.currency,
          reference_price: Number(ctx.draw.reference_price()) * (PRICE_LEVEL[exchange.currency] ?? 1),
          annual_volatility: etf
            ? Math.round(Number(ctx.draw.annual_volatility()) * 5000) / 10_000
            : ctx.draw.annual_volatility(),
        };
      },
    },
    price_bars: {
      description:
        'Daily OHLCV bars per instrument on consecutive business days from the start date: ' +
        "closes follow geometric Brownian motion with the instrument's drift and volatility; low ≤ open, " +
        'close ≤ high, and the VWAP lies within the range.',
      default_rows: 125_000,
      credits_per_1000_rows: 1,
      per_parent: 'instruments',
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
        date: { type: 'date', from: '2000-01-03', to: '2100-12-31', business_days: true, description: 'Trading day.' },
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
      start: (ctx: RowContext<SeriesOptions>) => pathOf(ctx),
      row: (ctx: RowContext<SeriesOptions>, series: { path: PricePath; instrument: Row }) => {
        const bar = series.path.currentBar();
        series.path.step();
        return {
          date: ctx.helpers.isoDate(bar.day * DAY),
          ...prices(bar),
          volume: bar.volume,
          currency: series.instrument.currency,
        };
      },
    },
    trades: {
      description:
        "Trades per instrument in time order during the exchange's regular session, " +
        "each at a price within that day's low and high (the same path as price_bars).",
      default_rows: 200_000,
      credits_per_1000_rows: 2,
      per_parent: 'instruments',
      options: {
        start_date: startDate,
        trades_per_day: {
          description:
            "Average trades per instrument per trading day: with the table's rows, " +
            'it sets how many days the trades span.',
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
          to: '2100-12-31T23:59:59Z',
          description: "Execution time (UTC), within the exchange's regular session.",
        },
        trade_date: {
          type: 'date',
          from: '2000-01-03',
          to: '2100-12-31',
          business_days: true,
          description: 'Trading day.',
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
        const { path, instrument, tick } = pathOf(ctx);
        const exchange = exchangeByMic.get(String(instrument.exchange))!;
        const mean_gap = (exchange.closes - exchange.opens) / ctx.options.trades_per_day;
        return {
          path,
          exchange,
          currency: String(instrument.currency),
          tick,
          minute: ctx.rng.exponential(1) * mean_gap,
          mean_gap,
        };
      },
      row: (ctx: RowContext<TradeOptions>, trade: TradeState) => {
        const { rng, helpers } = ctx;
        const session = trade.exchange.closes - trade.exchange.opens;
        trade.minute += rng.exponential(1) * trade.mean_gap;
        while (trade.minute >= session) {
          trade.minute -= session;
          trade.path.step();
        }
        const bar = trade.path.currentBar();
        // Prints cluster mid-range: the mean of two uniforms is triangular over [low, high].
        const exact = bar.low + ((rng.next() + rng.next()) / 2) * (bar.high - bar.low);
        const price = Math.round(exact / trade.tick) * trade.tick;
        const quantity = Number(ctx.draw.quantity());
        const time = bar.day * DAY + (trade.exchange.opens + trade.minute) * MINUTE;
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
