import type { ColumnStatistics, TableStatistics, TargetInputs } from './table-statistics.js';

/** One thing the config asked for, what the data achieved, and whether it is within its tolerance. */
export interface TargetCheck {
  column: string;
  target: string;
  configured: number;
  achieved: number;
  tolerance: number;
  pass: boolean;
}

/**
 * The tolerance of a share drawn from `n` independent rows: four standard errors of a binomial share (a
 * false failure about once in 16,000 honest checks) and half a percentage point for small effects.
 */
export function shareTolerance(p: number, n: number): number {
  return 4 * Math.sqrt((p * (1 - p)) / Math.max(1, n)) + 0.005;
}

function share(column: string, target: string, configured: number, achieved: number, n: number): TargetCheck {
  const tolerance = shareTolerance(configured, n);
  return { column, target, configured, achieved, tolerance, pass: Math.abs(achieved - configured) <= tolerance };
}

/** A share of the rows whose `column` holds `value`, from its counted top values. */
export function valueShare(column: ColumnStatistics, value: string): number | undefined {
  if (!column.top) return undefined;
  return column.top.find((top) => top.value === value)?.share ?? 0;
}

/**
 * What the config set on a column against what its rows show: a null rate, a boolean's rate, categorical
 * weights (each value's share), and a log-normal's median (e^mu) and spread (p95 / p50 = e^(1.645 sigma)). Of a
 * column whose pack reshapes the draw (`draw_reshaped`), the parameters describe the draw, not the column: only
 * its null rate, applied after the pack's generator, is a target.
 */
export function columnTargets(column: ColumnStatistics, inputs: TargetInputs): TargetCheck[] {
  const { configured, name, rows } = column;
  const nonNull = rows - column.nulls;
  const checks: TargetCheck[] = [];
  // A null rate replaces each row's value with that chance, on top of the nulls the pack writes itself: it is held
  // against the values there were to replace (docs/reports.md), and a column of nothing but nulls has none.
  const replaceable = nonNull + inputs.null_rate_nulls;
  if (typeof configured.null_rate === 'number' && replaceable > 0)
    checks.push(share(name, 'null_rate', configured.null_rate, inputs.null_rate_nulls / replaceable, replaceable));
  if (inputs.draw_reshaped) return checks;
  if (column.type === 'boolean' && typeof configured.rate === 'number')
    checks.push(share(name, 'rate', configured.rate, valueShare(column, 'true') ?? 0, nonNull));
  if (configured.weights && typeof configured.weights === 'object' && column.top) {
    const weights = configured.weights as Record<string, number>;
    const total = Object.values(weights).reduce((sum, weight) => sum + weight, 0);
    for (const [value, weight] of Object.entries(weights))
      checks.push(share(name, `weights.${value}`, weight / total, valueShare(column, value) ?? 0, nonNull));
  }
  // A log-normal is a target when the config names it with both parameters (the config's schema asks for them).
  const lognormal =
    configured.distribution === 'lognormal' &&
    typeof configured.mu === 'number' &&
    typeof configured.sigma === 'number';
  if (lognormal && column.quantiles) {
    const mu = Number(configured.mu);
    const sigma = Number(configured.sigma);
    // The sample median's standard error is about 1.25 σ/√n in log space; the sketch adds 1 %.
    const logTolerance = 4 * 1.253 * (sigma / Math.sqrt(Math.max(1, nonNull))) + 0.02;
    const median = column.quantiles.p50;
    checks.push({
      column: name,
      target: 'median',
      configured: Math.exp(mu),
      achieved: median,
      tolerance: Math.exp(mu) * (Math.exp(logTolerance) - 1),
      pass: median > 0 && Math.abs(Math.log(median) - mu) <= logTolerance,
    });
  }
  if (lognormal && column.quantiles && column.quantiles.p50 > 0) {
    const sigma = Number(configured.sigma);
    // p95 / p50 = e^(1.645 σ) for a log-normal; two quantiles of a sample and the sketch allow a tenth.
    const achieved = Math.log(column.quantiles.p95 / column.quantiles.p50) / 1.6449;
    const tolerance = 0.1 * sigma + 0.02;
    checks.push({
      column: name,
      target: 'sigma',
      configured: sigma,
      achieved,
      tolerance,
      pass: Math.abs(achieved - sigma) <= tolerance,
    });
  }
  return checks;
}

/** The shares a table's options ask for (a pack's `rate_targets`: a fraud rate) against its rows. */
export function rateTargets(statistics: TableStatistics): TargetCheck[] {
  return statistics.rate_targets.flatMap(({ option, column, value, configured }) => {
    const stats = statistics.columns.find((candidate) => candidate.name === column);
    if (!stats || !Number.isFinite(configured)) return [];
    const achieved = valueShare(stats, value) ?? 0;
    return [{ ...share(column, option, configured, achieved, stats.rows - stats.nulls) }];
  });
}
