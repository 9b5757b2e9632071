import { GenerationPool } from '../core/generation/pool.js';
import { planWithin } from '../core/packs/test-kit.js';
import { loadOnePack } from './pack-source.js';
import { UsageError } from './options.js';
import { textTable } from './text-table.js';

export interface PreviewOptions {
  table?: string;
  rows: number;
  seed: number;
  json?: boolean;
}

/**
 * `finsynth pack preview DIR [--table T] [--rows 20]`: a few rows of a table of the pack (its first table by
 * default), generated as the service generates them, printed as a table (or NDJSON with --json).
 */
export async function packPreview(dir: string, options: PreviewOptions): Promise<number> {
  const { registry, name } = await loadOnePack(dir);
  const pack = registry.require(name);
  const tables = Object.keys(pack.tables);
  const table = options.table ?? tables[0];
  if (!tables.includes(table))
    throw new UsageError(`the pack "${name}" has no table "${table}"; its tables are ${tables.join(', ')}`);
  // A table whose parents decide its rows may hold fewer than asked: it shows what they hold.
  const plan = planWithin(registry, {
    sector: name,
    seed: options.seed,
    tables: [{ name: table, rows: options.rows }],
  });
  const pool = new GenerationPool(registry, { size: 1 });
  try {
    const ndjson = (await pool.bytes(plan, table, { format: 'ndjson' })).toString('utf8');
    if (options.json) {
      process.stdout.write(ndjson);
      return 0;
    }
    const columns = Object.keys(pack.tables[table].columns);
    const rows = ndjson
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const row: Record<string, unknown> = JSON.parse(line);
        return columns.map((column) => row[column]);
      });
    process.stdout.write(`${name}.${table}, ${rows.length} rows, seed ${options.seed}\n`);
    process.stdout.write(textTable(columns, rows));
    return 0;
  } finally {
    await pool.close();
  }
}
