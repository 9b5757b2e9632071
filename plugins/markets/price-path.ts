import { Rng } from '../../core/packs/sdk.js';

/**
 * An instrument's price path: geometric Brownian motion on business days, and each day's bar drawn
 * around it. The price bars and the trades are two per-parent tables, so each would see its own random
 * stream; the path must be the same in both (a trade lies within its day's bar), so it comes from a
 * stream of its own, seeded from the instrument's named stream (`ctx.stream('price_path')`, the same in
 * every table generated per instrument), which depends on the plan's seed: the same plan still gives the
 * same bytes and another seed another market.
 *
 * Prices are rounded to the currency's minor units before high and low are taken, so that
 * low ≤ open, close ≤ high holds for the printed values, not only for the exact ones.
 */
const TRADING_DAYS_PER_YEAR = 252;
const DAY = 86_400_000;
/** Business days between anchors: 52 weeks, so an anchor falls on the same weekday 364 days later. */
const PERIOD = 260;
const PERIOD_CALENDAR_DAYS = 364;
const ANCHOR_STREAM = 0xa4c7;
const STEP_STREAM = 0x5bd1e995;

export interface PathParameters {
  /** Stream seed: drawn from the instrument's named stream. */
  seed: number;
  reference_price: number;
  /** First business day of the path, as days since 1970-01-01. */
  first_day: number;
  annual_drift: number;
  annual_volatility: number;
  /** Price increment (10^−minor units of the currency). */
  tick: number;
  average_volume: number;
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
 * The log price is Brownian motion with drift, drawn in two layers so that a table starting decades after
 * the listing reaches its first day in a few dozen steps, not thousands: anchors every 52 weeks (each the
 * previous plus a normal increment of a year's variance), and the business days between two anchors by a
 * Brownian bridge from one to the next. Together they are exactly Brownian motion on business days.
 */
export class PricePath {
  private readonly anchors = new Rng(0, 0);
  private readonly steps = new Rng(0, 0);
  private readonly intraday = new Rng(0, 0);
  private readonly drift: number;
  private readonly sd: number;
  private period = 0;
  /** Business days into the current period. */
  private position = 0;
  private anchor: number;
  private nextAnchor: number;
  private log: number;
  private nextLog: number | null = null;
  /** The business day the path stands on, and its bar once asked for. */
  day: number;
  private bar: Bar | null = null;

  constructor(private readonly params: PathParameters) {
    this.sd = params.annual_volatility / Math.sqrt(TRADING_DAYS_PER_YEAR);
    this.drift = params.annual_drift / TRADING_DAYS_PER_YEAR - (this.sd * this.sd) / 2;
    this.anchors.reseed(params.seed, ANCHOR_STREAM);
    this.anchor = this.log = Math.log(params.reference_price);
    this.nextAnchor = this.drawAnchor();
    this.steps.reseed(params.seed ^ STEP_STREAM, 0);
    this.day = nextBusinessDay(params.first_day - 1);
  }

  /** Moves to the first business day not before `day` (never backwards), a whole period at a time where it can. */
  advanceTo(day: number): void {
    while (this.position === 0 && this.day + PERIOD_CALENDAR_DAYS <= day) {
      this.day += PERIOD_CALENDAR_DAYS;
      this.enterNextPeriod();
    }
    while (this.day < day) this.step();
  }

  /** Moves the path to the next business day: today's close becomes the previous close. */
  step(): void {
    this.log = this.peekNextLog();
    this.nextLog = null;
    this.day = nextBusinessDay(this.day);
    this.bar = null;
    if (++this.position === PERIOD) this.enterNextPeriod();
  }

  /** The day's bar: open gapped from the previous close, high and low beyond both, volume up on big moves. */
  currentBar(): Bar {
    if (this.bar) return this.bar;
    const { tick, average_volume } = this.params;
    const rng = this.intraday.reseed(this.params.seed, this.day);
    const previous = Math.exp(this.log);
    const move = this.peekNextLog() - this.log;
    const closeExact = Math.exp(this.log + move);
    const openExact = previous * Math.exp(0.3 * this.sd * rng.normal());
    const round = (value: number) => Math.max(tick, Math.round(value / tick) * tick);
    const open = round(openExact);
    const close = round(closeExact);
    const high = Math.max(
      open,
      close,
      round(Math.max(openExact, closeExact) * Math.exp(Math.abs(0.6 * this.sd * rng.normal()))),
    );
    const low = Math.min(
      open,
      close,
      round(Math.min(openExact, closeExact) * Math.exp(-Math.abs(0.6 * this.sd * rng.normal()))),
    );
    const vwap = Math.min(high, Math.max(low, round((high + low + close) / 3)));
    const surprise = Math.abs(move - this.drift) / this.sd;
    const volume = Math.max(1, Math.round(average_volume * Math.exp(0.5 * rng.normal() - 0.125) * (1 + 2 * surprise)));
    this.bar = { day: this.day, open, high, low, close, vwap, volume };
    return this.bar;
  }

  /** The next business day's log price: one step of the Brownian bridge towards the period's closing anchor. */
  private peekNextLog(): number {
    if (this.nextLog === null) {
      const left = PERIOD - this.position;
      this.nextLog =
        this.log + (this.nextAnchor - this.log) / left + this.sd * Math.sqrt((left - 1) / left) * this.steps.normal();
    }
    return this.nextLog;
  }

  private drawAnchor(): number {
    return this.anchor + this.drift * PERIOD + this.sd * Math.sqrt(PERIOD) * this.anchors.normal();
  }

  private enterNextPeriod(): void {
    this.period++;
    this.position = 0;
    this.anchor = this.log = this.nextAnchor;
    this.nextAnchor = this.drawAnchor();
    this.nextLog = null;
    this.bar = null;
    this.steps.reseed(this.params.seed ^ STEP_STREAM, this.period);
  }
}

/** The business day (Monday to Friday) after `day`. Exchange holidays are not modelled. */
function nextBusinessDay(day: number): number {
  let next = day + 1;
  const weekday = (next + 4) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  if (weekday === 6) next += 2;
  else if (weekday === 0) next += 1;
  return next;
}

export const dayOf = (date: string): number => Math.floor(Date.parse(date) / DAY);
