import type { QuickRequest, QuickResult } from '@finsynth/client';
import { useState } from 'preact/hooks';
import { useSession } from '../session/session.js';
import { DataTable } from '../ui/data-table.js';
import { describedBy, Field } from '../ui/field.js';
import { describeFieldError, ProblemView } from '../ui/problem-view.js';
import { saveFile } from '../ui/save-file.js';
import { useAction } from '../ui/use-load.js';

const EXAMPLE = `version: 1
sector: banking
seed: 7
tables:
  - name: accounts
    rows: 20
`;

/**
 * The quick request a config asks for: its sector, seed, locale, as-of date and tables with their overrides and
 * options. The service reads the YAML (POST /v1/configs/validate) and answers it as JSON, so the console parses
 * no YAML itself.
 */
async function quickRequestOf(
  client: ReturnType<typeof useSession>['session']['client'],
  yaml: string,
): Promise<QuickRequest> {
  const checked = await client.configs.validate(yaml);
  if (!checked.valid || !checked.config) throw new ConfigProblems(checked.errors);
  const config = checked.config as {
    sector: string;
    seed?: number;
    locale?: string;
    as_of?: string;
    tables: {
      name: string;
      rows: number;
      columns?: Record<string, Record<string, unknown>>;
      options?: Record<string, unknown>;
    }[];
  };
  // A quick request holds the tables' options by table name, beside the tables.
  const options = Object.fromEntries(
    config.tables.filter((table) => table.options).map(({ name, options }) => [name, options]),
  );
  return {
    sector: config.sector,
    ...(config.seed === undefined ? {} : { seed: config.seed }),
    ...(config.locale === undefined ? {} : { locale: config.locale }),
    ...(config.as_of === undefined ? {} : { as_of: config.as_of }),
    tables: config.tables.map(({ name, rows, columns }) => ({ name, rows, ...(columns ? { columns } : {}) })),
    ...(Object.keys(options).length ? { options } : {}),
  } as QuickRequest;
}

/** A config the service found invalid: its errors, with their lines. */
class ConfigProblems extends Error {
  constructor(readonly errors: { pointer: string; message: string; line?: number; column?: number }[]) {
    super(`the config is invalid: ${errors.map(describeFieldError).join('; ')}`);
  }
}

/** Quick generation of a config: its rows as tables, and the same rows downloaded as CSV or NDJSON. */
export function PlaygroundPage() {
  const { session } = useSession();
  const [yaml, setYaml] = useState(EXAMPLE);
  const [result, setResult] = useState<{ request: QuickRequest; answer: QuickResult } | undefined>(undefined);

  const generate = useAction(async () => {
    const request = await quickRequestOf(session.client, yaml);
    const answer = await session.client.generate.quick(request);
    // The seed the service drew, so that a download gives these very rows.
    setResult({ request: { ...request, seed: answer.seed }, answer });
  });
  const download = useAction(async (format: 'csv' | 'ndjson', table?: string) => {
    if (!result) return;
    const request = table
      ? { ...result.request, tables: result.request.tables.filter((each) => each.name === table) }
      : result.request;
    const text = await session.client.generate.quick(request, { format });
    const type = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
    saveFile(`${request.sector}-${table ?? 'tables'}.${format}`, new Blob([text], { type }));
  });

  return (
    <>
      <h1 tabIndex={-1}>Playground</h1>
      <p class="muted">
        Quick generation of a config, answered at once (up to 10,000 rows a table).{' '}
        {session.mode === 'test'
          ? 'With a test key nothing is charged.'
          : 'A live key is charged for each generation, downloads included.'}
      </p>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          generate.run();
        }}
      >
        <Field id="playground-yaml" label="Config YAML">
          <textarea
            {...describedBy('playground-yaml')}
            rows={10}
            spellcheck={false}
            value={yaml}
            onInput={(event) => setYaml(event.currentTarget.value)}
          />
        </Field>
        <button type="submit" disabled={generate.pending}>
          {generate.pending ? 'Generating…' : 'Generate'}
        </button>
      </form>
      {generate.error !== undefined && <ProblemView error={generate.error} label="Generation problem" />}
      {download.error !== undefined && <ProblemView error={download.error} label="Download problem" />}
      {result && (
        <section aria-labelledby="rows-heading">
          <h2 id="rows-heading">
            {result.answer.rows} rows, seed {result.answer.seed}
            {result.answer.credits_charged > 0 ? `, ${result.answer.credits_charged} credits charged` : ''}
          </h2>
          <p>
            <button type="button" class="secondary" onClick={() => download.run('ndjson')}>
              Download NDJSON
            </button>
          </p>
          {Object.entries(result.answer.tables).map(([table, rows]) => (
            <div key={table}>
              <h3>{table}</h3>
              <p>
                <button type="button" class="secondary" onClick={() => download.run('csv', table)}>
                  Download CSV<span class="visually-hidden"> of {table}</span>
                </button>
              </p>
              <DataTable rows={rows as Record<string, unknown>[]} caption={`${table}: ${rows.length} rows`} />
            </div>
          ))}
        </section>
      )}
    </>
  );
}
