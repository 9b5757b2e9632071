import {
  birthday,
  definePack,
  defineInvariant,
  drawOnOrAfter,
  onOrBefore,
  type Rng,
  type Row,
  type RowContext,
} from '../../core/packs/sdk.js';
import { motifAt, motifCount, MotifBlocks, motifLegs } from './aml.js';
import {
  accountRows,
  datasetSeed,
  internalLegs,
  periodOf,
  type Leg,
  type TransferOptions,
} from './internal-transfers.js';
import { recurringDues, type Dues } from './recurring.js';
import {
  AML,
  BALANCE_FACTOR,
  AML_TYPOLOGIES,
  BOOKING_KINDS,
  CASH_DEPOSIT,
  CUSTOMER_COUNTRIES,
  INTERNAL_TRANSFER,
  PRICE_LEVEL,
  SAVINGS_BALANCE_FACTOR,
  SALARY,
  TRANSACTION_TYPES,
  type BookingKind,
} from './reference-data.js';

/**
 * Retail banking: customers, their accounts (IBAN with valid ISO 13616 and national check digits, the
 * BIC of the IBAN's bank, the currency of the account's country) and booked transactions with running
 * balances. Transactions are generated per account, in time order, so that for every account
 *   opening_balance + Σ amount = balance_after of its last transaction
 * holds exactly (sums are kept in minor units). Written with the SDK exactly as a third-party pack would be.
 *
 * An account's rows are its salaries and bills (recurring.ts), its legs of transfers with other accounts of the
 * dataset (internal-transfers.ts), and everyday bookings spread over the rest of the period; each row books the
 * earliest of them that the account's remaining rows can still hold.
 */

/** Where an account's bookings stand: the balance, the clock, and what is still to book. */
interface AccountState {
  currency: string;
  country: string;
  savings: boolean;
  /** Balance in minor units, and the floor the overdraft allows (minus the limit). */
  balance: number;
  floor: number;
  /** The last booking's time, and the end of the period (exclusive). */
  clock: number;
  end: number;
  scale: number;
  /** Salaries and bills, and the next of them to book. */
  dues: Dues;
  due: number;
  /** Internal transfer legs, the next to book, and the rows kept for a top-up before each outgoing leg. */
  legs: Leg[];
  leg: number;
  spares: number;
  /** The time of the next everyday booking (not finite: to draw when one is due). */
  everyday: number;
  /** A payment booked on the row after the top-up that covers it. */
  pending: { leg?: Leg; due?: number } | undefined;
}

const DAY = 86_400_000;
const COUNTRIES = Object.keys(CUSTOMER_COUNTRIES);
const TYPOLOGIES = Object.keys(AML_TYPOLOGIES);

/** Cumulative weights of the booking kinds on a current and on a savings account, built once. */
const cumulative = (weightOf: (kind: BookingKind) => number) => {
  let total = 0;
  return BOOKING_KINDS.map((kind) => (total += weightOf(kind)));
};
const CURRENT_KINDS = cumulative((kind) => kind.weight);
const SAVINGS_KINDS = cumulative((kind) => kind.savings_weight);
const TRANSFER_IN = BOOKING_KINDS.find((kind) => kind.type === 'transfer_in')!;
const TRANSFER_OUT = BOOKING_KINDS.find((kind) => kind.type === 'transfer_out')!;

function pickKind(rng: Rng, cumulativeWeights: readonly number[]): BookingKind {
  const target = rng.next() * cumulativeWeights[cumulativeWeights.length - 1];
  let i = 0;
  while (cumulativeWeights[i] <= target) i++;
  return BOOKING_KINDS[i];
}

/** A booking's amount in minor units: a log-normal draw in euro terms, scaled to the local currency. */
function drawAmount(ctx: RowContext<unknown>, kind: BookingKind, account: AccountState): number {
  // Card payments go through the column's definition, so a config's override of `amount` reaches them.
  const euros =
    kind.type === 'card_payment' ? Number(ctx.draw.amount()) : Math.exp(ctx.rng.normal(kind.mu, kind.sigma));
  const major = euros * account.scale;
  const rounded = kind.round_to ? Math.max(kind.round_to, Math.round(major / kind.round_to) * kind.round_to) : major;
  return Math.max(1, ctx.helpers.toMinor(rounded, account.currency));
}

/** The earliest birth date drawn; a birth drawn too late for the as-of date wraps back towards it. */
const BORN_FROM = '1940-01-01';

export default definePack({
  name: 'banking',
  version: '1.2.0',
  description:
    'Retail banking: customers, current and savings accounts (valid IBANs with national check digits, ' +
    "the BIC of the IBAN's bank, local currency) and booked transactions with running balances that add up per " +
    'account.',
  tables: {
    customers: {
      description: 'Personal and business customers of the bank.',
      default_rows: 1000,
      credits_per_1000_rows: 1,
      columns: {
        customer_id: { type: 'id', prefix: 'cus', description: 'Key of the customer.' },
        name: {
          type: 'person_name',
          country_column: 'country',
          description: 'Full name of the customer (the account holder).',
          example: 'Amelia Clarke',
        },
        email: {
          type: 'email',
          country_column: 'country',
          name_column: 'name',
          description: 'E-mail address.',
          example: 'amelia.clarke@outlook.com',
        },
        phone: {
          type: 'phone',
          country_column: 'country',
          description: 'Phone number, international format.',
          nullable: true,
          null_rate: 0.04,
        },
        date_of_birth: { type: 'date', from: BORN_FROM, to: '2006-12-31', description: 'Date of birth.' },
        country: {
          type: 'country',
          codes: COUNTRIES,
          weights: CUSTOMER_COUNTRIES,
          description: 'Country of residence (ISO 3166-1 alpha-2); the accounts are held there.',
          example: 'GB',
        },
        street_address: { type: 'street_address', country_column: 'country', description: 'Street address.' },
        city: { type: 'city', country_column: 'country', description: 'City.' },
        postcode: { type: 'postcode', country_column: 'country', description: 'Postal code.' },
        segment: {
          type: 'enum',
          values: ['retail', 'premier', 'private', 'small_business'],
          weights: { retail: 78, premier: 12, private: 2, small_business: 8 },
          description: 'Customer segment.',
        },
        risk_rating: {
          type: 'enum',
          values: ['low', 'medium', 'high'],
          weights: { low: 82, medium: 15, high: 3 },
          description: 'Anti-money-laundering (KYC) risk rating.',
        },
        customer_since: {
          type: 'date',
          from: '2005-01-01',
          to: '2024-12-31',
          description: "When the relationship began: on or after the customer's 18th birthday.",
        },
      },
      // Of age by the as-of date, and a customer since a day from the 18th birthday to it.
      row: (ctx) => {
        const born = onOrBefore(String(ctx.draw.date_of_birth()), BORN_FROM, birthday(ctx.asOf, -18));
        const adult = birthday(born, 18);
        return {
          date_of_birth: born,
          customer_since: onOrBefore(drawOnOrAfter(ctx.draw.customer_since, adult), adult, ctx.asOf),
        };
      },
    },
    accounts: {
      description:
        "Current and savings accounts, each held by one customer, in the currency of the customer's country, " +
        'with an IBAN and the BIC of the same bank.',
      default_rows: 1600,
      credits_per_1000_rows: 1,
      columns: {
        account_id: { type: 'id', prefix: 'acc', description: 'Key of the account.' },
        customer_id: { type: 'reference', table: 'customers', description: 'The account holder.' },
        iban: {
          type: 'iban',
          description:
            "IBAN (ISO 13616) in the holder's country: valid check digits, " +
            "the country's BBAN structure and national check digits.",
          example: 'DE89370400440532013000',
        },
        bic: {
          type: 'bic',
          iban_column: 'iban',
          description: "BIC (ISO 9362) of the IBAN's bank.",
          example: 'DEUTDEFF',
        },
        bank_name: {
          type: 'string',
          description: 'Name of the bank that the IBAN and BIC identify.',
          example: 'Deutsche Bank',
        },
        currency: {
          type: 'currency',
          description: "Account currency (ISO 4217): the currency of the holder's country.",
        },
        account_type: {
          type: 'enum',
          values: ['current', 'savings'],
          weights: { current: 68, savings: 32 },
          description: 'Current (payment) or savings account.',
        },
        opened_on: {
          type: 'date',
          from: '2005-01-01',
          to: '2024-12-31',
          description: 'Opening date; never before the customer relationship began.',
        },
        status: {
          type: 'enum',
          values: ['active', 'dormant', 'blocked'],
          weights: { active: 94, dormant: 5, blocked: 1 },
          description: 'Account status.',
        },
        overdraft_limit: {
          type: 'money',
          currency_column: 'currency',
          distribution: 'lognormal',
          mu: 7.1,
          sigma: 0.7,
          min: 100,
          max: 25000,
          // Zero for savings and a third of current accounts, the rest in fifties scaled to the currency.
          draw_reshaped: true,
          description:
            'Arranged overdraft in euro terms, scaled to the account currency: ' +
            'how far below zero the balance may go (0 for savings accounts and a third of current accounts).',
          example: 1500,
        },
        interest_rate: {
          type: 'decimal',
          scale: 4,
          distribution: 'uniform',
          min: 0,
          max: 0.045,
          // Drawn for savings accounts only; current accounts take a rate of their own.
          draw_reshaped: true,
          description: 'Credit interest rate per year, as a fraction (0.0325 = 3.25%).',
          example: 0.0325,
        },
        opening_balance: {
          type: 'money',
          currency_column: 'currency',
          distribution: 'lognormal',
          mu: 7.4,
          sigma: 1.2,
          // Scaled by the customer's segment, for savings, and to the currency.
          draw_reshaped: true,
          description:
            "Balance before the account's first transaction in the transactions table; drawn in euro terms, " +
            'scaled to the account currency, larger for savings and wealthier segments.',
          example: 2450.17,
        },
      },
      row: (ctx) => {
        const { rng, helpers } = ctx;
        const customer = ctx.lookup('customers', ctx.ref('customer_id'));
        const country = String(customer.country);
        const bank = helpers.iban(rng, country);
        const currency = helpers.countryByCode.get(country)?.currency ?? 'EUR';
        const scale = PRICE_LEVEL[currency] ?? 1;
        const type = String(ctx.draw.account_type());
        const since = String(customer.customer_since);
        const drawnOpening = String(ctx.draw.opened_on());
        const savings = type === 'savings';
        return {
          iban: bank.iban,
          bic: bank.bic,
          bank_name: bank.bank_name,
          currency,
          account_type: type,
          opened_on: onOrBefore(drawnOpening < since ? since : drawnOpening, since, ctx.asOf),
          overdraft_limit:
            savings || rng.chance(0.35)
              ? 0
              : helpers.round(Math.round(Number(ctx.draw.overdraft_limit()) / 50) * 50 * scale, currency),
          interest_rate: savings ? Number(ctx.draw.interest_rate()) : Math.round(rng.float(0, 0.005) * 10_000) / 10_000,
          opening_balance: helpers.round(
            Number(ctx.draw.opening_balance()) *
              BALANCE_FACTOR[String(customer.segment)] *
              (savings ? SAVINGS_BALANCE_FACTOR : 1) *
              scale,
            currency,
          ),
        };
      },
    },
    transactions: {
      description:
        'Booked transactions per account, in time order, with the running balance after each one: salaries on ' +
        "the employer's pay day, bills every month to the same payees, card payments, transfers (some between two " +
        'accounts of the dataset, as two legs with one transfer_id), cash, fees and interest; ' +
        'none after the as-of date.',
      default_rows: 50000,
      credits_per_1000_rows: 2,
      per_parent: 'accounts',
      // Every account can compute every other's row count, so the two legs of a transfer always both have a row.
      rows_per_parent: (ctx) => accountRows(ctx),
      invariants: [
        defineInvariant({
          name: 'balance-follows-movements',
          description: "Each booking's balance is the one before it plus its amount.",
          holds: (row, previous) =>
            previous === undefined ||
            Math.abs(Number(row.balance_after) - (Number(previous.balance_after) + Number(row.amount))) < 5e-5,
        }),
        defineInvariant({
          name: 'amount-signed-by-direction',
          description: 'A credit is positive, a debit negative.',
          holds: (row) => (row.direction === 'credit' ? Number(row.amount) > 0 : Number(row.amount) < 0),
        }),
      ],
      options: {
        start_date: {
          description:
            'First day of the period the transactions cover (YYYY-MM-DD, 1970 to 2100); an account opened later ' +
            "starts on its opening date, and a start after the dataset's as-of date covers the days before it.",
          schema: { type: 'string', format: 'date', formatMinimum: '1970-01-01', formatMaximum: '2100-12-31' },
          default: '2025-10-03',
        },
        days: {
          description: "Length of the period in days; it ends on the dataset's as-of date at the latest.",
          schema: { type: 'integer', minimum: 1, maximum: 3660 },
          default: 90,
        },
        internal_transfer_rate: {
          description:
            "Share of transfers that go between two of the dataset's own accounts, booked as two legs " +
            '(a debit and a credit) with one transfer_id; 0 for none.',
          schema: { type: 'number', minimum: 0, maximum: 0.5 },
          default: 0.1,
        },
      },
      columns: {
        transaction_id: { type: 'id', prefix: 'txn', description: 'Key of the transaction.' },
        account_id: { type: 'reference', table: 'accounts', description: 'The account booked.' },
        booked_at: {
          type: 'timestamp',
          computed: true,
          description:
            'Booking time (UTC): within the period the options set and before the end of the as-of day, ' +
            "non-decreasing per account; salaries on the employer's pay day, bills on their day each month.",
        },
        value_date: {
          type: 'date',
          computed: true,
          description:
            'Value date: the day interest starts or stops counting (the next business day for bookings on a weekend).',
        },
        type: { type: 'enum', values: TRANSACTION_TYPES, description: 'Kind of booking.', example: 'card_payment' },
        direction: {
          type: 'enum',
          values: ['credit', 'debit'],
          description: 'Credit (money in) or debit (money out).',
        },
        amount: {
          type: 'money',
          currency_column: 'currency',
          distribution: 'lognormal',
          mu: 3.2,
          sigma: 0.95,
          // Card payments' draw only, signed and scaled to the currency; other kinds of booking have their own.
          draw_reshaped: true,
          description:
            'Signed amount in the account currency: positive for credits, negative for debits. ' +
            'The distribution (in euro terms) is that of card payments; other kinds of booking have their own.',
          example: -42.5,
        },
        currency: { type: 'currency', description: 'Account currency (ISO 4217).' },
        balance_after: {
          type: 'money',
          currency_column: 'currency',
          description: "Running balance after this booking: the account's opening balance plus every amount so far.",
          example: 2407.67,
        },
        counterparty_name: {
          type: 'company',
          description: 'Employer, merchant, biller, payee or payer; null for cash, fees and interest.',
          nullable: true,
        },
        counterparty_iban: {
          type: 'iban',
          nullable: true,
          description: "Counterparty's IBAN for transfers, direct debits and salaries; null otherwise.",
        },
        description: {
          type: 'string',
          description: 'Booking text as the statement shows it.',
          example: 'DIRECT DEBIT ENERGY',
        },
        transfer_id: {
          type: 'string',
          computed: true,
          nullable: true,
          description:
            "Key of a transfer between two of the dataset's accounts, shared by its debit and its credit leg " +
            "(each on its own account, the other account's IBAN as counterparty); null for other bookings.",
          example: 'trf_000004d2_0001',
        },
        aml_typology: {
          type: 'enum',
          values: TYPOLOGIES,
          computed: true,
          nullable: true,
          description:
            "The laundering typology of the motif this booking belongs to (the aml_motifs table's ground truth); " +
            'null for legitimate bookings and when the request does not ask for aml_motifs.',
          example: 'fan_in',
        },
        aml_motif_id: {
          type: 'string',
          computed: true,
          nullable: true,
          description: 'Key of the motif (aml_motifs.motif_id) this booking belongs to; null otherwise.',
          example: 'aml_3f9c2a7d1e06b584',
        },
      },
      start: (ctx: RowContext<TransferOptions>): AccountState => {
        const { rng, helpers } = ctx;
        const account = ctx.lookup('accounts', ctx.parent);
        const customer = ctx.lookup('customers', ctx.refOf('accounts', ctx.parent, 'customer_id'));
        const currency = String(account.currency);
        const country = String(customer.country);
        const scale = PRICE_LEVEL[currency] ?? 1;
        const savings = account.account_type === 'savings';
        const { start, end } = periodOf(ctx, String(account.opened_on));
        const employerName = String(ctx.draw.counterparty_name());
        const dues = recurringDues({
          rng,
          start,
          end,
          salary: savings ? 0 : helpers.toMinor(Math.exp(rng.normal(SALARY.mu, SALARY.sigma)) * scale, currency),
          employer: {
            kind: SALARY,
            name: employerName,
            iban: helpers.iban(rng, country).iban,
            description: rng.pick(SALARY.descriptions),
          },
          employerName,
          bills: !savings,
          billPayee: (kind, description) => ({
            kind,
            name: ctx.draw.counterparty_name(),
            iban: kind.counterparty === 'account' ? helpers.iban(rng, country).iban : null,
            description,
          }),
          toMinor: (euros) => Math.max(1, helpers.toMinor(euros * scale, currency)),
        });
        const seed = datasetSeed(ctx);
        const blocks = new MotifBlocks(ctx.rowsOf('accounts'), seed, motifCount(ctx));
        const self = { index: ctx.parent, count: ctx.count, currency, start };
        const legs = internalLegs(ctx, self, seed, (other) => blocks.motifOf(other) >= 0);
        const motif = blocks.motifOf(ctx.parent);
        if (motif >= 0) {
          legs.push(...motifLegs(ctx, blocks, motif, ctx.parent, currency));
          legs.sort((a, b) => a.time - b.time);
        }
        let outgoing = 0;
        for (const leg of legs) if (leg.amount < 0) outgoing++;
        return {
          currency,
          country,
          savings,
          balance: helpers.toMinor(Number(account.opening_balance), currency),
          floor: -helpers.toMinor(Number(account.overdraft_limit), currency),
          clock: start,
          // A motif's legs fall in the weeks before the as-of date, which a period set earlier may not reach.
          end: legs.length > 0 ? Math.max(end, legs[legs.length - 1].time + 1) : end,
          scale,
          dues,
          due: 0,
          legs,
          leg: 0,
          spares: outgoing,
          everyday: Number.NaN,
          pending: undefined,
        };
      },
      row: (ctx: RowContext<TransferOptions>, account: AccountState) => {
        const remaining = ctx.count - ctx.position;
        const mandatory = account.legs.length - account.leg + account.spares + (account.pending ? 1 : 0);
        const pending = account.pending;
        if (pending) {
          account.pending = undefined;
          return pending.leg ? bookLeg(ctx, account, pending.leg) : bookDue(ctx, account, pending.due!);
        }
        const { dues } = account;
        // Recurring bookings the rows could not hold in time are passed over, never booked out of order.
        while (account.due < dues.times.length && dues.times[account.due] < account.clock) account.due++;
        const legTime = account.leg < account.legs.length ? account.legs[account.leg].time : Infinity;
        const ownRows = remaining - mandatory;
        const dueTime = ownRows > 0 && account.due < dues.times.length ? dues.times[account.due] : Infinity;
        if (ownRows > 0 && !Number.isFinite(account.everyday)) {
          // The everyday bookings left are spread uniformly over the rest of the period (the next of k uniform
          // draws), so that however many rows an account has, they end before the period does.
          const left = ownRows - (dues.times.length - account.due);
          account.everyday =
            left > 0
              ? account.clock + (account.end - account.clock) * (1 - Math.pow(1 - ctx.rng.next(), 1 / left))
              : dueTime < Infinity
                ? Infinity
                : account.clock;
        }
        const everydayTime = ownRows > 0 ? account.everyday : Infinity;
        if (legTime <= dueTime && legTime <= everydayTime) {
          const leg = account.legs[account.leg++];
          if (leg.amount >= 0) return bookLeg(ctx, account, leg);
          account.spares--;
          if (account.balance + leg.amount >= account.floor) return bookLeg(ctx, account, leg);
          account.pending = { leg };
          return bookTopUp(ctx, account, leg.time, -leg.amount);
        }
        if (dueTime <= everydayTime) {
          const due = account.due++;
          const amount = dues.amounts[due];
          if (dues.payees[dues.payee[due]].kind.direction === 'credit' || account.balance - amount >= account.floor)
            return bookDue(ctx, account, due);
          // A bill the balance and the overdraft cannot cover waits for money the holder moves in first.
          if (ownRows >= 2) account.pending = { due };
          return bookTopUp(ctx, account, dues.times[due], amount);
        }
        account.clock = account.everyday;
        account.everyday = Number.NaN;
        return bookEveryday(ctx, account);
      },
    },
    aml_motifs: {
      description:
        'Ground truth of the money-laundering motifs planted in the transactions, one per row: as many motifs as ' +
        'rows (or, with per_1000_accounts, that many per 1,000 accounts, at most the rows) are planted when a ' +
        'request asks for this table with the transactions (none otherwise). Each takes a block of 16 accounts ' +
        '(at least 16 per motif are needed), within the 60 days before the as-of date.',
      default_rows: 20,
      credits_per_1000_rows: 1,
      options: {
        per_1000_accounts: {
          description:
            'Motifs planted per 1,000 accounts of the dataset, rounded down: the rate, instead of a count; the ' +
            "table's rows are then the most it has. null (the default): as many motifs as rows.",
          schema: { type: ['number', 'null'], minimum: 0, maximum: 1000 / AML.block },
          default: null,
        },
      },
      rows_at_rate: { option: 'per_1000_accounts', of: 'accounts', per: 1000 },
      columns: {
        motif_id: { type: 'id', prefix: 'aml', description: 'Key of the motif: the aml_motif_id of its bookings.' },
        first_account_id: {
          type: 'reference',
          table: 'accounts',
          nullable: true,
          description:
            'The first member: the source of a fan-out or scatter-gather, the sink of a fan-in, the hub of a ' +
            'gather-scatter, the start of a cycle, the account structuring cash; null when not planted.',
        },
        typology: {
          type: 'enum',
          values: TYPOLOGIES,
          computed: true,
          description:
            'fan_out, fan_in, cycle, scatter_gather, gather_scatter, bipartite, stacked_bipartite, ' +
            'random (AMLSim and AMLworld typologies) or structuring (cash deposits just under 10,000 EUR).',
          example: 'cycle',
        },
        member_accounts: {
          type: 'integer',
          computed: true,
          description: 'Accounts taking part; 0 when the dataset has too few accounts or rows to plant it.',
          example: 5,
        },
        flows: {
          type: 'integer',
          computed: true,
          description: 'Transfers between members (two legs each, one transfer_id) and cash deposits.',
          example: 4,
        },
        started_at: {
          type: 'timestamp',
          computed: true,
          nullable: true,
          description: 'First booking of the motif; null when not planted.',
        },
        ended_at: {
          type: 'timestamp',
          computed: true,
          nullable: true,
          description: 'Last booking of the motif; null when not planted.',
        },
        total_amount_eur: {
          type: 'decimal',
          scale: 2,
          computed: true,
          description: "Sum of the motif's flows in euro terms (each leg is booked in its account's currency).",
          example: 18250,
        },
      },
      row: (ctx) => {
        const blocks = new MotifBlocks(ctx.rowsOf('accounts'), datasetSeed(ctx), ctx.rows);
        const motif = motifAt(ctx, blocks, ctx.index);
        const planted = motif.members.length > 0;
        if (planted) ctx.setRef('first_account_id', motif.members[0]);
        return {
          ...(planted ? {} : { first_account_id: null }),
          typology: motif.typology,
          member_accounts: motif.members.length,
          flows: motif.flows.length,
          started_at: planted ? motif.flows[0].time : null,
          ended_at: planted ? motif.flows[motif.flows.length - 1].time : null,
          total_amount_eur: motif.flows.reduce((sum, flow) => sum + flow.euros, 0),
        };
      },
    },
  },
});

/** A booking of the account: its balance moves, and the row says so. */
function booked(
  ctx: RowContext<TransferOptions>,
  account: AccountState,
  time: number,
  kind: BookingKind,
  signed: number,
  counterpartyName: unknown,
  counterpartyIban: unknown,
  description: string,
  leg?: Leg,
): Row {
  const { helpers } = ctx;
  account.clock = time;
  account.balance += signed;
  return {
    booked_at: time,
    value_date: helpers.isoDate(valueDay(time)),
    type: kind.type,
    direction: kind.direction,
    amount: helpers.fromMinor(signed, account.currency),
    currency: account.currency,
    balance_after: helpers.fromMinor(account.balance, account.currency),
    counterparty_name: counterpartyName,
    counterparty_iban: counterpartyIban,
    description,
    transfer_id: leg ? leg.transferId : null,
    aml_typology: leg ? leg.typology : null,
    aml_motif_id: leg ? leg.motifId : null,
  };
}

function bookLeg(ctx: RowContext<TransferOptions>, account: AccountState, leg: Leg): Row {
  const kind = leg.peerIban === null ? CASH_DEPOSIT : leg.amount < 0 ? TRANSFER_OUT : TRANSFER_IN;
  const description = ctx.rng.pick(kind === CASH_DEPOSIT ? kind.descriptions : INTERNAL_TRANSFER.descriptions);
  return booked(ctx, account, leg.time, kind, leg.amount, leg.peerName, leg.peerIban, description, leg);
}

function bookDue(ctx: RowContext<TransferOptions>, account: AccountState, due: number): Row {
  const { dues } = account;
  const payee = dues.payees[dues.payee[due]];
  const signed = payee.kind.direction === 'credit' ? dues.amounts[due] : -dues.amounts[due];
  const time = Math.max(account.clock, dues.times[due]);
  return booked(ctx, account, time, payee.kind, signed, payee.name, payee.iban, payee.description);
}

/** Money the holder moves in from elsewhere before a payment the balance cannot cover: enough, and some more. */
function bookTopUp(ctx: RowContext<TransferOptions>, account: AccountState, time: number, owed: number): Row {
  const shortfall = account.floor - (account.balance - owed);
  const amount = Math.max(0, shortfall) + drawAmount(ctx, TRANSFER_IN, account);
  return booked(
    ctx,
    account,
    Math.max(account.clock, time),
    TRANSFER_IN,
    amount,
    ctx.draw.counterparty_name(),
    counterpartyIban(ctx, account.country),
    ctx.rng.pick(TRANSFER_IN.descriptions),
  );
}

function bookEveryday(ctx: RowContext<TransferOptions>, account: AccountState): Row {
  let kind = pickKind(ctx.rng, account.savings ? SAVINGS_KINDS : CURRENT_KINDS);
  const amount = drawAmount(ctx, kind, account);
  // A payment the balance and the overdraft cannot cover is not booked; the holder moves money in first.
  if (kind.direction === 'debit' && account.balance - amount < account.floor) kind = TRANSFER_IN;
  return booked(
    ctx,
    account,
    account.clock,
    kind,
    kind.direction === 'credit' ? amount : -amount,
    kind.counterparty === 'none' ? null : ctx.draw.counterparty_name(),
    kind.counterparty === 'account' ? counterpartyIban(ctx, account.country) : null,
    ctx.rng.pick(kind.descriptions),
  );
}

/** Most transfers stay in the holder's country; the rest go anywhere in the IBAN area. */
function counterpartyIban(ctx: RowContext<unknown>, country: string): unknown {
  return ctx.rng.chance(0.85) ? ctx.helpers.iban(ctx.rng, country).iban : ctx.draw.counterparty_iban();
}

/** The value date of a booking: its own day, or the Monday after for a booking made on a weekend. */
function valueDay(time: number): number {
  const day = Math.floor(time / DAY);
  const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  const shift = weekday === 6 ? 2 : weekday === 0 ? 1 : 0;
  return (day + shift) * DAY;
}
