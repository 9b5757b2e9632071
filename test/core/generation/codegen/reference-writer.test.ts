import { expect } from 'chai';
import fc from 'fast-check';
import { eachRow, renderChunk } from '../../../../core/generation/chunk.js';
import { FORMATS, type Format } from '../../../../core/generation/codegen/writers.js';
import { ChunkLayout } from '../../../../core/generation/layout.js';
import type { Plan } from '../../../../core/generation/plan-types.js';
import { referenceText } from '../../../../core/generation/reference-writer.js';
import { PlanRuntime } from '../../../../core/generation/runtime.js';
import { loadPacks } from '../../../../core/packs/loader.js';
import type { PackDefinition } from '../../../../core/packs/sdk.js';
import { planFor } from '../support.js';

/** The default locale, and one whose names, companies and addresses hold non-ASCII letters. */
const LOCALES = ['en_GB', 'de'];
/**
 * Runs per table, each checking every locale and format, besides the two examples below. fast-check's seed
 * is fixed (FAST_CHECK_SEED plus the table's position) so that a failure repeats; the plan seeds it draws
 * range over all of 0 to 2^32 - 1.
 */
const RUNS = 8;
const FAST_CHECK_SEED = 15;

interface Run {
  seed: number;
  rows: number;
  chunkRows: number;
  /** null_rate overrides by column name. */
  nullRates: Partial<Record<string, number>>;
}

const registry = await loadPacks();
const builtinTables = registry
  .names()
  .sort()
  .flatMap((sector) => Object.keys(registry.require(sector).tables).map((table) => ({ pack: registry.require(sector), table })));

/** The table as the engine writes it: the generated writer, chunk after chunk, as a worker would. */
function generatedBytes(pack: PackDefinition, plan: Plan, table: string, format: Format): Buffer {
  const runtime = new PlanRuntime(pack, plan);
  const layout = new ChunkLayout(pack, plan, table);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < layout.count; i++) chunks.push(renderChunk(runtime, table, layout.at(i), format));
  return Buffer.concat(chunks);
}

/** The same rows, generated afresh in a runtime of their own, through the reference writer. */
function referenceBytes(pack: PackDefinition, plan: Plan, table: string, format: Format, seen: { nulls: number }): Buffer {
  const runtime = new PlanRuntime(pack, plan);
  const layout = new ChunkLayout(pack, plan, table);
  const { columns } = runtime.table(table);
  const text = referenceText(columns, format, (write) => {
    for (let i = 0; i < layout.count; i++) {
      eachRow(runtime, table, layout.at(i), (row, index) => {
        seen.nulls += columns.filter((column) => row[column.name] === null).length;
        write(row, index);
      });
    }
  });
  return Buffer.from(text, 'utf8');
}

/** Where two outputs first differ, with some text of each around it. */
function firstDifference(generated: Buffer, reference: Buffer): string {
  let at = 0;
  while (at < generated.length && at < reference.length && generated[at] === reference[at]) at++;
  const around = (bytes: Buffer) => JSON.stringify(bytes.subarray(Math.max(0, at - 60), at + 60).toString('utf8'));
  return `first difference at byte ${at} of ${generated.length} (generated) and ${reference.length} (reference)\n`
    + `  generated: ${around(generated)}\n  reference: ${around(reference)}`;
}

describe('the generated writers against the reference writer', function () {
  this.timeout(60_000);

  it('covers the built-in packs', () => {
    expect(builtinTables.length).to.be.at.least(15);
  });

  builtinTables.forEach(({ pack, table }, position) => {
    it(`writes ${pack.name}.${table} byte for byte as the reference does, in every format and locale`, () => {
      const definition = pack.tables[table];
      // Keys and references take no override; every other column may be given a null_rate.
      const overridable = Object.keys(definition.columns).filter((name) => !['id', 'reference'].includes(definition.columns[name].type));
      const nullRate = fc.constantFrom(0.25, 1);
      const runs: fc.Arbitrary<Run> = fc.record({
        seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        rows: fc.integer({ min: 1, max: 240 }),
        chunkRows: fc.integer({ min: 16, max: 96 }),
        nullRates: fc.record(Object.fromEntries(overridable.map((name) => [name, nullRate])), { requiredKeys: [] }),
      });
      // An empty table (its one empty chunk carries the CSV header and JSON's "[]"), and a run of several
      // chunks with a null in about a quarter of every cell that may be null.
      const everyColumnNullable = Object.fromEntries(overridable.map((name) => [name, 0.25]));
      const examples: [Run][] = [
        [{ seed: 1, rows: 0, chunkRows: 16, nullRates: {} }],
        [{ seed: 2, rows: 200, chunkRows: 24, nullRates: everyColumnNullable }],
      ];
      const seen = { nulls: 0, chunks: 0 };
      const property = fc.property(runs, ({ seed, rows, chunkRows, nullRates }) => {
        const columns = Object.fromEntries(Object.entries(nullRates).map(([name, rate]) => [name, { null_rate: rate }]));
        for (const locale of LOCALES) {
          const planned = planFor(pack, { seed, locale, tables: [{ name: table, rows, columns }] });
          const plan: Plan = { ...planned, chunk_rows: chunkRows };
          seen.chunks = Math.max(seen.chunks, new ChunkLayout(pack, plan, table).count);
          for (const format of FORMATS) {
            const generated = generatedBytes(pack, plan, table, format);
            const reference = referenceBytes(pack, plan, table, format, seen);
            if (!generated.equals(reference)) {
              expect.fail(`${format}, locale ${locale}, ${rows} rows by ${chunkRows}: ${firstDifference(generated, reference)}`);
            }
          }
        }
      });
      fc.assert(property, { numRuns: RUNS, seed: FAST_CHECK_SEED + position, examples });
      expect(seen.chunks, 'chunks of the largest run').to.be.above(1);
      expect(seen.nulls, 'null cells written').to.be.above(0);
    });
  });
});
