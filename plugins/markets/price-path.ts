import { factorLoadings, FactorPaths, Garch, Rng, type TradingCalendar } from '../../core/packs/sdk.js';
import {
  BURN_IN_DAYS,
  FACTOR_GARCH,
  IDIOSYNCRATIC_GARCH,
  MARKET_VOLATILITY,
  MAX_FACTOR_SHARE,
  SECTOR_LOADING_SPREAD,
  SECTOR_VOLATILITY,
  VOLUME_PER_MOVE,
} from './reference-data.js';

/**
 * An instrument's price path on its venue's trading days, and each day's bar drawn around it. The price bars and
 * the trades are two per-parent tables, so each would see its own random stream; the path must be the same in both
 * (a trade lies within its day's bar), so it comes from a stream of its own, seeded from the instrument's named
 * stream (`ctx.stream('price_path')`, the same in every table generated per instrument), and from factor paths
 * every instrument of the dataset shares.
 *
 * Daily log returns follow a factor model, r = drift + beta market + gamma sector + e, on every weekday; a trading
 * day's return is the sum since the venue's last trading day, so a move on a venue's holiday shows when it reopens.
 * The market and sector factors and the idiosyncratic part e are GARCH(1,1) with Student-t shocks.
 *
 * Prices are rounded to the currency's minor units before high and low are taken, so that
 * low ≤ open, close ≤ high holds for the printed values, not only for the exact ones.
 */
/** The model moves on every weekday (a venue's holiday moves show when it reopens): 260 a year. */
const WEEKDAYS_PER_YEAR = 260;
/** Blocks of 52 weeks from Monday 2000-01-03 (day 10,959): 260 weekdays each, the same for every instrument. */
const EPOCH = 10_959;
const BLOCK_CALENDAR_DAYS = 364;
const BLOCK = 260;
const ANCHOR_STREAM = 0xa4c7;
const IDIOSYNCRATIC_STREAM = 0x5bd1e995;
const LOADING_STREAM = 0x1b873593;
/** E[exp(k|Z|)] for a standard normal Z, 2 exp(k²/2) Φ(k), at k = VOLUME_PER_MOVE: keeps the mean volume. */
const VOLUME_NORMALISER = 1 / 1.4196;
const MAX_MOVE_FOR_VOLUME = 8;

const dailyVariance = (annual: number) => (annual * annual) / WEEKDAYS_PER_YEAR;
const market = new FactorPaths({
  ...FACTOR_GARCH,
  variance: dailyVariance(MARKET_VOLATILITY),
  block_length: BLOCK,
  burn_in: BURN_IN_DAYS,
});
const sectors = new FactorPaths({
  ...FACTOR_GARCH,
  variance: dailyVariance(SECTOR_VOLATILITY),
  block_length: BLOCK,
  burn_in: BURN_IN_DAYS,
});
const MARKET_SD = Math.sqrt(dailyVariance(MARKET_VOLATILITY));
const SECTOR_SD = Math.sqrt(dailyVariance(SECTOR_VOLATILITY));

export interface PathParameters {
  /** Stream seed: drawn from the instrument's named stream. */
  seed: number;
  /** Text the whole dataset shares (a key of the plan): the factor paths are drawn from it. */
  scope: string;
  /** GICS sector (its factor), or null for an ETF, which loads on the market alone. */
  sector: string | null;
  market_beta: number;
  reference_price: number;
  /** Listing day, as days since 1970-01-01: its open is near the reference price. */
  first_day: number;
  annual_drift: number;
  annual_volatility: number;
  /** Price increment (10^−minor units of the currency). */
  tick: number;
  average_volume: number;
  calendar: TradingCalendar;
}

export interface Bar {
  day: number;
  open: number;
  high: number;
  low: number;
  close: number;
  vwap: number;
  volume: number;
}

/**
 * An instrument's loadings on the market and its sector's factor, and its idiosyncratic volatility per day: the
 * sector loading is drawn around 1 from the path's seed, and both are scaled down together where the factors would
 * explain more than MAX_FACTOR_SHARE of the instrument's variance. The instruments table shows the market beta.
 */
export function loadingsOf(seed: number, annualVolatility: number, beta: number, sector: string | null) {
  const sd = Math.sqrt(dailyVariance(annualVolatility));
  const exposures = [{ loading: beta, sd: MARKET_SD }];
  if (sector !== null) {
    const gamma = 1 + SECTOR_LOADING_SPREAD * (2 * new Rng(seed, LOADING_STREAM).next() - 1);
    exposures.push({ loading: gamma, sd: SECTOR_SD });
  }
  const split = factorLoadings(sd, exposures, MAX_FACTOR_SHARE);
  return { beta: split.loadings[0], gamma: split.loadings[1] ?? 0, residualSd: split.residualSd };
}

/** The block a weekday falls in, and its place among the block's weekdays. */
const blockOf = (day: number) => Math.floor((day - EPOCH) / BLOCK_CALENDAR_DAYS);
function weekdayIndex(day: number, block: number): number {
  const offset = day - EPOCH - block * BLOCK_CALENDAR_DAYS;
  return Math.floor(offset / 7) * 5 + (offset % 7);
}

/**
 * The log price is drawn in two layers, so that a table starting decades after the listing reaches its first day in
 * a few dozen steps, not thousands: anchors at each block's start (the previous one plus the block's drift, its
 * factors' totals and a normal idiosyncratic increment), and within a block the day-by-day path, its idiosyncratic
 * part bridged to end on the next anchor by an equal shift of each day's return.
 */
export class PricePath {
  private readonly anchors = new Rng(0, 0);
  private readonly idiosyncraticRng = new Rng(0, 0);
  private readonly intraday = new Rng(0, 0);
  private readonly idiosyncratic: Garch;
  private readonly drift: number;
  private readonly sd: number;
  private readonly beta: number;
  private readonly gamma: number;
  private readonly residualSd: number;
  private readonly sectorName: string;
  /** The current block's log price after each weekday, and the day's conditional volatility. */
  private readonly logs = new Float64Array(BLOCK);
  private readonly sds = new Float64Array(BLOCK);
  private block: number;
  private anchor = 0;
  /** The trading day the path stands on, the log close before it, and its bar once asked for. */
  day: number;
  private previousLog: number;
  private bar: Bar | null = null;

  constructor(private readonly params: PathParameters) {
    this.sd = Math.sqrt(dailyVariance(params.annual_volatility));
    this.drift = params.annual_drift / WEEKDAYS_PER_YEAR - (this.sd * this.sd) / 2;
    const split = loadingsOf(params.seed, params.annual_volatility, params.market_beta, params.sector);
    this.beta = split.beta;
    this.gamma = split.gamma;
    this.residualSd = split.residualSd;
    this.sectorName = `sector ${params.sector}`;
    this.idiosyncratic = new Garch({ ...IDIOSYNCRATIC_GARCH, variance: this.residualSd * this.residualSd });
    this.day = params.calendar.onOrAfter(params.first_day);
    this.block = blockOf(this.day);
    // The listing block's anchor is what puts the close before the listing day at the reference price.
    this.drawBlock();
    const listing = weekdayIndex(this.day, this.block);
    const before = listing === 0 ? 0 : this.logs[listing - 1];
    this.shiftBlock(Math.log(params.reference_price) - before);
    this.previousLog = Math.log(params.reference_price);
  }

  /** Moves to the first trading day not before `day` (never backwards), skipping whole blocks by their anchors. */
  advanceTo(day: number): void {
    const target = this.params.calendar.onOrAfter(day);
    if (blockOf(target) > this.block + 1) {
      this.previousLog = this.logAt(this.params.calendar.previous(target));
      this.day = target;
      this.bar = null;
    }
    while (this.day < target) this.step();
  }

  /** Moves the path to the next trading day: today's close becomes the previous close. */
  step(): void {
    this.previousLog = this.logAt(this.day);
    this.day = this.params.calendar.next(this.day);
    this.bar = null;
  }

  /** The day's bar: open gapped from the previous close, high and low beyond both, volume up on big moves. */
  currentBar(): Bar {
    if (this.bar) return this.bar;
    const { tick, average_volume } = this.params;
    const rng = this.intraday.reseed(this.params.seed, this.day);
    const daySd = this.sdAt(this.day);
    const previous = Math.exp(this.previousLog);
    const move = this.logAt(this.day) - this.previousLog;
    const closeExact = previous * Math.exp(move);
    const openExact = previous * Math.exp(0.3 * daySd * rng.normal());
    const open = toTick(openExact, tick);
    const close = toTick(closeExact, tick);
    const high = Math.max(
      open,
      close,
      toTick(Math.max(openExact, closeExact) * Math.exp(Math.abs(0.6 * daySd * rng.normal())), tick),
    );
    const low = Math.min(
      open,
      close,
      toTick(Math.min(openExact, closeExact) * Math.exp(-Math.abs(0.6 * daySd * rng.normal())), tick),
    );
    const vwap = Math.min(high, Math.max(low, toTick((high + low + close) / 3, tick)));
    // Log volume rises with the size of the day's move, in units of the instrument's usual daily volatility.
    const surprise = Math.min(MAX_MOVE_FOR_VOLUME, Math.abs(move - this.drift) / this.sd);
    const volume = Math.max(
      1,
      Math.round(
        average_volume * VOLUME_NORMALISER * Math.exp(0.5 * rng.normal() - 0.125 + VOLUME_PER_MOVE * surprise),
      ),
    );
    this.bar = { day: this.day, open, high, low, close, vwap, volume };
    return this.bar;
  }

  /** The log close of a trading day of the current block or the next (which it then enters). */
  private logAt(day: number): number {
    this.enter(day);
    return this.logs[weekdayIndex(day, this.block)];
  }

  private sdAt(day: number): number {
    this.enter(day);
    return this.sds[weekdayIndex(day, this.block)];
  }

  /** Moves on to the block of `day` (never back), through the anchors of the blocks between. */
  private enter(day: number): void {
    const block = blockOf(day);
    if (block === this.block) return;
    let anchor = this.anchor;
    for (; this.block < block; this.block++) anchor = this.nextAnchor(this.block, anchor);
    this.drawBlock();
    this.shiftBlock(anchor);
  }

  /**
   * The anchor after `block`: the one before it plus the block's drift, the factors' totals over the block, and
   * the idiosyncratic part's total, drawn as a normal increment that the block's path is bridged to.
   */
  private nextAnchor(block: number, anchor: number): number {
    return anchor + this.factorTotal(block) + this.idiosyncraticTotal(block);
  }

  private factorTotal(block: number): number {
    const { scope, sector } = this.params;
    const sectorTotal = sector === null ? 0 : this.gamma * sectors.block(scope, this.sectorName, block).total;
    return this.drift * BLOCK + this.beta * market.block(scope, 'market', block).total + sectorTotal;
  }

  private idiosyncraticTotal(block: number): number {
    return this.residualSd * Math.sqrt(BLOCK) * this.anchors.reseed(this.params.seed ^ ANCHOR_STREAM, block).normal();
  }

  /**
   * Draws the current block's path as cumulative log returns from 0, its idiosyncratic part shifted so that the
   * block ends on its idiosyncratic total; `shiftBlock` then adds the anchor.
   */
  private drawBlock(): void {
    const { scope, sector } = this.params;
    const marketBlock = market.block(scope, 'market', this.block);
    const sectorBlock = sector === null ? undefined : sectors.block(scope, this.sectorName, this.block);
    const rng = this.idiosyncraticRng.reseed(this.params.seed ^ IDIOSYNCRATIC_STREAM, this.block);
    this.idiosyncratic.reset();
    this.idiosyncratic.burnIn(rng, BURN_IN_DAYS);
    let idiosyncraticSum = 0;
    for (let i = 0; i < BLOCK; i++) {
      const variance = this.idiosyncratic.variance;
      const e = this.idiosyncratic.step(rng);
      idiosyncraticSum += e;
      this.logs[i] = e;
      this.sds[i] = variance;
    }
    const shift = (this.idiosyncraticTotal(this.block) - idiosyncraticSum) / BLOCK;
    let log = 0;
    for (let i = 0; i < BLOCK; i++) {
      const m = marketBlock.returns[i];
      const s = sectorBlock ? sectorBlock.returns[i] : 0;
      log += this.drift + this.beta * m + this.gamma * s + this.logs[i] + shift;
      this.logs[i] = log;
      const ms = this.beta * marketBlock.sds[i];
      const ss = sectorBlock ? this.gamma * sectorBlock.sds[i] : 0;
      this.sds[i] = Math.sqrt(ms * ms + ss * ss + this.sds[i]);
    }
  }

  /** Adds `anchor` to the block's path, which then starts from it. */
  private shiftBlock(anchor: number): void {
    this.anchor = anchor;
    for (let i = 0; i < BLOCK; i++) this.logs[i] += anchor;
  }
}

export const dayOf = (date: string): number => Math.floor(Date.parse(date) / 86_400_000);

/** A price on the instrument's tick grid, at least one tick. */
function toTick(value: number, tick: number): number {
  return Math.max(tick, Math.round(value / tick) * tick);
}
