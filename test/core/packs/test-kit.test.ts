import { expect } from 'chai';
import { AssertionError } from 'node:assert';
import { fileURLToPath } from 'node:url';
import { checkPack } from '../../../core/packs/test-kit.js';

describe('the pack test kit', function () {
  this.timeout(120_000);

  it('gives the same verdict on every run for a pack whose parents have a constant row count', async () => {
    // Such walks always count past the rows they need: the kit once failed most runs on the dropped counts.
    const steady = fileURLToPath(new URL('../generation/fixtures/steady-counts', import.meta.url));
    const reports = [];
    for (let run = 0; run < 5; run++) reports.push(await checkPack(steady, { rows: 1500 }));
    expect(reports[0].tables.children.rows).to.equal(1500);
    for (const report of reports) expect(report).to.deep.equal(reports[0]);
  });

  it('fails a pack whose values break their type, naming table, row, column and value', async () => {
    const error = await checkPack(fileURLToPath(new URL('./fixtures/invalid-values', import.meta.url)), {
      rows: 20,
    }).then(
      () => expect.fail('the kit should refuse the pack'),
      (caught: unknown) => caught,
    );
    expect(error).to.be.instanceOf(AssertionError);
    expect((error as Error).message).to.equal(
      'pack check failed: table "accounts", row 7, column "iban": "DE00500700100000000000" is not a valid iban',
    );
  });

  it("fails a pack whose BIC is not of its row's IBAN's country, or whose card number is not of its row's network", async () => {
    const failure = (fixture: string) =>
      checkPack(fileURLToPath(new URL(`./fixtures/${fixture}`, import.meta.url)), { rows: 20 }).then(
        () => expect.fail('the kit should refuse the pack'),
        (caught: Error) => caught,
      );
    const bic = await failure('bic-of-another-country');
    expect(bic).to.be.instanceOf(AssertionError);
    expect(bic.message).to.match(
      new RegExp(
        String.raw`^pack check failed: table "accounts", row 5, column "bic": ` +
          String.raw`"BNPAFRPP" is not of the country of "iban" \(DE\d{20}\)$`,
      ),
    );
    const pan = await failure('pan-of-another-network');
    expect(pan.message).to.equal(
      'pack check failed: table "cards", row 3, column "pan": ' +
        '"5555555555554444" is not a card number of "network" (visa)',
    );
  });

  it('fails a pack with an instant after the as-of date, whichever as-of date the plan has', async () => {
    const late = fileURLToPath(new URL('./fixtures/after-as-of', import.meta.url));
    for (const as_of of [undefined, '2024-02-29']) {
      const error = await checkPack(late, { rows: 20, as_of }).then(
        () => expect.fail('the kit should refuse the pack'),
        (caught: Error) => caught,
      );
      const end = new Date(Date.parse(`${as_of ?? '2025-12-31'}T00:00:00Z`) + 86_400_001).toISOString();
      expect(error.message).to.equal(
        `pack check failed: table "movements", row 4, column "at": ${end} is after the as-of date`,
      );
    }
  });

  it("fails a pack that its manifest refuses, with the loader's reasons", async () => {
    const error = await checkPack(fileURLToPath(new URL('./fixtures/bad-manifest', import.meta.url))).then(
      () => expect.fail('the kit should refuse the pack'),
      (caught: Error) => caught,
    );
    expect(error.message).to.contain('"badmanifest"').and.to.contain('/version');
  });

  it('fails a pack whose tables do not plan at their default rows, naming the seed and why', async () => {
    const error = await checkPack(fileURLToPath(new URL('./fixtures/short-defaults', import.meta.url)), {
      rows: 20,
    }).then(
      () => expect.fail('the kit should refuse the pack'),
      (caught: Error) => caught,
    );
    expect(error).to.be.instanceOf(AssertionError);
    expect(error.message)
      .to.contain('every table at its default rows does not plan with seed 1234')
      .and.to.contain('hold 20');
  });
});
