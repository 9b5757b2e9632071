import { useState } from 'preact/hooks';
import { looksLikeKey, storeKey } from './session/key-store.js';
import { openSession, type Session } from './session/session.js';
import { describedBy, Field } from './ui/field.js';
import { ProblemView } from './ui/problem-view.js';

/** The key, pasted once: checked with the service, then kept in this tab's sessionStorage. */
export function SignIn({ notice, onSignedIn }: { notice?: string; onSignedIn(session: Session): void }) {
  const [key, setKey] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [pending, setPending] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const given = key.trim();
    setError(undefined);
    if (!looksLikeKey(given)) {
      setInvalid('A key looks like svc_live_… or svc_test_…');
      return;
    }
    setInvalid(undefined);
    setPending(true);
    try {
      const session = await openSession(given);
      storeKey(given);
      setKey('');
      onSignedIn(session);
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>finsynth console</h1>
      <p>
        Sign in with an API key. It stays in this browser tab (session storage), is sent only in the Authorization
        header to this service, and is forgotten when the tab closes.
      </p>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {/* No name on the input and no action: the key can never be sent as a form field or land in an address. */}
      <form onSubmit={submit} novalidate>
        <Field id="api-key" label="API key" error={invalid}>
          <input
            {...describedBy('api-key', invalid)}
            type="password"
            autocomplete="off"
            spellcheck={false}
            value={key}
            onInput={(event) => setKey(event.currentTarget.value)}
            required
          />
        </Field>
        <button type="submit" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {error !== undefined && <ProblemView error={error} label="Sign-in problem" />}
    </main>
  );
}
