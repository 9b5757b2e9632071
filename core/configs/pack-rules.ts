import { isKnownLocale } from '../generation/reference-data/locale-pools.js';
import type { ColumnOverride, GenerationConfig, TableConfig } from './config-schema.js';
import { toPointer, type ConfigIssue } from './issues.js';
import type { PackCatalog, PackColumn, PackTable } from './ports.js';
import { schemaIssues } from './schema-issues.js';

const UNKNOWN_SECTOR = 'unknown sector';

/** Whether the issues are only that the sector is unknown: the engine's `unknown-sector`, not a broken config. */
export const isOnlyUnknownSector = (issues: readonly ConfigIssue[]): boolean =>
  issues.length === 1 && issues[0].pointer === '/sector' && issues[0].message.startsWith(`${UNKNOWN_SECTOR} "`);

/**
 * What the JSON Schema cannot say: the config must name a sector, tables, columns and options that
 * the loaded packs have. Runs only on a config that passed the schema.
 */
export function packIssues(config: GenerationConfig, catalog: PackCatalog): ConfigIssue[] {
  const tables = catalog.tables(config.sector);
  if (!tables) {
    return [
      {
        pointer: '/sector',
        message: `${UNKNOWN_SECTOR} "${config.sector}"; known: ${catalog.sectorNames().join(', ')}`,
      },
    ];
  }
  const issues: ConfigIssue[] = [];
  if (config.locale !== undefined && !isKnownLocale(config.locale)) {
    issues.push({
      pointer: '/locale',
      message: `unknown locale "${config.locale}"; use a faker locale name such as en_GB, en_US, de or fr`,
    });
  }
  const seen = new Set<string>();
  config.tables.forEach((table, index) => {
    if (seen.has(table.name))
      issues.push({
        pointer: toPointer(['tables', index, 'name']),
        message: `the table "${table.name}" is listed twice`,
      });
    seen.add(table.name);
    const packTable = tables.find((candidate) => candidate.name === table.name);
    if (!packTable) {
      issues.push({
        pointer: toPointer(['tables', index, 'name']),
        message:
          `the sector "${config.sector}" has no table "${table.name}"; ` +
          `known: ${tables.map((t) => t.name).join(', ')}`,
      });
      return;
    }
    issues.push(...tableIssues(table, packTable, ['tables', index]));
  });
  return issues;
}

function tableIssues(table: TableConfig, packTable: PackTable, at: (string | number)[]): ConfigIssue[] {
  const issues = schemaIssues(packTable.optionsSchema, table.options ?? {}, [...at, 'options']);
  for (const [name, override] of Object.entries(table.columns ?? {})) {
    const column = packTable.columns.find((candidate) => candidate.name === name);
    const where = [...at, 'columns', name];
    if (!column) {
      issues.push({
        pointer: toPointer(where),
        message: `the table "${table.name}" has no column "${name}"`,
        key: true,
      });
      continue;
    }
    issues.push(...overrideIssues(override, column, where));
  }
  return issues;
}

function overrideIssues(override: ColumnOverride, column: PackColumn, at: (string | number)[]): ConfigIssue[] {
  const refused = Object.keys(override).filter((name) => !column.overridable.includes(name));
  if (refused.length > 0) {
    const accepted = column.overridable.length
      ? column.overridable.join(', ')
      : 'nothing (keys and references stay as generated)';
    return refused.map((name) => ({
      pointer: toPointer([...at, name]),
      message: column.computed
        ? `"${column.name}" is set by its pack's generator, which lets a config override ${accepted}`
        : `"${column.name}" is of type ${column.type}, which lets a config override ${accepted}`,
      key: true,
    }));
  }
  const { null_rate: _nullRate, ...parameters } = override;
  return column.checkOverride(parameters).map((message) => ({ pointer: toPointer(at), message }));
}
