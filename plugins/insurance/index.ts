import {
  birthday,
  definePack,
  defineInvariant,
  drawOnOrAfter,
  onOrBefore,
  type Rng,
  type RowContext,
} from '../../core/packs/sdk.js';
import { claimCount } from './claim-count.js';
import { expectedClaimCost } from './expected-claim-cost.js';
import {
  CLAIM_ASSUMPTIONS,
  INSURANCE_PRODUCTS,
  PERILS,
  POLICYHOLDER_COUNTRIES,
  PRICE_LEVEL,
  type InsuranceProduct,
} from './products.js';

/**
 * Non-life and life insurance: policyholders, one-year policies, premium instalments that sum to the
 * policy's premium, and claims with a loss date inside the policy period, reporting and settlement
 * delays, and heavy-tailed severity (log-normal body, Pareto tail, capped at the sum insured). Written
 * with the SDK exactly as a third-party pack would be.
 *
 * Counts per policy are the pack's (`rows_per_parent`): a policy's premium instalments are its
 * `premium_instalments`, and its claims a negative binomial count with the product's claim frequency. The
 * premiums and claims tables hold the policies' complete runs in policy order, up to the rows requested.
 *
 * A premium is the policy's expected claims cost over its product's target loss ratio, so each product's loss
 * ratio is plausible on its own. Nothing happens after the dataset's as-of date: a premium due later is
 * scheduled, a claim not yet reported by then is not in the data, and one not yet decided is open.
 */

interface PremiumOptions {
  late_payment_rate: number;
}

interface ClaimOptions {
  frequency_factor: number;
  tail_share: number;
  tail_alpha: number;
  rejection_rate: number;
}

interface PremiumState {
  currency: string;
  premium: number;
  paid: number;
  start: number;
  days: number;
}

interface ClaimState {
  product: InsuranceProduct;
  currency: string;
  scale: number;
  sum_insured: number;
  deductible: number;
  /** The policy's claims reported by the as-of date, in order of loss. */
  claims: ClaimEvent[];
}

/** A claim's loss and report instants. */
interface ClaimEvent {
  loss: number;
  reported: number;
}

const DAY = 86_400_000;
const COUNTRIES = Object.keys(POLICYHOLDER_COUNTRIES);
/** The first day of the date of birth and policy start windows: where a day drawn past the as-of date wraps to. */
const BORN_FROM = '1942-01-01';
const STARTS_FROM = '2022-01-01';
const productByName = new Map(INSURANCE_PRODUCTS.map((p) => [p.product, p]));

/** The least premium a policy is sold for, in euro terms: the cost of writing it, whatever its risk. */
const MIN_PREMIUM = 15;

/** Shape of the gamma law of claim rates between policyholders: the lower, the more over-dispersed the counts. */
const CLAIM_RATE_SHAPE = 1.5;

/** A claim's gross loss in euro terms: the log-normal body, or with probability `tail_share` a Pareto tail draw. */
function severity(rng: Rng, product: InsuranceProduct, options: ClaimOptions, sumInsured: number): number {
  if (product.severity === 'sum_insured') return sumInsured;
  const { mu, sigma, tail_from } = product.severity;
  if (rng.chance(options.tail_share)) return tail_from / (1 - rng.next()) ** (1 / options.tail_alpha);
  // The body stays below the tail's threshold, so the tail share is what the option says.
  for (;;) {
    const loss = Math.exp(rng.normal(mu, sigma));
    if (loss < tail_from) return loss;
  }
}

export default definePack({
  name: 'insurance',
  version: '1.2.0',
  description:
    'Insurance: policyholders, one-year motor, home, travel, health and life policies priced to a target loss ' +
    "ratio per product, premium instalments that add up to each policy's premium, and claims inside the policy " +
    'period with reporting and settlement delays and heavy-tailed severity (log-normal body, Pareto tail); ' +
    'premiums due after the as-of date are scheduled, and claims not reported by then are not in the data.',
  tables: {
    policyholders: {
      description: 'People who hold insurance policies.',
      default_rows: 1000,
      credits_per_1000_rows: 1,
      columns: {
        policyholder_id: { type: 'id', prefix: 'ph', description: 'Key of the policyholder.' },
        name: { type: 'person_name', country_column: 'country', description: 'Full name.', example: 'Grace Turner' },
        email: { type: 'email', country_column: 'country', name_column: 'name', description: 'E-mail address.' },
        phone: {
          type: 'phone',
          country_column: 'country',
          description: 'Phone number, international format.',
          nullable: true,
          null_rate: 0.06,
        },
        date_of_birth: {
          type: 'date',
          from: BORN_FROM,
          to: '2006-12-31',
          description: 'Date of birth: at least 18 years before the as-of date.',
        },
        country: {
          type: 'country',
          codes: COUNTRIES,
          weights: POLICYHOLDER_COUNTRIES,
          description: 'Country of residence (ISO 3166-1 alpha-2); policies are in its currency.',
          example: 'GB',
        },
        street_address: { type: 'street_address', country_column: 'country', description: 'Street address.' },
        city: { type: 'city', country_column: 'country', description: 'City.' },
        postcode: { type: 'postcode', country_column: 'country', description: 'Postal code.' },
      },
      row: (ctx) => ({
        date_of_birth: onOrBefore(String(ctx.draw.date_of_birth()), BORN_FROM, birthday(ctx.asOf, -18)),
      }),
    },
    policies: {
      description: "One-year policies, each held by one policyholder, in the policyholder's currency.",
      default_rows: 1600,
      credits_per_1000_rows: 1,
      invariants: [
        defineInvariant({
          name: 'cover-ends-after-start',
          description: "A policy's cover ends after it starts.",
          holds: (row) => String(row.end_date) > String(row.start_date),
        }),
      ],
      columns: {
        policy_id: { type: 'id', prefix: 'pol', description: 'Key of the policy.' },
        policyholder_id: { type: 'reference', table: 'policyholders', description: 'The policyholder.' },
        policy_number: {
          type: 'string',
          computed: true,
          description: 'Policy number as printed on the schedule: product code, start year, sequence.',
          example: 'MOT-2024-4821937',
        },
        product: {
          type: 'enum',
          values: INSURANCE_PRODUCTS.map((p) => p.product),
          weights: Object.fromEntries(INSURANCE_PRODUCTS.map((p) => [p.product, p.weight])),
          description: 'Line of business.',
        },
        start_date: {
          type: 'date',
          from: STARTS_FROM,
          to: '2025-06-30',
          description: "First day of cover: on or after the policyholder's 18th birthday, on or before the as-of date.",
        },
        end_date: {
          type: 'date',
          computed: true,
          description: 'Last day of cover: one year after the start, less a day.',
        },
        currency: {
          type: 'currency',
          computed: true,
          description: "Policy currency (ISO 4217): the policyholder's country's.",
        },
        sum_insured: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Most the insurer pays on one claim (for life cover, the benefit).',
          example: 250000,
        },
        deductible: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Excess: the part of each claim the policyholder bears.',
          example: 250,
        },
        annual_premium: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description:
            "Premium for the year of cover: the policy's expected claims cost (the product's claim frequency times " +
            "the expected payment on a claim, capped at the sum insured, less the deductible) over the product's " +
            'target loss ratio, spread by rating factors not modelled.',
          example: 612.4,
        },
        premium_instalments: {
          type: 'integer',
          computed: true,
          description:
            'Instalments the premium is paid in (1 annually, 2, 4 quarterly, 12 monthly), by product: ' +
            'its rows in premiums.',
          example: 12,
        },
        channel: {
          type: 'enum',
          values: ['direct', 'broker', 'aggregator', 'bancassurance'],
          weights: { direct: 35, broker: 25, aggregator: 30, bancassurance: 10 },
          description: 'How the policy was sold.',
        },
      },
      row: (ctx) => {
        const { rng, helpers } = ctx;
        const holder = ctx.lookup('policyholders', ctx.ref('policyholder_id'));
        const product = productByName.get(String(ctx.draw.product()))!;
        const currency = helpers.countryByCode.get(String(holder.country))?.currency ?? 'EUR';
        const scale = PRICE_LEVEL[currency] ?? 1;
        // On or after the 18th birthday, and a day drawn past the as-of date wraps back into the window before it
        // (which starts at the birthday when the window's first day is later than the as-of date).
        const adult = birthday(String(holder.date_of_birth), 18);
        const earliest = adult > STARTS_FROM || STARTS_FROM > ctx.asOf ? adult : STARTS_FROM;
        const start = onOrBefore(drawOnOrAfter(ctx.draw.start_date, adult), earliest, ctx.asOf);
        const end =
          Date.UTC(Number(start.slice(0, 4)) + 1, Number(start.slice(5, 7)) - 1, Number(start.slice(8, 10))) - DAY;
        const sumInsured =
          Math.round((Math.exp(rng.normal(product.sum_insured.mu, product.sum_insured.sigma)) * scale) / 500) * 500;
        const deductible = rng.pick(product.deductible) * scale;
        const spread = product.premium_spread;
        // A mean-one spread: premiums vary by what the pack does not model, yet add up to the expected cost.
        const premium =
          ((expectedClaimCost(product, sumInsured / scale, deductible / scale) * scale) / product.target_loss_ratio) *
          Math.exp(rng.normal(-(spread * spread) / 2, spread));
        return {
          policy_number: `${product.product.slice(0, 3).toUpperCase()}-${start.slice(0, 4)}-${rng.digits(7)}`,
          product: product.product,
          start_date: start,
          end_date: helpers.isoDate(end),
          currency,
          sum_insured: helpers.round(sumInsured, currency),
          deductible: helpers.round(deductible, currency),
          annual_premium: helpers.round(Math.max(MIN_PREMIUM * scale, premium), currency),
          premium_instalments: Number(helpers.weightedPick(rng, product.instalments)),
        };
      },
    },
    premiums: {
      description:
        'Premium instalments per policy (its premium_instalments), due at even intervals over the policy year from ' +
        "its first day; a policy's instalments add up to its annual premium exactly (the last absorbs the " +
        'rounding); one due after the as-of date is scheduled. Policies come in order with all their instalments, ' +
        'up to the rows requested.',
      default_rows: 9600,
      credits_per_1000_rows: 1,
      per_parent: 'policies',
      options: {
        late_payment_rate: {
          description: 'Share of instalments paid after their due date.',
          schema: { type: 'number', minimum: 0, maximum: 1 },
          default: 0.04,
        },
      },
      columns: {
        premium_id: { type: 'id', prefix: 'prm', description: 'Key of the instalment.' },
        policy_id: { type: 'reference', table: 'policies', description: 'The policy.' },
        instalment_number: {
          type: 'integer',
          computed: true,
          description: 'Position of the instalment, from 1.',
          example: 1,
        },
        instalments: {
          type: 'integer',
          computed: true,
          description:
            'How many instalments the policy pays its premium in (its premium_instalments: 1 = annually, ' +
            '12 = monthly).',
          example: 12,
        },
        due_date: { type: 'date', computed: true, description: 'Due date, within the policy period.' },
        amount: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Amount due: the annual premium divided by the instalments.',
          example: 51.03,
        },
        currency: { type: 'currency', computed: true, description: 'Policy currency (ISO 4217).' },
        status: {
          type: 'enum',
          values: ['paid', 'paid_late', 'overdue', 'scheduled'],
          computed: true,
          description:
            'Paid by the due date, paid late, overdue (due, and not paid on the as-of date), or scheduled ' +
            '(due after the as-of date).',
        },
        paid_on: {
          type: 'date',
          computed: true,
          nullable: true,
          description: 'Date the payment arrived (on or before the as-of date); null when overdue or scheduled.',
        },
        days_late: {
          type: 'integer',
          computed: true,
          description:
            'Days between the due date and the payment (0 when on time or scheduled); when overdue, the days from ' +
            'the due date to the as-of date.',
          example: 0,
        },
      },
      rows_per_parent: (ctx) => Number(ctx.lookup('policies', ctx.parent).premium_instalments),
      start: (ctx: RowContext<PremiumOptions>): PremiumState => {
        const policy = ctx.lookup('policies', ctx.parent);
        const currency = String(policy.currency);
        const start = Date.parse(String(policy.start_date));
        return {
          currency,
          premium: ctx.helpers.toMinor(Number(policy.annual_premium), currency),
          paid: 0,
          start,
          days: (Date.parse(String(policy.end_date)) - start) / DAY + 1,
        };
      },
      row: (ctx: RowContext<PremiumOptions>, policy: PremiumState) => {
        const { rng, helpers, position, count } = ctx;
        const amount = position === count - 1 ? policy.premium - policy.paid : Math.floor(policy.premium / count);
        policy.paid += amount;
        const due = policy.start + Math.floor((position * policy.days) / count) * DAY;
        const late = rng.chance(ctx.options.late_payment_rate) ? 1 + Math.floor(rng.exponential(1 / 9)) : 0;
        const arrives = due + (late || -rng.int(0, 2)) * DAY;
        // Due after the as-of date: scheduled; due by then but arriving after it: overdue on the as-of date.
        const status =
          due >= ctx.asOfEnd ? 'scheduled' : arrives >= ctx.asOfEnd ? 'overdue' : late ? 'paid_late' : 'paid';
        return {
          instalment_number: position + 1,
          instalments: count,
          due_date: helpers.isoDate(due),
          amount: helpers.fromMinor(amount, policy.currency),
          currency: policy.currency,
          status,
          paid_on: status === 'paid' || status === 'paid_late' ? helpers.isoDate(arrives) : null,
          days_late: status === 'scheduled' ? 0 : status === 'overdue' ? (ctx.asOfEnd - DAY - due) / DAY : late,
        };
      },
    },
    claims: {
      description:
        "Claims per policy, in order of loss: as many as a negative binomial count with the product's claim " +
        'frequency gives the policy (most have none), the loss inside the policy period, ' +
        'reported and settled after it, with heavy-tailed severity (log-normal body, Pareto tail) ' +
        'net of the deductible and capped at the sum insured. Only the claims reported by the as-of date are in ' +
        'the data, and one not yet settled or rejected by then is open. Policies come in order with all their ' +
        'claims, up to the rows requested.',
      default_rows: 220,
      credits_per_1000_rows: 3,
      per_parent: 'policies',
      options: {
        frequency_factor: {
          description:
            "Multiplies every product's claim frequency (claims per policy-year: motor 0.12, home 0.08, " +
            'travel 0.06, health 0.9, life 0.004).',
          schema: { type: 'number', minimum: 0, maximum: 20 },
          default: 1,
        },
        tail_share: {
          description:
            'Share of claims drawn from the Pareto tail (large losses). Premiums are priced for the default.',
          schema: { type: 'number', minimum: 0, maximum: 1 },
          default: CLAIM_ASSUMPTIONS.tail_share,
        },
        tail_alpha: {
          description: 'Pareto shape of the tail: the lower, the heavier (below 2 the variance is infinite).',
          schema: { type: 'number', minimum: 0.5, maximum: 10 },
          default: CLAIM_ASSUMPTIONS.tail_alpha,
        },
        rejection_rate: {
          description: 'Share of claims the insurer rejects.',
          schema: { type: 'number', minimum: 0, maximum: 1 },
          default: CLAIM_ASSUMPTIONS.rejection_rate,
        },
      },
      columns: {
        claim_id: { type: 'id', prefix: 'clm', description: 'Key of the claim.' },
        policy_id: { type: 'reference', table: 'policies', description: 'The policy claimed on.' },
        claim_number: {
          type: 'integer',
          computed: true,
          description: "Position of the claim among the policy's, from 1.",
          example: 1,
        },
        peril: {
          type: 'enum',
          values: PERILS,
          computed: true,
          description: "What caused the loss (the product's perils).",
        },
        loss_date: { type: 'date', computed: true, description: 'Date of the loss: within the policy period.' },
        reported_date: {
          type: 'date',
          computed: true,
          description:
            'Date the claim was reported: on or after the loss (possibly after the policy ended), on or before the ' +
            'as-of date.',
        },
        status: {
          type: 'enum',
          values: ['open', 'settled', 'rejected'],
          computed: true,
          description: 'Settled (paid), rejected, or open: neither yet on the as-of date.',
        },
        settled_date: {
          type: 'date',
          computed: true,
          nullable: true,
          description: 'Date the claim was settled or rejected (on or before the as-of date); null while open.',
        },
        currency: { type: 'currency', computed: true, description: 'Policy currency (ISO 4217).' },
        incurred_amount: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Gross loss: heavy-tailed, capped at the sum insured.',
          example: 1840.5,
        },
        paid_amount: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Paid: the incurred amount less the deductible for a settled claim; 0 when open or rejected.',
          example: 1590.5,
        },
      },
      // The claims are those reported by the as-of date: the count and the start draw them from the same stream.
      rows_per_parent: (ctx: RowContext<ClaimOptions>) => reportedClaims(ctx).length,
      start: (ctx: RowContext<ClaimOptions>): ClaimState => {
        const policy = ctx.lookup('policies', ctx.parent);
        const currency = String(policy.currency);
        return {
          product: productByName.get(String(policy.product))!,
          currency,
          scale: PRICE_LEVEL[currency] ?? 1,
          sum_insured: Number(policy.sum_insured),
          deductible: ctx.helpers.toMinor(Number(policy.deductible), currency),
          claims: reportedClaims(ctx).sort((a, b) => a.loss - b.loss),
        };
      },
      row: (ctx: RowContext<ClaimOptions>, policy: ClaimState) => {
        const { rng, helpers, options } = ctx;
        const { product, currency } = policy;
        const { loss, reported } = policy.claims[ctx.position];
        const incurred = helpers.toMinor(
          Math.min(
            policy.sum_insured,
            severity(rng, product, options, policy.sum_insured / policy.scale) * policy.scale,
          ),
          currency,
        );
        const rejected = rng.chance(options.rejection_rate);
        const decided = reported + Math.ceil(rng.exponential(1) * product.settlement_days) * DAY;
        const status = decided >= ctx.asOfEnd ? 'open' : rejected ? 'rejected' : 'settled';
        return {
          claim_number: ctx.position + 1,
          peril: helpers.weightedPick(rng, product.perils),
          loss_date: helpers.isoDate(loss),
          reported_date: helpers.isoDate(reported),
          status,
          settled_date: status === 'open' ? null : helpers.isoDate(decided),
          currency,
          incurred_amount: helpers.fromMinor(incurred, currency),
          paid_amount: helpers.fromMinor(
            status === 'settled' ? Math.max(0, incurred - policy.deductible) : 0,
            currency,
          ),
        };
      },
    },
  },
});

/**
 * A policy's claims reported by the as-of date, from its own stream (`claims`), so that its count and its rows
 * agree: a negative binomial count with the product's frequency, each loss uniform over the policy period and
 * reported an exponential delay later (whole days).
 */
function reportedClaims(ctx: RowContext<ClaimOptions>): ClaimEvent[] {
  const policy = ctx.lookup('policies', ctx.parent);
  const product = productByName.get(String(policy.product))!;
  const rng = ctx.stream('claims');
  const count = claimCount(rng, product.claim_frequency * ctx.options.frequency_factor, CLAIM_RATE_SHAPE);
  if (count === 0) return NO_CLAIMS;
  const start = Date.parse(String(policy.start_date));
  const span = Date.parse(String(policy.end_date)) + DAY - start;
  const claims: ClaimEvent[] = [];
  for (let i = 0; i < count; i++) {
    const loss = start + Math.floor(rng.next() * span);
    const reported = loss + Math.floor(rng.exponential(1) * product.reporting_delay_days) * DAY;
    if (reported < ctx.asOfEnd) claims.push({ loss, reported });
  }
  return claims;
}

const NO_CLAIMS: ClaimEvent[] = [];
