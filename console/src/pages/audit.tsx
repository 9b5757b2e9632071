import type { operations } from '@finsynth/client';
import { useState } from 'preact/hooks';
import { problemError } from '../client/problem-error.js';
import { useSession } from '../session/session.js';
import { ProblemView } from '../ui/problem-view.js';
import { useAction, useLoad } from '../ui/use-load.js';

type AuditPage = operations['auditCredits']['responses'][200]['content']['application/json'];

const signed = (value: number): string => (value > 0 ? `+${value.toLocaleString('en')}` : value.toLocaleString('en'));

/** The verdict of the account's credit audit, its movements with running balances, and any chain break. */
export function AuditPage() {
  const { session } = useSession();
  const first = useLoad(() => session.client.audit.credits({ limit: 50 }), []);
  const [more, setMore] = useState<AuditPage[]>([]);
  const pages = first.data ? [first.data, ...more] : [];
  const last = pages.at(-1);
  const next = useAction(async () => {
    const cursor = last?.next_cursor;
    if (!cursor) return;
    const query = { limit: 50, cursor };
    const { data, error, response } = await session.client.raw.GET('/v1/audit/credits', { params: { query } });
    if (!data) throw problemError(response, error);
    setMore((loaded) => [...loaded, data]);
  });
  const verdict = first.data?.verdict;

  return (
    <>
      <h1 tabIndex={-1}>Audit</h1>
      {first.error !== undefined && <ProblemView error={first.error} />}
      {verdict && (
        <section aria-labelledby="verdict-heading">
          <h2 id="verdict-heading">Verdict</h2>
          <p class={verdict.holds ? 'verdict verdict-holds' : 'verdict verdict-fails'} role="status">
            {verdict.holds
              ? `The audit holds: ${verdict.events} events replayed, the hash chain is intact, ` +
                "and the replayed balance equals the projection's."
              : 'The audit does not hold.'}
          </p>
          <dl class="facts" aria-label="Verdict">
            <dt>Hash chain</dt>
            <dd>{verdict.chain_intact ? 'intact' : 'broken'}</dd>
            <dt>Replayed balance</dt>
            <dd>
              {verdict.replayed.credits_available.toLocaleString('en')} available,{' '}
              {verdict.replayed.credits_reserved.toLocaleString('en')} reserved
            </dd>
            <dt>Projected balance</dt>
            <dd>
              {verdict.projected.credits_available.toLocaleString('en')} available,{' '}
              {verdict.projected.credits_reserved.toLocaleString('en')} reserved
              {verdict.balance_matches ? ' (matches)' : ' (does not match)'}
            </dd>
          </dl>
          {verdict.chain_breaks.length > 0 && (
            <ul class="problem" aria-label="Chain breaks">
              {verdict.chain_breaks.map((broken) => (
                <li key={`${broken.stream}:${broken.revision}`}>
                  {broken.stream} at revision {broken.revision} (position {broken.position}): {broken.reason}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {pages.length > 0 && (
        <section aria-labelledby="movements-heading">
          <h2 id="movements-heading">Credit movements</h2>
          <div class="table-scroll" tabIndex={0} role="region" aria-label="Credit movements">
            <table class="data">
              <caption>Credit movements with running balances</caption>
              <thead>
                <tr>
                  <th scope="col">revision</th>
                  <th scope="col">when</th>
                  <th scope="col">event</th>
                  <th scope="col">reference</th>
                  <th scope="col">change</th>
                  <th scope="col">available</th>
                  <th scope="col">reserved</th>
                  <th scope="col">hash</th>
                </tr>
              </thead>
              <tbody>
                {pages
                  .flatMap((page) => page.data)
                  .map((movement) => (
                    <tr key={movement.position} class={movement.hash_valid ? undefined : 'broken'}>
                      <th scope="row">{movement.revision}</th>
                      <td>{new Date(movement.recorded_at).toLocaleString('en-GB')}</td>
                      <td>{movement.type}</td>
                      <td>
                        <code>{movement.reference}</code>
                      </td>
                      <td class="number">
                        {signed(movement.change.credits_available)}
                        {movement.change.credits_reserved !== 0 &&
                          ` (reserved ${signed(movement.change.credits_reserved)})`}
                      </td>
                      <td class="number">{movement.credits_available.toLocaleString('en')}</td>
                      <td class="number">{movement.credits_reserved.toLocaleString('en')}</td>
                      <td>
                        <code class="hash" title={movement.hash}>
                          {movement.hash.slice(0, 12)}…
                        </code>{' '}
                        {movement.hash_valid ? 'valid' : 'BROKEN'}
                      </td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </div>
          {last?.has_more && (
            <button type="button" class="secondary" onClick={() => next.run()} disabled={next.pending}>
              Show more movements
            </button>
          )}
          {next.error !== undefined && <ProblemView error={next.error} />}
        </section>
      )}
    </>
  );
}
