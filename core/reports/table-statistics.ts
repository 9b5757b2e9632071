import { DDSketch } from '@datadog/sketches-js';
import { HyperLogLog } from './statistics/hyperloglog.js';
import { addBuckets, newSketch } from './statistics/value-sketch.js';
import type { ChunkStatistics, ColumnChunkStatistics, RuleBreaks } from './statistics/chunk-statistics.js';

/** Quantiles every number and time column reports. */
export const QUANTILES = [0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99] as const;
const HISTOGRAM_BINS = 20;

export interface ColumnStatistics {
  name: string;
  type: string;
  /** What the config set on the column (its overrides), for the targets (targets.ts). */
  configured: Record<string, unknown>;
  rows: number;
  nulls: number;
  null_share: number;
  distinct?: number;
  min?: number;
  max?: number;
  mean?: number;
  quantiles?: Record<string, number>;
  histogram?: { from: number; to: number; count: number }[];
  top?: { value: string; count: number; share: number }[];
}

/** What a column's targets read besides its figures: the engine's counts and its pack's word, not in the report. */
export interface TargetInputs {
  /** The values its null rate replaced with null (the runtime counts them; a value already null is not one). */
  null_rate_nulls: number;
  /** Its pack reshapes its draw (the column definition's `draw_reshaped`): its distribution is not the column's. */
  draw_reshaped: boolean;
}

export interface Finding {
  column: string;
  check: string;
  rule: string;
  count: number;
  checked: number;
  example: { row: number; value: string };
}

export interface TableStatistics {
  rows: number;
  columns: ColumnStatistics[];
  findings: Finding[];
  /** Values checked per column and check: what each finding's count is out of. */
  checked: Record<string, number>;
  /** The shares the table's options ask for (the pack's `rate_targets`), with the configured value. */
  rate_targets: NonNullable<ChunkStatistics['rate_targets']>;
  /** Per column, by name: what its targets read besides its figures (targets.ts). */
  target_inputs: Record<string, TargetInputs>;
}

interface MergedColumn {
  name: string;
  type: string;
  configured: Record<string, unknown>;
  drawReshaped: boolean;
  nulls: number;
  nullRateNulls: number;
  hll?: HyperLogLog;
  count: number;
  sum: number;
  min: number;
  max: number;
  origin: number;
  sketch?: DDSketch;
  counts?: Map<string, number>;
  categorical: boolean;
  findings: Map<string, RuleBreaks>;
}

/** Merges a table's chunk statistics, in chunk order: a finding's example is then its table's first row. */
export class TableStatisticsMerger {
  private rows = 0;
  private chunks = 0;
  private columns: MergedColumn[] = [];
  private readonly checked: Record<string, number> = {};
  private readonly invariants = new Map<string, RuleBreaks>();
  private rateTargets: NonNullable<ChunkStatistics['rate_targets']> = [];

  add(statistics: ChunkStatistics, chunk: number): void {
    if (chunk !== this.chunks) throw new Error(`chunk ${chunk}'s statistics came before chunk ${this.chunks}'s`);
    this.chunks++;
    this.rows += statistics.rows;
    for (const [key, count] of Object.entries(statistics.checked)) this.checked[key] = (this.checked[key] ?? 0) + count;
    if (this.columns.length === 0)
      this.columns = statistics.columns.map((column) => ({
        name: column.name,
        type: column.configured?.type ?? 'unknown',
        configured: column.configured?.params ?? {},
        drawReshaped: column.configured?.draw_reshaped === true,
        nulls: 0,
        nullRateNulls: 0,
        hll: column.hll ? new HyperLogLog() : undefined,
        count: 0,
        sum: 0,
        min: Infinity,
        max: -Infinity,
        origin: column.origin ?? 0,
        categorical: column.counts !== undefined,
        counts: column.counts ? new Map() : undefined,
        findings: new Map(),
      }));
    statistics.columns.forEach((column, i) => mergeColumn(this.columns[i], column));
    mergeFindings(this.invariants, statistics.invariants);
    if (statistics.rate_targets) this.rateTargets = statistics.rate_targets;
  }

  result(): TableStatistics {
    const findings: Finding[] = [];
    const add = (column: string, rule: string, found: RuleBreaks, key: string) =>
      findings.push({
        column,
        check: found.check,
        rule,
        count: found.count,
        checked: this.checked[key] ?? found.count,
        example: { row: found.row, value: found.value },
      });
    const columns = this.columns.map((column) => {
      for (const [rule, found] of column.findings) add(column.name, rule, found, `${column.name}\u0000${found.check}`);
      return describe(column, this.rows);
    });
    for (const [rule, found] of this.invariants) add('', rule, found, `\u0000${rule}`);
    const targetInputs = Object.fromEntries(
      this.columns.map((column) => [
        column.name,
        { null_rate_nulls: column.nullRateNulls, draw_reshaped: column.drawReshaped },
      ]),
    );
    return {
      rows: this.rows,
      columns,
      findings,
      checked: this.checked,
      rate_targets: this.rateTargets,
      target_inputs: targetInputs,
    };
  }
}

function mergeColumn(into: MergedColumn, chunk: ColumnChunkStatistics): void {
  into.nulls += chunk.nulls;
  into.nullRateNulls += chunk.null_rate_nulls ?? 0;
  if (chunk.hll) into.hll?.merge(chunk.hll);
  if (chunk.count) {
    into.count += chunk.count;
    into.sum += chunk.sum!;
    into.min = Math.min(into.min, chunk.min!);
    into.max = Math.max(into.max, chunk.max!);
  }
  if (chunk.sketch) addBuckets((into.sketch ??= newSketch()), chunk.sketch);
  if (into.categorical) {
    if (!chunk.counts || !into.counts) into.counts = undefined;
    else
      for (const [value, count] of Object.entries(chunk.counts))
        into.counts.set(value, (into.counts.get(value) ?? 0) + count);
  }
  mergeFindings(into.findings, chunk.findings);
}

function mergeFindings(into: Map<string, RuleBreaks>, chunk: Record<string, RuleBreaks> | undefined): void {
  for (const [rule, found] of Object.entries(chunk ?? {})) {
    const known = into.get(rule);
    if (known) known.count += found.count;
    else into.set(rule, { ...found });
  }
}

function describe(column: MergedColumn, rows: number): ColumnStatistics {
  const out: ColumnStatistics = {
    name: column.name,
    type: column.type,
    configured: column.configured,
    rows,
    nulls: column.nulls,
    null_share: rows ? column.nulls / rows : 0,
  };
  if (column.hll) out.distinct = Math.min(column.hll.estimate(), rows - column.nulls);
  if (column.count > 0) {
    out.min = column.min;
    out.max = column.max;
    out.mean = column.sum / column.count;
  }
  if (column.sketch && column.count > 0) {
    const { sketch, origin } = column;
    // A quantile is clamped to the values seen: the sketch's bucket may reach a little past them.
    const at = (q: number) => Math.min(column.max, Math.max(column.min, sketch.getValueAtQuantile(q) + origin));
    out.quantiles = Object.fromEntries(QUANTILES.map((q) => [`p${Math.round(q * 100)}`, at(q)]));
    out.histogram = histogram(sketch, origin, column.min, column.max);
  }
  if (column.counts) {
    const nonNull = rows - column.nulls;
    out.top = [...column.counts]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 20)
      .map(([value, count]) => ({ value, count, share: nonNull ? count / nonNull : 0 }));
  }
  return out;
}

/** Equal-width bins over [min, max], filled from the sketch's buckets (each counted at its representative value). */
function histogram(sketch: DDSketch, origin: number, min: number, max: number) {
  const width = (max - min) / HISTOGRAM_BINS;
  const bins = Array.from({ length: HISTOGRAM_BINS }, (_, i) => ({
    from: min + i * width,
    to: i === HISTOGRAM_BINS - 1 ? max : min + (i + 1) * width,
    count: 0,
  }));
  const place = (value: number, count: number) => {
    if (count === 0) return;
    const i = width > 0 ? Math.floor((Math.min(max, Math.max(min, value + origin)) - min) / width) : 0;
    bins[Math.min(HISTOGRAM_BINS - 1, Math.max(0, i))].count += count;
  };
  const { store, negativeStore, mapping, zeroCount } = sketch;
  store.bins.forEach((count, i) => place(mapping.value(i + store.offset), count));
  negativeStore.bins.forEach((count, i) => place(-mapping.value(i + negativeStore.offset), count));
  place(0, zeroCount);
  return bins;
}
