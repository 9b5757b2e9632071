import { expect } from 'chai';
import fc from 'fast-check';
import pack from '../../../plugins/banking/index.js';
import { validateIban } from '../../../core/generation/realism/iban.js';
import { knownBank, validateBic } from '../../../core/generation/realism/bic.js';
import { helpers } from '../../../core/generation/helpers.js';
import { checkManifest } from '../../../core/packs/manifest.js';
import { checkPack } from '../../../core/packs/test-kit.js';
import { ageOn, generateTables, groupBy, minor } from '../support/rows.js';

const digitsOf = (currency: unknown) => helpers.minorUnits(String(currency));

describe('banking pack', () => {
  it('passes its manifest', () => {
    expect(checkManifest(pack)).to.deep.equal([]);
  });

  it('passes the pack test kit: types, nulls, keys, references, formats, same bytes with 1 and 4 workers', async function () {
    this.timeout(240_000);
    const report = await checkPack(new URL('../../../plugins/banking/index.ts', import.meta.url), { rows: 800 });
    expect(Object.keys(report.tables)).to.deep.equal(Object.keys(pack.tables));
  });

  it("gives every account a valid IBAN of its holder's country, the BIC of that bank, and the local currency", () => {
    fc.assert(
      fc.property(fc.nat(), (seed) => {
        const { customers, accounts } = generateTables(pack, { seed, tables: [{ name: 'accounts', rows: 60 }] });
        const countryOf = new Map(customers.map((c) => [c.customer_id, c.country]));
        for (const account of accounts) {
          const iban = String(account.iban);
          expect(validateIban(iban), iban).to.equal(true);
          expect(iban.slice(0, 2)).to.equal(countryOf.get(account.customer_id));
          expect(validateBic(String(account.bic))).to.equal(true);
          expect(knownBank(String(account.bic))?.country).to.equal(iban.slice(0, 2));
          expect(knownBank(String(account.bic))?.name).to.equal(account.bank_name);
          expect(account.currency).to.equal({ GB: 'GBP', CH: 'CHF', NO: 'NOK', PL: 'PLN' }[iban.slice(0, 2)] ?? 'EUR');
          expect(
            String(account.opened_on) >=
              String(customers.find((c) => c.customer_id === account.customer_id)!.customer_since),
          ).to.equal(true);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('keeps running balances that add up: opening balance + every amount = each balance_after, and the closing balance', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 800 }),
        (seed, accountRows, transactionRows) => {
          const { accounts, transactions } = generateTables(pack, {
            seed,
            tables: [
              { name: 'accounts', rows: accountRows },
              { name: 'transactions', rows: transactionRows },
            ],
          });
          expect(transactions).to.have.length(transactionRows);
          const accountById = new Map(accounts.map((a) => [a.account_id, a]));
          for (const [accountId, bookings] of groupBy(transactions, 'account_id')) {
            const account = accountById.get(accountId)!;
            expect(account, 'every transaction belongs to a generated account').to.not.equal(undefined);
            const digits = digitsOf(account.currency);
            let balance = minor(account.opening_balance, digits);
            let previous = '';
            for (const booking of bookings) {
              expect(booking.currency).to.equal(account.currency);
              expect(Math.sign(Number(booking.amount))).to.equal(booking.direction === 'credit' ? 1 : -1);
              balance += minor(booking.amount, digits);
              expect(minor(booking.balance_after, digits)).to.equal(balance);
              expect(minor(booking.balance_after, digits)).to.be.at.least(-minor(account.overdraft_limit, digits));
              expect(String(booking.booked_at) >= previous).to.equal(true);
              previous = String(booking.booked_at);
            }
            const last = bookings[bookings.length - 1];
            const total = bookings.reduce((sum, b) => sum + minor(b.amount, digits), 0);
            expect(minor(account.opening_balance, digits) + total).to.equal(minor(last.balance_after, digits));
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('gives counterparty IBANs only to transfers, direct debits and salaries, and every one validates', () => {
    const { transactions } = generateTables(pack, { seed: 7, tables: [{ name: 'transactions', rows: 3000 }] });
    const types = new Set(transactions.map((t) => t.type));
    expect([...types]).to.include.members(['salary', 'card_payment', 'direct_debit', 'transfer_in']);
    for (const transaction of transactions) {
      if (transaction.counterparty_iban === null)
        expect(['card_payment', 'atm_withdrawal', 'fee', 'interest']).to.include(transaction.type);
      else
        expect(validateIban(String(transaction.counterparty_iban)), String(transaction.counterparty_iban)).to.equal(
          true,
        );
    }
  });

  it('draws card payments through the amount column, so a config override reaches them', () => {
    const request = (columns = {}) =>
      generateTables(pack, {
        seed: 3,
        tables: [
          { name: 'accounts', rows: 50 },
          { name: 'transactions', rows: 2000, columns },
        ],
      }).transactions;
    const cardSpend = (rows: Record<string, unknown>[]) =>
      rows.filter((t) => t.type === 'card_payment').reduce((sum, t) => sum - Number(t.amount), 0);
    const base = request();
    const pricier = request({ amount: { distribution: 'lognormal', mu: 5.5, sigma: 0.5 } });
    expect(cardSpend(pricier)).to.be.greaterThan(cardSpend(base) * 3);
  });

  it("begins every customer relationship on or after the customer's 18th birthday", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const { customers } = generateTables(pack, { seed, tables: [{ name: 'customers', rows: 2000 }] });
        for (const customer of customers)
          expect(ageOn(customer.date_of_birth, customer.customer_since), JSON.stringify(customer)).to.be.at.least(18);
      }),
      { numRuns: 5 },
    );
  });
});
