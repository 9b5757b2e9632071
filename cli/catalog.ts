import { loadConfig } from '../core/settings/settings.js';
import { loadPacks, refusalMessage } from '../core/packs/loader.js';
import { UsageError } from './options.js';
import { textTable } from './text-table.js';
import { Catalog } from '../core/catalog/catalog.js';

export interface CatalogOptions {
  packs?: string[];
  json?: boolean;
}

/**
 * `finsynth catalog [SECTOR [TABLE]]`: the catalog of this machine's packs (the built-in ones, FINSYNTH_PACKS and
 * --packs), as GET /v1/catalog describes them: the sectors, one sector's tables, or one table's columns and
 * options. Refused packs are named on stderr with their reasons.
 */
export async function catalog(
  sector: string | undefined,
  table: string | undefined,
  options: CatalogOptions,
): Promise<number> {
  const settings = loadConfig(process.env);
  const registry = await loadPacks({ extra: [...settings.packs, ...(options.packs ?? [])] });
  for (const refused of registry.refused) process.stderr.write(`finsynth catalog: ${refusalMessage(refused)}\n`);
  if (sector !== undefined && !registry.get(sector))
    throw new UsageError(`no sector "${sector}"; the sectors are ${registry.names().join(', ')}`);
  if (sector === undefined) {
    const described = registry.describe();
    if (options.json) return print(described);
    process.stdout.write(
      textTable(
        ['sector', 'version', 'tables', 'description'],
        described.sectors.map((pack) => [
          pack.name,
          pack.version,
          pack.tables.flatMap((each) => (each ? [each.name] : [])).join(', '),
          pack.description,
        ]),
      ),
    );
    return 0;
  }
  if (table === undefined) {
    const pack = registry.describePack(sector);
    if (options.json) return print(pack);
    process.stdout.write(`${pack.name} ${pack.version}: ${pack.description}\n\n`);
    process.stdout.write(
      textTable(
        ['table', 'default rows', 'credits/1000', 'generated per', 'description'],
        pack.tables
          .filter((each) => each !== undefined)
          .map((each) => [
            each.name,
            each.default_rows,
            each.credits_per_1000_rows,
            each.generated_per ?? '',
            each.description,
          ]),
      ),
    );
    return 0;
  }
  if (!registry.describeTable(sector, table)) {
    const tables = registry.describePack(sector).tables.flatMap((each) => (each ? [each.name] : []));
    throw new UsageError(`sector "${sector}" has no table "${table}"; its tables are ${tables.join(', ')}`);
  }
  // The catalog's own view, as GET /v1/catalog/{sector}/{table} answers it: each column with its Parquet type.
  const described = new Catalog(registry).table(sector, table);
  if (options.json) return print(described);
  const per = described.generated_per ? `, generated per ${described.generated_per}` : '';
  process.stdout.write(
    `${sector}.${described.name}: ${described.description}\n` +
      `default rows ${described.default_rows}, ${described.credits_per_1000_rows} credits per 1,000 rows${per}\n\n`,
  );
  process.stdout.write(
    textTable(
      ['column', 'type', 'parquet', 'nullable', 'computed', 'overridable', 'description'],
      described.columns.map((column) => [
        column.name,
        column.type,
        column.parquet_type,
        column.nullable ? 'yes' : '',
        column.computed ? 'yes' : '',
        column.overridable.join(', '),
        column.description,
      ]),
    ),
  );
  if (described.options.length > 0) {
    process.stdout.write('\n');
    process.stdout.write(
      textTable(
        ['option', 'default', 'description'],
        described.options.map((option) => [option.name, option.default, option.description]),
      ),
    );
  }
  return 0;
}

function print(value: unknown): number {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  return 0;
}
