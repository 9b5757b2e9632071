import { expect } from 'chai';
import fc from 'fast-check';
import { joinedLocalParts, localPartOf } from '../../../../core/generation/types/email-local-part.js';
import banking from '../../../../plugins/banking/index.js';
import { generateInline, planFor, rowsOf } from '../support.js';

describe("an e-mail address's local part from a name", () => {
  it('drops accents, spells out the Latin letters without a decomposition, and joins words with dots', () => {
    expect(localPartOf('José María García')).to.equal('jose.maria.garcia');
    expect(localPartOf('Jürgen Müller-Lüdenscheidt')).to.equal('jurgen.muller.ludenscheidt');
    expect(localPartOf("Øyvind Strauß O'Neil")).to.equal('oyvind.strauss.o.neil');
    expect(localPartOf('Łukasz Wójcik')).to.equal('lukasz.wojcik');
    expect(localPartOf('İlkay Şahin')).to.equal('ilkay.sahin');
    expect(localPartOf('  Anne  ')).to.equal('anne');
    expect(localPartOf('山田 太郎')).to.equal('');
  });

  it("is the same joined from a given and a family name's parts as on the whole name", () => {
    const letters = fc.constantFrom(..."aZéÉßøØłŁ İı-.'’ 0山ё\u0301".split(''));
    const names = fc.array(letters, { maxLength: 24 }).map((chars) => chars.join(''));
    const part = fc.oneof(names, fc.string());
    fc.assert(
      fc.property(part, part, (first, last) => {
        const whole = `${first} ${last}`;
        expect(joinedLocalParts(localPartOf(first), localPartOf(last)), JSON.stringify(whole)).to.equal(
          localPartOf(whole),
        );
      }),
      { numRuns: 2000, seed: 20_261_127 },
    );
  });

  it("is what the addresses of generated people hold, each from its row's name", () => {
    for (const seed of [1, 2, 3]) {
      const plan = planFor(banking, { seed, tables: [{ name: 'customers', rows: 3000 }] });
      for (const row of rowsOf(generateInline(banking, plan, 'customers'))) {
        if (row.email === null) continue;
        const local = String(row.email).split('@')[0].replace(/\d+$/, '');
        expect(local, JSON.stringify(row)).to.equal(localPartOf(String(row.name)) || 'user');
      }
    }
  });
});
