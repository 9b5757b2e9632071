import type { KeyInput } from '@finsynth/client';
import { useState } from 'preact/hooks';
import { can, useSession } from '../session/session.js';
import { describedBy, Field } from '../ui/field.js';
import { fieldError, ProblemView } from '../ui/problem-view.js';
import { useAction, useLoad } from '../ui/use-load.js';

type Scope = NonNullable<KeyInput['scopes']>[number];

/** Every scope a key may hold (README, Authentication and keys). */
const ALL_SCOPES: Scope[] = [
  'generate',
  'jobs:read',
  'jobs:write',
  'catalog:read',
  'configs:read',
  'configs:write',
  'usage:read',
  'billing:read',
  'billing:write',
  'keys:read',
  'keys:write',
  'audit:read',
  'webhooks:read',
  'webhooks:write',
];

/** Keys of the mode: issue one with chosen scopes (its secret shown once), list them, revoke one. */
export function KeysPage() {
  const { session, signOut } = useSession();
  const keys = useLoad(() => session.client.keys.list({ limit: 100 }), []);
  // A key may grant only scopes it holds; when its scopes are unknown, the service says no (403).
  const grantable = session.key ? ALL_SCOPES.filter((scope) => session.key!.scopes.includes(scope)) : ALL_SCOPES;
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(grantable);
  const [secret, setSecret] = useState<{ name: string; secret: string } | undefined>(undefined);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState<string | undefined>(undefined);

  const issue = useAction(async () => {
    const issued = await session.client.keys.create({ ...(name.trim() ? { name: name.trim() } : {}), scopes });
    setSecret({ name: issued.name ?? issued.id, secret: issued.secret });
    setCopied(undefined);
    setName('');
    keys.reload();
  });
  const revoke = useAction(async (id: string) => {
    await session.client.keys.revoke(id);
    setConfirming(undefined);
    if (id === session.key?.id) signOut('Signed out: you revoked the key you were signed in with.');
    else keys.reload();
  });
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret.secret);
      setCopied('Copied.');
    } catch {
      setCopied('The browser refused to copy: select the key and copy it.');
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Keys</h1>
      {can(session, 'keys:write') && (
        <section aria-labelledby="issue-heading">
          <h2 id="issue-heading">Issue a {session.mode} key</h2>
          <form
            class="stacked-form"
            onSubmit={(event) => {
              event.preventDefault();
              issue.run();
            }}
          >
            <Field id="key-name" label="Name" error={fieldError(issue.error, '/name')}>
              <input
                {...describedBy('key-name', fieldError(issue.error, '/name'))}
                value={name}
                onInput={(event) => setName(event.currentTarget.value)}
              />
            </Field>
            <fieldset aria-describedby={fieldError(issue.error, '/scopes') ? 'key-scopes-error' : undefined}>
              <legend>Scopes</legend>
              <div class="scopes">
                {grantable.map((scope) => (
                  <div key={scope} class="check-row">
                    <input
                      type="checkbox"
                      id={`scope-${scope}`}
                      checked={scopes.includes(scope)}
                      onChange={(event) =>
                        setScopes((chosen) =>
                          event.currentTarget.checked ? [...chosen, scope] : chosen.filter((each) => each !== scope),
                        )
                      }
                    />
                    <label for={`scope-${scope}`}>{scope}</label>
                  </div>
                ))}
              </div>
              {fieldError(issue.error, '/scopes') && (
                <small id="key-scopes-error" class="field-error" role="alert">
                  {fieldError(issue.error, '/scopes')}
                </small>
              )}
            </fieldset>
            <button type="submit" disabled={issue.pending}>
              Issue key
            </button>
          </form>
          {issue.error !== undefined && <ProblemView error={issue.error} label="Key problem" />}
          {secret && (
            <div class="secret" role="region" aria-label="New key">
              <p>
                <strong>The key {secret.name}</strong>, shown this once: copy it now, it cannot be shown again.
              </p>
              <p class="secret-row">
                <input
                  aria-label="New key secret"
                  readOnly
                  value={secret.secret}
                  onFocus={(event) => event.currentTarget.select()}
                />
                <button type="button" onClick={copy}>
                  Copy
                </button>
                <button type="button" class="secondary" onClick={() => setSecret(undefined)}>
                  Done
                </button>
              </p>
              {copied && <p role="status">{copied}</p>}
            </div>
          )}
        </section>
      )}
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">{session.mode === 'live' ? 'Live' : 'Test'} keys</h2>
        {keys.error !== undefined && <ProblemView error={keys.error} />}
        {revoke.error !== undefined && <ProblemView error={revoke.error} />}
        {keys.data && (
          <div class="table-scroll" tabIndex={0} role="region" aria-label="Keys">
            <table class="data">
              <caption>Keys, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">name</th>
                  <th scope="col">key</th>
                  <th scope="col">scopes</th>
                  <th scope="col">created</th>
                  <th scope="col">state</th>
                </tr>
              </thead>
              <tbody>
                {keys.data.data.map((key) => (
                  <tr key={key.id}>
                    <th scope="row">
                      {key.name ?? '(no name)'}
                      {key.id === session.key?.id ? ' (this key)' : ''}
                    </th>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td class="scope-list">{key.scopes.join(', ')}</td>
                    <td>{new Date(key.created_at).toLocaleString('en-GB')}</td>
                    <td>
                      {key.revoked_at ? (
                        `revoked ${new Date(key.revoked_at).toLocaleString('en-GB')}`
                      ) : !can(session, 'keys:write') ? (
                        'active'
                      ) : confirming === key.id ? (
                        <span class="actions">
                          <button type="button" class="danger" onClick={() => revoke.run(key.id)}>
                            Confirm revoking {key.name ?? key.prefix}
                          </button>
                          <button type="button" class="secondary" onClick={() => setConfirming(undefined)}>
                            Keep it
                          </button>
                        </span>
                      ) : (
                        <button type="button" class="danger" onClick={() => setConfirming(key.id)}>
                          Revoke<span class="visually-hidden"> {key.name ?? key.prefix}</span>
                        </button>
                      )}
                    </td>
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
