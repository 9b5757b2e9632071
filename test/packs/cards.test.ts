import { expect } from 'chai';
import { checkPack } from '../../core/packs/test-kit.js';

describe('the cards pack', () => {
  it('passes the pack test kit (manifest, types, references, same bytes with 1 and 4 workers)', async function () {
    this.timeout(120_000);
    const report = await checkPack(new URL('../../plugins/cards/index.ts', import.meta.url));
    expect(Object.keys(report.tables)).to.have.members(['cardholders', 'cards', 'merchants', 'transactions']);
  });
});
