import type { ColumnOverride, GenerationConfig, TableConfig } from './config-schema.js';
import { toPointer, type ConfigIssue } from './issues.js';
import type { PackCatalog, PackTable } from './pack-catalog.js';
import { schemaIssues } from './schema-issues.js';

/**
 * What the JSON Schema cannot say: the config must name a sector, tables, columns and options that
 * the loaded packs have. Runs only on a config that passed the schema.
 */
export function packIssues(config: GenerationConfig, catalog: PackCatalog): ConfigIssue[] {
  const tables = catalog.tables(config.sector);
  if (!tables) {
    return [{ pointer: '/sector', message: `unknown sector "${config.sector}"; known: ${catalog.sectorNames().join(', ')}` }];
  }
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  config.tables.forEach((table, index) => {
    if (seen.has(table.name)) issues.push({ pointer: toPointer(['tables', index, 'name']), message: `the table "${table.name}" is listed twice` });
    seen.add(table.name);
    const packTable = tables.find((candidate) => candidate.name === table.name);
    if (!packTable) {
      issues.push({
        pointer: toPointer(['tables', index, 'name']),
        message: `the sector "${config.sector}" has no table "${table.name}"; known: ${tables.map((t) => t.name).join(', ')}`,
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
      issues.push({ pointer: toPointer(where), message: `the table "${table.name}" has no column "${name}"`, key: true });
      continue;
    }
    issues.push(...overrideIssues(override, column, where));
  }
  return issues;
}

function overrideIssues(override: ColumnOverride, column: PackTable['columns'][number], at: (string | number)[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (override.distribution !== undefined && !column.numeric) {
    issues.push({ pointer: toPointer([...at, 'distribution']), message: `"${column.name}" is of type ${column.type}: only numeric columns take a distribution` });
  }
  if (override.min !== undefined && override.max !== undefined && override.min > override.max) {
    issues.push({ pointer: toPointer([...at, 'min']), message: 'min must not exceed max' });
  }
  if (override.weights !== undefined) {
    if (!column.values) {
      issues.push({ pointer: toPointer([...at, 'weights']), message: `"${column.name}" is of type ${column.type}: only enum columns take weights` });
    } else {
      for (const value of Object.keys(override.weights).filter((value) => !column.values!.includes(value))) {
        issues.push({ pointer: toPointer([...at, 'weights', value]), message: `"${value}" is not a value of "${column.name}"; values: ${column.values.join(', ')}`, key: true });
      }
      if (Object.values(override.weights).every((weight) => weight === 0)) {
        issues.push({ pointer: toPointer([...at, 'weights']), message: 'at least one weight must be above 0' });
      }
    }
  }
  return issues;
}
