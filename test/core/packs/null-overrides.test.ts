import { expect } from 'chai';
import { parentsOf } from '../../../core/generation/pack-definition.js';
import { overridableOf } from '../../../core/generation/types/params.js';
import { loadPacks } from '../../../core/packs/loader.js';
import type { PackDefinition } from '../../../core/packs/sdk.js';
import { generateInline, planFor, rowsOf } from '../generation/support.js';

/** Tables another table of the pack reads: the ones it references, and the parent it is generated per. */
function readTables(pack: PackDefinition): Set<string> {
  const read = new Set<string>();
  for (const table of Object.keys(pack.tables)) for (const parent of parentsOf(pack, table)) read.add(parent);
  return read;
}

describe("a config's null_rate on the columns other tables read", function () {
  this.timeout(120_000);

  it('marks that table’s output only: every built-in table reading it still generates, with no NaN (2 seeds)', async () => {
    const registry = await loadPacks();
    let checked = 0;
    for (const sector of ['banking', 'cards', 'lending', 'insurance', 'markets']) {
      const pack = registry.require(sector);
      for (const read of readTables(pack)) {
        const columns = Object.fromEntries(
          Object.entries(pack.tables[read].columns)
            .filter(([, column]) => overridableOf(column).includes('null_rate'))
            .map(([name]) => [name, { null_rate: 0.5 }]),
        );
        for (const seed of [1, 2]) {
          const own = rowsOf(
            generateInline(pack, planFor(pack, { seed, tables: [{ name: read, rows: 200, columns }] }), read),
          );
          for (const name of Object.keys(columns))
            expect(
              own.some((row) => row[name] === null),
              `${sector}.${read}.${name} has nulls`,
            ).to.equal(true);
          for (const table of Object.keys(pack.tables)) {
            if (table === read) continue;
            const plan = planFor(pack, {
              seed,
              tables: [
                { name: read, columns },
                { name: table, rows: 100 },
              ],
            });
            const text = generateInline(pack, plan, table);
            expect(rowsOf(text), `${sector}.${table} with nulls in ${read}`).to.have.length.above(0);
            expect(text, `${sector}.${table} with nulls in ${read}`).to.not.match(/NaN|Infinity|"null"/);
            checked++;
          }
        }
      }
    }
    expect(checked).to.be.above(20);
  });
});
