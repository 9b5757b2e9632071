import { HLL_STANDARD_ERROR } from './statistics/hyperloglog.js';
import { QUANTILE_RELATIVE_ACCURACY } from './statistics/chunk-statistics.js';
import type { ColumnStatistics, Finding, TableStatistics } from './table-statistics.js';
import { columnTargets, rateTargets, type TargetCheck } from './targets.js';

/** The conformance report of one dataset (docs/reports.md). */
export interface DatasetReport {
  object: 'report';
  version: 1;
  sector: string;
  seed: number;
  /** The dataset's score, 0–100: the tables' scores weighted by their rows. */
  score: number;
  /** The bounds of the sketches behind the estimates. */
  accuracy: { distinct_standard_error: number; quantile_relative_error: number };
  tables: TableReport[];
}

export interface TableReport {
  name: string;
  rows: number;
  /** 0–100: the mean of the table's checks' pass shares (score.ts explains it in docs/reports.md). */
  score: number;
  columns: ColumnStatistics[];
  /** Invalid values, orphan references and broken invariants, each with its first row. */
  findings: Finding[];
  targets: TargetCheck[];
  /** Checks that found nothing, with how many values each checked. */
  passed: { column: string; check: string; checked: number }[];
}

export interface ReportInput {
  sector: string;
  seed: number;
  tables: { name: string; statistics: TableStatistics }[];
}

export function buildReport({ sector, seed, tables }: ReportInput): DatasetReport {
  const reports = tables.map(({ name, statistics }) => tableReport(name, statistics));
  const rows = reports.reduce((sum, table) => sum + table.rows, 0);
  const score = rows
    ? reports.reduce((sum, table) => sum + table.score * table.rows, 0) / rows
    : reports.reduce((sum, table) => sum + table.score, 0) / Math.max(1, reports.length);
  return {
    object: 'report',
    version: 1,
    sector,
    seed,
    score: round(score),
    accuracy: { distinct_standard_error: HLL_STANDARD_ERROR, quantile_relative_error: QUANTILE_RELATIVE_ACCURACY },
    tables: reports,
  };
}

function tableReport(name: string, statistics: TableStatistics): TableReport {
  const targets = [
    ...statistics.columns.flatMap((column) => columnTargets(column, statistics.target_inputs[column.name])),
    ...rateTargets(statistics),
  ];
  const found = new Set(statistics.findings.map((finding) => `${finding.column}\u0000${finding.check}`));
  const passed = Object.entries(statistics.checked)
    .filter(([key]) => !found.has(key))
    .map(([key, checked]) => {
      const [column, check] = key.split('\u0000');
      return { column, check, checked };
    });
  return {
    name,
    rows: statistics.rows,
    score: tableScore(statistics, targets),
    columns: statistics.columns,
    findings: statistics.findings,
    targets,
    passed,
  };
}

/**
 * Every check counts once: a validity, reference or invariant check by the share of the values it checked that
 * hold (a column's checks that broke several rules count each rule's share), a target by 1 if it passed and 0 if
 * not. The table's score is their mean × 100; a table with no check scores 100.
 */
export function tableScore(statistics: TableStatistics, targets: TargetCheck[]): number {
  const shares: number[] = [];
  const broken = new Map<string, number>();
  for (const finding of statistics.findings) {
    const key = `${finding.column}\u0000${finding.check}`;
    broken.set(key, (broken.get(key) ?? 0) + finding.count);
  }
  for (const [key, checked] of Object.entries(statistics.checked))
    shares.push(checked ? Math.max(0, 1 - (broken.get(key) ?? 0) / checked) : 1);
  for (const target of targets) shares.push(target.pass ? 1 : 0);
  return shares.length ? round((100 * shares.reduce((sum, share) => sum + share, 0)) / shares.length) : 100;
}

const round = (value: number) => Math.round(value * 100) / 100;
