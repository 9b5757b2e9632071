import type { QuickResult } from '@finsynth/client';
import { href } from '../routes.js';
import { can, useSession } from '../session/session.js';
import { cellText, DataTable } from '../ui/data-table.js';
import { ProblemView } from '../ui/problem-view.js';
import { useAction, useLoad } from '../ui/use-load.js';
import { useState } from 'preact/hooks';

const PREVIEW_ROWS = 20;

/** Sectors → tables → columns, and a 20-row quick generation of any table. */
export function CatalogPage({ path }: { path: string[] }) {
  const { session } = useSession();
  const catalog = useLoad(() => session.client.catalog.list(), []);
  const [sector, table] = path;
  return (
    <>
      <h1 tabIndex={-1}>Catalog</h1>
      {catalog.error !== undefined && <ProblemView error={catalog.error} />}
      <div class="catalog">
        <nav class="catalog-tree" aria-label="Sectors and tables">
          {catalog.data?.sectors.map((each) => (
            <section key={each.name} aria-labelledby={`sector-${each.name}`}>
              <h2 id={`sector-${each.name}`}>{each.name}</h2>
              <p class="muted">{each.description}</p>
              <ul>
                {each.tables.map((candidate) => (
                  <li key={candidate.name}>
                    <a
                      href={href('catalog', each.name, candidate.name)}
                      aria-current={each.name === sector && candidate.name === table ? 'page' : undefined}
                    >
                      {candidate.name}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </nav>
        <div class="catalog-detail">
          {sector && table ? (
            <TableDetail key={`${sector}/${table}`} sector={sector} table={table} />
          ) : (
            <p class="muted">Choose a table to see its columns and a preview of its rows.</p>
          )}
        </div>
      </div>
    </>
  );
}

function TableDetail({ sector, table }: { sector: string; table: string }) {
  const { session } = useSession();
  const schema = useLoad(() => session.client.catalog.table(sector, table), [sector, table]);
  const [preview, setPreview] = useState<QuickResult | undefined>(undefined);
  const generate = useAction(async () => {
    const result = await session.client.generate.quick({ sector, tables: [{ name: table, rows: PREVIEW_ROWS }] });
    setPreview(result);
  });
  if (schema.error !== undefined) return <ProblemView error={schema.error} />;
  if (!schema.data) return <p class="loading">Loading {table}…</p>;
  const data = schema.data;
  return (
    <section aria-labelledby="table-heading">
      <h2 id="table-heading">
        {sector} / {data.name}
      </h2>
      <p>{data.description}</p>
      <p class="muted">
        {data.credits_per_1000_rows} credits per 1,000 rows
        {data.parents.length > 0 && ` · references ${data.parents.join(', ')}`}
      </p>
      <div class="table-scroll" tabIndex={0} role="region" aria-label={`Columns of ${data.name}`}>
        <table class="data wrap">
          <caption>Columns of {data.name}</caption>
          <thead>
            <tr>
              <th scope="col">column</th>
              <th scope="col">type</th>
              <th scope="col">description</th>
              <th scope="col">example</th>
            </tr>
          </thead>
          <tbody>
            {data.columns.map((column) => (
              <tr key={column.name}>
                <th scope="row">{column.name}</th>
                <td>
                  {column.type}
                  {column.nullable ? ' · nullable' : ''}
                </td>
                <td>{column.description}</td>
                <td>{cellText(column.example)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {can(session, 'generate') && (
        <p>
          <button type="button" onClick={() => generate.run()} disabled={generate.pending}>
            Preview {PREVIEW_ROWS} rows
          </button>{' '}
          <span class="muted">
            {session.mode === 'test' ? 'a sandbox quick generation: nothing is charged' : 'a quick generation, charged'}
          </span>
        </p>
      )}
      {generate.error !== undefined && <ProblemView error={generate.error} />}
      {preview && (
        <DataTable
          rows={preview.tables[table] as Record<string, unknown>[]}
          caption={`Preview: ${preview.rows} rows of ${table} (seed ${preview.seed})`}
        />
      )}
    </section>
  );
}
