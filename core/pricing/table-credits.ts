/**
 * The one price rule: a table of `rows` rows costs its pack weight (credits per 1,000 rows) pro rata,
 * rounded up to a whole credit, and at least one credit for any non-empty table. Estimates, quick
 * generation and job settlement all call this, so a quote and a charge can never disagree.
 */
export function tableCredits(rows: number, creditsPer1000Rows: number): number {
  if (rows <= 0) return 0;
  return Math.max(1, Math.ceil((rows * creditsPer1000Rows) / 1000));
}
