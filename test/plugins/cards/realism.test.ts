import { expect } from 'chai';
import cards from '../../../plugins/cards/index.js';
import { UNITS_PER_EURO } from '../../../plugins/cards/euro-rates.js';
import { AMOUNT_BY_MCC, UTC_OFFSET_MINUTES } from '../../../plugins/cards/reference-data.js';
import { generateTables, type Rows } from '../support/rows.js';
import { birthday } from '../../../core/packs/sdk.js';

const SEEDS = [1, 2, 3];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The default plan's shape at full size: 1,500 cards with 40 transactions each over the default period. */
const datasets = new Map<number, Record<string, Rows>>();
function dataset(seed: number): Record<string, Rows> {
  let tables = datasets.get(seed);
  if (!tables) {
    tables = generateTables(cards, {
      seed,
      tables: [
        { name: 'cards', rows: 1500 },
        { name: 'transactions', rows: 60_000 },
      ],
    });
    datasets.set(seed, tables);
  }
  return tables;
}

/** A transaction's authorisation in its merchant's local time (the pack's standard offset per country), in ms. */
function localTime(transaction: Record<string, unknown>): number {
  const offset = UTC_OFFSET_MINUTES[String(transaction.merchant_country)];
  if (offset === undefined) throw new Error(`no offset for ${String(transaction.merchant_country)}`);
  return Date.parse(String(transaction.authorized_at)) + offset * 60_000;
}

const euros = (transaction: Record<string, unknown>) =>
  Number(transaction.amount) / UNITS_PER_EURO[String(transaction.currency)];

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

describe('the cards pack, as real card data behaves', function () {
  this.timeout(120_000);
  after(() => datasets.clear());

  it("authorises little at night and most at midday, in the merchant's local time (night a fifth of midday at most)", () => {
    for (const seed of SEEDS) {
      const { transactions } = dataset(seed);
      let night = 0;
      let midday = 0;
      for (const transaction of transactions) {
        const hour = Math.floor((localTime(transaction) % DAY) / HOUR);
        if (hour >= 1 && hour < 5) night++;
        else if (hour >= 12 && hour < 16) midday++;
      }
      // Both windows are four hours long; the profile gives a ratio of about 0.07.
      expect(night / midday, `seed ${seed}: ${night} at night, ${midday} at midday`).to.be.below(0.2);
    }
  });

  it('authorises more per day on Fridays and Saturdays than from Monday to Wednesday (by 15 % at least)', () => {
    for (const seed of SEEDS) {
      const { transactions } = dataset(seed);
      const perWeekday = new Array<number>(7).fill(0);
      const days = Array.from({ length: 7 }, () => new Set<number>());
      for (const transaction of transactions) {
        const day = Math.floor(localTime(transaction) / DAY);
        const weekday = (day + 3) % 7; // 1970-01-01 was a Thursday; Monday is 0
        perWeekday[weekday]++;
        days[weekday].add(day);
      }
      const rate = (weekdays: number[]) =>
        weekdays.reduce((sum, day) => sum + perWeekday[day], 0) /
        weekdays.reduce((sum, day) => sum + days[day].size, 0);
      // The profile's weights give about 1.33.
      expect(rate([4, 5]) / rate([0, 1, 2]), `seed ${seed}: ${perWeekday.join(', ')}`).to.be.above(1.15);
    }
  });

  it('draws amounts by merchant category: airline > hotel > groceries > fast food medians, fast food p99 < 100 EUR', () => {
    for (const seed of SEEDS) {
      const { transactions } = dataset(seed);
      const byMcc = new Map<string, number[]>();
      for (const transaction of transactions) {
        const mcc = String(transaction.mcc);
        const amounts = byMcc.get(mcc) ?? [];
        amounts.push(euros(transaction));
        byMcc.set(mcc, amounts);
      }
      const median = (mcc: string) => quantile(byMcc.get(mcc)!, 0.5);
      const [airline, hotel, groceries, fastFood] = ['4511', '7011', '5411', '5814'].map(median);
      const medians = `seed ${seed}: ${[airline, hotel, groceries, fastFood].join(' > ')}`;
      // The pack's medians are 260, 190, 32 and 11 euros: each at least 1.2 times the next.
      expect(airline / hotel, medians).to.be.above(1.2);
      expect(hotel / groceries, medians).to.be.above(1.2);
      expect(groceries / fastFood, medians).to.be.above(1.2);
      expect(quantile(byMcc.get('5814')!, 0.99), `seed ${seed}: fast food p99`).to.be.below(100);
    }
  });

  it('pays out cash in round amounts, and charges subscriptions at their price points', () => {
    for (const seed of SEEDS) {
      const { transactions } = dataset(seed);
      const cash = transactions.filter((transaction) => transaction.mcc === '6011');
      expect(cash.length, `seed ${seed}: withdrawals`).to.be.above(500);
      for (const withdrawal of cash)
        expect(Number(withdrawal.amount) % 10, `${String(withdrawal.amount)} ${String(withdrawal.currency)}`).to.equal(
          0,
        );
      const model = AMOUNT_BY_MCC['5815'];
      if (model.kind !== 'price_points') throw new Error('5815 is priced by points');
      const subscriptions = transactions.filter(
        (transaction) =>
          transaction.mcc === '5815' &&
          !transaction.is_fraud &&
          (transaction.currency === 'EUR' || transaction.currency === 'GBP'),
      );
      expect(subscriptions.length, `seed ${seed}: subscriptions`).to.be.above(100);
      for (const subscription of subscriptions) expect(model.points).to.include(Number(subscription.amount));
    }
  });

  it("lets a config's override of the amount column move every category (mu a sigma higher: each a sigma of its own)", () => {
    for (const seed of SEEDS) {
      const medianOf = (mu: number) => {
        const { transactions } = generateTables(cards, {
          seed,
          tables: [
            { name: 'transactions', rows: 8000, columns: { amount: { distribution: 'lognormal', mu, sigma: 1.1 } } },
          ],
        });
        return quantile(transactions.filter((row) => row.mcc === '5411').map(euros), 0.5);
      };
      // The column's draw is read as a quantile: a z-score one higher puts groceries (sigma 0.8) e^0.8 times
      // higher. About 1,200 grocery rows: the ratio of medians is within 15 % of that.
      const expected = Math.exp(0.8);
      expect(medianOf(4.3) / medianOf(3.2)).to.be.closeTo(expected, 0.15 * expected);
    }
  });

  it('reissues a card due to expire: the same holder, a new PAN and expiry, and no transaction on the old one after', () => {
    for (const seed of SEEDS) {
      const { cards: issued, transactions } = dataset(seed);
      const cardById = new Map(issued.map((card) => [card.card_id, card]));
      const reissues = issued.filter((card) => card.replaces_card_id !== null);
      // First cards are issued from 2021 to mid-2025, so about one in five expires by the end of 2025.
      expect(reissues.length, `seed ${seed}: reissued cards`).to.be.above(75);
      const replacement = new Map<unknown, Record<string, unknown>>();
      for (const reissue of reissues) {
        const old = cardById.get(reissue.replaces_card_id);
        expect(old, `seed ${seed}: ${String(reissue.replaces_card_id)} is a card`).to.not.equal(undefined);
        expect(replacement.has(reissue.replaces_card_id), 'replaced once').to.equal(false);
        replacement.set(reissue.replaces_card_id, reissue);
        expect(reissue.cardholder_id).to.equal(old!.cardholder_id);
        expect(reissue.pan).to.not.equal(old!.pan);
        const [month, year] = String(old!.expiry).split('/');
        expect(reissue.issued_on).to.equal(`20${year}-${month}-01`);
        expect(reissue.expiry).to.equal(`${month}/${String(Number(year) + 4).padStart(2, '0')}`);
        expect(old!.status).to.equal('closed');
      }
      let onReissues = 0;
      const late: string[] = [];
      for (const transaction of transactions) {
        const card = cardById.get(transaction.card_id)!;
        const at = String(transaction.authorized_at);
        const [month, year] = String(card.expiry).split('/');
        if (at.slice(0, 7) > `20${year}-${month}`) late.push(`${at} on a card expiring ${String(card.expiry)}`);
        const next = replacement.get(card.card_id);
        if (next && at.slice(0, 10) >= String(next.issued_on))
          late.push(`${at} on a card replaced on ${String(next.issued_on)}`);
        if (card.replaces_card_id !== null) onReissues++;
      }
      expect(late, `seed ${seed}`).to.deep.equal([]);
      expect(onReissues, `seed ${seed}: transactions on reissued cards`).to.be.above(2000);
    }
  });

  it('has holders of age by an as-of date years before the defaults, customers from their 18th birthday to it', () => {
    const as_of = '2012-06-30';
    for (const seed of SEEDS.slice(0, 3)) {
      const { cardholders } = generateTables(cards, { seed, as_of, tables: [{ name: 'cardholders', rows: 1000 }] });
      for (const holder of cardholders) {
        const adult = birthday(String(holder.date_of_birth), 18);
        const since = String(holder.created_at).slice(0, 10);
        expect(adult <= as_of && since >= adult && since <= as_of, JSON.stringify(holder)).to.equal(true);
      }
    }
  });

  it('holds nothing after an earlier as-of date: transactions, settlements, holders and cards', () => {
    for (const seed of SEEDS) {
      const as_of = '2025-02-14';
      const end = Date.parse(as_of) + DAY;
      const tables = generateTables(cards, {
        seed,
        as_of,
        tables: [
          { name: 'cardholders', rows: 1000 },
          { name: 'cards', rows: 1500 },
          { name: 'transactions', rows: 20_000 },
        ],
      });
      for (const holder of tables.cardholders) expect(Date.parse(String(holder.created_at))).to.be.below(end);
      for (const card of tables.cards) expect(String(card.issued_on) <= as_of, String(card.issued_on)).to.equal(true);
      let last = 0;
      let pending = 0;
      const after: string[] = [];
      for (const transaction of tables.transactions) {
        const at = Date.parse(String(transaction.authorized_at));
        if (!(at < end)) after.push(String(transaction.authorized_at));
        last = Math.max(last, at);
        if (transaction.settled_at !== null) {
          if (!(Date.parse(String(transaction.settled_at)) < end)) after.push(String(transaction.settled_at));
        } else if (transaction.status === 'approved') pending++;
      }
      expect(after, `seed ${seed}`).to.deep.equal([]);
      // The period runs to the as-of day; what was authorised in its last days is not settled yet.
      expect(last, `seed ${seed}`).to.be.above(end - DAY);
      expect(pending, `seed ${seed}: approved, not yet settled`).to.be.above(0);
    }
  });
});
