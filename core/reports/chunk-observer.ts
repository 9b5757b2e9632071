import { DDSketch } from '@datadog/sketches-js';
import type { ChunkSpec } from '../generation/chunk-spec.js';
import type { CompiledColumn } from '../generation/codegen/compiled-column.js';
import type { InvariantDefinition } from '../generation/pack-definition.js';
import type { PlanRuntime, TableRuntime } from '../generation/runtime.js';
import type { Row } from '../generation/types/index.js';
import { columnKind, timeOrigin, type ColumnKind } from './column-kind.js';
import { HyperLogLog } from './statistics/hyperloglog.js';
import {
  MAX_CATEGORIES,
  QUANTILE_RELATIVE_ACCURACY,
  type ChunkStatistics,
  type ColumnChunkStatistics,
  type RuleBreaks,
} from './statistics/chunk-statistics.js';
import { rowOfKey } from './validity/reference-keys.js';
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
  const invariants = new InvariantObserver(generator, checked);
  const planned = runtime.plan.tables.find((entry) => entry.name === table);
  let rows = 0;
  return {
    visit(row: Row, index: number): void {
      rows++;
      for (const column of columns) column.visit(row, index);
      invariants.visit(row, index);
    },
    finish(): ChunkStatistics {
      if (rows !== chunk.rows) throw new Error(`statistics saw ${rows} rows of a chunk of ${chunk.rows}`);
      const statistics: ChunkStatistics = { rows, checked, columns: columns.map((column) => column.finish()) };
      if (invariants.findings) statistics.invariants = invariants.findings;
      const targets = generator.definition.rate_targets ?? [];
      if (chunk.index === 0 && targets.length)
        statistics.rate_targets = targets.map((target) => ({
          ...target,
          configured: Number(planned?.options[target.option] ?? generator.definition.options?.[target.option]?.default),
        }));
      return statistics;
    },
  };
}

/** The longest example row a finding of an invariant keeps, as JSON. */
const EXAMPLE_CHARS = 600;

/**
 * Checks the table's invariants on every row; in a per-parent table each row with the row before it of the same
 * parent (a chunk holds whole parents, so that row is always in the chunk).
 */
class InvariantObserver {
  findings?: Record<string, RuleBreaks>;
  private readonly invariants: InvariantDefinition[];
  private readonly parentKey?: CompiledColumn['key'];
  private previous: Row | undefined;
  private previousParent = -1;

  constructor(
    generator: TableRuntime,
    private readonly checked: Record<string, number>,
  ) {
    this.invariants = generator.definition.invariants ?? [];
    const parentColumn = generator.columns.find((column) => column.name === generator.parentColumn);
    this.parentKey = parentColumn?.key;
  }

  visit(row: Row, index: number): void {
    if (this.invariants.length === 0) return;
    const parent = this.parentKey ? this.parentKey.rowOf(index) : -1;
    const previous = this.parentKey && parent === this.previousParent ? this.previous : undefined;
    for (const invariant of this.invariants) {
      const key = `\u0000${invariant.name}`;
      this.checked[key] = (this.checked[key] ?? 0) + 1;
      let holds: boolean;
      let example: string;
      try {
        holds = invariant.holds(row, previous) === true;
        example = holds ? '' : exampleOf(row, previous);
      } catch (error) {
        holds = false;
        example = `threw: ${(error as Error)?.message ?? String(error)}`;
      }
      if (holds) continue;
      const findings = (this.findings ??= {});
      const found = findings[invariant.name];
      if (found) found.count++;
      else findings[invariant.name] = { check: 'invariant', count: 1, row: index, value: example };
    }
    // A copy: a generator may hand the writer the same row object again with new values.
    if (this.parentKey) {
      this.previous = { ...row };
      this.previousParent = parent;
    }
  }
}

function exampleOf(row: Row, previous: Row | undefined): string {
  const text = JSON.stringify(previous ? { row, previous } : row);
  return text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS)}…` : text;
}

class ColumnObserver {
  private readonly kind: ColumnKind;
  private readonly out: ColumnChunkStatistics;
  private readonly hll?: HyperLogLog;
  private readonly sketch?: DDSketch;
  private readonly origin: number;
  private readonly check?: ValueCheck;
  private readonly parentRows: number;
  private readonly parentKey?: { prefix: string; tableSeed: number };
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
    const parent = column.references ? runtime.table(column.references) : undefined;
    if (parent?.keyPrefix) this.parentKey = { prefix: parent.keyPrefix, tableSeed: parent.seed };
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
    if (this.kind === 'reference' && this.parentKey) {
      // A key the generator wrote itself: it must be the key of a row of the referenced table.
      const { prefix, tableSeed } = this.parentKey;
      const resolves = rowOfKey(String(value), prefix, tableSeed, this.parentRows) >= 0;
      this.rule('reference', resolves ? null : 'reference-orphan', index, value);
      return;
    }
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
