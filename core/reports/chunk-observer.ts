import { DDSketch } from '@datadog/sketches-js';
import type { ChunkSpec } from '../generation/chunk-spec.js';
import type { CompiledColumn } from '../generation/codegen/compiled-column.js';
import { generatedFactory } from '../generation/codegen/generated-code.js';
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
import { MINOR_UNITS, VALUE_CHECKS, type ValueCheck } from './validity/checks.js';

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
  const visitColumns = columnVisitor(generator.columns.map((column) => column.name))(columns) as Visit;
  return {
    visit(row: Row, index: number): void {
      rows++;
      visitColumns(row, index);
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

type Visit = (row: Row, index: number) => void;

/**
 * A table's visit of its columns as generated code, each value read by its constant name: a read by a variable
 * name per cell (megamorphic) cost a third of the row writer's time. Compiled once per table's columns.
 */
function columnVisitor(names: string[]): (columns: ColumnObserver[]) => unknown {
  const body = names.map((name, i) => `c[${i}].take(row[${JSON.stringify(name)}], row, index);`).join('\n');
  return generatedFactory(['c'], `return function visit(row, index) {\n${body}\n};`) as never;
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
    // Kept as it is: a generator returns a fresh object per row (the SDK's contract), which nothing changes after.
    if (this.parentKey) {
      this.previous = row;
      this.previousParent = parent;
    }
  }
}

function exampleOf(row: Row, previous: Row | undefined): string {
  const text = JSON.stringify(previous ? { row, previous } : row);
  return text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS)}…` : text;
}

/** The checks a column may count, each a counter of its own: a counter by name per cell cost more than the rest. */
const CHECKS = ['reference', 'type', 'currency', 'value'] as const;
const REFERENCE = 0;
const TYPE = 1;
const CURRENCY = 2;
const VALUE = 3;

class ColumnObserver {
  private readonly kind: ColumnKind;
  private readonly name: string;
  private readonly key: CompiledColumn['key'];
  private readonly money: boolean;
  private readonly hll?: HyperLogLog;
  private readonly sketch?: DDSketch;
  private readonly origin: number;
  private readonly check?: ValueCheck;
  private readonly parentRows: number;
  private readonly parentKey?: { prefix: string; tableSeed: number };
  private counts?: Map<string, number> = new Map();
  private nulls = 0;
  private count = 0;
  private sum = 0;
  private min = Infinity;
  private max = -Infinity;
  private readonly checkedBy = [0, 0, 0, 0];
  private findings?: Record<string, RuleBreaks>;
  private configuredAs?: ColumnChunkStatistics['configured'];

  constructor(
    private readonly column: CompiledColumn,
    runtime: PlanRuntime,
    params: Record<string, unknown>,
    private readonly checked: Record<string, number>,
  ) {
    this.kind = columnKind(column.type.name);
    this.name = column.name;
    this.key = column.key;
    this.money = column.type.name === 'money';
    this.origin = timeOrigin(column.type.name, params);
    this.parentRows = column.references ? runtime.rowsOf(column.references) : 0;
    const parent = column.references ? runtime.table(column.references) : undefined;
    if (parent?.keyPrefix) this.parentKey = { prefix: parent.keyPrefix, tableSeed: parent.seed };
    if (this.kind !== 'key') this.hll = new HyperLogLog();
    if (this.kind === 'number' || this.kind === 'time')
      this.sketch = new DDSketch({ relativeAccuracy: QUANTILE_RELATIVE_ACCURACY });
    this.check = VALUE_CHECKS[column.type.name];
  }

  configured(overrides: Record<string, unknown>): void {
    this.configuredAs = { type: this.column.type.name, params: overrides };
  }

  take(value: unknown, row: Row, index: number): void {
    if (value === undefined && this.key) {
      if (this.kind === 'reference') {
        const parent = this.key.rowOf(index);
        this.checkedBy[REFERENCE]++;
        if (!(parent >= 0 && parent < this.parentRows && Number.isInteger(parent)))
          this.broken(REFERENCE, 'reference-orphan', index, parent);
        this.hll!.addNumber(parent);
      }
      return;
    }
    if (value === null || value === undefined) {
      this.nulls++;
      return;
    }
    switch (this.kind) {
      case 'number':
      case 'time':
        this.number(row, value, index);
        return;
      case 'category':
        this.hll!.add(value);
        if (this.counts) {
          const key = typeof value === 'string' ? value : String(value);
          this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
          if (this.counts.size > MAX_CATEGORIES) this.counts = undefined;
        }
        break;
      case 'reference':
        this.hll!.add(value);
        if (this.parentKey) {
          // A key the generator wrote itself: it must be the key of a row of the referenced table.
          const { prefix, tableSeed } = this.parentKey;
          this.checkedBy[REFERENCE]++;
          if (rowOfKey(String(value), prefix, tableSeed, this.parentRows) < 0)
            this.broken(REFERENCE, 'reference-orphan', index, value);
        }
        return;
      default:
        this.hll?.add(value);
    }
    if (this.check) {
      this.checkedBy[VALUE]++;
      const broken = this.check(typeof value === 'string' ? value : String(value));
      if (broken !== null) this.broken(VALUE, broken, index, value);
    }
  }

  private number(row: Row, value: unknown, index: number): void {
    // A timestamp given as a number is written at whole milliseconds.
    let number =
      typeof value === 'number'
        ? this.kind === 'time'
          ? Math.floor(value)
          : value
        : this.kind === 'time'
          ? isoMs(String(value))
          : Number(value);
    if (!Number.isFinite(number)) {
      this.checkedBy[TYPE]++;
      this.broken(TYPE, 'value-type', index, value);
      return;
    }
    if (this.money) {
      const { column } = this;
      const currency = column.currency ?? (column.currencyColumn ? row[column.currencyColumn] : undefined);
      // The writer rounds an amount to its currency's minor units (two for an unknown one), so the currency
      // is what must be known, and the statistics are of the amounts as written.
      const units = typeof currency === 'string' ? MINOR_UNITS.get(currency) : undefined;
      this.checkedBy[CURRENCY]++;
      if (units === undefined) this.broken(CURRENCY, 'amount-currency-unknown', index, currency);
      const scale = SCALES[units ?? 2];
      number = Math.round(number * scale) / scale;
    }
    this.hll!.addNumber(number);
    this.count++;
    this.sum += number;
    if (number < this.min) this.min = number;
    if (number > this.max) this.max = number;
    this.sketch!.accept(number - this.origin);
  }

  /** A value that breaks `rule` of check `slot`: counted, and kept as the example if it is the chunk's first. */
  private broken(slot: number, rule: string, index: number, value: unknown): void {
    const findings = (this.findings ??= {});
    const found = findings[rule];
    if (found) found.count++;
    else {
      const check = slot === VALUE ? this.column.type.name : CHECKS[slot];
      findings[rule] = { check, count: 1, row: index, value: String(value) };
    }
  }

  finish(): ColumnChunkStatistics {
    const out: ColumnChunkStatistics = { name: this.name, nulls: this.nulls };
    if (this.configuredAs) out.configured = this.configuredAs;
    if (this.hll) out.hll = this.hll.registers;
    if (this.sketch) {
      Object.assign(out, { count: this.count, sum: this.sum, origin: this.origin });
      if (this.count > 0) Object.assign(out, { min: this.min, max: this.max, sketch: this.sketch.toProto() });
    }
    if (this.kind === 'category' && this.counts) out.counts = Object.fromEntries(this.counts);
    if (this.findings) out.findings = this.findings;
    this.checkedBy.forEach((count, slot) => {
      if (count === 0) return;
      const key = `${this.name}\u0000${slot === VALUE ? this.column.type.name : CHECKS[slot]}`;
      this.checked[key] = (this.checked[key] ?? 0) + count;
    });
    return out;
  }
}

const SCALES = [1, 10, 100, 1000, 10000];

/** An ISO 8601 instant or date in the engine's forms (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS.sssZ) without Date.parse. */
export function isoMs(text: string): number {
  const digit = (at: number) => text.charCodeAt(at) - 48;
  const two = (at: number) => digit(at) * 10 + digit(at + 1);
  if (text.length === 10 || (text.length === 24 && text.charCodeAt(23) === 90)) {
    const year = two(0) * 100 + two(2);
    const day = Date.UTC(year, two(5) - 1, two(8));
    const ms =
      text.length === 10
        ? day
        : day + two(11) * 3_600_000 + two(14) * 60_000 + two(17) * 1000 + digit(20) * 100 + two(21);
    if (Number.isFinite(ms)) return ms;
  }
  return Date.parse(text);
}
