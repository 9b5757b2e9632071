import type { ChunkSpec } from '../generation/chunk-spec.js';
import type { CompiledColumn } from '../generation/codegen/compiled-column.js';
import { generatedFactory } from '../generation/codegen/generated-code.js';
import type { InvariantDefinition } from '../generation/pack-definition.js';
import type { PlanRuntime, TableRuntime } from '../generation/runtime.js';
import type { Row } from '../generation/types/index.js';
import { columnKind, timeOrigin } from './column-kind.js';
import { parseInstant } from '../generation/types/parse-instant.js';
import { HyperLogLog } from './statistics/hyperloglog.js';
import { bucketsOf } from './statistics/value-sketch.js';
import {
  MAX_CATEGORIES,
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
    const observer = columnObserver(column, runtime, params, checked, chunk.rows);
    if (chunk.index === 0)
      observer.configured(overrides[column.name] ?? {}, generator.definition.columns[column.name].draw_reshaped);
    return observer;
  });
  // A worker builds one chunk at a time: what the runtime counts from here to `finish` is this chunk's.
  const nulledBefore = generator.nullRateNulls.slice();
  const invariants = new InvariantObserver(generator);
  const planned = runtime.plan.tables.find((entry) => entry.name === table);
  let rows = 0;
  const batch = columnBatch(generator.columns, columns);
  return {
    visit(row: Row, index: number): void {
      rows++;
      batch.add(row, index);
      invariants.visit(row, index);
    },
    finish(): ChunkStatistics {
      if (rows !== chunk.rows) throw new Error(`statistics saw ${rows} rows of a chunk of ${chunk.rows}`);
      batch.flush();
      invariants.count(checked);
      const statistics: ChunkStatistics = { rows, checked, columns: columns.map((column) => column.finish()) };
      generator.columns.forEach(({ nullRate }, i) => {
        if (nullRate > 0) statistics.columns[i].null_rate_nulls = generator.nullRateNulls[i] - nulledBefore[i];
      });
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

/** Rows a batch holds before each column's observer takes them. */
const BATCH_ROWS = 256;

/** A chunk's rows, handed to the columns' observers a batch at a time. */
interface ColumnBatch {
  add(row: Row, index: number): void;
  /** Hands the rows gathered so far to the observers. */
  flush(): void;
}

/**
 * The rows are kept, and every BATCH_ROWS rows each column's observer takes its values in one loop of its own:
 * beside the generator and the writer, a call per cell into each observer kept neither's code nor state at hand.
 * Each loop is generated code per column, its values read by their constant name (an amount's currency too): a
 * read by a variable name per cell (megamorphic) cost a third of the row writer's time.
 */
function columnBatch(compiled: CompiledColumn[], observers: ColumnObserver[]): ColumnBatch {
  const read = (name: string) => `rows[i][${JSON.stringify(name)}]`;
  // A reference the writer prints from the row's index points where the generator left it for that row (its
  // parent, its setRef), which the runtime knows only until the next row: read as each row is added.
  const pointed = compiled.map((column) =>
    column.references !== undefined && column.key ? new Array<number>(BATCH_ROWS).fill(0) : undefined,
  );
  const keep = generatedFactory(
    ['columns', 'pointed'],
    'return function keep(row, index, n) {\n' +
      compiled
        .map(({ name }, i) =>
          pointed[i]
            ? `if (row[${JSON.stringify(name)}] === undefined) pointed[${i}][n] = columns[${i}].key.rowOf(index);`
            : '',
        )
        .join('\n') +
      '\n};',
  )(compiled, pointed) as (row: Row, index: number, n: number) => void;
  // A key column's observer takes nothing (its values are distinct by construction): it is not called.
  const loops = compiled.flatMap(({ name, type, currencyColumn }, i) => {
    if (columnKind(type.name) === 'key') return [];
    const extra = pointed[i] ? 'pointed[i]' : currencyColumn ? read(currencyColumn) : 'undefined';
    const loop = generatedFactory(
      ['observer', 'pointed'],
      'return function take(rows, indexes, count) {\n' +
        `for (let i = 0; i < count; i++) observer.take(${read(name)}, indexes[i], ${extra});\n};`,
    )(observers[i], pointed[i]);
    return [loop as (rows: Row[], indexes: number[], count: number) => void];
  });
  const rows = new Array<Row>(BATCH_ROWS);
  const indexes = new Array<number>(BATCH_ROWS).fill(0);
  let count = 0;
  const flush = (): void => {
    for (const loop of loops) loop(rows, indexes, count);
    count = 0;
  };
  return {
    add(row, index) {
      keep(row, index, count);
      rows[count] = row;
      indexes[count] = index;
      if (++count === BATCH_ROWS) flush();
    },
    flush,
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
  /** How many rows each invariant was checked on, added to the chunk's `checked` once it is finished. */
  private checks = 0;
  private readonly parentKey?: CompiledColumn['key'];
  private previous: Row | undefined;
  private previousParent = -1;

  constructor(generator: TableRuntime) {
    this.invariants = generator.definition.invariants ?? [];
    const parentColumn = generator.columns.find((column) => column.name === generator.parentColumn);
    this.parentKey = parentColumn?.key;
  }

  visit(row: Row, index: number): void {
    if (this.invariants.length === 0) return;
    this.checks++;
    const parent = this.parentKey ? this.parentKey.rowOf(index) : -1;
    const previous = this.parentKey && parent === this.previousParent ? this.previous : undefined;
    for (const invariant of this.invariants) {
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

  /** Adds the rows checked to each invariant's count in `checked`. */
  count(checked: Record<string, number>): void {
    if (this.checks === 0) return;
    for (const { name } of this.invariants) checked[`\u0000${name}`] = (checked[`\u0000${name}`] ?? 0) + this.checks;
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

/**
 * One column's statistics over a chunk. A class per kind of column, so that each generated call site
 * (`columnVisitor`) meets one `take` and V8 inlines it.
 */
abstract class ColumnObserver {
  protected readonly name: string;
  protected readonly hll = new HyperLogLog();
  protected nulls = 0;
  protected readonly checkedBy = [0, 0, 0, 0];
  private findings?: Record<string, RuleBreaks>;
  private configuredAs?: ColumnChunkStatistics['configured'];

  constructor(
    protected readonly column: CompiledColumn,
    private readonly checked: Record<string, number>,
  ) {
    this.name = column.name;
  }

  /**
   * One row's value, with an amount's currency (`currencyColumn`), or the parent row a reference the writer prints
   * from the index points at (the value then undefined); else undefined.
   */
  abstract take(value: unknown, index: number, extra: unknown): void;

  configured(overrides: Record<string, unknown>, drawReshaped: boolean | undefined): void {
    this.configuredAs = { type: this.column.type.name, params: overrides };
    if (drawReshaped) this.configuredAs.draw_reshaped = true;
  }

  /** `count` values breaking `rule` of check `slot`: counted, the first kept as the example if the chunk's first. */
  protected broken(slot: number, rule: string, index: number, value: unknown, count = 1): void {
    const findings = (this.findings ??= {});
    const found = findings[rule];
    if (found) found.count += count;
    else {
      const check = slot === VALUE ? this.column.type.name : CHECKS[slot];
      findings[rule] = { check, count, row: index, value: String(value) };
    }
  }

  finish(): ColumnChunkStatistics {
    const out: ColumnChunkStatistics = { name: this.name, nulls: this.nulls };
    if (this.configuredAs) out.configured = this.configuredAs;
    this.addTo(out);
    if (this.findings) out.findings = this.findings;
    this.checkedBy.forEach((count, slot) => {
      if (count === 0) return;
      const key = `${this.name}\u0000${slot === VALUE ? this.column.type.name : CHECKS[slot]}`;
      this.checked[key] = (this.checked[key] ?? 0) + count;
    });
    return out;
  }

  protected addTo(out: ColumnChunkStatistics): void {
    out.hll = this.hll.registers;
  }
}

/** A key column: its values are distinct by construction and printed by the writer from the row's index. */
class KeyObserver extends ColumnObserver {
  take(): void {}

  protected override addTo(): void {}
}

class ReferenceObserver extends ColumnObserver {
  private readonly parentRows: number;
  /**
   * The parent row of the row before, and whether it was an orphan: a per-parent table repeats it, which the
   * distinct count need not see again (NaN: no row yet).
   */
  private lastParent = NaN;
  private lastOrphan = false;
  private readonly parentKey?: { prefix: string; tableSeed: number };
  /** Whether each key met in the chunk resolves, while they are few. */
  private readonly resolved = new Map<string, boolean>();

  constructor(column: CompiledColumn, checked: Record<string, number>, runtime: PlanRuntime) {
    super(column, checked);
    this.parentRows = runtime.rowsOf(column.references!);
    const parent = runtime.table(column.references!);
    if (parent.keyPrefix) this.parentKey = { prefix: parent.keyPrefix, tableSeed: parent.seed };
  }

  take(value: unknown, index: number, pointed: unknown): void {
    if (value === undefined && this.column.key) {
      const parent = Number(pointed);
      this.checkedBy[REFERENCE]++;
      if (parent !== this.lastParent) {
        this.lastOrphan = !(parent >= 0 && parent < this.parentRows && Number.isInteger(parent));
        this.lastParent = parent;
        this.hll.addNumber(parent);
      }
      if (this.lastOrphan) this.broken(REFERENCE, 'reference-orphan', index, parent);
      return;
    }
    if (value === null || value === undefined) {
      this.nulls++;
      return;
    }
    if (!this.parentKey) {
      this.hll.add(value);
      return;
    }
    // A key the generator wrote itself: it must be the key of a row of the referenced table. A parent drawn
    // again in the chunk (a card's regular merchants) is neither resolved nor hashed again.
    this.checkedBy[REFERENCE]++;
    const key = typeof value === 'string' ? value : String(value);
    let resolves = this.resolved.get(key);
    if (resolves === undefined) {
      this.hll.add(key);
      const { prefix, tableSeed } = this.parentKey;
      resolves = rowOfKey(key, prefix, tableSeed, this.parentRows) >= 0;
      if (this.resolved.size < MAX_ANSWERS) this.resolved.set(key, resolves);
    }
    if (!resolves) this.broken(REFERENCE, 'reference-orphan', index, value);
  }
}

/**
 * Numbers and times (times as milliseconds since the epoch); amounts as written, in their minor units. The values
 * are kept, and hashed and sketched at the chunk's end in one pass (value-sketch.ts).
 */
class NumberObserver extends ColumnObserver {
  private readonly time: boolean;
  private readonly money: boolean;
  /** The chunk's values, as many as its rows at most. */
  private readonly values: Float64Array;
  private count = 0;
  private sum = 0;
  private min = Infinity;
  private max = -Infinity;
  private lastCurrency: unknown = null;
  private lastUnits: number | undefined;

  constructor(
    column: CompiledColumn,
    checked: Record<string, number>,
    private readonly origin: number,
    rows: number,
  ) {
    super(column, checked);
    this.values = SPARE_VALUES.pop() ?? new Float64Array(rows);
    if (this.values.length < rows) this.values = new Float64Array(rows);
    this.time = columnKind(column.type.name) === 'time';
    this.money = column.type.name === 'money';
  }

  take(value: unknown, index: number, currency: unknown): void {
    if (value === null || value === undefined) {
      this.nulls++;
      return;
    }
    // A timestamp given as a number is written at whole milliseconds.
    let number =
      typeof value === 'number'
        ? this.time
          ? Math.floor(value)
          : value
        : this.time
          ? parseInstant(String(value))
          : Number(value);
    if (!Number.isFinite(number)) {
      this.checkedBy[TYPE]++;
      this.broken(TYPE, 'value-type', index, value);
      return;
    }
    if (this.money) number = this.asWritten(number, this.column.currency ?? currency, index);
    this.values[this.count++] = number;
    this.sum += number;
    if (number < this.min) this.min = number;
    if (number > this.max) this.max = number;
  }

  /**
   * The writer rounds an amount to its currency's minor units (two for an unknown one), so the currency is what
   * must be known, and the statistics are of the amounts as written.
   */
  private asWritten(amount: number, currency: unknown, index: number): number {
    // Rows of a table repeat a few currencies: the last one's minor units are kept at hand.
    if (currency !== this.lastCurrency) {
      this.lastCurrency = currency;
      this.lastUnits = typeof currency === 'string' ? MINOR_UNITS.get(currency) : undefined;
    }
    this.checkedBy[CURRENCY]++;
    if (this.lastUnits === undefined) this.broken(CURRENCY, 'amount-currency-unknown', index, currency);
    const scale = SCALES[this.lastUnits ?? 2];
    return Math.round(amount * scale) / scale;
  }

  protected override addTo(out: ColumnChunkStatistics): void {
    this.hll.addNumbers(this.values, this.count);
    const buckets = this.count > 0 ? bucketsOf(this.values, this.count, this.origin) : undefined;
    if (SPARE_VALUES.length < MAX_SPARE_VALUES && this.values.length <= MAX_SPARE_LENGTH)
      SPARE_VALUES.push(this.values);
    super.addTo(out);
    Object.assign(out, { count: this.count, sum: this.sum, origin: this.origin });
    if (this.count > 0)
      Object.assign(out, {
        min: this.min,
        max: this.max,
        sketch: buckets,
      });
  }
}

/** A category's count in a chunk, the row it first appears in, and the rule its value breaks (null: none). */
interface Tally {
  count: number;
  first: number;
  broken: string | null;
}

/**
 * Categories, counted exactly while few: the distinct count is then the counts' size, nothing is hashed, and each
 * value is checked once, its rows counted as checked with it.
 */
class CategoryObserver extends ColumnObserver {
  private tallies?: Map<string, Tally> = new Map();
  private lastValue: unknown = undefined;
  private lastTally: Tally | undefined;
  private readonly check?: ValueCheck;

  constructor(column: CompiledColumn, checked: Record<string, number>) {
    super(column, checked);
    this.check = VALUE_CHECKS[column.type.name];
  }

  take(value: unknown, index: number): void {
    if (value === null || value === undefined) {
      this.nulls++;
      return;
    }
    // Most columns of categories repeat one value row after row (a currency, a status): it is counted at hand.
    if (value === this.lastValue && this.lastTally) {
      this.lastTally.count++;
      return;
    }
    const key = typeof value === 'string' ? value : String(value);
    if (this.tallies) {
      const tally = this.tallies.get(key);
      this.lastValue = value;
      this.lastTally = tally;
      if (tally !== undefined) tally.count++;
      else {
        this.tallies.set(key, { count: 1, first: index, broken: this.check ? this.check(key) : null });
        if (this.tallies.size > MAX_CATEGORIES) this.spill();
      }
      return;
    }
    this.hll.add(key);
    if (this.check) {
      this.checkedBy[VALUE]++;
      const broken = this.check(key);
      if (broken !== null) this.broken(VALUE, broken, index, key);
    }
  }

  /** Moves the tallies into the distinct-count sketch and the checks' counts, in the order the values came. */
  private spill(): Map<string, Tally> | undefined {
    const tallies = this.tallies;
    this.tallies = undefined;
    this.lastTally = undefined;
    if (!tallies) return undefined;
    for (const [key, tally] of tallies) {
      this.hll.add(key);
      if (!this.check) continue;
      this.checkedBy[VALUE] += tally.count;
      if (tally.broken !== null) this.broken(VALUE, tally.broken, tally.first, key, tally.count);
    }
    return tallies;
  }

  protected override addTo(out: ColumnChunkStatistics): void {
    const tallies = this.spill();
    if (tallies) out.counts = Object.fromEntries([...tallies].map(([key, tally]) => [key, tally.count]));
    super.addTo(out);
  }
}

/** Any other value: its distinct count, and the validity of a financial type (IBAN, BIC, PAN, ISIN). */
class TextObserver extends ColumnObserver {
  /**
   * The type's check, and what it answered for the values seen so far in the chunk, while they are few: a value
   * drawn again (a counterparty's IBAN) is neither checked nor hashed again, since neither answer would change.
   */
  private readonly checker?: { check: ValueCheck; answers: Map<string, string | null> };

  constructor(column: CompiledColumn, checked: Record<string, number>) {
    super(column, checked);
    const check = VALUE_CHECKS[column.type.name];
    if (check) this.checker = { check, answers: new Map() };
  }

  take(value: unknown, index: number): void {
    if (value === null || value === undefined) {
      this.nulls++;
      return;
    }
    if (!this.checker) {
      this.hll.add(value);
      return;
    }
    const { check, answers } = this.checker;
    this.checkedBy[VALUE]++;
    const text = typeof value === 'string' ? value : String(value);
    let broken = answers.get(text);
    if (broken === undefined) {
      this.hll.add(value);
      broken = check(text);
      if (answers.size < MAX_ANSWERS) answers.set(text, broken);
    }
    if (broken !== null) this.broken(VALUE, broken, index, value);
  }
}

/** The most answers of a check a column keeps per chunk. */
const MAX_ANSWERS = 4096;

function columnObserver(
  column: CompiledColumn,
  runtime: PlanRuntime,
  params: Record<string, unknown>,
  checked: Record<string, number>,
  rows: number,
): ColumnObserver {
  switch (columnKind(column.type.name)) {
    case 'key':
      return new KeyObserver(column, checked);
    case 'reference':
      return new ReferenceObserver(column, checked, runtime);
    case 'number':
    case 'time':
      return new NumberObserver(column, checked, timeOrigin(column.type.name, params), rows);
    case 'category':
      return new CategoryObserver(column, checked);
    default:
      return new TextObserver(column, checked);
  }
}

const SCALES = [1, 10, 100, 1000, 10000];

/**
 * Value arrays of finished chunks, which the next chunks' number columns take instead of allocating their own;
 * the array of an unusually long chunk (a parent with many rows) is not kept.
 */
const SPARE_VALUES: Float64Array[] = [];
const MAX_SPARE_VALUES = 16;
const MAX_SPARE_LENGTH = 65_536;
