import {
  birthday,
  definePack,
  defineInvariant,
  drawOnOrAfter,
  onOrBefore,
  type RowContext,
} from '../../core/packs/sdk.js';
import { levelPayment, nextInstalment } from './annuity.js';
import { lendingLimit } from './lending-limit.js';
import { probabilityOfDefault } from './probability-of-default.js';
import {
  BORROWER_COUNTRIES,
  CREDIT_SCORE,
  LOAN_PRODUCTS,
  PRICE_LEVEL,
  PRICING_DEFAULT_RATE,
  SCORE_RANGE,
} from './products.js';

/**
 * Consumer and small-business lending: borrowers, loans, and each loan's repayment schedule by the
 * annuity formula with what the borrower actually paid against it (late payments, missed payments and
 * defaults at configurable rates). Written with the SDK exactly as a third-party pack would be.
 *
 * Risk runs through the credit score: a loan's probability of default is logistic in it (calibrated to the
 * `default_rate` option), its rate is priced from the lender's PD of that score, and its amount is bounded by
 * the borrower's income. Nothing happens after the dataset's as-of date: an instalment due later is scheduled.
 *
 * A loan's term (`term_months`, drawn by product) is its number of schedule rows: the schedule declares
 * `rows_per_parent` from it, so every loan's schedule is complete and adds up; the table holds the loans'
 * schedules in loan order up to the rows requested.
 */

interface ScheduleOptions {
  delinquency_rate: number;
  default_rate: number;
}

/** A loan's schedule as it runs: money in minor units. */
interface LoanState {
  currency: string;
  balance: number;
  payment: number;
  monthly_rate: number;
  first_due: string;
  /** The instalment from which the borrower stops paying (0-based), or Infinity for a loan that never defaults. */
  default_from: number;
  /** How many of the loan's instalments fall due on or before the as-of date. */
  due_by_as_of: number;
}

const DAY = 86_400_000;
const COUNTRIES = Object.keys(BORROWER_COUNTRIES);
/** The first day of the date of birth and origination windows: where a day drawn past the as-of date wraps to. */
const BORN_FROM = '1950-01-01';
const ORIGINATED_FROM = '2018-01-01';
const PRODUCTS = LOAN_PRODUCTS.map((p) => p.product);
const productByName = new Map(LOAN_PRODUCTS.map((p) => [p.product, p]));
/** Missed instalments before a loan is declared in default (90 days past due, as the Basel definition has it). */
const MISSED_BEFORE_DEFAULT = 3;

export default definePack({
  name: 'lending',
  version: '1.2.0',
  description:
    'Lending: borrowers with credit scores, loans (personal, auto, mortgage, small business) priced by the ' +
    "borrower's probability of default and bounded by income, and repayment schedules by the annuity formula " +
    'with the repayments made against them: late payments, missed payments and defaults at configurable rates, ' +
    'defaults far more frequent at worse credit scores; instalments due after the as-of date are scheduled.',
  tables: {
    borrowers: {
      description: 'People and sole traders who borrow from the lender.',
      default_rows: 1000,
      credits_per_1000_rows: 1,
      columns: {
        borrower_id: { type: 'id', prefix: 'bor', description: 'Key of the borrower.' },
        name: { type: 'person_name', country_column: 'country', description: 'Full name.', example: 'Thomas Reid' },
        email: { type: 'email', country_column: 'country', name_column: 'name', description: 'E-mail address.' },
        date_of_birth: {
          type: 'date',
          from: BORN_FROM,
          to: '2005-12-31',
          description: 'Date of birth: at least 18 years before the as-of date.',
        },
        country: {
          type: 'country',
          codes: COUNTRIES,
          weights: BORROWER_COUNTRIES,
          description: 'Country of residence (ISO 3166-1 alpha-2); loans are in its currency.',
          example: 'GB',
        },
        city: { type: 'city', country_column: 'country', description: 'City of residence.' },
        employment_status: {
          type: 'enum',
          values: ['employed', 'self_employed', 'retired', 'unemployed', 'student'],
          weights: { employed: 68, self_employed: 14, retired: 12, unemployed: 3, student: 3 },
          description: 'Employment status at application.',
        },
        annual_income: {
          type: 'money',
          currency_column: 'currency',
          distribution: 'lognormal',
          mu: 10.55,
          sigma: 0.5,
          min: 6000,
          // Scaled to the borrower's currency.
          draw_reshaped: true,
          description: 'Gross annual income in the local currency (drawn in euro terms, scaled).',
          example: 42000,
        },
        currency: { type: 'currency', computed: true, description: "Currency of the borrower's country (ISO 4217)." },
        credit_score: {
          type: 'integer',
          distribution: 'normal',
          mean: CREDIT_SCORE.mean,
          sd: CREDIT_SCORE.sd,
          min: SCORE_RANGE[0],
          max: SCORE_RANGE[1],
          description: 'Credit bureau score, 300 (worst) to 850 (best).',
          example: 712,
        },
      },
      row: (ctx) => {
        const country = String(ctx.draw.country());
        const currency = ctx.helpers.countryByCode.get(country)?.currency ?? 'EUR';
        return {
          date_of_birth: onOrBefore(String(ctx.draw.date_of_birth()), BORN_FROM, birthday(ctx.asOf, -18)),
          country,
          currency,
          annual_income: Number(ctx.draw.annual_income()) * (PRICE_LEVEL[currency] ?? 1),
        };
      },
    },
    loans: {
      description: "Loans, each to one borrower, in the borrower's currency, priced by product and credit score.",
      default_rows: 1500,
      credits_per_1000_rows: 1,
      columns: {
        loan_id: { type: 'id', prefix: 'loan', description: 'Key of the loan.' },
        borrower_id: { type: 'reference', table: 'borrowers', description: 'The borrower.' },
        product: {
          type: 'enum',
          values: PRODUCTS,
          weights: Object.fromEntries(LOAN_PRODUCTS.map((p) => [p.product, p.weight])),
          description: 'Loan product.',
        },
        purpose: {
          type: 'string',
          computed: true,
          description: "What the money is for: one of its product's purposes.",
          example: 'debt_consolidation',
        },
        principal: {
          type: 'money',
          currency_column: 'currency',
          distribution: 'lognormal',
          mu: 9,
          sigma: 0.7,
          // Scaled and spread per product, cut to the lending limits, scaled to the currency.
          draw_reshaped: true,
          description:
            "Amount lent, in the loan currency: log-normal per product (a config's override applies to every " +
            "product), within the product's limits on loan-to-income and on the payment's share of monthly income " +
            '(an amount asked beyond them is cut to 75–100 % of the limit; the limits win over the product minimum).',
          example: 12000,
        },
        currency: { type: 'currency', computed: true, description: "Loan currency (ISO 4217): the borrower's." },
        annual_rate: {
          type: 'decimal',
          scale: 4,
          computed: true,
          description:
            "Nominal annual interest rate as a fraction: the product's base rate plus a spread in proportion to " +
            "the lender's probability of default for the borrower's credit score, up to the product's cap.",
          example: 0.0749,
        },
        origination_date: {
          type: 'date',
          from: ORIGINATED_FROM,
          to: '2025-06-30',
          description:
            "Date the money was paid out: on or after the borrower's 18th birthday, on or before the as-of date.",
        },
        first_due_date: {
          type: 'date',
          computed: true,
          description: 'Due date of the first monthly instalment: one month after origination.',
        },
        term_months: {
          type: 'integer',
          computed: true,
          description:
            'Term in months, by product (personal 1–5 years, mortgages 10–30): ' +
            'the number of monthly instalments of its repayment schedule.',
          example: 60,
        },
        channel: {
          type: 'enum',
          values: ['branch', 'online', 'broker', 'dealer'],
          weights: { branch: 25, online: 45, broker: 18, dealer: 12 },
          // Most auto loans are sold by a dealer whatever the draw: the weights are those of the other sales.
          draw_reshaped: true,
          description: 'How the loan was sold.',
        },
      },
      row: (ctx) => {
        const { rng, helpers } = ctx;
        const borrower = ctx.lookup('borrowers', ctx.ref('borrower_id'));
        const product = productByName.get(String(ctx.draw.product()))!;
        const currency = String(borrower.currency);
        const level = PRICE_LEVEL[currency] ?? 1;
        const overridden = ctx.draw.principal();
        // The column's own distribution is the personal loan's: other products scale it to their median.
        const euros = Number(overridden) * Math.exp(product.mu - 9 + rng.normal(0, Math.max(0, product.sigma - 0.7)));
        const asked = Math.min(product.max_principal, Math.max(product.min_principal, euros)) * level;
        const pd = probabilityOfDefault(Number(borrower.credit_score), PRICING_DEFAULT_RATE);
        const rate = Math.min(product.max_rate, product.base_rate + product.risk_spread * pd * rng.float(0.85, 1.15));
        const annualRate = Math.round(rate * 10_000) / 10_000;
        const term = Number(helpers.weightedPick(rng, product.terms));
        const limit = lendingLimit(product, Number(borrower.annual_income), annualRate, term);
        // An amount asked beyond the limit is cut to somewhere below it, not to it, so no pile forms at the limit.
        const lent = asked <= limit ? asked : limit * rng.float(0.75, 1);
        // On or after the 18th birthday, and a day drawn past the as-of date wraps back into the window before it
        // (which starts at the birthday when the window's first day is later than the as-of date).
        const adult = birthday(String(borrower.date_of_birth), 18);
        const earliest = adult > ORIGINATED_FROM || ORIGINATED_FROM > ctx.asOf ? adult : ORIGINATED_FROM;
        const originated = onOrBefore(drawOnOrAfter(ctx.draw.origination_date, adult), earliest, ctx.asOf);
        return {
          product: product.product,
          purpose: rng.pick(product.purposes),
          // Whole fifties, rounded down so the limits hold.
          principal: helpers.round(Math.max(50, Math.floor(lent / 50) * 50), currency),
          currency,
          annual_rate: annualRate,
          origination_date: originated,
          first_due_date: helpers.isoDate(addMonths(originated, 1)),
          term_months: term,
          channel: product.product === 'auto' && rng.chance(0.6) ? 'dealer' : ctx.draw.channel(),
        };
      },
    },
    repayment_schedule: {
      description:
        "Each loan's repayment schedule by the annuity formula, one row per monthly instalment over the loan's " +
        'term_months (its principal and interest, the balance before and after), ' +
        'and the repayment made against it: on time, late, missed, or not collected after the loan defaulted; ' +
        'an instalment due after the as-of date is scheduled. ' +
        "Per loan the principals sum to the loan's principal and the payments to principal plus interest; " +
        'the last instalment absorbs the rounding. Loans come in order with their whole schedules, ' +
        "up to the rows requested (the last loan's schedule may stop there).",
      default_rows: 110_000,
      credits_per_1000_rows: 2,
      per_parent: 'loans',
      invariants: [
        defineInvariant({
          name: 'balance-amortises',
          description: 'An instalment closes at its opening balance less its principal, and opens at the close before.',
          holds: (row, previous) =>
            Math.abs(Number(row.closing_balance) - (Number(row.opening_balance) - Number(row.principal))) < 5e-5 &&
            (previous === undefined || Math.abs(Number(row.opening_balance) - Number(previous.closing_balance)) < 5e-5),
        }),
        defineInvariant({
          name: 'amortisation-ends-at-zero',
          description: "A loan's last instalment closes its balance at zero.",
          holds: (row) => row.instalment_number !== row.instalments || Math.abs(Number(row.closing_balance)) < 5e-5,
        }),
      ],
      options: {
        delinquency_rate: {
          description: 'Share of the instalments of performing loans that are paid late (1 to 89 days past due).',
          schema: { type: 'number', minimum: 0, maximum: 1 },
          default: 0.06,
        },
        default_rate: {
          description:
            'Share of loans that default: three missed instalments (90 days past due), then nothing more is ' +
            "collected. A loan's probability of default is logistic in its borrower's credit score (the odds double " +
            'every 50 points lower), calibrated so that the mean over the book is this rate. A loan defaults before ' +
            'the as-of date: one with fewer than four instalments due by then has not had the time to.',
          schema: { type: 'number', minimum: 0, maximum: 1 },
          default: 0.03,
        },
      },
      columns: {
        instalment_id: { type: 'id', prefix: 'ins', description: 'Key of the instalment.' },
        loan_id: { type: 'reference', table: 'loans', description: 'The loan.' },
        instalment_number: {
          type: 'integer',
          computed: true,
          description: 'Position of the instalment in the schedule, from 1.',
          example: 1,
        },
        instalments: {
          type: 'integer',
          computed: true,
          description: "The loan's number of monthly instalments: its term_months.",
          example: 36,
        },
        due_date: {
          type: 'date',
          computed: true,
          description: 'Due date: the first due date plus one month per instalment (the last day of a shorter month).',
        },
        currency: { type: 'currency', computed: true, description: 'Loan currency (ISO 4217).' },
        opening_balance: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Principal outstanding before the instalment.',
          example: 12000,
        },
        payment: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Scheduled payment: the level annuity payment (the last one repays what remains).',
          example: 373.04,
        },
        interest: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Interest part: the monthly rate on the opening balance.',
          example: 74.9,
        },
        principal: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Principal part: the payment less the interest.',
          example: 298.14,
        },
        closing_balance: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Principal outstanding after the instalment (zero after the last).',
          example: 11701.86,
        },
        status: {
          type: 'enum',
          values: ['paid', 'paid_late', 'missed', 'defaulted', 'scheduled'],
          computed: true,
          description:
            'What happened: paid by the due date, paid late, missed (unpaid on the as-of date; three in a row is ' +
            'a default), not collected because the loan defaulted, or scheduled: due after the as-of date on a ' +
            'loan not in default.',
        },
        paid_on: {
          type: 'date',
          computed: true,
          nullable: true,
          description: 'Date the payment arrived (on or before the as-of date); null when unpaid.',
        },
        amount_paid: {
          type: 'money',
          currency_column: 'currency',
          computed: true,
          description: 'Amount received against the instalment (0 when unpaid).',
          example: 373.04,
        },
        days_past_due: {
          type: 'integer',
          computed: true,
          description:
            'Days between the due date and the payment; for a missed instalment, ' +
            '30 days for each instalment that fell due since, up to the default, or, when the borrower has not ' +
            'paid yet on the as-of date, the days from the due date to it; 0 when scheduled.',
          example: 0,
        },
      },
      rows_per_parent: (ctx) => Number(ctx.lookup('loans', ctx.parent).term_months),
      start: (ctx: RowContext<ScheduleOptions>): LoanState => {
        const { rng, helpers } = ctx;
        const loan = ctx.lookup('loans', ctx.parent);
        const borrower = ctx.lookup('borrowers', ctx.refOf('loans', ctx.parent, 'borrower_id'));
        const currency = String(loan.currency);
        const principal = helpers.toMinor(Number(loan.principal), currency);
        const monthlyRate = Number(loan.annual_rate) / 12;
        const firstDue = String(loan.first_due_date);
        const dueByAsOf = instalmentsDueBefore(firstDue, ctx.count, ctx.asOfEnd);
        const pd = probabilityOfDefault(Number(borrower.credit_score), ctx.options.default_rate);
        // A default shows in the data once its three missed instalments and the default itself fall due by the
        // as-of date; within that span, defaults come early in a loan's life more often than late.
        const span = dueByAsOf - MISSED_BEFORE_DEFAULT;
        return {
          currency,
          balance: principal,
          payment: levelPayment(principal, monthlyRate, ctx.count),
          monthly_rate: monthlyRate,
          first_due: firstDue,
          default_from: span > 0 && rng.chance(pd) ? Math.floor(span * rng.next() ** 1.5) : Infinity,
          due_by_as_of: dueByAsOf,
        };
      },
      row: (ctx: RowContext<ScheduleOptions>, loan: LoanState) => {
        const { rng, helpers, position, count } = ctx;
        const opening = loan.balance;
        const due = nextInstalment(opening, loan.payment, loan.monthly_rate, position === count - 1);
        loan.balance -= due.principal;
        const dueDate = addMonths(loan.first_due, position);
        const outcome = repayment(ctx, position - loan.default_from, position < loan.due_by_as_of);
        let paidOn: string | null = null;
        if (outcome.paid) {
          const arrives = dueDate + (outcome.days_past_due || -rng.int(0, 3)) * DAY;
          // A late payment that would arrive after the as-of date has not arrived on it: the instalment is missed,
          // as many days past due as the as-of date is after the due date.
          if (arrives >= ctx.asOfEnd) {
            outcome.status = 'missed';
            outcome.days_past_due = Math.round((ctx.asOfEnd - DAY - dueDate) / DAY);
            outcome.paid = false;
          } else paidOn = helpers.isoDate(arrives);
        }
        return {
          instalment_number: position + 1,
          instalments: count,
          due_date: helpers.isoDate(dueDate),
          currency: loan.currency,
          opening_balance: helpers.fromMinor(opening, loan.currency),
          payment: helpers.fromMinor(due.payment, loan.currency),
          interest: helpers.fromMinor(due.interest, loan.currency),
          principal: helpers.fromMinor(due.principal, loan.currency),
          closing_balance: helpers.fromMinor(loan.balance, loan.currency),
          status: outcome.status,
          paid_on: paidOn,
          amount_paid: outcome.paid ? helpers.fromMinor(due.payment, loan.currency) : 0,
          days_past_due: outcome.days_past_due,
        };
      },
    },
  },
});

/** What the borrower did about an instalment, as the row writes it. */
interface Repayment {
  status: 'paid' | 'paid_late' | 'missed' | 'defaulted' | 'scheduled';
  paid: boolean;
  days_past_due: number;
}

/**
 * What the borrower did about an instalment: from the default instalment on, three missed ones (30, 60,
 * 90 days past due when the loan defaults), then nothing collected; before it, on time or, at the
 * configured rate, 1 to 89 days late (mostly a few days). An instalment due after the as-of date is scheduled,
 * unless the loan defaulted before it (its defaults are placed so that they do).
 */
function repayment(ctx: RowContext<ScheduleOptions>, sinceDefault: number, dueByAsOf: boolean): Repayment {
  if (sinceDefault >= MISSED_BEFORE_DEFAULT) return { status: 'defaulted', paid: false, days_past_due: 0 };
  if (!dueByAsOf) return { status: 'scheduled', paid: false, days_past_due: 0 };
  if (sinceDefault >= 0)
    return { status: 'missed', paid: false, days_past_due: 30 * (MISSED_BEFORE_DEFAULT - sinceDefault) };
  if (ctx.rng.chance(ctx.options.delinquency_rate))
    return {
      status: 'paid_late',
      paid: true,
      days_past_due: Math.min(89, 1 + Math.floor(ctx.rng.exponential(1 / 11))),
    };
  return { status: 'paid', paid: true, days_past_due: 0 };
}

/** How many of a loan's `count` monthly instalments from `firstDue` fall due before the instant `end`. */
function instalmentsDueBefore(firstDue: string, count: number, end: number): number {
  const last = new Date(end - DAY);
  let months =
    (last.getUTCFullYear() - Number(firstDue.slice(0, 4))) * 12 + last.getUTCMonth() + 1 - Number(firstDue.slice(5, 7));
  // The instalment `months` after the first may still fall after `end` (a later day of the month).
  if (months >= 0 && addMonths(firstDue, months) >= end) months--;
  return Math.max(0, Math.min(count, months + 1));
}

/** The instant (UTC midnight) `months` after `date` (YYYY-MM-DD): the same day, or the last of a shorter month. */
function addMonths(date: string, months: number): number {
  const total = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  return Date.UTC(year, month, Math.min(Number(date.slice(8, 10)), daysInMonth(year, month)));
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month !== 1) return MONTH_DAYS[month];
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}
