import { expect } from 'chai';
import fc from 'fast-check';
import { compose } from '../../core/configs/compose.js';
import { toPointer } from '../../core/configs/issues.js';

/** Maps of maps and scalars (no named lists): where the rules are "deep merge, null removes, the last layer wins". */
const key = fc.constantFrom('a', 'b', 'c', 'd');
const scalar = fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 3 }));
const { map } = fc.letrec((tie) => ({
  map: fc.dictionary(key, fc.oneof({ maxDepth: 3 }, scalar, fc.array(scalar, { maxLength: 2 }), tie('map')), { maxKeys: 4 }),
}));
const patch = fc.letrec((tie) => ({
  map: fc.dictionary(key, fc.oneof({ maxDepth: 3 }, scalar, fc.constant(null), fc.array(scalar, { maxLength: 2 }), tie('map')), { maxKeys: 4 }),
})).map;

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Leaves of a document by pointer: scalars and lists of scalars. */
function leaves(value: unknown, path: string[] = []): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (!isMap(value)) return found.set(toPointer(path), value);
  for (const [name, member] of Object.entries(value)) for (const [pointer, leaf] of leaves(member, [...path, name])) found.set(pointer, leaf);
  return found;
}

describe('config composition, as properties', () => {
  it('a base alone composes to itself, every leaf attributed to it', () => {
    fc.assert(
      fc.property(map, (base) => {
        const result = compose([{ ref: 'base', content: base }]);
        expect(leaves(result.config)).to.deep.equal(leaves(base));
        expect(new Set(Object.values(result.sources))).to.satisfy((refs: Set<string>) => [...refs].every((ref) => ref === 'base'));
      }),
    );
  });

  it('every leaf of the result has exactly one source: the last layer that set it, and no source names a missing field', () => {
    fc.assert(
      fc.property(map, patch, patch, (base, first, second) => {
        const result = compose([{ ref: 'base', content: base }, { ref: 'first', content: first }, { ref: 'second', content: second }]);
        const resultLeaves = leaves(result.config);
        for (const pointer of Object.keys(result.sources)) expect(resultLeaves.has(pointer), pointer).to.equal(true);
        for (const [pointer] of resultLeaves) {
          const setBy = ['second', 'first', 'base'].find((ref) => leaves({ second, first, base }[ref]).has(pointer));
          expect(result.sources[pointer], pointer).to.equal(setBy);
        }
      }),
    );
  });

  it('a layer of nulls for every top-level member empties the document', () => {
    fc.assert(
      fc.property(map, (base) => {
        const clear = Object.fromEntries(Object.keys(base).map((name) => [name, null]));
        const result = compose([{ ref: 'base', content: base }, { ref: 'clear', content: clear }]);
        expect(result.config).to.deep.equal({});
        expect(result.sources).to.deep.equal({});
      }),
    );
  });
});
