import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { typeCheckSamples } from '../../support/type-check.js';

/** The guides whose TypeScript blocks are whole programs: they must compile against the client. */
const GUIDES = ['README.md'];

describe('the TypeScript the guides show', () => {
  for (const guide of GUIDES) {
    it(`type-checks every ts block of ${guide} against the client`, async function () {
      this.timeout(120_000);
      const text = await readFile(new URL(`../../../${guide}`, import.meta.url), 'utf8');
      const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
      expect(blocks).to.have.length.above(0);
      // Each block is a module of its own; `export {}` keeps one that imports nothing a module too.
      const samples = new Map(blocks.map((source, index) => [`${guide}#${index + 1}`, `${source}\nexport {};\n`]));
      expect(typeCheckSamples(samples)).to.deep.equal([]);
    });
  }
});
