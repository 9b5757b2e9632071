/** The JSON Schema of a report (report.ts), for the OpenAPI document. */
const number = { type: 'number' };
const count = { type: 'integer', minimum: 0 };
const share = { type: 'number', minimum: 0, maximum: 1 };
const score = { type: 'number', minimum: 0, maximum: 100 };

function object(properties: Record<string, unknown>, required = Object.keys(properties)) {
  return { type: 'object', required, properties };
}

const column = object(
  {
    name: { type: 'string' },
    type: { type: 'string', description: 'The column type of the catalog.' },
    configured: { type: 'object', description: 'What the config set on the column (its overrides).' },
    rows: count,
    nulls: count,
    null_share: share,
    distinct: { ...count, description: 'HyperLogLog estimate (`accuracy.distinct_standard_error`).' },
    min: { ...number, description: 'Exact. Times as milliseconds since the epoch.' },
    max: number,
    mean: number,
    quantiles: {
      type: 'object',
      description: 'p1, p5, p25, p50, p75, p95, p99, each within `accuracy.quantile_relative_error` of its value.',
      additionalProperties: number,
    },
    histogram: { type: 'array', items: object({ from: number, to: number, count }) },
    top: {
      type: 'array',
      description: 'The most frequent values of a categorical column (up to 20) and their shares of its non-null rows.',
      items: object({ value: { type: 'string' }, count, share }),
    },
  },
  ['name', 'type', 'configured', 'rows', 'nulls', 'null_share'],
);

const finding = object({
  column: { type: 'string' },
  check: { type: 'string', description: 'The check: a type (iban, pan, …), `reference`, `currency`, `invariant`.' },
  rule: { type: 'string', description: 'The rule broken, for example `iban-iso-13616` or `reference-orphan`.' },
  count: { ...count, description: 'Rows that break it.' },
  checked: { ...count, description: 'Rows the check looked at.' },
  example: object({
    row: { ...count, description: "The first such row's index in its table." },
    value: { type: 'string' },
  }),
});

const target = object({
  column: { type: 'string' },
  target: { type: 'string', description: '`null_rate`, `rate`, `weights.<value>`, `median`, `sigma`, or an option.' },
  configured: number,
  achieved: number,
  tolerance: number,
  pass: { type: 'boolean' },
});

export const reportSchema = object({
  object: { const: 'report' },
  version: { const: 1 },
  sector: { type: 'string' },
  seed: { type: 'integer' },
  score: { ...score, description: "The tables' scores weighted by their rows." },
  accuracy: object({ distinct_standard_error: number, quantile_relative_error: number }),
  tables: {
    type: 'array',
    items: object({
      name: { type: 'string' },
      rows: count,
      score: {
        ...score,
        description: "The mean of the table's checks: a share of the values that hold, or 1/0 for a target.",
      },
      columns: { type: 'array', items: column },
      findings: { type: 'array', items: finding },
      targets: { type: 'array', items: target },
      passed: {
        type: 'array',
        items: object({ column: { type: 'string' }, check: { type: 'string' }, checked: count }),
      },
    }),
  },
});
