import { expect } from 'chai';
import fc from 'fast-check';
import { eachRow, renderChunk } from '../../../../core/generation/chunk.js';
import { FORMATS, type Format } from '../../../../core/generation/codegen/writers.js';
import { ChunkLayout } from '../../../../core/generation/layout.js';
import type { Plan } from '../../../../core/generation/plan-types.js';
import { referenceText } from '../../../../core/generation/reference-writer.js';
import { PlanRuntime } from '../../../../core/generation/runtime.js';
import { loadPacks } from '../../../../core/packs/loader.js';
import { definePack, type PackDefinition } from '../../../../core/packs/sdk.js';
import { planFor } from '../support.js';

/** The default locale, and one whose names, companies and addresses hold non-ASCII letters. */
const LOCALES = ['en_GB', 'de'];
/**
 * Runs per table, each checking every locale and format, besides the two examples below. fast-check's seed
 * is fixed (FAST_CHECK_SEED plus the table's position) so that a failure repeats; the plan seeds it draws
 * range over all of 0 to 2^32 - 1.
 */
const RUNS = 12;
const FAST_CHECK_SEED = 15;
/** Runs of the table of awkward cells below, with the same fast-check seed. */
const AWKWARD_RUNS = 200;

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
  .flatMap((sector) =>
    Object.keys(registry.require(sector).tables).map((table) => ({ pack: registry.require(sector), table })),
  );

/** The table as the engine writes it: the generated writer, chunk after chunk, as a worker would. */
function generatedBytes(pack: PackDefinition, plan: Plan, table: string, format: Format): Buffer {
  const runtime = new PlanRuntime(pack, plan);
  const layout = new ChunkLayout(pack, plan, table);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < layout.count; i++) chunks.push(renderChunk(runtime, table, layout.at(i), format));
  return Buffer.concat(chunks);
}

/** The same rows, generated afresh in a runtime of their own, through the reference writer. */
function referenceBytes(
  pack: PackDefinition,
  plan: Plan,
  table: string,
  format: Format,
  seen: { nulls: number },
): Buffer {
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
  return (
    `first difference at byte ${at} of ${generated.length} (generated) and ${reference.length} (reference)\n` +
    `  generated: ${around(generated)}\n  reference: ${around(reference)}`
  );
}

/**
 * Cells the built-in packs never write (quotes, control characters, any Unicode but lone surrogates, every
 * currency's minor units, numbers that are not safe integers, instants given as numbers, keys a generator
 * sets or points itself), drawn by fast-check for each run and handed out by the row function in turn.
 * Not drawn, because the generated writer's bytes differ from the reference's there: a lone surrogate in
 * JSON text, text in a column of a number or boolean type in CSV, an instant outside years 0000 to 9999.
 */
interface AwkwardCells {
  note: string;
  currency?: string | null;
  amount: number;
  bhd: number;
  at: number | string;
  count: number;
  flag: boolean | null;
  cell_id?: string;
  /** The owner row to point owner_id at (`ctx.setRef`), modulo the owners' rows. */
  owner?: number;
}

let awkwardCells: AwkwardCells[] = [];

const awkward = definePack({
  name: 'awkward',
  version: '1.0.0',
  description: 'Values that writers must escape, round or print from a number.',
  tables: {
    owners: {
      description: 'What cells point at.',
      default_rows: 10,
      credits_per_1000_rows: 1,
      columns: { owner_id: { type: 'id', prefix: 'own', description: 'Key.' } },
    },
    cells: {
      description: 'One awkward cell of each kind per row.',
      default_rows: 40,
      credits_per_1000_rows: 1,
      columns: {
        cell_id: { type: 'id', prefix: 'cell', description: 'Key, or a text the generator sets.' },
        owner_id: { type: 'reference', table: 'owners', description: 'Drawn, or pointed by the generator.' },
        note: { type: 'string', description: 'Any text.' },
        currency: { type: 'currency', nullable: true, description: 'Any ISO 4217 code, or null.' },
        amount: { type: 'money', currency_column: 'currency', computed: true, description: 'In the row currency.' },
        bhd: { type: 'money', currency: 'BHD', computed: true, description: 'Three minor units.' },
        at: { type: 'timestamp', computed: true, description: 'An instant as ms since the epoch, or its text.' },
        count: { type: 'decimal', computed: true, description: 'Any double.' },
        flag: { type: 'boolean', nullable: true, computed: true, description: 'Maybe.' },
      },
      row: (ctx) => {
        const { owner, ...cells } = awkwardCells[ctx.index % awkwardCells.length];
        if (owner !== undefined) ctx.setRef('owner_id', owner % ctx.rowsOf('owners'));
        return { ...cells };
      },
    },
  },
});

/** Characters that need quoting or escaping, mixed with plain and non-ASCII ones. */
const trickyText = fc.string({
  unit: fc.constantFrom(',', '"', '\r', '\n', '\\', '\t', '\u0001', 'a', ' ', 'é', '€', '\u2028', '😀'),
});
/** From year 0000 to 9999 (the range timestamps are written in), with a fraction of a millisecond. */
const instant = fc
  .tuple(
    fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }),
    fc.double({ min: 0, max: 0.999, noNaN: true }),
  )
  .map(([ms, fraction]) => ms + fraction);
/** Any double a column can hold: Infinity and NaN fail the generation (finite-numbers.test.ts), not written. */
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const awkwardRow: fc.Arbitrary<AwkwardCells> = fc.record(
  {
    note: fc.oneof(trickyText, fc.string({ unit: 'binary' })),
    currency: fc.constantFrom(null, 'JPY', 'EUR', 'KWD', 'CLF', 'XXX'),
    amount: fc.oneof(finite, fc.double({ min: -1e6, max: 1e6 }), fc.integer()),
    bhd: fc.oneof(finite, fc.double({ min: -10, max: 10 })),
    at: fc.oneof(instant, fc.constant('2025-03-14T09:26:53.589Z')),
    count: fc.oneof(finite, fc.maxSafeInteger()),
    flag: fc.constantFrom(true, false, null),
    cell_id: trickyText,
    owner: fc.nat(),
  },
  { requiredKeys: ['note', 'amount', 'bhd', 'at', 'count', 'flag'] },
);

describe('the generated writers against the reference writer', function () {
  this.timeout(60_000);

  it('covers the built-in packs', () => {
    expect(builtinTables.length).to.be.at.least(15);
  });

  it('writes awkward cells byte for byte as the reference does: quoted, escaped, rounded, printed from numbers', () => {
    // A run: the cells the rows take in turn, the plan's seed and rows, and a chunk size that splits them.
    const runs = fc.record({
      cells: fc.array(awkwardRow, { minLength: 1, maxLength: 8 }),
      seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      rows: fc.integer({ min: 1, max: 40 }),
      chunkRows: fc.integer({ min: 3, max: 16 }),
    });
    const property = fc.property(runs, ({ cells, seed, rows, chunkRows }) => {
      awkwardCells = cells;
      const plan: Plan = { ...planFor(awkward, { seed, tables: [{ name: 'cells', rows }] }), chunk_rows: chunkRows };
      for (const format of FORMATS) {
        const generated = generatedBytes(awkward, plan, 'cells', format);
        const reference = referenceBytes(awkward, plan, 'cells', format, { nulls: 0 });
        if (!generated.equals(reference)) expect.fail(`${format}: ${firstDifference(generated, reference)}`);
      }
    });
    fc.assert(property, { numRuns: AWKWARD_RUNS, seed: FAST_CHECK_SEED });
  });

  /**
   * Options that make a few hundred rows span several parents, and so several chunks: an instrument's price bars
   * are every trading day of its window, about 500 from the default start date.
   */
  const SHORT_WINDOWS: Record<string, Record<string, unknown>> = { 'markets.price_bars': { start_date: '2025-10-01' } };

  builtinTables.forEach(({ pack, table }, position) => {
    it(`writes ${pack.name}.${table} byte for byte as the reference does, in every format and locale`, () => {
      const definition = pack.tables[table];
      // Keys and references take no override; every other column may be given a null_rate.
      const overridable = Object.keys(definition.columns).filter(
        (name) => !['id', 'reference'].includes(definition.columns[name].type),
      );
      const nullRate = fc.constantFrom(0.25, 1);
      const runs: fc.Arbitrary<Run> = fc.record({
        seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        rows: fc.integer({ min: 1, max: 300 }),
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
        const columns = Object.fromEntries(
          Object.entries(nullRates).map(([name, rate]) => [name, { null_rate: rate }]),
        );
        for (const locale of LOCALES) {
          const options = SHORT_WINDOWS[`${pack.name}.${table}`];
          const planned = planFor(pack, { seed, locale, tables: [{ name: table, rows, columns, options }] });
          const plan: Plan = { ...planned, chunk_rows: chunkRows };
          seen.chunks = Math.max(seen.chunks, new ChunkLayout(pack, plan, table).count);
          for (const format of FORMATS) {
            const generated = generatedBytes(pack, plan, table, format);
            const reference = referenceBytes(pack, plan, table, format, seen);
            if (!generated.equals(reference)) {
              expect.fail(
                `${format}, locale ${locale}, ${rows} rows by ${chunkRows}: ${firstDifference(generated, reference)}`,
              );
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
