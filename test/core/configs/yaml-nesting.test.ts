import { expect } from 'chai';
import fc from 'fast-check';
import { Lexer, stringify } from 'yaml';
import { YamlNesting } from '../../../core/configs/yaml-nesting.js';

/** Whether the nesting of `text`, as YamlNesting estimates it, reaches `limit` somewhere. */
function reaches(text: string, limit: number): boolean {
  const nesting = new YamlNesting(limit);
  for (const token of new Lexer().lex(text)) if (nesting.read(token) !== undefined) return true;
  return false;
}

/** Collections nested in one another, the deepest chain (a scalar adds nothing). */
function depth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depth));
}

/** Scalars, with text that YAML writes over several lines, or that starts like an indicator or a comment. */
const scalars = fc.oneof(
  fc.integer(),
  fc.string(),
  fc.constant(null),
  fc.constantFrom(
    'one\n  two\n    three\n',
    '  lead',
    '# not a comment',
    '- not a list',
    'a: b',
    'x\n\n- y',
    '[not, flow]',
  ),
);

const documents = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalars, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), tie('value'), { maxKeys: 3 }),
}));

describe('YamlNesting: the depth estimated while lexing', () => {
  it('stays between half the true depth and the true depth plus two, in block and flow style (fast-check, 1,000 runs)', () => {
    fc.assert(
      fc.property(
        fc.oneof(documents.array, documents.object),
        fc.constantFrom('block', 'flow', 'any'),
        (value, style) => {
          const text = stringify(value, { collectionStyle: style as 'block' | 'flow' | 'any' });
          const real = depth(value);
          expect(reaches(text, real + 3), text).to.equal(false);
          if (real >= 2) expect(reaches(text, Math.floor(real / 2)), text).to.equal(true);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('reaches a limit at the token where the nesting does, in every style of nesting', () => {
    const listUnderKey = (level: number) => `${' '.repeat(2 * level)}${level ? '- ' : ''}a:`;
    const deep = (levels: number) =>
      `${Array.from({ length: levels }, (_, level) => listUnderKey(level)).join('\n')} 1\n`;
    expect(reaches(deep(20), 20)).to.equal(true);
    expect(reaches(deep(20), 50)).to.equal(false);
    expect(reaches(`${'['.repeat(10)}${']'.repeat(10)}`, 12)).to.equal(false);
    expect(reaches(`${'['.repeat(10)}${']'.repeat(10)}`, 10)).to.equal(true);
    expect(reaches(`${'- '.repeat(10)}x`, 12)).to.equal(false);
    expect(reaches(`${'- '.repeat(10)}x`, 10)).to.equal(true);
    // Comments, block scalars and multi-line scalars start lines without nesting anything.
    expect(
      reaches('a: |\n        deep text\n            deeper\nb: "x\n             y"\n# c\n          # d\nc: 1\n', 4),
    ).to.equal(false);
  });
});
