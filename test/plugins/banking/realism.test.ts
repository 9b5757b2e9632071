import { expect } from 'chai';
import pack from '../../../plugins/banking/index.js';
import { PRICE_LEVEL } from '../../../plugins/banking/reference-data.js';
import { helpers } from '../../../core/generation/helpers.js';
import { birthday, payDay } from '../../../core/packs/sdk.js';
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

describe('banking pack: an as-of date years before the defaults', function () {
  this.timeout(60_000);

  it('has customers born and of age by it, relationships and accounts begun by it, and the 90 days before it', () => {
    const as_of = '2012-03-31';
    for (const seed of SEEDS.slice(0, 3)) {
      const { customers, accounts, transactions } = generateTables(pack, {
        seed,
        as_of,
        tables: [
          { name: 'customers', rows: 800 },
          { name: 'accounts', rows: 1200 },
          { name: 'transactions', rows: 6000 },
        ],
      });
      for (const customer of customers) {
        const born = String(customer.date_of_birth);
        const since = String(customer.customer_since);
        expect(birthday(born, 18) <= as_of, born).to.equal(true);
        expect(since >= birthday(born, 18) && since <= as_of, `${born} ${since}`).to.equal(true);
      }
      for (const account of accounts) expect(String(account.opened_on) <= as_of).to.equal(true);
      const days = new Set(transactions.map((t) => String(t.booked_at).slice(0, 10)));
      for (const day of days) expect(day >= '2012-01-01' && day <= as_of, day).to.equal(true);
      expect(days.size, 'days with bookings').to.be.above(60);
    }
  });
});

describe('banking pack: laundering motifs (aml_motifs)', function () {
  this.timeout(120_000);
  const MOTIFS = 30;
  const cached = new Map<number, Record<string, Rows>>();
  const withMotifs = (seed: number) =>
    cached.get(seed) ??
    cached
      .set(
        seed,
        generateTables(pack, {
          seed,
          tables: [
            { name: 'accounts', rows: 600 },
            { name: 'transactions', rows: 30_000 },
            { name: 'aml_motifs', rows: MOTIFS },
          ],
        }),
      )
      .get(seed)!;

  /** A motif's flows as edges between accounts: a transfer from its debit leg's account to its credit leg's. */
  function edgesOf(bookings: Rows): [unknown, unknown][] {
    return [
      ...groupBy(
        bookings.filter((b) => b.transfer_id !== null),
        'transfer_id',
      ).values(),
    ].map((legs) => [
      legs.find((leg) => leg.direction === 'debit')!.account_id,
      legs.find((leg) => leg.direction === 'credit')!.account_id,
    ]);
  }
  const degrees = (edges: [unknown, unknown][]) => {
    const into = new Map<unknown, number>();
    const out = new Map<unknown, number>();
    for (const [from, to] of edges) {
      out.set(from, (out.get(from) ?? 0) + 1);
      into.set(to, (into.get(to) ?? 0) + 1);
    }
    return { into: (a: unknown) => into.get(a) ?? 0, out: (a: unknown) => out.get(a) ?? 0 };
  };

  it('plants most motifs (at least 25 of 30 on 600 accounts) and every typology over three seeds', () => {
    const seen = new Set<unknown>();
    for (const seed of SEEDS.slice(0, 3)) {
      const planted = withMotifs(seed).aml_motifs.filter((m) => Number(m.member_accounts) > 0);
      expect(planted.length, `seed ${seed}`).to.be.at.least(25);
      for (const motif of planted) seen.add(motif.typology);
    }
    expect([...seen].sort()).to.deep.equal(
      [
        'bipartite',
        'cycle',
        'fan_in',
        'fan_out',
        'gather_scatter',
        'random',
        'scatter_gather',
        'stacked_bipartite',
        'structuring',
      ].sort(),
    );
  });

  it('labels exactly the motifs of the table: typology, members, flows, first and last booking', () => {
    for (const seed of SEEDS.slice(0, 3)) {
      const { aml_motifs, transactions } = withMotifs(seed);
      const labelled = groupBy(
        transactions.filter((t) => t.aml_motif_id !== null),
        'aml_motif_id',
      );
      const planted = aml_motifs.filter((m) => Number(m.member_accounts) > 0);
      expect([...labelled.keys()].sort()).to.deep.equal(planted.map((m) => m.motif_id).sort());
      for (const motif of planted) {
        const bookings = labelled.get(motif.motif_id)!;
        for (const b of bookings) expect(b.aml_typology).to.equal(motif.typology);
        expect(new Set(bookings.map((b) => b.account_id)).size).to.equal(motif.member_accounts);
        const deposits = bookings.filter((b) => b.type === 'cash_deposit').length;
        expect(new Set(bookings.map((b) => b.transfer_id)).size - (deposits > 0 ? 1 : 0) + deposits).to.equal(
          motif.flows,
        );
        const times = bookings.map((b) => String(b.booked_at)).sort();
        expect(times[0]).to.equal(motif.started_at);
        expect(times[times.length - 1]).to.equal(motif.ended_at);
        expect(motif.first_account_id).to.be.oneOf(bookings.map((b) => b.account_id));
        for (const [, legs] of groupBy(
          bookings.filter((b) => b.transfer_id !== null),
          'transfer_id',
        ))
          expect(legs.map((leg) => leg.direction).sort()).to.deep.equal(['credit', 'debit']);
      }
    }
  });

  it('gives every typology its shape: cycle, fan-in/out, scatter-gather, gather-scatter, bipartite, structuring', () => {
    for (const seed of SEEDS.slice(0, 3)) {
      const { aml_motifs, accounts, transactions } = withMotifs(seed);
      const currencyOf = new Map(accounts.map((a) => [a.account_id, String(a.currency)]));
      const labelled = groupBy(
        transactions.filter((t) => t.aml_motif_id !== null),
        'aml_motif_id',
      );
      for (const motif of aml_motifs.filter((m) => Number(m.member_accounts) > 0)) {
        const bookings = labelled.get(motif.motif_id)!;
        const members = [...new Set(bookings.map((b) => b.account_id))];
        const k = members.length;
        const edges = edgesOf(bookings);
        const { into, out } = degrees(edges);
        const label = `seed ${seed}, ${String(motif.typology)} ${String(motif.motif_id)}`;
        switch (motif.typology) {
          case 'cycle': {
            for (const m of members) expect([into(m), out(m)], label).to.deep.equal([1, 1]);
            // Following the money from the first member comes back to it after visiting every member.
            const next = new Map(edges);
            let at = motif.first_account_id;
            for (let step = 0; step < k; step++) at = next.get(at);
            expect(at, label).to.equal(motif.first_account_id);
            expect(new Set(edges.map(([from]) => from)).size, label).to.equal(k);
            break;
          }
          case 'fan_in':
            expect(into(motif.first_account_id), label).to.equal(k - 1);
            for (const m of members.filter((a) => a !== motif.first_account_id))
              expect([into(m), out(m)], label).to.deep.equal([0, 1]);
            break;
          case 'fan_out':
            expect(out(motif.first_account_id), label).to.equal(k - 1);
            for (const m of members.filter((a) => a !== motif.first_account_id))
              expect([into(m), out(m)], label).to.deep.equal([1, 0]);
            break;
          case 'scatter_gather': {
            const source = motif.first_account_id;
            const sink = members.find((m) => out(m) === 0);
            expect([into(source), out(source)], label).to.deep.equal([0, k - 2]);
            expect(into(sink), label).to.equal(k - 2);
            for (const m of members.filter((a) => a !== source && a !== sink)) {
              expect([into(m), out(m)], label).to.deep.equal([1, 1]);
              expect(edges, label).to.deep.include.members([
                [source, m],
                [m, sink],
              ]);
            }
            break;
          }
          case 'gather_scatter': {
            const hub = motif.first_account_id;
            expect(into(hub) > 0 && out(hub) > 0, label).to.equal(true);
            for (const [from, to] of edges) expect(from === hub || to === hub, label).to.equal(true);
            break;
          }
          case 'bipartite': {
            const senders = members.filter((m) => out(m) > 0);
            const receivers = members.filter((m) => into(m) > 0);
            for (const m of senders) expect(into(m), label).to.equal(0);
            expect(edges.length, label).to.equal(senders.length * receivers.length);
            break;
          }
          case 'stacked_bipartite': {
            const middle = members.filter((m) => into(m) > 0 && out(m) > 0);
            const top = members.filter((m) => into(m) === 0);
            expect(middle.length, label).to.be.above(0);
            for (const [from, to] of edges)
              expect(top.includes(from) ? middle.includes(to) : middle.includes(from), label).to.equal(true);
            break;
          }
          case 'structuring':
            expect(k, label).to.equal(1);
            expect(edges, label).to.have.length(0);
            for (const b of bookings) {
              expect(b.type, label).to.equal('cash_deposit');
              // Just under the 10,000 EUR reporting threshold, in the account's currency.
              const euros = Number(b.amount) / PRICE_LEVEL[currencyOf.get(b.account_id)!];
              expect(euros, label).to.be.within(8_990, 9_999.99);
            }
            break;
          default:
            expect(motif.typology).to.equal('random');
            expect(edges.length, label).to.equal(motif.flows);
        }
      }
    }
  });

  it('plants per_1000_accounts motifs per 1,000 accounts, at most the rows: the same motifs as that count', () => {
    for (const seed of SEEDS.slice(0, 2)) {
      const atRate = (perThousand: number, rows: number) =>
        generateTables(pack, {
          seed,
          tables: [
            { name: 'accounts', rows: 600 },
            { name: 'transactions', rows: 30_000 },
            { name: 'aml_motifs', rows, options: { per_1000_accounts: perThousand } },
          ],
        });
      // 50 per 1,000 of 600 accounts is the 30 motifs of the count above, so the same bookings and ground truth.
      const rated = atRate(50, 1000);
      expect(rated.aml_motifs, `seed ${seed}`).to.deep.equal(withMotifs(seed).aml_motifs);
      expect(rated.transactions).to.deep.equal(withMotifs(seed).transactions);
      // 4.9 per 1,000 of 600 accounts is 2.94 motifs, rounded down.
      expect(atRate(4.9, 1000).aml_motifs).to.have.length(2);
      expect(atRate(50, 12).aml_motifs).to.have.length(12);
      expect(atRate(0, 1000).aml_motifs).to.have.length(0);
    }
  });

  it('keeps balances, floors and the as-of date with motifs, and labels nothing without the aml_motifs table', () => {
    for (const seed of SEEDS.slice(0, 3)) {
      const { accounts, transactions } = withMotifs(seed);
      const accountById = new Map(accounts.map((a) => [a.account_id, a]));
      for (const [id, bookings] of groupBy(transactions, 'account_id')) {
        const account = accountById.get(id)!;
        const digits = digitsOf(account.currency);
        let balance = minor(account.opening_balance, digits);
        let previous = '';
        for (const booking of bookings) {
          balance += minor(booking.amount, digits);
          expect(minor(booking.balance_after, digits)).to.equal(balance);
          expect(balance).to.be.at.least(-minor(account.overdraft_limit, digits));
          expect(String(booking.booked_at) >= previous && String(booking.booked_at) < '2026-01-01').to.equal(true);
          previous = String(booking.booked_at);
        }
      }
      expect(
        defaults(seed).transactions.filter((t) => t.aml_typology !== null || t.aml_motif_id !== null),
      ).to.have.length(0);
    }
  });
});
