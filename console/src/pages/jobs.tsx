import { FinsynthError, TERMINAL_JOB_STATES, type Job, type Problem } from '@finsynth/client';
import { useEffect, useState } from 'preact/hooks';
import { problemError } from '../client/problem-error.js';
import { href } from '../routes.js';
import { can, useSession } from '../session/session.js';
import { describedBy, Field } from '../ui/field.js';
import { ProblemView } from '../ui/problem-view.js';
import { saveFile } from '../ui/save-file.js';
import { useAction, useLoad } from '../ui/use-load.js';
import { EXAMPLE_CONFIG } from './configs.js';

/** How often a page with a job that is not over asks again: its progress, live. */
const POLL_MS = 1000;

const isActive = (job: Pick<Job, 'state'>): boolean => !TERMINAL_JOB_STATES.includes(job.state);

/** Reloads `reload` every POLL_MS while `active` holds. */
function usePolling(active: boolean, reload: () => void): void {
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(reload, POLL_MS);
    return () => clearTimeout(timer);
  });
}

export function JobsPage({ path }: { path: string[] }) {
  const [id] = path;
  return id ? <JobDetail key={id} id={id} /> : <JobList />;
}

const percent = (done: number, total: number): number => (total === 0 ? 100 : Math.floor((done / total) * 100));

function Progress({ done, total, label }: { done: number; total: number; label: string }) {
  return (
    <span class="progress">
      <progress max={Math.max(total, 1)} value={total === 0 ? 1 : done} aria-label={label} />
      <span>
        {percent(done, total)}% · {done.toLocaleString('en')} / {total.toLocaleString('en')} rows
      </span>
    </span>
  );
}

function JobList() {
  const { session } = useSession();
  const jobs = useLoad(() => session.client.jobs.list({ limit: 50 }), []);
  usePolling(jobs.data?.data.some(isActive) ?? false, jobs.reload);
  return (
    <>
      <h1 tabIndex={-1}>Jobs</h1>
      {can(session, 'jobs:write') && <CreateJob onCreated={() => jobs.reload()} />}
      <section aria-labelledby="jobs-heading">
        <h2 id="jobs-heading">Jobs</h2>
        {jobs.error !== undefined && <ProblemView error={jobs.error} />}
        {jobs.data && jobs.data.data.length === 0 && <p class="muted">No job yet.</p>}
        {jobs.data && jobs.data.data.length > 0 && (
          <div class="table-scroll" tabIndex={0} role="region" aria-label="Jobs">
            <table class="data">
              <caption>Jobs of the {session.mode} mode, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">job</th>
                  <th scope="col">state</th>
                  <th scope="col">progress</th>
                  <th scope="col">sector</th>
                  <th scope="col">created</th>
                </tr>
              </thead>
              <tbody>
                {jobs.data.data.map((job) => (
                  <tr key={job.id}>
                    <th scope="row">
                      <a href={href('jobs', job.id)}>{job.id}</a>
                    </th>
                    <td class={`state state-${job.state}`}>{job.state}</td>
                    <td>
                      <Progress
                        done={job.progress.rows_done ?? 0}
                        total={job.progress.rows_total ?? 0}
                        label={`Progress of ${job.id}`}
                      />
                    </td>
                    <td>{job.sector}</td>
                    <td>{new Date(job.created_at).toLocaleString('en-GB')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function CreateJob({ onCreated }: { onCreated(job: Job): void }) {
  const { session } = useSession();
  const configs = useLoad(() => session.client.configs.list({ limit: 100 }), []);
  const [source, setSource] = useState('yaml');
  const [yaml, setYaml] = useState(EXAMPLE_CONFIG.replace('rows: 1000\n', 'rows: 500\n'));
  const [created, setCreated] = useState<Job | undefined>(undefined);
  const create = useAction(async () => {
    const job = await session.client.jobs.create(source === 'yaml' ? yaml : { config_id: source });
    setCreated(job);
    onCreated(job);
  });
  return (
    <section aria-labelledby="create-heading">
      <h2 id="create-heading">Create a job</h2>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          create.run();
        }}
      >
        <Field id="job-source" label="Config">
          <select id="job-source" value={source} onChange={(event) => setSource(event.currentTarget.value)}>
            <option value="yaml">YAML below</option>
            {configs.data?.data.map((config) => (
              <option key={config.id} value={config.id}>
                Saved: {config.name}
              </option>
            ))}
          </select>
        </Field>
        {source === 'yaml' && (
          <Field id="job-yaml" label="Config YAML">
            <textarea
              {...describedBy('job-yaml')}
              rows={8}
              spellcheck={false}
              value={yaml}
              onInput={(event) => setYaml(event.currentTarget.value)}
            />
          </Field>
        )}
        <button type="submit" disabled={create.pending}>
          Create job
        </button>
      </form>
      {create.error !== undefined && <ProblemView error={create.error} label="Job problem" />}
      {created && (
        <p role="status">
          Created <a href={href('jobs', created.id)}>{created.id}</a> ({created.estimate.credits ?? 0} credits
          estimated).
        </p>
      )}
    </section>
  );
}

/** Bytes of a result file, fetched with the key in the Authorization header and checked against its SHA-256. */
async function fetchResult(client: ReturnType<typeof useSession>['session']['client'], id: string, table: string) {
  const { data, error, response } = await client.raw.GET('/v1/jobs/{id}/results/{table}', {
    params: { path: { id, table } },
    parseAs: 'blob',
  });
  if (!response.ok || !(data instanceof Blob)) throw problemError(response, error);
  const digest = crypto.subtle ? await crypto.subtle.digest('SHA-256', await data.arrayBuffer()) : undefined;
  const sha256 = digest && [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return { blob: data, sha256 };
}

function JobDetail({ id }: { id: string }) {
  const { session } = useSession();
  const job = useLoad(() => session.client.jobs.retrieve(id), [id]);
  const active = job.data ? isActive(job.data) : false;
  usePolling(active, job.reload);
  const results = useLoad(
    async () => (job.data?.state === 'succeeded' ? session.client.jobs.results(id) : undefined),
    [id, job.data?.state],
  );
  const report = useLoad(
    async () =>
      job.data?.state === 'succeeded' && job.data.output.report ? session.client.jobs.report(id) : undefined,
    [id, job.data?.state],
  );
  const savePage = useAction(async () => {
    const page = await session.client.jobs.reportPage(id);
    saveFile(`${id}-report.html`, new Blob([page], { type: 'text/html' }));
  });
  const cancel = useAction(async () => {
    await session.client.jobs.cancel(id);
    job.reload();
  });
  const [checked, setChecked] = useState<Record<string, string>>({});
  const download = useAction(async (table: string, name: string, expected: string) => {
    const { blob, sha256 } = await fetchResult(session.client, id, table);
    if (sha256 !== undefined && sha256 !== expected)
      throw new Error(`the download of ${table} has SHA-256 ${sha256}, not ${expected}: download it again`);
    setChecked((all) => ({ ...all, [table]: sha256 ? 'SHA-256 checked' : 'downloaded' }));
    saveFile(name, blob);
  });

  return (
    <>
      <h1 tabIndex={-1}>Job {id}</h1>
      <p>
        <a href={href('jobs')}>All jobs</a>
      </p>
      {job.error !== undefined && <ProblemView error={job.error} />}
      {job.data && (
        <section aria-labelledby="job-state">
          <h2 id="job-state">
            State: <span class={`state state-${job.data.state}`}>{job.data.state}</span>
          </h2>
          <Progress
            done={job.data.progress.rows_done ?? 0}
            total={job.data.progress.rows_total ?? 0}
            label="Progress of the job"
          />
          <ul class="plain">
            {job.data.progress.tables?.map((table) => (
              <li key={table.name}>
                {table.name}:{' '}
                <Progress done={table.rows_done} total={table.rows_total} label={`Progress of ${table.name}`} />
              </li>
            ))}
          </ul>
          <p class="muted">
            {job.data.sector} · {job.data.output.format}
            {job.data.output.compression === 'gzip' ? ' gzipped' : ''} · estimate {job.data.estimate.credits ?? 0}{' '}
            credits · charged {job.data.credits_charged ?? 0}
          </p>
          {active && can(session, 'jobs:write') && (
            <button
              type="button"
              class="danger"
              onClick={() => cancel.run()}
              disabled={cancel.pending || job.data.cancel_requested}
            >
              {job.data.cancel_requested ? 'Cancelling…' : 'Cancel job'}
            </button>
          )}
          {cancel.error !== undefined && <ProblemView error={cancel.error} />}
          {job.data.failure && (
            <ProblemView error={new FinsynthError(job.data.failure as Problem)} label="Why the job failed" />
          )}
        </section>
      )}
      {results.error !== undefined && <ProblemView error={results.error} />}
      {report.error !== undefined && <ProblemView error={report.error} label="Report problem" />}
      {report.data && (
        <section aria-labelledby="report-heading">
          <h2 id="report-heading">Conformance report: score {report.data.score}</h2>
          <p class="muted">
            Each table's score is the mean of its checks (validity, references, invariants, targets), the dataset's the
            tables' weighted by their rows.
          </p>
          <ul class="plain">
            {report.data.tables.map((table) => (
              <li key={table.name}>
                {table.name}: score {table.score} · {table.rows.toLocaleString('en')} rows ·{' '}
                {table.findings.length === 0 ? 'no finding' : `${table.findings.length} findings`}
              </li>
            ))}
          </ul>
          <button type="button" class="secondary" onClick={() => savePage.run()} disabled={savePage.pending}>
            Download the report page
          </button>
          {savePage.error !== undefined && <ProblemView error={savePage.error} label="Report problem" />}
        </section>
      )}
      {results.data && (
        <section aria-labelledby="results-heading">
          <h2 id="results-heading">Results</h2>
          {download.error !== undefined && <ProblemView error={download.error} label="Download problem" />}
          <div class="table-scroll" tabIndex={0} role="region" aria-label="Result files">
            <table class="data">
              <caption>Result files</caption>
              <thead>
                <tr>
                  <th scope="col">table</th>
                  <th scope="col">rows</th>
                  <th scope="col">size</th>
                  <th scope="col">SHA-256</th>
                  <th scope="col">download</th>
                </tr>
              </thead>
              <tbody>
                {results.data.data.map((file) => {
                  const name = `${file.table}.${file.format}${file.compression === 'gzip' ? '.gz' : ''}`;
                  return (
                    <tr key={file.table}>
                      <th scope="row">{file.table}</th>
                      <td>{file.rows.toLocaleString('en')}</td>
                      <td>{file.bytes.toLocaleString('en')} bytes</td>
                      <td>
                        <code class="hash">{file.sha256}</code>
                      </td>
                      <td>
                        <button
                          type="button"
                          class="secondary"
                          onClick={() => download.run(file.table, name, file.sha256)}
                        >
                          Download {name}
                        </button>{' '}
                        {checked[file.table] && <span role="status">{checked[file.table]}</span>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </>
  );
}
