import { expect } from 'chai';
import { AssertionError } from 'node:assert';
import { fileURLToPath } from 'node:url';
import { checkPack } from '../../core/packs/test-kit.js';

describe('the pack test kit', function () {
  this.timeout(120_000);

  it('fails a pack whose values break their type, naming table, row, column and value', async () => {
    const error = await checkPack(fileURLToPath(new URL('./fixtures/invalid-values', import.meta.url)), { rows: 20 }).then(
      () => expect.fail('the kit should refuse the pack'),
      (caught: unknown) => caught,
    );
    expect(error).to.be.instanceOf(AssertionError);
    expect((error as Error).message).to.equal('pack check failed: table "accounts", row 7, column "iban": "DE00500700100000000000" is not a valid iban');
  });

  it('fails a pack that its manifest refuses, with the loader\'s reasons', async () => {
    const error = await checkPack(fileURLToPath(new URL('./fixtures/bad-manifest', import.meta.url))).then(
      () => expect.fail('the kit should refuse the pack'),
      (caught: Error) => caught,
    );
    expect(error.message).to.contain('"badmanifest"').and.to.contain('/version');
  });

  it('fails a pack whose tables do not plan at their default rows, naming the seed and why', async () => {
    const error = await checkPack(fileURLToPath(new URL('./fixtures/short-defaults', import.meta.url)), { rows: 20 }).then(
      () => expect.fail('the kit should refuse the pack'),
      (caught: Error) => caught,
    );
    expect(error).to.be.instanceOf(AssertionError);
    expect(error.message).to.contain('every table at its default rows does not plan with seed 1234').and.to.contain('hold 20');
  });
});
