const DAY = 86_400_000;

/**
 * A drawn day (YYYY-MM-DD) kept on or before `latest`: a day drawn later is wrapped into [earliest, latest] by
 * how far it overshoots, so a window drawn uniformly past the as-of date stays about uniform up to it (clamping
 * would pile the overshoot on the as-of day). `earliest` later than `latest` gives `latest`.
 */
export function onOrBefore(date: string, earliest: string, latest: string): string {
  if (date <= latest) return date;
  const from = Date.parse(earliest);
  const days = (Date.parse(latest) - from) / DAY + 1;
  if (!(days > 0)) return latest;
  const overshoot = (Date.parse(date) - from) / DAY;
  return new Date(from + (overshoot % days) * DAY).toISOString().slice(0, 10);
}
