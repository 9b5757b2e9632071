import { createHash } from 'node:crypto';
import type { DatasetReport, TableReport } from './report.js';
import type { ColumnStatistics } from './table-statistics.js';

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1f24}
h1,h2,h3{line-height:1.2}table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}
th,td{border-bottom:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
.score{font-size:2rem;font-weight:600}.fail{color:#b42318}.pass{color:#067647}code{font-size:13px}
svg{display:block}`;

/** The page's policy: nothing from anywhere, the one inline style block by its hash, no script at all. */
export const REPORT_CONTENT_SECURITY_POLICY =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; ` +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const format = (value: number | undefined, type: string) =>
  value === undefined
    ? ''
    : type === 'date' || type === 'timestamp'
      ? new Date(value).toISOString()
      : +value.toPrecision(6);

/** A row of cells, each given as HTML already escaped. */
const tr = (cells: string[], kind = '', head = false) => {
  const tag = head ? 'th' : 'td';
  return `<tr${kind ? ` class="${kind}"` : ''}>${cells.map((cell) => `<${tag}>${cell}</${tag}>`).join('')}</tr>`;
};
const grid = (head: string[], rows: string[]) => `<table>${tr(head, '', true)}${rows.join('')}</table>`;
const figure = (value: number) => String(+value.toPrecision(6));

/** A self-contained page of the report: tables of figures and inline SVG charts, text escaped, no script. */
export function reportPage(report: DatasetReport, title: string): string {
  const { distinct_standard_error: distinct, quantile_relative_error: quantile } = report.accuracy;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escape(title)}</title><style>${STYLE}</style></head><body>
<h1>${escape(title)}</h1>
<p>Sector <code>${escape(report.sector)}</code>, seed ${report.seed}.
Score <span class="score">${report.score}</span> / 100.
Distinct counts within ${(100 * distinct).toFixed(1)} % (one standard error);
quantiles within ${100 * quantile} % of their value.</p>
${report.tables.map(tableSection).join('\n')}
</body></html>`;
}

function tableSection(table: TableReport): string {
  const findings = table.findings.length
    ? grid(
        ['column', 'rule', 'rows', 'first row', 'value'],
        table.findings.map((f) =>
          tr(
            [
              escape(f.column),
              escape(f.rule),
              `${f.count} of ${f.checked}`,
              String(f.example.row),
              `<code>${escape(f.example.value)}</code>`,
            ],
            'fail',
          ),
        ),
      )
    : '<p class="pass">No finding.</p>';
  const targets = table.targets.length
    ? `<h3>Achieved against configured</h3>${grid(
        ['column', 'target', 'configured', 'achieved', 'tolerance', ''],
        table.targets.map((t) =>
          tr(
            [
              escape(t.column),
              escape(t.target),
              figure(t.configured),
              figure(t.achieved),
              `±${+t.tolerance.toPrecision(3)}`,
              t.pass ? 'pass' : 'fail',
            ],
            t.pass ? 'pass' : 'fail',
          ),
        ),
      )}`
    : '';
  const columns = grid(
    ['column', 'type', 'nulls', 'distinct', 'min', 'median', 'max', 'distribution'],
    table.columns.map((column) =>
      tr([
        escape(column.name),
        escape(column.type),
        `${(100 * column.null_share).toFixed(2)} %`,
        String(column.distinct ?? ''),
        escape(format(column.min, column.type)),
        escape(format(column.quantiles?.p50, column.type)),
        escape(format(column.max, column.type)),
        chart(column),
      ]),
    ),
  );
  return `<section><h2>${escape(table.name)}: ${table.rows} rows, score ${table.score}</h2>
<h3>Findings</h3>${findings}${targets}<h3>Columns</h3>${columns}</section>`;
}

/** A histogram of numbers and times, or bars of the top values' shares, as inline SVG. */
function chart(column: ColumnStatistics): string {
  const bars = column.histogram
    ? column.histogram.map((bin) => ({
        label: `${format(bin.from, column.type)} to ${format(bin.to, column.type)}: ${bin.count}`,
        value: bin.count,
      }))
    : (column.top ?? [])
        .slice(0, 10)
        .map((top) => ({ label: `${top.value}: ${(100 * top.share).toFixed(1)} %`, value: top.count }));
  if (!bars.length) return '';
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const width = 200 / bars.length;
  const rects = bars.map((bar, i) => {
    const height = Math.max(bar.value > 0 ? 1 : 0, (38 * bar.value) / max);
    const box = `x="${(i * width).toFixed(2)}" y="${(40 - height).toFixed(2)}"`;
    const size = `width="${Math.max(1, width - 1).toFixed(2)}" height="${height.toFixed(2)}"`;
    return `<rect ${box} ${size} fill="#3b6fd4"><title>${escape(bar.label)}</title></rect>`;
  });
  const label = `aria-label="${escape(column.name)}"`;
  return `<svg width="200" height="40" viewBox="0 0 200 40" role="img" ${label}>${rects.join('')}</svg>`;
}
