import { expect } from 'chai';
import { ProblemError } from '../../../core/problems.js';
import { MAX_ALIASES, MAX_YAML_BYTES, parseYamlSource } from '../../../core/configs/yaml-source.js';

function refusal(text: string): ProblemError {
  try {
    parseYamlSource(text);
  } catch (error) {
    expect(error).to.be.instanceOf(ProblemError);
    return error as ProblemError;
  }
  throw new Error('the YAML was accepted');
}

const laughs = ['a: &a [x, x, x, x, x, x, x, x, x]']
  .concat(
    ['b', 'c', 'd', 'e', 'f', 'g'].map(
      (name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefg'[i]}`).join(', ')}]`,
    ),
  )
  .join('\n');

describe('YAML config source', () => {
  it('reads one plain document and locates values and keys by JSON pointer', () => {
    const source = parseYamlSource('version: 1\nsector: cards\ntables:\n  - name: transactions\n    rows: 10\n');
    expect(source.value).to.deep.equal({ version: 1, sector: 'cards', tables: [{ name: 'transactions', rows: 10 }] });
    expect(source.locate('/tables/0/rows')).to.deep.equal({ line: 5, column: 11 });
    expect(source.locate('/tables/0/rows', true)).to.deep.equal({ line: 5, column: 5 });
    expect(source.locate('/tables/3')).to.equal(undefined);
  });

  it('refuses billion laughs: alias expansion is capped before values are built, at the alias that crosses it', () => {
    const refused = refusal(laughs);
    expect(refused.type.slug).to.equal('invalid-yaml');
    expect(refused.detail).to.match(/alias/);
    // a: 10 nodes; b brings 9 × 10; c 9 × 91; d 9 × 820; e's first *d, 7,381 more: past 10,000.
    expect(refused.extensions.errors).to.deep.equal([
      {
        pointer: '',
        message: 'the aliases expand to 15670 nodes up to this one; at most 10000 are allowed',
        line: 5,
        column: 8,
      },
    ]);
  });

  it('counts aliases and what they bring in, and refuses those without an anchor or inside their own', () => {
    const shared = (count: number) =>
      [
        'shared: &o { distribution: lognormal, mu: 1, sigma: 2 }',
        ...Array.from({ length: count }, (_, i) => `c${i}: *o`),
      ].join('\n');
    expect(parseYamlSource(shared(MAX_ALIASES)).value)
      .to.have.property(`c${MAX_ALIASES - 1}`)
      .that.deep.equals({ distribution: 'lognormal', mu: 1, sigma: 2 });
    const cases: [string, string, number, number][] = [
      [shared(MAX_ALIASES + 1), `more than ${MAX_ALIASES} aliases`, MAX_ALIASES + 2, 7],
      ['a: 1\nb: *x\n', 'the alias *x names no anchor before it', 2, 4],
      ['a: 1\nb: &b [1, [*b]]\n', 'the alias *b is inside the node it names: its expansion never ends', 2, 12],
    ];
    for (const [text, message, line, column] of cases)
      expect(refusal(text).extensions.errors, message).to.deep.equal([{ pointer: '', message, line, column }]);
    // An alias names the last node anchored with its name before it, as yaml resolves it.
    expect(parseYamlSource('a: &x 1\nb: &x 2\nc: *x\n').value).to.deep.equal({ a: 1, b: 2, c: 2 });
  });

  it('refuses custom and non-core tags with their position', () => {
    for (const [text, line] of [
      ['a: !evil x\n', 1],
      ['a: 1\nb: !!binary aGk=\n', 2],
      ['s: !!set {x}\n', 1],
    ] as const) {
      const refused = refusal(text);
      expect(refused.type.slug).to.equal('invalid-yaml');
      expect((refused.extensions.errors as { line: number }[])[0].line).to.equal(line);
    }
  });

  it('refuses several documents, none, duplicate keys and syntax errors', () => {
    expect(refusal('a: 1\n---\nb: 2\n').detail).to.match(/2 YAML documents/);
    expect(refusal('').detail).to.match(/no YAML document/);
    const duplicate = refusal('a: 1\na: 2\n');
    expect(duplicate.extensions.errors).to.deep.equal([
      { pointer: '', message: 'Map keys must be unique', line: 2, column: 1 },
    ]);
    expect(refusal('a: [1, 2\n').type.slug).to.equal('invalid-yaml');
  });

  it('refuses a member named __proto__, with its position', () => {
    const refused = refusal('version: 1\ntables:\n  - name: t\n    options:\n      __proto__: { polluted: true }\n');
    expect(refused.type.slug).to.equal('invalid-yaml');
    expect(refused.extensions.errors).to.deep.equal([
      { pointer: '', message: 'a member named __proto__ is not allowed', line: 5, column: 7 },
    ]);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('refuses text with U+0000 or a lone surrogate, with its position', () => {
    for (const text of ['name: "a\\0b"\n', 'name: "half \\uD83D"\n']) {
      const refused = refusal(`version: 1\n${text}`);
      expect(refused.type.slug, text).to.equal('invalid-yaml');
      expect(refused.extensions.errors, text).to.deep.equal([
        { pointer: '/name', message: 'text with U+0000 or a lone surrogate is not allowed', line: 2, column: 7 },
      ]);
    }
  });

  it('refuses documents nested deeper than a config can be', () => {
    expect(refusal(`${'['.repeat(40)}${']'.repeat(40)}`).detail).to.match(/nested deeper/);
  });

  it('refuses more than 1 MiB with 413', () => {
    const refused = refusal(`# ${'x'.repeat(MAX_YAML_BYTES)}\n`);
    expect(refused.type.status).to.equal(413);
  });
});
