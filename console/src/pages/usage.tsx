import { useEffect, useRef, useState } from 'preact/hooks';
import type { UsageChart } from '../chart/usage-chart.js';
import { useSession } from '../session/session.js';
import { describedBy, Field } from '../ui/field.js';
import { ProblemView } from '../ui/problem-view.js';
import { useLoad } from '../ui/use-load.js';
import { credits } from '../ui/credits.js';

const DAY_MS = 86_400_000;

const count = (value: number, unit: string): string => `${value.toLocaleString('en')} ${unit}${value === 1 ? '' : 's'}`;

const isoDay = (time: number): string => new Date(time).toISOString().slice(0, 10);

/** Every UTC day from `from` to `to` (inclusive), so that days without usage show as zero. */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(`${from}T00:00:00Z`); time <= Date.parse(`${to}T00:00:00Z`); time += DAY_MS)
    days.push(isoDay(time));
  return days;
}

/** Credits per day over a chosen period, live or test, with totals by sector, table and key. */
export function UsagePage() {
  const { session } = useSession();
  const today = isoDay(Date.now());
  const [from, setFrom] = useState(isoDay(Date.now() - 13 * DAY_MS));
  const [to, setTo] = useState(today);
  const [mode, setMode] = useState(session.mode);
  const period = { from: `${from}T00:00:00Z`, to: new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS).toISOString() };
  const usage = useLoad(() => session.client.usage.summary({ ...period, mode }), [from, to, mode]);
  const days = from <= to ? daysBetween(from, to) : [];
  const byDay = new Map(usage.data?.by_day.map((day) => [day.date, day.credits ?? 0]));
  const perDay = days.map((day) => byDay.get(day) ?? 0);

  return (
    <>
      <h1 tabIndex={-1}>Usage</h1>
      <form class="inline-form" onSubmit={(event) => event.preventDefault()}>
        <Field id="usage-from" label="From">
          <input
            {...describedBy('usage-from')}
            type="date"
            value={from}
            max={to}
            onChange={(event) => setFrom(event.currentTarget.value)}
          />
        </Field>
        <Field id="usage-to" label="To">
          <input
            {...describedBy('usage-to')}
            type="date"
            value={to}
            min={from}
            onChange={(event) => setTo(event.currentTarget.value)}
          />
        </Field>
        <Field id="usage-mode" label="Mode">
          <select
            id="usage-mode"
            value={mode}
            onChange={(event) => setMode(event.currentTarget.value as 'live' | 'test')}
          >
            {/* A test key sees test usage only; a live key sees either, apart. */}
            {session.mode === 'live' && <option value="live">live (charged)</option>}
            <option value="test">test (sandbox, not charged)</option>
          </select>
        </Field>
        <button type="button" class="secondary" onClick={() => usage.reload()}>
          Refresh
        </button>
      </form>
      {usage.error !== undefined && <ProblemView error={usage.error} />}
      {usage.data && (
        <>
          <p role="status" aria-label="Usage totals">
            {usage.data.mode === 'test' ? 'Test usage (what it would have cost)' : 'Live usage'}:{' '}
            <strong>{credits(usage.data.credits)}</strong>, {count(usage.data.operations, 'operation')},{' '}
            {count(usage.data.rows, 'row')}
            {usage.data.refunded.credits ? `; ${usage.data.refunded.credits} credits refunded` : ''}.
          </p>
          <Chart days={days} credits={perDay} />
          <details>
            <summary>Credits per day as a table</summary>
            <Breakdown
              caption="Credits per day"
              head={['day', 'credits']}
              rows={days.map((day, index) => [day, perDay[index]!])}
            />
          </details>
          <Breakdown
            caption="By sector"
            head={['sector', 'operations', 'rows', 'credits']}
            rows={usage.data.by_sector.map((each) => [
              each.sector ?? '',
              each.operations ?? 0,
              each.rows ?? 0,
              each.credits ?? 0,
            ])}
          />
          <Breakdown
            caption="By table"
            head={['table', 'operations', 'rows', 'credits']}
            rows={usage.data.by_table.map((each) => [
              `${each.sector}/${each.table}`,
              each.operations ?? 0,
              each.rows ?? 0,
              each.credits ?? 0,
            ])}
          />
          <Breakdown
            caption="By key"
            head={['key', 'operations', 'rows', 'credits']}
            rows={usage.data.by_key.map((each) => [
              each.key_id ?? '(none)',
              each.operations ?? 0,
              each.rows ?? 0,
              each.credits ?? 0,
            ])}
          />
        </>
      )}
    </>
  );
}

function Breakdown({ caption, head, rows }: { caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table class="data">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((name) => (
              <th scope="col" key={name}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={head.length} class="muted">
                Nothing in this period.
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={String(row[0])}>
              <th scope="row">{row[0]}</th>
              {row.slice(1).map((value, index) => (
                <td key={index} class="number">
                  {typeof value === 'number' ? value.toLocaleString('en') : value}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The chart, loaded with its chunk when the page first shows it; its data also in the table beside it. */
function Chart({ days, credits }: { days: string[]; credits: number[] }) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | undefined>(undefined);
  const key = `${days.join()}|${credits.join()}`;
  useEffect(() => {
    let chart: UsageChart | undefined;
    let live = true;
    import('../chart/usage-chart.js').then(
      ({ drawUsageChart }) => {
        if (live && host.current) chart = drawUsageChart(host.current, days, credits);
      },
      (error: unknown) => setFailed(String(error)),
    );
    return () => {
      live = false;
      chart?.destroy();
    };
  }, [key]);
  const total = credits.reduce((sum, value) => sum + value, 0);
  return (
    <figure class="chart">
      <div
        ref={host}
        role="img"
        aria-label={`Credits per day from ${days[0]} to ${days.at(-1)}: ${total} in all`}
        data-total={total}
      />
      <figcaption>Credits per day (UTC)</figcaption>
      {failed && <p class="problem">The chart could not load: {failed}</p>}
    </figure>
  );
}
