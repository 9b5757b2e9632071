import { expect } from 'chai';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import cards from '../../../plugins/cards/index.js';
import { loadPacks } from '../../../core/packs/loader.js';
import { GenerationPool } from '../../../core/generation/pool.js';
import { currencyByCode } from '../../../core/generation/reference-data/currencies.js';
import { validatePan } from '../../../core/generation/realism/pan.js';
import { asOfEnd, DEFAULT_AS_OF } from '../../../core/generation/as-of.js';
import { generateInline, planFor, rowsOf } from '../generation/support.js';

const seeds = fc.integer({ min: 0, max: 2 ** 32 - 1 });

describe('the engine on the cards pack', function () {
  this.timeout(60_000);

  it('gives the same bytes with 1 and with 4 workers, over seeds and formats', async () => {
    const registry = await loadPacks();
    const one = new GenerationPool(registry, { size: 1 });
    const four = new GenerationPool(registry, { size: 4 });
    try {
      await fc.assert(
        fc.asyncProperty(
          seeds,
          fc.constantFrom('ndjson', 'csv', 'json') as fc.Arbitrary<'ndjson' | 'csv' | 'json'>,
          async (seed, format) => {
            const plan = {
              ...planFor(cards, {
                seed,
                tables: [
                  { name: 'transactions', rows: 3000 },
                  { name: 'cards', rows: 40 },
                ],
              }),
              chunk_rows: 500,
            };
            const digest = async (pool: GenerationPool) =>
              createHash('sha256')
                .update(await pool.bytes(plan, 'transactions', { format }))
                .digest('hex');
            expect(await digest(four)).to.equal(await digest(one));
          },
        ),
        { numRuns: 4 },
      );
    } finally {
      await Promise.all([one.close(), four.close()]);
    }
  });

  it('delivers chunks in order with progress, and JSON across chunks is one array', async () => {
    const registry = await loadPacks();
    const pool = new GenerationPool(registry, { size: 2 });
    try {
      const plan = { ...planFor(cards, { seed: 3, tables: [{ name: 'merchants', rows: 2500 }] }), chunk_rows: 1000 };
      const progress: number[] = [];
      const chunks: Buffer[] = [];
      for await (const chunk of pool.generate(plan, 'merchants', {
        format: 'json',
        onProgress: (done, total) => progress.push(done / total),
      }))
        chunks.push(Buffer.from(chunk));
      expect(progress).to.deep.equal([0.4, 0.8, 1]);
      const rows = JSON.parse(Buffer.concat(chunks).toString()) as { merchant_id: string }[];
      expect(rows).to.have.length(2500);
      expect(Buffer.concat(chunks).toString()).to.equal(generateInline(cards, plan, 'merchants', 'json'));
    } finally {
      await pool.close();
    }
  });

  it('resolves every reference, with no parent rows in memory, over seeds', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const plan = {
          ...planFor(cards, {
            seed,
            tables: [
              { name: 'cardholders', rows: 60 },
              { name: 'cards', rows: 90 },
              { name: 'merchants', rows: 30 },
              { name: 'transactions', rows: 900 },
            ],
          }),
          chunk_rows: 200,
        };
        const keys = (table: string, column: string) =>
          new Set(rowsOf(generateInline(cards, plan, table)).map((row) => row[column]));
        const holders = keys('cardholders', 'cardholder_id');
        const merchants = keys('merchants', 'merchant_id');
        const cardRows = rowsOf(generateInline(cards, plan, 'cards'));
        const cardIds = new Set(cardRows.map((row) => row.card_id));
        for (const card of cardRows) expect(holders.has(card.cardholder_id)).to.equal(true);
        for (const transaction of rowsOf(generateInline(cards, plan, 'transactions'))) {
          expect(cardIds.has(transaction.card_id)).to.equal(true);
          expect(merchants.has(transaction.merchant_id)).to.equal(true);
        }
      }),
      { numRuns: 8 },
    );
  });

  it("keeps a card's transactions in time order, settles after authorising, and rounds amounts to minor units", () => {
    const lastUnsettled = asOfEnd(DEFAULT_AS_OF) - (3 * 24 + 6) * 3_600_000;
    const plan = planFor(cards, {
      seed: 11,
      tables: [
        { name: 'transactions', rows: 5000 },
        { name: 'cards', rows: 50 },
      ],
    });
    const last = new Map<unknown, string>();
    const cardRows = rowsOf(generateInline(cards, plan, 'cards'));
    for (const card of cardRows) expect(validatePan(String(card.pan), card.network as never)).to.equal(true);
    for (const row of rowsOf(generateInline(cards, plan, 'transactions'))) {
      const authorised = String(row.authorized_at);
      expect(authorised >= (last.get(row.card_id) ?? '')).to.equal(true);
      last.set(row.card_id, authorised);
      if (row.settled_at !== null) expect(String(row.settled_at) > authorised).to.equal(true);
      // Approved payments settle one to three days (and up to six hours) later, unless that falls after the as-of day.
      if (row.status !== 'approved') expect(row.settled_at).to.equal(null);
      else if (row.settled_at === null)
        expect(Date.parse(authorised) >= lastUnsettled, JSON.stringify(row)).to.equal(true);
      const minor = currencyByCode.get(String(row.currency))!.minor_units;
      expect(Math.abs(Number(row.amount) * 10 ** minor - Math.round(Number(row.amount) * 10 ** minor))).to.be.below(
        1e-6,
      );
    }
    expect(last.size).to.be.above(40);
  });

  it('labels fraud at the configured rate within tolerance over 100,000 rows, in every pattern', () => {
    const rate = 0.02;
    const plan = planFor(cards, {
      seed: 2024,
      tables: [{ name: 'transactions', rows: 100_000, options: { fraud_rate: rate } }],
    });
    const rows = rowsOf(generateInline(cards, plan, 'transactions'));
    const fraud = rows.filter((row) => row.is_fraud === true);
    expect(fraud.length / rows.length).to.be.within(rate * 0.85, rate * 1.15);
    expect(new Set(fraud.map((row) => row.fraud_pattern))).to.deep.equal(
      new Set(['card_testing', 'foreign_country', 'unusual_category', 'odd_hours']),
    );
    expect(rows.filter((row) => !row.is_fraud).every((row) => row.fraud_pattern === null)).to.equal(true);
    const night = fraud
      .filter((row) => row.fraud_pattern === 'odd_hours')
      .map((row) => Number(String(row.authorized_at).slice(11, 13)));
    expect(night.every((hour) => hour >= 1 && hour < 5)).to.equal(true);
  });

  it('labels fraud without bias: over 600,000 rows the share is the configured rate to within 3 %', () => {
    // Six seeds of 100,000 rows: about 9,000 episodes, so chance alone moves the share by about 1 %. Cards
    // that began clear of fraud gave 0.965 of a 0.05 rate here.
    const rate = 0.05;
    let fraud = 0;
    let rows = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const plan = planFor(cards, {
        seed,
        tables: [{ name: 'transactions', rows: 100_000, options: { fraud_rate: rate } }],
      });
      const generated = rowsOf(generateInline(cards, plan, 'transactions'));
      rows += generated.length;
      fraud += generated.filter((row) => row.is_fraud === true).length;
    }
    expect(fraud / rows / rate).to.be.within(0.97, 1.03);
  });

  it('applies per-column overrides: distribution, enum weights, null rate', () => {
    const plan = planFor(cards, {
      seed: 5,
      tables: [{ name: 'merchants', rows: 4000, columns: { mcc: { groups: ['travel'] }, city: { null_rate: 0.25 } } }],
    });
    const rows = rowsOf(generateInline(cards, plan, 'merchants'));
    expect(new Set(rows.map((row) => row.mcc))).to.deep.equal(new Set(['4511', '7011', '7512', '4722']));
    expect(rows.filter((row) => row.city === null).length / rows.length).to.be.within(0.22, 0.28);
    const declinedOnly = planFor(cards, {
      seed: 5,
      tables: [
        {
          name: 'transactions',
          rows: 500,
          options: { fraud_rate: 0 },
          columns: { status: { weights: { declined: 1 } } },
        },
      ],
    });
    expect(new Set(rowsOf(generateInline(cards, declinedOnly, 'transactions')).map((row) => row.status))).to.deep.equal(
      new Set(['declined']),
    );
    const lognormal = planFor(cards, {
      seed: 5,
      tables: [
        { name: 'cards', rows: 3000, columns: { credit_limit: { distribution: 'lognormal', mu: 5, sigma: 0.5 } } },
      ],
    });
    const limits = rowsOf(generateInline(cards, lognormal, 'cards'))
      .map((row) => row.credit_limit)
      .filter((limit): limit is number => limit !== null);
    const meanLog = limits.reduce((sum, limit) => sum + Math.log(limit), 0) / limits.length;
    expect(meanLog).to.be.within(4.9, 5.1);
  });
});
