import { expect } from 'chai';
import { checkPack } from '../../../core/packs/test-kit.js';
import cards from '../../../plugins/cards/index.js';
import { ageOn, generateTables } from '../support/rows.js';

describe('the cards pack', () => {
  it('passes the pack test kit (manifest, types, references, same bytes with 1 and 4 workers)', async function () {
    this.timeout(120_000);
    const report = await checkPack(new URL('../../../plugins/cards/index.ts', import.meta.url));
    expect(Object.keys(report.tables)).to.have.members(['cardholders', 'cards', 'merchants', 'transactions']);
  });

  it('uses a card from its issue date until its reissue is issued or it expires, whatever the period', () => {
    for (const [seed, start_date, as_of] of [
      [5, '2025-01-01', undefined],
      [6, '2021-01-01', undefined],
      [7, '2026-03-01', '2026-12-31'],
    ] as const) {
      const tables = generateTables(cards, {
        seed,
        as_of,
        tables: [
          { name: 'cards', rows: 300 },
          { name: 'transactions', rows: 6000, options: { start_date, days: 120 } },
        ],
      });
      const cardById = new Map(tables.cards.map((card) => [card.card_id, card]));
      const reissueOf = new Map(tables.cards.map((card) => [card.replaces_card_id, card]));
      for (const transaction of tables.transactions) {
        const card = cardById.get(transaction.card_id)!;
        const at = String(transaction.authorized_at);
        expect(at.slice(0, 10) >= String(card.issued_on), `${at} before ${String(card.issued_on)}`).to.equal(true);
        const [month, year] = String(card.expiry).split('/');
        expect(at.slice(0, 7) <= `20${year}-${month}`, `${at} after ${String(card.expiry)}`).to.equal(true);
        const reissue = reissueOf.get(card.card_id);
        if (reissue) expect(at.slice(0, 10) < String(reissue.issued_on), `${at}: replaced`).to.equal(true);
      }
      // Holders' first cards issued in 2021-22 are due by then: their reissues are cards of their own.
      if (start_date === '2026-03-01') expect(reissueOf.size - 1, 'reissued cards').to.be.above(20);
    }
  });

  it("opens each cardholder relationship on or after the holder's 18th birthday, and issues cards only once it has begun", () => {
    for (const seed of [1, 2, 3]) {
      const { cardholders, cards: issued } = generateTables(cards, {
        seed,
        tables: [
          { name: 'cardholders', rows: 1500 },
          { name: 'cards', rows: 3000 },
        ],
      });
      const holderById = new Map(cardholders.map((holder) => [holder.cardholder_id, holder]));
      for (const holder of cardholders)
        expect(ageOn(holder.date_of_birth, holder.created_at), JSON.stringify(holder)).to.be.at.least(18);
      for (const card of issued)
        expect(
          String(card.issued_on) >= String(holderById.get(card.cardholder_id)!.created_at).slice(0, 10),
          JSON.stringify(card),
        ).to.equal(true);
    }
  });
});
