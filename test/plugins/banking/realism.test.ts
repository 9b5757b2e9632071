import { expect } from 'chai';
import pack from '../../../plugins/banking/index.js';
import { PRICE_LEVEL } from '../../../plugins/banking/reference-data.js';
import { helpers } from '../../../core/generation/helpers.js';
import { payDay } from '../../../core/packs/sdk.js';
import { generateTables, groupBy, minor, type Rows } from '../support/rows.js';

/**
 * What makes the banking pack's transactions look like an account's: salaries on the employer's pay day, bills
 * every month, and transfers between the dataset's own accounts whose two legs agree. Each property holds over
 * five seeds, on 300 accounts with about 60 bookings each over six months.
 */
const SEEDS = [1, 2, 3, 4, 5];
const DAY = 86_400_000;
const MONTHS = ['2025-07', '2025-08', '2025-09', '2025-10', '2025-11', '2025-12', '2026-01'];
/** Recurring bookings are booked on the minute of their payroll or collection run; everyday ones at any instant. */
const ON_THE_MINUTE = /T\d\d:\d\d:00\.000Z$/;

function dataset(seed: number, options: Record<string, unknown> = {}, as_of?: string): Record<string, Rows> {
  return generateTables(pack, {
    seed,
    ...(as_of ? { as_of } : {}),
    tables: [
      { name: 'accounts', rows: 300 },
      {
        name: 'transactions',
        rows: 18_000,
        options: { start_date: '2025-07-04', days: 180, ...options },
      },
    ],
  });
}

const cache = new Map<number, Record<string, Rows>>();
const defaults = (seed: number) => cache.get(seed) ?? cache.set(seed, dataset(seed)).get(seed)!;
const digitsOf = (currency: unknown) => helpers.minorUnits(String(currency));
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const cv = (values: number[]) =>
  Math.sqrt(values.reduce((a, b) => a + (b - mean(values)) ** 2, 0) / values.length) / Math.abs(mean(values));

describe('banking pack: realism', function () {
  this.timeout(120_000);

  it('pays each salary on one pay day of the employer (25th, last, 15th or 1st, weekend rolled back), at night, with a stable amount (cv < 5 %)', () => {
    for (const seed of SEEDS) {
      let accounts = 0;
      for (const [, bookings] of groupBy(defaults(seed).transactions, 'account_id')) {
        const salaries = bookings.filter((b) => b.type === 'salary');
        if (salaries.length < 3) continue;
        accounts++;
        expect(new Set(salaries.map((s) => s.counterparty_iban)).size, 'one employer').to.equal(1);
        const days = salaries.map((s) => String(s.booked_at).slice(0, 10));
        // The 1st rolled back from a weekend falls in the month before: a rule's pay days of every month of the period.
        const rules = ([25, 'last', 15, 1] as const).filter((rule) => {
          const payDays = new Set(MONTHS.map((month) => payDay(month, rule)));
          return days.every((day) => payDays.has(day));
        });
        expect(rules, `seed ${seed}: salaries on ${days.join(', ')}`).to.have.length.above(0);
        for (const s of salaries) expect(new Date(String(s.booked_at)).getUTCHours()).to.be.below(6);
        expect(cv(salaries.map((s) => Number(s.amount)))).to.be.below(0.05);
      }
      expect(accounts, `seed ${seed}: accounts with three salaries or more`).to.be.above(100);
    }
  });

  it('books each bill every month to the same payee for the same amount (at least 95 % of bills without a gap)', () => {
    for (const seed of SEEDS) {
      let bills = 0;
      let monthly = 0;
      for (const [, bookings] of groupBy(defaults(seed).transactions, 'account_id')) {
        // A payee is its name and the booking text: two billers of an account may share a (generated) name.
        const recurring = bookings
          .filter(
            (b) => b.direction === 'debit' && b.counterparty_name !== null && ON_THE_MINUTE.test(String(b.booked_at)),
          )
          .map((b) => ({ ...b, payee: `${String(b.counterparty_name)}|${String(b.description)}` }));
        for (const [, payments] of groupBy(recurring, 'payee')) {
          if (payments.length < 3) continue;
          bills++;
          expect(new Set(payments.map((p) => p.amount)).size, 'one amount').to.equal(1);
          expect(new Set(payments.map((p) => p.counterparty_iban)).size, 'one payee account').to.equal(1);
          const times = payments.map((p) => Date.parse(String(p.booked_at)));
          // A day of the month moved on past a weekend: consecutive payments are 26 to 33 days apart.
          if (times.slice(1).every((time, i) => time - times[i] >= 26 * DAY && time - times[i] <= 33 * DAY)) monthly++;
        }
      }
      expect(bills, `seed ${seed}`).to.be.above(300);
      expect(monthly / bills, `seed ${seed}: ${monthly} of ${bills}`).to.be.at.least(0.95);
    }
  });

  for (const rate of [0.1, 0.3])
    it(`makes ${rate} of transfers internal (within ±15 % of the rate)`, () => {
      for (const seed of SEEDS.slice(0, 3)) {
        const { transactions } = rate === 0.1 ? defaults(seed) : dataset(seed, { internal_transfer_rate: rate });
        const transfers = transactions.filter((t) => t.type === 'transfer_in' || t.type === 'transfer_out');
        const share = transfers.filter((t) => t.transfer_id !== null).length / transfers.length;
        expect(share, `seed ${seed}`).to.be.within(rate * 0.85, rate * 1.15);
      }
    });

  it('makes no internal transfer at internal_transfer_rate 0', () => {
    const { transactions } = dataset(1, { internal_transfer_rate: 0 });
    expect(transactions.filter((t) => t.transfer_id !== null)).to.have.length(0);
  });

  it('books every internal transfer as two legs: one debit and one credit on two accounts, each naming the other', () => {
    for (const seed of SEEDS) {
      const { accounts, transactions } = defaults(seed);
      const accountById = new Map(accounts.map((a) => [a.account_id, a]));
      const legs = groupBy(
        transactions.filter((t) => t.transfer_id !== null),
        'transfer_id',
      );
      expect(legs.size, `seed ${seed}`).to.be.above(200);
      let crossCurrency = 0;
      for (const [id, pair] of legs) {
        expect(pair, String(id)).to.have.length(2);
        const debit = pair.find((leg) => leg.direction === 'debit')!;
        const credit = pair.find((leg) => leg.direction === 'credit')!;
        expect(debit && credit, String(id)).to.not.equal(undefined);
        expect(debit.type).to.equal('transfer_out');
        expect(credit.type).to.equal('transfer_in');
        expect(debit.booked_at).to.equal(credit.booked_at);
        const sender = accountById.get(debit.account_id)!;
        const receiver = accountById.get(credit.account_id)!;
        expect(sender.account_id).to.not.equal(receiver.account_id);
        expect(debit.counterparty_iban).to.equal(receiver.iban);
        expect(credit.counterparty_iban).to.equal(sender.iban);
        const sent = -minor(debit.amount, digitsOf(sender.currency));
        const received = minor(credit.amount, digitsOf(receiver.currency));
        if (sender.currency === receiver.currency) expect(received).to.equal(sent);
        else {
          // Across currencies the receiver is credited at the price-level rate, rounded to its minor unit.
          crossCurrency++;
          const rate = PRICE_LEVEL[String(receiver.currency)] / PRICE_LEVEL[String(sender.currency)];
          const expected = (sent / 10 ** digitsOf(sender.currency)) * rate * 10 ** digitsOf(receiver.currency);
          expect(Math.abs(received - expected)).to.be.at.most(1);
        }
      }
      expect(crossCurrency, `seed ${seed}`).to.be.above(0);
    }
  });

  it('keeps the running balance and the overdraft floor with internal legs and top-ups', () => {
    for (const seed of SEEDS) {
      const { accounts, transactions } = defaults(seed);
      const accountById = new Map(accounts.map((a) => [a.account_id, a]));
      for (const [id, bookings] of groupBy(transactions, 'account_id')) {
        const account = accountById.get(id)!;
        const digits = digitsOf(account.currency);
        let balance = minor(account.opening_balance, digits);
        for (const booking of bookings) {
          balance += minor(booking.amount, digits);
          expect(minor(booking.balance_after, digits)).to.equal(balance);
          expect(balance).to.be.at.least(-minor(account.overdraft_limit, digits));
        }
      }
    }
  });

  it('books nothing after the as-of day, by default and for an earlier as_of, and still pairs every leg', () => {
    for (const seed of SEEDS.slice(0, 3)) {
      const limits: [Rows, string][] = [
        [defaults(seed).transactions, '2026-01-01'],
        [dataset(seed, {}, '2025-11-15').transactions, '2025-11-16'],
      ];
      for (const [transactions, after] of limits) {
        for (const t of transactions) expect(String(t.booked_at) < after, String(t.booked_at)).to.equal(true);
        for (const [, pair] of groupBy(
          transactions.filter((t) => t.transfer_id !== null),
          'transfer_id',
        ))
          expect(pair).to.have.length(2);
      }
    }
    // The defaults (accounts sized by the plan), and an as_of before the period's start: its last day holds it all.
    for (const [as_of, after] of [
      [undefined, '2026-01-01'],
      ['2025-06-30', '2025-07-01'],
    ] as const) {
      const { transactions } = generateTables(pack, {
        seed: 9,
        ...(as_of ? { as_of } : {}),
        tables: [{ name: 'transactions', rows: 2000 }],
      });
      expect(transactions).to.have.length(2000);
      for (const t of transactions) expect(String(t.booked_at) < after, String(t.booked_at)).to.equal(true);
      for (const [, pair] of groupBy(
        transactions.filter((t) => t.transfer_id !== null),
        'transfer_id',
      ))
        expect(pair).to.have.length(2);
    }
  });
});
