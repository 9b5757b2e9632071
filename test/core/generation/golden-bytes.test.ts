import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { GOLDEN_FIXTURE, goldenDigests } from './golden-bytes.js';

describe('the bytes of every built-in table', function () {
  this.timeout(120_000);

  it('are those of the golden fixture, in every format and locale (an intended change updates it: see golden-bytes.ts)', async () => {
    const golden = JSON.parse(readFileSync(GOLDEN_FIXTURE, 'utf8')) as Record<string, string>;
    const digests = await goldenDigests();
    expect(Object.keys(digests)).to.have.length.above(90);
    expect(digests).to.deep.equal(golden);
  });
});
