import {
  ActivityProfile,
  addDays,
  birthday,
  daysBetween,
  definePack,
  instantOf,
  defineInvariant,
  onOrBefore,
  type Helpers,
  type Row,
  type RowContext,
} from '../../core/packs/sdk.js';
import { cardLife, FIRST_ISSUE } from './card-lineage.js';
import { UNITS_PER_EURO } from './euro-rates.js';
import {
  FRAUD_ABROAD,
  HOME_COUNTRIES,
  episodesUnderWay,
  fraudPatterns,
  meanBurst,
  type FraudPattern,
} from './fraud-patterns.js';
import {
  AMOUNT_BY_MCC,
  DEFAULT_AMOUNT,
  HOUR_WEIGHTS,
  PRICE_POINT_CURRENCIES,
  UTC_OFFSET_MINUTES,
  WEEKDAY_WEIGHTS,
  type AmountModel,
} from './reference-data.js';

/**
 * Card payments: cardholders, their cards, merchants, and card transactions with authorisation and
 * settlement, labelled fraud included. Written with the SDK exactly as a third-party pack would be.
 */

interface TransactionOptions {
  fraud_rate: number;
  start_date: string;
  days: number;
}

/** What a card's transactions share: the card, where its holder lives, the time cursor, a fraud episode. */
interface CardState {
  currency: string;
  home: string;
  regular_merchants: number[];
  /** The time of the card's last transaction (UTC, ms); its period's start before the first. */
  clock: number;
  /** The end of the card's period: its replacement's issue, its expiry, the as-of date or the period's length. */
  end: number;
  merchants: number;
  episode: { pattern: FraudPattern; left: number } | null;
  episode_start_rate: number;
  /** What the table's rows derive from merchants, shared by every card of the table (see merchantFacts). */
  merchant_facts: MerchantFacts;
}

/**
 * What a transaction takes from its merchant: its category and how the category's amounts are drawn, its country,
 * the country's UTC offset and its currency if it has one.
 */
interface MerchantFact {
  index: number;
  mcc: unknown;
  amount: AmountModel;
  country: string;
  /** Local time minus UTC, in ms. */
  offset: number;
  currency: string | undefined;
  money: Money | undefined;
}

/** Facts of the merchants seen last, direct-mapped by index: bounded memory, and a card's merchants repeat. */
interface MerchantFacts {
  slots: (MerchantFact | undefined)[];
}

const MINUTE = 60_000;
const DAY = 86_400_000;
const MERCHANT_SEARCH = 64;
/** When cardholders pay, in the merchant's local time. */
const activity = new ActivityProfile(HOUR_WEIGHTS, WEEKDAY_WEIGHTS);
/**
 * The amount column's lognormal parameters: a category's amount takes the column's draw as a quantile (its z-score
 * under these), so that a config's override of the column moves every category's amounts the same way.
 */
const AMOUNT_MU = 3.2;
const AMOUNT_SIGMA = 1.1;
/** The quantile of a draw of 0 or less (an override's): the category's smallest amounts. */
const LOWEST_QUANTILE = -4;
const samePrices = new Set(PRICE_POINT_CURRENCIES);
/** The days before the as-of date a drawn date falls back to when the column's range lies after it. */
const FALLBACK_DAYS = 3650;

const homeCountries = Object.keys(HOME_COUNTRIES);
const merchantCountries = { ...HOME_COUNTRIES, ...Object.fromEntries(FRAUD_ABROAD.map((code) => [code, 1])) };
/** One of `items` by its weight, from one draw; `total` is their weights' sum. */
function byWeight<T extends { weight: number }>(ctx: RowContext<unknown>, items: readonly T[], total: number): T {
  let target = ctx.rng.next() * total;
  return items.find((item) => (target -= item.weight) < 0) ?? items[items.length - 1];
}

const totalWeight = (items: readonly { weight: number }[]) => items.reduce((sum, item) => sum + item.weight, 0);
const patternWeight = totalWeight(fraudPatterns);
const weightUnderWay = totalWeight(episodesUnderWay);

/**
 * The episode a card's transactions begin in the middle of, as often as a long history would have it:
 * the first row is fraud with probability r when an episode continues into it with q = (r - s) / (1 - s).
 * Otherwise every card would begin clear of fraud, and short histories would carry less than the configured rate.
 */
function episodeUnderWay(ctx: RowContext<unknown>, rate: number, startRate: number): CardState['episode'] {
  if (ctx.rng.next() >= (rate - startRate) / (1 - startRate)) return null;
  const { pattern, length } = byWeight(ctx, episodesUnderWay, weightUnderWay);
  return { pattern, left: ctx.rng.int(1, length - 1) };
}

/** The first merchant, among random ones, that fits; the last one tried when none does. */
function findMerchant(ctx: RowContext<unknown>, fits: (merchant: Row) => boolean): number {
  let index = 0;
  for (let tries = 0; tries < MERCHANT_SEARCH; tries++) {
    index = ctx.rng.int(0, ctx.rowsOf('merchants') - 1);
    if (fits(ctx.lookup('merchants', index))) return index;
  }
  return index;
}

/** The earliest birth date drawn; a birth drawn too late for the as-of date wraps back towards it. */
const BORN_FROM = '1945-01-01';

export default definePack({
  name: 'cards',
  version: '1.1.0',
  description:
    'Card payments: cardholders, cards (PAN, network, expiry), merchants (ISO 18245 MCC) ' +
    'and card transactions with authorisation, settlement and labelled fraud.',
  tables: {
    cardholders: {
      description: 'People who hold payment cards.',
      default_rows: 1000,
      credits_per_1000_rows: 1,
      columns: {
        cardholder_id: { type: 'id', prefix: 'chd', description: 'Key of the cardholder.' },
        name: { type: 'person_name', country_column: 'country', description: 'Full name.', example: 'Olivia Hughes' },
        email: {
          type: 'email',
          country_column: 'country',
          name_column: 'name',
          description: 'E-mail address.',
          example: 'olivia.hughes42@gmail.com',
        },
        phone: {
          type: 'phone',
          country_column: 'country',
          description: 'Phone number, international format.',
          nullable: true,
          null_rate: 0.05,
        },
        country: {
          type: 'country',
          codes: homeCountries,
          weights: HOME_COUNTRIES,
          description: 'Country of residence (ISO 3166-1 alpha-2).',
        },
        city: { type: 'city', country_column: 'country', description: 'City of residence.' },
        date_of_birth: { type: 'date', from: BORN_FROM, to: '2006-12-31', description: 'Date of birth.' },
        created_at: {
          type: 'timestamp',
          from: '2015-01-01T00:00:00Z',
          to: '2024-12-31T23:59:59Z',
          description: "When the customer relationship began: on or after the holder's 18th birthday.",
        },
      },
      row: (ctx) => {
        // Of age by the as-of date: a birth drawn later wraps back into the column's range before it.
        const born = onOrBefore(String(ctx.draw.date_of_birth()), BORN_FROM, birthday(ctx.asOf, -18));
        return { date_of_birth: born, created_at: drawWithin(ctx, ctx.draw.created_at, birthday(born, 18)) };
      },
    },
    cards: {
      description:
        "Payment cards, each held by one cardholder, in the currency of the holder's country; a card due to " +
        'expire is reissued (a new PAN and expiry) on the first day of its expiry month, and the new card replaces it.',
      default_rows: 1500,
      credits_per_1000_rows: 1,
      columns: {
        card_id: { type: 'id', prefix: 'card', description: 'Key of the card.' },
        cardholder_id: { type: 'reference', table: 'cardholders', description: 'The cardholder.' },
        network: { type: 'card_network', description: 'Card network.' },
        pan: {
          type: 'pan',
          network_column: 'network',
          description: "Primary account number: Luhn-valid, in the network's IIN ranges and length.",
        },
        card_type: {
          type: 'enum',
          values: ['debit', 'credit', 'prepaid'],
          weights: { debit: 62, credit: 33, prepaid: 5 },
          description: 'Debit, credit or prepaid.',
        },
        currency: { type: 'currency', description: "Billing currency (ISO 4217): the holder's country's currency." },
        credit_limit: {
          type: 'money',
          currency_column: 'currency',
          distribution: 'lognormal',
          mu: 8.1,
          sigma: 0.6,
          min: 250,
          max: 50000,
          nullable: true,
          description: 'Credit limit; null for debit and prepaid cards.',
        },
        issued_on: {
          type: 'date',
          computed: true,
          description:
            `Issue date. A first card: from ${FIRST_ISSUE.from} to ${FIRST_ISSUE.to}, on or after the day the ` +
            'relationship began and by the as-of date; a reissue: the first day of the expiry month of the card it ' +
            'replaces.',
        },
        expiry: { type: 'string', description: 'Expiry month, MM/YY: four years after issue.', example: '09/28' },
        status: {
          type: 'enum',
          values: ['active', 'blocked', 'closed'],
          weights: { active: 92, blocked: 3, closed: 5 },
          // The draw is the status of a card still in its life: a replaced or expired one is closed whatever it drew.
          draw_reshaped: true,
          description: 'Card status on the as-of date: closed once replaced by its reissue or expired.',
        },
        replaces_card_id: {
          type: 'string',
          nullable: true,
          description:
            "The key of the card this one replaces at its expiry (a reissue); null for a holder's first card.",
          example: 'card_5f0c3a9e12d4b7a0',
        },
      },
      row: (ctx) => {
        const life = cardLife(ctx, ctx.index);
        ctx.setRef('cardholder_id', life.holder);
        const holder = ctx.lookup('cardholders', life.holder);
        const type = String(ctx.draw.card_type());
        const status = ctx.draw.status();
        return {
          card_type: type,
          currency: ctx.helpers.countryByCode.get(String(holder.country))?.currency ?? 'EUR',
          issued_on: life.issued,
          expiry: life.expiry,
          credit_limit: type === 'credit' ? ctx.draw.credit_limit() : null,
          status: life.replaced || life.expiresAt <= ctx.asOfEnd ? 'closed' : status,
          replaces_card_id: life.predecessor < 0 ? null : ctx.key('cards', life.predecessor),
        };
      },
    },
    merchants: {
      description: 'Merchants that accept cards, with their ISO 18245 category.',
      default_rows: 500,
      credits_per_1000_rows: 1,
      columns: {
        merchant_id: { type: 'id', prefix: 'mer', description: 'Key of the merchant.' },
        name: { type: 'company', country_column: 'country', description: 'Trading name.' },
        mcc: { type: 'mcc', description: 'ISO 18245 merchant category code.' },
        category: {
          type: 'string',
          description: 'Description of the merchant category code.',
          example: 'Grocery Stores, Supermarkets',
        },
        country: {
          type: 'country',
          codes: Object.keys(merchantCountries),
          weights: merchantCountries,
          description: 'Country of the merchant (ISO 3166-1 alpha-2).',
        },
        city: { type: 'city', country_column: 'country', description: 'City of the merchant.' },
      },
      row: (ctx) => {
        const mcc = String(ctx.draw.mcc());
        return { mcc, category: ctx.helpers.merchantCategoryByCode.get(mcc)?.description ?? '' };
      },
    },
    transactions: {
      description:
        'Card transactions per card, in time order, busiest at midday, in the evening and on Fridays and ' +
        "Saturdays in the merchant's local time: authorisation, settlement, amounts by merchant category, " +
        'and fraud labels in bursts (card testing, spending abroad, unusual categories, odd hours).',
      default_rows: 60000,
      credits_per_1000_rows: 2,
      per_parent: 'cards',
      invariants: [
        defineInvariant({
          name: 'settled-after-authorised',
          description: 'A settled transaction settles at or after its authorisation.',
          holds: (row) => row.settled_at === null || instantOf(row.settled_at) >= instantOf(row.authorized_at),
        }),
      ],
      rate_targets: [{ option: 'fraud_rate', column: 'is_fraud', value: 'true' }],
      options: {
        fraud_rate: {
          description: 'Share of transactions that are fraudulent.',
          schema: { type: 'number', minimum: 0, maximum: 0.5 },
          default: 0.002,
        },
        start_date: {
          description:
            'First day of the period the transactions cover (YYYY-MM-DD, 1970 to 2100); a card issued later ' +
            'starts on its issue date, and its use ends when its reissue is issued, at its expiry or on the as-of ' +
            'date. A card whose use ended before the period starts (a period after the as-of date) covers the ' +
            'days before that end instead.',
          schema: { type: 'string', format: 'date', formatMinimum: '1970-01-01', formatMaximum: '2100-12-31' },
          default: '2025-01-01',
        },
        days: {
          description: 'Length of the period in days.',
          schema: { type: 'integer', minimum: 1, maximum: 3660 },
          default: 90,
        },
      },
      columns: {
        transaction_id: { type: 'id', prefix: 'txn', description: 'Key of the transaction.' },
        card_id: { type: 'reference', table: 'cards', description: 'The card used.' },
        merchant_id: { type: 'reference', table: 'merchants', description: 'The merchant.' },
        mcc: { type: 'mcc', description: "The merchant's category code (ISO 18245)." },
        merchant_country: { type: 'country', description: "The merchant's country." },
        amount: {
          type: 'money',
          currency_column: 'currency',
          distribution: 'lognormal',
          mu: 3.2,
          sigma: 1.1,
          min: 0.5,
          // Each draw is a quantile of its merchant category's amounts, converted to the currency: not the column's.
          draw_reshaped: true,
          description:
            "Amount in the transaction currency, by the merchant's category (a fast-food meal, a tank of fuel, an " +
            'airline ticket; round banknote amounts at cash machines, price points for subscriptions): drawn in ' +
            "euros and converted. An override of the column's distribution (in euros) moves every category: its " +
            'draw sets the quantile of the category amount.',
        },
        currency: {
          type: 'currency',
          description: "Transaction currency (ISO 4217): the merchant country's currency.",
        },
        entry_mode: {
          type: 'enum',
          values: ['chip', 'contactless', 'online', 'magstripe'],
          weights: { chip: 30, contactless: 45, online: 23, magstripe: 2 },
          description: 'How the card was presented.',
        },
        authorized_at: {
          type: 'timestamp',
          from: '2025-01-01T00:00:00Z',
          to: '2025-12-31T23:59:59Z',
          description: "Authorisation time (UTC); its hour and weekday follow the merchant's local time.",
        },
        status: {
          type: 'enum',
          values: ['approved', 'declined', 'reversed'],
          weights: { approved: 955, declined: 35, reversed: 10 },
          description: "The issuer's decision.",
        },
        auth_code: { type: 'code', length: 6, nullable: true, description: 'Authorisation code; null when declined.' },
        settled_at: {
          type: 'timestamp',
          from: '2025-01-01T00:00:00Z',
          to: '2025-12-31T23:59:59Z',
          nullable: true,
          description:
            'Settlement time: one to three days after authorisation; null unless approved, and while not yet ' +
            'settled on the as-of date.',
        },
        is_fraud: {
          type: 'boolean',
          // Set by the row from its fraud episode, never drawn: the table's fraud_rate option is the knob.
          computed: true,
          description:
            "Labelled fraudulent: the transaction is part of a fraud episode (the table's fraud_rate option).",
        },
        fraud_pattern: {
          type: 'enum',
          values: fraudPatterns.map((pattern) => pattern.name),
          nullable: true,
          description: 'The fraud pattern of a fraudulent transaction; null otherwise.',
        },
      },
      start: (ctx: RowContext<TransactionOptions>): CardState => {
        const card = ctx.lookup('cards', ctx.parent);
        const life = cardLife(ctx, ctx.parent);
        const home = String(ctx.lookup('cardholders', life.holder).country);
        const regular: number[] = [];
        for (let tries = 0; tries < MERCHANT_SEARCH && regular.length < 6; tries++) {
          const index = ctx.rng.int(0, ctx.rowsOf('merchants') - 1);
          if (ctx.lookup('merchants', index).country === home) regular.push(index);
        }
        // The card is in use from its issue day until its reissue is issued, it expires, or the as-of date ends.
        const usableFrom = Date.parse(life.issued);
        const usableUntil = Math.min(life.replaced ? Date.parse(life.renewal) : life.expiresAt, ctx.asOfEnd);
        const period = ctx.options.days * DAY;
        let from = Math.max(Date.parse(ctx.options.start_date), usableFrom);
        if (from >= usableUntil) from = Math.max(usableFrom, usableUntil - period);
        const rate = ctx.options.fraud_rate;
        // An episode of mean length m started with probability s per row gives a fraud share r when
        // s = r / (m(1 - r) + r).
        const startRate = rate / (meanBurst * (1 - rate) + rate);
        return {
          currency: String(card.currency),
          home,
          regular_merchants: regular,
          clock: from,
          end: Math.min(from + period, usableUntil),
          merchants: ctx.rowsOf('merchants'),
          episode: episodeUnderWay(ctx, rate, startRate),
          episode_start_rate: startRate,
          merchant_facts: merchantFactsOf(ctx),
        };
      },
      row: (ctx: RowContext<TransactionOptions>, card: CardState) => {
        const { rng, helpers } = ctx;
        if (!card.episode && rng.next() < card.episode_start_rate) {
          const pattern = byWeight(ctx, fraudPatterns, patternWeight);
          card.episode = { pattern, left: rng.int(pattern.burst[0], pattern.burst[1]) };
        }
        const episode = card.episode;
        let merchant: MerchantFact;
        // The column's draw, as a quantile of its distribution (see AMOUNT_MU); an override may draw 0 or less.
        const drawn = Number(ctx.draw.amount());
        const quantile = drawn > 0 ? (Math.log(drawn) - AMOUNT_MU) / AMOUNT_SIGMA : LOWEST_QUANTILE;
        let factor = 1;
        let status = String(ctx.draw.status());
        if (episode) {
          const { pattern } = episode;
          merchant = merchantFact(ctx, card.merchant_facts, fraudMerchant(ctx, pattern, card.home));
          // Minutes apart, yet within the card's period: a burst near its end closes in on it.
          const gap = rng.int(pattern.gap_minutes[0], pattern.gap_minutes[1]) * MINUTE;
          card.clock += Math.min(gap, (card.end - card.clock) / 2);
          factor = rng.float(pattern.amount_factor[0], pattern.amount_factor[1]);
          if (pattern.name === 'odd_hours') {
            const night = atNight(card.clock + merchant.offset, rng.next()) - merchant.offset;
            if (night < card.end) card.clock = night;
          }
          status = rng.next() < pattern.decline_rate ? 'declined' : 'approved';
          if (--episode.left === 0) card.episode = null;
        } else {
          const index =
            card.regular_merchants.length && rng.next() < 0.7
              ? rng.pick(card.regular_merchants)
              : rng.int(0, card.merchants - 1);
          merchant = merchantFact(ctx, card.merchant_facts, index);
          // The next of the card's remaining transactions in its period, as the merchant's local hours weigh them.
          const { offset } = merchant;
          card.clock = activity.firstOf(rng, card.clock + offset, card.end + offset, ctx.count - ctx.position) - offset;
        }
        ctx.setRef('merchant_id', merchant.index);
        const currency = merchant.currency ?? card.currency;
        const money = merchant.money ?? moneyOf(helpers, currency);
        const approved = status === 'approved';
        const settled = card.clock + rng.int(1, 3) * DAY + rng.int(0, 6 * 60) * MINUTE;
        return {
          mcc: merchant.mcc,
          merchant_country: merchant.country,
          amount: amountOf(merchant.amount, quantile, factor, money, rng),
          currency,
          entry_mode: episode && episode.pattern.name !== 'odd_hours' ? 'online' : ctx.draw.entry_mode(),
          authorized_at: card.clock,
          status,
          auth_code: approved ? ctx.draw.auth_code() : null,
          settled_at: approved && settled < ctx.asOfEnd ? settled : null,
          is_fraud: episode !== null,
          fraud_pattern: episode ? episode.pattern.name : null,
        };
      },
    },
  },
});

/**
 * Units per euro, minor units per unit (helpers.round's factor), the banknote step cash withdrawals are rounded to,
 * and whether price points read in the currency's own figures.
 */
interface Money {
  rate: number;
  minor: number;
  cash_step: number;
  same_prices: boolean;
}

/** Per currency, computed once each. */
const moneyByCurrency = new Map<string, Money>();

function moneyOf(helpers: Helpers, currency: string): Money {
  let money = moneyByCurrency.get(currency);
  if (!money)
    moneyByCurrency.set(
      currency,
      (money = {
        rate: UNITS_PER_EURO[currency] ?? 1,
        minor: 10 ** helpers.minorUnits(currency),
        cash_step: banknoteStep(10 * (UNITS_PER_EURO[currency] ?? 1)),
        same_prices: samePrices.has(currency),
      }),
    );
  return money;
}

/** The 1-2-5 step nearest above `units` (10 euros are 10, 380 baht 500): what cash machines pay out in. */
function banknoteStep(units: number): number {
  const power = 10 ** Math.floor(Math.log10(units));
  return (units <= power ? 1 : units <= 2 * power ? 2 : units <= 5 * power ? 5 : 10) * power;
}

/**
 * A transaction's amount in its currency: the category's median scaled by the column's quantile (or one of its
 * price points), times a fraud pattern's factor; cash in whole banknote steps.
 */
function amountOf(model: AmountModel, quantile: number, factor: number, money: Money, rng: RowContext['rng']): number {
  let units: number;
  if (model.kind === 'price_points') {
    let total = 0;
    for (const weight of model.weights) total += weight;
    let target = rng.next() * total;
    let point = model.points.length - 1;
    for (let i = 0; i < model.points.length; i++)
      if ((target -= model.weights[i]) < 0) {
        point = i;
        break;
      }
    units = model.points[point] * (money.same_prices ? 1 : money.rate) * factor;
  } else units = model.median * Math.exp(model.sigma * quantile) * money.rate * factor;
  if (model.kind === 'cash') return Math.max(money.cash_step, Math.round(units / money.cash_step) * money.cash_step);
  return Math.round(units * money.minor) / money.minor || 1 / money.minor;
}

/**
 * A timestamp column's value on or after `earliest` (YYYY-MM-DD) and before the as-of date's end: the column's own
 * draw, repeated while it falls outside, so that its distribution and a config's override still decide it; then a
 * day of the ten years from `earliest`, or before the as-of date when the draws fell after it.
 */
function drawWithin(ctx: RowContext<unknown>, draw: () => unknown, earliest: string, tries = 16): string {
  let late = false;
  for (let i = 0; i < tries; i++) {
    const value = String(draw());
    late = Date.parse(value) >= ctx.asOfEnd;
    if (value >= earliest && !late) return value;
  }
  const days = Math.min(FALLBACK_DAYS, daysBetween(earliest, ctx.asOf));
  if (days < 0) return `${ctx.asOf}T00:00:00.000Z`;
  const day = late ? addDays(ctx.asOf, -ctx.rng.int(0, days)) : addDays(earliest, ctx.rng.int(0, days));
  return `${day}T00:00:00.000Z`;
}

const MERCHANT_FACT_SLOTS = 4096;
/**
 * Per table of a plan (its context is one object for all the table's rows): the merchants of one plan, kept apart
 * from another plan's, so that a row reads its merchant's facts in one slot instead of several lookups.
 */
const merchantFactsByTable = new WeakMap<object, MerchantFacts>();

function merchantFactsOf(ctx: RowContext<unknown>): MerchantFacts {
  let facts = merchantFactsByTable.get(ctx);
  if (!facts)
    merchantFactsByTable.set(
      ctx,
      (facts = { slots: new Array<MerchantFact | undefined>(MERCHANT_FACT_SLOTS).fill(undefined) }),
    );
  return facts;
}

function merchantFact(ctx: RowContext<unknown>, facts: MerchantFacts, index: number): MerchantFact {
  const slot = index & (MERCHANT_FACT_SLOTS - 1);
  const known = facts.slots[slot];
  if (known && known.index === index) return known;
  const merchant = ctx.lookup('merchants', index);
  const country = String(merchant.country);
  const currency = ctx.helpers.countryByCode.get(country)?.currency;
  const fact = {
    index,
    mcc: merchant.mcc,
    amount: AMOUNT_BY_MCC[String(merchant.mcc)] ?? DEFAULT_AMOUNT,
    country,
    offset: (UTC_OFFSET_MINUTES[country] ?? 0) * MINUTE,
    currency,
    money: currency === undefined ? undefined : moneyOf(ctx.helpers, currency),
  };
  facts.slots[slot] = fact;
  return fact;
}

function fraudMerchant(ctx: RowContext<unknown>, pattern: FraudPattern, home: string): number {
  switch (pattern.name) {
    case 'card_testing':
      return findMerchant(ctx, (m) => m.mcc === '5815' || m.mcc === '5816');
    case 'foreign_country':
      return findMerchant(ctx, (m) => (FRAUD_ABROAD as readonly unknown[]).includes(m.country));
    case 'unusual_category':
      return findMerchant(ctx, (m) => ctx.helpers.merchantCategoryByCode.get(String(m.mcc))?.group === 'high_risk');
    case 'odd_hours':
      return findMerchant(ctx, (m) => m.country === home);
  }
}

/**
 * The first night (02:00 to 05:00, local) not before local `time`, so a card's transactions stay in time order:
 * the hours when a cardholder is asleep wherever the pack's holders live (01:00 to 05:00 UTC as well).
 */
function atNight(time: number, fraction: number): number {
  const night = time - (time % DAY) + (2 + 3 * fraction) * 60 * MINUTE;
  return night >= time ? night : night + DAY;
}
