import { expect } from 'chai';
import fc from 'fast-check';
import { compose } from '../../../core/configs/compose.js';
import { toPointer } from '../../../core/configs/issues.js';

/** Maps of maps and scalars (no named lists): where the rules are "deep merge, null removes, the last layer wins". */
const key = fc.constantFrom('a', 'b', 'c', 'd');
const scalar = fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 3 }));
const { map } = fc.letrec((tie) => ({
  map: fc.dictionary(key, fc.oneof({ maxDepth: 3 }, scalar, fc.array(scalar, { maxLength: 2 }), tie('map')), {
    maxKeys: 4,
  }),
}));
const patch = fc.letrec((tie) => ({
  map: fc.dictionary(
    key,
    fc.oneof({ maxDepth: 3 }, scalar, fc.constant(null), fc.array(scalar, { maxLength: 2 }), tie('map')),
    { maxKeys: 4 },
  ),
})).map;

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Leaves of a document by pointer: scalars and lists of scalars. */
function leaves(value: unknown, path: string[] = []): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (!isMap(value)) return found.set(toPointer(path), value);
  for (const [name, member] of Object.entries(value))
    for (const [pointer, leaf] of leaves(member, [...path, name])) found.set(pointer, leaf);
  return found;
}

describe('config composition, as properties', () => {
  it('a base alone composes to itself, every leaf attributed to it', () => {
    fc.assert(
      fc.property(map, (base) => {
        const result = compose([{ ref: 'base', content: base }]);
        expect(leaves(result.config)).to.deep.equal(leaves(base));
        expect(new Set(Object.values(result.sources))).to.satisfy((refs: Set<string>) =>
          [...refs].every((ref) => ref === 'base'),
        );
      }),
    );
  });

  it('every leaf of the result has exactly one source: the last layer that set it, and no source names a missing field', () => {
    fc.assert(
      fc.property(map, patch, patch, (base, first, second) => {
        const result = compose([
          { ref: 'base', content: base },
          { ref: 'first', content: first },
          { ref: 'second', content: second },
        ]);
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
        const result = compose([
          { ref: 'base', content: base },
          { ref: 'clear', content: clear },
        ]);
        expect(result.config).to.deep.equal({});
        expect(result.sources).to.deep.equal({});
      }),
    );
  });
});

/** Tables: items merged by name, `{ name, remove: true }` removing one. */
type TableItem = { name: string; remove?: true; [member: string]: unknown };
const tableName = fc.constantFrom('t1', 't2', 't3', 't4');
const tableItem: fc.Arbitrary<TableItem> = fc.oneof(
  fc.record({ name: tableName, remove: fc.constant(true as const) }),
  fc
    .tuple(tableName, fc.dictionary(fc.constantFrom('rows', 'x'), fc.integer(), { maxKeys: 2 }))
    .map(([name, members]) => ({ ...members, name })),
);
// Never an empty list: `tables: []` replaces the list whole, a rule of its own.
const tablesLayer = fc.array(tableItem, { minLength: 1, maxLength: 4 });

/** What the rules say, written as plainly as possible: a list of tables, each member with the layer that set it. */
function tablesModel(layers: TableItem[][]) {
  let tables: { name: string; nameRef: string; members: Map<string, { value: unknown; ref: string }> }[] | undefined;
  const removed = new Map<string, string>();
  layers.forEach((items, layer) => {
    const ref = `layer${layer}`;
    for (const { name, remove, ...members } of items) {
      const index = tables?.findIndex((table) => table.name === name) ?? -1;
      if (remove) {
        if (index === -1) continue;
        tables!.splice(index, 1);
        removed.set(name, ref);
        continue;
      }
      tables ??= [];
      let table = tables[index];
      if (!table) {
        table = { name, nameRef: ref, members: new Map() };
        tables.push(table);
        removed.delete(name);
      }
      for (const [member, value] of Object.entries(members)) table.members.set(member, { value, ref });
    }
  });
  return { tables, removed };
}

describe('table composition, as properties', () => {
  it("tables are added, merged and removed by name as a plain list model says, with every field's layer and every removal", () => {
    fc.assert(
      fc.property(fc.array(tablesLayer, { minLength: 1, maxLength: 5 }), (layers) => {
        const result = compose(layers.map((tables, layer) => ({ ref: `layer${layer}`, content: { tables } })));
        const { tables, removed } = tablesModel(layers);
        expect(result.config.tables).to.deep.equal(
          tables?.map((table) => ({
            name: table.name,
            ...Object.fromEntries([...table.members].map(([member, { value }]) => [member, value])),
          })),
        );
        const sources: Record<string, string> = {};
        tables?.forEach((table, index) => {
          sources[`/tables/${index}/name`] = table.nameRef;
          for (const [member, { ref }] of table.members) sources[`/tables/${index}/${member}`] = ref;
        });
        expect(result.sources).to.deep.equal(sources);
        expect(result.removed).to.deep.equal(
          [...removed].map(([name, layer]) => ({ pointer: '/tables', name, layer })),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('no table of the result is one that its last mention removed, and no removal names a table of the result', () => {
    fc.assert(
      fc.property(fc.array(tablesLayer, { minLength: 1, maxLength: 5 }), (layers) => {
        const result = compose(layers.map((tables, layer) => ({ ref: `layer${layer}`, content: { tables } })));
        const names = ((result.config.tables ?? []) as { name: string }[]).map((table) => table.name);
        for (const name of names)
          expect(layers.flat().findLast((item) => item.name === name)?.remove, name).to.equal(undefined);
        for (const removal of result.removed) expect(names).not.to.include(removal.name);
      }),
    );
  });
});
