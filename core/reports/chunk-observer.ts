import { DDSketch } from '@datadog/sketches-js';
import type { ChunkSpec } from '../generation/chunk-spec.js';
import type { CompiledColumn } from '../generation/codegen/compiled-column.js';
import type { PlanRuntime } from '../generation/runtime.js';
import type { Row } from '../generation/types/index.js';
import { columnKind, timeOrigin, type ColumnKind } from './column-kind.js';
import { HyperLogLog } from './statistics/hyperloglog.js';
import {
  MAX_CATEGORIES,
  QUANTILE_RELATIVE_ACCURACY,
  type ChunkStatistics,
  type ColumnChunkStatistics,
} from './statistics/chunk-statistics.js';
import { currencyUnknown, MINOR_UNITS, VALUE_CHECKS, type ValueCheck } from './validity/checks.js';

/**
 * The observer a generation worker runs beside its writer (core/generation/worker.ts loads this module by
 * URL): it visits every row of one chunk and answers the chunk's statistics.
 */
export function observeChunk(runtime: PlanRuntime, table: string, chunk: ChunkSpec) {
  const generator = runtime.table(table);
  const checked: Record<string, number> = {};
  const overrides = runtime.plan.tables.find((planned) => planned.name === table)?.columns ?? {};
  const columns = generator.columns.map((column) => {
    const params = { ...generator.definition.columns[column.name], ...overrides[column.name] } as Record<
      string,
      unknown
    >;
    const observer = new ColumnObserver(column, runtime, params, checked);
    if (chunk.index === 0) observer.configured(overrides[column.name] ?? {});
    return observer;
  });
  let rows = 0;
  return {
    visit(row: Row, index: number): void {
      rows++;
      for (const column of columns) column.visit(row, index);
    },
    finish(): ChunkStatistics {
      if (rows !== chunk.rows) throw new Error(`statistics saw ${rows} rows of a chunk of ${chunk.rows}`);
      return { rows, checked, columns: columns.map((column) => column.finish()) };
    },
  };
}

class ColumnObserver {
  private readonly kind: ColumnKind;
  private readonly out: ColumnChunkStatistics;
  private readonly hll?: HyperLogLog;
  private readonly sketch?: DDSketch;
  private readonly origin: number;
  private readonly check?: ValueCheck;
  private readonly parentRows: number;
  private counts?: Map<string, number> = new Map();

  constructor(
    private readonly column: CompiledColumn,
    runtime: PlanRuntime,
    params: Record<string, unknown>,
    private readonly checked: Record<string, number>,
  ) {
    this.kind = columnKind(column.type.name);
    this.out = { name: column.name, nulls: 0 };
    this.origin = timeOrigin(column.type.name, params);
    this.parentRows = column.references ? runtime.rowsOf(column.references) : 0;
    if (this.kind !== 'key') this.hll = new HyperLogLog();
    if (this.kind === 'number' || this.kind === 'time') {
      this.sketch = new DDSketch({ relativeAccuracy: QUANTILE_RELATIVE_ACCURACY });
      Object.assign(this.out, { count: 0, sum: 0, min: Infinity, max: -Infinity, origin: this.origin });
    }
    this.check = VALUE_CHECKS[column.type.name];
  }

  configured(overrides: Record<string, unknown>): void {
    this.out.configured = { type: this.column.type.name, params: overrides };
  }

  visit(row: Row, index: number): void {
    const { column, out } = this;
    const value = row[column.name];
    if (value === undefined && column.key) {
      if (this.kind === 'reference') {
        const parent = column.key.rowOf(index);
        const resolves = Number.isInteger(parent) && parent >= 0 && parent < this.parentRows;
        this.rule('reference', resolves ? null : 'reference-orphan', index, parent);
        this.hll!.add(parent);
      }
      return;
    }
    if (value === null || value === undefined) {
      out.nulls++;
      return;
    }
    this.hll?.add(value);
    switch (this.kind) {
      case 'number':
      case 'time': {
        // A timestamp given as a number is written at whole milliseconds.
        let number =
          typeof value !== 'number'
            ? this.kind === 'time'
              ? Date.parse(String(value))
              : Number(value)
            : this.kind === 'time'
              ? Math.floor(value)
              : value;
        if (!Number.isFinite(number)) {
          this.rule('type', 'value-type', index, value);
          return;
        }
        if (column.type.name === 'money') {
          const currency = column.currency ?? (column.currencyColumn ? row[column.currencyColumn] : undefined);
          // The writer rounds an amount to its currency's minor units (two for an unknown one), so the currency
          // is what must be known, and the statistics are of the amounts as written.
          this.rule('currency', currencyUnknown(currency), index, currency);
          const scale = 10 ** (MINOR_UNITS.get(currency as string) ?? 2);
          number = Math.round(number * scale) / scale;
        }
        out.count!++;
        out.sum! += number;
        if (number < out.min!) out.min = number;
        if (number > out.max!) out.max = number;
        this.sketch!.accept(number - this.origin);
        return;
      }
      case 'category':
        if (this.counts) {
          const key = String(value);
          this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
          if (this.counts.size > MAX_CATEGORIES) this.counts = undefined;
        }
        break;
    }
    if (this.check) this.rule(column.type.name, this.check(String(value)), index, value);
  }

  /** Counts a value checked by `check`, and `broken`, the rule it breaks if any, with its first row. */
  private rule(check: string, broken: string | null, index: number, value: unknown): void {
    const key = `${this.column.name}\u0000${check}`;
    this.checked[key] = (this.checked[key] ?? 0) + 1;
    if (broken === null) return;
    const findings = (this.out.findings ??= {});
    const found = findings[broken];
    if (found) found.count++;
    else findings[broken] = { check, count: 1, row: index, value: String(value) };
  }

  finish(): ColumnChunkStatistics {
    const { out } = this;
    if (this.hll) out.hll = this.hll.registers;
    if (this.sketch && out.count! > 0) out.sketch = this.sketch.toProto();
    if (this.kind === 'category' && this.counts) out.counts = Object.fromEntries(this.counts);
    if (out.count === 0) {
      delete out.min;
      delete out.max;
    }
    return out;
  }
}
